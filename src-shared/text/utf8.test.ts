import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8Strict, describeUtf8Failure, type Utf8Failure } from './utf8.ts';

const bytes = (...b: number[]): Uint8Array => new Uint8Array(b);
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const fail = (d: ReturnType<typeof decodeUtf8Strict>): Utf8Failure => {
  if (d.ok) throw new Error(`expected a failure, decoded ${JSON.stringify(d.text)}`);
  return d;
};

describe('decodeUtf8Strict', () => {
  it.each([
    ['empty input', '', 0],
    ['ASCII', 'USER#{userId}', 13],
    ['2-byte é', 'José', 5],
    ['3-byte €', '€', 3],
    ['4-byte 😀 (a surrogate pair in UTF-16)', 'a😀b', 6],
    ['the highest code point U+10FFFF', '\u{10FFFF}', 4],
    ['U+D7FF and U+E000 on either side of the surrogates', '\uD7FF\uE000', 6],
    ['a byte-order mark, kept as U+FEFF', '\uFEFF{}', 5],
  ])('decodes %s', (_, text, length) => {
    const encoded = utf8(text);
    expect(encoded.length).toBe(length);
    expect(decodeUtf8Strict(encoded)).toEqual({ ok: true, text });
  });

  it('decodes long text across chunk boundaries', () => {
    const text = 'ORDER#é€😀'.repeat(5000);
    expect(decodeUtf8Strict(utf8(text))).toEqual({ ok: true, text });
  });

  // Offsets worked out by hand from the table in the module comment.
  it.each([
    ['a lone continuation byte', bytes(0x61, 0x80), 1, 'unexpectedContinuation'],
    ['C0, an overlong lead', bytes(0xc0, 0xaf), 0, 'invalidByte'],
    ['C1, an overlong lead', bytes(0x41, 0xc1, 0x81), 1, 'invalidByte'],
    ['F5, past U+10FFFF', bytes(0xf5, 0x80, 0x80, 0x80), 0, 'invalidByte'],
    ['FF', bytes(0x7b, 0xff, 0x7d), 1, 'invalidByte'],
    ['E2 followed by ASCII', bytes(0x61, 0xe2, 0x28, 0xa1), 1, 'badContinuation'],
    ['the 3rd byte of a 3-byte sequence missing', bytes(0xe2, 0x82, 0x41), 0, 'badContinuation'],
    ['a 3-byte sequence cut at the end', bytes(0x61, 0x62, 0xe2, 0x82), 2, 'truncated'],
    ['a 4-byte sequence cut at the end', bytes(0xf0, 0x9f, 0x98), 0, 'truncated'],
    ['a lead byte as the last byte', bytes(0xc3), 0, 'truncated'],
    ['E0 80 80, an overlong U+0000', bytes(0xe0, 0x80, 0x80), 0, 'overlong'],
    ['F0 8F BF BF, an overlong U+FFFF', bytes(0xf0, 0x8f, 0xbf, 0xbf), 0, 'overlong'],
    ['ED A0 80, the surrogate U+D800', bytes(0x20, 0xed, 0xa0, 0x80), 1, 'surrogate'],
    ['F4 90 80 80, U+110000', bytes(0xf4, 0x90, 0x80, 0x80), 0, 'beyondUnicode'],
  ])('refuses %s at the byte offset of the sequence', (_, input, offset, reason) => {
    expect(fail(decodeUtf8Strict(input))).toMatchObject({ offset, reason });
  });

  it('names the line and the column (in characters) of the offset', () => {
    // Line 1 "{", line 2 '  "é": "' then 0xFF: the 2nd line's 9th character (é is one character, two bytes).
    const input = new Uint8Array([...utf8('{\n  "é": "'), 0xff, ...utf8('"\n}')]);
    expect(fail(decodeUtf8Strict(input))).toEqual({ ok: false, offset: 11, reason: 'invalidByte', line: 2, column: 9 });
  });

  it('describes a failure with its offset, line, column and bytes', () => {
    const input = bytes(0x61, 0xe2, 0x28, 0xa1);
    expect(describeUtf8Failure(input, fail(decodeUtf8Strict(input)))).toBe(
      'byte offset 1 (line 1, column 2): 0xE2 0x28, a multi-byte sequence that the next byte does not continue',
    );
    const surrogate = bytes(0xed, 0xa0, 0x80);
    expect(describeUtf8Failure(surrogate, fail(decodeUtf8Strict(surrogate)))).toMatch(/^byte offset 0 \(line 1, column 1\): 0xED 0xA0, an encoded UTF-16 surrogate/);
  });

  it('agrees with TextDecoder on every well-formed string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (s) => {
        expect(decodeUtf8Strict(utf8(s))).toEqual({ ok: true, text: s });
      }),
    );
  });

  it('finds the first ill-formed sequence where a replacing decoder writes its first U+FFFD', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const replacing = new TextDecoder('utf-8', { ignoreBOM: true });
    // Mostly well-formed text with a few arbitrary bytes spliced in.
    const input = fc
      .tuple(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.uint8Array({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 40 }))
      .map(([a, b, c]) => new Uint8Array([...utf8(a), ...b, ...utf8(c)]));
    fc.assert(
      fc.property(input, (input) => {
        const result = decodeUtf8Strict(input);
        let isValid = true;
        try {
          fatal.decode(input);
        } catch {
          isValid = false;
        }
        expect(result.ok).toBe(isValid);
        if (result.ok) return;
        const prefix = decodeUtf8Strict(input.subarray(0, result.offset));
        expect(prefix.ok).toBe(true);
        const replaced = replacing.decode(input);
        const before = prefix.ok ? prefix.text : '';
        expect(replaced.slice(0, before.length)).toBe(before);
        expect(replaced[before.length]).toBe('\uFFFD');
      }),
      { numRuns: 500 },
    );
  });
});
