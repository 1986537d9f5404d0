/**
 * Messages between the task host (main thread) and a task worker. One worker runs one task (a
 * simulation, a sample generation or a key-design solve); a sample run's worker then keeps its
 * store and answers page and find requests until it is dropped.
 * Cancel is a flag in shared memory that the worker reads between steps, so it needs no message
 * while the worker's thread is busy.
 */
import type { ErrorData } from '../../src-shared/errors.ts';
import type { Design } from '../../src-shared/model/index.ts';
import type { SolveOptions } from '../../src-shared/solver/index.ts';

/** The solver options a caller may set (`solver.run`); the seed is `TaskInput.seed`. */
export type SolverSettings = Pick<SolveOptions, 'top' | 'maxGsis' | 'noScan' | 'billing' | 'monthlyBudgetUsd' | 'keepTableKey' | 'headroom'>;

export interface TaskInput {
  design: Design;
  tableId: string;
  seed?: number;
  /** Simulation only: how the run starts, how partition limits combine, the shard headroom. */
  simulation?: { start?: 'cold' | 'warm'; limits?: 'independent' | 'linear'; headroom?: number };
  /** Key-design solver only: its constraints. */
  solver?: SolverSettings;
}

export type TaskRequest = { kind: 'simulation'; input: TaskInput } | { kind: 'sample'; input: TaskInput } | { kind: 'solver'; input: TaskInput };

/** What the worker gets at start: the cancel flag (an Int32Array of one element over this buffer). */
export interface TaskWorkerData {
  cancelFlag: SharedArrayBuffer;
}

export type HostMessage =
  | { type: 'start'; runId: string; task: TaskRequest }
  | { type: 'page'; id: number; view: string; offset: number; limit: number }
  | { type: 'find'; id: number; view: string; key: string };

export type WorkerMessage =
  | { type: 'progress'; done: number; total: number; label: string }
  | { type: 'done'; value: unknown }
  | { type: 'canceled' }
  | { type: 'failed'; error: ErrorData }
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: ErrorData };
