/**
 * From a design to what the simulator runs: per target (the table and each GSI) its capacity, its
 * partition count, its partition-key population (explicit keys with items and bytes, plus a uniform
 * "background" of every other key) and, per access pattern, where that pattern's load lands.
 *
 * Large key spaces are not enumerated: at most a few thousand keys per target are explicit (the
 * hottest by traffic and the heaviest by data); everything else is background mass spread over the
 * hash space in proportion to each partition's range width, which is what a uniform hash does to a
 * large set of keys. So 1,000 partitions and millions of keys cost the same as ten.
 */
import { estimateIndexEntryBytes, estimateItemBytes, STORAGE_OVERHEAD_BYTES_PER_ITEM } from '../capacity/estimate.ts';
import { indexFraction } from '../capacity/index-fraction.ts';
import { DEFAULT_PRICING } from '../capacity/pricing.ts';
import { costPatterns } from '../costing/design-cost.ts';
import { parseKeyTemplate } from '../model/key-template.ts';
import { baselineWarmThroughput, effectiveWarmThroughput, warmThroughputPartitions } from '../capacity/warm-throughput.ts';
import type { AccessPattern, AutoScaling, AutoScalingRange, Design, Distribution, Entity, OnDemandThroughput, Pricing, Table, WarmThroughput } from '../model/schema.ts';
import { kindOf } from '../model/pattern-kinds.ts';
import { entityCountsOf, type EntityCounts } from '../planner/estimate.ts';
import { hashFraction, HASH_DESCRIPTION, type PlacedKey } from './hash.ts';
import { isTimeLike, keySpaceOf, type KeySpace } from './key-space.ts';
import { gsiKeySourceOf } from '../model/key-slots.ts';
import { partitionKeysOf, sortKeysOf } from '../model/gsi-keys.ts';
import { withValueModel } from '../model/value-model.ts';
import {
  DEFAULT_START,
  ON_DEMAND_INITIAL_READ_UNITS,
  PARTITION_READ_UNITS_PER_SECOND,
  partitionCountFor,
  type PartitionCount,
  type SimulationStart,
} from './limits.ts';

/**
 * Each explicit key owns this much of the hash space above its hash, standing for its item
 * collection's sort-key range: split for heat can cut inside it (docs/dynamodb-rules.md §4.6), down to one item.
 */
export const KEY_SPAN = 2 ** -40;
/**
 * Writes under an ever-increasing sort key land this far below the top of their key's range: a few
 * units in the last place of a double near 1 (2^-53), so the point stays inside the key's range
 * after any arithmetic with it.
 */
export const KEY_TOP_OFFSET = KEY_SPAN / 1024;
/** A key space with at most this many keys is listed in full. */
export const EXPLICIT_ALL_KEYS = 1024;
/** Otherwise, this many of its top-ranked keys are explicit (and the rest background). */
export const EXPLICIT_TOP_KEYS = 64;
/** Under Zipf, this many top ranks are explicit: they carry most of the skew. */
export const EXPLICIT_ZIPF_KEYS = 1000;
/** Keys taken from a sample store: at most this many (the heaviest) stay explicit. */
export const EXPLICIT_SAMPLE_KEYS = 4096;

/** One partition-key value the simulator tracks by name. */
export interface ModelKey {
  key: string;
  /** Its hash, as a fraction of the hash space. */
  position: number;
  items: number;
  bytes: number;
  /** The entity whose key template made this value (the first, when several share it). */
  entityId?: string;
}

/** Where one pattern's load on one target lands. Shares sum to 1. */
export interface LoadSource {
  patternIndex: number;
  kind: 'read' | 'write';
  /** Read or write units on this target per pattern call. */
  unitsPerCall: number;
  keys: { key: number; share: number }[];
  /** Share spread over the whole hash space by range width (many keys, none of them hot). */
  background: number;
  /**
   * Whether the pattern's writes follow an ever-increasing sort key under each partition key (a
   * timestamp sort key, or "today" traffic): they land at the top of the key's range, so splitting
   * that range gives no relief (docs/dynamodb-rules.md §4.6).
   */
  isMonotonic: boolean;
}

