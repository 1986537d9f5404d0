/**
 * The one typed client for the renderer (and the contract tests), written once over any Transport.
 * Failed calls reject with an `AppError` carrying the host's code, message and path.
 */
import { AppError } from '../errors.ts';
import type { Channel, EventName, EventPayload, Input, Output } from './contract.ts';
import type { Transport } from './wire.ts';

export interface ApiClient {
  call<C extends Channel>(channel: C, input: Input<C>): Promise<Output<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function createApiClient(transport: Transport): ApiClient {
  return {
    async call(channel, input) {
      const envelope = await transport.invoke(channel, input);
      if (!envelope.ok) throw new AppError(envelope.error);
      return envelope.value as never;
    },
    on(event, listener) {
      return transport.subscribe(event, listener as (payload: unknown) => void);
    },
  };
}
