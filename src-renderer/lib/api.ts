/**
 * Picks the transport: the preload bridge inside Electron, otherwise the loopback WebSocket (browser
 * mode). In browser mode the page first makes sure this browser holds the host's session cookie,
 * trading the single-use ticket in its URL (`#ticket=…`) for it; docs/browser-mode-security.md.
 */
import {
  createApiClient,
  type ApiClient,
  SESSION_PATH,
  WEB_SOCKET_PATH,
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

export function connectToHost(): ApiClient {
  if (window.keyplan) return createApiClient(window.keyplan);
  let ticket = new URLSearchParams(window.location.hash.slice(1)).get('ticket') ?? undefined;
  const transport = createWebSocketTransport(`ws://${window.location.host}${WEB_SOCKET_PATH}`, {
    beforeConnect: async () => {
      // Only the first connection uses the ticket; later ones (after the host closed one) rely on the cookie.
      const given = ticket;
      ticket = undefined;
      await openSession(given);
    },
  });
  return createApiClient(transport);
}

/**
 * Resolves once this browser holds the host's session cookie: trades `ticket` for it when the page
 * came with one, or finds the cookie already there (a reload, a second tab). Rejects with what the
 * user should do otherwise.
 */
async function openSession(ticket: string | undefined): Promise<void> {
  let wasRefused = false;
  if (ticket !== undefined) {
    try {
      const answer = await askHost('POST', JSON.stringify({ ticket }));
      if (answer.ok) return;
      wasRefused = true;
    } finally {
      // Used or refused, the ticket is worth nothing now: keep it out of the address bar, history and bookmarks.
      history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    }
  }
  // A link opened twice in one browser is refused, but the first opening left the cookie.
  if ((await askHost('GET')).ok) return;
  throw new Error(
    wasRefused
      ? `This link has already been used or has expired: each link opens Keyplan once, and only for a short while after it is printed. ${FRESH_LINK}`
      : `This page was opened without a link from Keyplan, or with one from an earlier run. ${FRESH_LINK}`,
  );
}

async function askHost(method: 'GET' | 'POST', body?: string): Promise<Response> {
  try {
    return await fetch(SESSION_PATH, {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      ...(body === undefined ? {} : { body, headers: { 'Content-Type': 'application/json' } }),
    });
  } catch {
    throw new Error(`Could not reach the Keyplan host at ${location.host}: it has stopped. Start it again (npm run web) and open the link it prints.`);
  }
}
