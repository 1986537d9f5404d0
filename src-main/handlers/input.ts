/**
 * @deprecated Handlers no longer check their input: `dispatchRequest` checks it against the
 * contract's schema before any handler runs (`src-shared/ipc/validate.ts`). This shim only keeps
 * `transports/websocket.test.ts` compiling until its hand-built `recent.list` handler drops the call;
 * delete the file then.
 */
import { AppError } from '../../src-shared/errors.ts';
import type { Channel } from '../../src-shared/ipc/contract.ts';
import { checkChannelInput } from '../../src-shared/ipc/validate.ts';

/** @deprecated The contract's schema check for `channel`, throwing its `ipc.badInput`; the second argument is ignored. */
export function checkInput(channel: Channel, input: unknown, _unusedSpec?: unknown): void {
  const error = checkChannelInput(channel, input);
  if (error !== undefined) throw new AppError(error);
}
