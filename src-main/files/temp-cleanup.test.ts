import { mkdir, readdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createElectronHandlers } from '../host.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { LEFTOVER_MIN_AGE_MS, removeLeftoverTempFiles } from './temp-cleanup.ts';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const OLD = new Date(NOW - LEFTOVER_MIN_AGE_MS - 1000);
const FRESH = new Date(NOW - LEFTOVER_MIN_AGE_MS + 5000);

/** Writes `path` with a modification time of `time`. */
async function fileAt(path: string, time: Date): Promise<void> {
  await writeFile(path, 'x');
  await utimes(path, time, time);
}

async function namesIn(folder: string): Promise<string[]> {
  return (await readdir(folder)).sort();
}

describe('removeLeftoverTempFiles', () => {
  test("removes old temp files of Keyplan's own pattern only: a user's look-alikes and fresh ones stay", async () => {
    const dir = await makeTempDir();
    const names = {
      save: '.orders.keyplan.json.keyplan-tmp-0123456789ab',
      backup: '.orders.keyplan.json.bak.keyplan-tmp-abcdef012345',
      export: '.orders.cloudformation.yaml.keyplan-tmp-a1b2c3d4e5f6',
      userShort: '.notes.keyplan-tmp-abc',
      userLong: '.notes.keyplan-tmp-0123456789abc',
      userUpper: '.notes.keyplan-tmp-0123456789AB',
      userNoName: '.keyplan-tmp-0123456789ab',
      userSuffix: '.notes.keyplan-tmp-0123456789ab.txt',
      // Not hidden: no temp file of Keyplan's is named like this (a user's, or an export named so).
      userVisible: 'notes.txt.tmp-aaaaaaaaaaaa',
      userVisibleMarked: 'notes.keyplan-tmp-0123456789ab',
      fresh: '.recent.json.keyplan-tmp-fedcba987654',
    };
    for (const [key, name] of Object.entries(names)) await fileAt(join(dir, name), key === 'fresh' ? FRESH : OLD);
    const report = await removeLeftoverTempFiles({ folders: [{ path: dir, depth: 0 }], now: () => NOW });
    expect(report.removed.sort()).toEqual([names.backup, names.export, names.save].map((n) => join(dir, n)).sort());
    expect(report.problems).toEqual([]);
    expect(await namesIn(dir)).toEqual(
      [names.userNoName, names.userShort, names.userLong, names.userUpper, names.userSuffix, names.userVisible, names.userVisibleMarked, names.fresh].sort(),
    );
  });

  test('ignores links named like temp files, and what they point to', async () => {
    const dir = await makeTempDir();
    const precious = join(dir, 'precious.txt');
    await fileAt(precious, OLD);
    await symlink(precious, join(dir, '.link.keyplan-tmp-0123456789ab'));
    const target = join(dir, '.target.keyplan-tmp-0123456789ab');
    await mkdir(join(dir, 'sub'));
    await fileAt(target, FRESH);
    await symlink(target, join(dir, 'sub', '.old-link.keyplan-tmp-aaaaaaaaaaaa'));
    const report = await removeLeftoverTempFiles({ folders: [{ path: dir, depth: 2 }], now: () => NOW });
    expect(report.removed).toEqual([]);
    expect(await namesIn(dir)).toEqual(['.link.keyplan-tmp-0123456789ab', '.target.keyplan-tmp-0123456789ab', 'precious.txt', 'sub']);
    expect(await namesIn(join(dir, 'sub'))).toEqual(['.old-link.keyplan-tmp-aaaaaaaaaaaa']);
  });

  test('looks into subfolders down to the given depth, skipping hidden folders, node_modules and linked folders', async () => {
    const dir = await makeTempDir();
    const leftover = '.a.keyplan.json.keyplan-tmp-0123456789ab';
    const folders = ['one', 'one/two', 'one/two/three', '.hidden', 'node_modules', 'outside'];
    for (const folder of folders) {
      await mkdir(join(dir, folder), { recursive: true });
      await fileAt(join(dir, folder, leftover), OLD);
    }
    await symlink(join(dir, 'outside'), join(dir, 'one', 'linked'));
    const workspace = join(dir, 'one');
    const report = await removeLeftoverTempFiles({ folders: [{ path: workspace, depth: 1 }], now: () => NOW });
    expect(report.removed.sort()).toEqual([join(dir, 'one', leftover), join(dir, 'one', 'two', leftover)]);
    for (const kept of ['one/two/three', '.hidden', 'node_modules', 'outside']) expect(await namesIn(join(dir, kept))).toContain(leftover);
  });

  test('a missing folder is no problem, and a folder listed twice is cleaned once', async () => {
    const dir = await makeTempDir();
    await fileAt(join(dir, '.x.keyplan-tmp-0123456789ab'), OLD);
    const report = await removeLeftoverTempFiles({
      folders: [{ path: join(dir, 'missing'), depth: 3 }, { path: dir, depth: 0 }, { path: `${dir}/`, depth: 0 }],
      now: () => NOW,
    });
    expect(report).toEqual({ removed: [join(dir, '.x.keyplan-tmp-0123456789ab')], problems: [] });
  });
});

describe('cleanup at start', () => {
  test('Electron cleans its data folder and the folders of the recent files, and nothing else', async () => {
    const dir = await makeTempDir();
    const userData = join(dir, 'userData');
    const documents = join(dir, 'documents');
    const elsewhere = join(dir, 'elsewhere');
    for (const folder of [userData, documents, elsewhere]) await mkdir(folder);
    const leftover = '.orders.keyplan.json.keyplan-tmp-0123456789ab';
    await writeFile(join(documents, 'orders.keyplan.json'), '{}');
    const longAgo = new Date(Date.now() - 10 * LEFTOVER_MIN_AGE_MS);
    for (const folder of [documents, elsewhere]) await fileAt(join(folder, leftover), longAgo);
    await fileAt(join(userData, '.recent.json.keyplan-tmp-0123456789ab'), longAgo);
    const recent = { version: 1, files: [{ ref: join(documents, 'orders.keyplan.json'), name: 'orders.keyplan.json', openedAt: new Date().toISOString() }] };
    await writeFile(join(userData, 'recent.json'), JSON.stringify(recent));
    const noDialog = async () => undefined;
    const logged: string[] = [];
    createElectronHandlers({
      version: 'test',
      userDataDir: userData,
      examplesDir: join(dir, 'examples'),
      dialogs: { chooseFileToOpen: noDialog, chooseFileToSave: noDialog, chooseExportFile: noDialog },
      log: (message) => logged.push(message),
    });
    await waitFor(() => logged.some((m) => m.startsWith('Removed 2 temporary file')));
    expect(await namesIn(documents)).toEqual(['orders.keyplan.json']);
    expect(await namesIn(userData)).toEqual(['recent.json']);
    expect(await namesIn(elsewhere)).toEqual([leftover]);
  });
});

/** Polls until `condition` holds, failing after 10 s. */
async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
