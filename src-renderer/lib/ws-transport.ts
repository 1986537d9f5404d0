/**
 * Browser mode: the contract over a WebSocket to the host on 127.0.0.1. The upgrade shows the
 * host's session token as a subprotocol; `beforeConnect` (see `api.ts`) gets it.
 */
import { createFrameReader, requestFrames } from '../../src-shared/ipc/index.ts';
import type { Envelope, Transport, WireFrame, WireRequest } from '../../src-shared/ipc/index.ts';

export interface WebSocketTransportOptions {
  /**
   * Runs before each connection attempt and resolves with the subprotocols to offer (Keyplan's and
   * the session token's); rejects with a message for the user when this page may not connect (no
   * session, the host stopped). Its message becomes the `ipc.disconnected` error.
   */
  beforeConnect?: () => Promise<string[]>;
}

export function createWebSocketTransport(url: string, options: WebSocketTransportOptions = {}): Transport {
  let nextId = 1;
  const pending = new Map<number, (envelope: Envelope) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let socket: WebSocket | undefined;
  let opening: Promise<WebSocket> | undefined;

  const disconnected = (message: string): Envelope => ({ ok: false, error: { code: 'ipc.disconnected', message } });

  function connect(): Promise<WebSocket> {
    if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve(socket);
    if (opening) return opening;
    opening = (async () => {
      try {
        return await open((await options.beforeConnect?.()) ?? []);
      } finally {
        opening = undefined;
      }
    })();
    return opening;
  }

  function open(protocols: string[]): Promise<WebSocket> {
    return new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url, protocols);
      ws.onopen = () => {
        socket = ws;
        resolve(ws);
      };
      ws.onerror = () => {
        reject(
          new Error(
            `Could not connect to the Keyplan host at ${new URL(url).host}: it has stopped or refused this page. Press Enter in the terminal where Keyplan runs to print a fresh link, and open that.`,
          ),
        );
      };
      ws.onclose = (event) => {
        socket = undefined;
        // The host says why when it closes on purpose (a message over its size limit, shutting down).
        const why = event.reason ? `: ${event.reason}` : '.';
        for (const settle of pending.values()) settle(disconnected(`The connection to the Keyplan host closed${why}`));
        pending.clear();
      };
      // Each connection joins its own chunks: a message cut short by a closed connection is dropped with it.
      const read = createFrameReader((frame: WireFrame) => {
        if (frame.kind === 'reply') {
          pending.get(frame.id)?.(frame.envelope);
          pending.delete(frame.id);
        } else if (frame.kind === 'event') {
          for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
        }
      });
      ws.onmessage = (message) => read(String(message.data));
    });
  }

  return {
    async invoke(channel, input) {
      let ws: WebSocket;
      try {
        ws = await connect();
      } catch (error) {
        return disconnected((error as Error).message);
      }
      const id = nextId++;
      const request: WireRequest = { kind: 'request', id, channel, input };
      const sending = requestFrames(request);
      if ('tooLarge' in sending) return { ok: false, error: { code: 'ipc.tooLarge', message: sending.tooLarge } };
      return new Promise<Envelope>((resolve) => {
        pending.set(id, resolve);
        for (const frame of sending.frames) ws.send(frame);
      });
    },
    subscribe(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      void connect().catch(() => undefined);
      return () => set.delete(listener);
    },
  };
}
