/**
 * A Node-side client of the web host, implementing `Transport` with `ws`: what the contract tests
 * and headless tools use to talk to a running host the way the browser does.
 */
import { request } from 'node:http';
import WebSocket from 'ws';
import { isEventName, createFrameReader, requestFrames, SESSION_PROTOCOL_PREFIX } from '../../src-shared/ipc/index.ts';
import type { Envelope, Transport, WireFrame, WireRequest } from '../../src-shared/ipc/index.ts';
import { SESSION_PATH, WEB_SOCKET_PATH, WEB_SOCKET_PROTOCOL } from './websocket.ts';

export interface WebSocketClientTransport extends Transport {
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The `Origin` header to send; default the page origin a browser would send. */
  origin?: string;
}

/**
 * Connects to the host the way the page does: trades the single-use ticket of `link`
 * (`http://127.0.0.1:PORT/#ticket=TICKET`, from `WebHost.issueLink`) for the session token, then
 * opens the WebSocket showing it ({@link sessionProtocols}). Rejects when the host refuses either step.
 */
export async function connectWebSocketTransport(link: string, options: ConnectOptions = {}): Promise<WebSocketClientTransport> {
  const page = new URL(link);
  const origin = options.origin ?? page.origin;
  const token = await exchangeTicket(link, { origin });
  const socket = new WebSocket(`ws://${page.host}${WEB_SOCKET_PATH}`, sessionProtocols(token), { origin });
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

  const read = createFrameReader((frame: WireFrame) => {
    if (frame.kind === 'reply') {
      pending.get(frame.id)?.(frame.envelope);
      pending.delete(frame.id);
    } else if (frame.kind === 'event') {
      for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
    }
  });
  socket.on('message', (data) => read(String(data)));
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
      const sending = requestFrames(request);
      if ('tooLarge' in sending) return Promise.resolve({ ok: false, error: { code: 'ipc.tooLarge', message: sending.tooLarge } });
      return new Promise<Envelope>((resolve) => {
        pending.set(id, resolve);
        for (const frame of sending.frames) socket.send(frame);
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

/** The subprotocols a page offers in its upgrade: Keyplan's, and the one that shows the session `token`. */
export function sessionProtocols(token: string): string[] {
  return [WEB_SOCKET_PROTOCOL, `${SESSION_PROTOCOL_PREFIX}${token}`];
}

/**
 * `POST /session` with the ticket in `link`'s fragment; resolves with the session token the host
 * grants, rejects with the host's reason when it refuses.
 */
export function exchangeTicket(link: string, options: ConnectOptions = {}): Promise<string> {
  const page = new URL(link);
  const body = JSON.stringify({ ticket: new URLSearchParams(page.hash.slice(1)).get('ticket') ?? '' });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: page.hostname,
        port: page.port,
        path: SESSION_PATH,
        method: 'POST',
        headers: { origin: options.origin ?? page.origin, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const granted = res.statusCode === 200 ? tokenIn(text) : undefined;
          if (granted !== undefined) resolve(granted);
          else reject(new Error(`The host refused the ticket: HTTP ${res.statusCode ?? '?'} ${text.trim()}`));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function tokenIn(body: string): string | undefined {
  try {
    const token = (JSON.parse(body) as { token?: unknown } | null)?.token;
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
}
