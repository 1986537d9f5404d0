/**
 * The views of a generated sample in their order and on partitions: each view's partition keys
 * rendered once per item collection, collections ordered by partition key and their items by sort
 * key (DynamoDB's order: S by UTF-8 bytes, N numerically, B by bytes; a multi-attribute key's
 * attributes left to right, each in its own type's order), and the collections placed on the
 * simulator's hash space from their keys' structure (`CompiledKey.hashFractions`).
 */
import type { KeyAttributeType } from '../model/index.ts';
import { hashFraction } from '../hash/index.ts';
import type { CompiledKey } from './keys.ts';
import { entityOf, itemOf, type EntityData, type Sorted, type ViewData } from './store-data.ts';
import { KEY_PART_SEPARATOR, type SampleCollection, type SamplePlacement, type SampleViewKeys } from './types.ts';

const HIGH_CHARS = /[\ud800-\uffff]/;

/** Compares two strings by code point (DynamoDB's order for S, as UTF-8 bytes): −1, 0 or 1. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (D800–DFFF) encode code points above FFFF, so they sort after E000–FFFF.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

const fastCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Keys built by concatenation are rope strings in V8; reading a character flattens one in place,
 * which makes the many comparisons of a sort about twice as fast.
 */
function flatten(s: string): string {
  s.charCodeAt(0);
  return s;
}

/** Base64 text → a string of its bytes (char codes 0–255), which `<` compares as unsigned bytes. */
function byteString(base64: string): string {
  const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  let bits = 0;
  let buffer = 0;
  for (const c of base64) {
    const v = digits.indexOf(c);
    if (v < 0) break;
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buffer >> bits) & 255);
    }
  }
  return out;
}

/** A comparator of sort-key (or partition-key) values of one type, chosen for the values at hand. */
function comparatorFor(type: KeyAttributeType, values: readonly string[]): { keyed: (string | number)[]; compare: (a: number, b: number) => number } {
  if (type === 'N') {
    const keyed = values.map(Number);
    return { keyed, compare: (a, b) => (keyed[a] as number) - (keyed[b] as number) };
  }
  const keyed = type === 'B' ? values.map(byteString) : (values as string[]);
  const needsCodePoints = type === 'S' && keyed.some((s) => HIGH_CHARS.test(s as string));
  const cmp = needsCodePoints ? compareCodePoints : fastCompare;
  return { keyed, compare: (a, b) => cmp(keyed[a] as string, keyed[b] as string) };
}

/** Insertion sort of order[start … end) for short runs, else the engine's sort. */
function sortRun(order: Uint32Array, start: number, end: number, compare: (a: number, b: number) => number): void {
  if (end - start > 12) {
    order.subarray(start, end).sort(compare);
    return;
  }
  for (let i = start + 1; i < end; i += 1) {
    const x = order[i]!;
    let j = i - 1;
    while (j >= start && compare(order[j]!, x) > 0) {
      order[j + 1] = order[j]!;
      j -= 1;
    }
    order[j + 1] = x;
  }
}

/** One sort-key attribute's values, as text per member, with its type. */
interface SortPart {
  texts: readonly string[];
  type: KeyAttributeType;
  /** Whether a text holds a character above U+D7FF (then S compares by code point, not UTF-16 unit). */
  hasHighChars: boolean;
}

/** Compares two members by one sort-key attribute, in its type's order (0 when equal). */
function partComparator({ texts, type, hasHighChars }: SortPart): (a: number, b: number) => number {
  if (type === 'N') {
    const numbers = Float64Array.from(texts, (t) => (t === '' ? 0 : Number(t)));
    return (a, b) => numbers[a]! - numbers[b]!;
  }
  const keyed = type === 'B' ? texts.map(byteString) : texts;
  const cmp = type === 'S' && hasHighChars ? compareCodePoints : fastCompare;
  return (a, b) => cmp(keyed[a]!, keyed[b]!);
}

