/** The Compare screen and its revisions panel: every locator and action the compare spec uses. */
import { expect, type Locator, type Page } from '@playwright/test';

export class ComparePage {
  constructor(readonly page: Page) {}

  async show(): Promise<void> {
    await this.page.getByRole('navigation').getByRole('button', { name: 'Compare' }).click();
    await expect(this.page.getByRole('heading', { name: 'Compare', level: 1 })).toBeVisible();
  }

  async activateDesign(title: string): Promise<void> {
    await this.page.getByRole('list', { name: 'Open designs' }).getByRole('button', { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( unsaved changes)?$`) }).click();
  }

  /** On the Access patterns screen: opens a pattern's details and adds (or reuses) the index its plan suggests. */
  async addSuggestedIndex(pattern: string): Promise<void> {
    await this.page.getByRole('row', { name: `Pattern ${pattern}` }).getByRole('cell').nth(1).click();
    await this.page.getByRole('button', { name: /^(Add GSI|Use GSI)/ }).click();
  }

  async duplicateAsAlternative(): Promise<void> {
    await this.page.getByRole('button', { name: 'Duplicate as alternative' }).click();
  }

  source(label: string | RegExp): Locator {
    return this.page.getByRole('group', { name: 'Compare sources' }).getByRole('checkbox', { name: label, exact: true });
  }

  /** Runs the simulator on every side in the host and waits for the partition-risk rows. */
  async addPartitionRisk(): Promise<void> {
    await this.page.getByRole('button', { name: 'Add partition risk' }).click();
    await expect(this.page.getByRole('button', { name: 'Simulate partition risk again' })).toBeVisible({ timeout: 60_000 });
  }

  get report(): Locator {
    return this.page.getByRole('table', { name: 'Comparison' });
  }

  /** A row of the report: `<subject> · <row label>`, e.g. `List users in a country · Operation`. */
  row(subject: string, label: string): Locator {
    return this.report.getByRole('row', { name: `${subject} · ${label}`, exact: true });
  }

  /** The cell of design `side` (0 = first column). */
  cell(subject: string, label: string, side: number): Locator {
    return this.row(subject, label).getByRole('cell').nth(side);
  }

  /** Opens the derivation of the number in a cell; returns the dialog. */
  async explain(subject: string, label: string, side: number): Promise<Locator> {
    await this.cell(subject, label, side).getByRole('button').click();
    return this.page.getByRole('dialog');
  }

  better(subject: string, label: string): Locator {
    return this.row(subject, label).getByTestId('better');
  }

  rows(): Locator {
    return this.report.getByTestId('compare-row');
  }

  async onlyRowsThatDiffer(on: boolean): Promise<void> {
    await this.page.getByRole('checkbox', { name: 'Only rows that differ' }).setChecked(on);
  }

  get unmatched(): Locator {
    return this.page.getByRole('region', { name: 'Unmatched access patterns' });
  }

  // Revisions
  revisions(): Locator {
    return this.page.getByRole('list', { name: 'Revisions of this design' }).getByTestId('revision');
  }

  async checkpoint(name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Save checkpoint…' }).click();
    await this.page.getByLabel('Checkpoint name').fill(name);
    await this.page.getByRole('button', { name: 'Keep', exact: true }).click();
  }

  async undo(): Promise<void> {
    await this.page.getByRole('button', { name: 'Undo', exact: true }).click();
  }

  async restore(revision: Locator): Promise<void> {
    await revision.getByRole('button', { name: 'Restore' }).click();
  }

  async compareWithCurrent(revision: Locator): Promise<void> {
    await revision.getByRole('button', { name: 'Compare with current' }).click();
  }
}
