/**
 * An event sink that forwards to one attached later: the handlers (and the task host in them) are
 * made before the transport that delivers their events exists.
 */
import type { EventName, EventPayload, EventSink } from '../../src-shared/ipc/index.ts';

export interface EventRelay extends EventSink {
  /** Sends every later event to `sink` (replacing any earlier one). Events before that are dropped. */
  attach(sink: EventSink): void;
}

export function createEventRelay(): EventRelay {
  let target: EventSink | undefined;
  return {
    emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
      target?.emit(event, payload);
    },
    attach(sink) {
      target = sink;
    },
  };
}
