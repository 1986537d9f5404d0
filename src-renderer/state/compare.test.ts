import { describe, expect, it } from 'vitest';
import { addEntity, createDesign, renameDesign } from '../../src-shared/model/edits.ts';
import type { Design } from '../../src-shared/model/schema.ts';
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
