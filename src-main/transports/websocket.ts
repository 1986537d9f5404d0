/**
 * Browser mode's host: the built renderer over HTTP and the contract over a WebSocket, both on
 * 127.0.0.1 only. Who may connect (docs/browser-mode-security.md says why):
 *
 * More on its rules: docs/modules.md, "src-main/transports/websocket.ts".
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  isEventName,
  type ApiHandlers,
  type EventName,
  type EventPayload,
  type EventSink,
  createChunkAssembler,
  framesOf,
  CHUNK_CHARS,
  SESSION_PATH,
  WEB_SOCKET_PATH,
  WEB_SOCKET_PROTOCOL,
  type Envelope,
  type WireEvent,
  type WireReply,
} from '../../src-shared/ipc/index.ts';
import { dispatchRequest } from '../../src-shared/ipc/host.ts';
import { CONTENT_SECURITY_POLICY } from '../csp.ts';
import { logToConsole } from '../log.ts';
import { clip, clipEchoes, MAX_ECHO_CHARS } from './clip-echoes.ts';
import { sendText, serveStatic } from './static-files.ts';
import { createWebSession, type WebSession } from './web-session.ts';
import { formatBytesIn } from '../../src-shared/numbers/index.ts';

export { SESSION_PATH, WEB_SOCKET_PATH, WEB_SOCKET_PROTOCOL, MAX_ECHO_CHARS, clipEchoes };

/**
 * The largest WebSocket frame the host reads. A message longer than {@link CHUNK_CHARS} travels as
 * chunks (`src-shared/ipc/chunks.ts`), each at most 6 MB even when every character is JSON-escaped
 * (`\uXXXX`), so 8 MB is room for any chunk while one frame stays cheap to parse; the whole message
 * may be up to `MAX_MESSAGE_CHARS` (a 64 MB design and its request).
 */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;
/** The close reason for a message over {@link MAX_FRAME_BYTES} (close code 1009, "message too big"). */
export const FRAME_TOO_LARGE_REASON = `Message too large: the Keyplan host reads at most ${formatBytesIn(MAX_FRAME_BYTES, 'MB')} per message.`;
/** How long a ticket handed to a browser the host launches stays good: that page exchanges it within seconds. */
export const LAUNCH_TICKET_TTL_MS = 30_000;
/** How long a link printed for the user stays good: time to copy it into a browser. */
export const PRINTED_LINK_TTL_MS = 10 * 60_000;

export interface WebHostOptions {
  handlers: ApiHandlers;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Only loopback is supported: the UI and its files must not be reachable from the network. */
  host?: '127.0.0.1';
  /** The built renderer, e.g. `out/renderer`; without it every page is a 503 explaining why. */
  staticDir?: string;
  /** Where host problems are reported, once each (default: console.error). */
  log?: (message: string, error?: unknown) => void;
  /** The clock tickets expire by, in milliseconds (default `Date.now`); tests move it forward. */
  now?: () => number;
}

