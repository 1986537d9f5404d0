/**
 * Browser mode's host: the built renderer over HTTP and the contract over a WebSocket, both on
 * 127.0.0.1 only. The socket is open only to a page of this very origin (`Origin` header) that knows
 * the session token (`?token=`); the page gets the token from its URL fragment, which browsers never
 * send to servers or put in Referer headers. A `Host` check keeps DNS-rebinding pages out.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { isEventName, type ApiHandlers, type EventName, type EventPayload, type EventSink } from '../../src-shared/ipc/contract.ts';
import { dispatchRequest } from '../../src-shared/ipc/dispatch.ts';
import type { Envelope, WireEvent, WireReply } from '../../src-shared/ipc/wire.ts';
import { CONTENT_SECURITY_POLICY } from '../csp.ts';
import { sendText, serveStatic } from './static-files.ts';

/** The path of the WebSocket endpoint. */
export const WEB_SOCKET_PATH = '/ws';
const MAX_FRAME_BYTES = 64 * 1024 * 1024;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

export interface WebHostOptions {
  handlers: ApiHandlers;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Only loopback is supported: the UI and its files must not be reachable from the network. */
  host?: '127.0.0.1';
  /** The session token; default 32 random hex digits. */
  token?: string;
  /** The built renderer, e.g. `out/renderer`; without it every page is a 503 explaining why. */
  staticDir?: string;
  /** Where host problems are reported, once each (default: console.error). */
  log?: (message: string, error?: unknown) => void;
}

export interface WebHost extends EventSink {
  /** What to open in a browser: `http://127.0.0.1:PORT/#token=TOKEN`. */
  url: string;
  port: number;
  token: string;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

/** Starts listening; rejects (e.g. EADDRINUSE) when the port cannot be had. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1') throw new Error(`The web host listens on 127.0.0.1 only; received host "${String(host)}".`);
  const token = options.token ?? randomBytes(16).toString('hex');
  if (!TOKEN_PATTERN.test(token)) throw new Error('The session token must be 16–128 characters of A-Z a-z 0-9 _ -.');
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[keyplan] ${message}`, ...(error === undefined ? [] : [error])));
  const tokenDigest = digest(token);
  let port = 0;
  const authority = () => `127.0.0.1:${port}`;

  const server = createServer((req, res) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if (req.headers.host !== authority()) return sendText(res, 403, `Open Keyplan at http://${authority()}/ (this request named host "${req.headers.host ?? ''}").`);
    serveStatic(options.staticDir, req, res).catch((error: unknown) => {
      log(`Serving ${req.url ?? ''} failed.`, error);
      if (!res.headersSent) sendText(res, 500, 'The host failed to read this file.');
      else res.destroy();
    });
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy()); // a peer that resets mid-handshake must not crash the host
    const url = new URL(req.url ?? '/', `http://${authority()}`);
    if (url.pathname !== WEB_SOCKET_PATH) return refuseUpgrade(socket, 404, `The WebSocket endpoint is ${WEB_SOCKET_PATH}.`);
    if (req.headers.host !== authority()) return refuseUpgrade(socket, 403, 'Wrong Host header.');
    if (req.headers.origin !== `http://${authority()}`) return refuseUpgrade(socket, 403, 'Wrong or missing Origin.');
    const given = url.searchParams.get('token');
    if (given === null || !timingSafeEqual(digest(given), tokenDigest)) return refuseUpgrade(socket, 403, 'Wrong or missing session token.');
    sockets.handleUpgrade(req, socket, head, (ws) => serveConnection(ws));
  });

  function serveConnection(ws: WebSocket): void {
    ws.on('error', (error) => log('A WebSocket connection failed.', error));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return ws.close(1003, 'Binary frames are not supported; send JSON text.');
      let frame: unknown;
      try {
        frame = JSON.parse(rawToString(data));
      } catch {
        return ws.close(1007, 'Malformed frame: not JSON.');
      }
      const request = frame as { kind?: unknown; id?: unknown; channel?: unknown; input?: unknown } | null;
      if (typeof request !== 'object' || request === null || !Number.isSafeInteger(request.id)) {
        return ws.close(1007, 'Malformed frame: expected {kind:"request", id, channel, input}.');
      }
      const id = request.id as number;
      if (request.kind !== 'request' || typeof request.channel !== 'string') {
        return reply(ws, id, {
          ok: false,
          error: { code: 'ipc.badInput', message: 'Malformed frame: expected {kind:"request", id, channel: string, input}.' },
        });
      }
      const channel = request.channel;
      void dispatchRequest(options.handlers, channel, request.input, {
        onInternalError: (error) => log(`The handler for "${channel}" failed.`, error),
      }).then((envelope) => reply(ws, id, envelope));
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  server.on('error', (error) => log('The web host failed.', error));

  return {
    url: `http://${authority()}/#token=${token}`,
    port,
    token,
    emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
      if (!isEventName(event)) throw new Error(`Unknown event "${String(event)}".`);
      const frame: WireEvent = { kind: 'event', event, payload };
      const text = JSON.stringify(frame);
      for (const client of sockets.clients) if (client.readyState === client.OPEN) client.send(text);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.close(1001, 'The Keyplan host is shutting down.');
        sockets.close();
        server.close(() => resolve());
        server.closeAllConnections();
        // Sockets that ignore the close handshake are cut after a moment.
        setTimeout(() => {
          for (const client of sockets.clients) client.terminate();
        }, 500).unref();
      }),
  };
}

function reply(ws: WebSocket, id: number, envelope: Envelope): void {
  if (ws.readyState !== ws.OPEN) return;
  const frame: WireReply = { kind: 'reply', id, envelope };
  ws.send(JSON.stringify(frame));
}

/** Answers an upgrade request with a plain HTTP error, before any WebSocket exists. */
function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  const body = `${text}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Fixed-length digests let `timingSafeEqual` compare tokens of any length in constant time. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
