import { afterEach, describe, expect, it } from 'vitest';
import { addEntity, createDesign } from '../../src-shared/model/index.ts';
import { openWorkspaceDb, type WorkspaceDb } from '../lib/db.ts';
import { OpenDocument } from './document.svelte.ts';
import { deleteStored, readHistory, readStoredDocuments, readStoredState, recordOf } from './stored-documents.ts';

const dbs: WorkspaceDb[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function db(): WorkspaceDb {
  const opened = openWorkspaceDb(`keyplan-stored-${Math.random().toString(36).slice(2)}`);
  dbs.push(opened);
  return opened;
}

const at = '2026-01-01T00:00:00Z';

describe('the stored documents', () => {
  it('reads back every record in tab order; one without a design\'s shape is a failure, named and left as it was', async () => {
    const store = db();
    const broken = { id: 'doc-broken', design: { formatVersion: 1, name: 'Half', tables: 'oops' }, order: 1, updatedAt: at };
    await store.documents.bulkPut([
      { id: 'doc-b', design: createDesign('Second'), order: 2, updatedAt: at },
      broken,
      { id: 'doc-a', design: createDesign('First'), order: 0, updatedAt: at, fileName: 'first.keyplan.json' },
      { id: 'doc-nameless', design: 'not even an object', order: 3, updatedAt: at },
    ]);
    const { stored, failures } = await readStoredDocuments(store);
    expect(stored.map((s) => [s.record.id, s.design.name])).toEqual([['doc-a', 'First'], ['doc-b', 'Second']]);
    expect(failures.map((f) => [f.id, f.title])).toEqual([['doc-broken', 'Half'], ['doc-nameless', 'Untitled design']]);
    expect(failures[0]!.problems.length).toBeGreaterThan(0);
    expect(await store.documents.get('doc-broken')).toEqual(broken);
  });

  it('reads one document\'s state as stored, or nothing when it is gone or broken', async () => {
    const store = db();
    const version = { mtimeMs: 1, sha256: 'a'.repeat(64) };
    await store.documents.put({ id: 'doc-a', design: createDesign('Shop'), order: 0, updatedAt: at, fileRef: 'shop.keyplan.json', fileName: 'shop.keyplan.json', fileVersion: version });
    await store.documents.put({ id: 'doc-broken', design: { tables: 3 }, order: 1, updatedAt: at });
    expect(await readStoredState(store, 'doc-a')).toMatchObject({ design: { name: 'Shop' }, fileRef: 'shop.keyplan.json', fileVersion: version });
    expect(await readStoredState(store, 'doc-broken')).toBeUndefined();
    expect(await readStoredState(store, 'doc-gone')).toBeUndefined();
  });

  it('reads the undo and redo stacks in order, without the steps that no longer read as a design', async () => {
    const store = db();
    const empty = createDesign('Shop');
    const withUser = addEntity(empty, empty.tables[0]!.id, 'User');
    await store.history.bulkPut([
      { documentId: 'doc-a', seq: 3, stack: 'future', design: withUser },
      { documentId: 'doc-a', seq: 1, stack: 'past', design: empty },
      { documentId: 'doc-a', seq: 2, stack: 'past', design: { broken: true } },
      { documentId: 'doc-other', seq: 1, stack: 'past', design: withUser },
    ]);
    const history = await readHistory(store, 'doc-a');
    expect(history.past.map((s) => s.seq)).toEqual([1]);
    expect(history.future.map((s) => [s.seq, s.design.tables[0]!.entities.length])).toEqual([[3, 1]]);
  });

  it('forgets a document with its history, and no other', async () => {
    const store = db();
    await store.documents.bulkPut([
      { id: 'doc-a', design: createDesign('A'), order: 0, updatedAt: at },
      { id: 'doc-b', design: createDesign('B'), order: 1, updatedAt: at },
    ]);
    await store.history.bulkPut([
      { documentId: 'doc-a', seq: 1, stack: 'past', design: createDesign('A') },
      { documentId: 'doc-b', seq: 1, stack: 'past', design: createDesign('B') },
    ]);
    await deleteStored(store, 'doc-a');
    expect((await store.documents.toArray()).map((d) => d.id)).toEqual(['doc-b']);
    expect((await store.history.toArray()).map((h) => h.documentId)).toEqual(['doc-b']);
  });

  it('stores an open document with its file state, and a new one without', () => {
    const version = { mtimeMs: 5, sha256: 'b'.repeat(64) };
    const saved = new OpenDocument({ id: 'doc-a', design: createDesign('Shop'), fileRef: 'shop.keyplan.json', fileName: 'shop.keyplan.json', savedJson: '{}', fileVersion: version, onchange: () => {} });
    const record = recordOf(saved, 2);
    expect(record).toMatchObject({ id: 'doc-a', order: 2, fileRef: 'shop.keyplan.json', fileName: 'shop.keyplan.json', savedJson: '{}', fileVersion: version });
    expect(record.fileVersion).not.toBe(version);
    expect(record.design).toBe(saved.design);
    const fresh = recordOf(new OpenDocument({ id: 'doc-b', design: createDesign('New'), onchange: () => {} }), 0);
    expect(Object.keys(fresh).sort()).toEqual(['design', 'id', 'order', 'updatedAt']);
  });
});
