import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import type { EventPayload } from '../../src-shared/ipc/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { manyEntitiesDesign } from '../contract.suite.ts';
import { sampleDesign } from '../test-support/designs.ts';
import { solve, stripKeyDesign } from '../../src-shared/solver/index.ts';
import { generateSampleTask, runSimulationTask, runSolverTask, solverProgressLabel, TaskCanceled } from './run-task.ts';
import { TASK_WORKER_SOURCE, taskWorkerSpawner } from './spawn.ts';
import { createTaskHost, type TaskHost } from './task-host.ts';

const BUILT_WORKER = join(import.meta.dirname, '..', '..', 'out', 'main', 'task-worker.js');

/** The shipped e-commerce example (table `tbl-shop`) with every key template and index removed. */
function shopWithoutKeys(): Design {
  const example = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'ecommerce.keyplan.json'), 'utf8')) as Design;
  return stripKeyDesign(example);
}

/** A solve's answer without its timings, which differ between two runs of the same search. */
const untimed = ({ elapsedMs: _e, firstDesignMs: _f, ...rest }: ReturnType<typeof solve>) => rest;

/** The sample design with a workload of `seconds` one-second steps. */
function designFor(seconds: number): Design {
  const design = sampleDesign('Tasks');
  return { ...design, workload: { durationSeconds: seconds, stepSeconds: 1, seed: 3, events: [] } };
}

