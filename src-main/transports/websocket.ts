/**
 * Browser mode's host: the built renderer over HTTP and the contract over a WebSocket, both on
 * 127.0.0.1 only. Who may connect (docs/browser-mode-security.md says why):
 *
 * - every request must name `Host: 127.0.0.1:PORT`, which keeps DNS-rebinding pages out;
 * - a page proves that the user opened it with a single-use ticket from its URL fragment
 *   (`#ticket=…`), which it exchanges at `POST /session` (this origin only) for an HttpOnly,
 *   SameSite=Strict session cookie, random per host start;
 * - the WebSocket upgrade needs that cookie and this origin's `Origin` header.
 *
 * Nothing that opens the host lasts: a ticket works once, and only until it expires, so one seen
 * later on a browser's command line (`ps`) or in a terminal's scrollback is useless.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { ErrorData } from '../../src-shared/errors.ts';
import { isEventName, type ApiHandlers, type EventName, type EventPayload, type EventSink } from '../../src-shared/ipc/contract.ts';
import { dispatchRequest } from '../../src-shared/ipc/dispatch.ts';
import { SESSION_PATH, WEB_SOCKET_PATH, type Envelope, type WireEvent, type WireReply } from '../../src-shared/ipc/wire.ts';
import { CONTENT_SECURITY_POLICY } from '../csp.ts';
import { sendText, serveStatic } from './static-files.ts';

export { SESSION_PATH, WEB_SOCKET_PATH };

/**
 * The largest WebSocket message the host reads. The biggest request is a whole design (`file.save`,
 * `simulation.run`): a design at every DynamoDB limit (GSIs, LSIs, attributes, patterns) is a few MB
 * of JSON, so 16 MB leaves room while keeping one page from making the host hold far more.
 */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** The close reason for a message over {@link MAX_FRAME_BYTES} (close code 1009, "message too big"). */
export const FRAME_TOO_LARGE_REASON = `Message too large: the Keyplan host reads at most ${MAX_FRAME_BYTES / (1024 * 1024)} MB per message.`;
/** How long a ticket handed to a browser the host launches stays good: that page exchanges it within seconds. */
export const LAUNCH_TICKET_TTL_MS = 30_000;
/** How long a link printed for the user stays good: time to copy it into a browser. */
export const PRINTED_LINK_TTL_MS = 10 * 60_000;
/** At most this many characters of any one string a client sent are quoted back in an error reply. */
export const MAX_ECHO_CHARS = 200;
/** Unused tickets kept at once; a newer one pushes the oldest out. */
const MAX_LIVE_TICKETS = 64;
/** `{"ticket":"…"}` is about 60 bytes. */
const MAX_SESSION_BODY_BYTES = 1024;
const TICKET_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

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
  /** The session cookie's name (`keyplan_session_PORT`: cookies are shared by every port of a host name). */
  cookieName: string;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

