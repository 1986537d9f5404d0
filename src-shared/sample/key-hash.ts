/**
 * The partition simulator's hash of a key value (`hashFraction` in `hash/`: FNV-1a 64-bit
 * over the value's UTF-8 bytes, finalized with MurmurHash3's fmix64, read as a fraction of the hash
 * space), computed from the key's structure instead of its text: for a key that is a literal, a
 * zero-padded number and a literal (`USER#u-000042`, `ORDER#17`), the FNV state after the first
 * literal is computed once per key template, and each value hashes only its digits and what follows.
 * FNV-1a reads the bytes left to right, so the result is the same number as hashing the whole text
 * (tested against `hashFraction` over ASCII, accented and astral literals, widths and shards).
 *
 * The 64-bit arithmetic is done in 32-bit halves held in locals, exactly as `hashFraction` does it.
 */

const TWO_POW_32 = 4_294_967_296;
const TWO_POW_64 = TWO_POW_32 * TWO_POW_32;
// FNV-1a 64-bit: offset basis 0xcbf29ce484222325, prime 0x100000001b3 = 2^40 + 0x1b3.
const OFFSET_HIGH = 0xcbf29ce4;
const OFFSET_LOW = 0x84222325;
const PRIME_LOW = 0x1b3;
const ZERO = 0x30;
const DOT = 0x2e;

/** 10^0 … 10^15: digits of any safe integer, most significant first, by exact division. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * The UTF-8 bytes of `text`, as the hash reads them: lone surrogates become U+FFFD (EF BF BD), as a
 * UTF-8 encoder writes them.
 */
export function utf8Bytes(text: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    let c = text.charCodeAt(i);
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
          i += 1;
          continue;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    }
  }
  return bytes;
}

/** 2^−32 and 2^−64: scaling by them is exact, and a multiply is quicker than the divide `hashFraction` uses (same result). */
const TWO_POW_MINUS_32 = 1 / TWO_POW_32;
const TWO_POW_MINUS_64 = 1 / TWO_POW_64;

/** Most distinct leading parts a hasher remembers (numbers up to 100 × this take the short path). */
const MAX_REMEMBERED = 1 << 16;

/** FNV state handed back by `feedDigits`: [high, low]. */
const scratch = new Uint32Array(2);
/** What `fraction` hands back. */
const single = new Float64Array(1);

/** FNV-1a over the decimal digits of the whole number n zero-padded to `width`, from state (high, low), into `scratch`. */
function feedDigits(high: number, low: number, n: number, width: number): void {
  let digits = 1;
  while (digits < 16 && n >= POWERS_OF_TEN[digits]!) digits += 1;
  for (let z = digits; z < width; z += 1) {
    low = (low ^ ZERO) >>> 0;
    const product = low * PRIME_LOW;
    high = (Math.imul(high, PRIME_LOW) + (low << 8) + Math.floor(product * TWO_POW_MINUS_32)) >>> 0;
    low = product >>> 0;
  }
  let rest = n;
  for (let d = digits - 1; d >= 0; d -= 1) {
    const power = POWERS_OF_TEN[d]!;
    const digit = Math.floor(rest / power);
    rest -= digit * power;
    low = (low ^ (ZERO + digit)) >>> 0;
    const product = low * PRIME_LOW;
    high = (Math.imul(high, PRIME_LOW) + (low << 8) + Math.floor(product * TWO_POW_MINUS_32)) >>> 0;
    low = product >>> 0;
  }
  scratch[0] = high;
  scratch[1] = low;
}

/**
 * Hashes key values of the form `head` + the decimal digits of a whole number n, zero-padded to
 * `width` + `tail`, and, for a sharded key, "." + the shard number: the value `hashFraction` gives
 * for that text, without building it. The state after the head and all but the last two digits is
 * remembered by ⌊n / 100⌋, so most values hash two digits, the tail and the finalizer.
 */
export class DigitKeyHasher {
  readonly #high: number;
  readonly #low: number;
  readonly #width: number;
  readonly #tail: Uint8Array;
  /** Width of the leading part, ⌊n / 100⌋, in the text. */
  readonly #leadWidth: number;
  /** By ⌊n / 100⌋: 1 once its state is known, and the state's halves. */
  #known = new Uint8Array(0);
  #leadHigh = new Uint32Array(0);
  #leadLow = new Uint32Array(0);

  /** `width` ≥ 1: digits are zero-padded to it (1: no padding). */
  constructor(head: string, width: number, tail: string) {
    let high = OFFSET_HIGH;
    let low = OFFSET_LOW;
    for (const b of utf8Bytes(head)) {
      // × (2^40 + 0x1b3) mod 2^64: low·0x1b3 carries into high, low << 8 is the 2^40 term.
      low = (low ^ b) >>> 0;
      const product = low * PRIME_LOW;
      high = (Math.imul(high, PRIME_LOW) + (low << 8) + Math.floor(product * TWO_POW_MINUS_32)) >>> 0;
      low = product >>> 0;
    }
    this.#high = high;
    this.#low = low;
    this.#width = Math.max(1, Math.floor(width));
    this.#leadWidth = Math.max(1, this.#width - 2);
    this.#tail = Uint8Array.from(utf8Bytes(tail));
  }

