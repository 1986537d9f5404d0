/**
 * A renderer Workspace wired as the app wires it, for integration tests: the real browser-mode host
 * handlers over the in-memory transport, a workspace folder under `dir`, and IndexedDB `dbName`
 * (fake-indexeddb in the test environment).
 */
import { join, resolve } from 'node:path';
import { createApiClient } from '../../src-shared/ipc/client.ts';
import { createMemoryTransport } from '../../src-shared/ipc/memory.ts';
import type { Transport } from '../../src-shared/ipc/wire.ts';
import { createBrowserHandlers } from '../../src-main/host.ts';
import { createEventRelay } from '../../src-main/tasks/event-relay.ts';
import { openWorkspaceDb } from '../../src-renderer/lib/db.ts';
import { Workspace, type WorkspaceOptions } from '../../src-renderer/state/workspace.svelte.ts';

export interface StartOptions extends WorkspaceOptions {
  /** Wraps the transport (to watch what the window sends and listens to). */
  wrapTransport?: (transport: Transport) => Transport;
}

export async function startWorkspace(dir: string, dbName: string, options: StartOptions = {}): Promise<Workspace> {
  // The host's events (`task.progress`) reach the window, as over the WebSocket.
  const events = createEventRelay();
  const handlers = await createBrowserHandlers({
    workspaceDir: join(dir, 'workspace'),
    examplesDir: resolve(import.meta.dirname, '../../examples'),
    version: 'test',
    log: () => undefined,
    events,
  });
  // Disk checks run when a test asks (`workspace.disk.check()`), not on a timer.
  const { wrapTransport, ...workspaceOptions } = options;
  const transport = createMemoryTransport(handlers);
  events.attach(transport);
  const workspace = new Workspace(createApiClient(wrapTransport ? wrapTransport(transport) : transport), openWorkspaceDb(dbName), { diskCheckMs: 0, ...workspaceOptions });
  await workspace.init();
  return workspace;
}
