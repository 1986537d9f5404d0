/**
 * The partition simulator's entry points. `simulate` runs a whole workload; hosts that report
 * progress and cancel use `startSimulation`, call `step` until `isFinished`, then `finishSimulation`.
 * Deterministic for a seed: the same design, workload and seed give the same result.
 */
import type { Design, Table, Workload } from '../model/index.ts';
import { createSimulation, DEFAULT_WORKLOAD, runToEnd, type SimulationState } from './engine.ts';
import { buildSimulationModel, type ModelOptions } from './model.ts';
import { finishSimulation } from './result.ts';
import { withPatternTraffic } from './workload.ts';
import type { PartitionLimitModel } from './limits.ts';
import type { SimulationResult } from './types.ts';

/** `start` (in `ModelOptions`): `cold` (default, a new table) or `warm` (the base load has run before). */
export interface SimulateOptions extends ModelOptions {
  /** The seed of the arrival noise; default the workload's seed. */
  seed?: number;
  /** Default the design's workload, else one hour at one-second steps without events. */
  workload?: Workload;
  /** Per-step Poisson noise in the number of requests (default on); off gives the mean load exactly. */
  arrivalNoise?: boolean;
  /** How a partition's read and write limits combine (default `independent`); see `CreateOptions`. */
  limits?: PartitionLimitModel;
  /** The headroom of the shards recommended for throttled keys (default 1.25). */
  headroom?: number;
}

/** What a run with the patterns' days rests on: where in the day it starts, and how the days enter it. */
function patternDaysAssumption(startHour: number): string {
  const clock = `${String(startHour).padStart(2, '0')}:00`;
  return `The run starts at ${clock}, the hour of the patterns' busiest minute (their requests per second summed), and follows each pattern's daily profile and spikes from there: its rate is its peak × the hour's multiplier × any spike (docs/traffic.md). A key's stated peak is its highest load in any minute of the day.`;
}

/** The table with this id, or undefined. */
export function findTable(design: Design, tableId: string): Table | undefined {
  return design.tables.find((t) => t.id === tableId);
}

/**
 * Prepares a run of one table (build the model, lay out the partitions); nothing is simulated yet.
 * Throws when the design has no table `tableId` (callers check that first).
 */
export function startSimulation(design: Design, tableId: string, options: SimulateOptions = {}): SimulationState {
  const table = findTable(design, tableId);
  if (!table) throw new Error(`Design "${design.name}" has no table with id "${tableId}".`);
  const stated = options.workload ?? design.workload ?? DEFAULT_WORKLOAD;
  const seed = options.seed ?? stated.seed;
  // The patterns' own days (profiles and spikes) join the workload as events, from their busiest hour.
  const { workload, startHour, hasTraffic } = withPatternTraffic(stated, table.accessPatterns);
  const model = buildSimulationModel(design, table, options);
  if (hasTraffic) model.assumptions.push(patternDaysAssumption(startHour));
  return createSimulation(model, workload, seed, {
    hasPatternDays: hasTraffic,
    ...(options.arrivalNoise === undefined ? {} : { arrivalNoise: options.arrivalNoise }),
    ...(options.start === undefined ? {} : { start: options.start }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.headroom === undefined ? {} : { headroom: options.headroom }),
  });
}

/** Runs the whole workload on one table and reports it. */
export function simulate(design: Design, tableId: string, options: SimulateOptions = {}): SimulationResult {
  return finishSimulation(runToEnd(startSimulation(design, tableId, options)));
}
