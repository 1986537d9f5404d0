/**
 * The simulation store's races: a rerun while a run is on its way, a cancel, a late answer for a
 * run already replaced, and the what-if that a new current run makes moot. The host is a stand-in
 * whose answers the test releases one by one.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import type { ApiClient } from '../../src-shared/ipc/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import type { SimulationResult } from '../../src-shared/partition/index.ts';
import { SimulationStore } from './simulation.svelte.ts';

interface Pending {
  runId: string;
  documentId?: string;
  resolve(result: SimulationResult): void;
  reject(error: unknown): void;
}

function fakeHost() {
  const runs: Pending[] = [];
  const canceled: string[] = [];
  const progress = new Set<(p: { runId: string; done: number; total: number; label: string }) => void>();
  const api = {
    call: (channel: string, input: { runId: string; documentId?: string }) => {
      if (channel === 'task.cancel') {
        canceled.push(input.runId);
        runs.find((r) => r.runId === input.runId)?.reject(new AppError({ code: 'task.canceled', message: 'Canceled.' }));
        return Promise.resolve({ canceled: true });
      }
      return new Promise((resolve, reject) => runs.push({ runId: input.runId, ...(input.documentId ? { documentId: input.documentId } : {}), resolve, reject }));
    },
    on: (_event: string, listener: (p: { runId: string; done: number; total: number; label: string }) => void) => {
      progress.add(listener);
      return () => progress.delete(listener);
    },
  } as unknown as ApiClient;
  return { api, runs, canceled, progress };
}

const design = { formatVersion: 1, name: 'd', tables: [] } as unknown as Design;
const result = (seed: number) => ({ seed }) as unknown as SimulationResult;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('SimulationStore', () => {
  it('a rerun cancels the run on its way, and that run\'s late answer changes nothing', async () => {
    const host = fakeHost();
    const store = new SimulationStore(host.api);
    const first = store.run('current', design, 't', { seed: 1 }, 'doc-1');
    await settle();
    const second = store.run('current', design, 't', { seed: 2 }, 'doc-1');
    await settle();
    expect(host.canceled).toEqual([host.runs[0]!.runId]);
    expect(host.runs[1]!.documentId).toBe('doc-1/current');
    host.runs[0]!.resolve(result(1)); // too late: it was canceled and replaced
    host.runs[1]!.resolve(result(2));
    await Promise.all([first, second]);
    expect(store.current.result).toEqual(result(2));
    expect(store.current.running).toBe(false);
  });

  it('progress reaches only the slot of its run; cancel stops showing it and keeps the last result', async () => {
    const host = fakeHost();
    const store = new SimulationStore(host.api);
    const done = store.run('current', design, 't');
    await settle();
    host.runs[0]!.resolve(result(1));
    await done;
    const again = store.run('current', design, 't');
    await settle();
    for (const listener of host.progress) listener({ runId: host.runs[1]!.runId, done: 3, total: 10, label: 'Simulating' });
    expect(store.current.progress).toEqual({ done: 3, total: 10, label: 'Simulating' });
    for (const listener of host.progress) listener({ runId: 'another-run', done: 9, total: 10, label: 'Other' });
    expect(store.current.progress?.label).toBe('Simulating');
    await store.cancel('current');
    await again;
    expect(store.current).toMatchObject({ running: false, progress: undefined, result: result(1) });
    expect(store.current.error).toBeUndefined();
  });

  it('a new current run clears the what-if it made moot; dispose cancels both and stops listening', async () => {
    const host = fakeHost();
    const store = new SimulationStore(host.api);
    const current = store.run('current', design, 't');
    await settle();
    host.runs[0]!.resolve(result(1));
    await current;
    void store.run('whatIf', design, 't');
    await settle();
    void store.run('current', design, 't');
    await settle();
    expect(host.canceled).toContain(host.runs[1]!.runId);
    expect(store.whatIf).toEqual({ running: false, progress: undefined });
    expect(host.progress.size).toBe(1);
    store.dispose();
    expect(host.canceled).toContain(host.runs[2]!.runId);
    expect(host.progress.size).toBe(0);
  });

  it('a failed run says why and keeps the previous result', async () => {
    const host = fakeHost();
    const store = new SimulationStore(host.api);
    const first = store.run('current', design, 't');
    await settle();
    host.runs[0]!.resolve(result(1));
    await first;
    const failing = store.run('current', design, 't');
    await settle();
    host.runs[1]!.reject(new AppError({ code: 'task.failed', message: 'The worker ran out of memory.' }));
    await failing;
    expect(store.current).toMatchObject({ running: false, result: result(1), error: 'The worker ran out of memory.' });
  });
});
