/**
 * Strict UTF-8: bytes from outside (a design file, an import, stdin) become text only when they are
 * well-formed UTF-8, and otherwise the caller learns the byte offset where they stop being so.
 *
 * More on its rules: docs/modules.md, "src-shared/text/utf8.ts".
 */

/** Why the bytes at `offset` are not UTF-8. */
export type Utf8Fault =
  /** A byte that never appears in UTF-8: C0, C1, F5..FF. */
  | 'invalidByte'
  /** A continuation byte (80..BF) where a character should start. */
  | 'unexpectedContinuation'
  /** A lead byte whose next byte does not continue its sequence. */
  | 'badContinuation'
  /** A sequence cut short by the end of the input. */
  | 'truncated'
  /** A longer-than-needed form: E0 80..9F or F0 80..8F. */
  | 'overlong'
  /** A UTF-16 surrogate (U+D800..U+DFFF) encoded as bytes: ED A0..BF. */
  | 'surrogate'
  /** A code point past U+10FFFF: F4 90..BF. */
  | 'beyondUnicode';

/** Where and why decoding stopped; `offset` is the 0-based index of the first byte of the ill-formed sequence. */
export interface Utf8Failure {
  ok: false;
  /** 0-based byte offset of the first byte of the ill-formed sequence. */
  offset: number;
  reason: Utf8Fault;
  /** 1-based line of `offset` (lines end at byte 0A). */
  line: number;
  /** 1-based column of `offset`, counting characters from the start of its line. */
  column: number;
}

/** The text, when every byte is well-formed UTF-8. */
export interface Utf8Success {
  ok: true;
  text: string;
}

/** The result of `decodeUtf8Strict`. */
export type Utf8Decoding = Utf8Success | Utf8Failure;

/** Code units turned into a string per `String.fromCharCode` call (well under any engine's argument limit). */
const CHUNK_UNITS = 8192;

/**
 * Decodes `bytes` as UTF-8, refusing any ill-formed sequence (see the module comment): the text, or
 * the byte offset (with line, column and reason) of the first sequence that is not UTF-8. Never throws;
 * linear time, about three bytes of scratch memory per input byte.
 *
 * @example
 * decodeUtf8Strict(new Uint8Array([0x61, 0xe2, 0x82, 0xac])) // { ok: true, text: 'a€' }
 * decodeUtf8Strict(new Uint8Array([0x61, 0xe2, 0x28]))       // { ok: false, offset: 1, reason: 'badContinuation', line: 1, column: 2 }
 */
export function decodeUtf8Strict(bytes: Uint8Array): Utf8Decoding {
  const n = bytes.length;
  // A UTF-8 sequence of k bytes is at most k/2 UTF-16 units (4 bytes → 2 units), so n units always suffice.
  const units = new Uint16Array(n);
  let u = 0;
  let i = 0;
  while (i < n) {
    const b0 = bytes[i] as number;
    if (b0 < 0x80) {
      units[u++] = b0;
      i += 1;
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    let cp: number;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      need = 1;
      cp = b0 & 0x1f;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      cp = b0 & 0x0f;
      if (b0 === 0xe0) low = 0xa0;
      else if (b0 === 0xed) high = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      cp = b0 & 0x07;
      if (b0 === 0xf0) low = 0x90;
      else if (b0 === 0xf4) high = 0x8f;
    } else {
      return failure(bytes, i, b0 >= 0x80 && b0 <= 0xbf ? 'unexpectedContinuation' : 'invalidByte');
    }
    if (i + need >= n) {
      // Fewer than `need` bytes follow: a cut sequence, unless a byte that is there already breaks it.
      for (let k = 1; i + k < n; k += 1) {
        const b = bytes[i + k] as number;
        const lo = k === 1 ? low : 0x80;
        const hi = k === 1 ? high : 0xbf;
        if (b < lo || b > hi) return failure(bytes, i, secondByteFault(b0, b, k));
      }
      return failure(bytes, i, 'truncated');
    }
    for (let k = 1; k <= need; k += 1) {
      const b = bytes[i + k] as number;
      const lo = k === 1 ? low : 0x80;
      const hi = k === 1 ? high : 0xbf;
      if (b < lo || b > hi) return failure(bytes, i, secondByteFault(b0, b, k));
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp >= 0x10000) {
      const v = cp - 0x10000;
      units[u++] = 0xd800 | (v >> 10);
      units[u++] = 0xdc00 | (v & 0x3ff);
    } else {
      units[u++] = cp;
    }
    i += need + 1;
  }
  let text = '';
  for (let start = 0; start < u; start += CHUNK_UNITS) {
    text += String.fromCharCode.apply(null, units.subarray(start, Math.min(u, start + CHUNK_UNITS)) as unknown as number[]);
  }
  return { ok: true, text };
}

/** Why the `k`-th byte `b` after lead `b0` breaks the sequence: a range error on the 2nd byte of E0, ED, F0, F4 has a name. */
function secondByteFault(b0: number, b: number, k: number): Utf8Fault {
  if (k === 1 && b >= 0x80 && b <= 0xbf) {
    if (b0 === 0xe0 || b0 === 0xf0) return 'overlong';
    if (b0 === 0xed) return 'surrogate';
    if (b0 === 0xf4) return 'beyondUnicode';
  }
  return 'badContinuation';
}

function failure(bytes: Uint8Array, offset: number, reason: Utf8Fault): Utf8Failure {
  // Line and column of a prefix that is valid UTF-8: count line feeds, then the characters after the
  // last one (every byte that is not a continuation byte starts a character).
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset; k += 1) {
    if (bytes[k] === 0x0a) {
      line += 1;
      lineStart = k + 1;
    }
  }
  let column = 1;
  for (let k = lineStart; k < offset; k += 1) if (((bytes[k] as number) & 0xc0) !== 0x80) column += 1;
  return { ok: false, offset, reason, line, column };
}

const REASONS: Record<Utf8Fault, string> = {
  invalidByte: 'a byte that never appears in UTF-8',
  unexpectedContinuation: 'a continuation byte where a character should start',
  badContinuation: 'a multi-byte sequence that the next byte does not continue',
  truncated: 'a multi-byte sequence cut short by the end of the input',
  overlong: 'an overlong encoding',
  surrogate: 'an encoded UTF-16 surrogate (U+D800–U+DFFF)',
  beyondUnicode: 'a code point past U+10FFFF',
};

const hex = (b: number): string => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * A failure in words, for messages: `byte offset 17 (line 2, column 5): 0xE2 0x28, a multi-byte
 * sequence that the next byte does not continue`. Shows the bytes of the broken sequence (at most four).
 */
export function describeUtf8Failure(bytes: Uint8Array, f: Utf8Failure): string {
  const shown = [hex(bytes[f.offset] as number)];
  if (f.reason === 'overlong' || f.reason === 'surrogate' || f.reason === 'beyondUnicode') shown.push(hex(bytes[f.offset + 1] as number));
  else if (f.reason === 'truncated' || f.reason === 'badContinuation') {
    // The sequence up to the end of the input, or up to and including the byte that is no continuation.
    for (let k = f.offset + 1; k < bytes.length && k < f.offset + 4; k += 1) {
      const b = bytes[k] as number;
      shown.push(hex(b));
      if ((b & 0xc0) !== 0x80) break;
    }
  }
  return `byte offset ${f.offset} (line ${f.line}, column ${f.column}): ${shown.join(' ')}, ${REASONS[f.reason]}`;
}
