/**
 * The sample store: seeded, reproducible items for every entity of a table, and the aggregate views
 * over them (the table and each GSI and LSI: items grouped by partition key, sorted by sort key).
 *
 * Memory: items are never objects. Each attribute is a column (typed arrays of codes, numbers or
 * day numbers, or nothing when the value follows from the row number; see `columns.ts`); each view
 * holds its members (item numbers), their entry sizes, the distinct partition-key strings and a
 * group number per member; the distinct partition-key strings are rendered when first needed. For
 * 1,000,000 items of the e-commerce example that is about 55–80 MB, about 90 MB once every view is
 * sorted. Values, sort keys and rows are rendered on demand, a page at a time.
 *
 * Time: generation is one pass over the items in chunks: sizes column by column, then each view's
 * members, grouped by partition key without rendering it where the key's structure allows (see
 * `groupersFor`; a key whose identity is a code per row groups in a loop of its own), into typed
 * arrays presized for the members and their item collections. Placing a view on partitions
 * (`placement`) hashes each partition key from its structure, the FNV state of its literal prefix
 * plus its digits (`key-hash.ts`), without rendering it. About 0.25–0.4 s for 1,000,000 e-commerce
 * items, 0.1–0.25 s to generate and place the 1,000,000 items of `npm run bench`, on a 2-core
 * machine (bench/sample.ts). A view is sorted the first time it is paged or searched (about 0.9 s
 * for the 1,000,000-item table): its distinct partition keys are sorted, the members placed by
 * counting sort, then each item collection sorted by sort key. Afterwards `page` is
 * O(log n + limit) and `find` O(log n).
 *
 * Ordering follows DynamoDB: S by UTF-8 bytes (code point order; JavaScript's `<` compares UTF-16
 * units, which differs only when a string holds characters above U+D7FF, checked per view), N
 * numerically (as doubles: numbers beyond 15–17 significant digits may tie), B by bytes.
 *
 * A GSI with a multi-attribute key (docs/dynamodb-rules.md §11) holds the items that carry every one
 * of its key attributes; its item collections are the tuples of the partition-key attributes' values
 * (grouped by tuple, rendered joined by " + " as the partition simulator renders them), each sorted
 * by the sort-key attributes left to right, each in its own type's order. A GSI key attribute an
 * entity carries under the key's name, with no template, is that attribute (a natural key).
 */
import { partitionKeysOf, sortKeysOf } from '../model/gsi-keys.ts';
import { parseDecimal, type AttributeValue, type Item } from '../capacity/item-size.ts';
import { gsiKeySourceOf, keySlotsOf, type KeySlot } from '../model/key-slots.ts';
import { parseKeyTemplate, utf8ByteLength, type KeyTemplate } from '../model/key-template.ts';
import { SAMPLE_BASE_DATE_UTC_MS } from '../model/sample-values.ts';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES } from '../model/validate.ts';
import { keyValueBound, maxKeyTextBytes, withValueModel } from '../model/value-model.ts';
import type { Attribute, Design, Entity, KeyAttribute, KeyAttributeType, KeyBinding, Projection, Table } from '../model/schema.ts';
import { createColumn, type Column, type ColumnContext } from './columns.ts';
import { hashFraction } from '../partition/hash.ts';
import { KEY_PART_SEPARATOR } from '../partition/key-space.ts';
import { CompiledKey, type KeySizeLimit, type NaturalKey } from './keys.ts';
import { normalizeSeed } from './random.ts';
import type { SampleRow, SampleSummary, SampleValue, SampleView } from './types.ts';

/** The most items a store generates unless told otherwise; larger designs are scaled down to it. */
export const DEFAULT_MAX_ITEMS = 2_000_000;
/** How often, in items, generation reports progress. */
export const PROGRESS_EVERY_ITEMS = 50_000;
/** The largest page `page` and `items` return. */
export const MAX_PAGE_ROWS = 10_000;
/** The day sample dates end on unless `today` is given: fixed, so that a seed gives the same items on any day. */
export const DEFAULT_SAMPLE_TODAY = new Date(SAMPLE_BASE_DATE_UTC_MS).toISOString().slice(0, 10);

export interface SampleStoreOptions {
  /** Seed of every random choice; default 1. The same design, table, seed and options give the same items. */
  seed?: number;
  /** Echoed in the summary. */
  runId?: string;
  /** At most this many items in all (default 2,000,000); larger item counts are scaled down proportionally. */
  maxItems?: number;
  /** The newest day of generated dates, `yyyy-mm-dd` (default `DEFAULT_SAMPLE_TODAY`). */
  today?: string;
  /** Called every ~50,000 items and at the end with items generated and the total. Throw to abort. */
  onProgress?: (done: number, total: number) => void;
}

/** A page of a view. */
export interface SamplePage {
  /** Lines (`page`: collection headers + items) or items (`items`) in the whole view. */
  total: number;
  rows: SampleRow[];
}

/**
 * A view's items as the partition simulator needs them, columnar and in generation order (no sort
 * needed): `keys` are the distinct partition-key values (as rendered: text for S, the number's text
 * for N, base64 for B; a multi-attribute key's values joined by " + ", the one value the simulator
 * hashes, with `keyType` S); item i has partition key `keys[keyOfItem[i]]` and takes `bytesOfItem[i]`
 * bytes (the item's size for the table, the projected entry's size for an index, without the
 * 100-byte storage overhead). `itemsPerKey` / `bytesPerKey` are the item collections' totals.
 * The arrays are the store's own: read them, do not change them.
 */
export interface SampleViewKeys {
  keyType: KeyAttributeType;
  keys: readonly string[];
  keyOfItem: Uint32Array;
  bytesOfItem: Uint32Array;
  itemsPerKey: Uint32Array;
  bytesPerKey: Float64Array;
}

/**
 * A view's item collections on `partitionCount` equal ranges of the simulator's hash space, as the
 * partition simulator's `placeKeyColumns` gives them (structurally its `Placement`): per partition,
 * items, bytes and distinct partition keys; `partitionOfKey[k]` is the partition of key k.
 */
export interface SamplePlacement {
  partitionCount: number;
  items: Float64Array;
  bytes: Float64Array;
  keys: Float64Array;
  partitionOfKey: Uint32Array;
}

/** One item collection: a partition-key value, its item count and bytes (structurally a partition `PlacedKey`). */
export interface SampleCollection {
  partitionKey: string;
  items: number;
  bytes: number;
}

