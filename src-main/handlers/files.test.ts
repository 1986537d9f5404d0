/**
 * What a save answers is what happened to the file, through the real browser-mode handlers on a
 * temporary workspace: the recent list failing after the file is written is a warning, not a failed
 * save; saves through a link and to its target are one queue; a create without overwrite is atomic;
 * a read-only design is refused as read-only.
 */
import { chmod, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { createApiClient, type ApiClient } from '../../src-shared/ipc/index.ts';
import { createMemoryTransport } from '../../src-shared/ipc/host.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { TEMP_FILE_NAME } from '../files/atomic-write.ts';
import { workspaceDataDir } from '../files/data-folder.ts';
import { createExampleLibrary } from '../files/examples.ts';
import { createFileService } from '../files/file-service.ts';
import { createRecentStore, type RecentStore } from '../files/recent-store.ts';
import { createWorkspaceLocator } from '../files/workspace-locator.ts';
import { createBrowserHandlers } from '../host.ts';
import { createRunService } from '../run/service.ts';
import { createTaskHost } from '../tasks/task-host.ts';
import { sampleDesign } from '../test-support/designs.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { createHandlers } from './index.ts';

async function browserHost(workspaceDir: string, dataDir: string): Promise<ApiClient> {
  const handlers = await createBrowserHandlers({ workspaceDir, dataDir, examplesDir: join(workspaceDir, 'no-examples'), version: '1.0.0', log: () => {} });
  return createApiClient(createMemoryTransport(handlers));
}

/** A browser host on a fresh workspace; `data` is that workspace's folder in the user's data folder. */
async function setUp() {
  const dir = await makeTempDir();
  const workspace = join(dir, 'workspace');
  const client = await browserHost(workspace, join(dir, 'data'));
  return { dir, workspace, data: workspaceDataDir(join(dir, 'data'), workspace), client };
}

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const nameOnDisk = async (path: string) => (JSON.parse(await readFile(path, 'utf8')) as Design).name;

describe('the recent list failing after the file is written', () => {
  test('a recent list that is a folder: save as, save and open succeed, each with a recent.notUpdated warning', async () => {
    const { client, workspace, data } = await setUp();
    await mkdir(join(data, 'recent.json'), { recursive: true });
    const created = await client.call('file.saveAs', { name: 'orders', design: sampleDesign('First') });
    expect(created).toMatchObject({ ref: 'orders.keyplan.json', warnings: [{ code: 'recent.notUpdated' }] });
    expect(created.warnings?.[0]?.message).toMatch(/^"orders\.keyplan\.json" was saved, but the recent files list could not be updated/);
    expect(await nameOnDisk(join(workspace, 'orders.keyplan.json'))).toBe('First');
    const saved = await client.call('file.save', { ref: created.ref, design: sampleDesign('Second'), ...(created.version ? { expected: created.version } : {}) });
    expect(saved).toMatchObject({ backupRef: 'orders.keyplan.json.bak', warnings: [{ code: 'recent.notUpdated' }] });
    expect(await nameOnDisk(join(workspace, 'orders.keyplan.json'))).toBe('Second');
    const opened = await client.call('file.open', { ref: created.ref });
    expect(opened).toMatchObject({ design: { name: 'Second' }, version: saved.version, warnings: [{ code: 'recent.notUpdated' }] });
    expect(opened.warnings?.[0]?.message).toMatch(/^"orders\.keyplan\.json" was opened, but/);
  });

  test('a data folder that is a file (ENOTDIR): the save succeeds with a warning, and an export has none to give', async () => {
    const { client, workspace, data } = await setUp();
    await rm(data, { recursive: true });
    await writeFile(data, 'not a folder');
    const saved = await client.call('file.saveAs', { name: 'orders', design: sampleDesign() });
    expect(saved.warnings).toEqual([{ code: 'recent.notUpdated', message: expect.stringContaining('ENOTDIR') }]);
    expect(await nameOnDisk(join(workspace, 'orders.keyplan.json'))).toBe('Sample');
    expect((await client.call('file.export', { name: 'orders.yaml', content: 'x' })).warnings).toBeUndefined();
  });

  test('a full disk when the list is written (ENOSPC, injected at the store): the save succeeds and says the disk is full', async () => {
    const dir = await makeTempDir();
    const workspace = join(dir, 'workspace');
    await mkdir(workspace);
    const files = createFileService(createWorkspaceLocator(workspace));
    const real = createRecentStore({ filePath: join(dir, 'data', 'recent.json'), exists: (ref) => files.exists(ref) });
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
    const recent: RecentStore = { ...real, add: () => Promise.reject(full) };
    const handlers = createHandlers({
      mode: 'browser',
      version: '1.0.0',
      platform: 'linux',
      files,
      recent,
      examples: createExampleLibrary(join(dir, 'examples')),
      tasks: createTaskHost({ emit: () => {}, spawn: () => { throw new Error('no tasks in this test'); }, log: () => {} }),
      runs: createRunService({ journalDir: join(dir, 'data', 'run-journal'), log: () => {} }),
    });
    const client = createApiClient(createMemoryTransport(handlers));
    const saved = await client.call('file.saveAs', { name: 'orders', design: sampleDesign('Kept') });
    expect(saved.warnings).toEqual([{ code: 'recent.notUpdated', message: expect.stringContaining('the disk is full') }]);
    expect(await nameOnDisk(join(workspace, 'orders.keyplan.json'))).toBe('Kept');
    // The retry a failed answer used to prompt is not needed; made anyway, it is file.exists as for any existing name.
    expect((await errorOf(client.call('file.saveAs', { name: 'orders', design: sampleDesign('Kept') }))).code).toBe('file.exists');
  });
});

describe('saves to one file through a link and to the file itself', () => {
  const PAIRS = 200;

  test(`${PAIRS} pairs from one version, one save through a link, one to the file (and to its folder's link): never both acknowledged`, async () => {
    const { client, workspace } = await setUp();
    await mkdir(join(workspace, 'team'), { recursive: true });
    await client.call('file.saveAs', { name: 'team/orders', design: sampleDesign('Start') });
    await symlink('team/orders.keyplan.json', join(workspace, 'alias.keyplan.json'));
    await symlink('team', join(workspace, 'team-link'));
    const refs = ['alias.keyplan.json', 'team/orders.keyplan.json', 'team-link/orders.keyplan.json'];
    let bothAcknowledged = 0;
    for (let i = 0; i < PAIRS; i += 1) {
      const [a, b] = [refs[i % 3]!, refs[(i + 1) % 3]!];
      const { version } = await client.call('file.version', { ref: 'team/orders.keyplan.json' });
      const results = await Promise.allSettled([
        client.call('file.save', { ref: a, design: sampleDesign(`A${i}`), expected: version! }),
        client.call('file.save', { ref: b, design: sampleDesign(`B${i}`), expected: version! }),
      ]);
      const won = results.flatMap((r, k) => (r.status === 'fulfilled' ? [k === 0 ? `A${i}` : `B${i}`] : []));
      if (won.length === 2) bothAcknowledged += 1;
      expect(won).toHaveLength(1);
      const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
      expect((lost.reason as AppError).code).toBe('file.changed');
      expect(await nameOnDisk(join(workspace, 'team', 'orders.keyplan.json'))).toBe(won[0]);
    }
    expect(bothAcknowledged).toBe(0);
    expect((await stat(join(workspace, 'alias.keyplan.json'))).isFile()).toBe(true);
  }, 120_000);
});

describe('creating a file that must not exist yet', () => {
  const PAIRS = 100;

  test(`${PAIRS} simultaneous Save As pairs from two hosts on one workspace: one succeeds, the other is file.exists, the file is the winner's, whole`, async () => {
    const { dir, workspace, client } = await setUp();
    const other = await browserHost(workspace, join(dir, 'other-data'));
    // Large enough that a write is many system calls: a loser replacing or mixing into the winner would show.
    const big = (name: string): Design => ({ ...sampleDesign(name), description: name.repeat(20_000) });
    for (let i = 0; i < PAIRS; i += 1) {
      const results = await Promise.allSettled([
        client.call('file.saveAs', { name: `d${i}`, design: big(`A${i}`) }),
        other.call('file.saveAs', { name: `d${i}`, design: big(`B${i}`) }),
      ]);
      const won = results.flatMap((r, k) => (r.status === 'fulfilled' ? [k === 0 ? `A${i}` : `B${i}`] : []));
      expect(won).toHaveLength(1);
      const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
      expect((lost.reason as AppError).code).toBe('file.exists');
      const onDisk = JSON.parse(await readFile(join(workspace, `d${i}.keyplan.json`), 'utf8')) as Design;
      expect(onDisk).toEqual(big(won[0]!));
    }
    expect((await readdir(workspace)).filter((name) => TEMP_FILE_NAME.test(name))).toEqual([]);
  }, 120_000);

  test(`${PAIRS} simultaneous export pairs without overwrite: one succeeds, the other is file.exists, the file is the winner's, whole`, async () => {
    const { dir, workspace, client } = await setUp();
    const other = await browserHost(workspace, join(dir, 'other-data'));
    for (let i = 0; i < PAIRS; i += 1) {
      const content = (who: string) => `${who}${i}\n`.repeat(50_000);
      const results = await Promise.allSettled([
        client.call('file.export', { name: `e${i}.yaml`, content: content('A') }),
        other.call('file.export', { name: `e${i}.yaml`, content: content('B') }),
      ]);
      const won = results.flatMap((r, k) => (r.status === 'fulfilled' ? [k === 0 ? 'A' : 'B'] : []));
      expect(won).toHaveLength(1);
      const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
      expect((lost.reason as AppError).code).toBe('file.exists');
      expect(await readFile(join(workspace, `e${i}.yaml`), 'utf8')).toBe(content(won[0]!));
    }
    expect((await readdir(workspace)).filter((name) => TEMP_FILE_NAME.test(name))).toEqual([]);
  }, 120_000);
});

describe('a read-only design', () => {
  test('a save over a 0444 design is file.readOnly naming the file, and nothing on disk changes', async () => {
    const { client, workspace } = await setUp();
    const created = await client.call('file.saveAs', { name: 'orders', design: sampleDesign('Original') });
    await client.call('file.save', { ref: created.ref, design: sampleDesign('Kept') });
    const path = join(workspace, 'orders.keyplan.json');
    await chmod(path, 0o444);
    const before = { file: await readFile(path, 'utf8'), backup: await readFile(`${path}.bak`, 'utf8'), names: await readdir(workspace) };
    for (const call of [
      client.call('file.save', { ref: created.ref, design: sampleDesign('Lost?') }),
      client.call('file.saveAs', { name: 'orders', design: sampleDesign('Lost?'), overwrite: true }),
    ]) {
      const error = await errorOf(call);
      expect(error.code).toBe('file.readOnly');
      expect(error.message).toContain('"orders.keyplan.json"');
      expect(error.message).toContain('read-only');
      expect(error.message).not.toMatch(/keyplan-tmp/);
    }
    expect({ file: await readFile(path, 'utf8'), backup: await readFile(`${path}.bak`, 'utf8'), names: await readdir(workspace) }).toEqual(before);
    expect((await stat(path)).mode & 0o777).toBe(0o444);
    await chmod(path, 0o644);
    await expect(client.call('file.save', { ref: created.ref, design: sampleDesign('Writable again') })).resolves.toBeDefined();
  });

  test('an export over a read-only file is refused the same way', async () => {
    const { client, workspace } = await setUp();
    await client.call('file.export', { name: 'shop.yaml', content: 'mine\n' });
    await chmod(join(workspace, 'shop.yaml'), 0o444);
    const error = await errorOf(client.call('file.export', { name: 'shop.yaml', content: 'other\n', overwrite: true }));
    expect(error.code).toBe('file.readOnly');
    expect(error.message).toContain('"shop.yaml"');
    expect(await readFile(join(workspace, 'shop.yaml'), 'utf8')).toBe('mine\n');
  });
});
