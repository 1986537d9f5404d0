import { describe, expect, it } from 'vitest';
import { addEntity, createDesign, renameDesign } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { CompareState, designSourceKey, revisionNaming, revisionSourceKey } from './compare.svelte.ts';
import { OpenDocument } from './document.svelte.ts';
import type { Revision, Revisions } from './revisions.svelte.ts';

const TODAY = new Date();
const at = (h: number, m: number) => new Date(TODAY.getFullYear(), TODAY.getMonth(), TODAY.getDate(), h, m, 5).toISOString();

function doc(id: string, design: Design, fileName?: string): OpenDocument {
  return new OpenDocument({ id, design, fileName, savedJson: fileName ? JSON.stringify(design) : undefined, onchange: () => {} });
}

/** A compare state over fixed documents and revisions (the revisions of the first document). */
function stateOf(documents: OpenDocument[], revisions: Revision[] = []): CompareState {
  const store = { of: (id: string | undefined) => revisions.filter((r) => r.documentId === id).reverse() } as unknown as Revisions;
  return new CompareState(() => documents, () => documents[0], store);
}

const withUser = (name: string) => {
  const d = createDesign(name);
  return addEntity(d, d.tables[0]!.id, 'User');
};

describe('revisionNaming', () => {
  it.each([
    ['Saved shop.keyplan.json', 'saved', 'shop.keyplan.json'],
    ['On disk: orders.keyplan.json', 'on disk', 'orders.keyplan.json'],
    ['Restored from Saved shop.keyplan.json', 'restored', 'current.keyplan.json'],
    ['Before the GSI', 'checkpoint “Before the GSI”', 'current.keyplan.json'],
  ])('%s: %s, file %s', (label, event, fileName) => {
    const naming = revisionNaming({ label, createdAt: at(14, 3), design: createDesign('Shop') }, 'current.keyplan.json');
    expect(naming).toEqual({ designName: 'Shop', fileName, revision: { event, createdAt: at(14, 3) } });
  });
});

describe('CompareState labels', () => {
  it('letters the chosen sides and names them by design when one has no file', () => {
    const saved = doc('d1', withUser('Shop'), 'shop.keyplan.json');
    const draft = doc('d2', renameDesign(withUser('Shop'), 'Shop v2'));
    const state = stateOf([saved, draft]);
    state.select([designSourceKey('d1'), designSourceKey('d2')]);
    expect(state.chosenLabels).toEqual(['Shop', 'Shop v2']);
    const report = state.report;
    expect(report?.ok).toBe(true);
    if (!report?.ok) return;
    expect(report.value.sides.map((s) => [s.letter, s.label])).toEqual([
      ['A', 'Shop'],
      ['B', 'Shop v2'],
    ]);
    expect(report.value.sides[0]!.description).toBe('shop.keyplan.json: design “Shop”');
    expect(report.value.summary.sides).toHaveLength(1);
  });

  it('names a revision by its file, what made it and when, and the open design as current', () => {
    const current = doc('d1', withUser('Shop'), 'shop.keyplan.json');
    const revision: Revision = { id: 'r1', documentId: 'd1', design: withUser('Shop'), label: 'Saved shop.keyplan.json', createdAt: at(14, 3) };
    const state = stateOf([current], [revision]);
    state.select([revisionSourceKey('r1'), designSourceKey('d1')]);
    expect(state.chosenLabels).toEqual(['shop.keyplan.json · saved 14:03', 'shop.keyplan.json · current']);
    // The list of sources keeps the full revision label.
    expect(state.chosen.map((s) => s.label)).toEqual([expect.stringMatching(/^Saved shop\.keyplan\.json · 14:03:05$/), 'shop.keyplan.json']);
  });
});

describe('CompareState partition risk', () => {
  /** A host stand-in whose simulations answer when the test says, and which records cancels. */
  function host() {
    const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
    const canceled: string[] = [];
    const api = {
      call: (channel: string, input: { runId: string }) => {
        if (channel === 'task.cancel') {
          canceled.push(input.runId);
          pending.get(input.runId)?.reject(new Error('Run canceled.'));
          return Promise.resolve({ canceled: true });
        }
        return new Promise((resolve, reject) => pending.set(input.runId, { resolve, reject }));
      },
      on: () => () => undefined,
    };
    return { api: api as never, pending, canceled };
  }
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('a rerun cancels the simulations still running in the host, and the replaced run cannot mark the new one failed', async () => {
    const a = doc('d1', withUser('Shop'), 'shop.keyplan.json');
    const b = doc('d2', withUser('Shop v2'), 'shop-v2.keyplan.json');
    const state = stateOf([a, b]);
    state.select([designSourceKey('d1'), designSourceKey('d2')]);
    const h = host();
    const first = state.runPartitionRisk(h.api);
    await settle();
    const firstRuns = [...h.pending.keys()];
    expect(firstRuns).toHaveLength(2);
    const second = state.runPartitionRisk(h.api);
    await settle();
    expect(h.canceled.sort()).toEqual(firstRuns.sort());
    await first;
    expect(state.risk?.status).toBe('running');
    for (const [runId, p] of h.pending) if (!firstRuns.includes(runId)) p.resolve({ tables: [] });
    await second;
    expect(state.risk?.status).toBe('done');
  });
});
