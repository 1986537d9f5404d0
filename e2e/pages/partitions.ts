/** The partitions screen and its write-sharding what-if. */
import { expect, type Locator, type Page } from '@playwright/test';

export class PartitionsPage {
  constructor(readonly page: Page) {}

  async simulate(): Promise<void> {
    await this.page.getByRole('button', { name: /^Simulate( again)?$/ }).click();
    await expect(this.page.getByTestId('target-panel').first()).toBeVisible({ timeout: 30_000 });
  }

  patternThrottling(name: string): Locator {
    return this.page.getByTestId('pattern-throttling').filter({ hasText: name });
  }

  noThrottling(): Locator {
    return this.page.getByTestId('no-throttling');
  }

  summary(): Locator {
    return this.page.getByTestId('target-summary').first();
  }

  hottestKeys(): Locator {
    return this.page.getByRole('table', { name: /^Hottest keys of Table/ }).first();
  }

  throttledKeys(): Locator {
    return this.page.getByRole('table', { name: /^Throttled keys of Table/ }).first();
  }

  /** The what-if's line about the key it starts from: its busiest second and average. */
  hotKey(): Locator {
    return this.page.getByTestId('hot-key');
  }

  keyRedesign(): Locator {
    return this.page.getByTestId('key-redesign');
  }

  recommended(): Locator {
    return this.page.getByTestId('recommended-shards');
  }

  runSettings(): Locator {
    return this.page.getByTestId('run-settings');
  }

  async chooseStart(start: 'cold' | 'warm'): Promise<void> {
    await this.page.getByLabel('Start', { exact: true }).selectOption(start);
  }

  async setHeadroom(headroom: number): Promise<void> {
    const field = this.page.getByLabel('Headroom', { exact: true });
    await field.fill(String(headroom));
    await field.blur();
  }

  whatIfExplained(): Locator {
    return this.page.getByTestId('whatif-explained');
  }

  async showWhatIf(): Promise<void> {
    await this.page.getByTestId('whatif-result').scrollIntoViewIfNeeded();
  }

  async simulateWhatIf(): Promise<void> {
    await this.page.getByRole('button', { name: /^Simulate with \d+ shards$/ }).click();
    await expect(this.page.getByTestId('whatif-result')).toBeVisible({ timeout: 30_000 });
  }

  whatIfThrottled(): Locator {
    return this.page.getByTestId('whatif-throttled');
  }

  fanOutChange(name: string): Locator {
    return this.page.getByTestId('fanout-change').filter({ hasText: name });
  }
}
