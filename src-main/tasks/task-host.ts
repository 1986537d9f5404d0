/**
 * The host side of long tasks: each `simulation.run`, `solver.run` and `sample.generate` runs in a
 * worker thread of its own, so the main process (and with it the UI's IPC) never blocks. Progress arrives as
 * `task.progress` events; `cancel` sets the worker's shared flag (it stops between steps), fails the
 * call with `task.canceled` at once and ends the worker. A sample run's worker stays alive with its
 * items to answer `page` and `find`; only the latest few are kept.
 *
 * Workers are bounded. At most `poolSize` tasks (default: the CPU count) compute at once; the rest
 * wait in a FIFO queue and say so (`task.progress` with `state: 'queued'`). A task holds its slot
 * from the moment its worker starts until the worker is gone or, for a finished sample run, idles
 * with its items: kept sample runs use no CPU and do not count against the pool, but at most
 * `keepSampleRuns` are kept, so the host has at most `poolSize + keepSampleRuns` task threads (a
 * canceled or dropped run keeps a slot until its thread has ended). At most
 * `maxQueued` tasks wait; a client cannot make the queue grow without bound. A task may name its
 * document: a newer task of the same kind for the same document replaces one still queued or running.
 */
import { availableParallelism } from 'node:os';
import { AppError, type ErrorData } from '../../src-shared/errors.ts';
import type { EventSink } from '../../src-shared/ipc/contract.ts';
import type { SimulationResult } from '../../src-shared/partition/types.ts';
import type { SampleRow, SampleSummary } from '../../src-shared/sample/types.ts';
import type { SolveResult } from '../../src-shared/solver/types.ts';
import type { HostMessage, TaskInput, TaskRequest, WorkerMessage } from './protocol.ts';
import type { SpawnWorker, WorkerLike } from './spawn.ts';

/** Sample runs kept alive for paging; an older one is dropped when a new one finishes. */
export const DEFAULT_KEPT_SAMPLE_RUNS = 2;
/** Tasks that may wait for a worker; one more is refused with `task.failed`. */
export const DEFAULT_MAX_QUEUED_TASKS = 100;
/** How long a canceled worker may take to notice its flag before it is terminated, in milliseconds. */
const CANCEL_GRACE_MS = 250;

export interface TaskHostOptions {
  emit: EventSink['emit'];
  spawn: SpawnWorker;
  keepSampleRuns?: number;
  /** Tasks that compute at once (default `os.availableParallelism()`, at least 1). */
  poolSize?: number;
  /** Tasks that may wait for a free worker (default `DEFAULT_MAX_QUEUED_TASKS`). */
  maxQueued?: number;
  /** Where worker crashes are reported once (default: console.error). */
  log?: (message: string, error?: unknown) => void;
}

/** What a task says about itself beyond its input. */
export interface TaskOptions {
  /** The document the task is for: a newer task of the same kind for it cancels this one while queued or running. */
  documentId?: string | undefined;
}

export interface TaskHost {
  /** Errors: `task.canceled` (canceled, or replaced by a newer run), `task.failed` (also: the queue is full), `ipc.badInput` (an unknown table). */
  runSimulation(runId: string, input: TaskInput, options?: TaskOptions): Promise<SimulationResult>;
  /** The key-design solver's proposals for one table. Errors as `runSimulation`. */
  solve(runId: string, input: TaskInput, options?: TaskOptions): Promise<SolveResult>;
  /** Errors as `runSimulation`. The items stay in the host for `page` and `find`. */
  generateSample(runId: string, input: TaskInput, options?: TaskOptions): Promise<SampleSummary>;
  /** Errors: `task.unknown` (no such sample run, or dropped, or still generating), `ipc.badInput` (an unknown view). */
  page(runId: string, view: string, offset: number, limit: number): Promise<{ total: number; rows: SampleRow[] }>;
  find(runId: string, view: string, key: string): Promise<{ offset: number | null }>;
  /** Cancels a queued or running task; false when `runId` is neither. */
  cancel(runId: string): { canceled: boolean };
  /** Ends every worker; pending and queued calls fail with `task.canceled`. */
  dispose(): Promise<void>;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: AppError): void;
}

interface Run {
  runId: string;
  task: TaskRequest;
  /** Key of the run's document and kind, when it named a document. */
  documentKey?: string;
  worker?: WorkerLike;
  /** The worker's cancel flag, made when it starts. */
  flag?: Int32Array;
  /** `stopping`: canceled, its worker given `CANCEL_GRACE_MS` to stop on its own. */
  status: 'queued' | 'running' | 'stopping' | 'ready' | 'closed';
  /** Whether the run counts against the pool (from its worker's start until it idles or is gone). */
  holdsSlot: boolean;
  pending?: Pending;
  requests: Map<number, Pending>;
}

/** A task kind in words, for messages. */
const TASK_NAMES: Record<TaskRequest['kind'], string> = { sample: 'sample generation', simulation: 'simulation', solver: 'key-design solve' };

