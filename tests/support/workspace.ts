/**
 * A renderer Workspace wired as the app wires it, for integration tests: the real browser-mode host
 * handlers over the in-memory transport, a workspace folder under `dir`, and IndexedDB `dbName`
 * (fake-indexeddb in the test environment).
 */
import { join, resolve } from 'node:path';
import { createApiClient } from '../../src-shared/ipc/index.ts';
import { createMemoryTransport } from '../../src-shared/ipc/host.ts';
import type { Transport } from '../../src-shared/ipc/index.ts';
import { createBrowserHandlers } from '../../src-main/host.ts';
import { createEventRelay } from '../../src-main/tasks/event-relay.ts';
import { openWorkspaceDb } from '../../src-renderer/lib/db.ts';
import { Workspace, type WorkspaceOptions } from '../../src-renderer/state/workspace.svelte.ts';
import type { ChannelLike, LockManagerLike } from '../../src-renderer/state/window-link.ts';

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

/** A window whose transport counts its live event listeners and records every call it makes. */
export async function startWatchedWorkspace(dir: string, dbName: string, options: WorkspaceOptions = {}) {
  const listeners = { count: 0 };
  const calls: string[] = [];
  const watch = (transport: Transport): Transport => ({
    invoke: (channel, input) => {
      calls.push(channel);
      return transport.invoke(channel, input);
    },
    subscribe: (event, listener) => {
      listeners.count += 1;
      const unsubscribe = transport.subscribe(event, listener);
      let done = false;
      return () => {
        if (!done) listeners.count -= 1;
        done = true;
        unsubscribe();
      };
    },
  });
  const workspace = await startWorkspace(dir, dbName, { ...options, wrapTransport: watch });
  return { workspace, listeners, calls };
}

/** One window of a workspace shared by several: its own BroadcastChannel on `channelName`, the shared `locks`. */
export function startLinkedWorkspace(dir: string, dbName: string, channelName: string, locks: LockManagerLike): Promise<Workspace> {
  const channel = new BroadcastChannel(channelName) as unknown as ChannelLike;
  return startWorkspace(dir, dbName, { link: { locks, channel, releaseTimeoutMs: 500 } });
}