/** What auto scaling holds for one direction over the run: clamp(ceil(load ÷ target), min, max). */
export interface AutoScaledUnits {
  /** The units the model uses, and the design's initial units it replaces. */
  units: number;
  initial: number;
  loadUnitsPerSecond: number;
  targetUtilizationPercent: number;
  minCapacity: number;
  maxCapacity: number;
}

export type TargetCapacity =
  | { mode: 'provisioned'; readUnitsPerSecond: number; writeUnitsPerSecond: number; autoScaled?: { read?: AutoScaledUnits; write?: AutoScaledUnits } }
  | {
      mode: 'onDemand';
      /** The design's on-demand maximum read request units per second (absent: none). */
      maxReadUnitsPerSecond?: number;
      /** The design's on-demand maximum write request units per second (absent: none). */
      maxWriteUnitsPerSecond?: number;
      /**
       * The warm throughput in effect when the design sets one (a direction not set is the new-table
       * level): read and write units per second served at once, both together, as the Costs screen
       * compares them. Absent: none set.
       */
      warm?: { readUnitsPerSecond: number; writeUnitsPerSecond: number };
    };

/** An on-demand target's capacity: its maximums, when the design sets them. */
function onDemandCapacity(max: OnDemandThroughput | undefined): TargetCapacity {
  return {
    mode: 'onDemand',
    ...(max?.maxReadRequestUnits !== undefined ? { maxReadUnitsPerSecond: max.maxReadRequestUnits } : {}),
    ...(max?.maxWriteRequestUnits !== undefined ? { maxWriteUnitsPerSecond: max.maxWriteRequestUnits } : {}),
  };
}

export interface TargetModel {
  /** `table` or the GSI's name. */
  name: string;
  kind: 'table' | 'gsi';
  /** `Table` or `GSI1`, for sentences. */
  label: string;
  capacity: TargetCapacity;
  partitions: PartitionCount;
  keys: ModelKey[];
  /** Everything not in `keys`, spread evenly over the hash space. */
  background: { items: number; bytes: number; keys: number };
  sources: LoadSource[];
  /**
   * Whether split for heat may cut one item collection by sort key: not with an LSI, and not on a
   * provisioned table with streams (docs/dynamodb-rules.md §4.6).
   */
  canSplitCollections: boolean;
  /**
   * Whether split for heat may isolate a hot partition key from its neighbours (down to one item
   * per partition): not on a provisioned table with Streams enabled (docs/dynamodb-rules.md §4.6).
   */
  canIsolateItems: boolean;
}

export interface PatternModel {
  id: string;
  name: string;
  kind: 'read' | 'write';
  ratePerSecond: number;
}

export interface SimulationModel {
  tableName: string;
  hash: string;
  targets: TargetModel[];
  patterns: PatternModel[];
  assumptions: string[];
}

export interface ModelOptions {
  pricing?: Pricing;
  /**
   * `cold` (default): an on-demand target starts with the partitions of a new table (12,000 reads/s:
   * 4, or more for size); `warm`: with partitions for twice the design's load, its previous peak.
   */
  start?: SimulationStart;
  /**
   * Partition keys from a generated sample, by view (`table` or a GSI name): they replace the
   * design-derived key population (items and bytes) of that target. Traffic still follows the design.
   */
  keys?: Record<string, Iterable<PlacedKey>>;
}

/** Harmonic numbers already computed, by `n s` (a design is modelled again on every edit). */
const harmonics = new Map<string, number>();
/** At most this many remembered; then the memory starts over. */
const MAX_HARMONICS = 256;

/** Σ 1/k^s for k = 1..n: exact up to 100,000 terms, then the integral of the tail. Remembered per (n, s). */
export function harmonic(n: number, s: number): number {
  const id = `${n} ${s}`;
  const known = harmonics.get(id);
  if (known !== undefined) return known;
  const exact = Math.min(n, 100_000);
  let sum = 0;
  for (let k = 1; k <= exact; k += 1) sum += 1 / k ** s;
  if (n > exact) sum += s === 1 ? Math.log(n / exact) : (n ** (1 - s) - exact ** (1 - s)) / (1 - s);
  if (harmonics.size >= MAX_HARMONICS) harmonics.clear();
  harmonics.set(id, sum);
  return sum;
}

/** The registry of a target's explicit keys, merged by value. */
class KeyRegistry {
  readonly keys: ModelKey[] = [];
  private readonly byValue = new Map<string, number>();

