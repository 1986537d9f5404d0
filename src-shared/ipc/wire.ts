/**
 * What crosses between the renderer and the host: envelopes, never thrown errors. Electron's `invoke`
 * drops custom error properties (electron/electron#24427), so codes travel as data.
 */
import type { ErrorData } from '../errors.ts';
import type { ErrorCode } from './error-codes.ts';

export type { IpcErrorCode } from './error-codes.ts';

export type Envelope<T = unknown> = { ok: true; value: T } | { ok: false; error: ErrorData<ErrorCode> };

/** The one interface every transport implements: Electron bridge, WebSocket, in-memory. */
export interface Transport {
  invoke(channel: string, input: unknown): Promise<Envelope>;
  /** Subscribes to a host event; returns the unsubscribe function. */
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
}

/** WebSocket frames (browser mode). A request carries an id; its reply carries the same id. */
export type WireRequest = { kind: 'request'; id: number; channel: string; input: unknown };
export type WireReply = { kind: 'reply'; id: number; envelope: Envelope };
export type WireEvent = { kind: 'event'; event: string; payload: unknown };
export type WireFrame = WireRequest | WireReply | WireEvent;

/** Browser mode: the host's WebSocket endpoint, open to a page holding the session token. */
export const WEB_SOCKET_PATH = '/ws';
/**
 * Browser mode: where a page trades its single-use link's ticket for the session token (POST
 * `{"ticket":"…"}`, answered `{"token":"…"}`) or asks whether a token is this run's (GET, the token
 * in the {@link SESSION_HEADER} header: 204 or 401).
 */
export const SESSION_PATH = '/session';
/** Browser mode: the request header a page names its session token in when it asks `GET SESSION_PATH`. */
export const SESSION_HEADER = 'x-keyplan-session';
/**
 * Browser mode: the WebSocket subprotocol the host agrees to. A page offers it together with
 * `SESSION_PROTOCOL_PREFIX + token`, which is how its upgrade shows the session token (a browser's
 * `WebSocket` can set no other header); the host answers with this one only.
 */
export const WEB_SOCKET_PROTOCOL = 'keyplan';
/** Browser mode: the prefix of the subprotocol that carries the session token in a WebSocket upgrade. */
export const SESSION_PROTOCOL_PREFIX = 'keyplan.session.';
