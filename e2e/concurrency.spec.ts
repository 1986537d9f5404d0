/**
 * Nothing lost, nothing silently overwritten: another program saving the open file, two tabs on one
 * design, and undo across a reload. Real host, real files, real Chromium (its Web Locks and
 * BroadcastChannel between the tabs).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, Steps } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';

test('a save over a file another program changed asks first: compare, then overwrite keeps theirs as .bak', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.newDesign();
  await app.designName.fill('Mine');
  await app.saveAs('orders');
  await expect(app.fileStatus).toContainText('orders.keyplan.json · saved');
  const file = join(host.workspaceDir, 'orders.keyplan.json');

  await app.designName.fill('Mine, edited');
  const theirs = { ...JSON.parse(await readFile(file, 'utf8')), name: 'Theirs' };
  await writeFile(file, `${JSON.stringify(theirs, null, 2)}\n`);

  // Noticed without saving: the banner offers reload / compare / keep mine.
  const banner = page.getByTestId('disk-change-banner');
  await expect(banner).toContainText('orders.keyplan.json changed on disk', { timeout: 8_000 });
  await expect(banner).toContainText('You have unsaved edits here.');
  await steps.shot('changed-on-disk');

  await page.keyboard.press('Control+s');
  const dialog = page.getByTestId('conflict-dialog');
  await expect(dialog).toContainText('was changed on disk since you opened it');
  expect(JSON.parse(await readFile(file, 'utf8')).name).toBe('Theirs');
  await steps.shot('conflict-dialog');

  await dialog.getByRole('button', { name: 'Compare with the disk version' }).click();
  await expect(page.getByRole('heading', { name: 'Compare' })).toBeVisible();
  await expect(page.locator('main, .content').first()).toContainText('On disk: orders.keyplan.json');
  await steps.shot('compare-with-disk');

  await page.keyboard.press('Control+s');
  await dialog.getByRole('button', { name: 'Overwrite' }).click();
  await expect(dialog).toBeHidden();
  await expect(app.notice).toContainText('Saved orders.keyplan.json');
  expect(JSON.parse(await readFile(file, 'utf8')).name).toBe('Mine, edited');
  expect(JSON.parse(await readFile(`${file}.bak`, 'utf8')).name).toBe('Theirs');
  await expect(banner).toBeHidden();
});

test('two tabs on one design: the second follows read-only until it takes over, and no edit is lost', async ({ page, host, context, steps }, info) => {
  const first = new KeyplanPage(page);
  await first.open(host.url);
  await first.newDesign();
  await first.designName.fill('Shared');
  await first.saveAs('shared');
  await first.storedLocally();

  const second = new KeyplanPage(await context.newPage());
  const secondSteps = new Steps(second.page, info);
  await second.open(await host.freshUrl());
  await expect(second.page.getByTestId('read-only-banner')).toContainText('being edited in another Keyplan window');
  await expect(second.designName).toBeDisabled();
  await expect(second.designName).toHaveValue('Shared');

  await first.designName.fill('Shared, edited in the first tab');
  await expect(second.designName).toHaveValue('Shared, edited in the first tab');
  await secondSteps.shot('second-tab-follows');

  await second.page.getByRole('button', { name: 'Take over editing' }).click();
  await expect(second.designName).toBeEnabled();
  await expect(first.page.getByTestId('read-only-banner')).toBeVisible();
  await expect(first.designName).toBeDisabled();
  await second.designName.fill('Edited in the second tab');
  await expect(first.designName).toHaveValue('Edited in the second tab');
  await second.page.keyboard.press('Control+s');
  await expect(second.notice).toContainText('Saved shared.keyplan.json');
  expect(JSON.parse(await readFile(join(host.workspaceDir, 'shared.keyplan.json'), 'utf8')).name).toBe('Edited in the second tab');
  await steps.shot('first-tab-read-only');
});

test('undo history survives a reload', async ({ page, host }) => {
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.newDesign();
  await app.designName.fill('First name');
  await app.designName.blur();
  await app.designName.fill('Second name');
  await app.designName.blur();
  await app.storedLocally();
  await page.reload();
  await app.ready();
  await expect(app.designName).toHaveValue('Second name');
  await page.keyboard.press('Control+z');
  await expect(app.designName).toHaveValue('First name');
  await page.keyboard.press('Control+Shift+z');
  await expect(app.designName).toHaveValue('Second name');
});
