import { chmod, mkdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { workspaceDataDir } from '../src-main/files/data-folder.ts';
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';

test('a save whose recent list cannot be written is saved, with a warning that blocks nothing', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  // The recent list's file is a folder: the host cannot write it, as on a full disk or an unwritable data folder.
  await mkdir(join(workspaceDataDir(await realpath(host.dataDir), await realpath(host.workspaceDir)), 'recent.json'), { recursive: true });
  await app.open(host.url);
  await app.newDesign();
  await app.designName.fill('Shop design');
  await app.saveAs('shop');

  await expect(app.notice).toContainText('"shop.keyplan.json" was saved, but the recent files list could not be updated');
  await expect(app.notice).toHaveAttribute('role', 'status');
  await expect(app.fileStatus).toContainText('shop.keyplan.json · saved');
  expect(JSON.parse(await readFile(join(host.workspaceDir, 'shop.keyplan.json'), 'utf8'))).toMatchObject({ name: 'Shop design' });
  await steps.shot('saved-with-warning');

  // Nothing waits on the notice: editing and saving again work, and the save says the same.
  await app.designName.fill('Shop design 2');
  await expect(app.notice).toBeVisible();
  await app.save();
  await expect(app.fileStatus).toContainText('shop.keyplan.json · saved');
  expect(JSON.parse(await readFile(join(host.workspaceDir, 'shop.keyplan.json'), 'utf8'))).toMatchObject({ name: 'Shop design 2' });
  await expect(app.notice).toContainText('was saved, but the recent files list could not be updated');
});

test('saving over a read-only design says it is read-only and keeps the edits', async ({ page, host }) => {
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.newDesign();
  await app.designName.fill('Locked');
  await app.saveAs('locked');
  await expect(app.fileStatus).toContainText('locked.keyplan.json · saved');
  const path = join(host.workspaceDir, 'locked.keyplan.json');
  await chmod(path, 0o444);

  await app.designName.fill('Locked, edited');
  await app.save();
  await expect(app.notice).toHaveAttribute('role', 'alert');
  await expect(app.notice).toContainText('"locked.keyplan.json" was not saved: the file is read-only');
  await expect(app.notice).not.toContainText('keyplan-tmp');
  await expect(app.designName).toHaveValue('Locked, edited');
  expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ name: 'Locked' });
});
