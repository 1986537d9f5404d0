/**
 * A renderer Workspace wired as the app wires it, for integration tests: the real browser-mode host
 * handlers over the in-memory transport, a workspace folder under `dir`, and IndexedDB `dbName`
 * (fake-indexeddb in the test environment).
 */
import { join, resolve } from 'node:path';
import { createApiClient } from '../../src-shared/ipc/client.ts';
import { createMemoryTransport } from '../../src-shared/ipc/memory.ts';
import { createBrowserHandlers } from '../../src-main/host.ts';
import { openWorkspaceDb } from '../../src-renderer/lib/db.ts';
import { Workspace, type WorkspaceOptions } from '../../src-renderer/state/workspace.svelte.ts';

export async function startWorkspace(dir: string, dbName: string, options: WorkspaceOptions = {}): Promise<Workspace> {
  const handlers = await createBrowserHandlers({
    workspaceDir: join(dir, 'workspace'),
    examplesDir: resolve(import.meta.dirname, '../../examples'),
    version: 'test',
    log: () => undefined,
  });
  // Disk checks run when a test asks (`workspace.disk.check()`), not on a timer.
  const workspace = new Workspace(createApiClient(createMemoryTransport(handlers)), openWorkspaceDb(dbName), { diskCheckMs: 0, ...options });
  await workspace.init();
  return workspace;
}
