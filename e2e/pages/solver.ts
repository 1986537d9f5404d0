/** The "Propose key design" dialog of the Access patterns screen: every locator and action the solver spec uses. */
import { expect, type Locator, type Page } from '@playwright/test';

export class SolverDialog {
  constructor(readonly page: Page) {}

  /** The button beside "Add pattern" that opens the dialog. */
  get openButton(): Locator {
    return this.page.getByRole('button', { name: 'Propose key design', exact: true });
  }

  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Propose key design' });
  }

  async open(): Promise<void> {
    await this.openButton.click();
    await expect(this.dialog).toBeVisible();
  }

  /** What the dialog says the table needs instead of running. */
  get needed(): Locator {
    return this.dialog.getByTestId('solver-needs');
  }

  get proposeButton(): Locator {
    return this.dialog.getByRole('button', { name: 'Propose', exact: true });
  }

  maxGsis(): Locator {
    return this.dialog.getByLabel('Maximum GSIs');
  }

  noScan(): Locator {
    return this.dialog.getByRole('checkbox', { name: /^No Scan/ });
  }

  keepTableKey(): Locator {
    return this.dialog.getByRole('checkbox', { name: /^Keep the table key as it is/ });
  }

  budget(): Locator {
    return this.dialog.getByLabel('Monthly budget (USD, optional)');
  }

  billing(): Locator {
    return this.dialog.getByLabel('Billing');
  }

  seed(): Locator {
    return this.dialog.getByLabel('Seed');
  }

  async setMaxGsis(n: number): Promise<void> {
    await this.maxGsis().fill(String(n));
  }

  async propose(): Promise<void> {
    await this.proposeButton.click();
  }

  /** The progress bar, its label and its Cancel button, while the solver runs. */
  get progress(): Locator {
    return this.dialog.getByTestId('solver-progress');
  }

  get progressBar(): Locator {
    return this.progress.getByRole('progressbar', { name: 'Key designs priced' });
  }

  async cancel(): Promise<void> {
    await this.progress.getByRole('button', { name: 'Cancel' }).click();
  }

  get canceled(): Locator {
    return this.dialog.getByTestId('solver-canceled');
  }

  /** The ranked proposals, once the solver has answered. */
  get results(): Locator {
    return this.dialog.getByTestId('solver-results');
  }

  /** Waits for the proposals (the solver runs for seconds on a busy machine). */
  async proposals(): Promise<Locator> {
    await expect(this.results).toBeVisible({ timeout: 60_000 });
    return this.results;
  }

  summary(): Locator {
    return this.results.locator('p').first();
  }

  tabs(): Locator {
    return this.results.getByRole('tablist', { name: 'Ranked proposals' }).getByRole('tab');
  }

  tab(rank: number): Locator {
    return this.tabs().nth(rank - 1);
  }

  /** Shows the proposal ranked `rank` and returns it. */
  async show(rank: number): Promise<Locator> {
    await this.tab(rank).click();
    return this.shown();
  }

  /** The proposal shown. */
  shown(): Locator {
    return this.results.getByRole('tabpanel').getByRole('article');
  }

  cost(proposal: Locator): Locator {
    return proposal.getByTestId('proposal-cost');
  }

  ratio(proposal: Locator): Locator {
    return proposal.getByTestId('proposal-ratio');
  }

  gsis(proposal: Locator): Locator {
    return proposal.getByTestId('proposal-gsis');
  }

  feasible(proposal: Locator): Locator {
    return proposal.getByTestId('proposal-feasible');
  }

  risk(proposal: Locator): Locator {
    return proposal.getByTestId('proposal-risk');
  }

  rules(proposal: Locator): Locator {
    return proposal.getByRole('list', { name: /^Rules applied/ }).getByRole('listitem');
  }

  patternRows(proposal: Locator): Locator {
    return proposal.getByRole('table', { name: /^Patterns of proposal/ }).locator('tbody').getByRole('row');
  }

  patternRow(proposal: Locator, name: string): Locator {
    return proposal.getByRole('row', { name: `Proposed for ${name}`, exact: true });
  }

  async openAsAlternative(proposal: Locator): Promise<void> {
    await proposal.getByRole('button', { name: 'Open as alternative' }).click();
    await expect(this.dialog).toBeHidden();
  }

  async openAsNewDesign(proposal: Locator): Promise<void> {
    await proposal.getByRole('button', { name: 'Open as new design' }).click();
    await expect(this.dialog).toBeHidden();
  }

  async close(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await expect(this.dialog).toBeHidden();
  }
}
