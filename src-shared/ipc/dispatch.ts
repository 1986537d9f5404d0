/**
 * The host side shared by every transport: looks a channel up, checks the input against the channel's
 * schema, runs its handler and turns the outcome into an envelope, so handlers never throw across the
 * wire and never see an input of the wrong shape.
 */
import { AppError, type ErrorData } from '../errors.ts';
import { channels, isChannel, type ApiHandlers } from './contract.ts';
import { checkChannelInput } from './validate.ts';
import type { ErrorCode } from './error-codes.ts';
import type { Envelope, IpcErrorCode } from './wire.ts';

export interface DispatchOptions {
  /**
   * Called once per unexpected exception (anything but an `AppError`) so the host can log it; the
   * caller only gets an `ipc.internal` envelope.
   */
  onInternalError?: (error: unknown, channel: string) => void;
}

/**
 * Runs the handler for `channel` on `input` once it fits the channel's input schema. Errors:
 * `ipc.unknownChannel` when the channel is not in the contract; `ipc.badInput` (path: the first
 * failing field; details: `{ fields }`, every one) when the input does not fit; an `AppError`'s own
 * data; `ipc.internal` for anything else.
 */
export async function dispatchRequest(
  handlers: ApiHandlers,
  channel: unknown,
  input: unknown,
  options: DispatchOptions = {},
): Promise<Envelope> {
  if (!isChannel(channel)) return { ok: false, error: unknownChannelError(channel) };
  try {
    const badInput = checkChannelInput(channel, input);
    if (badInput !== undefined) return { ok: false, error: badInput };
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(input) };
  } catch (error) {
    return { ok: false, error: toErrorData(error, channel, options) };
  }
}

/** The `ipc.unknownChannel` error for a request naming something not in `channels`. */
export function unknownChannelError(channel: unknown): ErrorData<IpcErrorCode> {
  return {
    code: 'ipc.unknownChannel',
    message: `Unknown channel ${JSON.stringify(channel) ?? String(channel)}: expected one of ${channels.join(', ')}.`,
  };
}

/** An `AppError` keeps its data; anything else is reported once and becomes `ipc.internal`. */
export function toErrorData(error: unknown, channel: string, options: DispatchOptions = {}): ErrorData<ErrorCode> {
  // An AppError's code is its area's own (each raises codes of the union it declares), and
  // ErrorCode unions every area's.
  if (error instanceof AppError) return error.toData() as ErrorData<ErrorCode>;
  options.onInternalError?.(error, channel);
  const reason = error instanceof Error ? error.message : String(error);
  return {
    code: 'ipc.internal',
    message: `The host failed while handling "${channel}": ${reason}. The details are in the host's log.`,
  };
}