export interface WebHost extends EventSink {
  /** The page's origin, `http://127.0.0.1:PORT`: opened without a link (or a session) it says how to get one. */
  origin: string;
  port: number;
  /**
   * A link that opens Keyplan once: `http://127.0.0.1:PORT/#ticket=TICKET`, good for one exchange
   * within `ttlMs` ({@link LAUNCH_TICKET_TTL_MS} for a browser the host starts, {@link PRINTED_LINK_TTL_MS}
   * for a link shown to the user).
   */
  issueLink(ttlMs: number): string;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

/** Starts listening; rejects (e.g. EADDRINUSE) when the port cannot be had. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1') throw new Error(`The web host listens on 127.0.0.1 only; received host "${String(host)}".`);
  const log = options.log ?? logToConsole;
  let port = 0;
  const authority = () => `127.0.0.1:${port}`;
  const origin = () => `http://${authority()}`;
  const session = createWebSession({ now: options.now ?? Date.now, origin });

  const server = createServer((req, res) => {
    setSecurityHeaders(res);
    if (req.headers.host !== authority()) return sendText(res, 403, `Open Keyplan at ${origin()}/ (this request named host "${clip(req.headers.host ?? '')}").`);
    const answer = pathOf(req.url) === SESSION_PATH ? session.answer(req, res) : serveStatic(options.staticDir, req, res);
    answer.catch((error: unknown) => {
      log(`Serving ${clip(req.url ?? '')} failed.`, error);
      if (!res.headersSent) sendText(res, 500, 'The host failed to answer this request.');
      else res.destroy();
    });
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES,
    WebSocket: ExplainingWebSocket,
    // The page offers this protocol and its session token's; only this one is ever agreed to, so the token is never echoed.
    handleProtocols: (offered) => (offered.has(WEB_SOCKET_PROTOCOL) ? WEB_SOCKET_PROTOCOL : false),
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy()); // a peer that resets mid-handshake must not crash the host
    const refusal = upgradeRefusal(req, authority(), origin(), session);
    if (refusal) return refuseUpgrade(socket, refusal.status, refusal.text);
    sockets.handleUpgrade(req, socket, head, (ws) => serveConnection(ws, options.handlers, log));
  });

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
    origin: origin(),
    port,
    issueLink: (ttlMs) => `${origin()}/#ticket=${session.issueTicket(ttlMs)}`,
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

/** Headers on every HTTP answer: this origin's content security policy, no sniffing, framing, referrer or cross-origin use. */
function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/** Why a WebSocket upgrade is refused (the endpoint, this Host, this Origin and the session token are needed), or undefined. */
function upgradeRefusal(req: IncomingMessage, authority: string, origin: string, session: WebSession): { status: number; text: string } | undefined {
  if (pathOf(req.url) !== WEB_SOCKET_PATH) return { status: 404, text: `The WebSocket endpoint is ${WEB_SOCKET_PATH}.` };
  if (req.headers.host !== authority) return { status: 403, text: 'Wrong Host header.' };
  if (req.headers.origin !== origin) return { status: 403, text: 'Wrong or missing Origin.' };
  if (!session.hasSession(req)) return { status: 403, text: 'No valid session token: open a fresh link from the terminal where Keyplan runs.' };
  return undefined;
}

/** Serves the contract over one connection: each request frame dispatched to the handlers, each answer a reply frame. */
function serveConnection(ws: WebSocket, handlers: ApiHandlers, log: (message: string, error?: unknown) => void): void {
  ws.on('error', (error: Error & { code?: string }) => {
    if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') log(`A page sent a WebSocket message over ${MAX_FRAME_BYTES} bytes; its connection was closed.`);
    // A peer breaking the protocol (bad UTF-8, bad opcode, ...) is the peer's fault: one line, no stack.
    else if (error.code?.startsWith('WS_ERR_')) log(`A WebSocket connection was closed: ${error.message.slice(0, 200)} (${error.code}).`);
    else log('A WebSocket connection failed.', error);
  });
  // Chunks of one message arrive in order, one message at a time (see chunks.ts).
  const chunks = createChunkAssembler();
  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) return ws.close(1003, 'Binary frames are not supported; send JSON text.');
    let frame: unknown;
    try {
      frame = JSON.parse(rawToString(data));
    } catch {
      return ws.close(1007, 'Malformed frame: not JSON.');
    }
    if ((frame as { kind?: unknown } | null)?.kind === 'chunk') {
      const outcome = chunks.add(frame as Record<string, unknown>);
      if (outcome.kind === 'malformed') return ws.close(1007, outcome.reason.slice(0, 120));
      if (outcome.kind === 'tooLarge') return reply(ws, outcome.id, { ok: false, error: { code: 'ipc.tooLarge', message: outcome.message } });
      if (outcome.kind === 'partial') return;
      try {
        frame = JSON.parse(outcome.text);
      } catch {
        return ws.close(1007, 'Malformed frame: its chunks do not join into JSON.');
      }
    }
    serveRequest(ws, frame, handlers, log);
  });
}

/** Answers one request frame (whole, or joined from its chunks). */
function serveRequest(ws: WebSocket, frame: unknown, handlers: ApiHandlers, log: (message: string, error?: unknown) => void): void {
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
  void dispatchRequest(handlers, channel, request.input, {
    onInternalError: (error) => log(`The handler for "${clip(channel)}" failed.`, error),
  }).then((envelope) => reply(ws, id, envelope.ok ? envelope : { ok: false, error: clipEchoes(envelope.error, [channel, request.input]) }));
}

/**
 * `ws` closes a connection whose message is over `maxPayload` with code 1009 and no reason; this
 * gives the page a reason it can show. Every other close passes through unchanged.
 */
class ExplainingWebSocket extends WebSocket {
  override close(code?: number, reason?: string | Buffer): void {
    super.close(code, code === 1009 && reason === undefined ? FRAME_TOO_LARGE_REASON : reason);
  }
}

function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://host').pathname;
  } catch {
    return '';
  }
}

function reply(ws: WebSocket, id: number, envelope: Envelope): void {
  if (ws.readyState !== ws.OPEN) return;
  const frame: WireReply = { kind: 'reply', id, envelope };
  // A long reply (an opened design) goes as chunks: no frame is over what a page's transport expects.
  for (const text of framesOf(id, JSON.stringify(frame), CHUNK_CHARS)) ws.send(text);
}

/** Answers an upgrade request with a plain HTTP error, before any WebSocket exists. */
function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  const body = `${text}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