  /** Makes the state of leading part `lead` known. */
  #remember(lead: number): void {
    if (lead >= this.#known.length) {
      const size = Math.min(MAX_REMEMBERED, Math.max(lead + 1, this.#known.length * 2, 256));
      const known = new Uint8Array(size);
      known.set(this.#known);
      const leadHigh = new Uint32Array(size);
      leadHigh.set(this.#leadHigh);
      const leadLow = new Uint32Array(size);
      leadLow.set(this.#leadLow);
      this.#known = known;
      this.#leadHigh = leadHigh;
      this.#leadLow = leadLow;
    }
    feedDigits(this.#high, this.#low, lead, this.#leadWidth);
    this.#leadHigh[lead] = scratch[0]!;
    this.#leadLow[lead] = scratch[1]!;
    this.#known[lead] = 1;
  }

  /**
   * The hash fraction of the key value for the whole number `n` (0 ≤ n ≤ 2^53 − 1) and write-sharding
   * suffix `shard` (0: none, else 1 … N).
   */
  fraction(n: number, shard: number): number {
    this.fractionInto(n, shard, single, 0);
    return single[0]!;
  }

  /**
   * `fraction(n, shard)`, written to `out[index]`: one function from digits to fraction, since a
   * double, or a 32-bit half above 2^30, handed to or from a call V8 does not inline is boxed on the
   * heap (a million keys, a million boxes).
   */
  fractionInto(n: number, shard: number, out: Float64Array, index: number): void {
    let high: number;
    let low: number;
    const lead = Math.floor(n / 100);
    // The text is the leading part (⌊n / 100⌋ padded to width − 2) and two digits, unless it is shorter than three.
    if (lead < MAX_REMEMBERED && (lead > 0 || this.#width >= 3)) {
      if (lead >= this.#known.length || this.#known[lead] === 0) this.#remember(lead);
      high = this.#leadHigh[lead]!;
      low = this.#leadLow[lead]!;
      const last = n - lead * 100;
      const tens = Math.floor(last / 10);
      low = (low ^ (ZERO + tens)) >>> 0;
      let product = low * PRIME_LOW;
      high = (Math.imul(high, PRIME_LOW) + (low << 8) + Math.floor(product * TWO_POW_MINUS_32)) >>> 0;
      low = product >>> 0;
      low = (low ^ (ZERO + last - tens * 10)) >>> 0;
      product = low * PRIME_LOW;
      high = (Math.imul(high, PRIME_LOW) + (low << 8) + Math.floor(product * TWO_POW_MINUS_32)) >>> 0;
      low = product >>> 0;
    } else {
      feedDigits(this.#high, this.#low, n, this.#width);
      high = scratch[0]!;
      low = scratch[1]!;
    }
    const tail = this.#tail;
    for (let i = 0; i < tail.length; i += 1) {
      low = (low ^ tail[i]!) >>> 0;
      const product = low * PRIME_LOW;
      high = (Math.imul(high, PRIME_LOW) + (low << 8) + Math.floor(product * TWO_POW_MINUS_32)) >>> 0;
      low = product >>> 0;
    }
    if (shard > 0) {
      low = (low ^ DOT) >>> 0;
      const product = low * PRIME_LOW;
      high = (Math.imul(high, PRIME_LOW) + (low << 8) + Math.floor(product * TWO_POW_MINUS_32)) >>> 0;
      low = product >>> 0;
      feedDigits(high, low, shard, 1);
      high = scratch[0]!;
      low = scratch[1]!;
    }
    // fmix64: k ^= k >> 33; k *= 0xff51afd7ed558ccd; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53; k ^= k >> 33.
    // Each multiply is mod 2^64 in 16-bit limbs; the two rounds are written out.
    low = (low ^ (high >>> 1)) >>> 0;
    let a0 = low & 0xffff;
    let a1 = low >>> 16;
    let p00 = a0 * 0x8ccd;
    let p01 = a0 * 0xed55;
    let p10 = a1 * 0x8ccd;
    let mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
    high = (a1 * 0xed55 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(high, 0xed558ccd) + Math.imul(low, 0xff51afd7)) >>> 0;
    low = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
    low = (low ^ (high >>> 1)) >>> 0;
    a0 = low & 0xffff;
    a1 = low >>> 16;
    p00 = a0 * 0xec53;
    p01 = a0 * 0x1a85;
    p10 = a1 * 0xec53;
    mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
    high = (a1 * 0x1a85 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(high, 0x1a85ec53) + Math.imul(low, 0xc4ceb9fe)) >>> 0;
    low = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
    low = (low ^ (high >>> 1)) >>> 0;
    // high / 2^32 + low / 2^64 rounds to 1 for the very top of the space: keep it below 1.
    const fraction = high * TWO_POW_MINUS_32 + low * TWO_POW_MINUS_64;
    out[index] = fraction < 1 ? fraction : 1 - Number.EPSILON / 2;
  }
}
