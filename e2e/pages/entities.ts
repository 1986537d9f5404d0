/** The Entities & keys screen: entities, their attributes and the values each attribute takes. */
import { expect, type Locator, type Page } from '@playwright/test';

export class EntitiesPage {
  constructor(readonly page: Page) {}

  async select(entity: string): Promise<void> {
    await this.page.getByRole('list', { name: 'Entities' }).getByRole('button', { name: entity, exact: true }).click();
    await expect(this.page.getByRole('region', { name: `Entity ${entity}` })).toBeVisible();
  }

  /** Opens the values editor of an attribute; returns it. */
  async values(attribute: string): Promise<Locator> {
    await this.page.getByRole('button', { name: new RegExp(`^Values of ${attribute}:`) }).click();
    const editor = this.page.getByTestId(`generator-${attribute}`);
    await expect(editor).toBeVisible();
    return editor;
  }

  async setHotValue(attribute: string, sharePercent: number): Promise<void> {
    const editor = await this.values(attribute);
    await editor.getByLabel(`Spread of ${attribute}`).selectOption('hotKey');
    const share = editor.getByLabel("Hot value's share %");
    await share.fill(String(sharePercent));
    await share.blur();
  }

  preview(keyAttribute: string): Locator {
    return this.page.getByLabel(`${keyAttribute} preview`);
  }
}
