/**
 * The simulator's hash of a partition-key value, on the ground floor of src-shared because both the
 * simulator (`partition/`) and the sample data (`sample/`, which shows each item's partition) place
 * keys with it: FNV-1a 64-bit over the key's UTF-8 bytes, then MurmurHash3's fmix64 finalizer, read
 * as a fraction of the hash space, [0, 1). DynamoDB's own function is not public
 * (docs/dynamodb-rules.md §4.1, §10.1).
 *
 * More on its rules: docs/modules.md, "src-shared/hash/index.ts".
 */

/** The hash as the simulator states it to the user: a phrase with no closing period, for a sentence or a label to end. */
export const HASH_DESCRIPTION =
  "FNV-1a 64-bit over the partition-key value's UTF-8 bytes, finalized with MurmurHash3's fmix64, read as a fraction of the hash space [0, 1); partitions own equal contiguous ranges of it until they split (DynamoDB's own hash is not public: a Keyplan assumption)";

const TWO_POW_32 = 4_294_967_296;
const TWO_POW_64 = TWO_POW_32 * TWO_POW_32;
// FNV-1a 64-bit: offset basis 0xcbf29ce484222325, prime 0x100000001b3 = 2^40 + 0x1b3.
const OFFSET_HIGH = 0xcbf29ce4;
const OFFSET_LOW = 0x84222325;
const PRIME_LOW = 0x1b3;

/** UTF-8 bytes of one code unit (or surrogate pair) beyond ASCII, reused between calls. */
const scratch = new Uint8Array(4);

/** Writes the UTF-8 bytes of the character at `i` into `scratch`; returns [byte count, code units used]. */
function encodeAt(key: string, i: number): number {
  let c = key.charCodeAt(i);
  if (c < 0x800) {
    scratch[0] = 0xc0 | (c >> 6);
    scratch[1] = 0x80 | (c & 0x3f);
    return 2;
  }
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < key.length) {
    const next = key.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      scratch[0] = 0xf0 | (cp >> 18);
      scratch[1] = 0x80 | ((cp >> 12) & 0x3f);
      scratch[2] = 0x80 | ((cp >> 6) & 0x3f);
      scratch[3] = 0x80 | (cp & 0x3f);
      return 4 + 8; // 4 bytes, and the low surrogate is consumed too (flag 8)
    }
  }
  if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
  scratch[0] = 0xe0 | (c >> 12);
  scratch[1] = 0x80 | ((c >> 6) & 0x3f);
  scratch[2] = 0x80 | (c & 0x3f);
  return 3;
}

/**
 * FNV-1a 64-bit of the UTF-8 bytes of `key`, finalized with fmix64, as a fraction of the hash space
 * in [0, 1). The 64-bit arithmetic is done in 32-bit halves held in locals (no BigInt, no heap
 * numbers), so a million keys hash in well under a second. Lone surrogates are encoded as U+FFFD,
 * as a UTF-8 encoder does.
 */
export function hashFraction(key: string): number {
  let high = OFFSET_HIGH;
  let low = OFFSET_LOW;
  const length = key.length;
  for (let i = 0; i < length; i += 1) {
    const c = key.charCodeAt(i);
    if (c < 0x80) {
      // × (2^40 + 0x1b3) mod 2^64: low·0x1b3 carries into high, low << 8 is the 2^40 term.
      low = (low ^ c) >>> 0;
      const product = low * PRIME_LOW;
      high = (Math.imul(high, PRIME_LOW) + (low << 8) + Math.floor(product / TWO_POW_32)) >>> 0;
      low = product >>> 0;
      continue;
    }
    const encoded = encodeAt(key, i);
    if (encoded & 8) i += 1;
    for (let b = 0; b < (encoded & 7); b += 1) {
      low = (low ^ (scratch[b] as number)) >>> 0;
      const product = low * PRIME_LOW;
      high = (Math.imul(high, PRIME_LOW) + (low << 8) + Math.floor(product / TWO_POW_32)) >>> 0;
      low = product >>> 0;
    }
  }
  // fmix64: k ^= k >> 33; k *= 0xff51afd7ed558ccd; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53; k ^= k >> 33.
  // Each multiply is mod 2^64 in 16-bit limbs.
  for (let round = 0; round < 2; round += 1) {
    low = (low ^ (high >>> 1)) >>> 0;
    const bHigh = round === 0 ? 0xff51afd7 : 0xc4ceb9fe;
    const bLow = round === 0 ? 0xed558ccd : 0x1a85ec53;
    const a0 = low & 0xffff;
    const a1 = low >>> 16;
    const b0 = bLow & 0xffff;
    const b1 = bLow >>> 16;
    const p00 = a0 * b0;
    const p01 = a0 * b1;
    const p10 = a1 * b0;
    const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
    high = (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(high, bLow) + Math.imul(low, bHigh)) >>> 0;
    low = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  }
  low = (low ^ (high >>> 1)) >>> 0;
  // high / 2^32 + low / 2^64 rounds to 1 for the very top of the space: keep it below 1.
  const fraction = high / TWO_POW_32 + low / TWO_POW_64;
  return fraction < 1 ? fraction : 1 - Number.EPSILON / 2;
}