/** Generated items of one table and their views. View names: `table`, or the index's name. */
export interface SampleStore {
  summary(): SampleSummary;
  /**
   * Lines `offset` … `offset + limit − 1` of the aggregate view: each item collection is a header
   * line (`collection` set: the partition key, its item count and bytes) followed by its items in
   * sort-key order. `total` counts all lines (items + collections). Rows hold the attributes the
   * view holds (the projection, for an index) other than the view's own partition and sort key.
   */
  page(view: string, offset: number, limit: number): SamplePage;
  /** Like `page`, without header lines: items `offset` … in view order. */
  items(view: string, offset: number, limit: number): SamplePage;
  /**
   * The line (as `page` counts) of the header of the first item collection whose partition key
   * starts with `keyPrefix` (code point order); for an N key, whose number equals it. Null when none.
   */
  find(view: string, keyPrefix: string): number | null;
  /** Item `offset` of the view (as `items` counts) in DynamoDB JSON: the whole item, or the index entry. */
  itemAt(view: string, offset: number): Item;
  /** Partition keys and sizes of a view's items, for the partition simulator. */
  keysOf(view: string): SampleViewKeys;
  /**
   * Where each partition key of the view (`keysOf(view).keys[k]`) falls in the simulator's hash
   * space: `hashFraction` of the key, in [0, 1). Keys of a literal and an id (`USER#{userId}`) are
   * hashed from their structure, without being rendered. The array is the store's own.
   */
  keyHashes(view: string): Float64Array;
  /**
   * The view's items placed on `partitionCount` equal ranges of the hash space: what
   * `placeKeyColumns(keysOf(view), partitionCount)` gives, from `keyHashes` (no key rendered).
   */
  placement(view: string, partitionCount: number): SamplePlacement;
  /** The view's item collections, unsorted (first generated first): what the partition simulator places. */
  collections(view: string): Iterable<SampleCollection>;
}

interface EntityData {
  entity: Entity;
  index: number;
  /** Global number of its first item. */
  offset: number;
  rows: number;
  requested: number;
  /** Attributes stored as such (not shadowed by a key of the same name). */
  columns: Column[];
  columnNameBytes: number[];
  keys: CompiledKey[];
  /** Per key: 1 where the item carries it; null when every item does. */
  carried: (Uint8Array | null)[];
  /** Items that carry the table's keys (the others cannot be stored). */
  stored: number;
}

/** What an entity puts in a view. */
interface ViewPlan {
  /** The view's partition-key attributes (one, or 2–4 for a multi-attribute GSI key) by index into `keys`. */
  pk: number[];
  /** The view's sort-key attributes (none, one, or 2–4) by index into `keys`. */
  sk: number[];
  /** For KEYS_ONLY / INCLUDE: the entry's attributes (keys by index into `keys`, or columns); null for ALL. */
  parts: Array<{ key: number } | { column: Column; nameBytes: number }> | null;
}

interface Sorted {
  /** Sorted position → group. */
  groupOrder: Uint32Array;
  /** Sorted position → first item position; one extra entry at the end. */
  groupStart: Uint32Array;
  /** Item position → member. */
  order: Uint32Array;
}

interface ViewData {
  info: SampleView;
  /** The partition-key attributes, in key order (several for a multi-attribute GSI key). */
  pk: KeyAttribute[];
  /** The sort-key attributes, in key order (none, one or several). */
  sk: KeyAttribute[];
  plans: (ViewPlan | null)[];
  /** Member m's item number; null when member m is item m (the table, when every item is stored). */
  members: Uint32Array | null;
  entryBytes: Uint32Array;
  groupOf: Uint32Array;
  /** Per group: its first member, whose key is rendered as the group's key. */
  firstMember: Uint32Array;
  /** The groups' partition-key values, rendered on first need. */
  keys?: string[];
  /** The groups' partition keys' hash fractions, computed on first need. */
  hashes?: Float64Array;
  /** Per group g: its item count at 2g and its bytes at 2g + 1. */
  totals: Float64Array;
  /** The same, each in its own array (as `keysOf` hands them out), made on first need. */
  split?: { groupItems: Uint32Array; groupBytes: Float64Array };
  sorted?: Sorted;
}

const TYPE_NAMES = new Set(['S', 'N', 'B', 'BOOL']);

