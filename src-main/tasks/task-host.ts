/**
 * The host side of long tasks: each `simulation.run` and `sample.generate` runs in a worker thread
 * of its own, so the main process (and with it the UI's IPC) never blocks. Progress arrives as
 * `task.progress` events; `cancel` sets the worker's shared flag (it stops between steps), fails the
 * call with `task.canceled` at once and ends the worker. A sample run's worker stays alive with its
 * items to answer `page` and `find`; only the latest few are kept.
 */
import { AppError, type ErrorData } from '../../src-shared/errors.ts';
import type { EventSink } from '../../src-shared/ipc/contract.ts';
import type { SimulationResult } from '../../src-shared/partition/types.ts';
import type { SampleRow, SampleSummary } from '../../src-shared/sample/types.ts';
import type { HostMessage, TaskInput, TaskRequest, WorkerMessage } from './protocol.ts';
import type { SpawnWorker, WorkerLike } from './spawn.ts';

/** Sample runs kept alive for paging; an older one is dropped when a new one finishes. */
export const DEFAULT_KEPT_SAMPLE_RUNS = 2;
/** How long a canceled worker may take to notice its flag before it is terminated, in milliseconds. */
const CANCEL_GRACE_MS = 250;

export interface TaskHostOptions {
  emit: EventSink['emit'];
  spawn: SpawnWorker;
  keepSampleRuns?: number;
  /** Where worker crashes are reported once (default: console.error). */
  log?: (message: string, error?: unknown) => void;
}

export interface TaskHost {
  /** Errors: `task.canceled`, `task.failed`, `ipc.badInput` (an unknown table). */
  runSimulation(runId: string, input: TaskInput): Promise<SimulationResult>;
  /** Errors as `runSimulation`. The items stay in the host for `page` and `find`. */
  generateSample(runId: string, input: TaskInput): Promise<SampleSummary>;
  /** Errors: `task.unknown` (no such sample run, or dropped, or still generating), `ipc.badInput` (an unknown view). */
  page(runId: string, view: string, offset: number, limit: number): Promise<{ total: number; rows: SampleRow[] }>;
  find(runId: string, view: string, key: string): Promise<{ offset: number | null }>;
  /** Cancels a running task; false when `runId` is not running. */
  cancel(runId: string): { canceled: boolean };
  /** Ends every worker; pending calls fail with `task.canceled`. */
  dispose(): Promise<void>;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: AppError): void;
}

interface Run {
  runId: string;
  kind: TaskRequest['kind'];
  worker: WorkerLike;
  flag: Int32Array;
  status: 'running' | 'ready' | 'closed';
  pending?: Pending;
  requests: Map<number, Pending>;
}

const canceledError = (runId: string, why = 'was canceled') => new AppError({ code: 'task.canceled', message: `Run "${runId}" ${why}.` });