function hostWith(entry = TASK_WORKER_SOURCE, keepSampleRuns?: number): { host: TaskHost; progress: EventPayload<'task.progress'>[] } {
  const progress: EventPayload<'task.progress'>[] = [];
  const host = createTaskHost({
    emit: (event, payload) => {
      if (event === 'task.progress') progress.push(payload as EventPayload<'task.progress'>);
    },
    spawn: taskWorkerSpawner(entry),
    ...(keepSampleRuns ? { keepSampleRuns } : {}),
    log: () => {},
  });
  onTestFinished(() => host.dispose());
  return { host, progress };
}

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('tasks in-process', () => {
  test('a simulation reports progress and stops between steps once canceled', () => {
    const seen: number[] = [];
    let canceled = false;
    const run = () =>
      runSimulationTask({ design: designFor(10_000), tableId: 'table-app' }, {
        isCanceled: () => canceled,
        progress: (done) => {
          seen.push(done);
          if (done >= 64) canceled = true;
        },
      });
    expect(run).toThrow(TaskCanceled);
    expect(seen.at(-1)).toBeLessThan(200);
  });

  test('a simulation runs to the end and reports every step done', () => {
    let last = { done: 0, total: -1 };
    const result = runSimulationTask({ design: designFor(100), tableId: 'table-app', seed: 9 }, { isCanceled: () => false, progress: (done, total) => (last = { done, total }) });
    expect(last).toEqual({ done: 100, total: 100 });
    expect(result).toMatchObject({ seed: 9, tableName: 'AppTable', durationSeconds: 100 });
  });

  test('a simulation takes its start, partition limits and shard headroom from the input', () => {
    const result = runSimulationTask(
      { design: designFor(10), tableId: 'table-app', simulation: { start: 'warm', limits: 'linear', headroom: 2 } },
      { isCanceled: () => false, progress: () => {} },
    );
    expect(result).toMatchObject({ start: 'warm', partitionLimits: 'linear' });
    expect(runSimulationTask({ design: designFor(10), tableId: 'table-app' }, { isCanceled: () => false, progress: () => {} })).toMatchObject({ start: 'cold', partitionLimits: 'independent' });
  });

  test('the solver reports what it priced and its best cost, and answers what the solver answers in-process', () => {
    const labels: string[] = [];
    let last = { done: 0, total: -1 };
    const input = { design: shopWithoutKeys(), tableId: 'tbl-shop', seed: 4, solver: { maxGsis: 3, noScan: true } };
    const result = runSolverTask(input, {
      isCanceled: () => false,
      progress: (done, total, label) => {
        labels.push(label);
        last = { done, total };
      },
    });
    expect(labels[0]).toMatch(/^Priced \d+ of \d+ key designs/);
    expect(labels).toContainEqual(expect.stringMatching(/^Priced \d+ of \d+ key designs · best so far \$[\d,]+\.\d\d\/month$/));
    expect(labels).toContainEqual(expect.stringMatching(/^Checking the best 3 designs with the partition simulator/));
    expect(labels.at(-1)).toMatch(/^Priced \d+ key designs · best \$[\d,]+\.\d\d\/month$/);
    expect(last.done).toBe(last.total);
    // The constraints reach the solver: the same search run directly gives the same proposals.
    expect(untimed(result)).toEqual(untimed(solve(input.design, 'tbl-shop', { seed: 4, maxGsis: 3, noScan: true })));
    expect(result.proposals.every((p) => p.gsiCount <= 3)).toBe(true);
  });

  test('a search with too many combinations to price every one shows the time it may take, not a total', () => {
    const reports: { done: number; total: number; label: string }[] = [];
    // A clock that moves 50 ms at each reading: the 8 s search budget ends after a few steps.
    let clock = 0;
    const now = () => (clock += 50);
    runSolverTask({ design: manyEntitiesDesign(), tableId: 'table-work' }, { isCanceled: () => false, progress: (done, total, label) => reports.push({ done, total, label }) }, now);
    const searching = reports.filter((r) => r.label.startsWith('Priced') && r.label.includes('searching'));
    expect(searching.length).toBeGreaterThan(0);
    expect(searching[0]!.label).toMatch(/^Priced \d+ key designs, searching for up to 8 s/);
    expect(searching.every((r) => r.total === 8000 && r.done <= 8000)).toBe(true);
    expect(reports.map((r) => r.label)).not.toContainEqual(expect.stringMatching(/ of \d+ key designs/));
  });

  test('the solver stops between steps once canceled', () => {
    const seen: number[] = [];
    let canceled = false;
    const run = () =>
      runSolverTask({ design: shopWithoutKeys(), tableId: 'tbl-shop' }, {
        isCanceled: () => canceled,
        progress: (done) => {
          seen.push(done);
          canceled = true;
        },
      });
    expect(run).toThrow(TaskCanceled);
    // The step after the first report is the last: no further report, no finalists.
    expect(seen).toHaveLength(1);
  });

  test('a solver label names the phase: pricing, checking the finalists, done', () => {
    expect(solverProgressLabel({ evaluated: 12, total: 16, exhaustive: true, bestMonthlyUsd: 1144.8225, phase: 'layouts' }, 3)).toBe('Priced 12 of 16 key designs · best so far $1,144.82/month');
    expect(solverProgressLabel({ evaluated: 3, total: 1200, exhaustive: true, phase: 'layouts' }, 3)).toBe('Priced 3 of 1,200 key designs');
    expect(solverProgressLabel({ evaluated: 40, total: 52, exhaustive: false, bestMonthlyUsd: 50, phase: 'layouts' }, 3, 8000)).toBe('Priced 40 key designs, searching for up to 8 s · best so far $50.00/month');
    expect(solverProgressLabel({ evaluated: 2, total: 2, exhaustive: true, bestMonthlyUsd: 5, phase: 'finalists' }, 3)).toBe('Checking the best 2 designs with the partition simulator · best so far $5.00/month');
    expect(solverProgressLabel({ evaluated: 16, total: 16, exhaustive: true, bestMonthlyUsd: 5, phase: 'finalists' }, 1)).toBe('Checking the best design with the partition simulator · best so far $5.00/month');
    expect(solverProgressLabel({ evaluated: 16, total: 16, exhaustive: true, phase: 'done' }, 3)).toBe('Priced 16 key designs');
  });

  test('the solver refuses a table the design does not have, naming the field', () => {
    let thrown: unknown;
    try {
      runSolverTask({ design: shopWithoutKeys(), tableId: 'nope' }, { isCanceled: () => false, progress: () => {} });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).toData()).toMatchObject({ code: 'ipc.badInput', path: 'tableId' });
  });

  test('sample generation stops when canceled', () => {
    const design = sampleDesign('Big');
    design.tables[0]!.entities[0]!.itemCount = 500_000;
    let calls = 0;
    expect(() => generateSampleTask({ design, tableId: 'table-app' }, 'r', { isCanceled: () => calls++ > 1, progress: () => {} })).toThrow(TaskCanceled);
  });
});