/**
 * Sorts each item collection (order[groupStart[p] … groupStart[p + 1])) by sort key: by its one
 * attribute, or by a multi-attribute sort key's attributes left to right, each in its own type's
 * order (docs/dynamodb-rules.md §11). Ties (equal primary keys, which DynamoDB would overwrite) keep
 * generation order.
 */
function sortCollections(order: Uint32Array, groupStart: Uint32Array, parts: readonly SortPart[]): void {
  let compare: (a: number, b: number) => number;
  if (parts.length > 1) {
    const comparators = parts.map(partComparator);
    compare = (a, b) => {
      for (let j = 0; j < comparators.length; j += 1) {
        const c = comparators[j]!(a, b);
        if (c !== 0) return c;
      }
      return a - b;
    };
  } else compare = singleComparator(parts[0]!);
  const groups = groupStart.length - 1;
  for (let p = 0; p < groups; p += 1) {
    const start = groupStart[p]!;
    const end = groupStart[p + 1]!;
    if (end - start >= 2) sortRun(order, start, end, compare);
  }
}

/** The comparator of a one-attribute sort key, ties by member: the common case, kept as tight as it can be. */
function singleComparator({ texts, type, hasHighChars }: SortPart): (a: number, b: number) => number {
  let compare: (a: number, b: number) => number;
  if (type === 'N') {
    const numbers = Float64Array.from(texts, (t) => (t === '' ? 0 : Number(t)));
    compare = (a, b) => numbers[a]! - numbers[b]! || a - b;
  } else if (type === 'B' || hasHighChars) {
    const keyed = type === 'B' ? texts.map(byteString) : texts;
    const cmp = type === 'B' ? fastCompare : compareCodePoints;
    compare = (a, b) => cmp(keyed[a]!, keyed[b]!) || a - b;
  } else {
    compare = (a, b) => {
      const x = texts[a]!;
      const y = texts[b]!;
      return x < y ? -1 : x > y ? 1 : a - b;
    };
  }
  return compare;
}

/** Member `m`'s values of the view's key attributes `which` (its partition or sort key), as rendered. */
export function keyTexts(entities: readonly EntityData[], v: ViewData, m: number, which: 'pk' | 'sk'): string[] {
  const item = itemOf(v, m);
  const data = entityOf(entities, item);
  const row = item - data.offset;
  return v.plans[data.index]![which].map((k) => (data.keys[k] as CompiledKey).render(row));
}

/**
 * The groups' partition keys: each rendered from the group's first member, once. A multi-attribute
 * key's values are joined by " + " (as the partition simulator renders them), the text that stands
 * for the one value DynamoDB hashes.
 */
export function groupKeys(entities: readonly EntityData[], v: ViewData): string[] {
  if (v.keys) return v.keys;
  const keys = new Array<string>(v.firstMember.length);
  for (let g = 0; g < keys.length; g += 1) {
    const item = itemOf(v, v.firstMember[g]!);
    const data = entityOf(entities, item);
    const plan = v.plans[data.index]!;
    keys[g] =
      plan.pk.length === 1
        ? flatten((data.keys[plan.pk[0]!] as CompiledKey).render(item - data.offset))
        : keyTexts(entities, v, v.firstMember[g]!, 'pk').join(KEY_PART_SEPARATOR);
  }
  v.keys = keys;
  return keys;
}

/**
 * The hash fractions of groups `from` … `to − 1` into `out[at]` onwards. Groups are numbered in
 * the order of their first members, which are generated entity by entity, so each entity's groups
 * are one run: each run is hashed by its key.
 */