/** Starts listening; rejects (e.g. EADDRINUSE) when the port cannot be had. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1') throw new Error(`The web host listens on 127.0.0.1 only; received host "${String(host)}".`);
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[keyplan] ${message}`, ...(error === undefined ? [] : [error])));
  const tickets = createTicketBook(options.now ?? Date.now);
  // The credential a page holds after the exchange; a new one each start, so an old cookie is useless.
  const sessionSecret = randomBytes(32).toString('base64url');
  const sessionDigest = digest(sessionSecret);
  let port = 0;
  const authority = () => `127.0.0.1:${port}`;
  const origin = () => `http://${authority()}`;
  const cookieName = () => `keyplan_session_${port}`;

  const hasSession = (req: IncomingMessage): boolean => {
    let found = false;
    // Every value is compared, in constant time each, so timing tells nothing about which matched.
    for (const value of cookieValues(req.headers.cookie, cookieName())) if (timingSafeEqual(digest(value), sessionDigest)) found = true;
    return found;
  };

  async function answerSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (hasSession(req)) return sendEmpty(res);
      return sendText(res, 401, 'This browser has no Keyplan session: open a fresh link (press Enter in the terminal where Keyplan runs to print one).');
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'GET, HEAD, POST');
      return sendText(res, 405, `${SESSION_PATH} takes GET, HEAD or POST.`);
    }
    // Only this origin's own page may trade a ticket; a cross-site form cannot even send JSON without asking first.
    if (req.headers.origin !== origin()) return sendText(res, 403, 'Wrong or missing Origin.');
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) return sendText(res, 415, 'Send the ticket as JSON: {"ticket":"…"}.');
    const body = await readSmallBody(req, MAX_SESSION_BODY_BYTES);
    if (body === undefined) {
      res.setHeader('Connection', 'close');
      return sendText(res, 413, `The body is over ${MAX_SESSION_BODY_BYTES} bytes; send {"ticket":"…"}.`);
    }
    const ticket = parseTicket(body);
    if (ticket === undefined || !tickets.redeem(ticket)) {
      // A link reopened in a browser that already holds this run's session (a reload, a second tab) just works.
      if (hasSession(req)) return sendEmpty(res);
      return sendText(res, 403, 'This link was already used, has expired, or is from an earlier run of Keyplan: press Enter in the terminal where Keyplan runs to print a fresh one.');
    }
    res.setHeader('Set-Cookie', `${cookieName()}=${sessionSecret}; Path=/; HttpOnly; SameSite=Strict`);
    return sendEmpty(res);
  }

  const server = createServer((req, res) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if (req.headers.host !== authority()) return sendText(res, 403, `Open Keyplan at ${origin()}/ (this request named host "${clip(req.headers.host ?? '')}").`);
    const answer = pathOf(req.url) === SESSION_PATH ? answerSession(req, res) : serveStatic(options.staticDir, req, res);
    answer.catch((error: unknown) => {
      log(`Serving ${clip(req.url ?? '')} failed.`, error);
      if (!res.headersSent) sendText(res, 500, 'The host failed to answer this request.');
      else res.destroy();
    });
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, WebSocket: ExplainingWebSocket });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy()); // a peer that resets mid-handshake must not crash the host
    if (pathOf(req.url) !== WEB_SOCKET_PATH) return refuseUpgrade(socket, 404, `The WebSocket endpoint is ${WEB_SOCKET_PATH}.`);
    if (req.headers.host !== authority()) return refuseUpgrade(socket, 403, 'Wrong Host header.');
    if (req.headers.origin !== origin()) return refuseUpgrade(socket, 403, 'Wrong or missing Origin.');
    if (!hasSession(req)) return refuseUpgrade(socket, 403, 'No valid session cookie: open a fresh link from the terminal where Keyplan runs.');
    sockets.handleUpgrade(req, socket, head, (ws) => serveConnection(ws));
  });

  function serveConnection(ws: WebSocket): void {
    ws.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') log(`A page sent a WebSocket message over ${MAX_FRAME_BYTES} bytes; its connection was closed.`);
      // A peer breaking the protocol (bad UTF-8, bad opcode, ...) is the peer's fault: one line, no stack.
      else if (error.code?.startsWith('WS_ERR_')) log(`A WebSocket connection was closed: ${error.message.slice(0, 200)} (${error.code}).`);
      else log('A WebSocket connection failed.', error);
    });
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
        onInternalError: (error) => log(`The handler for "${clip(channel)}" failed.`, error),
      }).then((envelope) => reply(ws, id, envelope.ok ? envelope : { ok: false, error: clipEchoes(envelope.error, [channel, request.input]) }));
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
    origin: origin(),
    port,
    cookieName: cookieName(),
    issueLink: (ttlMs) => `${origin()}/#ticket=${tickets.issue(ttlMs)}`,
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

/**
 * `ws` closes a connection whose message is over `maxPayload` with code 1009 and no reason; this
 * gives the page a reason it can show. Every other close passes through unchanged.
 */
class ExplainingWebSocket extends WebSocket {
  override close(code?: number, reason?: string | Buffer): void {
    super.close(code, code === 1009 && reason === undefined ? FRAME_TOO_LARGE_REASON : reason);
  }
}

interface TicketBook {
  /** A new random ticket, good for one {@link TicketBook.redeem} within `ttlMs`. */
  issue(ttlMs: number): string;
  /** True for a live ticket, once: a ticket is gone after its first use, whatever the answer. */
  redeem(given: string): boolean;
}

