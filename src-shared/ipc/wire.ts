/**
 * What crosses between the renderer and the host: envelopes, never thrown errors. Electron's `invoke`
 * drops custom error properties (electron/electron#24427), so codes travel as data.
 */
import type { ErrorData } from '../errors.ts';
import { MAX_DESIGN_BYTES } from '../model/index.ts';
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
/**
 * One piece of a message longer than {@link CHUNK_CHARS}: the message's JSON text (a request or a
 * reply) cut into `count` pieces, sent in order (`index` 0 to `count - 1`) under the id of the request
 * or reply they make up. `chars` is the whole text's length in UTF-16 code units, at most
 * {@link MAX_MESSAGE_CHARS}, so the receiver can refuse a message too large before it arrives.
 */
export type WireChunk = { kind: 'chunk'; id: number; index: number; count: number; chars: number; data: string };
export type WireFrame = WireRequest | WireReply | WireEvent | WireChunk;

/**
 * Messages longer than this many UTF-16 code units travel as {@link WireChunk}s of at most this many,
 * so no single WebSocket frame is large (one piece JSON-escaped is at most 6 bytes a unit, 6 MB).
 */
export const CHUNK_CHARS = 1024 * 1024;
/**
 * The longest message either side takes, in UTF-16 code units: a request carrying the largest design
 * ({@link MAX_DESIGN_BYTES}; its compact JSON is no longer than its file) and 1 MB for the rest.
 * A longer one is refused with `ipc.tooLarge`.
 */
export const MAX_MESSAGE_CHARS = MAX_DESIGN_BYTES + 1024 * 1024;

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
