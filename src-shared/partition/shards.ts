/**
 * How many write shards a hot partition key needs (docs/dynamodb-rules.md §5): enough suffixes that each one's
 * share stays under a partition's limits with headroom, because hashing is not perfectly even, GSIs
 * need their own headroom and split for heat lags.
 */
import { PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND } from './limits.ts';
import { formatCount, formatNumber } from '../numbers/index.ts';
import type { ShardAdvice } from './types.ts';

/** The default headroom; AWS material suggests 1.2–2.0 (docs/dynamodb-rules.md §5). */
export const DEFAULT_SHARD_HEADROOM = 1.25;

export interface ShardRecommendation {
  /** N: the larger of the write and read needs, at least 1. */
  shards: number;
  /** `ceil(WCU/s × headroom / 1000)`. */
  forWrites: number;
  /** `ceil(RCU/s × headroom / 3000)`, RCU counted as strongly consistent reads. */
  forReads: number;
  /** The bare minimum without headroom: `ceil(max(WCU/1000, RCU/3000))`. */
  minimum: number;
  headroom: number;
  /** One sentence: how N was reached. */
  explanation: string;
}

const units = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
// 4,375/1,000 must be 5, but 3,000 × 1.25 / 1,000 must stay 3.75 → 4, never 3.7500000001 → 4 by luck.
const ceilClean = (n: number) => Math.max(1, Math.ceil(n - 1e-9));

/**
 * The shard count N for one logical key taking `writeUnitsPerSecond` WCU/s and
 * `readUnitsPerSecond` RCU/s: `max(ceil(WCU × headroom / 1000), ceil(RCU × headroom / 3000))`
 * (docs/dynamodb-rules.md §5; P-3: 3,500 WCU/s → 5; P-4: 1,000 writes/s of 2.5 KB = 3,000 WCU/s → 4).
 * `headroom` below 1 is taken as 1.
 */
export function recommendShards(writeUnitsPerSecond: number, readUnitsPerSecond = 0, headroom = DEFAULT_SHARD_HEADROOM): ShardRecommendation {
  const h = Number.isFinite(headroom) && headroom >= 1 ? headroom : 1;
  const w = units(writeUnitsPerSecond);
  const r = units(readUnitsPerSecond);
  const forWrites = ceilClean((w * h) / PARTITION_WRITE_UNITS_PER_SECOND);
  const forReads = ceilClean((r * h) / PARTITION_READ_UNITS_PER_SECOND);
  const minimum = ceilClean(Math.max(w / PARTITION_WRITE_UNITS_PER_SECOND, r / PARTITION_READ_UNITS_PER_SECOND));
  const shards = Math.max(forWrites, forReads);
  // Two decimals, or two significant digits for a quotient far below one (0.0023, not 0).
  const fmt = (n: number) => formatNumber(n !== 0 && Math.abs(n) < 0.01 ? Number(n.toPrecision(2)) : Math.round(n * 100) / 100, 6);
  // The direction that takes the larger share of a partition, not merely the larger rounded count.
  const because =
    w / PARTITION_WRITE_UNITS_PER_SECOND >= r / PARTITION_READ_UNITS_PER_SECOND
      ? `${fmt(w)} WCU/s × ${fmt(h)} headroom / 1,000 WCU per partition = ${fmt((w * h) / PARTITION_WRITE_UNITS_PER_SECOND)}`
      : `${fmt(r)} RCU/s × ${fmt(h)} headroom / 3,000 RCU per partition = ${fmt((r * h) / PARTITION_READ_UNITS_PER_SECOND)}`;
  const explanation =
    shards <= 1
      ? `One partition key is enough: ${because}, within one partition's limits.`
      : `${shards} shards: ${because}, rounded up (the bare minimum without headroom is ${minimum}).`;
  return { shards, forWrites, forReads, minimum, headroom: h, explanation };
}

/**
 * Sharding advice for one key from its stated peak (docs/dynamodb-rules.md §5): the bare minimum
 * `ceil(max(peak WCU/1,000, peak RCU/3,000))` and the recommended count with `headroom`. The peak is
 * the workload's as stated (rates, shares, spikes), never the simulator's noisiest second: arrival
 * noise is not load to plan for, and the headroom already covers uneven hashing. The busiest
 * simulated second, when given, is named beside it for information.
 */
export function shardAdvice(
  peakWriteUnitsPerSecond: number,
  peakReadUnitsPerSecond = 0,
  headroom = DEFAULT_SHARD_HEADROOM,
  simulated?: { read: number; write: number },
): ShardAdvice {
  const r = recommendShards(peakWriteUnitsPerSecond, peakReadUnitsPerSecond, headroom);
  const busiest = simulated
    ? ` The busiest simulated second, arrival noise included, offered ${formatCount(simulated.write)} WCU/s and ${formatCount(simulated.read)} RCU/s; that is not planned for.`
    : '';
  return { minimum: r.minimum, recommended: r.shards, headroom: r.headroom, explanation: `From the key's stated peak: ${r.explanation}${busiest}` };
}
