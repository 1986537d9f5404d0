/**
 * Keys placed on partitions: the hash space split into equal contiguous ranges, one per partition;
 * the hash itself is `hashFraction` (`hash/`).
 */
import { hashFraction } from '../hash/index.ts';

export { HASH_DESCRIPTION, hashFraction } from '../hash/index.ts';

/** `count` equal contiguous ranges: the start of each, as fractions of the hash space. */
export function equalRangeStarts(count: number): number[] {
  const n = Math.max(1, Math.floor(count));
  return Array.from({ length: n }, (_, i) => i / n);
}

/**
 * The partition whose range holds `position`: the last start ≤ position (binary search).
 * `starts` is sorted ascending and begins at 0.
 */
export function partitionAt(starts: ArrayLike<number>, position: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] as number) <= position) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** One partition-key value and what it holds, as the sample store lists them. */
export interface PlacedKey {
  partitionKey: string;
  items: number;
  bytes: number;
}

/** Items, bytes and distinct partition keys per partition after hashing every key. */
export interface Placement {
  partitionCount: number;
  items: Float64Array;
  bytes: Float64Array;
  keys: Float64Array;
}

/**
 * Hashes each key onto `partitionCount` equal ranges and adds up what each partition holds. For a
 * generated sample: the same placement the simulator uses for the design's keys.
 */
export function placeKeys(keys: Iterable<PlacedKey>, partitionCount: number): Placement {
  const n = Math.max(1, Math.floor(partitionCount));
  const placement: Placement = { partitionCount: n, items: new Float64Array(n), bytes: new Float64Array(n), keys: new Float64Array(n) };
  for (const key of keys) {
    // Equal ranges: the index is the fraction scaled, no search needed.
    const index = Math.min(n - 1, Math.floor(hashFraction(key.partitionKey) * n));
    placement.items[index] = (placement.items[index] as number) + key.items;
    placement.bytes[index] = (placement.bytes[index] as number) + key.bytes;
    placement.keys[index] = (placement.keys[index] as number) + 1;
  }
  return placement;
}

/** A view's partition keys in columns, as the sample store keeps them (`SampleViewKeys`). */
export interface KeyColumns {
  keys: readonly string[];
  itemsPerKey: ArrayLike<number>;
  bytesPerKey: ArrayLike<number>;
}

/**
 * `placeKeys` over columns: no object per key, so a million generated items place in tens of
 * milliseconds. Also returns each key's partition (index into `keys`).
 */
export function placeKeyColumns(columns: KeyColumns, partitionCount: number): Placement & { partitionOfKey: Uint32Array } {
  const n = Math.max(1, Math.floor(partitionCount));
  const count = columns.keys.length;
  const partitionOfKey = new Uint32Array(count);
  const items = new Float64Array(n);
  const bytes = new Float64Array(n);
  const keys = new Float64Array(n);
  for (let k = 0; k < count; k += 1) {
    const index = Math.min(n - 1, Math.floor(hashFraction(columns.keys[k] as string) * n));
    partitionOfKey[k] = index;
    items[index] = (items[index] as number) + (columns.itemsPerKey[k] as number);
    bytes[index] = (bytes[index] as number) + (columns.bytesPerKey[k] as number);
    keys[index] = (keys[index] as number) + 1;
  }
  return { partitionCount: n, items, bytes, keys, partitionOfKey };
}
