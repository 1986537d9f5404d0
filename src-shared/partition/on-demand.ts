/**
 * An on-demand target's own limits in a step (docs/dynamodb-rules.md §4.3, §4.7): its instant
 * capacity of twice the previous peak (a peak counts once it is 30 minutes old), scaling out to
 * partitions enough for it, or the warm throughput set when that is more; then the design's
 * on-demand maximum and the account's per-table quota. Load over any of them throttles.
 */
import * as limits from './limits.ts';
import { scaleOut } from './splits.ts';
import type { SimulationState, TargetState } from './state.ts';

const ON_DEMAND_ACCOUNT_READ_UNITS = limits.ON_DEMAND_ACCOUNT_READ_UNITS;
const ON_DEMAND_ACCOUNT_WRITE_UNITS = limits.ON_DEMAND_ACCOUNT_WRITE_UNITS;
const ON_DEMAND_PEAK_AGE_SECONDS = limits.ON_DEMAND_PEAK_AGE_SECONDS;
const PARTITION_WRITES = limits.PARTITION_WRITE_UNITS_PER_SECOND;
const onDemandInstantCapacity = limits.onDemandInstantCapacity;
const writeEquivalents = limits.writeEquivalents;

type OnDemandCapacity = Extract<TargetState['model']['capacity'], { mode: 'onDemand' }>;

/** Steps after which a served on-demand peak counts as previous (30 minutes). */
export const onDemandPeakLag = (state: SimulationState): number => Math.max(1, Math.round(ON_DEMAND_PEAK_AGE_SECONDS / state.stepSeconds));

/**
 * On-demand at the start of a step: a peak served 30 minutes ago counts as previous; twice it is
 * served at once, on partitions enough for it (scaling out when there are fewer), or the warm
 * throughput set (its reads and writes together) when that is more. Returns the instant capacity
 * in write-equivalents per second.
 */
export function onDemandInstant(state: SimulationState, target: TargetState): number {
  const lag = onDemandPeakLag(state);
  if (state.step >= lag) target.previousPeak = Math.max(target.previousPeak, target.servedHistory[state.step - lag] as number);
  const scaled = onDemandInstantCapacity(target.previousPeak);
  scaleOut(state, target, Math.ceil(scaled / PARTITION_WRITES - 1e-9));
  // Pre-warmed: its warm read and write throughput are served at once, both together.
  const capacity = target.model.capacity;
  const warm = capacity.mode === 'onDemand' && capacity.warm ? writeEquivalents(capacity.warm.readUnitsPerSecond, capacity.warm.writeUnitsPerSecond) : 0;
  return warm > scaled ? warm : scaled;
}

/**
 * The target's limits over what its partitions served this step (every partition): past the
 * instant capacity `instant` the partitions have not split yet (a key-range throttle), then the
 * design's on-demand maximum, then the account's per-table quota; whatever is over one throttles.
 * Records the step's served total, the next steps' previous peak.
 */
export function limitOnDemand(state: SimulationState, target: TargetState, capacity: OnDemandCapacity, instant: number): void {
  const last = target.last;
  const srvR = last.servedRead;
  const srvW = last.servedWrite;
  const served = totals(srvR, srvW);
  if (served.writeEquivalents > instant) scaleAll(srvR, srvW, last.throttledRead.keyRange, last.throttledWrite.keyRange, instant / served.writeEquivalents);
  const toMax = totals(srvR, srvW);
  const maxR = capacity.maxReadUnitsPerSecond;
  const maxW = capacity.maxWriteUnitsPerSecond;
  if (maxR !== undefined && toMax.reads > maxR) scaleAll(srvR, undefined, last.throttledRead.maxOnDemand, undefined, maxR / toMax.reads);
  if (maxW !== undefined && toMax.writes > maxW) scaleAll(undefined, srvW, undefined, last.throttledWrite.maxOnDemand, maxW / toMax.writes);
  const capped = totals(srvR, srvW);
  if (capped.reads > ON_DEMAND_ACCOUNT_READ_UNITS) scaleAll(srvR, undefined, last.throttledRead.account, undefined, ON_DEMAND_ACCOUNT_READ_UNITS / capped.reads);
  if (capped.writes > ON_DEMAND_ACCOUNT_WRITE_UNITS) scaleAll(undefined, srvW, undefined, last.throttledWrite.account, ON_DEMAND_ACCOUNT_WRITE_UNITS / capped.writes);
  target.servedHistory[state.step] = totals(srvR, srvW).writeEquivalents;
  last.limit = { mode: 'onDemand', writeEquivalents: instant };
}

function totals(read: Float64Array, write: Float64Array): { reads: number; writes: number; writeEquivalents: number } {
  let reads = 0;
  let writes = 0;
  for (let i = 0; i < read.length; i += 1) {
    reads += read[i] as number;
    writes += write[i] as number;
  }
  return { reads, writes, writeEquivalents: writeEquivalents(reads, writes) };
}

/** Scales every partition's served load by `factor`, moving the rest to `throttled`. */
function scaleAll(read: Float64Array | undefined, write: Float64Array | undefined, throttledRead: Float64Array | undefined, throttledWrite: Float64Array | undefined, factor: number): void {
  if (!(factor < 1)) return;
  const f = Math.max(0, factor);
  const n = (read ?? write)?.length ?? 0;
  for (let i = 0; i < n; i += 1) {
    if (read && throttledRead) {
      const cut = (read[i] as number) * (1 - f);
      read[i] = (read[i] as number) - cut;
      throttledRead[i] = (throttledRead[i] as number) + cut;
    }
    if (write && throttledWrite) {
      const cut = (write[i] as number) * (1 - f);
      write[i] = (write[i] as number) - cut;
      throttledWrite[i] = (throttledWrite[i] as number) + cut;
    }
  }
}
