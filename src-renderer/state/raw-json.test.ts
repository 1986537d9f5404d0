import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addEntity, createDesign, renameDesign } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { OpenDocument } from './document.svelte.ts';
import { APPLY_DELAY_MS, RawJsonEditing, designText, problemMarkers, readDesignText } from './raw-json.svelte.ts';

function setUp() {
  const doc = new OpenDocument({ id: 'doc-1', design: createDesign('Shop'), onchange: () => {} });
  const state = new RawJsonEditing(doc, (design: Design) => doc.apply(() => design, 'json'));
  const withName = (name: string) => designText({ ...doc.design, name });
  return { doc, state, withName };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the Raw JSON text', () => {
  it('starts as the design, pretty-printed', () => {
    const { doc, state } = setUp();
    expect(state.text).toBe(`${JSON.stringify(doc.design, null, 2)}\n`);
    expect(state.reading.kind).toBe('design');
  });

  it('applies a valid edit after a pause in typing, as one undo step', () => {
    const { doc, state, withName } = setUp();
    state.edit(withName('S'));
    state.edit(withName('Sh'));
    expect(doc.design.name).toBe('Shop');
    vi.advanceTimersByTime(APPLY_DELAY_MS);
    expect(doc.design.name).toBe('Sh');
    state.edit(withName('Shop 2'));
    vi.advanceTimersByTime(APPLY_DELAY_MS);
    expect(doc.design.name).toBe('Shop 2');
    doc.undo();
    expect(doc.design.name).toBe('Shop');
  });

  it('changes nothing for invalid JSON or an invalid design, and marks the problem', () => {
    const { doc, state, withName } = setUp();
    state.edit(withName('Broken').replace('"name"', '"name",'));
    vi.advanceTimersByTime(APPLY_DELAY_MS * 2);
    expect(state.reading.kind).toBe('syntax');
    expect(doc.design.name).toBe('Shop');
    expect(doc.canUndo).toBe(false);

    state.edit(designText({ ...doc.design, formatVersion: 99 as 1 }));
    vi.advanceTimersByTime(APPLY_DELAY_MS * 2);
    expect(state.reading.kind).toBe('structure');
    expect(doc.canUndo).toBe(false);
  });

  it('follows changes made elsewhere while the text is valid', () => {
    const { doc, state } = setUp();
    doc.apply((d) => addEntity(d, d.tables[0]!.id, 'User'));
    state.follow();
    expect(state.text).toContain('"User"');
    doc.undo();
    state.follow();
    expect(state.text).not.toContain('"User"');
  });

  it('keeps an unfinished invalid edit when the design changes elsewhere, and says so', () => {
    const { doc, state } = setUp();
    state.edit('{ "formatVersion": 1, ');
    doc.apply((d) => renameDesign(d, 'Renamed'));
    state.follow();
    expect(state.text).toBe('{ "formatVersion": 1, ');
    expect(state.isStale).toBe(true);
    state.revert();
    expect(state.text).toContain('"Renamed"');
    expect(state.isStale).toBe(false);
  });

  it('flush applies a waiting edit at once; a design equal to the current one adds no undo step', () => {
    const { doc, state, withName } = setUp();
    state.edit(withName('Now'));
    state.flush();
    expect(doc.design.name).toBe('Now');
    state.edit(`${JSON.stringify(doc.design)}\n`);
    state.flush();
    doc.undo();
    expect(doc.design.name).toBe('Shop');
  });
});

describe('markers for the design rules', () => {
  it('marks a rule problem at its path in the text', () => {
    const design = createDesign('Shop');
    const broken = { ...design, tables: [{ ...design.tables[0]!, name: 'x' }] };
    const text = designText(broken);
    const reading = readDesignText(text);
    const markers = problemMarkers(text, reading);
    expect(markers.length).toBeGreaterThan(0);
    expect(text.slice(markers[0]!.start, markers[0]!.end)).toBe('"x"');
    expect(markers[0]!.source).toBe('model.invalidName');
  });

  it('leaves JSON syntax and schema shape to the JSON service', () => {
    expect(problemMarkers('{', readDesignText('{'))).toEqual([]);
    const shape = designText({ ...createDesign('Shop'), name: 5 as unknown as string });
    expect(readDesignText(shape).kind).toBe('structure');
    expect(problemMarkers(shape, readDesignText(shape))).toEqual([]);
  });
});
