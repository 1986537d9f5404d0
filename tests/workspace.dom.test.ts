/**
 * The workspace as the UI drives it: the real host handlers over the in-memory transport, a real
 * temporary workspace folder, and IndexedDB (fake-indexeddb) for the autosave.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addEntity } from '../src-shared/model/index.ts';
import { openWorkspaceDb, type WorkspaceDb } from '../src-renderer/lib/db.ts';
import type { Workspace } from '../src-renderer/state/workspace.svelte.ts';
import { startWorkspace as startIn } from './support/workspace.ts';

let dir: string;
let db: WorkspaceDb;
let dbName: string;

const startWorkspace = (): Promise<Workspace> => startIn(dir, dbName);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keyplan-ws-'));
  dbName = `keyplan-test-${Math.random().toString(36).slice(2)}`;
  db = openWorkspaceDb(dbName);
});

afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('workspace', () => {
  it('stores unsaved edits within a second and restores them in a new session', async () => {
    const first = await startWorkspace();
    first.files.newDesign();
    const tableId = first.active!.design.tables[0]!.id;
    first.edit((d) => addEntity(d, tableId, 'Order'));
    await vi.waitFor(async () => {
      const [record] = await db.documents.toArray();
      expect(JSON.stringify(record?.design)).toContain('"Order"');
    }, { timeout: 1000, interval: 20 });

    const second = await startWorkspace();
    expect(second.documents).toHaveLength(1);
    expect(second.active!.design.tables[0]!.entities.map((e) => e.name)).toEqual(['Order']);
    expect(second.active!.isDirty).toBe(true);
  });

  it('keeps an edit made just before the page went away, through the synchronous journal', async () => {
    const first = await startWorkspace();
    first.files.newDesign();
    await vi.waitFor(async () => expect(await db.documents.count()).toBe(1));
    const [stale] = await db.documents.toArray();
    const tableId = first.active!.design.tables[0]!.id;
    first.edit((d) => addEntity(d, tableId, 'LastSecond'));
    first.flush();
    const journal = () => Object.keys(localStorage).filter((k) => k.startsWith('keyplan-autosave-journal'));
    expect(journal()).toHaveLength(1);
    expect(localStorage.getItem(journal()[0]!)).toContain('LastSecond');
    // The page is gone before its IndexedDB write lands: the store still holds the older record.
    await vi.waitFor(async () => expect(JSON.stringify((await db.documents.get(stale!.id))?.design)).toContain('LastSecond'));
    await db.documents.put(stale!);

    const second = await startWorkspace();
    expect(second.active!.design.tables[0]!.entities.map((e) => e.name)).toEqual(['LastSecond']);
    expect(journal()).toEqual([]);
  });

  it('keeps a stored design that no longer loads, untouched, and restores the others', async () => {
    const broken = { id: 'doc-broken', design: { formatVersion: 1, name: 'Half', tables: 'oops' }, order: 0, updatedAt: '2026-01-01T00:00:00Z' };
    await db.documents.put(broken);
    const workspace = await startWorkspace();
    expect(workspace.restoreFailures).toEqual([expect.objectContaining({ id: 'doc-broken', title: 'Half' })]);
    expect(workspace.documents).toHaveLength(0);

    workspace.files.newDesign();
    workspace.flush();
    await vi.waitFor(async () => expect(await db.documents.count()).toBe(2));
    expect(await db.documents.get('doc-broken')).toEqual(broken);
  });

  it('a file that fails to open leaves the open designs and the file as they were', async () => {
    const workspace = await startWorkspace();
    await workspace.files.openExample('ecommerce');
    const before = JSON.stringify(workspace.active!.design);
    await writeFile(join(dir, 'workspace', 'broken.keyplan.json'), '{"formatVersion": 1,');

    await workspace.files.openRef('broken.keyplan.json');
    expect(workspace.view.notice).toMatchObject({ kind: 'error', code: 'file.notJson' });
    expect(workspace.documents).toHaveLength(1);
    expect(JSON.stringify(workspace.active!.design)).toBe(before);
    expect(await readFile(join(dir, 'workspace', 'broken.keyplan.json'), 'utf8')).toBe('{"formatVersion": 1,');
  });

  it('saves through the host and then knows the design is saved', async () => {
    const workspace = await startWorkspace();
    workspace.files.newDesign();
    expect(await workspace.files.saveAsNamed('orders')).toBe(true);
    expect(workspace.active!.isDirty).toBe(false);
    expect(workspace.active!.fileName).toBe('orders.keyplan.json');
    const onDisk = JSON.parse(await readFile(join(dir, 'workspace', 'orders.keyplan.json'), 'utf8'));
    expect(onDisk.name).toBe(workspace.active!.design.name);
    expect(workspace.files.recent.map((r) => r.name)).toEqual(['orders.keyplan.json']);
  });
});
