import { describe, expect, it } from 'vitest';
import { createChunkAssembler, framesOf } from './chunks.ts';
import type { WireChunk } from './wire.ts';

const parse = (frame: string) => JSON.parse(frame) as Record<string, unknown>;

describe('chunked messages', () => {
  it('sends a message of at most one chunk as itself', () => {
    expect(framesOf(1, 'abcd', 4)).toEqual(['abcd']);
  });

  it('cuts a longer one into ceil(length / chunk) pieces that join back to the same text, surrogate pairs included', () => {
    const text = JSON.stringify({ kind: 'request', id: 7, channel: 'file.save', input: { note: 'x😀"\\\n'.repeat(7) } });
    const frames = framesOf(7, text, 10);
    expect(frames).toHaveLength(Math.ceil(text.length / 10));
    const assembler = createChunkAssembler(1000, 10);
    const outcomes = frames.map((f) => assembler.add(parse(f)));
    expect(outcomes.slice(0, -1).every((o) => o.kind === 'partial')).toBe(true);
    expect(outcomes.at(-1)).toEqual({ kind: 'complete', id: 7, text });
  });

  it('refuses a message over the limit at its first piece, once, drops the rest, and takes the next message', () => {
    const assembler = createChunkAssembler(25, 10);
    const big = framesOf(1, 'a'.repeat(26), 10).map(parse);
    expect(assembler.add(big[0]!)).toMatchObject({ kind: 'tooLarge', id: 1, message: expect.stringContaining('26 B') });
    expect(assembler.add(big[1]!)).toEqual({ kind: 'partial' });
    expect(assembler.add(big[2]!)).toEqual({ kind: 'partial' });
    const fits = framesOf(2, 'b'.repeat(25), 10).map(parse);
    expect(fits.map((f) => assembler.add(f)).at(-1)).toEqual({ kind: 'complete', id: 2, text: 'b'.repeat(25) });
  });

  it.each([
    ['a piece out of order', (c: WireChunk[]) => [c[1]!]],
    ['a second message before the first is complete', (c: WireChunk[]) => [c[0]!, { ...c[0]!, id: 9 }]],
    ['a count that does not fit the length', (c: WireChunk[]) => [{ ...c[0]!, count: 5 }]],
    ['a piece of the wrong length', (c: WireChunk[]) => [{ ...c[0]!, data: 'short' }]],
    ['a negative index', (c: WireChunk[]) => [{ ...c[0]!, index: -1 }]],
  ])('calls %s malformed', (_what, framesFor) => {
    const assembler = createChunkAssembler(1000, 10);
    const chunks = framesOf(3, 'c'.repeat(30), 10).map((f) => JSON.parse(f) as WireChunk);
    const outcomes = framesFor(chunks).map((c) => assembler.add(c as unknown as Record<string, unknown>));
    expect(outcomes.at(-1)).toMatchObject({ kind: 'malformed', reason: expect.stringMatching(/^Malformed chunk/) });
  });
});
