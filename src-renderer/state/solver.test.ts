/**
 * The "Propose key design" dialog's state: what a table needs before the solver can run, the
 * current design's cost the proposals are set against, and the solver store's races (a rerun, a
 * cancel, a late answer). The host is a stand-in whose answers the test releases one by one.
 */
import { describe, expect, it } from 'vitest';
import { costDesign } from '../../src-shared/costing/index.ts';
import { AppError } from '../../src-shared/errors.ts';
import type { ApiClient } from '../../src-shared/ipc/index.ts';
import type { Design, Table } from '../../src-shared/model/index.ts';
import { stripKeyDesign, type SolveResult } from '../../src-shared/solver/index.ts';
import ecommerce from '../../examples/ecommerce.keyplan.json';
import { costRatio, currentCostOf, missingForSolver, SolverStore } from './solver.svelte.ts';

const example = (): Design => structuredClone(ecommerce) as Design;

interface Pending {
  channel: string;
  input: Record<string, unknown>;
  resolve(result: SolveResult): void;
  reject(error: unknown): void;
}

function fakeHost() {
  const runs: Pending[] = [];
  const canceled: string[] = [];
  const progress = new Set<(p: { runId: string; done: number; total: number; label: string }) => void>();
  const api = {
    call: (channel: string, input: Record<string, unknown>) => {
      if (channel === 'task.cancel') {
        canceled.push(input.runId as string);
        runs.find((r) => r.input.runId === input.runId)?.reject(new AppError({ code: 'task.canceled', message: 'Canceled.' }));
        return Promise.resolve({ canceled: true });
      }
      return new Promise((resolve, reject) => runs.push({ channel, input, resolve, reject }));
    },
    on: (_event: string, listener: (p: { runId: string; done: number; total: number; label: string }) => void) => {
      progress.add(listener);
      return () => progress.delete(listener);
    },
  } as unknown as ApiClient;
  const report = (runId: string, done: number, total: number, label: string) => {
    for (const listener of progress) listener({ runId, done, total, label });
  };
  return { api, runs, canceled, progress, report };
}

const answer = (evaluated: number) => ({ tableId: 'tbl-shop', proposals: [], evaluated, elapsedMs: 1, firstDesignMs: 0, stoppedEarly: false }) as SolveResult;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('what the solver needs', () => {
  const table = (entities: number, patterns: number): Table => {
    const shop = example().tables[0]!;
    return { ...shop, entities: shop.entities.slice(0, entities), accessPatterns: shop.accessPatterns.slice(0, patterns) };
  };

  it('asks for entities and access patterns when the table has neither, one of them, and nothing when it has both', () => {
    expect(missingForSolver(table(0, 0))).toMatch(/no entities and no access patterns/);
    expect(missingForSolver(table(0, 3))).toMatch(/no entities yet/);
    expect(missingForSolver(table(2, 0))).toMatch(/no access patterns yet/);
    expect(missingForSolver(table(1, 1))).toBeUndefined();
  });
});

describe('the current design against a proposal', () => {
  it('is the cost engine\'s monthly total of the table, on-demand or provisioned as the proposals are priced', () => {
    const design = example();
    const costs = costDesign(design);
    const shop = design.tables[0]!;
    // The example is one on-demand table: its table total is the design's total.
    expect(currentCostOf(design, costs, shop, 'asIs')).toEqual({ monthlyUsd: costs.onDemandMonthly.value, onDemand: true, leftOut: 0 });
    expect(currentCostOf(design, costs, shop, 'onDemand')?.monthlyUsd).toBe(costs.onDemandMonthly.value);
    // Provisioned, the example has no capacity of its own: it is given what its load needs, as the cost engine's provisioned total.
    expect(currentCostOf(design, costs, shop, 'provisioned')).toEqual({ monthlyUsd: costs.provisionedMonthly.value, onDemand: false, leftOut: 0 });
    expect(costRatio(costs.onDemandMonthly.value / 2, currentCostOf(design, costs, shop, 'asIs'))).toBeCloseTo(0.5, 10);
  });

  it('gives no ratio when the current design leaves patterns out for want of keys', () => {
    const design = stripKeyDesign(example());
    const current = currentCostOf(design, costDesign(design), design.tables[0]!, 'asIs');
    // Without a key template no pattern of the example can be planned: all 11 are left out.
    expect(current?.leftOut).toBe(11);
    expect(costRatio(100, current)).toBeUndefined();
    expect(costRatio(100, { monthlyUsd: 0, onDemand: true, leftOut: 0 })).toBeUndefined();
  });
});

