/**
 * Concurrent edits are never silent: a file changed on disk behind its editor, two windows on one
 * document, and the undo history across a reload. The real host handlers over the in-memory
 * transport, a real workspace folder, IndexedDB (fake-indexeddb), real BroadcastChannels between
 * the simulated windows and an in-process Web Locks stand-in (happy-dom has none).
 */
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addEntity, renameDesign } from '../src-shared/model/index.ts';
import type { Design } from '../src-shared/model/index.ts';
import type { Workspace } from '../src-renderer/state/workspace.svelte.ts';
import type { ChannelLike } from '../src-renderer/state/window-link.ts';
import { MemoryLocks } from './support/memory-locks.ts';
import { startLinkedWorkspace, startWorkspace } from './support/workspace.ts';

let dir: string;
let dbName: string;
let channelName: string;
let locks: MemoryLocks;
const windows: Workspace[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keyplan-concurrent-'));
  dbName = `keyplan-test-${Math.random().toString(36).slice(2)}`;
  channelName = `keyplan-test-${Math.random().toString(36).slice(2)}`;
  locks = new MemoryLocks();
});

afterEach(async () => {
  for (const w of windows.splice(0)) w.dispose();
  await rm(dir, { recursive: true, force: true });
});

/** A window of the workspace: its own BroadcastChannel, the shared locks and database. */
async function openWindow(): Promise<Workspace> {
  const workspace = await startLinkedWorkspace(dir, dbName, channelName, locks);
  windows.push(workspace);
  return workspace;
}

const filePath = () => join(dir, 'workspace', 'orders.keyplan.json');
const onDisk = async (): Promise<Design> => JSON.parse(await readFile(filePath(), 'utf8')) as Design;
const entityNames = (w: Workspace) => w.active!.design.tables[0]!.entities.map((e) => e.name);

/** Another program saves the file: the design on disk renamed. */
async function changeOnDisk(name: string): Promise<void> {
  await writeFile(filePath(), `${JSON.stringify({ ...(await onDisk()), name }, null, 2)}\n`);
}

describe('a file changed on disk behind its editor', () => {
  it('refuses the save, writes nothing, and lets the user compare, overwrite or save as', async () => {
    const w = await openWindow();
    w.files.newDesign();
    await w.files.saveAsNamed('orders');
    const tableId = w.active!.design.tables[0]!.id;
    w.edit((d) => addEntity(d, tableId, 'Mine'));
    await changeOnDisk('Theirs');

    await w.files.save();
    expect(w.view.dialog).toBe('conflict');
    expect(w.view.conflict).toMatchObject({ doc: w.active, version: { sha256: expect.any(String) } });
    expect((await onDisk()).name).toBe('Theirs');
    expect(w.active!.isDirty).toBe(true);

    await w.files.compareWithDisk(w.active!);
    expect(w.view.screen).toBe('compare');
    expect(w.view.dialog).toBeUndefined();
    const diskRevision = w.revisions.of(w.active!.id)[0]!;
    expect(diskRevision.label).toBe('On disk: orders.keyplan.json');
    expect(diskRevision.design.name).toBe('Theirs');

    // Saving again still asks; "Overwrite" names the version now on disk and replaces it.
    await w.files.save();
    expect(w.view.dialog).toBe('conflict');
    await w.files.save(w.view.conflict);
    expect(w.view.dialog).toBeUndefined();
    expect((await onDisk()).tables[0]!.entities.map((e) => e.name)).toEqual(['Mine']);
    expect(JSON.parse(await readFile(`${filePath()}.bak`, 'utf8')).name).toBe('Theirs');
    expect(w.active!.isDirty).toBe(false);

    // And the next save from here is not a conflict: the version written is the one held.
    w.edit((d) => renameDesign(d, 'Mine again'));
    await w.files.save();
    expect(w.view.dialog).toBeUndefined();
    expect((await onDisk()).name).toBe('Mine again');
  });

  it('notices the change, offers to reload (undoable), and stays quiet once the user keeps theirs', async () => {
    const w = await openWindow();
    w.files.newDesign();
    await w.files.saveAsNamed('orders');
    const mine = w.active!.design.name;
    await w.disk.check();
    expect(w.active!.diskChange).toBeUndefined();

    await changeOnDisk('Theirs');
    await w.disk.check();
    expect(w.active!.diskChange?.version?.sha256).toMatch(/^[0-9a-f]{64}$/);

    await w.files.reloadFromDisk(w.active!);
    expect(w.active!.design.name).toBe('Theirs');
    expect(w.active!.isDirty).toBe(false);
    expect(w.active!.diskChange).toBeUndefined();
    w.active!.undo();
    expect(w.active!.design.name).toBe(mine);

    await changeOnDisk('Theirs, again');
    await w.disk.check();
    expect(w.active!.diskChange).toBeDefined();
    w.disk.dismiss(w.active!);
    await w.disk.check();
    expect(w.active!.diskChange).toBeUndefined();
    // Keeping mine does not make a save silent: it still asks before replacing their version.
    await w.files.save();
    expect(w.view.dialog).toBe('conflict');
  });

  it('a deleted file is noticed, and a save asks before writing it again', async () => {
    const w = await openWindow();
    w.files.newDesign();
    await w.files.saveAsNamed('orders');
    await rm(filePath());
    await w.disk.check();
    expect(w.active!.diskChange).toEqual({ version: null });
    await w.files.save();
    expect(w.view.conflict?.version).toBeNull();
    await w.files.save(w.view.conflict);
    expect((await onDisk()).name).toBe(w.active!.design.name);
  });
});

