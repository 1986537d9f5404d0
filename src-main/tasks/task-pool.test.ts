/**
 * The task host's pool, queue and per-document replacement, over fake workers whose tasks finish
 * when a test says so (or after a few milliseconds), and which count how many are alive and busy.
 */
import { describe, expect, onTestFinished, test } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import type { EventPayload } from '../../src-shared/ipc/index.ts';
import { sampleDesign } from '../test-support/designs.ts';
import type { HostMessage, TaskInput, WorkerMessage } from './protocol.ts';
import type { WorkerLike } from './spawn.ts';
import { createTaskHost, type TaskHost, type TaskHostOptions } from './task-host.ts';

type Listener = (value: never) => void;

/** Live and busy workers now, and the most there ever were at once. */
interface Census {
  spawned: number;
  live: number;
  busy: number;
  maxLive: number;
  maxBusy: number;
}

/** A worker that runs its task until `finish()` (or for `autoFinishMs`), answers pages, and exits when terminated. */
class FakeWorker implements WorkerLike {
  readonly listeners: Record<'message' | 'error' | 'exit', Listener[]> = { message: [], error: [], exit: [] };
  runId?: string;
  #busy = false;
  #exited = false;
  readonly #census: Census;

  constructor(census: Census, readonly flag: Int32Array, readonly autoFinishMs?: number) {
    this.#census = census;
    census.spawned += 1;
    census.live += 1;
    census.maxLive = Math.max(census.maxLive, census.live);
  }

  postMessage(message: unknown): void {
    const m = message as HostMessage;
    if (m.type === 'start') {
      this.runId = m.runId;
      this.#busy = true;
      this.#census.busy += 1;
      this.#census.maxBusy = Math.max(this.#census.maxBusy, this.#census.busy);
      this.#send({ type: 'progress', done: 0, total: 10, label: 'working' });
      if (this.autoFinishMs !== undefined) setTimeout(() => this.finish(), this.autoFinishMs);
    } else {
      this.#send({ type: 'reply', id: m.id, ok: true, value: { total: 0, rows: [] } });
    }
  }

