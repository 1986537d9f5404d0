/** The Table & indexes screen's table settings: capacity, throughput, recovery, encryption, tags, monitoring. */
import { expect, type Locator, type Page } from '@playwright/test';

/** `the table`, or `GSI <name>`: whose throughput rows. */
export type ThroughputOwner = 'the table' | `GSI ${string}`;

export class TableSettingsPage {
  constructor(readonly page: Page) {}

  get capacity(): Locator {
    return this.page.getByRole('group', { name: 'Capacity' });
  }

  get billing(): Locator {
    return this.capacity.getByLabel('Billing');
  }

  /** The warm throughput fields of the table or a GSI: `field('Read units/s')`. */
  warm(owner: ThroughputOwner): Locator {
    return this.page.getByRole('group', { name: `Warm throughput of ${owner}` });
  }

  /** The on-demand maximum fields of the table or a GSI. */
  maximum(owner: ThroughputOwner): Locator {
    return this.page.getByRole('group', { name: `On-demand maximum of ${owner}` });
  }

  async setWarm(owner: ThroughputOwner, read: number | '', write: number | ''): Promise<void> {
    await this.warm(owner).getByLabel('Read units/s').fill(String(read));
    await this.warm(owner).getByLabel('Write units/s').fill(String(write));
  }

  async setMaximum(owner: ThroughputOwner, read: number | '', write: number | ''): Promise<void> {
    await this.maximum(owner).getByLabel('Read request units/s').fill(String(read));
    await this.maximum(owner).getByLabel('Write request units/s').fill(String(write));
  }

  /** The implied partitions and pre-warming cost beside a warm throughput. */
  warmEstimates(owner: ThroughputOwner): Locator {
    return this.warm(owner).getByTestId('warm-estimates');
  }

  /** The line saying where a provisioned table's or GSI's capacity comes from. */
  proposal(owner: ThroughputOwner): Locator {
    const scope = owner === 'the table' ? this.capacity : this.page.getByRole('article', { name: owner });
    return scope.getByTestId('capacity-proposal');
  }

  capacityField(unit: 'RCU' | 'WCU'): Locator {
    return this.capacity.getByLabel(unit === 'RCU' ? 'Read capacity (RCU)' : 'Write capacity (WCU)');
  }

  get pointInTimeRecovery(): Locator {
    return this.page.getByLabel('Point-in-time recovery');
  }

  get recoveryPeriod(): Locator {
    return this.page.getByLabel('Recovery period (days)');
  }

  get deletionProtection(): Locator {
    return this.page.getByLabel('Deletion protection');
  }

  encryption(choice: 'Owned by DynamoDB' | 'AWS managed key' | 'Customer managed key'): Locator {
    return this.page.getByRole('radiogroup', { name: 'Encryption key' }).getByRole('radio', { name: new RegExp(`^${choice}`) });
  }

  get kmsKey(): Locator {
    return this.page.getByLabel('KMS key ARN, id or alias');
  }

  get recovery(): Locator {
    return this.page.getByRole('group', { name: 'Recovery & protection' });
  }

  get encryptionGroup(): Locator {
    return this.page.getByRole('group', { name: 'Encryption at rest' });
  }

  get tags(): Locator {
    return this.page.getByRole('group', { name: 'Tags' });
  }

  async addTag(key: string, value: string): Promise<void> {
    const before = await this.tags.getByLabel(/^Tag \d+ key$/).count();
    await this.tags.getByRole('button', { name: 'Add tag' }).click();
    await expect(this.tags.getByLabel(/^Tag \d+ key$/)).toHaveCount(before + 1);
    await this.tagKey(before + 1).fill(key);
    await this.tagValue(before + 1).fill(value);
  }

  /** Tag fields count from 1, as their labels do. */
  tagKey(n: number): Locator {
    return this.tags.getByLabel(`Tag ${n} key`);
  }

  tagValue(n: number): Locator {
    return this.tags.getByLabel(`Tag ${n} value`);
  }

  async removeTag(n: number): Promise<void> {
    await this.tags.getByRole('button', { name: new RegExp(`^Remove tag ${n}\\b`) }).click();
  }

  get contributorInsights(): Locator {
    return this.page.getByLabel('Contributor Insights');
  }

  /** Opens the derivation of the figure inside `scope` titled "How <what> is computed"; returns the dialog. */
  async explain(scope: Locator, what: string): Promise<Locator> {
    await scope.getByTitle(`How ${what} is computed`, { exact: true }).first().click();
    const dialog = this.page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /** The Costs screen's table of warm throughput and maximums, for one table. */
  costsThroughput(table: string): Locator {
    return this.page.getByRole('table', { name: `Throughput settings of table ${table}` });
  }
}