function hashGroups(entities: readonly EntityData[], v: ViewData, from: number, to: number, out: Float64Array, at: number): void {
  if (v.pk.length > 1) {
    // A multi-attribute key is hashed as its joined text (as the simulator hashes it).
    const keys = groupKeys(entities, v);
    for (let g = from; g < to; g += 1) out[at + g - from] = hashFraction(keys[g]!);
    return;
  }
  let start = from;
  while (start < to) {
    const data = entityOf(entities, itemOf(v, v.firstMember[start]!));
    // This entity's groups: up to the first whose first member is another entity's item.
    const end = data.offset + data.rows;
    let lo = start;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (itemOf(v, v.firstMember[mid]!) < end) lo = mid + 1;
      else hi = mid;
    }
    (data.keys[v.plans[data.index]!.pk[0]!] as CompiledKey).hashFractions(v.members, v.firstMember, data.offset, start, lo, out, at + start - from);
    start = lo;
  }
}

/** The hash fractions of a view's groups' partition keys, computed once. */
export function groupHashes(entities: readonly EntityData[], v: ViewData): Float64Array {
  if (v.hashes) return v.hashes;
  const hashes = new Float64Array(v.firstMember.length);
  hashGroups(entities, v, 0, hashes.length, hashes, 0);
  v.hashes = hashes;
  return hashes;
}

/**
 * A view's order, computed the first time it is needed: its distinct partition keys sorted, the
 * members placed by counting sort, then each item collection sorted by sort key.
 */
export function sortView(entities: readonly EntityData[], v: ViewData): Sorted {
  if (v.sorted) return v.sorted;
  const keys = groupKeys(entities, v);
  const groups = keys.length;
  const groupOrder = new Uint32Array(groups);
  for (let i = 0; i < groups; i += 1) groupOrder[i] = i;
  if (v.pk.length === 1) groupOrder.sort(comparatorFor(v.pk[0]!.type, keys).compare);
  else {
    // Collections in the order of their partition-key attributes, left to right, each by its type.
    const values = v.pk.map(() => new Array<string>(groups));
    for (let g = 0; g < groups; g += 1) keyTexts(entities, v, v.firstMember[g]!, 'pk').forEach((text, j) => (values[j]![g] = text));
    const comparators = v.pk.map((a, j) => comparatorFor(a.type, values[j]!).compare);
    groupOrder.sort((a, b) => {
      for (const compare of comparators) {
        const c = compare(a, b);
        if (c !== 0) return c;
      }
      return a - b;
    });
  }
  const rank = new Uint32Array(groups);
  const groupStart = new Uint32Array(groups + 1);
  for (let p = 0; p < groups; p += 1) {
    const g = groupOrder[p]!;
    rank[g] = p;
    groupStart[p + 1] = groupStart[p]! + v.totals[2 * g]!;
  }
  const cursor = groupStart.slice(0, groups);
  const memberCount = v.groupOf.length;
  const order = new Uint32Array(memberCount);
  for (let m = 0; m < memberCount; m += 1) {
    const p = rank[v.groupOf[m]!]!;
    order[cursor[p]!] = m;
    cursor[p]! += 1;
  }
  if (v.sk.length > 0) {
    // Each sort-key attribute's values for the members of collections with two or more items, by member.
    const parts = v.sk.map((a) => ({ texts: new Array<string>(memberCount).fill(''), type: a.type, hasHighChars: false }));
    // In member order: rows are then read in the order they were generated, which is kinder to caches.
    for (let m = 0; m < memberCount; m += 1) {
      if (v.totals[2 * v.groupOf[m]!]! < 2) continue;
      const item = itemOf(v, m);
      const data = entityOf(entities, item);
      const row = item - data.offset;
      const sk = v.plans[data.index]!.sk;
      for (let j = 0; j < parts.length; j += 1) {
        const part = parts[j]!;
        const text = flatten((data.keys[sk[j]!] as CompiledKey).render(row));
        part.texts[m] = text;
        if (!part.hasHighChars && HIGH_CHARS.test(text)) part.hasHighChars = true;
      }
    }
    sortCollections(order, groupStart, parts);
  }
  v.sorted = { groupOrder, groupStart, order };
  return v.sorted;
}


