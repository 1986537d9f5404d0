import { describe, expect, it } from 'vitest';
import ecommerce from '../../examples/ecommerce.keyplan.json';
import { AppError } from '../../src-shared/errors.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { createSampleStore, type SampleStore } from '../../src-shared/sample/index.ts';
import { PAGE_ROWS, SampleData, type SampleApi, type SampleProgress } from './sample.svelte.ts';

const design = ecommerce as Design;

/** A host stand-in: the real sample store, in memory, behind the SampleApi calls. */
function fakeHost(options: { hold?: boolean } = {}) {
  const stores = new Map<string, SampleStore>();
  const listeners: Array<(p: SampleProgress) => void> = [];
  const calls: string[] = [];
  let release: (() => void) | undefined;
  let rejectRun: ((error: unknown) => void) | undefined;
  const api: SampleApi = {
    async generate({ runId, design: d, tableId, seed }) {
      calls.push(`generate ${seed}`);
      for (const l of listeners) l({ runId, done: 10, total: 20, label: 'Generating items' });
      if (options.hold) {
        await new Promise<void>((resolve, reject) => {
          release = resolve;
          rejectRun = reject;
        });
      }
      const store = createSampleStore(d, tableId, { seed: seed ?? 1, runId, maxItems: 5_000 });
      stores.set(runId, store);
      return store.summary();
    },
    async page({ runId, view, offset, limit }) {
      calls.push(`page ${view} ${offset}`);
      return stores.get(runId)!.page(view, offset, limit);
    },
    async find({ runId, view, key }) {
      return { offset: stores.get(runId)!.find(view, key) };
    },
    async cancel() {
      rejectRun?.(new AppError({ code: 'task.canceled', message: 'Canceled.' }));
      return { canceled: true };
    },
    onProgress(listener) {
      listeners.push(listener);
      return () => undefined;
    },
  };
  return { api, calls, stores, release: () => release?.() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('SampleData', () => {
  it('generates through the host with the seed, then shows the table view', async () => {
    const host = fakeHost();
    const sample = new SampleData(host.api, 42);
    await sample.generate(design, 'tbl-shop');
    expect(host.calls).toEqual(['generate 42']);
    expect(sample.status).toBe('ready');
    const table = sample.summary!.views.find((v) => v.name === 'table')!;
    expect(sample.view).toBe('table');
    expect(sample.total).toBe(table.itemCount + table.collections);
    expect(sample.isStale(design)).toBe(false);
    expect(sample.isStale({ ...design, name: 'Renamed' })).toBe(true);
  });

  it('fetches only the pages of the visible lines, once, and serves rows from them', async () => {
    const host = fakeHost();
    const sample = new SampleData(host.api);
    await sample.generate(design, 'tbl-shop');
    const store = [...host.stores.values()][0]!;
    expect(sample.rowAt(0)).toBeUndefined();
    sample.ensureRange(150, 260);
    sample.ensureRange(150, 260);
    await settle();
    expect(host.calls.filter((c) => c.startsWith('page'))).toEqual(['page table 0', `page table ${PAGE_ROWS}`]);
    expect(sample.rowAt(250)).toEqual(store.page('table', 250, 1).rows[0]);
    expect(sample.rowAt(0)?.collection).toBeDefined();
  });

  it('switches views: a fresh list with the index view total', async () => {
    const host = fakeHost();
    const sample = new SampleData(host.api);
    await sample.generate(design, 'tbl-shop');
    sample.selectView('GSI2');
    const gsi2 = sample.summary!.views.find((v) => v.name === 'GSI2')!;
    expect(sample.total).toBe(gsi2.itemCount + gsi2.collections);
    sample.ensureRange(0, 10);
    await settle();
    expect(sample.rowAt(0)?.partitionKey).toMatch(/^STATUS#/);
  });

  it('finds a partition key by prefix and asks the list to scroll there, or says it found none', async () => {
    const host = fakeHost();
    const sample = new SampleData(host.api);
    await sample.generate(design, 'tbl-shop');
    sample.clearScrollTarget();
    await sample.find('PRODUCT#');
    const store = [...host.stores.values()][0]!;
    expect(sample.scrollTarget).toBe(store.find('table', 'PRODUCT#'));
    await sample.find('NOTHING#');
    expect(sample.findMessage).toMatch(/No partition key in the table starts with “NOTHING#”/);
  });

  it('shows progress while generating and goes back to idle when canceled', async () => {
    const host = fakeHost({ hold: true });
    const sample = new SampleData(host.api);
    const running = sample.generate(design, 'tbl-shop');
    await settle();
    expect(sample.status).toBe('generating');
    expect(sample.progress).toEqual({ done: 10, total: 20, label: 'Generating items' });
    await sample.cancel();
    await running;
    expect(sample.status).toBe('idle');
    expect(sample.progress).toBeUndefined();
    expect(sample.message).toMatch(/canceled/);
    expect(sample.summary).toBeUndefined();
  });
});
