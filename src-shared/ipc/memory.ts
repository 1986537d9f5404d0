/**
 * The in-memory transport: the real handlers called directly, for tests. Inputs, replies and event
 * payloads are checked for JSON-safety and copied through JSON, so a test passing here also passes
 * over Electron IPC and the WebSocket.
 */
import { isEventName, type ApiHandlers, type EventName, type EventPayload, type EventSink } from './contract.ts';
import { dispatchRequest, type DispatchOptions } from './dispatch.ts';
import { findNonJsonValue, roundTripJson } from './json-safe.ts';
import type { Envelope, Transport } from './wire.ts';

/** A transport that is also the host's event sink: `emit` reaches every `subscribe`r. */
export interface MemoryTransport extends Transport, EventSink {}

/**
 * Serves `handlers` in memory. A non-JSON-safe input gives `ipc.badInput` (path: where the value is),
 * a non-JSON-safe reply `ipc.internal`; `emit` of a non-JSON-safe payload throws (a host bug).
 */
export function createMemoryTransport(handlers: ApiHandlers, options: DispatchOptions = {}): MemoryTransport {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  return {
    async invoke(channel: string, input: unknown): Promise<Envelope> {
      const badInput = findNonJsonValue(input);
      if (badInput !== undefined) {
        return {
          ok: false,
          error: {
            code: 'ipc.badInput',
            path: badInput.path,
            message: `Input to "${channel}" is not JSON-safe: ${badInput.path || 'the input'} is ${badInput.found}.`,
          },
        };
      }
      const envelope = await dispatchRequest(handlers, channel, roundTripJson(input), options);
      const badOutput = findNonJsonValue(envelope);
      if (badOutput !== undefined) {
        return { ok: false, error: { code: 'ipc.internal', message: `The reply to "${channel}" is not JSON-safe: ${badOutput.path} is ${badOutput.found}.` } };
      }
      return roundTripJson(envelope);
    },

    subscribe(event: string, listener: (payload: unknown) => void): () => void {
      if (!isEventName(event)) throw new Error(`Unknown event "${event}".`);
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => void set.delete(listener);
    },

    emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
      const bad = findNonJsonValue(payload);
      if (bad !== undefined) throw new Error(`Event "${event}" payload is not JSON-safe: ${bad.path || 'the payload'} is ${bad.found}.`);
      for (const listener of listeners.get(event) ?? []) {
        // Delivered asynchronously, as every real transport does.
        void Promise.resolve(roundTripJson(payload)).then(listener);
      }
    },
  };
}