describe('a file that can no longer be reached', () => {
  it('is said at once (a link out of the workspace in its place), not only at the next save', async () => {
    const w = await openWindow();
    w.files.newDesign();
    await w.files.saveAsNamed('orders');
    const outside = join(dir, 'outside.json');
    await writeFile(outside, '{}');
    await rm(filePath());
    await symlink(outside, filePath());
    await w.disk.check();
    expect(w.active!.diskChange).toEqual({ version: null, problem: expect.stringContaining('outside') });
    w.disk.dismiss(w.active!);
    await w.disk.check();
    expect(w.active!.diskChange).toBeUndefined();
  });
});

describe('two windows on one document', () => {
  it('the second window shows it read-only and follows the first one\'s edits', async () => {
    const first = await openWindow();
    first.files.newDesign();
    await first.files.saveAsNamed('orders');
    const second = await openWindow();
    expect(second.documents).toHaveLength(1);
    expect(second.active!.readOnly).toBe(true);
    expect(first.active!.readOnly).toBe(false);

    const tableId = first.active!.design.tables[0]!.id;
    first.edit((d) => addEntity(d, tableId, 'FromFirst'));
    await vi.waitFor(() => expect(entityNames(second)).toEqual(['FromFirst']), { timeout: 2000, interval: 20 });

    // Edits, undo and saves in the read-only window do nothing, and store nothing.
    second.edit((d) => addEntity(d, tableId, 'FromSecond'));
    second.active!.undo();
    await second.files.save();
    expect(entityNames(second)).toEqual(['FromFirst']);
    expect((await onDisk()).tables[0]!.entities).toEqual([]);
  });

  it('take over: the owner stores its last edit and goes read-only; the new owner has it, and its undo history', async () => {
    const first = await openWindow();
    first.files.newDesign();
    const tableId = first.active!.design.tables[0]!.id;
    first.edit((d) => addEntity(d, tableId, 'One'));
    first.edit((d) => addEntity(d, tableId, 'Two'));
    const second = await openWindow();
    const doc = second.active!;
    expect(doc.readOnly).toBe(true);

    await second.handover.takeOver(doc);
    expect(doc.readOnly).toBe(false);
    expect(first.active!.readOnly).toBe(true);
    expect(entityNames(second)).toEqual(['One', 'Two']);
    doc.undo();
    expect(entityNames(second)).toEqual(['One']);

    // The first window now follows the second, and its own late edits change nothing.
    first.edit((d) => addEntity(d, tableId, 'Late'));
    await vi.waitFor(() => expect(entityNames(first)).toEqual(['One']), { timeout: 2000, interval: 20 });
    await second.disk.check();
    const [record] = await (await import('../src-renderer/lib/db.ts')).openWorkspaceDb(dbName).documents.toArray();
    expect((record!.design as Design).tables[0]!.entities.map((e) => e.name)).toEqual(['One']);
  });

  it('a read-only window cannot save as: the owner keeps its file, its record and its undo history', async () => {
    const first = await openWindow();
    first.files.newDesign();
    await first.files.saveAsNamed('orders');
    const tableId = first.active!.design.tables[0]!.id;
    first.edit((d) => addEntity(d, tableId, 'One'));
    first.edit((d) => addEntity(d, tableId, 'Two'));
    const second = await openWindow();
    await vi.waitFor(() => expect(entityNames(second)).toEqual(['One', 'Two']), { timeout: 2000, interval: 20 });

    await second.files.saveAs();
    expect(second.view.dialog).toBeUndefined();
    expect(await second.files.saveAsNamed('copy-from-read-only')).toBe(false);
    expect(second.view.notice?.message).toContain('Take over editing');
    await first.disk.check();
    const db = (await import('../src-renderer/lib/db.ts')).openWorkspaceDb(dbName);
    const [record] = await db.documents.toArray();
    expect(record!.fileName).toBe('orders.keyplan.json');
    expect(await db.history.count()).toBe(2); // the undo steps before "One" and before "Two"
    db.close();
    first.active!.undo();
    expect(entityNames(first)).toEqual(['One']);
  });

  it('a save-as dialog open when another window takes the document over closes', async () => {
    const first = await openWindow();
    first.files.newDesign();
    const second = await openWindow();
    await first.files.saveAs();
    expect(first.view.dialog).toBe('saveAs');
    await second.handover.takeOver(second.active!);
    expect(first.active!.readOnly).toBe(true);
    expect(first.view.dialog).toBeUndefined();
  });

  it('a window that does not answer loses the document after the timeout', async () => {
    // A hung page: it holds its locks but hears nothing and says nothing.
    const deaf: ChannelLike = { postMessage: () => undefined, addEventListener: () => undefined, close: () => undefined };
    const hung = await startWorkspace(dir, dbName, { link: { locks, channel: deaf, releaseTimeoutMs: 500 } });
    windows.push(hung);
    hung.files.newDesign();
    await vi.waitFor(async () => expect(locks.isHeld(`keyplan-doc:${hung.active!.id}`)).toBe(true));
    const second = await openWindow();
    expect(second.active!.readOnly).toBe(true);

    const started = Date.now();
    await second.handover.takeOver(second.active!);
    expect(second.active!.readOnly).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(Date.now() - started).toBeLessThan(2000);
    // The hung window learns it lost the lock, and stops writing the document.
    await vi.waitFor(() => expect(hung.active!.readOnly).toBe(true));
  });

  it('closing in the owning window closes it in the others; closing a read-only view keeps it for its owner', async () => {
    const first = await openWindow();
    first.files.newDesign();
    first.files.newDesign();
    const second = await openWindow();
    expect(second.documents).toHaveLength(2);
    const [a, b] = first.documents;
    await second.close(b!.id);
    expect(second.documents).toHaveLength(1);
    expect(first.documents).toHaveLength(2);
    await first.close(a!.id, true); // "Discard changes and close": it was never saved
    await vi.waitFor(() => expect(second.documents).toHaveLength(0), { timeout: 2000, interval: 20 });
  });
});

