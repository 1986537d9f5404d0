/** The Compare screen and its revisions panel: every locator and action the compare spec uses. */
import { expect, type Locator, type Page } from '@playwright/test';

/** A string as an XPath 1.0 literal, whatever quotes it holds. */
function xpathLiteral(s: string): string {
  if (!s.includes("'")) return `'${s}'`;
  if (!s.includes('"')) return `"${s}"`;
  return `concat(${s.split("'").map((part) => `'${part}'`).join(`, "'", `)})`;
}

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

  /** On the Table & indexes screen: changes a GSI's projection. */
  async setProjection(gsi: string, projection: 'ALL' | 'KEYS_ONLY'): Promise<void> {
    await this.page.getByRole('article', { name: `GSI ${gsi}` }).getByLabel('Projection').selectOption(projection);
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

  /** The ✓ mark in the cell of design `side`, by its accessible name. */
  mark(subject: string, label: string, side: number): Locator {
    return this.cell(subject, label, side).getByRole('img', { name: 'better' });
  }

  /** The marks in a row, whichever side. */
  marks(subject: string, label: string): Locator {
    return this.row(subject, label).getByRole('img', { name: 'better' });
  }

  /**
   * The short label of the design marked better in a row, as a reader finds it: the column of the
   * ✓, then that letter's label in the list of compared designs.
   */
  better(subject: string, label: string): Locator {
    const row = `//table[@aria-label='Comparison']//tr[@aria-label=${xpathLiteral(`${subject} · ${label}`)}]`;
    const column = `count(${row}/td[@data-best='true'][1]/preceding-sibling::td) + 1`;
    return this.page.locator(`xpath=//ol[@aria-label='Compared designs']/li[${row}/td[@data-best='true']][position() = ${column}]//*[@data-testid='side-label']`);
  }

  /** The list of compared designs: `A: …`, `B: …`. */
  sides(): Locator {
    return this.page.getByRole('list', { name: 'Compared designs' }).getByRole('listitem');
  }

  /** The short labels of the compared designs, in column order. */
  sideLabels(): Locator {
    return this.page.getByRole('list', { name: 'Compared designs' }).getByTestId('side-label');
  }

  /** The column headers of the designs (A, B, C). */
  sideColumns(): Locator {
    return this.report.getByTestId('side-column');
  }

  /** The header row's cells: `Row`, then one per design. */
  columnHeaders(): Locator {
    return this.report.locator('thead').getByRole('columnheader');
  }

  /** The summary of design `letter` against A. */
  summary(letter = 'B'): Locator {
    return this.page.getByRole('region', { name: `${letter} against A` });
  }

  summaryChanges(letter = 'B'): Locator {
    return this.summary(letter).getByTestId('summary-changes');
  }

  summaryPatterns(letter = 'B'): Locator {
    return this.summary(letter).getByTestId('summary-patterns');
  }

  /** Opens the derivation of a net figure (`on-demand` or `provisioned`); returns the dialog. */
  async explainNet(which: 'on-demand' | 'provisioned', letter = 'B'): Promise<Locator> {
    await this.summary(letter).getByRole('button', { name: new RegExp(`/month ${which}$`) }).click();
    return this.page.getByRole('dialog');
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
