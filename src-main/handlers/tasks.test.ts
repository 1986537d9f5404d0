import { describe, expect, test } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import type { ApiHandlers } from '../../src-shared/ipc/index.ts';
import { dispatchRequest } from '../../src-shared/ipc/host.ts';
import type { TaskInput } from '../tasks/protocol.ts';
import type { TaskHost, TaskOptions } from '../tasks/task-host.ts';
import { sampleDesign } from '../test-support/designs.ts';
import type { HandlerDeps } from './deps.ts';
import { createTaskHandlers } from './tasks.ts';

/** Task handlers over a host that records what it was asked to run. */
function handlersWithCalls() {
  const calls: { kind: string; runId: string; input: TaskInput; options: TaskOptions | undefined }[] = [];
  const tasks = {
    runSimulation: async (runId: string, input: TaskInput, options?: TaskOptions) => (calls.push({ kind: 'simulation', runId, input, options }), {}),
    generateSample: async (runId: string, input: TaskInput, options?: TaskOptions) => (calls.push({ kind: 'sample', runId, input, options }), {}),
    solve: async (runId: string, input: TaskInput, options?: TaskOptions) => (calls.push({ kind: 'solver', runId, input, options }), {}),
  } as unknown as TaskHost;
  return { handlers: createTaskHandlers({ tasks } as HandlerDeps), calls };
}

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('task handlers', () => {
  test('pass the document a task is for to the task host', async () => {
    const { handlers, calls } = handlersWithCalls();
    const base = { runId: 'r1', design: sampleDesign(), tableId: 'table-app' };
    await handlers['sample.generate']({ ...base, documentId: 'doc-1' });
    await handlers['simulation.run']({ ...base, documentId: 'doc-1', start: 'warm' });
    await handlers['sample.generate'](base);
    expect(calls.map((c) => [c.kind, c.options])).toEqual([
      ['sample', { documentId: 'doc-1' }],
      ['simulation', { documentId: 'doc-1' }],
      ['sample', {}],
    ]);
    expect(calls[1]?.input.simulation).toEqual({ start: 'warm' });
  });

  test('refuse a document id that is not a string or longer than 200 characters before any task starts', async () => {
    const { handlers, calls } = handlersWithCalls();
    const dispatch = (channel: 'sample.generate' | 'simulation.run', input: unknown) => dispatchRequest(handlers as ApiHandlers, channel, input);
    const base = { runId: 'r1', design: sampleDesign(), tableId: 'table-app' };
    expect(await dispatch('simulation.run', { ...base, documentId: 'd'.repeat(201) })).toMatchObject({ ok: false, error: { code: 'ipc.badInput', path: 'documentId' } });
    expect(await dispatch('sample.generate', { ...base, documentId: 7 })).toMatchObject({ ok: false, error: { code: 'ipc.badInput', path: 'documentId' } });
    expect(await dispatch('sample.generate', { ...base, documentId: 'd'.repeat(200) })).toMatchObject({ ok: true });
    expect(calls).toHaveLength(1);
  });

  test('pass the solver its constraints, its seed and its document', async () => {
    const { handlers, calls } = handlersWithCalls();
    const base = { runId: 'r1', design: sampleDesign(), tableId: 'table-app' };
    await handlers['solver.run']({ ...base, seed: 7, documentId: 'doc-1', top: 2, maxGsis: 1, noScan: true, billing: 'provisioned', monthlyBudgetUsd: 40, keepTableKey: true });
    await handlers['solver.run'](base);
    expect(calls.map((c) => [c.kind, c.runId, c.options])).toEqual([
      ['solver', 'r1', { documentId: 'doc-1' }],
      ['solver', 'r1', {}],
    ]);
    expect(calls[0]?.input).toMatchObject({ tableId: 'table-app', seed: 7, solver: { top: 2, maxGsis: 1, noScan: true, billing: 'provisioned', monthlyBudgetUsd: 40, keepTableKey: true } });
    expect(calls[1]?.input.seed).toBeUndefined();
  });

  test('refuse solver constraints out of range, by field, before any task starts', async () => {
    const { handlers, calls } = handlersWithCalls();
    const dispatch = (input: unknown) => dispatchRequest(handlers as ApiHandlers, 'solver.run', input);
    const base = { runId: 'r1', design: sampleDesign(), tableId: 'table-app' };
    // DynamoDB allows 20 GSIs per table by default; a proposal count of 0 asks for nothing.
    expect(await dispatch({ ...base, maxGsis: 21 })).toMatchObject({ ok: false, error: { code: 'ipc.badInput', path: 'maxGsis' } });
    expect(await dispatch({ ...base, maxGsis: 1.5 })).toMatchObject({ ok: false, error: { code: 'ipc.badInput', path: 'maxGsis' } });
    expect(await dispatch({ ...base, top: 0 })).toMatchObject({ ok: false, error: { code: 'ipc.badInput', path: 'top' } });
    expect(await dispatch({ ...base, billing: 'reserved' })).toMatchObject({ ok: false, error: { code: 'ipc.badInput', path: 'billing' } });
    expect(await dispatch({ ...base, monthlyBudgetUsd: -5 })).toMatchObject({ ok: false, error: { code: 'ipc.badInput', path: 'monthlyBudgetUsd' } });
    expect(await dispatch({ ...base, noScan: 'yes' })).toMatchObject({ ok: false, error: { code: 'ipc.badInput', path: 'noScan' } });
    expect(await dispatch({ ...base, timeBudgetMs: 60_000 })).toMatchObject({ ok: false, error: { code: 'ipc.badInput', path: 'timeBudgetMs' } });
    expect(calls).toEqual([]);
    expect(await dispatch({ ...base, maxGsis: 20, top: 10, monthlyBudgetUsd: 0 })).toMatchObject({ ok: true });
    expect(calls).toHaveLength(1);
  });

  test('refuse a table the design does not have, naming the tables it has', async () => {
    const { handlers, calls } = handlersWithCalls();
    const error = await errorOf(handlers['simulation.run']({ runId: 'r1', design: sampleDesign(), tableId: 'nope' }));
    expect(error.toData()).toMatchObject({ code: 'ipc.badInput', path: 'tableId' });
    expect(error.message).toContain('"table-app"');
    const solver = await errorOf(handlers['solver.run']({ runId: 'r1', design: sampleDesign(), tableId: 'nope' }));
    expect(solver.toData()).toMatchObject({ code: 'ipc.badInput', path: 'tableId' });
    expect(calls).toEqual([]);
  });
});