describe("a design's session across windows", () => {
  it('keeps each window\'s session of the design through a take-over; the last edit and the undo history go along', async () => {
    const first = await openWindow();
    first.files.newDesign();
    const mine = first.active!;
    const tableId = mine.design.tables[0]!.id;
    first.edit((d) => addEntity(d, tableId, 'Order'));
    const firstSession = first.sessionOf(mine);
    const result = firstSession.simulation;

    const second = await openWindow();
    const theirs = second.active!;
    expect(theirs.readOnly).toBe(true);
    const secondSession = second.sessionOf(theirs);
    await second.handover.takeOver(theirs);

    expect([mine.readOnly, theirs.readOnly]).toEqual([true, false]);
    expect(theirs.design.tables[0]!.entities.map((e) => e.name)).toEqual(['Order']);
    expect(theirs.canUndo).toBe(true);
    expect(second.view.notice?.message).toContain('You edit');
    expect(first.view.notice?.message).toContain('is edited in another window now');
    // Both windows still show the design: neither session ended.
    expect([firstSession.disposed, secondSession.disposed]).toEqual([false, false]);
    expect(first.sessionOf(mine).simulation).toBe(result);
  });

  it('a design its owner closes leaves the window that followed it, and its session there ends', async () => {
    const first = await openWindow();
    first.files.newDesign();
    const doc = first.active!;
    const second = await openWindow();
    const followed = second.active!;
    const session = second.sessionOf(followed);
    void session.simulation;

    await first.close(doc.id, true);
    await vi.waitFor(() => expect(second.documents).toEqual([]), { timeout: 2000, interval: 20 });
    expect(session.disposed).toBe(true);
    expect(second.active).toBeUndefined();
  });

  it('a design another window opens later is listed read-only, with a session of its own', async () => {
    const first = await openWindow();
    const second = await openWindow();
    first.files.newDesign();
    await vi.waitFor(() => expect(second.documents).toHaveLength(1), { timeout: 2000, interval: 20 });
    const followed = second.documents[0]!;
    expect(followed.readOnly).toBe(true);
    expect(second.active).toBe(followed);
    expect(second.sessionOf(followed).disposed).toBe(false);
    // A read-only design takes no edit here.
    second.edit((d) => addEntity(d, d.tables[0]!.id, 'Nope'), undefined, followed);
    expect(followed.design.tables[0]!.entities).toEqual([]);
  });
});

