/**
 * A table's targets, the table and each GSI: what each one is (its partition key, the first
 * attribute of its sort key), the capacity the run serves it with (provisioned, held by auto
 * scaling, or on-demand with its maximum and warm throughput) and the partitions it starts with.
 */
import { baselineWarmThroughput, effectiveWarmThroughput, warmThroughputPartitions } from '../capacity/index.ts';
import { partitionKeysOf, sortKeysOf } from '../model/index.ts';
import type { AutoScaling, AutoScalingRange, OnDemandThroughput, Table, WarmThroughput } from '../model/index.ts';
import { ON_DEMAND_INITIAL_READ_UNITS, PARTITION_READ_UNITS_PER_SECOND, partitionCountFor, type PartitionCount, type SimulationStart } from './limits.ts';
import type { AutoScaledUnits, LoadSource, PatternModel, TargetCapacity } from './types.ts';

/** One target as the design states it, before its load is known. */
export interface TargetSpec {
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

/** The table and each of its GSIs, in that order; a GSI of a provisioned table that states no capacity gets the table's (said in `assumptions`). */
export function targetSpecs(table: Table, assumptions: string[]): TargetSpec[] {
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

/** An on-demand target's capacity: its maximums, when the design sets them. */
function onDemandCapacity(max: OnDemandThroughput | undefined): TargetCapacity {
  return {
    mode: 'onDemand',
    ...(max?.maxReadRequestUnits !== undefined ? { maxReadUnitsPerSecond: max.maxReadRequestUnits } : {}),
    ...(max?.maxWriteRequestUnits !== undefined ? { maxWriteUnitsPerSecond: max.maxWriteRequestUnits } : {}),
  };
}

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

/**
 * The capacity a target is served with and the partitions it starts with, for the base load of its
 * `sources` and the `bytes` it stores. Provisioned: the capacity auto scaling holds for that load,
 * on partitions for the larger of it and the created capacity. On-demand: partitions for what a new
 * table serves at once, or on a warm start for twice the load. Warm throughput set: at least the
 * partitions it implies.
 */
export function startingCapacity(
  spec: TargetSpec,
  sources: readonly LoadSource[],
  patterns: readonly PatternModel[],
  bytes: number,
  start: SimulationStart,
): { capacity: TargetCapacity; partitions: PartitionCount } {
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
  return { capacity, partitions };
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
