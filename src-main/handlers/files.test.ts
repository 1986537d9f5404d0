/**
 * What a save answers is what happened to the file, through the real browser-mode handlers on a
 * temporary workspace: the recent list failing after the file is written is a warning, not a failed
 * save; saves through a link and to its target are one queue; a create without overwrite is atomic;
 * a read-only design is refused as read-only.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { createApiClient, type ApiClient } from '../../src-shared/ipc/client.ts';
import { createMemoryTransport } from '../../src-shared/ipc/memory.ts';
import type { Design } from '../../src-shared/model/schema.ts';
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

async function setUp() {
  const dir = await makeTempDir();
  const workspace = join(dir, 'workspace');
  const data = join(dir, 'data');
  return { dir, workspace, data, client: await browserHost(workspace, data) };
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
      runs: createRunService({ journalPath: join(dir, 'data', 'run-journal.json'), log: () => {} }),
    });
    const client = createApiClient(createMemoryTransport(handlers));
    const saved = await client.call('file.saveAs', { name: 'orders', design: sampleDesign('Kept') });
    expect(saved.warnings).toEqual([{ code: 'recent.notUpdated', message: expect.stringContaining('the disk is full') }]);
    expect(await nameOnDisk(join(workspace, 'orders.keyplan.json'))).toBe('Kept');
    // The retry a failed answer used to prompt is not needed; made anyway, it is file.exists as for any existing name.
    expect((await errorOf(client.call('file.saveAs', { name: 'orders', design: sampleDesign('Kept') }))).code).toBe('file.exists');
  });
});