const canceledError = (runId: string, why = 'was canceled') => new AppError({ code: 'task.canceled', message: `Run "${runId}" ${why}.` });

export function createTaskHost(options: TaskHostOptions): TaskHost {
  /** The runs a caller can name: queued, running and kept. */
  const runs = new Map<string, Run>();
  /** Every run not yet closed, including canceled ones whose worker is still stopping. */
  const live = new Set<Run>();
  /** Runs waiting for a slot, first come first served. */
  const queue: Run[] = [];
  /** The queued or running run of each document and kind. */
  const byDocument = new Map<string, Run>();
  /** Finished sample runs, least recently used first. */
  const kept: Run[] = [];
  const keep = Math.max(1, options.keepSampleRuns ?? DEFAULT_KEPT_SAMPLE_RUNS);
  const poolSize = Math.max(1, Math.floor(options.poolSize ?? availableParallelism()));
  const maxQueued = Math.max(0, options.maxQueued ?? DEFAULT_MAX_QUEUED_TASKS);
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[keyplan] ${message}`, ...(error === undefined ? [] : [error])));
  let busySlots = 0;
  let nextRequest = 1;
  let isDisposed = false;

  function forget(run: Run): void {
    if (runs.get(run.runId) === run) runs.delete(run.runId);
    if (run.documentKey !== undefined && byDocument.get(run.documentKey) === run) byDocument.delete(run.documentKey);
  }

  function releaseSlot(run: Run): void {
    if (!run.holdsSlot) return;
    run.holdsSlot = false;
    busySlots -= 1;
    startQueued();
  }

  function close(run: Run, error?: AppError): void {
    if (run.status === 'closed') return;
    const wasQueued = run.status === 'queued';
    run.status = 'closed';
    live.delete(run);
    forget(run);
    const keptAt = kept.indexOf(run);
    if (keptAt >= 0) kept.splice(keptAt, 1);
    if (error) run.pending?.reject(error);
    run.pending = undefined;
    for (const request of run.requests.values()) request.reject(new AppError({ code: 'task.unknown', message: `Run "${run.runId}" was dropped before it answered.` }));
    run.requests.clear();
    if (wasQueued) {
      queue.splice(queue.indexOf(run), 1);
      announceQueue();
      return;
    }
    // The slot is free once the thread is gone, so the pool bounds live threads, not just busy ones.
    void run.worker
      ?.terminate()
      .catch((e: unknown) => log(`Ending the worker of run "${run.runId}" failed.`, e))
      .finally(() => releaseSlot(run));
  }

  /** Stops a queued or running run: its call fails with `error` at once. */
  function stop(run: Run, error: AppError): void {
    if (run.status === 'queued' || run.status === 'ready') return close(run, error);
    if (run.status !== 'running') return;
    run.status = 'stopping';
    if (run.flag) Atomics.store(run.flag, 0, 1);
    run.pending?.reject(error);
    run.pending = undefined;
    forget(run);
    // The worker stops at its next step and says so; one that does not is ended anyway.
    setTimeout(() => close(run), CANCEL_GRACE_MS).unref();
  }

  function emitProgress(run: Run, done: number, total: number, label: string, state: 'queued' | 'running'): void {
    options.emit('task.progress', { runId: run.runId, done, total, label, state });
  }

  /** Tells every queued run how many are ahead of it. */
  function announceQueue(from = 0): void {
    if (isDisposed) return;
    for (let i = from; i < queue.length; i += 1) {
      emitProgress(queue[i] as Run, 0, 0, `Waiting for a free worker (${i === 0 ? 'next in line' : `${i} ahead`})`, 'queued');
    }
  }

  function startQueued(): void {
    let started = 0;
    while (!isDisposed && busySlots < poolSize && queue.length > 0) {
      launch(queue.shift() as Run);
      started += 1;
    }
    if (started > 0) announceQueue();
  }

  function launch(run: Run): void {
    const buffer = new SharedArrayBuffer(4);
    run.flag = new Int32Array(buffer);
    let worker: WorkerLike;
    try {
      worker = options.spawn({ cancelFlag: buffer });
    } catch (error) {
      log(`The worker of run "${run.runId}" could not start.`, error);
      run.status = 'running';
      return close(run, new AppError({ code: 'task.failed', message: `Run "${run.runId}" failed: its worker could not start (${error instanceof Error ? error.message : String(error)}).` }));
    }
    busySlots += 1;
    run.holdsSlot = true;
    run.worker = worker;
    run.status = 'running';
    worker.unref();
    worker.on('message', (message) => onMessage(run, message as WorkerMessage));
    worker.on('error', (error) => {
      log(`The worker of run "${run.runId}" failed.`, error);
      close(run, new AppError({ code: 'task.failed', message: `Run "${run.runId}" failed: ${error.message}` }));
    });
    worker.on('exit', (code) => {
      if (run.status !== 'closed') close(run, new AppError({ code: 'task.failed', message: `Run "${run.runId}" stopped unexpectedly (worker exit code ${code}).` }));
    });
    emitProgress(run, 0, 0, 'Starting', 'running');
    const message: HostMessage = { type: 'start', runId: run.runId, task: run.task };
    worker.postMessage(message);
  }

  /**
   * An idle sample worker keeps its items for paging but computes nothing: it gives its slot back,
   * or hands it to the oldest kept run, dropped for it, until that thread has ended (so no new
   * worker starts beside one still ending).
   */
  function keepForPaging(run: Run): void {
    run.status = 'ready';
    if (run.documentKey !== undefined && byDocument.get(run.documentKey) === run) byDocument.delete(run.documentKey);
    kept.push(run);
    if (kept.length <= keep) return releaseSlot(run);
    const dropped = kept[0] as Run;
    dropped.holdsSlot = run.holdsSlot;
    run.holdsSlot = false;
    close(dropped);
  }

  function onMessage(run: Run, message: WorkerMessage): void {
    switch (message.type) {
      case 'progress':
        if (run.status === 'running') emitProgress(run, message.done, message.total, message.label, 'running');
        return;
      case 'done':
        if (run.status !== 'running') return close(run);
        run.pending?.resolve(message.value);
        run.pending = undefined;
        if (run.task.kind !== 'sample') return close(run);
        return keepForPaging(run);
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

  function start<T>(runId: string, task: TaskRequest, taskOptions: TaskOptions = {}): Promise<T> {
    if (isDisposed) return Promise.reject(canceledError(runId, 'was not started: the host is shutting down'));
    const previous = runs.get(runId);
    if (previous) stop(previous, canceledError(runId, 'was replaced by a new run with the same id'));
    const documentKey = taskOptions.documentId === undefined ? undefined : `${task.kind}:${taskOptions.documentId}`;
    const older = documentKey === undefined ? undefined : byDocument.get(documentKey);
    if (older) stop(older, canceledError(older.runId, `was replaced by a newer ${TASK_NAMES[task.kind]} (run "${runId}") of the same document`));
    if (busySlots >= poolSize && queue.length >= maxQueued) {
      return Promise.reject(
        new AppError({ code: 'task.failed', message: `Run "${runId}" was not started: ${queue.length} tasks are already waiting for a worker (at most ${maxQueued}). Cancel some, or try again when they finish.` }),
      );
    }
    const run: Run = { runId, task, status: 'queued', holdsSlot: false, requests: new Map(), ...(documentKey === undefined ? {} : { documentKey }) };
    const promise = new Promise<T>((resolve, reject) => {
      run.pending = { resolve: resolve as (value: unknown) => void, reject };
    });
    runs.set(runId, run);
    live.add(run);
    if (documentKey !== undefined) byDocument.set(documentKey, run);
    queue.push(run);
    startQueued();
    if (run.status === 'queued') announceQueue(queue.length - 1);
    return promise;
  }

  function ask<T>(runId: string, message: { type: 'page'; view: string; offset: number; limit: number } | { type: 'find'; view: string; key: string }): Promise<T> {
    const run = runs.get(runId);
    if (!run || run.task.kind !== 'sample' || run.status !== 'ready' || !run.worker) {
      const why = !run || run.task.kind !== 'sample' ? 'no sample run has that id (it may have been dropped for a newer one)' : 'its items are still being generated';
      return Promise.reject(new AppError({ code: 'task.unknown', path: 'runId', message: `Cannot read run "${runId}": ${why}.` }));
    }
    // Recently read runs are kept longest.
    kept.splice(kept.indexOf(run), 1);
    kept.push(run);
    const id = nextRequest++;
    const worker = run.worker;
    return new Promise<T>((resolve, reject) => {
      run.requests.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...message, id } as HostMessage);
    });
  }

  return {
    runSimulation: (runId, input, taskOptions) => start<SimulationResult>(runId, { kind: 'simulation', input }, taskOptions),
    solve: (runId, input, taskOptions) => start<SolveResult>(runId, { kind: 'solver', input }, taskOptions),
    generateSample: (runId, input, taskOptions) => start<SampleSummary>(runId, { kind: 'sample', input }, taskOptions),
    page: (runId, view, offset, limit) => ask(runId, { type: 'page', view, offset, limit }),
    find: (runId, view, key) => ask(runId, { type: 'find', view, key }),
    cancel(runId) {
      const run = runs.get(runId);
      if (!run || (run.status !== 'running' && run.status !== 'queued')) return { canceled: false };
      stop(run, canceledError(runId));
      return { canceled: true };
    },
    async dispose() {
      isDisposed = true;
      for (const run of [...live]) close(run, canceledError(run.runId, 'was stopped: the host is shutting down'));
    },
  };
}

export type { ErrorData };
