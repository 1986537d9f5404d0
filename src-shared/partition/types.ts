import type { PartitionLimitModel, SimulationStart } from './limits.ts';

/**
 * What the partition simulator reports for a design: per table and GSI, how items and load spread
 * over partitions, where and why requests throttle, and which keys run hot. Shared by the host (which
 * runs it in a worker), the partitions screen, the CLI and the comparison.
 */

/** DynamoDB's throttling reasons (docs/dynamodb-rules.md §4.7): `<Table|Index><Read|Write><LimitType>`. */
export type ThrottlingReason = `${'Table' | 'Index'}${'Read' | 'Write'}${'KeyRangeThroughputExceeded' | 'ProvisionedThroughputExceeded' | 'AccountLimitExceeded' | 'MaxOnDemandThroughputExceeded'}`;

export interface PartitionStat {
  /** 0-based, in hash-range order (the heat map's column). */
  index: number;
  /** The partition's hash range as fractions of the hash space, [start, end). */
  range: [number, number];
  items: number;
  bytes: number;
  /** Average offered load over the run. */
  readUnitsPerSecond: number;
  writeUnitsPerSecond: number;
  /** Highest offered load in any step. */
  peakReadUnitsPerSecond: number;
  peakWriteUnitsPerSecond: number;
  throttledRequests: number;
}

export interface HotKey {
  key: string;
  /** The partition carrying most of this key's load at the end of the run. */
  partition: number;
  /**
   * Share of the target's load on this key, 0..1. Reads and writes are weighed by what a partition
   * serves (R/3,000 + W/1,000), so 3 RCU count as much as 1 WCU.
   */
  share: number;
  /** Average offered load over the run. */
  readUnitsPerSecond: number;
  writeUnitsPerSecond: number;
  /** Offered load in the key's busiest simulated step (its busiest second at one-second steps), arrival noise included. */
  peakReadUnitsPerSecond: number;
  peakWriteUnitsPerSecond: number;
  /**
   * The key's load in the busiest second of the workload as stated (rates, shares, spikes and ramps),
   * without the simulator's arrival noise: what sharding must carry.
   */
  statedPeakReadUnitsPerSecond: number;
  statedPeakWriteUnitsPerSecond: number;
  /** Share of this key's offered units that throttled, 0..1. */
  throttledFraction: number;
  /** What DynamoDB would report for this key's throttled requests. */
  reasons: ThrottlingReason[];
  /** The entity whose key template makes this value, when known. */
  entityId?: string;
}

/** Write-sharding advice for one key, from its stated peak (docs/dynamodb-rules.md §5). */
export interface ShardAdvice {
  /** ceil(max(peak WCU/1,000, peak RCU/3,000)) of the stated peak: no headroom. */
  minimum: number;
  /** max(ceil(peak WCU × headroom / 1,000), ceil(peak RCU × headroom / 3,000)). */
  recommended: number;
  headroom: number;
  explanation: string;
}

/** A key whose requests throttled in the run, why, and how many shards its peak needs. */
export interface ThrottledKey extends HotKey {
  /** Which limit, in words: "peak 5,000 WCU/s against one partition's 1,000 WCU/s". */
  limit: string;
  shards: ShardAdvice;
}

export interface TargetResult {
  /** `table` or the GSI's name. */
  name: string;
  kind: 'table' | 'gsi';
  partitionCount: number;
  partitionsForSize: number;
  partitionsForThroughput: number;
  /**
   * Where the partitions came from; the four counts add up to `partitionCount`: the start (the
   * larger of `partitionsForThroughput` and `partitionsForSize`, rounded up), on-demand scaling as
   * the previous peak doubled (first at `firstScaleOutSecond`), and splits for heat before the run
   * (a warm start) and during it.
   */
  partitionOrigins?: { atStart: number; onDemandScaling: number; splitsBeforeRun: number; splitsDuringRun: number; firstScaleOutSecond?: number };
  partitions: PartitionStat[];
  hottestKeys: HotKey[];
  /** The largest partition's share of the target's load (weighed as in `HotKey.share`), 0..1. */
  largestShare: number;
  /** The index of that partition (the one `largestShare` speaks of). */
  largestPartition: number;
  /** Keys whose requests throttled, worst first (at most `HOTTEST_KEYS`), with their peaks and shard advice. */
  throttledKeys: ThrottledKey[];
  /** Keys carrying traffic: how many are tracked by name, and how many more the run spreads evenly as background. */
  keysWithTraffic: { named: number; background: number };
  /**
   * Utilization per time bucket (rows) and partition (columns): offered ÷ the partition's limit
   * (max(R/3,000, W/1,000), or R/3,000 + W/1,000 under the linear model), the worst step of the bucket,
   * for the heat map. At most 120 buckets. A partition made by a split shows its parent's history
   * before the split. `throttled`: throttled requests per bucket and partition.
   */
  heat: { bucketSeconds: number; values: number[][]; throttled?: number[][] };
  throttles: { reason: ThrottlingReason; requests: number }[];
  /** Share of the run's time steps in which some request on this target throttled, 0..1. */
  throttledTimeShare: number;
  /** Plain-language findings ("GSI1 partition 3 takes 92% of writes, key STATUS#PENDING"). */
  summary: string[];
  /** `Table` or the GSI's name, as the sentences say it. */
  label?: string;
  /** What the target can serve: provisioned units (shared evenly over partitions) or on-demand. */
  capacity?:
    | { mode: 'provisioned'; readUnitsPerSecond: number; writeUnitsPerSecond: number }
    | { mode: 'onDemand'; maxReadUnitsPerSecond?: number; maxWriteUnitsPerSecond?: number };
  /** Splits for heat during the run, and the ones that would have given no relief. */
  splits?: { second: number; partition: number; at?: number; refused?: 'monotonic' | 'oneKey' | 'collection' | 'streams'; key?: string }[];
  /** Set when the simulator's partition cap (8,192) stopped a split or scale-out: when, and how many were wanted. */
  capped?: { second: number; wanted: number; cap: number };
}

export interface PatternResult {
  patternId: string;
  name: string;
  requests: number;
  throttled: number;
  /** throttled ÷ requests, 0..1. */
  throttledFraction: number;
  reasons: ThrottlingReason[];
  /** Requests and throttled requests per time bucket (the heat map's buckets). */
  timeline?: { bucketSeconds: number; requests: number[]; throttled: number[] };
}

export interface SimulationResult {
  seed: number;
  tableName: string;
  durationSeconds: number;
  stepSeconds: number;
  /** The hash used to place partition keys, as stated to the user. */
  hash: string;
  /** Whether the run started as a new table (`cold`) or one that has run the base load before (`warm`). */
  start: SimulationStart;
  /** How a partition's read and write limits combined in the run. */
  partitionLimits: PartitionLimitModel;
  targets: TargetResult[];
  patterns: PatternResult[];
  /** Modeling assumptions (docs/dynamodb-rules.md §10) the numbers rest on. */
  assumptions: string[];
}

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

export interface PatternModel {
  id: string;
  name: string;
  kind: 'read' | 'write';
  ratePerSecond: number;
}
