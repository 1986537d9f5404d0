/**
 * The host side of long tasks: each `simulation.run`, `solver.run` and `sample.generate` runs in a
 * worker thread of its own, so the main process (and with it the UI's IPC) never blocks. Progress arrives as
 * `task.progress` events; `cancel` sets the worker's shared flag (it stops between steps), fails the
 * call with `task.canceled` at once and ends the worker. A sample run's worker stays alive with its
 * items to answer `page` and `find`; only the latest few are kept.
 *
 * More on its rules: docs/modules.md, "src-main/tasks/task-host.ts".
 */
import { availableParallelism } from 'node:os';
import { AppError, type ErrorData } from '../../src-shared/errors.ts';
import type { EventSink } from '../../src-shared/ipc/index.ts';
import type { SimulationResult } from '../../src-shared/partition/index.ts';
import type { SampleRow, SampleSummary } from '../../src-shared/sample/index.ts';
import type { SolveResult } from '../../src-shared/solver/index.ts';
import type { HostMessage, TaskInput, TaskRequest, WorkerMessage } from './protocol.ts';
import type { SpawnWorker, WorkerLike } from './spawn.ts';
import { logToConsole } from '../log.ts';

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

/** Starts the task host: no worker runs until a task is started. */
export function createTaskHost(options: TaskHostOptions): TaskHost {
  const runs = new TaskRuns(options);
  return {
    runSimulation: (runId, input, taskOptions) => runs.start<SimulationResult>(runId, { kind: 'simulation', input }, taskOptions),
    solve: (runId, input, taskOptions) => runs.start<SolveResult>(runId, { kind: 'solver', input }, taskOptions),
    generateSample: (runId, input, taskOptions) => runs.start<SampleSummary>(runId, { kind: 'sample', input }, taskOptions),
    page: (runId, view, offset, limit) => runs.ask(runId, { type: 'page', view, offset, limit }),
    find: (runId, view, key) => runs.ask(runId, { type: 'find', view, key }),
    cancel: (runId) => runs.cancel(runId),
    dispose: async () => runs.dispose(),
  };
}

/**
 * The runs of one task host and the workers they hold (the rules are in the module comment): the
 * pool's slots and queue, each run from queued to closed, and the finished sample runs kept for paging.
 */
class TaskRuns {
  /** The runs a caller can name: queued, running and kept. */
  readonly #runs = new Map<string, Run>();
  /** Every run not yet closed, including canceled ones whose worker is still stopping. */
  readonly #live = new Set<Run>();
  /** Runs waiting for a slot, first come first served. */
  readonly #queue: Run[] = [];
  /** The queued or running run of each document and kind. */
  readonly #byDocument = new Map<string, Run>();
  /** Finished sample runs, least recently used first. */
  readonly #kept: Run[] = [];
  readonly #options: TaskHostOptions;
  readonly #keep: number;
  readonly #poolSize: number;
  readonly #maxQueued: number;
  readonly #log: (message: string, error?: unknown) => void;
  #busySlots = 0;
  #nextRequest = 1;
  #isDisposed = false;

  constructor(options: TaskHostOptions) {
    this.#options = options;
    this.#keep = Math.max(1, options.keepSampleRuns ?? DEFAULT_KEPT_SAMPLE_RUNS);
    this.#poolSize = Math.max(1, Math.floor(options.poolSize ?? availableParallelism()));
    this.#maxQueued = Math.max(0, options.maxQueued ?? DEFAULT_MAX_QUEUED_TASKS);
    this.#log = options.log ?? logToConsole;
  }

