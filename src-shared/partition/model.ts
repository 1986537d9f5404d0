/**
 * From a design to what the simulator runs: per target (the table and each GSI) its capacity, its
 * partition count, its partition-key population (explicit keys with items and bytes, plus a uniform
 * "background" of every other key) and, per access pattern, where that pattern's load lands.
 *
 * More on its rules: docs/modules.md, "src-shared/partition/model.ts".
 */
import { DEFAULT_PRICING } from '../capacity/index.ts';
import { costPatterns } from '../costing/index.ts';
import { kindOf, withValueModel } from '../model/index.ts';
import type { Design, Pricing, Table } from '../model/index.ts';
import { entityCountsOf } from '../planner/index.ts';
import { HASH_DESCRIPTION, type PlacedKey } from './hash.ts';
import { DEFAULT_START, type PartitionCount, type SimulationStart } from './limits.ts';
import { loadSources, storedBytes } from './load-sources.ts';
import { populate } from './population.ts';
import { startingCapacity, targetSpecs } from './targets.ts';
import type { ModelKey, LoadSource, TargetCapacity, PatternModel } from './types.ts';
export type { ModelKey, LoadSource, AutoScaledUnits, TargetCapacity, PatternModel } from './types.ts';

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

  const targets = specs.map((spec): TargetModel => {
    const population = populate(table, spec, refs, options.keys?.[spec.name], assumptions);
    const sources = loadSources(table, spec, population, costs, patterns, assumptions);
    const { capacity, partitions } = startingCapacity(spec, sources, patterns, storedBytes(population), start);
    return {
      name: spec.name,
      kind: spec.kind,
      label: spec.label,
      capacity,
      partitions,
      keys: population.registry.keys,
      background: population.background,
      sources,
      canSplitCollections,
      canIsolateItems,
    };
  });

  assumptions.push(...MODEL_ASSUMPTIONS);
  return { tableName: table.name, hash: HASH_DESCRIPTION, targets, patterns, assumptions };
}

/** The modeling choices every run rests on (docs/dynamodb-rules.md §10), in words. */
export const MODEL_ASSUMPTIONS: readonly string[] = [
  'Partition count at the start: ceil(max(RCU/3,000 + WCU/1,000, size/10 GB)), the historical formula AWS presented in 2016 (a Keyplan assumption: AWS no longer publishes one); on-demand has partitions for what a new table serves (12,000 reads/s: 4 partitions) or, on a warm start, for twice the design\'s load (its previous peak), whichever is more, and adds partitions as its capacity doubles. Partitions are split, never merged.',
  'Without a traffic distribution, requests follow the data: a key holding 10% of the items gets 10% of the requests. "uniform" spreads them evenly over key values; Zipf ranks keys by their items; a hot key is the one with the most items.',
  'Key values come from the key templates and each attribute\'s distinct values (cardinality, enum values and weights, generators); attributes are independent. Large key spaces are modeled as their hottest keys by name plus an even spread of the rest.',
];
