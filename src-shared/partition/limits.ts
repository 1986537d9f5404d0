/**
 * DynamoDB's partition limits and the simulator's modeling constants, each with its source. Values
 * marked [ASSUME] are not published by AWS (docs/dynamodb-rules.md §10) and are stated to the user
 * as assumptions.
 */

// One home for these limits: the warm-throughput estimates (capacity/warm-throughput.ts) use the same numbers.
import {
  NEW_ON_DEMAND_READ_UNITS_PER_SECOND,
  NEW_ON_DEMAND_WRITE_UNITS_PER_SECOND,
  ON_DEMAND_INSTANT_PEAK_MULTIPLE,
  PARTITION_READ_UNITS_PER_SECOND,
  PARTITION_WRITE_UNITS_PER_SECOND,
} from '../capacity/index.ts';

export { PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND };
/** Data one partition holds before it splits: 10 GB, counted in binary units like DynamoDB's sizes (docs/dynamodb-rules.md §4.1). */
export const PARTITION_BYTES = 10 * 1_073_741_824;

/** Seconds of unused provisioned capacity a burst can spend (docs/dynamodb-rules.md §4.5). */
export const BURST_SECONDS = 300;

/** [ASSUME, docs/dynamodb-rules.md §10.3] A partition running above this share of its limit for `SPLIT_AFTER_SECONDS` splits for heat. */
export const SPLIT_UTILIZATION = 0.8;
/** [ASSUME, docs/dynamodb-rules.md §10.3] How long a partition must run hot before it splits, in seconds. */
export const SPLIT_AFTER_SECONDS = 300;
/**
 * [ASSUME, docs/dynamodb-rules.md §10.3] Cutting inside one partition key's item collection gives no relief when at
 * least this share of that key's load sits at the top of its sort-key range (an ever-increasing sort key):
 * wherever the cut falls, the newest writes stay together (docs/dynamodb-rules.md §4.6).
 */
export const USELESS_SPLIT_SHARE = 0.9;
/**
 * [ASSUME, docs/dynamodb-rules.md §10.3] A split that would move less than this share of a partition's load to
 * the other half is not made: it relieves nothing. Anything more is made, so a hot item is isolated
 * from its neighbours even when they carry a small share of the partition's load.
 */
export const MIN_SPLIT_RELIEF_SHARE = 0.001;
/**
 * A bound on partitions per table or GSI (a Keyplan limit, not DynamoDB's), so a pathological
 * design cannot grow the state without end. A run that reaches it says so.
 */
export const MAX_PARTITIONS = 8192;

/**
 * How a partition's read and write limits combine. `independent` (the default): 3,000 RCU/s and
 * 1,000 WCU/s are separate limits, so reads never throttle writes (Developer Guide, "Partitions and
 * data distribution"); `linear`: R/3,000 + W/1,000 ≤ 1, the stricter reading of a Knowledge Center
 * article (docs/dynamodb-rules.md §4.1).
 */
export type PartitionLimitModel = 'independent' | 'linear';
/** The default of `PartitionLimitModel`. */
export const DEFAULT_PARTITION_LIMITS: PartitionLimitModel = 'independent';

/**
 * How the run starts. `cold` (the default, for a design never deployed): a new table at its
 * documented initial capacity, growing only by split for heat and on-demand's doubling of the
 * previous peak. `warm`: the table has run at the design's base load before (docs/dynamodb-rules.md §4.3, §4.4).
 */
export type SimulationStart = 'cold' | 'warm';
/** The default of `SimulationStart`: a Keyplan design has not been deployed. */
export const DEFAULT_START: SimulationStart = 'cold';

/** A new on-demand table instantly serves 12,000 read or 4,000 write units/s, or a linear combination (docs/dynamodb-rules.md §4.3). */
export const ON_DEMAND_INITIAL_READ_UNITS = NEW_ON_DEMAND_READ_UNITS_PER_SECOND;
export const ON_DEMAND_INITIAL_WRITE_UNITS = NEW_ON_DEMAND_WRITE_UNITS_PER_SECOND;
/** On-demand instantly serves up to twice the previous peak (docs/dynamodb-rules.md §4.3). */
export const ON_DEMAND_PEAK_MULTIPLE = ON_DEMAND_INSTANT_PEAK_MULTIPLE;
/**
 * [ASSUME, docs/dynamodb-rules.md §4.3] Growth past twice the previous peak within 30 minutes may
 * throttle: a peak counts as "previous" once it is 30 minutes old, so capacity can double every 30
 * minutes.
 */
