/**
 * Warm throughput: the read and write units per second a table or GSI can serve at once
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html), the
 * partitions it implies and what pre-warming to it costs once. AWS publishes neither a partition
 * count nor a pre-warming price, so both figures are estimates and say so, with their basis
 * (docs/dynamodb-rules.md §4.2, §4.4).
 */
import type { Pricing, TableClass, WarmThroughput } from '../model/index.ts';
import { figure, formatNumber, type Figure, type Step } from './figure.ts';
import { roundUsd } from './pricing.ts';
import { AWS_DOCS } from './sources.ts';
import { formatUsdExact } from '../numbers/index.ts';

/** Read units one partition serves per second (docs/dynamodb-rules.md §4.1). */
export const PARTITION_READ_UNITS_PER_SECOND = 3000;
/** Write units one partition serves per second (docs/dynamodb-rules.md §4.1). */
export const PARTITION_WRITE_UNITS_PER_SECOND = 1000;

/**
 * The warm throughput of a new on-demand table, and of a new GSI of one, without pre-warming: 12,000
 * read and 4,000 write units per second (docs/dynamodb-rules.md §4.3, §4.4).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html
 */
export const NEW_ON_DEMAND_READ_UNITS_PER_SECOND = 12_000;
/** See `NEW_ON_DEMAND_READ_UNITS_PER_SECOND`. */
export const NEW_ON_DEMAND_WRITE_UNITS_PER_SECOND = 4_000;

/** On-demand serves up to twice its previous peak at once; more within 30 minutes may throttle (docs/dynamodb-rules.md §4.3). */
export const ON_DEMAND_INSTANT_PEAK_MULTIPLE = 2;

/**
 * [ESTIMATE] The hours of provisioned capacity the pre-warming estimate prices. AWS's own way to
 * pre-warm an on-demand table before warm throughput existed was to provision the peak, hold it a
 * few minutes and switch back, paying for that capacity meanwhile; provisioned capacity is billed by
 * the hour, so one hour is the least that method costs.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/pre-warming-on-demand-capacity-mode.html
 */
export const PRE_WARM_ESTIMATE_HOURS = 1;

/** What the warm-throughput figures rest on, shown beside them. */
export const WARM_THROUGHPUT_ASSUMPTIONS = {
  partitions:
    'Estimate: AWS does not publish how many partitions a table has. Warm throughput reads like the new-table level AWS states, 12,000 reads or 4,000 writes a second "or a linear combination of the two", so the count is what serves the larger of the two alone, ceil(max(read units ÷ 3,000, write units ÷ 1,000)): 4 for a new on-demand table, as the partition simulator starts it (docs/dynamodb-rules.md §4.3, §10.2). DynamoDB may hold more or fewer.',
  provisionedPartitions:
    'Estimate: AWS does not publish how many partitions a table has. With no warm throughput set, a provisioned table starts with the partitions of its provisioned capacity, the historical formula ceil(RCU ÷ 3,000 + WCU ÷ 1,000) from a 2016 AWS talk (docs/dynamodb-rules.md §4.2), as the partition simulator starts it. DynamoDB may hold more or fewer.',
  preWarmPrice:
    'Estimate: AWS charges for raising warm throughput above what a table has for free, but publishes no price. Keyplan prices the raise as one hour of provisioned capacity of the same units, the cost of the pre-warming AWS describes for on-demand tables (provision the peak, then switch back): https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/pre-warming-on-demand-capacity-mode.html',
  hotKeys: 'Warm throughput does not raise what one partition serves (3,000 read and 1,000 write units per second): a hot key still throttles below it.',
} as const;

/** The warm throughput a table or GSI has without pre-warming, and why. */
export interface WarmBaseline {
  /** Where the baseline comes from: a new on-demand table's level, or the provisioned capacity. */
  kind: 'onDemand' | 'provisioned';
  readUnitsPerSecond: number;
  writeUnitsPerSecond: number;
  /** `the default of a new on-demand table` or `its provisioned capacity`. */
  basis: string;
}

/**
 * What a table or GSI can serve at once without pre-warming: a new on-demand one 12,000 read and
 * 4,000 write units per second; a provisioned one the capacity it is created with
 * (docs/dynamodb-rules.md §4.4).
 */
export function baselineWarmThroughput(capacity: { mode: 'ON_DEMAND' } | { mode: 'PROVISIONED'; readCapacityUnits: number; writeCapacityUnits: number }): WarmBaseline {
  if (capacity.mode === 'ON_DEMAND') {
    return { kind: 'onDemand', readUnitsPerSecond: NEW_ON_DEMAND_READ_UNITS_PER_SECOND, writeUnitsPerSecond: NEW_ON_DEMAND_WRITE_UNITS_PER_SECOND, basis: 'the default of a new on-demand table' };
  }
  return { kind: 'provisioned', readUnitsPerSecond: capacity.readCapacityUnits, writeUnitsPerSecond: capacity.writeCapacityUnits, basis: 'its provisioned capacity' };
}