  indexOf(key: string): number | undefined {
    return this.byValue.get(key);
  }

  add(key: string, items: number, bytes: number, entityId?: string): number {
    const known = this.byValue.get(key);
    if (known !== undefined) {
      const k = this.keys[known] as ModelKey;
      k.items += items;
      k.bytes += bytes;
      if (k.entityId === undefined && entityId !== undefined) k.entityId = entityId;
      return known;
    }
    const added: ModelKey = { key, position: hashFraction(key), items, bytes };
    if (entityId !== undefined) added.entityId = entityId;
    this.keys.push(added);
    this.byValue.set(key, this.keys.length - 1);
    return this.keys.length - 1;
  }
}

/** A logical key of a space in rank order: its combination, member and the item share of each shard. */
interface RankedKey {
  combo: number;
  member: number;
  /** Share of the entity's items in this target, per shard. */
  itemShare: number;
}

/** Each key space's ranked keys over all its combinations, by `members limit`: every pattern on an entity asks for the same ones. */
const rankedOfSpace = new WeakMap<KeySpace, Map<string, readonly RankedKey[]>>();

/**
 * Logical keys of `space` in rank order (heaviest first), at most `limit`; `combos` may be a subset
 * (today's). Over all combinations (`combos` undefined) the list is made once per space, members and limit.
 */
function rankedKeys(space: KeySpace, combos: readonly number[] | undefined, members: number, limit: number): readonly RankedKey[] {
  if (combos === undefined) {
    let bySize = rankedOfSpace.get(space);
    if (!bySize) rankedOfSpace.set(space, (bySize = new Map()));
    const id = `${members} ${limit}`;
    let ranked = bySize.get(id);
    if (!ranked) bySize.set(id, (ranked = listRankedKeys(space, allCombos(space), members, limit)));
    return ranked;
  }
  return listRankedKeys(space, combos, members, limit);
}

function listRankedKeys(space: KeySpace, combos: readonly number[], members: number, limit: number): RankedKey[] {
  const out: RankedKey[] = [];
  for (const combo of combos) {
    const weight = space.combos[combo]?.weight ?? 0;
    for (let member = 0; member < members; member += 1) {
      if (out.length >= limit) return out;
      out.push({ combo, member, itemShare: weight / space.membersPerCombo / space.shards });
    }
  }
  return out;
}

const allCombos = (space: KeySpace) => space.combos.map((_, i) => i);

/**
 * A table or GSI with warm throughput set: the partitions it implies (`warmThroughputPartitions`,
 * the figure the Costs screen shows) and the read and write units it serves at once
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html).
 */
function warmStart(spec: TargetSpec): { partitions: number; readUnitsPerSecond: number; writeUnitsPerSecond: number } | undefined {
  if (!spec.warm || (spec.warm.readUnitsPerSecond === undefined && spec.warm.writeUnitsPerSecond === undefined)) return undefined;
  const c = spec.capacity;
  const baseline = baselineWarmThroughput(c.mode === 'provisioned' ? { mode: 'PROVISIONED', readCapacityUnits: c.readUnitsPerSecond, writeCapacityUnits: c.writeUnitsPerSecond } : { mode: 'ON_DEMAND' });
  const effective = effectiveWarmThroughput(spec.warm, baseline);
  return { partitions: warmThroughputPartitions(effective).value, readUnitsPerSecond: effective.readUnitsPerSecond, writeUnitsPerSecond: effective.writeUnitsPerSecond };
}

interface TargetSpec {
  name: string;
  kind: 'table' | 'gsi';
  label: string;
  /** The partition key's attributes: one, or a multi-attribute GSI key's (hashed together). */
  partitionKeys: string[];
  /** The first attribute of the sort key: the one that decides where new items sort. */
  sortKey?: string;
  capacity: TargetCapacity;
  autoScaling?: AutoScaling;
  /** The warm throughput the design sets on the table or GSI. */
  warm?: WarmThroughput;
}

