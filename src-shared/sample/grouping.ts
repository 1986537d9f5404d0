/**
 * Grouping items into item collections while they are generated: a grouper per entity and view
 * finds the collection of an item's partition key, by the key's structure where it allows (no key
 * string built; see `groupersFor`) or by the rendered key; `addMembers` adds a chunk of an entity's
 * items to a view, into typed arrays presized for its members and collections (`ViewBuild`).
 */
import { parseDecimal } from '../capacity/index.ts';
import type { KeyAttribute, Projection } from '../model/index.ts';
import type { CompiledKey } from './keys.ts';
import type { EntityData, ViewPlan } from './store-data.ts';
import type { SampleView } from './types.ts';

/** Finds and records the group (item collection) of an item's partition key, by the item's row. */
export interface Grouper {
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
export function viewGroupersFor(entities: readonly EntityData[], plans: readonly (ViewPlan | null)[], partCount: number): (Grouper | undefined)[] {
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

/**
 * Past this many item collections, a view's collection arrays start at it and grow by doubling,
 * rather than being presized to a loose bound (every item its own collection, at 16 bytes each).
 */
const MAX_PRESIZED_GROUPS = 1 << 20;

/** What a view's definition says: its name, kind, key attributes and projection. */
export interface ViewDefinition {
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
export class ViewBuild {
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
export interface MemberJob {
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
export function addMembers(job: MemberJob, sizes: Uint32Array, storedPk: Uint8Array | null, storedSk: Uint8Array | null, offset: number, from: number, to: number): void {
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
export function maskChecks(masks: readonly (Uint8Array | null)[], checked: readonly (Uint8Array | null)[]): { first: Uint8Array | null; second: Uint8Array | null; rest: Uint8Array[] } {
  const distinct = [...new Set(masks.filter((m): m is Uint8Array => m !== null && !checked.includes(m)))];
  return { first: distinct[0] ?? null, second: distinct[1] ?? null, rest: distinct.slice(2) };
}

/** Whether row `r` passes every mask of `rest` (empty for keys of one or two attributes). */
function passesAll(rest: readonly Uint8Array[], r: number): boolean {
  for (let i = 0; i < rest.length; i += 1) if (rest[i]![r] === 0) return false;
  return true;
}
