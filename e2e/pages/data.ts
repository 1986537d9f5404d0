/** The data screen: generated sample items in the aggregate view. */
import { expect, type Locator, type Page } from '@playwright/test';

export class DataPage {
  constructor(readonly page: Page) {}

  async generate(): Promise<void> {
    await this.page.getByTestId('generate-sample').click();
    await expect(this.page.getByTestId('sample-summary')).toBeVisible({ timeout: 60_000 });
  }

  summary(): Locator {
    return this.page.getByTestId('sample-summary');
  }

  rows(): Locator {
    return this.page.getByTestId('sample-row');
  }

  collections(): Locator {
    return this.page.getByTestId('sample-collection');
  }

  async selectView(name: RegExp): Promise<void> {
    await this.page.getByTestId('sample-view-tab').filter({ hasText: name }).click();
  }

  async find(key: string): Promise<void> {
    await this.page.getByTestId('sample-find').fill(key);
    await this.page.getByTestId('sample-find').press('Enter');
  }
}