function targetSpecs(table: Table, assumptions: string[]): TargetSpec[] {
  const billing = table.billing;
  const specs: TargetSpec[] = [
    {
      name: 'table',
      kind: 'table',
      label: 'Table',
      partitionKeys: [table.partitionKey.name],
      ...(table.sortKey ? { sortKey: table.sortKey.name } : {}),
      capacity:
        billing.mode === 'PROVISIONED'
          ? { mode: 'provisioned', readUnitsPerSecond: billing.readCapacityUnits, writeUnitsPerSecond: billing.writeCapacityUnits }
          : onDemandCapacity(table.onDemandThroughput),
      ...(billing.mode === 'PROVISIONED' && billing.autoScaling ? { autoScaling: billing.autoScaling } : {}),
      ...(table.warmThroughput ? { warm: table.warmThroughput } : {}),
    },
  ];
  for (const g of table.globalSecondaryIndexes) {
    let capacity: TargetCapacity = onDemandCapacity(g.onDemandThroughput);
    let autoScaling: AutoScaling | undefined;
    if (billing.mode === 'PROVISIONED') {
      if (g.provisioned) {
        capacity = { mode: 'provisioned', readUnitsPerSecond: g.provisioned.readCapacityUnits, writeUnitsPerSecond: g.provisioned.writeCapacityUnits };
        autoScaling = g.provisioned.autoScaling;
      } else {
        autoScaling = billing.autoScaling;
        capacity = { mode: 'provisioned', readUnitsPerSecond: billing.readCapacityUnits, writeUnitsPerSecond: billing.writeCapacityUnits };
        assumptions.push(`GSI ${g.name} states no provisioned capacity: it is given the table's (${billing.readCapacityUnits} RCU, ${billing.writeCapacityUnits} WCU).`);
      }
    }
    const sortKey = sortKeysOf(g)[0];
    specs.push({
      name: g.name,
      kind: 'gsi',
      label: g.name,
      partitionKeys: partitionKeysOf(g).map((k) => k.name),
      ...(sortKey ? { sortKey: sortKey.name } : {}),
      capacity,
      ...(autoScaling ? { autoScaling } : {}),
      ...(g.warmThroughput ? { warm: g.warmThroughput } : {}),
    });
  }
  return specs;
}

/** Whether the entity's sort key in this target starts with a date or timestamp: new items sort last. */
function hasTimeOrderedSortKey(entity: Entity, sortKey: string | undefined): boolean {
  if (sortKey === undefined) return false;
  const source = gsiKeySourceOf(entity, sortKey);
  if (!source) return false;
  const parsed = parseKeyTemplate(source.template);
  if (!parsed.ok) return false;
  const first = parsed.value.parts.find((p) => p.kind === 'attribute');
  return first?.kind === 'attribute' && isTimeLike(entity.attributes.find((a) => a.name === first.name), first.name);
}

interface Population {
  registry: KeyRegistry;
  background: { items: number; bytes: number; keys: number };
  spaces: Map<string, KeySpace>;
  bytesPerItem: Map<string, number>;
}

/** Items and bytes per key of one target, from the design (or from a sample's keys when given). */
function populate(table: Table, spec: TargetSpec, refs: EntityCounts, sampleKeys: Iterable<PlacedKey> | undefined, assumptions: string[]): Population {
  const registry = new KeyRegistry();
  const background = { items: 0, bytes: 0, keys: 0 };
  const spaces = new Map<string, KeySpace>();
  const bytesPerItem = new Map<string, number>();
  for (const entity of table.entities) {
    const itemCount = Number.isFinite(entity.itemCount) && entity.itemCount > 0 ? entity.itemCount : 0;
    let items = itemCount;
    if (spec.kind === 'gsi') {
      items = itemCount * indexFraction(table, entity, spec.name).value;
      if (!(items > 0) && spec.partitionKeys.some((k) => !gsiKeySourceOf(entity, k))) continue;
    }
    const space = keySpaceOf(entity, spec.partitionKeys, items, refs);
    if (!space) continue;
    spaces.set(entity.id, space);
    const size = spec.kind === 'table' ? estimateItemBytes(table, entity).value : estimateIndexEntryBytes(table, entity, { kind: 'gsi', name: spec.name }).value;
    bytesPerItem.set(entity.id, size + STORAGE_OVERHEAD_BYTES_PER_ITEM);
    if (sampleKeys) continue;
    const total = space.logicalKeys * space.shards;
    const perItem = size + STORAGE_OVERHEAD_BYTES_PER_ITEM;
    const explicit = rankedKeys(space, undefined, space.membersPerCombo, total <= EXPLICIT_ALL_KEYS ? Infinity : EXPLICIT_TOP_KEYS);
    let placedShare = 0;
    for (const r of explicit) {
      for (let shard = 0; shard < space.shards; shard += 1) {
        registry.add(space.render(r.combo, r.member, shard), items * r.itemShare, items * r.itemShare * perItem, entity.id);
        placedShare += r.itemShare;
      }
    }
    const rest = Math.max(0, 1 - placedShare);
    background.items += items * rest;
    background.bytes += items * rest * perItem;
    background.keys += Math.max(0, total - explicit.length * space.shards);
    for (const a of space.assumptions) if (!assumptions.includes(a)) assumptions.push(a);
  }
  if (sampleKeys) {
    const all = [...sampleKeys].sort((a, b) => b.items - a.items || (a.partitionKey < b.partitionKey ? -1 : 1));
    all.forEach((k, i) => {
      if (i < EXPLICIT_SAMPLE_KEYS) registry.add(k.partitionKey, k.items, k.bytes);
      else {
        background.items += k.items;
        background.bytes += k.bytes;
        background.keys += 1;
      }
    });
    assumptions.push(`${spec.label}: items and bytes per partition key come from the generated sample (${all.length.toLocaleString('en-US')} keys).`);
  }
  return { registry, background, spaces, bytesPerItem };
}