/** The warm throughput in effect per direction: the design's value, else the baseline (and which it is). */
export interface EffectiveWarmThroughput {
  readUnitsPerSecond: number;
  writeUnitsPerSecond: number;
  /** Whether each direction's value is the design's (pre-warmed) or the baseline. */
  isReadSet: boolean;
  isWriteSet: boolean;
  baseline: WarmBaseline;
}

/** The warm throughput in effect: each direction the design sets, the baseline for the others. */
export function effectiveWarmThroughput(warm: WarmThroughput | undefined, baseline: WarmBaseline): EffectiveWarmThroughput {
  const read = warm?.readUnitsPerSecond;
  const write = warm?.writeUnitsPerSecond;
  return {
    readUnitsPerSecond: read ?? baseline.readUnitsPerSecond,
    writeUnitsPerSecond: write ?? baseline.writeUnitsPerSecond,
    isReadSet: read !== undefined,
    isWriteSet: write !== undefined,
    baseline,
  };
}

const valueStep = (what: 'Read' | 'Write', units: number, isSet: boolean, basis: string): Step => ({
  label: `${what} units per second served at once: ${isSet ? 'the warm throughput set' : `not set, so ${basis}`}`,
  expression: `${formatNumber(units)} ${what === 'Read' ? 'RCU' : 'WCU'}/s`,
  value: units,
  unit: what === 'Read' ? 'RCU/s' : 'WCU/s',
  source: AWS_DOCS.warmThroughput,
});

/**
 * The partitions a warm throughput implies, an estimate, at least 1. Warm throughput is read as
 * AWS states the new-table level (12,000 reads or 4,000 writes, or a linear combination): the
 * partitions that serve the larger direction alone, ceil(max(read ÷ 3,000, write ÷ 1,000)); 30,000
 * reads and 10,000 writes a second: max(10, 10) = 10; a new on-demand table: max(4, 4) = 4
 * (docs/dynamodb-rules.md §4.3, §10.2). A provisioned table starts with the partitions of its
 * capacity, ceil(RCU ÷ 3,000 + WCU ÷ 1,000) (docs/dynamodb-rules.md §4.2), and keeps them when a
 * warm throughput is set (partitions are never taken away): the larger of the two. Both as the
 * partition simulator starts a table, so the two screens agree.
 */
export function warmThroughputPartitions(warm: EffectiveWarmThroughput): Figure {
  const fromReads = warm.readUnitsPerSecond / PARTITION_READ_UNITS_PER_SECOND;
  const fromWrites = warm.writeUnitsPerSecond / PARTITION_WRITE_UNITS_PER_SECOND;
  const isSet = warm.isReadSet || warm.isWriteSet;
  const isProvisioned = warm.baseline.kind === 'provisioned';
  const capacityReads = warm.baseline.readUnitsPerSecond / PARTITION_READ_UNITS_PER_SECOND;
  const capacityWrites = warm.baseline.writeUnitsPerSecond / PARTITION_WRITE_UNITS_PER_SECOND;
  const ofCapacity = Math.max(1, Math.ceil(capacityReads + capacityWrites - 1e-9));
  const ofWarm = Math.max(1, Math.ceil(Math.max(fromReads, fromWrites) - 1e-9));
  const steps: Step[] = [
    valueStep('Read', warm.readUnitsPerSecond, warm.isReadSet, warm.baseline.basis),
    valueStep('Write', warm.writeUnitsPerSecond, warm.isWriteSet, warm.baseline.basis),
    { label: 'Partitions for the reads: one partition serves 3,000 read units per second', expression: `${formatNumber(warm.readUnitsPerSecond)} ÷ 3,000`, value: fromReads, unit: 'partitions', source: AWS_DOCS.partitionKeyDesign },
    { label: 'Partitions for the writes: one partition serves 1,000 write units per second', expression: `${formatNumber(warm.writeUnitsPerSecond)} ÷ 1,000`, value: fromWrites, unit: 'partitions', source: AWS_DOCS.partitionKeyDesign },
  ];
  if (isProvisioned && !isSet) {
    steps.push({ label: 'Partitions implied (estimate, the historical formula for provisioned capacity)', expression: `max(1, ceil(${formatNumber(fromReads, 4)} + ${formatNumber(fromWrites, 4)}))`, value: ofCapacity, unit: 'partitions', source: AWS_DOCS.partitions });
  } else if (isProvisioned) {
    steps.push(
      { label: 'Partitions for the warm throughput (estimate: the larger direction alone)', expression: `max(1, ceil(max(${formatNumber(fromReads, 4)}, ${formatNumber(fromWrites, 4)})))`, value: ofWarm, unit: 'partitions', source: AWS_DOCS.partitions },
      {
        label: 'Partitions of the provisioned capacity (estimate, the historical formula)',
        expression: `max(1, ceil(${formatNumber(warm.baseline.readUnitsPerSecond)} ÷ 3,000 + ${formatNumber(warm.baseline.writeUnitsPerSecond)} ÷ 1,000))`,
        value: ofCapacity,
        unit: 'partitions',
        source: AWS_DOCS.partitions,
      },
      { label: 'Partitions implied: the larger (partitions are never taken away)', expression: `max(${formatNumber(ofWarm)}, ${formatNumber(ofCapacity)})`, value: Math.max(ofWarm, ofCapacity), unit: 'partitions', source: AWS_DOCS.partitions },
    );
  } else {
    steps.push({ label: 'Partitions implied (estimate: the larger direction alone)', expression: `max(1, ceil(max(${formatNumber(fromReads, 4)}, ${formatNumber(fromWrites, 4)})))`, value: ofWarm, unit: 'partitions', source: AWS_DOCS.partitions });
  }
  const assumptions = isProvisioned && !isSet ? [WARM_THROUGHPUT_ASSUMPTIONS.provisionedPartitions] : isProvisioned ? [WARM_THROUGHPUT_ASSUMPTIONS.partitions, WARM_THROUGHPUT_ASSUMPTIONS.provisionedPartitions] : [WARM_THROUGHPUT_ASSUMPTIONS.partitions];
  return figure(steps, [...assumptions, WARM_THROUGHPUT_ASSUMPTIONS.hotKeys]);
}