export const ON_DEMAND_PEAK_AGE_SECONDS = 1800;
/** Default per-table account quota on-demand: 40,000 read and 40,000 write request units/s (docs/dynamodb-rules.md §4.3). */
export const ON_DEMAND_ACCOUNT_READ_UNITS = 40_000;
export const ON_DEMAND_ACCOUNT_WRITE_UNITS = 40_000;

/** Partition counts from size and throughput (docs/dynamodb-rules.md §4.2, a historical formula used as a starting estimate). */
export interface PartitionCount {
  partitionsForSize: number;
  partitionsForThroughput: number;
  partitionCount: number;
}

/**
 * `ceil(max(RCU/3000 + WCU/1000, bytes/10 GB))`, at least 1 (docs/dynamodb-rules.md §4.2, P-1). The two parts are
 * returned unrounded, as the formula's terms.
 */
export function partitionCountFor(input: { readUnitsPerSecond: number; writeUnitsPerSecond: number; bytes: number }): PartitionCount {
  const nonNegative = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
  const partitionsForThroughput =
    nonNegative(input.readUnitsPerSecond) / PARTITION_READ_UNITS_PER_SECOND + nonNegative(input.writeUnitsPerSecond) / PARTITION_WRITE_UNITS_PER_SECOND;
  const partitionsForSize = nonNegative(input.bytes) / PARTITION_BYTES;
  // Float noise (10,000/3,000 + 2 = 5.333…) must not push an exact count up by one.
  const count = Math.ceil(Math.max(partitionsForThroughput, partitionsForSize) - 1e-9);
  return { partitionsForSize, partitionsForThroughput, partitionCount: Math.max(1, count) };
}

/**
 * What an on-demand table or GSI serves instantly without pre-warming, in write-equivalent units/s
 * (a read unit is a third of a write unit, as in the 12,000 R / 4,000 W linear combination): the
 * new-table level or twice the previous peak, whichever is more; the partitions it scales out to
 * serve it (docs/dynamodb-rules.md §4.3, P-5, P-6). Warm throughput adds to what is served at once,
 * not to this (`serve.ts`).
 */
export function onDemandInstantCapacity(previousPeakWriteEquivalents: number): number {
  const peak = Number.isFinite(previousPeakWriteEquivalents) && previousPeakWriteEquivalents > 0 ? previousPeakWriteEquivalents : 0;
  return Math.max(ON_DEMAND_INITIAL_WRITE_UNITS, ON_DEMAND_PEAK_MULTIPLE * peak);
}

/** Reads and writes as write-equivalent units: what the linear-combination limits compare. */
export function writeEquivalents(readUnits: number, writeUnits: number): number {
  return readUnits / (PARTITION_READ_UNITS_PER_SECOND / PARTITION_WRITE_UNITS_PER_SECOND) + writeUnits;
}

/**
 * Load as a share of one partition's limits taken together, R/3,000 + W/1,000: how keys and
 * partitions are weighed against each other (3 RCU count as much as 1 WCU) in the report and when a
 * split looks for the middle of a partition's load.
 */
export function capacityUnits(readUnits: number, writeUnits: number): number {
  return readUnits / PARTITION_READ_UNITS_PER_SECOND + writeUnits / PARTITION_WRITE_UNITS_PER_SECOND;
}

/**
 * A partition's utilization, offered load ÷ its limit (1 = at the limit): under `independent`
 * limits the larger of R/3,000 and W/1,000, under `linear` their sum (docs/dynamodb-rules.md §4.1).
 */
export function partitionUtilization(readUnits: number, writeUnits: number, model: PartitionLimitModel = DEFAULT_PARTITION_LIMITS): number {
  const r = readUnits / PARTITION_READ_UNITS_PER_SECOND;
  const w = writeUnits / PARTITION_WRITE_UNITS_PER_SECOND;
  return model === 'linear' ? r + w : Math.max(r, w);
}