export function createTaskHost(options: TaskHostOptions): TaskHost {
  const runs = new Map<string, Run>();
  /** Finished sample runs, oldest first. */
  const kept: Run[] = [];
  const keep = Math.max(1, options.keepSampleRuns ?? DEFAULT_KEPT_SAMPLE_RUNS);
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[keyplan] ${message}`, ...(error === undefined ? [] : [error])));
  let nextRequest = 1;

  function close(run: Run, error?: AppError): void {
    if (run.status === 'closed') return;
    run.status = 'closed';
    if (runs.get(run.runId) === run) runs.delete(run.runId);
    const index = kept.indexOf(run);
    if (index >= 0) kept.splice(index, 1);
    if (error) run.pending?.reject(error);
    run.pending = undefined;
    for (const request of run.requests.values()) request.reject(new AppError({ code: 'task.unknown', message: `Run "${run.runId}" was dropped before it answered.` }));
    run.requests.clear();
    void run.worker.terminate().catch((e: unknown) => log(`Ending the worker of run "${run.runId}" failed.`, e));
  }

  function onMessage(run: Run, message: WorkerMessage): void {
    switch (message.type) {
      case 'progress':
        if (run.status === 'running' && runs.get(run.runId) === run) {
          options.emit('task.progress', { runId: run.runId, done: message.done, total: message.total, label: message.label });
        }
        return;
      case 'done':
        if (run.status !== 'running') return close(run);
        run.pending?.resolve(message.value);
        run.pending = undefined;
        if (run.kind === 'simulation') return close(run);
        run.status = 'ready';
        kept.push(run);
        while (kept.length > keep) close(kept[0] as Run);
        return;
      case 'canceled':
        return close(run, canceledError(run.runId));
      case 'failed':
        return close(run, new AppError(message.error));
      case 'reply': {
        const request = run.requests.get(message.id);
        run.requests.delete(message.id);
        if (!request) return;
        if (message.ok) request.resolve(message.value);
        else request.reject(new AppError(message.error));
      }
    }
  }

  function start<T>(runId: string, task: TaskRequest): Promise<T> {
    const previous = runs.get(runId);
    if (previous) close(previous, canceledError(runId, 'was replaced by a new run with the same id'));
    const buffer = new SharedArrayBuffer(4);
    const worker = options.spawn({ cancelFlag: buffer });
    worker.unref();
    const run: Run = { runId, kind: task.kind, worker, flag: new Int32Array(buffer), status: 'running', requests: new Map() };
    runs.set(runId, run);
    const promise = new Promise<T>((resolve, reject) => {
      run.pending = { resolve: resolve as (value: unknown) => void, reject };
    });
    worker.on('message', (message) => onMessage(run, message as WorkerMessage));
    worker.on('error', (error) => {
      log(`The worker of run "${runId}" failed.`, error);
      close(run, new AppError({ code: 'task.failed', message: `Run "${runId}" failed: ${error.message}` }));
    });
    worker.on('exit', (code) => {
      if (run.status !== 'closed') close(run, new AppError({ code: 'task.failed', message: `Run "${runId}" stopped unexpectedly (worker exit code ${code}).` }));
    });
    const message: HostMessage = { type: 'start', runId, task };
    worker.postMessage(message);
    return promise;
  }

  function ask<T>(runId: string, message: { type: 'page'; view: string; offset: number; limit: number } | { type: 'find'; view: string; key: string }): Promise<T> {
    const run = runs.get(runId);
    if (!run || run.kind !== 'sample' || run.status !== 'ready') {
      const why = !run || run.kind !== 'sample' ? 'no sample run has that id (it may have been dropped for a newer one)' : 'its items are still being generated';
      return Promise.reject(new AppError({ code: 'task.unknown', path: 'runId', message: `Cannot read run "${runId}": ${why}.` }));
    }
    // Recently read runs are kept longest.
    kept.splice(kept.indexOf(run), 1);
    kept.push(run);
    const id = nextRequest++;
    return new Promise<T>((resolve, reject) => {
      run.requests.set(id, { resolve: resolve as (value: unknown) => void, reject });
      run.worker.postMessage({ ...message, id } as HostMessage);
    });
  }

  return {
    runSimulation: (runId, input) => start<SimulationResult>(runId, { kind: 'simulation', input }),
    generateSample: (runId, input) => start<SampleSummary>(runId, { kind: 'sample', input }),
    page: (runId, view, offset, limit) => ask(runId, { type: 'page', view, offset, limit }),
    find: (runId, view, key) => ask(runId, { type: 'find', view, key }),
    cancel(runId) {
      const run = runs.get(runId);
      if (!run || run.status !== 'running') return { canceled: false };
      Atomics.store(run.flag, 0, 1);
      run.pending?.reject(canceledError(runId));
      run.pending = undefined;
      runs.delete(runId);
      // The worker stops at its next step and says so; one that does not is ended anyway.
      setTimeout(() => close(run), CANCEL_GRACE_MS).unref();
      return { canceled: true };
    },
    async dispose() {
      for (const run of [...runs.values()]) close(run, canceledError(run.runId, 'was stopped: the host is shutting down'));
    },
  };
}

export type { ErrorData };
