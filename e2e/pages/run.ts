/** The Run screen: engine and sizes, the run with its progress and cancel, the report, leftover tables. */
import { expect, type Locator, type Page } from '@playwright/test';

export class RunPage {
  constructor(readonly page: Page) {}

  async show(): Promise<void> {
    const button = this.page.getByRole('navigation').getByRole('button', { name: /^Run/ });
    await button.click();
    await expect(button).toHaveAttribute('aria-current', 'page');
  }

  engine(label: 'Embedded' | 'DynamoDB Local' | 'AWS'): Locator {
    return this.page.getByRole('radio', { name: new RegExp(`^${label}`) });
  }

  get itemsPerEntity(): Locator {
    return this.page.getByLabel('Items per entity');
  }

  get repeat(): Locator {
    return this.page.getByLabel('Repeat each pattern');
  }

  async setSizes(items: number, repeat: number): Promise<void> {
    await this.itemsPerEntity.fill(String(items));
    await this.repeat.fill(String(repeat));
  }

  get runButton(): Locator {
    return this.page.getByRole('region', { name: 'Run', exact: true }).getByRole('button', { name: /^Run( again)?$/ });
  }

  async run(): Promise<void> {
    await this.runButton.click();
  }

  get progress(): Locator {
    return this.page.getByTestId('run-progress');
  }

  /** Waits until the host reports the run's own progress (the run is registered and can be canceled). */
  async hostReports(): Promise<void> {
    await expect(this.progress).toHaveAttribute('data-from-host', 'true', { timeout: 30_000 });
  }

  async cancel(): Promise<void> {
    await this.progress.getByRole('button', { name: 'Cancel' }).click();
  }

  get notice(): Locator {
    return this.page.getByTestId('run-notice');
  }

  get problem(): Locator {
    return this.page.getByTestId('run-problem');
  }

  get report(): Locator {
    return this.page.getByTestId('run-report');
  }

  /** The name the run gave the table in the engine (`keyplan-run-…`). */
  async tableName(): Promise<string> {
    return (await this.page.getByTestId('run-table-name').innerText()).trim();
  }

  get summary(): Locator {
    return this.page.getByTestId('run-summary');
  }

  /** Waits for the report of a run that was started (embedded runs take seconds). */
  async finished(): Promise<void> {
    await expect(this.progress).toBeHidden({ timeout: 120_000 });
    await expect(this.report).toBeVisible();
  }

  rows(): Locator {
    return this.page.getByTestId('run-pattern');
  }

  row(name: string): Locator {
    return this.rows().filter({ has: this.page.getByRole('rowheader', { name, exact: true }) });
  }

  agreement(name: string): Locator {
    return this.row(name).locator('[data-agreement]').last();
  }

  /** Opens the row's requests (unless open) and copies the first as `format`. */
  async copyRequest(name: string, format: 'Copy as SDK code' | 'Copy as CLI' | 'Copy as JSON'): Promise<void> {
    const row = this.row(name);
    const details = row.getByTestId('run-requests');
    if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').click();
    await details.getByRole('button', { name: format }).first().click();
    await expect(row.getByRole('status')).toContainText('Copied');
  }

  /** Waits until the screen has asked the host for leftover tables since it opened. */
  async leftoversChecked(): Promise<void> {
    await expect(this.page.locator('[data-leftovers="checked"]')).toBeVisible();
  }

  get leftovers(): Locator {
    return this.page.getByTestId('run-leftovers');
  }
}