function sanitizeCount(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

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

/** Sizes of an entity's index entries (KEYS_ONLY / INCLUDE), filled a range of rows at a time. */
/** Adds an optional attribute's name and value bytes to `out[row]` for the rows that carry it. */
function addPresentBytes(out: Uint32Array, column: Column, nameBytes: number, from: number, to: number): void {
  for (let r = from; r < to; r += 1) if (column.isPresent(r)) out[r] = (out[r] as number) + nameBytes + column.valueBytes(r);
}

function entryArray(parts: NonNullable<ViewPlan['parts']>, data: EntityData, masks: readonly (Uint8Array | null)[], rows: number): { fill(from: number, to: number): Uint32Array } {
  let base = 0;
  const variable: Column[] = [];
  const keys: number[] = [];
  const optional: Array<{ column: Column; nameBytes: number }> = [];
  for (const part of parts) {
    if ('key' in part) keys.push(part.key);
    else if (part.column.present !== null) optional.push(part);
    else {
      base += part.nameBytes;
      const fixed = part.column.fixedBytes;
      if (fixed === undefined) variable.push(part.column);
      else base += fixed;
    }
  }
  const out = new Uint32Array(rows);
  return {
    fill(from, to) {
      out.fill(base, from, to);
      for (const c of variable) c.addValueBytes(out, from, to);
      for (const o of optional) addPresentBytes(out, o.column, o.nameBytes, from, to);
      for (const k of keys) (data.keys[k] as CompiledKey).addBytes(out, masks[k] ?? null, from, to);
      return out;
    },
  };
}

/** Finds and records the group (item collection) of an item's partition key, by the item's row. */
interface Grouper {
  find(row: number): number;
  add(row: number, group: number): void;
  /** At most how many groups `rows` items can start (for presizing the collections' arrays). */
  maxGroups(rows: number): number;
}

/** Largest identity space looked up in a flat array rather than a hash map. */
const MAX_FLAT_LOOKUP = 1 << 22;

/** Groups by a structural identity (no key string is built); shared by the entities of one key shape. */
class IdentityLookup {
  readonly #flat: Int32Array | undefined;
  readonly #map: Map<number, number> | undefined;
  constructor(readonly bound: number) {
    if (bound <= MAX_FLAT_LOOKUP) this.#flat = new Int32Array(bound).fill(-1);
    else this.#map = new Map();
  }
  /** Group by identity (−1: none yet), when the identities are looked up in a flat array. */
  get flat(): Int32Array | undefined {
    return this.#flat;
  }
  get(id: number): number {
    return this.#flat ? this.#flat[id]! : (this.#map!.get(id) ?? -1);
  }
  set(id: number, group: number): void {
    if (this.#flat) this.#flat[id] = group;
    else this.#map!.set(id, group);
  }
}

class IdentityGrouper implements Grouper {
  constructor(
    readonly lookup: IdentityLookup,
    readonly identity: (row: number) => number,
    /** `KeyStructure.codes`: the identities themselves, when they are codes (or rows). */
    readonly codes: Uint32Array | null | undefined,
  ) {}
  find(row: number): number {
    return this.lookup.get(this.identity(row));
  }
  add(row: number, group: number): void {
    this.lookup.set(this.identity(row), group);
  }
  maxGroups(rows: number): number {
    return Math.min(rows, this.lookup.bound);
  }
}

/** Groups by the rendered key (numbers by their canonical value); shared by a view's other entities. */
class StringGrouper implements Grouper {
  #row = -1;
  #text = '';
  constructor(
    readonly groups: Map<string, number>,
    readonly key: CompiledKey,
  ) {}
  #canonical(row: number): string {
    if (row !== this.#row) {
      const text = this.key.render(row);
      const parts = this.key.type === 'N' ? parseDecimal(text) : undefined;
      this.#text = parts ? (parts.digits === '' ? '0' : `${parts.isNegative ? '-' : ''}${parts.digits}e${parts.exponent}`) : text;
      this.#row = row;
    }
    return this.#text;
  }
  find(row: number): number {
    return this.groups.get(this.#canonical(row)) ?? -1;
  }
  add(row: number, group: number): void {
    this.groups.set(this.#canonical(row), group);
  }
  maxGroups(rows: number): number {
    return rows;
  }
}

/**
 * One grouper per entity of a view for one key attribute (`keys[i]`: entity i's, undefined when it is
 * not in the view): items get the same group exactly when their values are equal. Keys of one shape
 * share an identity lookup. A key falls back to its rendered string when it has no structure, or when
 * another shape's literal head is a prefix of its own (or the reverse), since then two shapes can
 * render the same string.
 */
function groupersFor(keys: readonly (CompiledKey | undefined)[]): (Grouper | undefined)[] {
  const structures = keys.map((k) => k?.structure());
  const sourceIds = new Map<object, number>();
  const signatures = structures.map((st) => {
    if (!st) return undefined;
    let id = -1;
    if (st.source !== null) {
      id = sourceIds.get(st.source) ?? sourceIds.size;
      sourceIds.set(st.source, id);
    }
    return `${st.head}\u0001${id}\u0001${st.detail}`;
  });
  const isStructural = structures.map((st) => st !== undefined);
  for (let i = 0; i < keys.length; i += 1) {
    for (let j = 0; j < keys.length; j += 1) {
      const a = keys[i];
      const b = keys[j];
      if (i === j || !a || !b || (signatures[i] !== undefined && signatures[i] === signatures[j])) continue;
      if (a.head.startsWith(b.head) || b.head.startsWith(a.head)) {
        isStructural[i] = false;
        isStructural[j] = false;
      }
    }
  }
  const lookups = new Map<string, IdentityLookup>();
  const strings = new Map<string, number>();
  return keys.map((key, i) => {
    if (!key) return undefined;
    const st = structures[i];
    const signature = signatures[i];
    if (!isStructural[i] || !st || signature === undefined) return new StringGrouper(strings, key);
    let lookup = lookups.get(signature);
    if (!lookup) {
      lookup = new IdentityLookup(st.bound);
      lookups.set(signature, lookup);
    }
    return new IdentityGrouper(lookup, st.identity, st.codes);
  });
}

/** Largest part id that `TupleIds` packs into one number with the id before it (2^26). */
const PACKED_PART_LIMIT = 1 << 26;

/**
 * Dense ids of tuples of part values (a multi-attribute partition key: DynamoDB places an item by all
 * its partition-key attributes together, docs/dynamodb-rules.md §11). Each part's values get dense
 * ids from that part's groupers; a tuple's id is built left to right, one pair (id so far, next
 * part's id) at a time, so no key string is built. Shared by the entities of one view.
 */
class TupleIds {
  readonly #partCounts: number[];
  readonly #pairs: Map<number | string, number>[];
  /** Tuple id → group (−1: none yet). */
  readonly #groups: number[] = [];
  constructor(parts: number) {
    this.#partCounts = new Array<number>(parts).fill(0);
    this.#pairs = Array.from({ length: parts }, () => new Map());
  }
  /** A new id for a value of part `j`. */
  nextPartId(j: number): number {
    const id = this.#partCounts[j]!;
    this.#partCounts[j] = id + 1;
    return id;
  }
  /** The id of (tuple so far `a`, part `j`'s value `b`). */
  pair(j: number, a: number, b: number): number {
    const pairs = this.#pairs[j]!;
    const key = a < PACKED_PART_LIMIT && b < PACKED_PART_LIMIT ? a * PACKED_PART_LIMIT + b : `${a},${b}`;
    let id = pairs.get(key);
    if (id === undefined) {
      id = pairs.size;
      pairs.set(key, id);
    }
    return id;
  }
  groupOf(tuple: number): number {
    return this.#groups[tuple] ?? -1;
  }
  setGroup(tuple: number, group: number): void {
    while (this.#groups.length < tuple) this.#groups.push(-1);
    this.#groups[tuple] = group;
  }
}

/** Groups an entity's items by the tuple of their partition-key attributes' values, one grouper per attribute. */
class TupleGrouper implements Grouper {
  #row = -1;
  #tuple = -1;
  constructor(
    readonly parts: readonly Grouper[],
    readonly ids: TupleIds,
  ) {}
  #tupleOf(row: number): number {
    if (row === this.#row) return this.#tuple;
    let tuple = -1;
    for (let j = 0; j < this.parts.length; j += 1) {
      const part = this.parts[j]!;
      let id = part.find(row);
      if (id < 0) {
        id = this.ids.nextPartId(j);
        part.add(row, id);
      }
      tuple = j === 0 ? id : this.ids.pair(j, tuple, id);
    }
    this.#row = row;
    this.#tuple = tuple;
    return tuple;
  }
  find(row: number): number {
    return this.ids.groupOf(this.#tupleOf(row));
  }
  add(row: number, group: number): void {
    this.ids.setGroup(this.#tupleOf(row), group);
  }
  maxGroups(rows: number): number {
    return rows;
  }
}

/**
 * The groupers of a view, one per entity (undefined for an entity not in it): by its partition key's
 * value, or, for a multi-attribute partition key, by the tuple of its attributes' values.
 */
function viewGroupersFor(entities: readonly EntityData[], plans: readonly (ViewPlan | null)[], partCount: number): (Grouper | undefined)[] {
  const perPart = Array.from({ length: partCount }, (_, j) =>
    groupersFor(
      entities.map((data, i) => {
        const plan = plans[i];
        return plan ? (data.keys[plan.pk[j]!] as CompiledKey) : undefined;
      }),
    ),
  );
  if (partCount === 1) return perPart[0]!;
  const ids = new TupleIds(partCount);
  return entities.map((_, i) => (plans[i] ? new TupleGrouper(perPart.map((groupers) => groupers[i]!), ids) : undefined));
}

/** The sum of an array's values (a loop of its own, which V8 compiles apart from its caller's code). */
function sumOf(values: Uint32Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[i]!;
  return sum;
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

/**
 * Past this many item collections, a view's collection arrays start at it and grow by doubling,
 * rather than being presized to a loose bound (every item its own collection, at 16 bytes each).
 */
const MAX_PRESIZED_GROUPS = 1 << 20;

/** What a view's definition says: its name, kind, key attributes and projection. */
interface ViewDefinition {
  name: string;
  kind: SampleView['kind'];
  pk: KeyAttribute[];
  sk: KeyAttribute[];
  projection: Projection;
}

/**
 * A view while its items are generated: its members (item numbers, entry sizes, collection numbers)
 * in typed arrays sized for every item that may be in it, and its item collections (first member,
 * item count, bytes) in typed arrays sized for as many collections as the groupers allow, so that no
 * array grows item by item. A collection's item count and bytes sit side by side (`totals[2g]`,
 * `totals[2g + 1]`): an item added to an earlier collection touches one place in memory, not two.
 */
class ViewBuild {
  /** Null when every item is a member, in order (then `entryBytes` are the items' sizes, filled by the caller). */
  readonly members: Uint32Array | null;
  readonly entryBytes: Uint32Array;
  readonly groupOf: Uint32Array;
  count = 0;
  groups = 0;
  firstMember: Uint32Array;
  totals: Float64Array;
  constructor(
    readonly d: ViewDefinition,
    readonly plans: (ViewPlan | null)[],
    public groupers: (Grouper | undefined)[],
    capacity: number,
    maxGroups: number,
    itemSizes: Uint32Array | null,
  ) {
    this.members = itemSizes ? null : new Uint32Array(capacity);
    this.entryBytes = itemSizes ?? new Uint32Array(capacity);
    this.groupOf = new Uint32Array(capacity);
    const size = Math.min(capacity, maxGroups, MAX_PRESIZED_GROUPS);
    this.firstMember = new Uint32Array(size);
    this.totals = new Float64Array(2 * size);
  }

  /** Makes room for more collections (never more than there can be members). */
  grow(): void {
    const size = Math.min(this.groupOf.length, Math.max(1024, this.firstMember.length * 2));
    const firstMember = new Uint32Array(size);
    firstMember.set(this.firstMember);
    const totals = new Float64Array(2 * size);
    totals.set(this.totals);
    this.firstMember = firstMember;
    this.totals = totals;
  }
}

/** Where an entity's rows go in a view: its grouper and the key masks its members must pass. */
interface MemberJob {
  v: ViewBuild;
  grouper: Grouper;
  entries: { fill(from: number, to: number): Uint32Array } | undefined;
  first: Uint8Array | null;
  second: Uint8Array | null;
  rest: Uint8Array[];
}

/**
 * Adds rows `from` … `to − 1` of an entity (global item numbers from `offset`) to a view: each row
 * whose masks pass becomes a member of the item collection of its partition key, a new collection
 * when its key is new. `sizes[row]` is the row's entry size in the view.
 */
function addMembers(job: MemberJob, sizes: Uint32Array, storedPk: Uint8Array | null, storedSk: Uint8Array | null, offset: number, from: number, to: number): void {
  const { grouper } = job;
  // The loops return the member count rather than store it: V8 compiles a hot loop while it runs
  // (on-stack replacement), before the code after it has run, and a property store there would
  // throw the compiled loop away each time it ends.
  job.v.count =
    grouper instanceof IdentityGrouper && grouper.codes !== undefined && grouper.lookup.flat !== undefined
      ? addMembersByCode(job, grouper.lookup.flat, grouper.codes, sizes, storedPk, storedSk, offset, from, to)
      : addMembersByGrouper(job, grouper, sizes, storedPk, storedSk, offset, from, to);
}

/** `addMembers` through the grouper's calls; returns the view's member count. */
function addMembersByGrouper(job: MemberJob, grouper: Grouper, sizes: Uint32Array, storedPk: Uint8Array | null, storedSk: Uint8Array | null, offset: number, from: number, to: number): number {
  const { v, first, second, rest } = job;
  const { members, entryBytes, groupOf } = v;
  let m = v.count;
  for (let row = from; row < to; row += 1) {
    if ((storedPk !== null && storedPk[row] === 0) || (storedSk !== null && storedSk[row] === 0)) continue;
    if ((first !== null && first[row] === 0) || (second !== null && second[row] === 0)) continue;
    if (rest.length > 0 && !passesAll(rest, row)) continue;
    const entry = sizes[row]!;
    let group = grouper.find(row);
    if (group < 0) {
      if (v.groups === v.firstMember.length) v.grow();
      group = v.groups;
      v.groups = group + 1;
      grouper.add(row, group);
      v.firstMember[group] = m;
      v.totals[2 * group] = 1;
      v.totals[2 * group + 1] = entry;
    } else {
      v.totals[2 * group]! += 1;
      v.totals[2 * group + 1]! += entry;
    }
    if (members !== null) {
      members[m] = offset + row;
      entryBytes[m] = entry;
    }
    groupOf[m] = group;
    m += 1;
  }
  return m;
}

/**
 * `addMembers` for a key whose identity is a code per row (or the row) looked up in a flat array:
 * the common shape (`USER#{userId}`), with no call per item. Returns the view's member count.
 */
function addMembersByCode(
  job: MemberJob,
  lookup: Int32Array,
  codes: Uint32Array | null,
  sizes: Uint32Array,
  storedPk: Uint8Array | null,
  storedSk: Uint8Array | null,
  offset: number,
  from: number,
  to: number,
): number {
  const { v, first, second, rest } = job;
  const { members, entryBytes, groupOf } = v;
  let { firstMember, totals } = v;
  let m = v.count;
  let groups = v.groups;
  for (let row = from; row < to; row += 1) {
    if ((storedPk !== null && storedPk[row] === 0) || (storedSk !== null && storedSk[row] === 0)) continue;
    if ((first !== null && first[row] === 0) || (second !== null && second[row] === 0)) continue;
    if (rest.length > 0 && !passesAll(rest, row)) continue;
    const entry = sizes[row]!;
    const id = codes === null ? row : codes[row]!;
    let group = lookup[id]!;
    if (group < 0) {
      if (groups === firstMember.length) {
        v.grow();
        ({ firstMember, totals } = v);
      }
      group = groups;
      groups += 1;
      v.groups = groups;
      lookup[id] = group;
      firstMember[group] = m;
      totals[2 * group] = 1;
      totals[2 * group + 1] = entry;
    } else {
      totals[2 * group]! += 1;
      totals[2 * group + 1]! += entry;
    }
    if (members !== null) {
      members[m] = offset + row;
      entryBytes[m] = entry;
    }
    groupOf[m] = group;
    m += 1;
  }
  return m;
}

/**
 * The carried masks a view's members must pass, besides `checked` (the table's, tested for every
 * item already): the first two apart, so that the common case (one or two key attributes) tests them
 * inline as before; the rest, for a multi-attribute key, in a list.
 */
function maskChecks(masks: readonly (Uint8Array | null)[], checked: readonly (Uint8Array | null)[]): { first: Uint8Array | null; second: Uint8Array | null; rest: Uint8Array[] } {
  const distinct = [...new Set(masks.filter((m): m is Uint8Array => m !== null && !checked.includes(m)))];
  return { first: distinct[0] ?? null, second: distinct[1] ?? null, rest: distinct.slice(2) };
}

/** Whether row `r` passes every mask of `rest` (empty for keys of one or two attributes). */
function passesAll(rest: readonly Uint8Array[], r: number): boolean {
  for (let i = 0; i < rest.length; i += 1) if (rest[i]![r] === 0) return false;
  return true;
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

/**
 * How many items of each entity a sample generates: the design's counts, scaled down together (each
 * at least 1) when their sum exceeds `maxItems`. Row r of an entity is the same item however many
 * rows are generated, as long as the referenced entities keep these counts (see `previewItems`).
 */
export function sampleCounts(table: Table, maxItems = DEFAULT_MAX_ITEMS): { requested: number[]; totalRequested: number; factor: number; counts: number[] } {
  const requested = table.entities.map((e) => sanitizeCount(e.itemCount));
  const totalRequested = requested.reduce((s, n) => s + n, 0);
  const factor = totalRequested > maxItems ? maxItems / totalRequested : 1;
  const counts = requested.map((n) => (factor < 1 ? Math.min(n, Math.max(n > 0 && maxItems > 0 ? 1 : 0, Math.floor(n * factor))) : n));
  return { requested, totalRequested, factor, counts };
}

/** What `columnBuilder` needs of an entity: the entity and how many rows its columns hold. */
interface ColumnOwner {
  entity: Entity;
  rows: number;
}

/**
 * Builds (once each) the column of an entity's attribute, for the entity's `rows`; a `ref` asks for
 * its target's column first: the target's attribute of the same name, else its id, never one being
 * built (a cycle).
 */
export function columnBuilder(owners: readonly ColumnOwner[], ctx: ColumnContext): (owner: ColumnOwner, attribute: Attribute) => Column {
  const built = new Map<string, Column>();
  const inProgress = new Set<string>();
  const columnOf = (owner: ColumnOwner, attribute: Attribute): Column => {
    const id = `${owner.entity.id}\u0000${attribute.name}`;
    const done = built.get(id);
    if (done) return done;
    inProgress.add(id);
    const column = createColumn(owner.entity, attribute, owner.rows, ctx, (entityId, name) => {
      const target = owners.find((x) => x.entity.id === entityId);
      if (!target || target.rows === 0) return undefined;
      const attrs = target.entity.attributes.filter((a) => TYPE_NAMES.has(a.type) && !inProgress.has(`${entityId}\u0000${a.name}`));
      const targetAttribute =
        attrs.find((a) => a.name === name) ??
        attrs.find((a) => a.generator?.kind === 'id' || a.generator?.kind === 'uuid') ??
        attrs.find((a) => a.generator === undefined && /id$/i.test(a.name));
      if (!targetAttribute) return undefined;
      return { column: columnOf(target, targetAttribute), rows: target.rows };
    });
    inProgress.delete(id);
    built.set(id, column);
    return column;
  };
  return columnOf;
}

/** The column context a sample uses for a seed and a "today". */
export function sampleContext(seed: number, today = DEFAULT_SAMPLE_TODAY): ColumnContext {
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  return { seed: normalizeSeed(seed), today: Math.floor((Number.isFinite(todayMs) ? todayMs : SAMPLE_BASE_DATE_UTC_MS) / 86_400_000) };
}

/**
 * The key size limit to check a key's items against (docs/dynamodb-rules.md §7: 1,024 bytes for an
 * attribute that is a sort key anywhere, else 2,048), or undefined when no value can pass it: the
 * value model bounds every placeholder (`maxKeyTextBytes`) and the longest value fits. Keys whose
 * values are not bounded (names, references) are checked item by item.
 */
function sizeLimitToCheck(slot: KeySlot, binding: KeyBinding | NaturalKey, entity: Entity, entities: readonly Entity[]): KeySizeLimit | undefined {
  const limit: KeySizeLimit = slot.uses.some((u) => u.role === 'sort') ? { bytes: MAX_SORT_KEY_BYTES, role: 'sort' } : { bytes: MAX_PARTITION_KEY_BYTES, role: 'partition' };
  let template: KeyTemplate;
  if ('natural' in binding) template = { source: binding.natural, parts: [{ kind: 'attribute', name: binding.natural }] };
  else {
    const parsed = parseKeyTemplate(binding.template);
    if (!parsed.ok) return undefined;
    template = parsed.value;
  }
  const attributes = new Map<string, Attribute>();
  for (const a of entity.attributes) if (!attributes.has(a.name)) attributes.set(a.name, a);
  const bound = keyValueBound(template, 'natural' in binding ? undefined : binding.shards, (name) => {
    const a = attributes.get(name);
    if (!a) return undefined;
    const max = maxKeyTextBytes(a, entity, [], entities);
    return max === undefined ? { bytes: 0, isKnown: false } : { bytes: max, isKnown: true };
  });
  return bound.isEstimate || bound.bytes > limit.bytes ? limit : undefined;
}

/**
 * Generates the items of table `tableId` of `design` and returns the store over them. Throws when
 * the design has no such table (a caller's mistake: the UI offers only its tables).
 */
export function createSampleStore(design: Design, tableId: string, options: SampleStoreOptions = {}): SampleStore {
  const found = design.tables.find((t) => t.id === tableId);
  if (!found) throw new Error(`createSampleStore: design ${JSON.stringify(design.name)} has no table with id ${JSON.stringify(tableId)}.`);
  // The same value model as the planner and the simulator (categorical attributes made explicit).
  const table = withValueModel(found);
  const seedGiven = options.seed ?? 1;
  const ctx = sampleContext(seedGiven, options.today);
  const seed = ctx.seed;
  const notes: string[] = [];

  // Item counts, scaled down together when they exceed the cap.
  const maxItems = Math.max(0, Math.floor(options.maxItems ?? DEFAULT_MAX_ITEMS));
  const { requested, totalRequested, factor, counts } = sampleCounts(table, maxItems);
  let capped: string | undefined;
  if (factor < 1) {
    const generated = counts.reduce((s, n) => s + n, 0);
    capped =
      `The design has ${totalRequested.toLocaleString('en-US')} items; ${generated.toLocaleString('en-US')} were generated ` +
      `(each entity's count × ${(Math.floor(factor * 1e4) / 1e4).toString()}) to keep the sample in memory. Counts per entity keep their proportions; ` +
      'references and distributions are over the generated items.';
  }

  // Columns, built on demand so that a `ref` can ask for its target's column first.
  const entities: EntityData[] = [];
  let offset = 0;
  table.entities.forEach((entity, index) => {
    entities.push({ entity, index, offset, rows: counts[index] ?? 0, requested: requested[index] ?? 0, columns: [], columnNameBytes: [], keys: [], carried: [], stored: 0 });
    offset += counts[index] ?? 0;
  });
  const totalItems = offset;
  const columnOf = columnBuilder(entities, ctx);

  const slots = keySlotsOf(table);
  for (const data of entities) {
    const byName = new Map<string, Column>();
    for (const a of data.entity.attributes) if (a.name !== '' && !byName.has(a.name)) byName.set(a.name, columnOf(data, a));
    for (const slot of slots) {
      const name = slot.attribute.name;
      if (name === '') continue;
      let binding: KeyBinding | NaturalKey | undefined = Object.hasOwn(data.entity.keys, name) ? data.entity.keys[name] : undefined;
      // A GSI key attribute the entity carries under the key's own name, with no template, is the key
      // itself (a natural key, docs/dynamodb-rules.md §11); never for the table's keys, which need a template.
      if (!binding && !slot.isRequired && slot.uses.some((u) => u.kind === 'gsi') && gsiKeySourceOf(data.entity, name)?.isNatural) binding = { natural: name };
      if (!binding) continue;
      const limit = sizeLimitToCheck(slot, binding, data.entity, table.entities);
      const key = new CompiledKey(slot.attribute, binding, byName, seed, data.entity.id, limit);
      if (key.failure) notes.push(`${data.entity.name}: ${key.failure}; no item carries ${key.name}.`);
      if (key.ignoredCondition) notes.push(`${data.entity.name}: ${key.ignoredCondition}.`);
      data.keys.push(key);
    }
    const keyNames = new Set(data.keys.map((k) => k.name));
    for (const [name, column] of byName) {
      if (keyNames.has(name)) continue;
      data.columns.push(column);
      data.columnNameBytes.push(utf8ByteLength(name));
    }
  }

  // Views and what each entity puts in them.
  const keyIndex = (data: EntityData, name: string | undefined): number => (name === undefined ? -1 : data.keys.findIndex((k) => k.name === name));
  const planFor = (data: EntityData, pk: readonly KeyAttribute[], sk: readonly KeyAttribute[], projection: Projection): ViewPlan | null => {
    // An entity is in a view only with every key attribute of it: a multi-attribute key's too (sparse).
    const p = pk.map((a) => keyIndex(data, a.name));
    const s = sk.map((a) => keyIndex(data, a.name));
    if (p.length === 0 || p.some((k) => k < 0) || s.some((k) => k < 0)) return null;
    if (projection.type === 'ALL') return { pk: p, sk: s, parts: null };
    // An index entry holds the table's keys and its own, each key attribute once (docs/dynamodb-rules.md §11).
    const names = [table.partitionKey.name, table.sortKey?.name, ...pk.map((a) => a.name), ...sk.map((a) => a.name), ...(projection.type === 'INCLUDE' ? projection.nonKeyAttributes : [])];
    const parts: NonNullable<ViewPlan['parts']> = [];
    for (const name of new Set(names)) {
      if (name === undefined || name === '') continue;
      const k = keyIndex(data, name);
      if (k >= 0) parts.push({ key: k });
      else {
        const c = data.columns.find((x) => x.name === name);
        if (c) parts.push({ column: c, nameBytes: utf8ByteLength(name) });
      }
    }
    return { pk: p, sk: s, parts };
  };
  const ALL: Projection = { type: 'ALL' };
  const definitions: ViewDefinition[] = [
    { name: 'table', kind: 'table', pk: [table.partitionKey], sk: table.sortKey ? [table.sortKey] : [], projection: ALL },
    // A GSI's key may have several attributes per part (a multi-attribute key); one without a partition key (a design being edited) has no view.
    ...table.globalSecondaryIndexes
      .filter((g) => partitionKeysOf(g).length > 0)
      .map((g) => ({ name: g.name, kind: 'gsi' as const, pk: partitionKeysOf(g), sk: sortKeysOf(g), projection: g.projection })),
    ...table.localSecondaryIndexes.map((l) => ({ name: l.name, kind: 'lsi' as const, pk: [table.partitionKey], sk: l.sortKey ? [l.sortKey] : [], projection: l.projection })),
  ];
  const building = definitions.map((d) => {
    const plans = entities.map((data) => planFor(data, d.pk, d.sk, d.projection));
    const groupers = viewGroupersFor(entities, plans, d.pk.length);
    const capacity = entities.reduce((s, data, i) => s + (plans[i] ? data.rows : 0), 0);
    const maxGroups = entities.reduce((s, data, i) => s + (plans[i] ? (groupers[i]?.maxGroups(data.rows) ?? data.rows) : 0), 0);
    // When every item carries the table's keys (always), the table's members are the items in order:
    // no member array, and its entry sizes are the items' sizes, computed in place.
    const isEveryItem =
      d.kind === 'table' && entities.every((data, i) => data.rows === 0 || plans[i]?.pk.concat(plans[i]!.sk).every((k) => (data.keys[k] as CompiledKey).isAlways) === true);
    return new ViewBuild(d, plans, groupers, capacity, maxGroups, isEveryItem ? new Uint32Array(capacity) : null);
  });
  const tableView = building[0]!;
  for (const data of entities) {
    if (data.rows > 0 && !tableView.plans[data.index]) {
      const missing = [table.partitionKey.name, table.sortKey?.name].filter((n): n is string => n !== undefined && keyIndex(data, n) < 0);
      notes.push(`${data.entity.name}: no template for ${missing.join(' and ')}, so its items cannot be stored; none were generated.`);
    }
  }

  // The pass over the items, entity by entity, in chunks: sizes column by column, then each view.
  // Item sizes go into the table's entry sizes when its members are every item; otherwise one array
  // serves every entity in turn (fresh memory costs a page fault per 4 KB).
  const itemSizes = tableView.members === null ? tableView.entryBytes : null;
  const sharedSizes = itemSizes ? undefined : new Uint32Array(entities.reduce((most, data) => Math.max(most, data.rows), 0));
  let done = 0;
  const report = options.onProgress;
  for (const data of entities) {
    const { rows, keys, columns, columnNameBytes } = data;
    const tablePlan = tableView.plans[data.index];
    if (!tablePlan || rows === 0) {
      data.carried = keys.map(() => null);
      done += rows;
      if (report && rows > 0) report(done, totalItems);
      continue;
    }
    const masks = keys.map((k) => k.carriedMask(rows));
    data.carried = masks;
    for (const k of keys) {
      if (k.overLimitItems === 0 || !k.sizeLimit) continue;
      const { bytes, role } = k.sizeLimit;
      const views = [...new Set(slots.find((s) => s.attribute.name === k.name)?.uses.map((u) => (u.kind === 'table' ? 'the table' : u.index)))].join(' and ');
      notes.push(
        `${data.entity.name}: ${k.overLimitItems.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} items have a ${k.name} value over ${bytes.toLocaleString('en-US')} bytes, ` +
          `DynamoDB's ${role} key limit (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html); they are left out of ${views}.`,
      );
    }
    let base = 0;
    const variable: Column[] = [];
    const optional: Array<{ column: Column; nameBytes: number }> = [];
    columns.forEach((c, i) => {
      const nameBytes = columnNameBytes[i] ?? 0;
      // An optional attribute counts only on the items that carry it.
      if (c.present !== null) return void optional.push({ column: c, nameBytes });
      base += nameBytes;
      const fixed = c.fixedBytes;
      if (fixed === undefined) variable.push(c);
      else base += fixed;
    });
    const itemBytes = itemSizes ? itemSizes.subarray(data.offset, data.offset + rows) : sharedSizes!.subarray(0, rows);
    itemBytes.fill(base);
    const storedPk = masks[tablePlan.pk[0]!] ?? null;
    const storedSk = tablePlan.sk.length > 0 ? (masks[tablePlan.sk[0]!] ?? null) : null;
    const views = building
      .map((v) => {
        const plan = v.plans[data.index] ?? null;
        const grouper = v.groupers[data.index];
        if (!plan || !grouper) return undefined;
        const entries = plan.parts ? entryArray(plan.parts, data, masks, rows) : undefined;
        // An item missing any key attribute of the view is not in it.
        const checks = maskChecks([...plan.pk, ...plan.sk].map((k) => masks[k] ?? null), [storedPk, storedSk]);
        return { v, grouper, entries, ...checks };
      })
      .filter((x): x is MemberJob => x !== undefined);
    for (let from = 0; from < rows; from += PROGRESS_EVERY_ITEMS) {
      const to = Math.min(rows, from + PROGRESS_EVERY_ITEMS);
      for (const c of variable) c.addValueBytes(itemBytes, from, to);
      for (const o of optional) addPresentBytes(itemBytes, o.column, o.nameBytes, from, to);
      keys.forEach((k, i) => k.addBytes(itemBytes, masks[i] ?? null, from, to));
      for (const job of views) {
        const sizes = job.entries ? job.entries.fill(from, to) : itemBytes;
        addMembers(job, sizes, storedPk, storedSk, data.offset, from, to);
      }
      done += to - from;
      if (report) report(done, totalItems);
    }
    let stored = storedPk === null && storedSk === null ? rows : 0;
    if (stored === 0) for (let row = 0; row < rows; row += 1) if ((storedPk === null || storedPk[row] === 1) && (storedSk === null || storedSk[row] === 1)) stored += 1;
    data.stored = stored;
    if (stored < rows) {
      notes.push(`${data.entity.name}: ${(rows - stored).toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} items have no valid ${[table.partitionKey.name, table.sortKey?.name].filter(Boolean).join(' / ')} and were left out.`);
    }
  }
  for (const v of building) v.groupers = [];

  // Arrays cut to what they hold: copied when less than half full, else a view of the first n (no copy).
  const cut = (a: Uint32Array, n: number): Uint32Array => (n * 2 >= a.length ? a.subarray(0, n) : a.slice(0, n));
  const views: ViewData[] = building.map((v) => {
    const entryBytes = cut(v.entryBytes, v.count);
    const bytes = sumOf(entryBytes);
    return {
      info: {
        name: v.d.name,
        kind: v.d.kind,
        partitionKeys: v.d.pk.map((a) => a.name),
        sortKeys: v.d.sk.map((a) => a.name),
        itemCount: v.count,
        bytes,
        collections: v.groups,
      },
      pk: v.d.pk,
      sk: v.d.sk,
      plans: v.plans,
      members: v.members && cut(v.members, v.count),
      entryBytes,
      groupOf: cut(v.groupOf, v.count),
      firstMember: cut(v.firstMember, v.groups),
      totals: v.groups * 4 >= v.totals.length ? v.totals.subarray(0, 2 * v.groups) : v.totals.slice(0, 2 * v.groups),
    };
  });

  const summary: SampleSummary = {
    runId: options.runId ?? '',
    seed: seedGiven,
    itemCount: entities.reduce((s, e) => s + e.stored, 0),
    itemsPerEntity: Object.fromEntries(entities.map((e) => [e.entity.id, e.stored])),
    views: views.map((v) => v.info),
    entities: entities.map((e) => ({ id: e.entity.id, name: e.entity.name, itemCount: e.stored, requested: e.requested })),
    ...(capped ? { capped } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };

  // ---- Access -------------------------------------------------------------------------------

  const viewOf = (name: string): ViewData => {
    const v = views.find((x) => x.info.name === name);
    if (!v) throw new Error(`Sample view ${JSON.stringify(name)} does not exist; expected one of ${views.map((x) => JSON.stringify(x.info.name)).join(', ')}.`);
    return v;
  };

  /** The item number of member m of a view. */
  const itemOf = (v: ViewData, m: number): number => (v.members === null ? m : v.members[m]!);

  const entityOf = (item: number): EntityData => {
    let lo = 0;
    let hi = entities.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (entities[mid]!.offset <= item) lo = mid;
      else hi = mid - 1;
    }
    return entities[lo]!;
  };

  const isCarried = (data: EntityData, key: number, row: number): boolean => {
    const mask = data.carried[key];
    return !mask || mask[row] === 1;
  };

  const keyValue = (key: CompiledKey, row: number): SampleValue => {
    const text = key.render(row);
    return key.type === 'N' ? Number(text) : text;
  };

  /** Member `m`'s values of the view's key attributes `which` (its partition or sort key), as rendered. */
  const keyTexts = (v: ViewData, m: number, which: 'pk' | 'sk'): string[] => {
    const item = itemOf(v, m);
    const data = entityOf(item);
    const row = item - data.offset;
    return v.plans[data.index]![which].map((k) => (data.keys[k] as CompiledKey).render(row));
  };

  /**
   * The groups' partition keys: each rendered from the group's first member, once. A multi-attribute
   * key's values are joined by " + " (as the partition simulator renders them), the text that stands
   * for the one value DynamoDB hashes.
   */
  const keysOf = (v: ViewData): string[] => {
    if (v.keys) return v.keys;
    const keys = new Array<string>(v.firstMember.length);
    for (let g = 0; g < keys.length; g += 1) {
      const item = itemOf(v, v.firstMember[g]!);
      const data = entityOf(item);
      const plan = v.plans[data.index]!;
      keys[g] =
        plan.pk.length === 1
          ? flatten((data.keys[plan.pk[0]!] as CompiledKey).render(item - data.offset))
          : keyTexts(v, v.firstMember[g]!, 'pk').join(KEY_PART_SEPARATOR);
    }
    v.keys = keys;
    return keys;
  };

  /**
   * The hash fractions of groups `from` … `to − 1` into `out[at]` onwards. Groups are numbered in
   * the order of their first members, which are generated entity by entity, so each entity's groups
   * are one run: each run is hashed by its key.
   */
  const hashGroups = (v: ViewData, from: number, to: number, out: Float64Array, at: number): void => {
    if (v.pk.length > 1) {
      // A multi-attribute key is hashed as its joined text (as the simulator hashes it).
      const keys = keysOf(v);
      for (let g = from; g < to; g += 1) out[at + g - from] = hashFraction(keys[g]!);
      return;
    }
    let start = from;
    while (start < to) {
      const data = entityOf(itemOf(v, v.firstMember[start]!));
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
  };

  const hashesOf = (v: ViewData): Float64Array => {
    if (v.hashes) return v.hashes;
    const hashes = new Float64Array(v.firstMember.length);
    hashGroups(v, 0, hashes.length, hashes, 0);
    v.hashes = hashes;
    return hashes;
  };

  /** Whether a view's partition or sort key has more than one attribute. */
  const isMultiAttribute = (v: ViewData): boolean => v.pk.length > 1 || v.sk.length > 1;

  const sortView = (v: ViewData): Sorted => {
    if (v.sorted) return v.sorted;
   
    const keys = keysOf(v);
    const groups = keys.length;
    const groupOrder = new Uint32Array(groups);
    for (let i = 0; i < groups; i += 1) groupOrder[i] = i;
    if (v.pk.length === 1) groupOrder.sort(comparatorFor(v.pk[0]!.type, keys).compare);
    else {
      // Collections in the order of their partition-key attributes, left to right, each by its type.
      const values = v.pk.map(() => new Array<string>(groups));
      for (let g = 0; g < groups; g += 1) keyTexts(v, v.firstMember[g]!, 'pk').forEach((text, j) => (values[j]![g] = text));
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
        const data = entityOf(item);
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
  };

  /** The attributes of a member's entry, as (name, value) pairs; the view's own keys left out unless `withKeys`. */
  const entryOf = (v: ViewData, m: number, withKeys: boolean): { data: EntityData; row: number; attributes: Array<[string, Column | CompiledKey]> } => {
    const item = itemOf(v, m);
    const data = entityOf(item);
    const row = item - data.offset;
    const plan = v.plans[data.index]!;
    const skip = withKeys ? new Set<string>() : new Set([...v.pk, ...v.sk].map((a) => a.name));
    const attributes: Array<[string, Column | CompiledKey]> = [];
    if (plan.parts === null) {
      // The entity's own attributes first, then the key attributes it carries.
      for (const c of data.columns) if (!skip.has(c.name) && c.isPresent(row)) attributes.push([c.name, c]);
      data.keys.forEach((k, i) => {
        if (!skip.has(k.name) && isCarried(data, i, row)) attributes.push([k.name, k]);
      });
    } else {
      for (const part of plan.parts) {
        if ('key' in part) {
          const k = data.keys[part.key] as CompiledKey;
          if (!skip.has(k.name) && isCarried(data, part.key, row)) attributes.push([k.name, k]);
        } else if (!skip.has(part.column.name) && part.column.isPresent(row)) attributes.push([part.column.name, part.column]);
      }
    }
    return { data, row, attributes };
  };

  const rowOf = (v: ViewData, m: number): SampleRow => {
    const { data, row, attributes } = entryOf(v, m, false);
    const plan = v.plans[data.index]!;
    const values: Record<string, SampleValue> = {};
    for (const [name, source] of attributes) values[name] = source instanceof CompiledKey ? keyValue(source, row) : source.value(row);
    const result: SampleRow = {
      entityId: data.entity.id,
      entity: data.entity.name,
      partitionKey: keysOf(v)[v.groupOf[m]!]!,
      bytes: v.entryBytes[m]!,
      attributes: values,
    };
    if (plan.sk.length === 1) result.sortKey = (data.keys[plan.sk[0]!] as CompiledKey).render(row);
    else if (plan.sk.length > 1) result.sortKey = keyTexts(v, m, 'sk').join(KEY_PART_SEPARATOR);
    if (isMultiAttribute(v)) result.keyValues = [...keyTexts(v, m, 'pk'), ...keyTexts(v, m, 'sk')];
    return result;
  };

  const clampLimit = (limit: number): number => Math.max(0, Math.min(MAX_PAGE_ROWS, Math.floor(Number.isFinite(limit) ? limit : 0)));
  const clampOffset = (offset: number): number => Math.max(0, Math.floor(Number.isFinite(offset) ? offset : 0));

  return {
    summary: () => summary,

    page(view, offset, limit) {
      const v = viewOf(view);
      const s = sortView(v);
      const keys = keysOf(v);
      const groups = keys.length;
      const total = v.groupOf.length + groups;
      const rows: SampleRow[] = [];
      let line = clampOffset(offset);
      const end = Math.min(total, line + clampLimit(limit));
      if (line >= end) return { total, rows };
      // The collection holding `line`: the last p whose header line groupStart[p] + p ≤ line.
      let lo = 0;
      let hi = groups - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (s.groupStart[mid]! + mid <= line) lo = mid;
        else hi = mid - 1;
      }
      let p = lo;
      while (line < end) {
        const header = s.groupStart[p]! + p;
        if (line === header) {
          const g = s.groupOrder[p]!;
          const items = v.totals[2 * g]!;
          const bytes = v.totals[2 * g + 1]!;
          rows.push({ entityId: '', entity: '', partitionKey: keys[g]!, bytes, attributes: {}, collection: { items, bytes } });
        } else {
          const position = line - p - 1;
          if (position >= s.groupStart[p + 1]!) {
            p += 1;
            continue;
          }
          rows.push(rowOf(v, s.order[position]!));
        }
        line += 1;
      }
      return { total, rows };
    },

    items(view, offset, limit) {
      const v = viewOf(view);
      const s = sortView(v);
      const total = v.groupOf.length;
      const start = clampOffset(offset);
      const end = Math.min(total, start + clampLimit(limit));
      const rows: SampleRow[] = [];
      for (let i = start; i < end; i += 1) rows.push(rowOf(v, s.order[i]!));
      return { total, rows };
    },

    find(view, keyPrefix) {
      const v = viewOf(view);
      const s = sortView(v);
      const keys = keysOf(v);
      const groups = keys.length;
      if (groups === 0) return null;
      const keyAt = (p: number): string => keys[s.groupOrder[p]!]!;
      if (v.pk.length > 1 || v.pk[0]!.type === 'B') {
        // Not in the order of their text (B, or several attributes each in its own type's order): a scan.
        for (let p = 0; p < groups; p += 1) if (keyAt(p).startsWith(keyPrefix)) return s.groupStart[p]! + p;
        return null;
      }
      if (v.pk[0]!.type === 'N') {
        const target = Number(keyPrefix.trim());
        if (keyPrefix.trim() === '' || !Number.isFinite(target)) return null;
        let lo = 0;
        let hi = groups;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (Number(keyAt(mid)) < target) lo = mid + 1;
          else hi = mid;
        }
        return lo < groups && Number(keyAt(lo)) === target ? s.groupStart[lo]! + lo : null;
      }
      let lo = 0;
      let hi = groups;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compareCodePoints(keyAt(mid), keyPrefix) < 0) lo = mid + 1;
        else hi = mid;
      }
      return lo < groups && keyAt(lo).startsWith(keyPrefix) ? s.groupStart[lo]! + lo : null;
    },

    itemAt(view, offset) {
      const v = viewOf(view);
      const s = sortView(v);
      const position = clampOffset(offset);
      if (position >= v.groupOf.length) throw new Error(`Sample view ${JSON.stringify(view)} has ${v.groupOf.length} items; there is no item ${position}.`);
      const { row, attributes } = entryOf(v, s.order[position]!, true);
      const item: Item = {};
      for (const [name, source] of attributes) {
        let value: AttributeValue;
        if (source instanceof CompiledKey) {
          const text = source.render(row);
          value = source.type === 'N' ? { N: text } : source.type === 'B' ? { B: text } : { S: text };
        } else value = source.attributeValue(row);
        item[name] = value;
      }
      return item;
    },

    keysOf(view) {
      const v = viewOf(view);
      // A multi-attribute partition key is hashed as one value: its joined text, a string.
      const { groupItems, groupBytes } = splitTotals(v);
      return { keyType: v.pk.length === 1 ? v.pk[0]!.type : 'S', keys: keysOf(v), keyOfItem: v.groupOf, bytesOfItem: v.entryBytes, itemsPerKey: groupItems, bytesPerKey: groupBytes };
    },

    keyHashes(view) {
      return hashesOf(viewOf(view));
    },

    placement(view, partitionCount) {
      const v = viewOf(view);
      const groups = v.firstMember.length;
      const placement = emptyPlacement(groups, partitionCount);
      if (v.hashes) placeByHash(placement, v.hashes, v.totals, 0, groups);
      else {
        // Hashed a chunk at a time into one small array rather than a whole array of them, which
        // would be fresh memory to fault in (8 bytes a key) for a single pass.
        const chunk = new Float64Array(Math.min(groups, PLACEMENT_CHUNK));
        for (let from = 0; from < groups; from += chunk.length) {
          const to = Math.min(groups, from + chunk.length);
          hashGroups(v, from, to, chunk, 0);
          placeByHash(placement, chunk, v.totals, from, to);
        }
      }
      return placement;
    },

    *collections(view) {
      const v = viewOf(view);
      const keys = keysOf(v);
      for (let g = 0; g < keys.length; g += 1) yield { partitionKey: keys[g]!, items: v.totals[2 * g]!, bytes: v.totals[2 * g + 1]! };
    },
  };
}