describe('the synchronous journal of windows going away', () => {
  it('each window journals its own documents; a journal is replayed only once its window is gone', async () => {
    const a = await openWindow();
    a.files.newDesign();
    const b = await openWindow();
    b.files.newDesign();
    await vi.waitFor(async () => expect(await (await import('../src-renderer/lib/db.ts')).openWorkspaceDb(dbName).documents.count()).toBe(2));
    const docA = a.documents.find((d) => !d.readOnly)!;
    const docB = b.documents.find((d) => !d.readOnly)!;
    a.edit((d) => renameDesign(d, 'A at page hide'), undefined, docA);
    b.edit((d) => renameDesign(d, 'B at page hide'), undefined, docB);
    a.flush();
    b.flush();
    const journals = Object.keys(localStorage).filter((k) => k.startsWith('keyplan-autosave-journal:'));
    expect(journals).toHaveLength(2);
    expect(journals.map((k) => localStorage.getItem(k)).join()).toContain('A at page hide');
    expect(journals.map((k) => localStorage.getItem(k)).join()).toContain('B at page hide');

    // While both are open, a third window leaves their journals alone.
    const c = await openWindow();
    expect(Object.keys(localStorage).filter((k) => k.startsWith('keyplan-autosave-journal:'))).toHaveLength(2);
    c.dispose();
    a.dispose();
    b.dispose();
    const d = await openWindow();
    expect(Object.keys(localStorage).filter((k) => k.startsWith('keyplan-autosave-journal'))).toEqual([]);
    expect(d.documents.map((doc) => doc.design.name).sort()).toEqual(['A at page hide', 'B at page hide']);
  });
});

describe('undo across a reload', () => {
  it('the undo and redo stacks are stored with the design and restored in the next session', async () => {
    const first = await openWindow();
    first.files.newDesign();
    const tableId = first.active!.design.tables[0]!.id;
    for (const name of ['A', 'B', 'C']) first.edit((d) => addEntity(d, tableId, name));
    first.active!.undo();
    await vi.waitFor(async () => {
      const db = (await import('../src-renderer/lib/db.ts')).openWorkspaceDb(dbName);
      expect(await db.history.count()).toBe(3); // undo: the empty design, [A]; redo: [A, B, C]
      db.close();
    }, { timeout: 2000, interval: 20 });
    first.dispose(); // the window is gone: its locks with it

    const again = await openWindow();
    expect(entityNames(again)).toEqual(['A', 'B']);
    again.active!.redo();
    expect(entityNames(again)).toEqual(['A', 'B', 'C']);
    again.active!.undo();
    again.active!.undo();
    again.active!.undo();
    expect(entityNames(again)).toEqual([]);
    expect(again.active!.canUndo).toBe(false);
  });
});
