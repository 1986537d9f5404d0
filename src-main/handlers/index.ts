/**
 * The host's one handler object, served unchanged by every transport (Electron IPC, the loopback
 * WebSocket, the in-memory test transport). `dispatchRequest` has checked each input against the
 * contract's schema before a handler runs; a handler checks only what a schema cannot say (a design in
 * depth, a table the design must have), calls a service and returns JSON-safe data. Errors are
 * `AppError`s that the transport turns into envelopes.
 */
import type { ApiHandlers } from '../../src-shared/ipc/index.ts';
import { createAppHandlers } from './app.ts';
import type { HandlerDeps } from './deps.ts';
import { createExampleHandlers } from './examples.ts';
import { createFileHandlers } from './files.ts';
import { createRecentHandlers } from './recent.ts';
import { createRunHandlers } from './run.ts';
import { createTaskHandlers } from './tasks.ts';

export type { BrowserDeps, Dialogs, ElectronDeps, HandlerDeps } from './deps.ts';

export function createHandlers(deps: HandlerDeps): ApiHandlers {
  return {
    ...createAppHandlers(deps),
    ...createFileHandlers(deps),
    ...createRecentHandlers(deps),
    ...createExampleHandlers(deps),
    ...createTaskHandlers(deps),
    ...createRunHandlers(deps),
  };
}