/** Traffic shares over the keys of one space for one distribution; the rest is background. */
function trafficShares(
  space: KeySpace,
  traffic: Distribution | undefined,
  add: (text: string, itemShare: number) => number,
): { keys: { key: number; share: number }[]; background: number; note?: string } {
  const shards = space.shards;
  const total = space.logicalKeys;
  const out: { key: number; share: number }[] = [];
  const push = (r: RankedKey, logicalShare: number) => {
    for (let shard = 0; shard < shards; shard += 1) out.push({ key: add(space.render(r.combo, r.member, shard), r.itemShare), share: logicalShare / shards });
  };
  const listed = (n: number) => (n * shards <= EXPLICIT_ALL_KEYS ? Infinity : EXPLICIT_TOP_KEYS);
  const finish = (note?: string) => {
    const placed = out.reduce((s, k) => s + k.share, 0);
    return { keys: out, background: Math.max(0, 1 - placed), ...(note ? { note } : {}) };
  };
  const byItems = (r: RankedKey) => r.itemShare * shards;

  switch (traffic?.kind) {
    case 'uniform': {
      for (const r of rankedKeys(space, undefined, space.membersPerCombo, listed(total))) push(r, 1 / total);
      return finish();
    }
    case 'zipf': {
      const h = harmonic(total, traffic.exponent);
      rankedKeys(space, undefined, space.membersPerCombo, Math.min(total, EXPLICIT_ZIPF_KEYS)).forEach((r, i) => push(r, 1 / (i + 1) ** traffic.exponent / h));
      return finish();
    }
    case 'hotKey': {
      const ranked = rankedKeys(space, undefined, space.membersPerCombo, listed(total));
      const first = ranked[0];
      if (!first) return finish();
      const firstItems = byItems(first);
      ranked.forEach((r, i) => {
        if (i === 0) push(r, total === 1 ? 1 : traffic.share);
        else push(r, firstItems < 1 ? ((1 - traffic.share) * byItems(r)) / (1 - firstItems) : 0);
      });
      if (total === 1) return finish();
      // The rest of the keys share what is left in proportion to their items, as background.
      const placed = out.reduce((s, k) => s + k.share, 0);
      return { keys: out, background: Math.max(0, 1 - placed) };
    }
    case 'today': {
      const time = space.timeAttribute;
      if (time) {
        const combos = allCombos(space).filter((c) => space.combos[c]?.values[time.name] === time.newest);
        const weight = combos.reduce((s, c) => s + (space.combos[c]?.weight ?? 0), 0);
        for (const r of rankedKeys(space, combos, space.membersPerCombo, listed(combos.length * space.membersPerCombo))) {
          push(r, weight > 0 ? (space.combos[r.combo]?.weight ?? 0) / weight / space.membersPerCombo : 0);
        }
        return finish();
      }
      const large = space.large.find((d) => d.isTimeLike);
      if (large) {
        // Today's keys: every combination with the time attribute fixed at its newest value.
        const perCombo = Math.max(1, Math.floor(space.membersPerCombo / Math.max(1, Math.min(large.count, space.membersPerCombo))));
        for (const r of rankedKeys(space, undefined, perCombo, listed(space.combos.length * perCombo))) {
          const share = (space.combos[r.combo]?.weight ?? 0) / perCombo;
          for (let shard = 0; shard < shards; shard += 1) out.push({ key: add(space.render(r.combo, r.member, shard, 0), r.itemShare), share: share / shards });
        }
        return finish();
      }
      const note = `"${space.template}" has no date or timestamp: "today" traffic follows the items, with new items at the top of each key's sort order.`;
      for (const r of rankedKeys(space, undefined, space.membersPerCombo, listed(total))) push(r, byItems(r));
      return finish(note);
    }
    default: {
      for (const r of rankedKeys(space, undefined, space.membersPerCombo, listed(total))) push(r, byItems(r));
      return finish();
    }
  }
}