  /** Queues a task (replacing a run of the same id, or of the same kind for the same document) and starts it when a slot is free. */
  start<T>(runId: string, task: TaskRequest, taskOptions: TaskOptions = {}): Promise<T> {
    if (this.#isDisposed) return Promise.reject(canceledError(runId, 'was not started: the host is shutting down'));
    const previous = this.#runs.get(runId);
    if (previous) this.#stop(previous, canceledError(runId, 'was replaced by a new run with the same id'));
    const documentKey = taskOptions.documentId === undefined ? undefined : `${task.kind}:${taskOptions.documentId}`;
    const older = documentKey === undefined ? undefined : this.#byDocument.get(documentKey);
    if (older) this.#stop(older, canceledError(older.runId, `was replaced by a newer ${TASK_NAMES[task.kind]} (run "${runId}") of the same document`));
    if (this.#busySlots >= this.#poolSize && this.#queue.length >= this.#maxQueued) {
      return Promise.reject(
        new AppError({ code: 'task.failed', message: `Run "${runId}" was not started: ${this.#queue.length} tasks are already waiting for a worker (at most ${this.#maxQueued}). Cancel some, or try again when they finish.` }),
      );
    }
    const run: Run = { runId, task, status: 'queued', holdsSlot: false, requests: new Map(), ...(documentKey === undefined ? {} : { documentKey }) };
    const promise = new Promise<T>((resolve, reject) => {
      run.pending = { resolve: resolve as (value: unknown) => void, reject };
    });
    this.#runs.set(runId, run);
    this.#live.add(run);
    if (documentKey !== undefined) this.#byDocument.set(documentKey, run);
    this.#queue.push(run);
    this.#startQueued();
    if (run.status === 'queued') this.#announceQueue(this.#queue.length - 1);
    return promise;
  }

  /** Asks a kept sample run's worker for a page of its items or a key's position. */
  ask<T>(runId: string, message: { type: 'page'; view: string; offset: number; limit: number } | { type: 'find'; view: string; key: string }): Promise<T> {
    const run = this.#runs.get(runId);
    if (!run || run.task.kind !== 'sample' || run.status !== 'ready' || !run.worker) {
      const why = !run || run.task.kind !== 'sample' ? 'no sample run has that id (it may have been dropped for a newer one)' : 'its items are still being generated';
      return Promise.reject(new AppError({ code: 'task.unknown', path: 'runId', message: `Cannot read run "${runId}": ${why}.` }));
    }
    // Recently read runs are kept longest.
    this.#kept.splice(this.#kept.indexOf(run), 1);
    this.#kept.push(run);
    const id = this.#nextRequest++;
    const worker = run.worker;
    return new Promise<T>((resolve, reject) => {
      run.requests.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...message, id } as HostMessage);
    });
  }

  cancel(runId: string): { canceled: boolean } {
    const run = this.#runs.get(runId);
    if (!run || (run.status !== 'running' && run.status !== 'queued')) return { canceled: false };
    this.#stop(run, canceledError(runId));
    return { canceled: true };
  }

  dispose(): void {
    this.#isDisposed = true;
    for (const run of [...this.#live]) this.#close(run, canceledError(run.runId, 'was stopped: the host is shutting down'));
  }

  #forget(run: Run): void {
    if (this.#runs.get(run.runId) === run) this.#runs.delete(run.runId);
    if (run.documentKey !== undefined && this.#byDocument.get(run.documentKey) === run) this.#byDocument.delete(run.documentKey);
  }

  #releaseSlot(run: Run): void {
    if (!run.holdsSlot) return;
    run.holdsSlot = false;
    this.#busySlots -= 1;
    this.#startQueued();
  }

  #close(run: Run, error?: AppError): void {
    if (run.status === 'closed') return;
    const wasQueued = run.status === 'queued';
    run.status = 'closed';
    this.#live.delete(run);
    this.#forget(run);
    const keptAt = this.#kept.indexOf(run);
    if (keptAt >= 0) this.#kept.splice(keptAt, 1);
    if (error) run.pending?.reject(error);
    run.pending = undefined;
    for (const request of run.requests.values()) request.reject(new AppError({ code: 'task.unknown', message: `Run "${run.runId}" was dropped before it answered.` }));
    run.requests.clear();
    if (wasQueued) {
      this.#queue.splice(this.#queue.indexOf(run), 1);
      this.#announceQueue();
      return;
    }
    // The slot is free once the thread is gone, so the pool bounds live threads, not just busy ones.
    void run.worker
      ?.terminate()
      .catch((e: unknown) => this.#log(`Ending the worker of run "${run.runId}" failed.`, e))
      .finally(() => this.#releaseSlot(run));
  }

  /** Stops a queued or running run: its call fails with `error` at once. */
  #stop(run: Run, error: AppError): void {
    if (run.status === 'queued' || run.status === 'ready') return this.#close(run, error);
    if (run.status !== 'running') return;
    run.status = 'stopping';
    if (run.flag) Atomics.store(run.flag, 0, 1);
    run.pending?.reject(error);
    run.pending = undefined;
    this.#forget(run);
    // The worker stops at its next step and says so; one that does not is ended anyway.
    setTimeout(() => this.#close(run), CANCEL_GRACE_MS).unref();
  }

  #emitProgress(run: Run, done: number, total: number, label: string, state: 'queued' | 'running'): void {
    this.#options.emit('task.progress', { runId: run.runId, done, total, label, state });
  }

  /** Tells every queued run how many are ahead of it. */
  #announceQueue(from = 0): void {
    if (this.#isDisposed) return;
    for (let i = from; i < this.#queue.length; i += 1) {
      this.#emitProgress(this.#queue[i] as Run, 0, 0, `Waiting for a free worker (${i === 0 ? 'next in line' : `${i} ahead`})`, 'queued');
    }
  }

  #startQueued(): void {
    let started = 0;
    while (!this.#isDisposed && this.#busySlots < this.#poolSize && this.#queue.length > 0) {
      this.#launch(this.#queue.shift() as Run);
      started += 1;
    }
    if (started > 0) this.#announceQueue();
  }

  #launch(run: Run): void {
    const buffer = new SharedArrayBuffer(4);
    run.flag = new Int32Array(buffer);
    let worker: WorkerLike;
    try {
      worker = this.#options.spawn({ cancelFlag: buffer });
    } catch (error) {
      this.#log(`The worker of run "${run.runId}" could not start.`, error);
      run.status = 'running';
      return this.#close(run, new AppError({ code: 'task.failed', message: `Run "${run.runId}" failed: its worker could not start (${error instanceof Error ? error.message : String(error)}).` }));
    }
    this.#busySlots += 1;
    run.holdsSlot = true;
    run.worker = worker;
    run.status = 'running';
    worker.unref();
    worker.on('message', (message) => this.#onMessage(run, message as WorkerMessage));
    worker.on('error', (error) => {
      this.#log(`The worker of run "${run.runId}" failed.`, error);
      this.#close(run, new AppError({ code: 'task.failed', message: `Run "${run.runId}" failed: ${error.message}` }));
    });
    worker.on('exit', (code) => {
      if (run.status !== 'closed') this.#close(run, new AppError({ code: 'task.failed', message: `Run "${run.runId}" stopped unexpectedly (worker exit code ${code}).` }));
    });
    this.#emitProgress(run, 0, 0, 'Starting', 'running');
    const message: HostMessage = { type: 'start', runId: run.runId, task: run.task };
    worker.postMessage(message);
  }

  /**
   * An idle sample worker keeps its items for paging but computes nothing: it gives its slot back,
   * or hands it to the oldest kept run, dropped for it, until that thread has ended (so no new
   * worker starts beside one still ending).
   */
  #keepForPaging(run: Run): void {
    run.status = 'ready';
    if (run.documentKey !== undefined && this.#byDocument.get(run.documentKey) === run) this.#byDocument.delete(run.documentKey);
    this.#kept.push(run);
    if (this.#kept.length <= this.#keep) return this.#releaseSlot(run);
    const dropped = this.#kept[0] as Run;
    dropped.holdsSlot = run.holdsSlot;
    run.holdsSlot = false;
    this.#close(dropped);
  }

  #onMessage(run: Run, message: WorkerMessage): void {
    switch (message.type) {
      case 'progress':
        if (run.status === 'running') this.#emitProgress(run, message.done, message.total, message.label, 'running');
        return;
      case 'done':
        if (run.status !== 'running') return this.#close(run);
        run.pending?.resolve(message.value);
        run.pending = undefined;
        if (run.task.kind !== 'sample') return this.#close(run);
        return this.#keepForPaging(run);
      case 'canceled':
        return this.#close(run, canceledError(run.runId));
      case 'failed':
        return this.#close(run, new AppError(message.error));
      case 'reply': {
        const request = run.requests.get(message.id);
        run.requests.delete(message.id);
        if (!request) return;
        if (message.ok) request.resolve(message.value);
        else request.reject(new AppError(message.error));
      }
    }
  }
}

export type { ErrorData };
