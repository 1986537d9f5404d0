/**
 * The host's one handler object, served unchanged by every transport (Electron IPC, the loopback
 * WebSocket, the in-memory test transport). Each handler checks its input's shape, calls a service
 * and returns JSON-safe data; errors are `AppError`s that the transport turns into envelopes.
 */
import type { ApiHandlers } from '../../src-shared/ipc/contract.ts';
import { createAppHandlers } from './app.ts';
import type { HandlerDeps } from './deps.ts';
import { createExampleHandlers } from './examples.ts';
import { createFileHandlers } from './files.ts';
import { createRecentHandlers } from './recent.ts';
import { createTaskHandlers } from './tasks.ts';

export type { BrowserDeps, Dialogs, ElectronDeps, HandlerDeps } from './deps.ts';

export function createHandlers(deps: HandlerDeps): ApiHandlers {
  return {
    ...createAppHandlers(deps),
    ...createFileHandlers(deps),
    ...createRecentHandlers(deps),
    ...createExampleHandlers(deps),
    ...createTaskHandlers(deps),
  };
}