/**
 * The simulation model of one table: per target its capacity, partition count, keys and load
 * sources; per pattern its rate. Pure and deterministic; a table without patterns gives targets
 * without sources.
 */
export function buildSimulationModel(design: Design, designTable: Table, options: ModelOptions = {}): SimulationModel {
  // The same value model as the planner, the costs and the sample data (conditions' values, name pools, presence).
  const table = withValueModel(designTable);
  const pricing = options.pricing ?? design.pricing ?? DEFAULT_PRICING;
  const assumptions: string[] = [];
  const refs = entityCountsOf(table);
  const costs = costPatterns(table, pricing);
  const specs = targetSpecs(table, assumptions);
  const canIsolateItems = !(table.billing.mode === 'PROVISIONED' && table.stream !== undefined);
  const canSplitCollections = table.localSecondaryIndexes.length === 0 && canIsolateItems;
  const start = options.start ?? DEFAULT_START;

  const patterns: PatternModel[] = table.accessPatterns.map((p) => ({
    id: p.id,
    name: p.name,
    kind: kindOf(p.action).family,
    ratePerSecond: Number.isFinite(p.ratePerSecond) && p.ratePerSecond > 0 ? p.ratePerSecond : 0,
  }));

  const targets: TargetModel[] = specs.map((spec) => {
    const population = populate(table, spec, refs, options.keys?.[spec.name], assumptions);
    const { registry, background } = population;
    const sources: LoadSource[] = [];
    const scans: { patternIndex: number; kind: 'read' | 'write'; unitsPerCall: number }[] = [];
    const onTarget = (t: 'table' | { gsi: string }) => (spec.kind === 'table' ? t === 'table' : typeof t === 'object' && t.gsi === spec.name);
    // The patterns on one entity mostly share a distribution: each (key space, distribution) is
    // worked out once; again it would find every key already tracked and give the same shares.
    const sharesOf = new Map<KeySpace, Map<string, ReturnType<typeof trafficShares>>>();

    costs.forEach((cost, patternIndex) => {
      const pattern = table.accessPatterns[patternIndex] as AccessPattern;
      const rate = patterns[patternIndex]?.ratePerSecond ?? 0;
      if (rate <= 0) return;
      for (const c of cost.consumption.filter((x) => onTarget(x.target))) {
        const units = cost.kind === 'read' ? c.readUnitsPerSecond : c.writeUnitsPerSecond;
        if (!(units > 0)) continue;
        const unitsPerCall = units / rate;
        if (cost.plan.operation === 'Scan') {
          scans.push({ patternIndex, kind: cost.kind, unitsPerCall });
          continue;
        }
        const entity = table.entities.find((e) => e.id === pattern.entityId);
        // Reads on an LSI use the table's partition key, like the table's own reads.
        const space = entity ? population.spaces.get(entity.id) : undefined;
        if (!entity || !space) {
          // A write on an entity without a key here (should not be charged) or an unknown entity: spread it.
          sources.push({ patternIndex, kind: cost.kind, unitsPerCall, keys: [], background: 1, isMonotonic: false });
          continue;
        }
        const perItem = population.bytesPerItem.get(entity.id) ?? 0;
        const add = (text: string, itemShare: number): number => {
          const known = registry.indexOf(text);
          if (known !== undefined) {
            const k = registry.keys[known] as ModelKey;
            if (k.entityId === undefined) k.entityId = entity.id;
            return known;
          }
          // A key taken out of the background to be tracked by name carries its items with it.
          const items = space.items * itemShare;
          const moved = Math.min(items, background.items);
          background.items -= moved;
          background.bytes = Math.max(0, background.bytes - moved * perItem);
          background.keys = Math.max(0, background.keys - 1);
          return registry.add(text, moved, moved * perItem, entity.id);
        };
        const distribution = JSON.stringify(pattern.traffic ?? null);
        let bySpace = sharesOf.get(space);
        if (!bySpace) sharesOf.set(space, (bySpace = new Map()));
        let shares = bySpace.get(distribution);
        if (!shares) bySpace.set(distribution, (shares = trafficShares(space, pattern.traffic, add)));
        if (shares.note && !assumptions.includes(shares.note)) assumptions.push(shares.note);
        const isMonotonic = pattern.traffic?.kind === 'today' || (kindOf(pattern.action).creates && hasTimeOrderedSortKey(entity, spec.sortKey));
        sources.push({ patternIndex, kind: cost.kind, unitsPerCall, keys: mergeShares(shares.keys), background: shares.background, isMonotonic });
      }
    });

    // A Scan reads every partition in proportion to the data it holds.
    const totalBytes = registry.keys.reduce((s, k) => s + k.bytes, 0) + background.bytes;
    for (const scan of scans) {
      const keys = totalBytes > 0 ? registry.keys.map((k, key) => ({ key, share: k.bytes / totalBytes })).filter((k) => k.share > 0) : [];
      sources.push({ ...scan, keys, background: totalBytes > 0 ? background.bytes / totalBytes : 1, isMonotonic: false });
    }
    sources.sort((a, b) => a.patternIndex - b.patternIndex);

    const bytes = totalBytes;
    let reads = 0;
    let writes = 0;
    for (const s of sources) {
      const load = s.unitsPerCall * (patterns[s.patternIndex]?.ratePerSecond ?? 0);
      if (s.kind === 'read') reads += load;
      else writes += load;
    }
    let partitions: PartitionCount;
    let capacity = spec.capacity;
    // Warm throughput set: the table or GSI starts with the partitions it implies, as the Costs screen counts them.
    const warm = warmStart(spec);
    if (capacity.mode === 'provisioned') {
      const initial = { readUnitsPerSecond: capacity.readUnitsPerSecond, writeUnitsPerSecond: capacity.writeUnitsPerSecond };
      capacity = autoScaledCapacity(capacity, spec.autoScaling, reads, writes);
      // Partitions are never merged: the table keeps what its created capacity needed (docs/dynamodb-rules.md §4.1).
      partitions = partitionCountFor({
        readUnitsPerSecond: Math.max(initial.readUnitsPerSecond, capacity.readUnitsPerSecond),
        writeUnitsPerSecond: Math.max(initial.writeUnitsPerSecond, capacity.writeUnitsPerSecond),
        bytes,
      });
      if (warm && warm.partitions > partitions.partitionsForThroughput) {
        partitions = { ...partitions, partitionsForThroughput: warm.partitions, partitionCount: Math.max(partitions.partitionCount, warm.partitions) };
      }
    } else {
      // A new on-demand table serves 12,000 reads/s at once (4 partitions). Twice its previous peak
      // at once: a warm table that has run at the design's load has partitions for twice that load.
      const load = partitionCountFor({ readUnitsPerSecond: reads, writeUnitsPerSecond: writes, bytes });
      const initial = ON_DEMAND_INITIAL_READ_UNITS / PARTITION_READ_UNITS_PER_SECOND;
      const forThroughput = Math.max(start === 'warm' ? Math.max(initial, 2 * load.partitionsForThroughput) : initial, warm?.partitions ?? 0);
      if (warm) capacity = { ...capacity, warm: { readUnitsPerSecond: warm.readUnitsPerSecond, writeUnitsPerSecond: warm.writeUnitsPerSecond } };
      partitions = { partitionsForSize: load.partitionsForSize, partitionsForThroughput: forThroughput, partitionCount: Math.max(1, Math.ceil(Math.max(forThroughput, load.partitionsForSize) - 1e-9)) };
    }
    return {
      name: spec.name,
      kind: spec.kind,
      label: spec.label,
      capacity,
      partitions,
      keys: registry.keys,
      background,
      sources,
      canSplitCollections,
      canIsolateItems,
    };
  });

  assumptions.push(...MODEL_ASSUMPTIONS);
  return { tableName: table.name, hash: HASH_DESCRIPTION, targets, patterns, assumptions };
}

