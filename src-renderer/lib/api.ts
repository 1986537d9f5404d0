/**
 * Picks the transport: the preload bridge inside Electron, otherwise the loopback WebSocket (browser
 * mode). In browser mode the page first makes sure it holds the host's session token, trading the
 * single-use ticket in its URL (`#ticket=…`) for it, and keeps the token in this origin's
 * localStorage: the origin includes the port, so no server on another port can read or replace it
 * (a cookie it could); docs/browser-mode-security.md.
 */
import {
  createApiClient,
  type ApiClient,
  SESSION_HEADER,
  SESSION_PATH,
  SESSION_PROTOCOL_PREFIX,
  WEB_SOCKET_PATH,
  WEB_SOCKET_PROTOCOL,
  type Transport,
} from '../../src-shared/ipc/index.ts';
import { createWebSocketTransport } from './ws-transport.ts';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in browser mode. */
    keyplan?: Transport;
  }
}

const FRESH_LINK = 'Press Enter in the terminal where Keyplan runs to print a fresh link, and open that.';
/** Where the page keeps the session token: this origin's storage, shared by its tabs and reloads, by no other port. */
const TOKEN_KEY = 'keyplan.session';

export function connectToHost(): ApiClient {
  if (window.keyplan) return createApiClient(window.keyplan);
  let ticket = new URLSearchParams(window.location.hash.slice(1)).get('ticket') ?? undefined;
  const transport = createWebSocketTransport(`ws://${window.location.host}${WEB_SOCKET_PATH}`, {
    beforeConnect: async () => {
      // Only the first connection uses the ticket; later ones (after the host closed one) use the stored token.
      const given = ticket;
      ticket = undefined;
      return [WEB_SOCKET_PROTOCOL, `${SESSION_PROTOCOL_PREFIX}${await openSession(given)}`];
    },
  });
  return createApiClient(transport);
}

/**
 * Resolves with the host's session token: a stored token the host still takes (a reload, a second
 * tab, the link opened again after the window crashed), else the one `ticket` is traded for when the
 * page came with one. The stored token is asked first, so a link opened again in the same browser
 * is not refused for a ticket already spent. Rejects with what the user should do otherwise.
 */
async function openSession(ticket: string | undefined): Promise<string> {
  const stored = localStorage.getItem(TOKEN_KEY);
  const storedWorks = stored !== null && (await askHost('GET', { headers: { [SESSION_HEADER]: stored } })).ok;
  if (ticket !== undefined) {
    // Used, refused or not needed, the ticket is worth nothing now: keep it out of the address bar, history and bookmarks.
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  }
  if (storedWorks) return stored;
  if (ticket !== undefined) {
    const answer = await askHost('POST', { body: JSON.stringify({ ticket }), headers: { 'Content-Type': 'application/json' } });
    const token = answer.ok ? ((await answer.json()) as { token?: unknown }).token : undefined;
    if (typeof token === 'string') {
      localStorage.setItem(TOKEN_KEY, token);
      return token;
    }
  }
  throw new Error(
    ticket !== undefined
      ? `This link has already been used or has expired: each link opens Keyplan once, and only for a short while after it is printed. ${FRESH_LINK}`
      : `This page was opened without a link from Keyplan, or with one from an earlier run. ${FRESH_LINK}`,
  );
}

async function askHost(method: 'GET' | 'POST', request: { body?: string; headers: Record<string, string> }): Promise<Response> {
  try {
    // No credentials: the session is the token, never a cookie.
    return await fetch(SESSION_PATH, { method, credentials: 'omit', cache: 'no-store', ...request });
  } catch {
    throw new Error(`Could not reach the Keyplan host at ${location.host}: it has stopped. Start it again (npm run web) and open the link it prints.`);
  }
}
