/**
 * A target's partition-key population: per entity its key space (key-space.ts) and the items and
 * bytes on each key, the top-ranked keys tracked by name (explicit) and the rest as a uniform
 * "background" spread over the hash space; or, when a generated sample is given, its keys.
 */
import {
  estimateIndexEntryBytes,
  estimateItemBytes,
  STORAGE_OVERHEAD_BYTES_PER_ITEM,
  indexFraction,
} from '../capacity/index.ts';
import { gsiKeySourceOf } from '../model/index.ts';
import type { Table } from '../model/index.ts';
import type { EntityCounts } from '../planner/index.ts';
import { hashFraction, type PlacedKey } from './hash.ts';
import { keySpaceOf, type KeySpace } from './key-space.ts';
import type { ModelKey } from './types.ts';
import type { TargetSpec } from './targets.ts';
import { formatNumber } from '../numbers/index.ts';

/** A key space with at most this many keys is listed in full. */
export const EXPLICIT_ALL_KEYS = 1024;
/** Otherwise, this many of its top-ranked keys are explicit (and the rest background). */
export const EXPLICIT_TOP_KEYS = 64;
/** Keys taken from a sample store: at most this many (the heaviest) stay explicit. */
export const EXPLICIT_SAMPLE_KEYS = 4096;

/** The registry of a target's explicit keys, merged by value. */
export class KeyRegistry {
  readonly keys: ModelKey[] = [];
  private readonly byValue = new Map<string, number>();

  /** The index of the key with this value, if it is tracked. */
  indexOf(key: string): number | undefined {
    return this.byValue.get(key);
  }

  /** Tracks a key (or adds the items and bytes to the one tracked); returns its index. */
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
export interface RankedKey {
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
export function rankedKeys(space: KeySpace, combos: readonly number[] | undefined, members: number, limit: number): readonly RankedKey[] {
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
      // A large attribute's skew (a hot value, a Zipf spread) weighs its members; else they are even.
      const itemShare = space.memberShare ? (weight * space.memberShare(member)) / space.shards : weight / space.membersPerCombo / space.shards;
      out.push({ combo, member, itemShare });
    }
  }
  return out;
}

/** Every combination of a key space, by index. */
export const allCombos = (space: KeySpace) => space.combos.map((_, i) => i);

/** One target's keys and background, with each entity's key space and bytes per item (storage overhead included). */
export interface Population {
  registry: KeyRegistry;
  background: { items: number; bytes: number; keys: number };
  spaces: Map<string, KeySpace>;
  bytesPerItem: Map<string, number>;
}

/** Items and bytes per key of one target, from the design (or from a sample's keys when given). */
export function populate(table: Table, spec: TargetSpec, refs: EntityCounts, sampleKeys: Iterable<PlacedKey> | undefined, assumptions: string[]): Population {
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
    assumptions.push(`${spec.label}: items and bytes per partition key come from the generated sample (${formatNumber(all.length, 3)} keys).`);
  }
  return { registry, background, spaces, bytesPerItem };
}