/**
 * Provisioned capacity under auto scaling: per direction that scales, what it holds for the
 * design's base load, clamp(ceil(load ÷ target utilization), min, max) (DG "Managing throughput
 * capacity automatically with DynamoDB auto scaling"). It does not follow the run's spikes: a
 * Keyplan simplification the summary states.
 */
export function autoScaledCapacity(
  capacity: Extract<TargetCapacity, { mode: 'provisioned' }>,
  autoScaling: AutoScaling | undefined,
  readUnitsPerSecond: number,
  writeUnitsPerSecond: number,
): Extract<TargetCapacity, { mode: 'provisioned' }> {
  if (!autoScaling?.read && !autoScaling?.write) return capacity;
  const held = (range: AutoScalingRange | undefined, load: number, initial: number): AutoScaledUnits | undefined => {
    if (!range) return undefined;
    const target = Math.min(100, Math.max(1, range.targetUtilizationPercent)) / 100;
    const min = Math.max(1, range.minCapacity);
    const max = Math.max(min, range.maxCapacity);
    const units = Math.min(max, Math.max(min, Math.ceil(load / target - 1e-9)));
    return { units, initial, loadUnitsPerSecond: load, targetUtilizationPercent: range.targetUtilizationPercent, minCapacity: min, maxCapacity: max };
  };
  const read = held(autoScaling.read, readUnitsPerSecond, capacity.readUnitsPerSecond);
  const write = held(autoScaling.write, writeUnitsPerSecond, capacity.writeUnitsPerSecond);
  return {
    mode: 'provisioned',
    readUnitsPerSecond: read?.units ?? capacity.readUnitsPerSecond,
    writeUnitsPerSecond: write?.units ?? capacity.writeUnitsPerSecond,
    autoScaled: { ...(read ? { read } : {}), ...(write ? { write } : {}) },
  };
}