describe('SolverStore', () => {
  it('sends the constraints and the document, shows the progress of its own run, then the proposals', async () => {
    const host = fakeHost();
    const store = new SolverStore(host.api, 'doc-1');
    store.settings = { maxGsis: 2, noScan: true, keepTableKey: false, monthlyBudgetUsd: undefined, billing: 'provisioned', seed: 9, headroom: 1.5 };
    const design = example();
    const running = store.propose(design, 'tbl-shop');
    await settle();
    expect(host.runs[0]!.channel).toBe('solver.run');
    expect(host.runs[0]!.input).toEqual({ runId: expect.any(String), design, tableId: 'tbl-shop', seed: 9, maxGsis: 2, noScan: true, keepTableKey: false, billing: 'provisioned', headroom: 1.5, documentId: 'doc-1/solver' });
    const runId = host.runs[0]!.input.runId as string;
    host.report(runId, 4, 16, 'Priced 4 of 16 key designs');
    host.report('another-run', 9, 10, 'Simulating');
    expect(store.run).toMatchObject({ status: 'running', progress: { done: 4, total: 16, label: 'Priced 4 of 16 key designs' } });
    host.runs[0]!.resolve(answer(16));
    await running;
    expect(store.run).toMatchObject({ status: 'done', result: answer(16), tableId: 'tbl-shop', settings: { maxGsis: 2, billing: 'provisioned' }, designJson: JSON.stringify(design) });
  });

  it('a budget is sent only when set', async () => {
    const host = fakeHost();
    const store = new SolverStore(host.api);
    store.settings.monthlyBudgetUsd = 250;
    void store.propose(example(), 'tbl-shop');
    await settle();
    expect(host.runs[0]!.input).toMatchObject({ monthlyBudgetUsd: 250 });
    expect(host.runs[0]!.input).not.toHaveProperty('documentId');
  });

  it('cancel stops the run in the host and shows no proposals; its late answer changes nothing', async () => {
    const host = fakeHost();
    const store = new SolverStore(host.api, 'doc-1');
    const running = store.propose(example(), 'tbl-shop');
    await settle();
    const runId = host.runs[0]!.input.runId as string;
    await store.cancel();
    await running;
    expect(host.canceled).toEqual([runId]);
    expect(store.run).toEqual({ status: 'canceled' });
    host.runs[0]!.resolve(answer(3));
    host.report(runId, 5, 16, 'Priced 5 of 16 key designs');
    await settle();
    expect(store.run).toEqual({ status: 'canceled' });
  });

  it('a second proposal cancels the first; a failure says why; dispose cancels and stops listening', async () => {
    const host = fakeHost();
    const store = new SolverStore(host.api, 'doc-1');
    const first = store.propose(example(), 'tbl-shop');
    await settle();
    const second = store.propose(example(), 'tbl-shop');
    await settle();
    expect(host.canceled).toEqual([host.runs[0]!.input.runId]);
    host.runs[1]!.reject(new AppError({ code: 'task.failed', message: 'The worker ran out of memory.' }));
    await Promise.all([first, second]);
    expect(store.run).toEqual({ status: 'failed', error: 'The worker ran out of memory.' });
    void store.propose(example(), 'tbl-shop');
    await settle();
    store.dispose();
    expect(host.canceled).toContain(host.runs[2]!.input.runId);
    expect(host.progress.size).toBe(0);
  });
});
