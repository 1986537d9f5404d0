import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, Steps } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';

test('creates a design from nothing, fixes a key template error, saves, reloads and finds everything', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await steps.shot('start-screen');

  await app.newDesign();
  // A new design opens on its access patterns (they come first); the table's settings are a screen away.
  await expect(page.getByRole('heading', { name: 'Access patterns' })).toBeVisible();
  await app.designName.fill('Shop design');
  await app.show('Table & indexes');
  await app.tableName.fill('ShopTable');
  await app.addGsi();
  await expect(app.gsi('GSI1')).toBeVisible();
  await steps.shot('table-with-gsi');

  await app.show('Entities & keys');
  await app.addEntity('User');
  await app.addAttribute('email');
  await app.template('PK').fill('USER#{userId}');
  await app.template('SK').fill('PROFILE');
  await expect(app.preview('PK')).toContainText('USER#');

  // A typo in a placeholder is caught inline, naming the attribute.
  await app.template('GSI1PK').fill('EMAIL#{emial}');
  await expect(app.keyRow('GSI1PK')).toContainText('emial');
  await expect(app.template('GSI1PK')).toHaveAttribute('aria-invalid', 'true');
  await steps.shot('template-error');

  await app.template('GSI1PK').fill('EMAIL#{email}');
  await expect(app.template('GSI1PK')).toHaveAttribute('aria-invalid', 'false');
  await expect(app.preview('GSI1PK')).toContainText('EMAIL#');
  await app.template('GSI1SK').fill('USER#{userId}');
  await expect(page.getByTestId('problem-count')).toHaveText('No problems');
  await steps.shot('template-fixed');

  await app.saveAs('shop');
  await expect(app.fileStatus).toContainText('shop.keyplan.json · saved');
  const onDisk = JSON.parse(await readFile(join(host.workspaceDir, 'shop.keyplan.json'), 'utf8'));
  expect(onDisk.name).toBe('Shop design');
  expect(onDisk.tables[0].name).toBe('ShopTable');
  expect(onDisk.tables[0].entities[0].keys.GSI1PK.template).toBe('EMAIL#{email}');
  await steps.shot('saved');

  await app.storedLocally();
  await page.reload();
  await app.ready();
  await expect(app.designName).toHaveValue('Shop design');
  await expect(app.fileStatus).toContainText('shop.keyplan.json · saved');
  await expect(app.template('GSI1PK')).toHaveValue('EMAIL#{email}');
  await expect(app.template('PK')).toHaveValue('USER#{userId}');
  await steps.shot('after-reload');
});

test('undo and redo every edit with the keyboard', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.newDesign();
  await app.show('Entities & keys');
  await app.addEntity('Order');
  await expect(app.entityList()).toContainText('Order');

  await app.undo();
  await expect(app.entityList()).not.toContainText('Order');
  await steps.shot('undone');
  await app.redo();
  await expect(app.entityList()).toContainText('Order');
  await steps.shot('redone');
});

test('keeps unsaved edits after the window crashes', async ({ page, context, host }) => {
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.newDesign();
  await app.designName.fill('Unsaved work');
  await app.show('Entities & keys');
  await app.addEntity('Device');
  await app.template('PK').fill('DEVICE#{deviceId}');
  await app.storedLocally();

  // No save, no clean shutdown: the page is simply gone.
  await page.close({ runBeforeUnload: false });
  const again = new KeyplanPage(await context.newPage());
  await again.open(host.url);
  await expect(again.designName).toHaveValue('Unsaved work');
  await expect(again.fileStatus).toContainText('not saved to a file');
  await expect(again.template('PK')).toHaveValue('DEVICE#{deviceId}');
  await new Steps(again.page, test.info()).shot('restored');
});

test('a corrupt or foreign file is refused with a clear error and the open design is untouched', async ({ page, host, steps }) => {
  await mkdir(host.workspaceDir, { recursive: true });
  await writeFile(join(host.workspaceDir, 'broken.keyplan.json'), '{"formatVersion": 1, "name": "half a file"');
  await writeFile(join(host.workspaceDir, 'future.keyplan.json'), JSON.stringify({ formatVersion: 99, name: 'x', tables: [] }));
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await expect(app.designName).toHaveValue(/E-commerce/);
  const before = await app.designName.inputValue();

  await app.openFile('broken.keyplan.json');
  await expect(app.notice).toContainText('broken.keyplan.json');
  await expect(app.notice).toContainText(/JSON/);
  await steps.shot('corrupt-file-error');
  await expect(app.designName).toHaveValue(before);
  await expect(app.openDesigns()).toHaveCount(1);
  expect(await readFile(join(host.workspaceDir, 'broken.keyplan.json'), 'utf8')).toBe('{"formatVersion": 1, "name": "half a file"');

  await app.openFile('future.keyplan.json');
  await expect(app.notice).toContainText(/version 99/);
  await steps.shot('newer-version-error');
  await expect(app.openDesigns()).toHaveCount(1);
});

