import { copyFile, mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';
import { ExportDialog, ImportDialog } from './pages/formats.ts';

const data = join(import.meta.dirname, 'data');
const workbenchModel = join(data, 'an-online-shop.nosql-workbench.json');

async function openOrdersDesign(app: KeyplanPage, workspaceDir: string): Promise<void> {
  await mkdir(workspaceDir, { recursive: true });
  await copyFile(join(data, 'orders-by-date.keyplan.json'), join(workspaceDir, 'orders.keyplan.json'));
  await app.openFile('orders.keyplan.json');
  await expect(app.designName).toHaveValue('Orders by date');
}

test('exports CloudFormation YAML, previews each format, and saves a file into the workspace folder', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const exporter = new ExportDialog(page);
  await app.open(host.url);
  await openOrdersDesign(app, host.workspaceDir);

  await exporter.open();
  await expect(exporter.tab('CloudFormation YAML')).toHaveAttribute('aria-selected', 'true');
  await expect(exporter.preview).toContainText('AWS::DynamoDB::Table');
  await expect(exporter.fileName).toHaveValue('orders-by-date.cloudformation.yaml');
  await expect(exporter.problemsNote).toBeHidden();
  await steps.shot('cloudformation-yaml');

  await exporter.choose('Terraform');
  await expect(exporter.preview).toContainText('aws_dynamodb_table');
  await exporter.choose('CDK TypeScript');
  await expect(exporter.preview).toContainText('TableV2');
  await exporter.choose('NoSQL Workbench');
  await expect(exporter.preview).toContainText('ModelName');
  await exporter.choose('DynamoDB JSON items');
  await expect(exporter.preview).toContainText('PutRequest');
  await steps.shot('nosql-workbench');

  await exporter.choose('CloudFormation YAML');
  await exporter.save();
  await expect(exporter.message).toContainText('Saved orders-by-date.cloudformation.yaml');
  const saved = await readFile(join(host.workspaceDir, 'orders-by-date.cloudformation.yaml'), 'utf8');
  expect(saved).toContain('Type: AWS::DynamoDB::Table');
  expect(saved).toContain('TableName: OrdersByDate');
  await steps.shot('saved');

  // Saving again asks before replacing the file.
  await exporter.save();
  await expect(exporter.message).toContainText('already exists');
  await exporter.save();
  await expect(exporter.message).toContainText('Saved orders-by-date.cloudformation.yaml');
  await exporter.close();
});

test('the export says when the design breaks a rule', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const exporter = new ExportDialog(page);
  await app.open(host.url);
  await openOrdersDesign(app, host.workspaceDir);
  await app.show('Table & indexes');
  await app.tableName.fill('x');

  await exporter.open();
  await expect(exporter.problemsNote).toContainText('breaks 1 rule');
  await expect(exporter.preview).toContainText('TableName: x');
  await steps.shot('problems-note');
});

test('imports a NoSQL Workbench model dropped on the window, shows what it holds, and opens it as a new design', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const importer = new ImportDialog(page);
  await app.open(host.url);
  await expect(app.openDesigns()).toHaveCount(0);

  await importer.dropOnWindow('an-online-shop.json', await readFile(workbenchModel, 'utf8'));
  await expect(importer.result).toContainText('NoSQL Workbench model');
  await expect(importer.summary).toContainText('1 table, 9 entities');
  await expect(importer.result).toContainText('OnlineShop');
  await expect(app.openDesigns()).toHaveCount(0);
  await steps.shot('summary');

  await importer.accept.click();
  await expect(importer.dialog).toBeHidden();
  await expect(app.openDesigns()).toHaveCount(1);
  await expect(app.designName).toHaveValue('AnOnlineShop');
  await expect(app.fileStatus).toContainText('not saved to a file');
  for (const entity of ['customer', 'product', 'warehouse', 'orderItem', 'shipment', 'invoice', 'payment']) {
    await expect(app.entityList()).toContainText(entity);
  }
  await steps.shot('imported-entities');
});

test('imports a model picked with the file picker (Ctrl+I)', async ({ page, host }) => {
  const app = new KeyplanPage(page);
  const importer = new ImportDialog(page);
  await app.open(host.url);
  await importer.openWithShortcut();
  await importer.pick(workbenchModel);
  await expect(importer.summary).toContainText('9 entities');
  await importer.accept.click();
  await expect(app.entityList()).toContainText('warehouseItem');
});

test('a broken import lists every problem with its path and changes nothing', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const importer = new ImportDialog(page);
  await app.open(host.url);
  await openOrdersDesign(app, host.workspaceDir);
  await expect(app.openDesigns()).toHaveCount(1);

  await importer.open();
  await importer.paste(JSON.stringify({ ModelName: 'Broken', DataModel: [{ TableName: 5, KeyAttributes: {} }] }));
  await expect(importer.result).toContainText('cannot be opened');
  await expect(importer.problems().first()).toContainText('DataModel[0]');
  await expect(importer.accept).toBeDisabled();
  await steps.shot('workbench-problems');

  await importer.paste('{ "formatVersion": 1, "name": "half a file"');
  await expect(importer.problems()).toHaveCount(1);
  await expect(importer.problems().first()).toContainText('not JSON');
  await expect(importer.accept).toBeDisabled();
  await steps.shot('not-json');

  await importer.cancel();
  await expect(app.openDesigns()).toHaveCount(1);
  await expect(app.designName).toHaveValue('Orders by date');
  expect(await readdir(host.workspaceDir)).toEqual(['orders.keyplan.json']);
});
