/**
 * Browser mode: the contract over a WebSocket to the host on 127.0.0.1. The session token comes
 * from the page URL's fragment (`#token=…`), which the browser never sends to a server.
 */
import type { Envelope, Transport, WireFrame, WireRequest } from '../../src-shared/ipc/wire.ts';

export function createWebSocketTransport(url: string): Transport {
  let nextId = 1;
  const pending = new Map<number, (envelope: Envelope) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let socket: WebSocket | undefined;
  let opening: Promise<WebSocket> | undefined;

  const disconnected = (message: string): Envelope => ({ ok: false, error: { code: 'ipc.disconnected', message } });

  function connect(): Promise<WebSocket> {
    if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve(socket);
    if (opening) return opening;
    opening = new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => {
        socket = ws;
        opening = undefined;
        resolve(ws);
      };
      ws.onerror = () => {
        opening = undefined;
        reject(
          new Error(
            `Could not connect to the Keyplan host at ${new URL(url).host}: it has stopped, or this page was opened without the link Keyplan printed (the link carries this session's token).`,
          ),
        );
      };
      ws.onclose = () => {
        socket = undefined;
        for (const settle of pending.values()) settle(disconnected('The connection to the Keyplan host closed.'));
        pending.clear();
      };
      ws.onmessage = (message) => {
        const frame = JSON.parse(String(message.data)) as WireFrame;
        if (frame.kind === 'reply') {
          pending.get(frame.id)?.(frame.envelope);
          pending.delete(frame.id);
        } else if (frame.kind === 'event') {
          for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
        }
      };
    });
    return opening;
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
      return new Promise<Envelope>((resolve) => {
        pending.set(id, resolve);
        ws.send(JSON.stringify(request));
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