/** What `preWarmCostUsd` needs. */
export interface PreWarmCostInput {
  warm: EffectiveWarmThroughput;
  tableClass: TableClass;
  pricing: Pricing;
}

/**
 * The one-time charge of pre-warming to the warm throughput, an estimate: the units raised above
 * the baseline (free), per direction, × `PRE_WARM_ESTIMATE_HOURS` h × the provisioned RCU-hour or
 * WCU-hour price. Nothing when nothing is raised. 30,000 read and 10,000 write units per second on a
 * new on-demand Standard table: (30,000 − 12,000) × $0.00013 + (10,000 − 4,000) × $0.00065 =
 * $2.34 + $3.90 = $6.24.
 */
export function preWarmCostUsd(input: PreWarmCostInput): Figure {
  const { warm } = input;
  const p = input.pricing.tableClasses[input.tableClass];
  const hours = PRE_WARM_ESTIMATE_HOURS;
  const raisedReads = Math.max(0, warm.readUnitsPerSecond - warm.baseline.readUnitsPerSecond);
  const raisedWrites = Math.max(0, warm.writeUnitsPerSecond - warm.baseline.writeUnitsPerSecond);
  const reads = roundUsd(raisedReads * hours * p.readCapacityUnitUsdPerHour);
  const writes = roundUsd(raisedWrites * hours * p.writeCapacityUnitUsdPerHour);
  const className = input.tableClass === 'STANDARD' ? 'Standard' : 'Standard-IA';
  return figure(
    [
      {
        label: `Read units per second raised above ${warm.baseline.basis} (free up to there)`,
        expression: `max(0, ${formatNumber(warm.readUnitsPerSecond)} − ${formatNumber(warm.baseline.readUnitsPerSecond)})`,
        value: raisedReads,
        unit: 'RCU',
        source: AWS_DOCS.warmThroughput,
      },
      {
        label: `Write units per second raised above ${warm.baseline.basis} (free up to there)`,
        expression: `max(0, ${formatNumber(warm.writeUnitsPerSecond)} − ${formatNumber(warm.baseline.writeUnitsPerSecond)})`,
        value: raisedWrites,
        unit: 'WCU',
        source: AWS_DOCS.warmThroughput,
      },
      {
        label: `Reads: the raise as ${hours} hour of provisioned capacity (${className})`,
        expression: `${formatNumber(raisedReads)} RCU × ${hours} h × ${formatUsdExact(p.readCapacityUnitUsdPerHour)}`,
        value: reads,
        unit: 'USD',
        source: AWS_DOCS.preWarmingOnDemand,
      },
      {
        label: `Writes: the raise as ${hours} hour of provisioned capacity (${className})`,
        expression: `${formatNumber(raisedWrites)} WCU × ${hours} h × ${formatUsdExact(p.writeCapacityUnitUsdPerHour)}`,
        value: writes,
        unit: 'USD',
        source: AWS_DOCS.preWarmingOnDemand,
      },
      { label: 'Pre-warming, once (estimate)', expression: `${formatUsdExact(reads)} + ${formatUsdExact(writes)}`, value: roundUsd(reads + writes), unit: 'USD' },
    ],
    [WARM_THROUGHPUT_ASSUMPTIONS.preWarmPrice],
  );
}
