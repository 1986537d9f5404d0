/**
 * Every table setting of the Table & indexes screen, edited as a user does: warm throughput with its
 * estimates, on-demand maximums against the load, point-in-time recovery, deletion protection,
 * encryption, tags and Contributor Insights; then saved, and read back from the file. Switching to
 * provisioned proposes the capacity the load needs, with its derivation, and undoes in one step.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';
import { TableSettingsPage } from './pages/table-settings.ts';

test('every table setting is edited in the Table & indexes screen, checked at its field, and saved in the design', async ({ page, host, steps }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = new KeyplanPage(page);
  const settings = new TableSettingsPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await app.show('Table & indexes');

  // Warm throughput: a new on-demand table's 12,000 reads or 4,000 writes imply max(4, 4) = 4 partitions;
  // 30,000 reads and 10,000 writes a second imply ceil(max(10, 10)) = 10 partitions and
  // (30,000 − 12,000) × $0.00013 + (10,000 − 4,000) × $0.00065 = $6.24 of pre-warming, both estimates.
  await expect(settings.warmEstimates('the table')).toContainText('≈ 4');
  await settings.setWarm('the table', 30_000, 10_000);
  await expect(settings.warmEstimates('the table')).toContainText('≈ 10');
  await expect(settings.warmEstimates('the table')).toContainText('$6.24');
  await expect(settings.warmEstimates('the table')).toContainText('estimates');
  const preWarm = await settings.explain(settings.warm('the table'), 'pre-warming the table (an estimate)');
  await expect(preWarm).toContainText('18,000 RCU × 1 h × $0.00013');
  await expect(preWarm).toContainText('publishes no price');
  await preWarm.getByRole('button', { name: 'Close' }).click();
  // A value DynamoDB does not take is refused at the field.
  await settings.warm('GSI GSI1').getByLabel('Write units/s').fill('0');
  await expect(settings.warm('GSI GSI1')).toContainText('Must be at least 1; got 0.');
  // Below what a new on-demand GSI serves at once, warm throughput asks for nothing: refused too.
  await settings.warm('GSI GSI1').getByLabel('Write units/s').fill('3000');
  await expect(settings.warm('GSI GSI1')).toContainText('below the 4,000 a new on-demand table or GSI serves at once');
  // 12,000 reads (the default) and 5,000 writes: ceil(max(4, 5)) = 5 partitions.
  await settings.warm('GSI GSI1').getByLabel('Write units/s').fill('5000');
  await expect(settings.warmEstimates('GSI GSI1')).toContainText('≈ 5');

  // On-demand maximums below the patterns' peak: the field says what DynamoDB will do.
  await settings.setMaximum('the table', 1000, '');
  await expect(settings.maximum('the table')).toContainText('is above this maximum of 1,000');
  await expect(settings.maximum('the table')).toContainText('TableReadMaxOnDemandThroughputExceeded');
  await settings.setMaximum('GSI GSI1', '', 10);
  await expect(settings.maximum('GSI GSI1')).toContainText('IndexWriteMaxOnDemandThroughputExceeded');
  await expect(settings.maximum('GSI GSI1')).toContainText("the table's writes that update this GSI (back-pressure)");
  await settings.capacity.scrollIntoViewIfNeeded();
  await steps.shot('capacity');

  // Recovery and protection: a period DynamoDB does not take is refused, 7 days is kept.
  await settings.pointInTimeRecovery.check();
  await expect(settings.recoveryPeriod).toHaveAttribute('placeholder', '35 (the default)');
  await settings.recoveryPeriod.fill('40');
  await expect(settings.recovery).toContainText('Must be at most 35; got 40.');
  await settings.recoveryPeriod.fill('7');
  await settings.deletionProtection.check();

  // Encryption, from the keyboard (the three choices are one Tab stop, the arrows move between them):
  // a customer managed key without its ARN is a problem at the field until it is given.
  await settings.encryption('Owned by DynamoDB').focus();
  await page.keyboard.press('ArrowDown');
  await expect(settings.encryption('AWS managed key')).toBeChecked();
  await page.keyboard.press('ArrowDown');
  await expect(settings.encryption('Customer managed key')).toBeChecked();
  await expect(settings.encryptionGroup).toContainText('has an empty KMS key id');
  await expect(settings.kmsKey).toHaveAttribute('aria-invalid', 'true');
  const arn = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
  await settings.kmsKey.fill(arn);
  await expect(settings.encryptionGroup).not.toContainText('has an empty KMS key id');

  // Tags: added in order; a key another tag has stays in its field with a message; a rename keeps the order.
  await settings.addTag('team', 'checkout');
  await settings.addTag('env', 'prod');
  await settings.addTag('owner', 'ana');
  await settings.tagKey(3).fill('team');
  await expect(settings.tags).toContainText('Another tag has the key "team"; keys are unique.');
  await settings.tagKey(3).fill('costCenter');
  await expect(settings.tags).not.toContainText('keys are unique');
  await settings.tagKey(2).fill('stage');
  await settings.removeTag(1);
  await expect(settings.tagKey(1)).toHaveValue('stage');
  // The reserved aws: prefix is the design's rule, shown at the tag.
  await settings.addTag('aws:owner', 'x');
  await expect(settings.tags).toContainText('the "aws:" prefix is reserved for AWS');
  await settings.removeTag(3);

  await settings.contributorInsights.selectOption({ label: 'Throttled keys only' });
  await settings.recovery.scrollIntoViewIfNeeded();
  await steps.shot('settings');

  // Saved in the design, every setting where the exports read it.
  await app.saveAs('settings.keyplan.json');
  const saved = JSON.parse(await readFile(join(host.workspaceDir, 'settings.keyplan.json'), 'utf8'));
  const table = saved.tables[0];
  expect(table.warmThroughput).toEqual({ readUnitsPerSecond: 30_000, writeUnitsPerSecond: 10_000 });
  expect(table.onDemandThroughput).toEqual({ maxReadRequestUnits: 1000 });
  expect(table.pointInTimeRecovery).toEqual({ enabled: true, recoveryPeriodInDays: 7 });
  expect(table.deletionProtection).toBe(true);
  expect(table.encryption).toEqual({ type: 'KMS', kmsKeyId: arn });
  expect(Object.entries(table.tags)).toEqual([
    ['stage', 'prod'],
    ['costCenter', 'ana'],
  ]);
  expect(table.contributorInsights).toEqual({ enabled: true, mode: 'THROTTLED_KEYS' });
  expect(table.globalSecondaryIndexes[0]).toMatchObject({ warmThroughput: { writeUnitsPerSecond: 5000 }, onDemandThroughput: { maxWriteRequestUnits: 10 } });

  // The Costs screen: the maximums as errors naming DynamoDB's reasons, and the warm throughput estimates.
  await app.show('Costs');
  const warnings = page.getByTestId('warning');
  await expect(warnings.filter({ hasText: 'TableReadMaxOnDemandThroughputExceeded' })).toHaveCount(1);
  await expect(warnings.filter({ hasText: 'IndexWriteMaxOnDemandThroughputExceeded' })).toHaveCount(1);
  const rows = settings.costsThroughput('Shop').getByTestId('throughput-row');
  await expect(rows.first()).toContainText('30,000 RCU/s');
  await expect(rows.first()).toContainText('$6.24');
  await settings.costsThroughput('Shop').scrollIntoViewIfNeeded();
  await steps.shot('costs');
});

test('switching to provisioned proposes the capacity the load needs, says where it comes from, and undoes in one step', async ({ page, host, steps }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = new KeyplanPage(page);
  const settings = new TableSettingsPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await app.show('Table & indexes');
  await settings.setMaximum('the table', 5000, '');

  // The example's patterns peak at 1,225 RCU/s and 200 WCU/s on the table: ÷ 70 % = 1,750 and 286.
  await settings.billing.selectOption('PROVISIONED');
  await expect(settings.capacityField('RCU')).toHaveValue('1750');
  await expect(settings.capacityField('WCU')).toHaveValue('286');
  await expect(settings.proposal('the table')).toContainText('Proposed from the load');
  await expect(settings.proposal('the table')).toContainText('70 % target utilization');
  await expect(settings.proposal('GSI GSI1')).toContainText('Proposed from the load');
  await expect(settings.maximum('the table')).toHaveCount(0);
  const derivation = await settings.explain(settings.proposal('the table'), 'the RCU proposed for the table');
  await expect(derivation).toContainText('max(1, ceil(1,225 ÷ 70 %))');
  await derivation.getByRole('button', { name: 'Close' }).click();
  await settings.capacity.scrollIntoViewIfNeeded();
  await steps.shot('provisioned-proposal');

  // Changing the capacity keeps the proposal in view, with a way back to it.
  await settings.capacityField('RCU').fill('100');
  await expect(settings.proposal('the table')).toContainText('The load needs');
  await settings.proposal('the table').getByRole('button', { name: 'Use 1750 RCU, 286 WCU' }).click();
  await expect(settings.capacityField('RCU')).toHaveValue('1750');

  // Back to on-demand: the maximum comes back; and undo returns to provisioned in one step.
  await settings.billing.selectOption('ON_DEMAND');
  await expect(settings.maximum('the table').getByLabel('Read request units/s')).toHaveValue('5000');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await app.undo();
  await expect(settings.billing).toHaveValue('PROVISIONED');
  await expect(settings.capacityField('RCU')).toHaveValue('1750');
});

test('the table settings in the dark theme', async ({ page, host, steps }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const app = new KeyplanPage(page);
  const settings = new TableSettingsPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await app.show('Table & indexes');
  await settings.setWarm('the table', 20_000, '');
  await settings.setMaximum('the table', 1000, '');
  await settings.pointInTimeRecovery.check();
  await settings.encryption('Customer managed key').check();
  await settings.addTag('team', 'checkout');
  await expect(settings.encryptionGroup).toContainText('has an empty KMS key id');
  await settings.capacity.scrollIntoViewIfNeeded();
  await steps.shot('dark-capacity');
  await settings.tags.scrollIntoViewIfNeeded();
  await steps.shot('dark-settings');
  expect(await app.horizontalOverflows()).toEqual([]);
});
