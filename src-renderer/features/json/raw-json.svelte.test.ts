import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { createDesign } from '../../../src-shared/model/edits.ts';
import type { Design } from '../../../src-shared/model/schema.ts';
import { OpenDocument } from '../../state/document.svelte.ts';
import { designText, rawJsonOf, releaseClosed } from './raw-json.svelte.ts';

/** Opens the Raw JSON state the way the screen does (inside a derived of a component), then closes the screen. */
function showThenLeaveScreen(doc: OpenDocument) {
  let seen: ReturnType<typeof rawJsonOf> | undefined;
  const destroyScreen = $effect.root(() => {
    const editing = $derived(rawJsonOf(doc, (design: Design) => doc.apply(() => design, 'json')));
    $effect(() => {
      seen = editing;
      void editing.reading;
    });
  });
  flushSync();
  destroyScreen();
  return seen!;
}

describe('the Raw JSON state of an open design', () => {
  it('still reads the text after the screen that created it has closed', () => {
    const doc = new OpenDocument({ id: 'doc-1', design: createDesign('Shop'), onchange: () => {} });
    const state = showThenLeaveScreen(doc);

    state.edit('{ "formatVersion": 1, ');
    expect(state.reading.kind).toBe('syntax');
    state.edit(designText({ ...doc.design, name: 'Shop 2' }));
    expect(state.reading.kind).toBe('design');
    state.flush();
    expect(doc.design.name).toBe('Shop 2');
    expect(rawJsonOf(doc, () => {})).toBe(state);
    releaseClosed([]);
  });

  it('is forgotten, with a waiting edit dropped, once the design is closed', () => {
    const doc = new OpenDocument({ id: 'doc-2', design: createDesign('Shop'), onchange: () => {} });
    const state = showThenLeaveScreen(doc);
    state.edit(designText({ ...doc.design, name: 'Never applied' }));
    expect(state.isPending).toBe(true);
    releaseClosed([]);
    expect(state.isPending).toBe(false);
    expect(doc.design.name).toBe('Shop');
    expect(rawJsonOf(doc, () => {})).not.toBe(state);
    releaseClosed([]);
  });
});