/** Keys a placement hashes at a time when the view's hashes are not kept. */
const PLACEMENT_CHUNK = 1 << 16;

/** A placement of `keyCount` keys on `partitionCount` partitions, nothing placed yet. */
function emptyPlacement(keyCount: number, partitionCount: number): SamplePlacement {
  const n = Math.max(1, Math.floor(partitionCount));
  return { partitionCount: n, items: new Float64Array(n), bytes: new Float64Array(n), keys: new Float64Array(n), partitionOfKey: new Uint32Array(keyCount) };
}

/**
 * Places item collections `from` … `to − 1` on the placement's equal ranges of the hash space, as
 * the simulator's `placeKeyColumns` places keys: collection k, at `hashes[k − from]`, with
 * `totals[2k]` items and `totals[2k + 1]` bytes, in order of k (so the sums are the same numbers).
 */
function placeByHash(placement: SamplePlacement, hashes: Float64Array, totals: Float64Array, from: number, to: number): void {
  const { partitionCount: n, items, bytes, keys, partitionOfKey } = placement;
  for (let k = from; k < to; k += 1) {
    // The index is the fraction scaled, capped at the last partition.
    const index = Math.min(n - 1, Math.floor(hashes[k - from]! * n));
    partitionOfKey[k] = index;
    items[index]! += totals[2 * k]!;
    bytes[index]! += totals[2 * k + 1]!;
    keys[index]! += 1;
  }
}

/** A view's collections' item counts and bytes, each in its own array: split from `totals` once. */
function splitTotals(v: ViewData): { groupItems: Uint32Array; groupBytes: Float64Array } {
  if (v.split) return v.split;
  const groups = v.firstMember.length;
  const groupItems = new Uint32Array(groups);
  const groupBytes = new Float64Array(groups);
  const totals = v.totals;
  for (let g = 0; g < groups; g += 1) {
    groupItems[g] = totals[2 * g]!;
    groupBytes[g] = totals[2 * g + 1]!;
  }
  v.split = { groupItems, groupBytes };
  return v.split;
}

/** A view's partition keys and sizes, for the partition simulator (`SampleStore.keysOf`). */
export function viewKeys(entities: readonly EntityData[], v: ViewData): SampleViewKeys {
  // A multi-attribute partition key is hashed as one value: its joined text, a string.
  const { groupItems, groupBytes } = splitTotals(v);
  return { keyType: v.pk.length === 1 ? v.pk[0]!.type : 'S', keys: groupKeys(entities, v), keyOfItem: v.groupOf, bytesOfItem: v.entryBytes, itemsPerKey: groupItems, bytesPerKey: groupBytes };
}

/** A view's item collections on `partitionCount` equal ranges of the hash space (`SampleStore.placement`). */
export function placeView(entities: readonly EntityData[], v: ViewData, partitionCount: number): SamplePlacement {
  const groups = v.firstMember.length;
  const placement = emptyPlacement(groups, partitionCount);
  if (v.hashes) placeByHash(placement, v.hashes, v.totals, 0, groups);
  else {
    // Hashed a chunk at a time into one small array rather than a whole array of them, which
    // would be fresh memory to fault in (8 bytes a key) for a single pass.
    const chunk = new Float64Array(Math.min(groups, PLACEMENT_CHUNK));
    for (let from = 0; from < groups; from += chunk.length) {
      const to = Math.min(groups, from + chunk.length);
      hashGroups(entities, v, from, to, chunk, 0);
      placeByHash(placement, chunk, v.totals, from, to);
    }
  }
  return placement;
}

/** A view's item collections, unsorted (first generated first). */
export function* viewCollections(entities: readonly EntityData[], v: ViewData): Iterable<SampleCollection> {
  const keys = groupKeys(entities, v);
  for (let g = 0; g < keys.length; g += 1) yield { partitionKey: keys[g]!, items: v.totals[2 * g]!, bytes: v.totals[2 * g + 1]! };
}