  /** Ends the task: `canceled` when the host set the flag, else `done`. */
  finish(): void {
    if (!this.#busy || this.#exited) return;
    this.#idle();
    this.#send(Atomics.load(this.flag, 0) !== 0 ? { type: 'canceled' } : { type: 'done', value: { runId: this.runId } });
  }

  get isBusy(): boolean {
    return this.#busy;
  }

  on(event: 'message' | 'error' | 'exit', listener: Listener): this {
    this.listeners[event].push(listener);
    return this;
  }

  terminate(): Promise<number> {
    if (!this.#exited) {
      this.#exited = true;
      this.#idle();
      this.#census.live -= 1;
      setImmediate(() => this.listeners.exit.forEach((l) => (l as (code: number) => void)(1)));
    }
    return Promise.resolve(1);
  }

  unref(): void {}

  #idle(): void {
    if (!this.#busy) return;
    this.#busy = false;
    this.#census.busy -= 1;
  }

  #send(message: WorkerMessage): void {
    queueMicrotask(() => {
      if (!this.#exited) this.listeners.message.forEach((l) => (l as (m: unknown) => void)(message));
    });
  }
}

function fakeHost(options: Partial<TaskHostOptions> & { autoFinishMs?: number } = {}) {
  const census: Census = { spawned: 0, live: 0, busy: 0, maxLive: 0, maxBusy: 0 };
  const workers: FakeWorker[] = [];
  const progress: EventPayload<'task.progress'>[] = [];
  const { autoFinishMs, ...hostOptions } = options;
  const host: TaskHost = createTaskHost({
    emit: (event, payload) => {
      if (event === 'task.progress') progress.push(payload as EventPayload<'task.progress'>);
    },
    spawn: (data) => {
      const worker = new FakeWorker(census, new Int32Array(data.cancelFlag), autoFinishMs);
      workers.push(worker);
      return worker;
    },
    log: () => {},
    ...hostOptions,
  });
  onTestFinished(() => host.dispose());
  const workerOf = (runId: string) => workers.find((w) => w.runId === runId);
  return { host, census, workers, progress, workerOf };
}

const input: TaskInput = { design: sampleDesign('Pool'), tableId: 'table-app' };

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

/** Lets queued microtasks and immediates (fake worker messages and exits) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the task pool', () => {
  test('40 concurrent generations never run more than the pool size at once, and all complete', async () => {
    const poolSize = 3;
    const { host, census, progress } = fakeHost({ poolSize, autoFinishMs: 3 });
    const runIds = Array.from({ length: 40 }, (_, i) => `gen-${i}`);
    const summaries = await Promise.all(runIds.map((runId) => host.generateSample(runId, input)));
    expect(summaries.map((s) => s.runId)).toEqual(runIds);
    expect(census.spawned).toBe(40);
    expect(census.maxBusy).toBe(poolSize);
    // Kept sample workers idle beside the pool: never more than pool + kept (2) threads.
    expect(census.maxLive).toBeLessThanOrEqual(poolSize + 2);
    const queued = progress.filter((p) => p.state === 'queued');
    expect(new Set(queued.map((p) => p.runId)).size).toBe(40 - poolSize);
    expect(progress.find((p) => p.runId === 'gen-10' && p.state === 'queued')).toMatchObject({ label: 'Waiting for a free worker (7 ahead)' });
    // Every run, queued or not, says when it starts.
    expect(new Set(progress.filter((p) => p.state === 'running').map((p) => p.runId)).size).toBe(40);
  });

  test('a queued run counts down the runs ahead of it, then says it is running', async () => {
    const { host, progress, workerOf } = fakeHost({ poolSize: 1 });
    const first = host.runSimulation('a', input);
    void host.runSimulation('b', input);
    const third = host.runSimulation('c', input);
    expect(progress.filter((p) => p.runId === 'c').map((p) => p.label)).toEqual(['Waiting for a free worker (1 ahead)']);
    await settle();
    workerOf('a')?.finish();
    await first;
    await settle();
    expect(progress.filter((p) => p.runId === 'c').map((p) => [p.state, p.label])).toEqual([
      ['queued', 'Waiting for a free worker (1 ahead)'],
      ['queued', 'Waiting for a free worker (next in line)'],
    ]);
    workerOf('b')?.finish();
    await settle();
    expect(progress.filter((p) => p.runId === 'c').at(-1)).toMatchObject({ state: 'running' });
    workerOf('c')?.finish();
    await expect(third).resolves.toEqual({ runId: 'c' });
  });

  test('canceling a queued run takes it out of the queue: its call fails with task.canceled and no worker starts for it', async () => {
    const { host, census, workerOf } = fakeHost({ poolSize: 1 });
    const running = host.generateSample('running', input);
    const waiting = host.generateSample('waiting', input);
    const after = host.generateSample('after', input);
    expect(host.cancel('waiting')).toEqual({ canceled: true });
    expect((await errorOf(waiting)).code).toBe('task.canceled');
    expect(host.cancel('waiting')).toEqual({ canceled: false });
    await settle();
    workerOf('running')?.finish();
    await running;
    await settle();
    expect(workerOf('waiting')).toBeUndefined();
    workerOf('after')?.finish();
    await after;
    expect(census.spawned).toBe(2);
  });

  test('a canceled running run gives its slot back once its worker has ended', async () => {
    const { host, census, workerOf } = fakeHost({ poolSize: 1 });
    const first = host.runSimulation('first', input);
    const second = host.runSimulation('second', input);
    await settle();
    expect(host.cancel('first')).toEqual({ canceled: true });
    expect((await errorOf(first)).code).toBe('task.canceled');
    expect(census.spawned).toBe(1); // still stopping: the slot is not free yet
    workerOf('first')?.finish(); // the worker sees its flag
    await settle();
    expect(census.live).toBe(1);
    workerOf('second')?.finish();
    await expect(second).resolves.toEqual({ runId: 'second' });
    expect(census.maxBusy).toBe(1);
  });

  test('a newer run for the same document and kind replaces a running one, and another document or kind is left alone', async () => {
    const { host, workerOf } = fakeHost({ poolSize: 4 });
    const old = host.generateSample('old', input, { documentId: 'doc-1' });
    const simulation = host.runSimulation('sim', input, { documentId: 'doc-1' });
    const otherDocument = host.generateSample('other', input, { documentId: 'doc-2' });
    await settle();
    const newer = host.generateSample('new', input, { documentId: 'doc-1' });
    const error = await errorOf(old);
    expect(error.code).toBe('task.canceled');
    expect(error.message).toMatch(/replaced by a newer sample generation/);
    await settle();
    expect(Atomics.load(workerOf('old')!.flag, 0)).toBe(1);
    for (const id of ['new', 'sim', 'other']) workerOf(id)?.finish();
    await expect(Promise.all([newer, simulation, otherDocument])).resolves.toHaveLength(3);
  });

  test('a newer run for the same document replaces a queued one before it starts', async () => {
    const { host, census, workerOf } = fakeHost({ poolSize: 1 });
    const blocker = host.runSimulation('blocker', input);
    const old = host.runSimulation('old', input, { documentId: 'doc-1' });
    const newer = host.runSimulation('new', input, { documentId: 'doc-1' });
    expect((await errorOf(old)).code).toBe('task.canceled');
    await settle();
    workerOf('blocker')?.finish();
    await blocker;
    await settle();
    workerOf('new')?.finish();
    await newer;
    expect(census.spawned).toBe(2);
  });

  test('a finished run of a document does not stop the next one of that document', async () => {
    const { host, workerOf } = fakeHost({ poolSize: 2 });
    const first = host.generateSample('first', input, { documentId: 'doc-1' });
    await settle();
    workerOf('first')?.finish();
    await first;
    const second = host.generateSample('second', input, { documentId: 'doc-1' });
    await settle();
    workerOf('second')?.finish();
    await second;
    // The first run's items are still there to page.
    await expect(host.page('first', 'table', 0, 1)).resolves.toEqual({ total: 0, rows: [] });
  });

  test('kept sample runs do not pin the pool: with one slot, a third generation still runs', async () => {
    const { host, census } = fakeHost({ poolSize: 1, keepSampleRuns: 2, autoFinishMs: 1 });
    await host.generateSample('s1', input);
    await host.generateSample('s2', input);
    await expect(host.generateSample('s3', input)).resolves.toEqual({ runId: 's3' });
    await settle();
    expect(census.live).toBe(2);
  });

  test('a full queue refuses a new run with task.failed', async () => {
    const { host } = fakeHost({ poolSize: 1, maxQueued: 1 });
    // Both fail with task.canceled when the test's host is disposed.
    host.runSimulation('running', input).catch(() => {});
    host.runSimulation('waiting', input).catch(() => {});
    expect((await errorOf(host.runSimulation('one-too-many', input))).code).toBe('task.failed');
  });

  test('dispose fails queued and running calls with task.canceled', async () => {
    const { host } = fakeHost({ poolSize: 1 });
    const running = host.runSimulation('running', input);
    const waiting = host.runSimulation('waiting', input);
    await host.dispose();
    expect((await errorOf(running)).code).toBe('task.canceled');
    expect((await errorOf(waiting)).code).toBe('task.canceled');
    expect((await errorOf(host.runSimulation('late', input))).code).toBe('task.canceled');
  });
});
