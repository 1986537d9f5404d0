/**
 * What a task worker does, without the worker: run a simulation step by step, or generate a sample
 * store, reporting progress and stopping between steps when canceled. The worker entry wraps this;
 * tests call it in-process.
 */
import { AppError } from '../../src-shared/errors.ts';
import { advance, finishSimulation, formatSecond, isFinished, startSimulation } from '../../src-shared/partition/index.ts';
import type { SimulationResult } from '../../src-shared/partition/types.ts';
import { createSampleStore, type SampleStore } from '../../src-shared/sample/index.ts';
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

/** Generates the sample items of one table. Throws `TaskCanceled` when canceled. */
export function generateSampleTask(input: TaskInput, runId: string, context: TaskContext): SampleStore {
  if (!input.design.tables.some((t) => t.id === input.tableId)) {
    throw new AppError({ code: 'ipc.badInput', path: 'tableId', message: `The design has no table with id "${input.tableId}".` });
  }
  return createSampleStore(input.design, input.tableId, {
    runId,
    ...(input.seed === undefined ? {} : { seed: input.seed }),
    onProgress: (done, total) => {
      if (context.isCanceled()) throw new TaskCanceled();
      context.progress(done, total, `Generating items: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`);
    },
  });
}