/** Tickets are kept as SHA-256 digests only, each with the time it expires. */
function createTicketBook(now: () => number): TicketBook {
  let live: Array<{ digest: Buffer; expiresAt: number }> = [];
  return {
    issue(ttlMs) {
      if (!(ttlMs > 0)) throw new Error(`A ticket needs a lifetime over 0 ms; received ${ttlMs}.`);
      const ticket = randomBytes(24).toString('base64url');
      const time = now();
      live = live.filter((t) => t.expiresAt > time).slice(-(MAX_LIVE_TICKETS - 1));
      live.push({ digest: digest(ticket), expiresAt: time + ttlMs });
      return ticket;
    },
    redeem(given) {
      if (!TICKET_PATTERN.test(given)) return false;
      const time = now();
      const wanted = digest(given);
      let match: { digest: Buffer; expiresAt: number } | undefined;
      // No early exit: every live ticket is compared in constant time.
      for (const ticket of live) if (timingSafeEqual(ticket.digest, wanted)) match = ticket;
      live = live.filter((t) => t !== match && t.expiresAt > time);
      return match !== undefined && match.expiresAt > time;
    },
  };
}

function parseTicket(body: string): string | undefined {
  try {
    const ticket = (JSON.parse(body) as { ticket?: unknown } | null)?.ticket;
    return typeof ticket === 'string' ? ticket : undefined;
  } catch {
    return undefined;
  }
}

/** The body as text, or undefined (and the rest ignored) once it passes `limit` bytes. */
function readSmallBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      req.resume();
      return resolve(undefined);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else resolve(undefined);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The values of every `name=value` pair named `name` in a `Cookie` header. */
function cookieValues(header: string | undefined, name: string): string[] {
  if (header === undefined) return [];
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at !== -1 && pair.slice(0, at).trim() === name) values.push(pair.slice(at + 1).trim());
  }
  return values;
}

function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://host').pathname;
  } catch {
    return '';
  }
}

function sendEmpty(res: ServerResponse): void {
  res.statusCode = 204;
  res.setHeader('Cache-Control', 'no-store');
  res.end();
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

/** Fixed-length digests let `timingSafeEqual` compare secrets of any length in constant time. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

function clip(text: string): string {
  return text.length > MAX_ECHO_CHARS ? `${text.slice(0, MAX_ECHO_CHARS)}…` : text;
}

/**
 * The transport's last word on echoes: wherever an error's message, path or details repeat more than
 * {@link MAX_ECHO_CHARS} characters of a string the client sent (its channel, a value or a key of its
 * input, raw or JSON-escaped), the repeat is cut there. Handlers quote what they refuse
 * (`unknown field "…"`), and a 16 MB value must not travel back whole. Errors whose strings are all
 * short, nearly all of them, are returned as they are without looking at the request.
 */
export function clipEchoes(error: ErrorData, sent: unknown[]): ErrorData {
  const inError = new Set<string>();
  collectLongStrings(error, inError);
  if (inError.size === 0) return error;
  const long = new Set<string>();
  collectLongStrings(sent, long);
  if (long.size === 0) return error;
  const forms = [...long].flatMap((s) => {
    const escaped = JSON.stringify(s).slice(1, -1);
    return escaped === s ? [s] : [s, escaped];
  });
  const cut = (text: string): string => {
    if (text.length <= MAX_ECHO_CHARS) return text;
    let result = text;
    for (const form of forms) result = cutRepeats(result, form);
    return result;
  };
  const clipped: ErrorData = { ...error, message: cut(error.message) };
  if (error.path !== undefined) clipped.path = cut(error.path);
  if (error.details !== undefined) clipped.details = mapStrings(error.details, cut);
  return clipped;
}

/** Replaces each run of `text` longer than MAX_ECHO_CHARS that repeats `sent` from its start. */
function cutRepeats(text: string, sent: string): string {
  const probe = sent.slice(0, MAX_ECHO_CHARS + 1);
  let at = text.indexOf(probe);
  if (at === -1) return text;
  let result = '';
  let from = 0;
  while (at !== -1) {
    let length = probe.length;
    while (at + length < text.length && length < sent.length && text[at + length] === sent[length]) length += 1;
    result += `${text.slice(from, at)}${sent.slice(0, MAX_ECHO_CHARS)}… (${length} characters)`;
    from = at + length;
    at = text.indexOf(probe, from);
  }
  return result + text.slice(from);
}

function collectLongStrings(value: unknown, into: Set<string>): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.length > MAX_ECHO_CHARS) into.add(item);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        if (key.length > MAX_ECHO_CHARS) into.add(key);
        stack.push(child);
      }
    }
  }
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [map(key), mapStrings(child, map)]));
  }
  return value;
}
