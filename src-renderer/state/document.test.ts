import { describe, expect, it, vi } from 'vitest';
import { addEntity, createDesign, renameDesign, setKeyBinding } from '../../src-shared/model/index.ts';
import { OpenDocument } from './document.svelte.ts';

function open() {
  const onchange = vi.fn();
  const doc = new OpenDocument({ id: 'doc-1', design: createDesign('Shop'), onchange });
  return { doc, onchange };
}

describe('OpenDocument', () => {
  it('undoes and redoes each edit in order', () => {
    const { doc } = open();
    const tableId = doc.design.tables[0]!.id;
    doc.apply((d) => addEntity(d, tableId, 'User'));
    doc.apply((d) => addEntity(d, tableId, 'Order'));
    expect(doc.design.tables[0]!.entities.map((e) => e.name)).toEqual(['User', 'Order']);

    doc.undo();
    expect(doc.design.tables[0]!.entities.map((e) => e.name)).toEqual(['User']);
    doc.undo();
    expect(doc.design.tables[0]!.entities).toEqual([]);
    expect(doc.canUndo).toBe(false);

    doc.redo();
    doc.redo();
    expect(doc.design.tables[0]!.entities.map((e) => e.name)).toEqual(['User', 'Order']);
    expect(doc.canRedo).toBe(false);
  });

  it('merges keystrokes in one field into a single undo step', () => {
    const { doc } = open();
    for (const name of ['S', 'Sh', 'Sho', 'Shop v2']) doc.apply((d) => renameDesign(d, name), 'design.name');
    doc.apply((d) => renameDesign(d, 'other'), 'another.field');
    doc.undo();
    expect(doc.design.name).toBe('Shop v2');
    doc.undo();
    expect(doc.design.name).toBe('Shop');
  });

  it('starts a new undo step in the same field after it lost focus', () => {
    const { doc } = open();
    doc.apply((d) => renameDesign(d, 'First'), 'design.name');
    doc.endCoalescing();
    doc.apply((d) => renameDesign(d, 'Second'), 'design.name');
    doc.undo();
    expect(doc.design.name).toBe('First');
  });

  it('drops the redo stack after a new edit', () => {
    const { doc } = open();
    doc.apply((d) => renameDesign(d, 'A'));
    doc.undo();
    doc.apply((d) => renameDesign(d, 'B'));
    expect(doc.canRedo).toBe(false);
    doc.redo();
    expect(doc.design.name).toBe('B');
  });

  it('tells unsaved edits apart from what is on disk, and reports each change for autosave', () => {
    const { doc, onchange } = open();
    expect(doc.isDirty).toBe(true); // never saved
    doc.markSaved('shop.keyplan.json', 'shop.keyplan.json');
    expect(doc.isDirty).toBe(false);
    const tableId = doc.design.tables[0]!.id;
    doc.apply((d) => addEntity(d, tableId, 'User'));
    expect(doc.isDirty).toBe(true);
    doc.undo();
    expect(doc.isDirty).toBe(false);
    expect(onchange).toHaveBeenCalledTimes(3);
  });

  it('validates live: a template naming an unknown attribute is a problem at its path', () => {
    const { doc } = open();
    const tableId = doc.design.tables[0]!.id;
    doc.apply((d) => addEntity(d, tableId, 'User'));
    const entityId = doc.design.tables[0]!.entities[0]!.id;
    expect(doc.problems).toEqual([]);
    doc.apply((d) => setKeyBinding(d, tableId, entityId, 'PK', { template: 'USER#{usrId}' }));
    expect(doc.problems.map((p) => [p.code, p.path])).toEqual([['keyTemplate.unknownAttribute', 'tables[0].entities[0].keys.PK.template']]);
  });
});
