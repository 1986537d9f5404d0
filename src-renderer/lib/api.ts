/**
 * Picks the transport: the preload bridge inside Electron, otherwise the loopback WebSocket whose
 * token is in the URL fragment (browser mode).
 */
import { createApiClient, type ApiClient } from '../../src-shared/ipc/client.ts';
import type { Transport } from '../../src-shared/ipc/wire.ts';
import { createWebSocketTransport } from './ws-transport.ts';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in browser mode. */
    keyplan?: Transport;
  }
}

export function connectToHost(): ApiClient {
  if (window.keyplan) return createApiClient(window.keyplan);
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const url = `ws://${window.location.host}/ws?token=${encodeURIComponent(token)}`;
  return createApiClient(createWebSocketTransport(url));
}
