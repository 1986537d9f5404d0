/**
 * Bringing an existing model: a OneTable schema, a CloudFormation template, describe-table output
 * with its companions, and a NoSQL Workbench model with a malformed sample value, each dropped on the
 * window from real fixture files; the dialog says what was skipped, not imported and inferred before
 * anything opens, and opening gives the design.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';
import { ImportDialog } from './pages/formats.ts';

const fixtures = join(import.meta.dirname, '..', 'tests', 'fixtures');
const fixture = (path: string) => readFile(join(fixtures, path), 'utf8');

test('a OneTable schema dropped on the window opens as a design: models as entities, saved queries as patterns', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const importer = new ImportDialog(page);
  await app.open(host.url);

  await importer.dropOnWindow('project-tracker.json', await fixture('onetable/project-tracker.json'));
  await expect(importer.result).toContainText('OneTable schema');
  await expect(importer.summary).toContainText('1 table, 6 entities, 4 indexes');
  await expect(importer.notes('inferred')).toContainText('Inferred (check these)');
  const inferred = await importer.noteItems('inferred');
  await expect(inferred.filter({ hasText: 'The schema holds no item count; Account is given 1,000 items' })).toHaveCount(1);
  await expect(app.openDesigns()).toHaveCount(0);
  await steps.shot('onetable-summary');

  await importer.accept.click();
  await expect(importer.dialog).toBeHidden();
  await expect(app.openDesigns()).toHaveCount(1);
  await app.show('Entities & keys');
  for (const entity of ['Account', 'User', 'Project', 'Task', 'Invoice', 'Session']) await expect(app.entityList()).toContainText(entity);
  await app.show('Access patterns');
  await expect(page.getByText('User by email', { exact: true })).toBeVisible();
  await expect(page.getByText('Open invoices issued since January', { exact: true })).toBeVisible();
  await steps.shot('onetable-opened');
});

test('a CloudFormation template dropped on the window opens with every table; the dialog says templates hold no entities', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const importer = new ImportDialog(page);
  await app.open(host.url);

  await importer.dropOnWindow('orders-service.yaml', await fixture('cloudformation/orders-service.yaml'));
  await expect(importer.result).toContainText('CloudFormation template');
  await expect(importer.summary).toContainText('3 tables, 0 entities');
  const dropped = await importer.noteItems('dropped');
  await expect(dropped.filter({ hasText: 'holds no entity information' })).toHaveCount(3);
  await expect(dropped.filter({ hasText: 'KinesisStreamSpecification' })).toHaveCount(1);
  await steps.shot('cloudformation-summary');

  await importer.accept.click();
  await expect(importer.dialog).toBeHidden();
  await app.show('Table & indexes');
  const tabs = page.getByRole('tablist', { name: 'Tables' }).getByRole('tab');
  await expect(tabs).toHaveText(['prod-orders', 'SessionsTable', 'catalog']);
  await expect(app.tableName).toHaveValue('prod-orders');
  await steps.shot('cloudformation-opened');
});

test('describe-table output dropped with its TTL and backups outputs brings those settings; alone, it says what it lacks', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const importer = new ImportDialog(page);
  await app.open(host.url);

  const table = await fixture('describe-table/shop-orders.describe-table.json');
  await importer.dropOnWindow('orders.json', table);
  await expect(importer.result).toContainText('describe-table output');
  await expect(await importer.noteItems('dropped')).toContainText(['describe-time-to-live']);
  await importer.cancel();

  await importer.dropFilesOnWindow([
    { name: 'orders.json', content: table },
    { name: 'ttl.json', content: await fixture('describe-table/shop-orders.describe-time-to-live.json') },
    { name: 'backups.json', content: await fixture('describe-table/shop-orders.describe-continuous-backups.json') },
  ]);
  await expect(importer.result).toContainText('orders.json, ttl.json, backups.json');
  await expect(importer.summary).toContainText('1 table, 1 entity');
  await expect(importer.notes('dropped')).not.toContainText('describe-time-to-live');
  await steps.shot('describe-table-with-companions');
  await importer.accept.click();
  await expect(importer.dialog).toBeHidden();
  await expect(app.openDesigns()).toHaveCount(1);
});

test('a NoSQL Workbench model with a malformed sample value imports; the skipped value is named before opening', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const importer = new ImportDialog(page);
  await app.open(host.url);

  const model = JSON.parse(await fixture('nosql-workbench/FlightFares.json'));
  model.DataModel[0].TableData[2].details = { M: { thisIsInDetails: 'something' } };
  await importer.dropOnWindow('flights.json', JSON.stringify(model));
  await expect(importer.result).toContainText('NoSQL Workbench model');
  // Skipped parts are open at once: the user sees them without asking.
  await expect(importer.notes('warning')).toContainText('Skipped (malformed or unknown in the source): 1');
  await expect(importer.notes('warning').getByRole('listitem')).toContainText(['DataModel[0].TableData[2].details']);
  await expect(importer.accept).toBeEnabled();
  await steps.shot('workbench-skipped-value');
  await importer.accept.click();
  await expect(app.designName).toHaveValue('FlightFares');
});