/** Per registry key, the last `mergeShares` call that saw it (reused between calls, grown as needed). */
let seenBy = new Int32Array(1024);
let mergeCall = 0;

/** One entry per key, shares of a key listed twice added up (in order of first appearance), none of 0. */
function mergeShares(keys: { key: number; share: number }[]): { key: number; share: number }[] {
  // Most lists name each key once: then there is nothing to merge.
  mergeCall += 1;
  let isDistinct = true;
  for (const k of keys) {
    if (k.key >= seenBy.length) {
      const grown = new Int32Array(Math.max(2 * seenBy.length, k.key + 1));
      grown.set(seenBy);
      seenBy = grown;
    }
    if (seenBy[k.key] === mergeCall) {
      isDistinct = false;
      break;
    }
    seenBy[k.key] = mergeCall;
  }
  if (isDistinct) return keys.every((k) => k.share > 0) ? keys : keys.filter((k) => k.share > 0);
  const merged = new Map<number, number>();
  for (const k of keys) merged.set(k.key, (merged.get(k.key) ?? 0) + k.share);
  return [...merged].map(([key, share]) => ({ key, share })).filter((k) => k.share > 0);
}

/** The modeling choices every run rests on (docs/dynamodb-rules.md §10), in words. */
export const MODEL_ASSUMPTIONS: readonly string[] = [
  'Partition count at the start: ceil(max(RCU/3,000 + WCU/1,000, size/10 GB)), the historical formula AWS presented in 2016 (a Keyplan assumption: AWS no longer publishes one); on-demand has partitions for what a new table serves (12,000 reads/s: 4 partitions) or, on a warm start, for twice the design\'s load (its previous peak), whichever is more, and adds partitions as its capacity doubles. Partitions are split, never merged.',
  'Without a traffic distribution, requests follow the data: a key holding 10% of the items gets 10% of the requests. "uniform" spreads them evenly over key values; Zipf ranks keys by their items; a hot key is the one with the most items.',
  'Key values come from the key templates and each attribute\'s distinct values (cardinality, enum values and weights, generators); attributes are independent. Large key spaces are modeled as their hottest keys by name plus an even spread of the rest.',
];
