/**
 * What a task worker does, without the worker: run a simulation or the key-design solver step by
 * step, or generate a sample store, reporting progress and stopping between steps when canceled.
 * The worker entry wraps this; tests call it in-process.
 */
import { AppError } from '../../src-shared/errors.ts';
import { formatCount, formatNumber, formatUsd } from '../../src-shared/numbers/index.ts';
import {
  advance,
  finishSimulation,
  formatSecond,
  isFinished,
  startSimulation,
} from '../../src-shared/partition/index.ts';
import type { SimulationResult } from '../../src-shared/partition/index.ts';
import { createSampleStore, type SampleStore } from '../../src-shared/sample/index.ts';
import {
  createSolver,
  DEFAULT_TIME_BUDGET_MS,
  DEFAULT_TOP,
  type SolveProgress,
  type SolveResult,
} from '../../src-shared/solver/index.ts';
import type { TaskInput } from './protocol.ts';

export interface TaskContext {
  /** Whether the host asked to stop; read between steps. */
  isCanceled(): boolean;
  /** Progress: `done` of `total`. Called often; the caller throttles. */
  progress(done: number, total: number, label: string): void;
}

/** Thrown inside a task when it sees the cancel flag; the worker reports it as `canceled`. */
export class TaskCanceled extends Error {
  constructor() {
    super('The task was canceled.');
    this.name = 'TaskCanceled';
  }
}

/** Checks the cancel flag and reports progress every this many simulation steps. */
const STEPS_PER_CHECK = 32;

/** Runs the partition simulator over the design's workload. Throws `TaskCanceled` when canceled. */
export function runSimulationTask(input: TaskInput, context: TaskContext): SimulationResult {
  const table = input.design.tables.find((t) => t.id === input.tableId);
  if (!table) throw new AppError({ code: 'ipc.badInput', path: 'tableId', message: `The design has no table with id "${input.tableId}".` });
  const state = startSimulation(input.design, input.tableId, { ...(input.seed === undefined ? {} : { seed: input.seed }), ...input.simulation });
  const label = () => `Simulating ${table.name}: ${formatSecond(state.step * state.stepSeconds)} of ${formatSecond(state.durationSeconds)}`;
  context.progress(0, state.totalSteps, label());
  while (!isFinished(state)) {
    advance(state, STEPS_PER_CHECK);
    if (context.isCanceled()) throw new TaskCanceled();
    context.progress(state.step, state.totalSteps, label());
  }
  return finishSimulation(state);
}

/**
 * `Priced 12 of 16 key designs · best so far $1,144.82/month`: what the search is doing, and its best
 * feasible cost. A local search (too many combinations to price every one) knows no total: it says
 * how long it may search instead.
 */
export function solverProgressLabel(progress: SolveProgress, top: number, localSearchMs?: number): string {
  const best = progress.bestMonthlyUsd === undefined ? '' : ` · best so far ${formatUsd(progress.bestMonthlyUsd)}/month`;
  if (progress.phase === 'layouts') {
    if (localSearchMs !== undefined) return `Priced ${formatCount(progress.evaluated)} key designs, searching for up to ${formatNumber(localSearchMs / 1000, 1)} s${best}`;
    return `Priced ${formatCount(progress.evaluated)} of ${formatCount(progress.total)} key designs${best}`;
  }
  const finalists = Math.min(top, progress.evaluated);
  if (progress.phase === 'finalists') return `Checking the best ${finalists === 1 ? 'design' : `${formatCount(finalists)} designs`} with the partition simulator${best}`;
  return `Priced ${formatCount(progress.evaluated)} key designs${progress.bestMonthlyUsd === undefined ? '' : ` · best ${formatUsd(progress.bestMonthlyUsd)}/month`}`;
}

/**
 * Runs the key-design solver on one table, a step (a few candidate designs) at a time, reporting
 * progress and checking the cancel flag between steps. Throws `TaskCanceled` when canceled.
 */
export function runSolverTask(input: TaskInput, context: TaskContext, now: () => number = () => performance.now()): SolveResult {
  assertTable(input);
  const top = input.solver?.top ?? DEFAULT_TOP;
  const started = now();
  const solver = createSolver(input.design, input.tableId, { ...input.solver, ...(input.seed === undefined ? {} : { seed: input.seed }), now });
  // Pricing every combination, the solver's total is fixed from the start; a local search's total is
  // only what it has queued, and grows. Then the bar shows the time the search may take instead.
  const firstTotal = solver.progress().total;
  let isLocalSearch = false;
  const report = () => {
    const progress = solver.progress();
    isLocalSearch ||= progress.total !== firstTotal;
    const label = solverProgressLabel(progress, top, isLocalSearch ? DEFAULT_TIME_BUDGET_MS : undefined);
    if (progress.phase !== 'layouts') return context.progress(1, 1, label);
    if (!isLocalSearch) return context.progress(progress.evaluated, progress.total, label);
    context.progress(Math.min(now() - started, DEFAULT_TIME_BUDGET_MS), DEFAULT_TIME_BUDGET_MS, label);
  };
  while (solver.step()) {
    if (context.isCanceled()) throw new TaskCanceled();
    report();
  }
  report();
  return solver.result();
}

function assertTable(input: TaskInput): void {
  if (!input.design.tables.some((t) => t.id === input.tableId)) {
    throw new AppError({ code: 'ipc.badInput', path: 'tableId', message: `The design has no table with id "${input.tableId}".` });
  }
}

/** Generates the sample items of one table. Throws `TaskCanceled` when canceled. */
export function generateSampleTask(input: TaskInput, runId: string, context: TaskContext): SampleStore {
  assertTable(input);
  return createSampleStore(input.design, input.tableId, {
    runId,
    ...(input.seed === undefined ? {} : { seed: input.seed }),
    onProgress: (done, total) => {
      if (context.isCanceled()) throw new TaskCanceled();
      context.progress(done, total, `Generating items: ${formatCount(done)} of ${formatCount(total)}`);
    },
  });
}
