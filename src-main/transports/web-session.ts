/**
 * Who may use browser mode's host (docs/browser-mode-security.md says why): a page proves that the
 * user opened it with a single-use ticket from its URL fragment (`#ticket=…`), which it exchanges at
 * `POST /session` (this origin only) for a session token, random per host start. The page keeps the
 * token in its origin's storage, which (unlike a cookie) no server on another port of 127.0.0.1 can
 * read or overwrite, and shows it in the WebSocket upgrade's `Sec-WebSocket-Protocol` header.
 * Cookies play no part. Nothing that opens the host lasts: a ticket works once, and only until it expires.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SESSION_HEADER, SESSION_PATH, SESSION_PROTOCOL_PREFIX } from '../../src-shared/ipc/index.ts';
import { sendText } from './static-files.ts';

/** Unused tickets kept at once; a newer one pushes the oldest out. */
const MAX_LIVE_TICKETS = 64;
/** `{"ticket":"…"}` is about 60 bytes. */
const MAX_SESSION_BODY_BYTES = 1024;
const TICKET_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** One host start's sessions: the tickets it issued and the session token they are traded for. */
export interface WebSession {
  /** A new random ticket, good for one exchange within `ttlMs`. */
  issueTicket(ttlMs: number): string;
  /**
   * Whether a WebSocket upgrade shows this host start's session token, as the subprotocol
   * `SESSION_PROTOCOL_PREFIX + token` in `Sec-WebSocket-Protocol`.
   */
  hasSession(req: IncomingMessage): boolean;
  /**
   * Answers `SESSION_PATH`: GET and HEAD say whether the token in the `SESSION_HEADER` header is this
   * start's (204, 401 otherwise); POST trades a ticket for the token (`{"token":"…"}`, 200).
   */
  answer(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * The sessions of one host start. `origin` is read on each request (the port, part of it, is known
 * only once the host listens); `now` is the clock tickets expire by.
 */
export function createWebSession(options: { now: () => number; origin: () => string }): WebSession {
  const { origin } = options;
  const tickets = createTicketBook(options.now);
  // The credential a page holds after the exchange; a new one each start, so an old token is useless.
  const sessionToken = randomBytes(32).toString('base64url');
  const sessionDigest = digest(sessionToken);

  // Every value offered is compared, in constant time each, so timing tells nothing about which matched.
  const isToken = (values: string[]): boolean => {
    let found = false;
    for (const value of values) if (timingSafeEqual(digest(value), sessionDigest)) found = true;
    return found;
  };
  const hasSession = (req: IncomingMessage): boolean => isToken(protocolTokens(req.headers['sec-websocket-protocol']));
  const headerToken = (req: IncomingMessage): string[] => {
    const value = req.headers[SESSION_HEADER];
    return typeof value === 'string' ? [value] : [];
  };

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (isToken(headerToken(req))) return sendEmpty(res);
      return sendText(res, 401, 'This page holds no Keyplan session of this run: open a fresh link (press Enter in the terminal where Keyplan runs to print one).');
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
      return sendText(res, 403, 'This link was already used, has expired, or is from an earlier run of Keyplan: press Enter in the terminal where Keyplan runs to print a fresh one.');
    }
    res.statusCode = 200;
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ token: sessionToken }));
  }

  return { issueTicket: (ttlMs) => tickets.issue(ttlMs), hasSession, answer };
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

/** The tokens of every `SESSION_PROTOCOL_PREFIX + token` subprotocol a `Sec-WebSocket-Protocol` header offers. */
function protocolTokens(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value.startsWith(SESSION_PROTOCOL_PREFIX))
    .map((value) => value.slice(SESSION_PROTOCOL_PREFIX.length));
}

function sendEmpty(res: ServerResponse): void {
  res.statusCode = 204;
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}

/** Fixed-length digests let `timingSafeEqual` compare secrets of any length in constant time. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
