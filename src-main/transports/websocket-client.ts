/**
 * A Node-side client of the web host, implementing `Transport` with `ws`: what the contract tests
 * and headless tools use to talk to a running host the way the browser does.
 */
import WebSocket from 'ws';
import { isEventName } from '../../src-shared/ipc/contract.ts';
import type { Envelope, Transport, WireFrame, WireRequest } from '../../src-shared/ipc/wire.ts';
import { WEB_SOCKET_PATH } from './websocket.ts';

export interface WebSocketClientTransport extends Transport {
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The `Origin` header to send; default the page origin a browser would send. */
  origin?: string;
}

/**
 * Connects to the host at `hostUrl` (`http://127.0.0.1:PORT/#token=TOKEN`, as `startWebHost`
 * returns it). Rejects when the host refuses the connection (wrong token or origin).
 */
export async function connectWebSocketTransport(hostUrl: string, options: ConnectOptions = {}): Promise<WebSocketClientTransport> {
  const page = new URL(hostUrl);
  const token = new URLSearchParams(page.hash.slice(1)).get('token') ?? '';
  const socket = new WebSocket(`ws://${page.host}${WEB_SOCKET_PATH}?token=${encodeURIComponent(token)}`, {
    origin: options.origin ?? page.origin,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) =>
      reject(new Error(`The host refused the connection: HTTP ${res.statusCode ?? '?'}.`)),
    );
  });

  let nextId = 1;
  const pending = new Map<number, (envelope: Envelope) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const disconnected = (message: string): Envelope => ({ ok: false, error: { code: 'ipc.disconnected', message } });

  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as WireFrame;
    if (frame.kind === 'reply') {
      pending.get(frame.id)?.(frame.envelope);
      pending.delete(frame.id);
    } else if (frame.kind === 'event') {
      for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
    }
  });
  socket.on('close', (code, reason) => {
    for (const settle of pending.values()) settle(disconnected(`The connection to the host closed (${code} ${String(reason)}).`));
    pending.clear();
  });
  socket.on('error', () => undefined); // a close follows, which settles every pending call

  return {
    invoke(channel, input) {
      if (socket.readyState !== WebSocket.OPEN) return Promise.resolve(disconnected('The connection to the host is closed.'));
      const id = nextId++;
      const request: WireRequest = { kind: 'request', id, channel, input };
      return new Promise<Envelope>((resolve) => {
        pending.set(id, resolve);
        socket.send(JSON.stringify(request));
      });
    },
    subscribe(event, listener) {
      if (!isEventName(event)) throw new Error(`Unknown event "${event}".`);
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close(1000, 'Client closed.');
      }),
  };
}