// Each test starts workers that load the TypeScript sources through tsx: seconds on a busy machine.
describe('the task host with real worker threads', { timeout: 30_000 }, () => {
  test('runs a simulation in a worker from the TypeScript source, with progress events', async () => {
    const { host, progress } = hostWith();
    const result = await host.runSimulation('sim-1', { design: designFor(600), tableId: 'table-app' });
    expect(result.targets[0]).toMatchObject({ name: 'table', partitionCount: 4 });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.runId === 'sim-1')).toBe(true);
    expect(progress.at(-1)).toMatchObject({ done: 600, total: 600 });
    // A finished simulation keeps nothing: there is nothing left to cancel.
    expect(host.cancel('sim-1')).toEqual({ canceled: false });
  });

  test('cancel fails the pending call with task.canceled and ends the worker', async () => {
    const { host, progress } = hostWith();
    const running = host.runSimulation('long', { design: designFor(7 * 24 * 3600), tableId: 'table-app' });
    await waitFor(() => progress.length > 0);
    expect(host.cancel('long')).toEqual({ canceled: true });
    const error = await errorOf(running);
    expect(error.code).toBe('task.canceled');
    expect(host.cancel('long')).toEqual({ canceled: false });
  });

  test('a sample run answers pages and finds until it is dropped for newer runs', async () => {
    const { host } = hostWith(TASK_WORKER_SOURCE, 2);
    const summary = await host.generateSample('s1', { design: sampleDesign('S'), tableId: 'table-app', seed: 4 });
    expect(summary).toMatchObject({ runId: 's1', itemCount: 1000 });
    const page = await host.page('s1', 'table', 0, 5);
    expect(page.rows).toHaveLength(5);
    expect(page.total).toBeGreaterThanOrEqual(1000);
    const key = page.rows.find((r) => r.partitionKey !== undefined)?.partitionKey ?? '';
    expect((await host.find('s1', 'table', key)).offset).toEqual(expect.any(Number));
    expect((await host.find('s1', 'table', 'NO-SUCH-KEY')).offset).toBeNull();
    expect((await errorOf(host.page('s1', 'GSI9', 0, 5))).toData()).toMatchObject({ code: 'ipc.badInput', path: 'view' });

    await host.generateSample('s2', { design: sampleDesign('S'), tableId: 'table-app' });
    await host.page('s1', 'table', 0, 1); // s1 is now the most recently used
    await host.generateSample('s3', { design: sampleDesign('S'), tableId: 'table-app' });
    expect((await errorOf(host.page('s2', 'table', 0, 1))).code).toBe('task.unknown');
    await expect(host.page('s1', 'table', 0, 1)).resolves.toBeDefined();
    await expect(host.page('s3', 'table', 0, 1)).resolves.toBeDefined();
  });

  test('runs the key-design solver in a worker: progress events for its run, the ranked proposals, nothing kept after', async () => {
    const { host, progress } = hostWith();
    const result = await host.solve('solve-1', { design: shopWithoutKeys(), tableId: 'tbl-shop', seed: 2 });
    expect(result.tableId).toBe('tbl-shop');
    expect(result.proposals.map((p) => p.rank)).toEqual([1, 2, 3]);
    expect(progress.filter((p) => p.state === 'running' && p.label.startsWith('Priced')).every((p) => p.runId === 'solve-1')).toBe(true);
    expect(progress.at(-1)).toMatchObject({ runId: 'solve-1', label: expect.stringMatching(/^Priced \d+ key designs/) });
    expect(host.cancel('solve-1')).toEqual({ canceled: false });
  });

  test('unknown runs are task.unknown, and a failure inside the worker comes back as data', async () => {
    const { host } = hostWith();
    expect((await errorOf(host.page('nope', 'table', 0, 1))).code).toBe('task.unknown');
    expect((await errorOf(host.find('nope', 'table', 'x'))).code).toBe('task.unknown');
    const error = await errorOf(host.runSimulation('bad', { design: designFor(10), tableId: 'missing' }));
    expect(error.toData()).toMatchObject({ code: 'ipc.badInput', path: 'tableId' });
  });

  test('many generations at once share a pool of real workers: queued ones wait, then all finish', async () => {
    let live = 0;
    let maxLive = 0;
    const spawnReal = taskWorkerSpawner(TASK_WORKER_SOURCE);
    const progress: EventPayload<'task.progress'>[] = [];
    const host = createTaskHost({
      emit: (event, payload) => void (event === 'task.progress' && progress.push(payload as EventPayload<'task.progress'>)),
      spawn: (data) => {
        const worker = spawnReal(data);
        maxLive = Math.max(maxLive, ++live);
        worker.on('exit', () => (live -= 1));
        return worker;
      },
      poolSize: 2,
      keepSampleRuns: 1,
      log: () => {},
    });
    onTestFinished(() => host.dispose());
    const runIds = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6'];
    const finished: string[] = [];
    const generate = async (runId: string) => {
      const summary = await host.generateSample(runId, { design: sampleDesign('S'), tableId: 'table-app' });
      finished.push(runId);
      return summary;
    };
    const summaries = await Promise.all(runIds.map(generate));
    expect(summaries.map((s) => s.itemCount)).toEqual(runIds.map(() => 1000));
    // Two computing, plus the one kept for paging while the next ones start.
    expect(maxLive).toBeLessThanOrEqual(3);
    expect(progress.filter((p) => p.state === 'queued').map((p) => p.runId)).toContain('g6');
    await expect(host.page(finished.at(-1) as string, 'table', 0, 1)).resolves.toBeDefined();
  });

  test.skipIf(!existsSync(BUILT_WORKER))('runs a simulation in the built worker (out/main/task-worker.js)', async () => {
    const { host } = hostWith(BUILT_WORKER);
    const result = await host.runSimulation('built', { design: designFor(120), tableId: 'table-app' });
    expect(result.patterns[0]).toMatchObject({ patternId: 'ap-get-user', throttled: 0 });
  });
});

/** Polls until `condition` holds (a worker's first progress event), failing after 20 s. */
async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
