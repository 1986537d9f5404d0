/**
 * Messages too long for one WebSocket frame (browser mode), both ways: the sender cuts the JSON
 * text into {@link WireChunk}s of at most {@link CHUNK_CHARS} UTF-16 code units, the receiver joins
 * them back and refuses a message over its limit as soon as the first piece says how long it is.
 */
import { formatBytes } from '../numbers/index.ts';
import { MAX_DESIGN_BYTES } from '../model/index.ts';
import { CHUNK_CHARS, MAX_MESSAGE_CHARS, type WireChunk, type WireFrame, type WireRequest } from './wire.ts';

/**
 * The frames that carry `text`, the JSON of a request or reply with id `id`: `text` itself when it
 * is at most `chunkChars` long, otherwise its pieces as `WireChunk` frames, in order.
 */
export function framesOf(id: number, text: string, chunkChars = CHUNK_CHARS): string[] {
  if (text.length <= chunkChars) return [text];
  const count = Math.ceil(text.length / chunkChars);
  const frames: string[] = [];
  for (let index = 0; index < count; index += 1) {
    // A piece may end between the two halves of a surrogate pair: JSON.stringify escapes a lone
    // half (\udXXX), and the receiver's join puts the pair back together.
    const chunk: WireChunk = { kind: 'chunk', id, index, count, chars: text.length, data: text.slice(index * chunkChars, (index + 1) * chunkChars) };
    frames.push(JSON.stringify(chunk));
  }
  return frames;
}

/** The message `text.length` long is over `maxChars`: what `ipc.tooLarge` says about it. */
export function tooLargeMessage(chars: number, maxChars = MAX_MESSAGE_CHARS): string {
  return `The message is ${formatBytes(chars)}, over the ${formatBytes(maxChars)} a Keyplan message may be (designs up to ${formatBytes(MAX_DESIGN_BYTES)}).`;
}

/** What one chunk frame did to the message it belongs to. */
export type ChunkOutcome =
  /** More pieces are to come. */
  | { kind: 'partial' }
  /** The last piece arrived: `text` is the whole message. */
  | { kind: 'complete'; id: number; text: string }
  /** The message is over the limit (said once, at its first piece; its later pieces are dropped): `ipc.tooLarge`. */
  | { kind: 'tooLarge'; id: number; message: string }
  /** The frame breaks the protocol (shape, order, lengths); the connection should close with `reason`. */
  | { kind: 'malformed'; reason: string };

export interface ChunkAssembler {
  /** Takes one parsed `{kind: 'chunk', …}` frame. */
  add(frame: Record<string, unknown>): ChunkOutcome;
}

/**
 * Joins the chunks of one connection. Pieces of one message arrive in order and one message at a
 * time (each sender sends a message's frames in one go); a message longer than `maxChars` is
 * refused at its first piece and its other pieces are skipped, so nothing over the limit is held.
 */
export function createChunkAssembler(maxChars = MAX_MESSAGE_CHARS, chunkChars = CHUNK_CHARS): ChunkAssembler {
  let current: { id: number; count: number; chars: number; next: number; pieces: string[]; refused: boolean } | undefined;
  const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

  return {
    add(frame) {
      const { id, index, count, chars, data } = frame;
      if (!Number.isSafeInteger(id) || !isCount(index) || !isCount(count) || !isCount(chars) || typeof data !== 'string') {
        return { kind: 'malformed', reason: 'Malformed chunk: expected {kind:"chunk", id, index, count, chars, data: string}.' };
      }
      if (index === 0) {
        if (current !== undefined) return { kind: 'malformed', reason: `Malformed chunk: message ${id} began before message ${current.id} was complete.` };
        if (count < 2 || count !== Math.ceil(chars / chunkChars)) return { kind: 'malformed', reason: `Malformed chunk: ${chars} characters come in ${Math.ceil(chars / chunkChars)} chunks, not ${count}.` };
        if (chars > maxChars) {
          // Its later pieces are counted and dropped.
          current = { id: id as number, count, chars, next: 1, pieces: [], refused: true };
          return { kind: 'tooLarge', id: id as number, message: tooLargeMessage(chars, maxChars) };
        }
        current = { id: id as number, count, chars, next: 0, pieces: [], refused: false };
      }
      const message = current;
      if (message === undefined || message.id !== id || message.next !== index || message.count !== count || message.chars !== chars) {
        return { kind: 'malformed', reason: `Malformed chunk: chunk ${index} of message ${id} is out of order.` };
      }
      const isLast = index === count - 1;
      const expected = isLast ? chars - index * chunkChars : chunkChars;
      if (!message.refused && data.length !== expected) return { kind: 'malformed', reason: `Malformed chunk: chunk ${index} of message ${id} holds ${data.length} characters, not ${expected}.` };
      message.next += 1;
      if (!message.refused) message.pieces.push(data);
      if (!isLast) return { kind: 'partial' };
      current = undefined;
      return message.refused ? { kind: 'partial' } : { kind: 'complete', id: message.id, text: message.pieces.join('') };
    },
  };
}

/**
 * A client's reader of the host's frames: whole frames are passed to `deliver`, chunks are joined
 * and the message they make up delivered once complete. A chunk that breaks the protocol, or a reply
 * over the limit, settles nothing here; `onProblem` hears why.
 */
export function createFrameReader(deliver: (frame: WireFrame) => void, onProblem: (reason: string) => void = () => undefined): (text: string) => void {
  const assembler = createChunkAssembler();
  return (text) => {
    const frame = JSON.parse(text) as WireFrame;
    if (frame.kind !== 'chunk') return deliver(frame);
    const outcome = assembler.add(frame as unknown as Record<string, unknown>);
    if (outcome.kind === 'complete') deliver(JSON.parse(outcome.text) as WireFrame);
    else if (outcome.kind === 'tooLarge') onProblem(outcome.message);
    else if (outcome.kind === 'malformed') onProblem(outcome.reason);
  };
}

/**
 * The frames of a request, or undefined when its JSON is longer than {@link MAX_MESSAGE_CHARS}
 * (refused before anything is sent: {@link tooLargeMessage} says why).
 */
export function requestFrames(request: WireRequest): { frames: string[] } | { tooLarge: string } {
  const text = JSON.stringify(request);
  if (text.length > MAX_MESSAGE_CHARS) return { tooLarge: tooLargeMessage(text.length) };
  return { frames: framesOf(request.id, text) };
}
