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

  recommended(): Locator {
    return this.page.getByTestId('recommended-shards');
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
