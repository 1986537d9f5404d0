/**
 * The time-step simulation over a `SimulationModel`: per step, each pattern's load (its rate × the
 * workload's spikes and ramps × seeded arrival noise) lands on partitions by its key shares; each
 * partition serves up to 3,000 RCU and 1,000 WCU a second (independent limits by default, or a
 * linear combination when asked); provisioned targets share their capacity evenly over partitions,
 * lend unused capacity to hot ones (adaptive capacity) and keep a 300-second burst bucket per
 * partition; on-demand targets serve up to twice their previous peak; a partition running hot for
 * five minutes splits; a throttled GSI write throttles the base-table write. The rules, in that
 * order: docs/dynamodb-rules.md §4.1, §4.6, §4.5, §10.5, §4.3, §10.3, §4.8.
 *
 * More on its rules: docs/modules.md, "src-shared/partition/engine.ts".
 */
import type { Workload, WorkloadEvent } from '../model/index.ts';
import { equalRangeStarts } from './hash.ts';
import * as limits from './limits.ts';
import type { SimulationModel } from './model.ts';
import { createRandom } from './random.ts';
import { DEFAULT_SHARD_HEADROOM } from './shards.ts';
import { settle } from './splits.ts';
import { createTargetState } from './layout.ts';
import { MAX_HEAT_BUCKETS, MAX_PEAK_MULTIPLIERS, type PatternSources, type SimulationState } from './state.ts';

export { advance, isFinished, runToEnd, step } from './step.ts';
export { MAX_SETTLE_SPLITS } from './splits.ts';
export { CAUSE_ACCOUNT, CAUSE_KEY_RANGE, CAUSE_MAX_ON_DEMAND, CAUSE_PROVISIONED } from './reasons.ts';
export { DEFAULT_WORKLOAD, multiplierAt } from './workload.ts';
export {
  MAX_HEAT_BUCKETS,
  type KeyStats,
  type PatternState,
  type ScaleOutEvent,
  type SimulationState,
  type SplitEvent,
  type SplitRefusal,
  type StepAccount,
  type TargetState,
} from './state.ts';

export interface CreateOptions {
  /** Per-step Poisson noise in the number of requests (default on). */
  arrivalNoise?: boolean;
  /**
   * `cold` (default): a new table, from the model's partitions with empty burst buckets and no
   * previous on-demand peak. `warm`: the table has run at the design's base load before: split for
   * heat has already cut the partitions that load keeps hot (as far as it can), burst buckets are
   * full and the base load is on-demand's previous peak.
   */
  start?: limits.SimulationStart;
  /** How a partition's read and write limits combine (default `independent`). */
  limits?: limits.PartitionLimitModel;
  /** The headroom of the shards recommended for throttled keys (default 1.25, docs/dynamodb-rules.md §5). */
  headroom?: number;
  /** Whether `workload` holds the patterns' days as events (`withPatternTraffic`): stated peaks then look at a whole day. */
  hasPatternDays?: boolean;
}

/** Starts a run of `model` over `workload`, seeded. */
export function createSimulation(model: SimulationModel, workload: Workload, seed: number, options: CreateOptions = {}): SimulationState {
  const stepSeconds = Number.isFinite(workload.stepSeconds) && workload.stepSeconds > 0 ? workload.stepSeconds : 1;
  const durationSeconds = Number.isFinite(workload.durationSeconds) && workload.durationSeconds > 0 ? workload.durationSeconds : stepSeconds;
  const totalSteps = Math.max(1, Math.ceil(durationSeconds / stepSeconds - 1e-9));
  const bucketSteps = Math.max(1, Math.ceil(totalSteps / MAX_HEAT_BUCKETS));
  const bucketCount = Math.ceil(totalSteps / bucketSteps);

  // Patterns touched by the same events move together: one multiplier per distinct set.
  const signatures = new Map<string, number>();
  const groupEvents: WorkloadEvent[][] = [];
  const groupOfPattern = model.patterns.map((p) => {
    const events = workload.events.filter((e) => e.patternIds === undefined || e.patternIds.includes(p.id));
    const signature = events.map((e) => workload.events.indexOf(e)).join(',');
    let group = signatures.get(signature);
    if (group === undefined) {
      group = groupEvents.length;
      signatures.set(signature, group);
      groupEvents.push(events);
    }
    return group;
  });
  const groups = groupEvents.length;
  const groupCallsPerSecond = groupEvents.map(() => 0);
  model.patterns.forEach((p, i) => {
    const g = groupOfPattern[i] as number;
    groupCallsPerSecond[g] = (groupCallsPerSecond[g] ?? 0) + p.ratePerSecond;
  });

  const state: SimulationState = {
    model,
    seed,
    durationSeconds,
    stepSeconds,
    totalSteps,
    step: 0,
    bucketSteps,
    bucketCount,
    random: createRandom(seed),
    arrivalNoise: options.arrivalNoise ?? true,
    limits: options.limits ?? limits.DEFAULT_PARTITION_LIMITS,
    start: options.start ?? limits.DEFAULT_START,
    headroom: options.headroom ?? DEFAULT_SHARD_HEADROOM,
    hasPatternDays: options.hasPatternDays ?? false,
    groupEvents,
    groupOfPattern,
    groupCallsPerSecond,
    multipliers: new Float64Array(groups),
    multiplierSums: new Float64Array(groups),
    drawn: new Float64Array(totalSteps * groups),
    drawnSteps: 0,
    multiplierPrefix: new Float64Array((totalSteps + 1) * groups),
    peakMultipliers: new Float64Array((MAX_PEAK_MULTIPLIERS + 1) * groups),
    peakMultiplierCount: 0,
    targets: [],
    patterns: model.patterns.map(() => ({
      calls: 0,
      throttled: 0,
      reasons: new Set<string>(),
      callsByBucket: new Float64Array(bucketCount),
      throttledByBucket: new Float64Array(bucketCount),
    })),
    patternSources: [],
    layoutChanged: false,
  };
  state.targets = model.targets.map((t, index) => createTargetState(state, t, index, equalRangeStarts(Math.min(limits.MAX_PARTITIONS, t.partitions.partitionCount))));
  if (state.start === 'warm') for (const target of state.targets) settle(state, target);
  // Each pattern's sources, found once: its reads on every target, its writes' own source on the table.
  const table = state.targets.find((t) => t.model.kind === 'table');
  state.patternSources = model.patterns.map((): PatternSources => ({ byTarget: [] }));
  for (const target of state.targets) {
    target.sources.forEach((s, n) => {
      const sources = state.patternSources[s.source.patternIndex];
      if (!sources) return;
      const last = sources.byTarget.at(-1);
      if (last?.target === target) last.sources.push(n);
      else sources.byTarget.push({ target, sources: [n] });
      if (target === table) sources.onTable ??= s;
    });
  }
  return state;
}
