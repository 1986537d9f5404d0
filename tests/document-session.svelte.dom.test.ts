/**
 * The life of one open design in the workspace, as the state classes run it: open, edit, undo and
 * redo, close. Closing is where everything the design held ends, in one `dispose` of its session:
 * the progress listeners of its sample, simulation, solver and run stores, a run on its way, and the
 * Raw JSON screen's text with an edit still waiting. The real host handlers over the in-memory
 * transport (a transport that counts live listeners and records calls), IndexedDB faked.
 *
 * A `.svelte.` module, so that it can open the Raw JSON state the way the screen does (inside a
 * derived of a component that then goes away).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addEntity, renameDesign } from '../src-shared/model/index.ts';
import type { OpenDocument } from '../src-renderer/state/document.svelte.ts';
import { designText, type RawJsonEditing } from '../src-renderer/state/raw-json.svelte.ts';
import type { DocumentSession } from '../src-renderer/state/session.svelte.ts';
import type { Workspace } from '../src-renderer/state/workspace.svelte.ts';
import { startWatchedWorkspace } from './support/workspace.ts';

let dir: string;
const windows: Workspace[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keyplan-doc-session-'));
});

afterEach(async () => {
  for (const w of windows.splice(0)) w.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function openWindow() {
  const watched = await startWatchedWorkspace(dir, `keyplan-test-${Math.random().toString(36).slice(2)}`);
  windows.push(watched.workspace);
  return watched;
}

const entityNames = (doc: OpenDocument) => doc.design.tables[0]!.entities.map((e) => e.name);

/** Opens the Raw JSON state the way the screen does (inside a derived of a component), then closes the screen. */
function showThenLeaveJsonScreen(session: DocumentSession): RawJsonEditing {
  let seen: RawJsonEditing | undefined;
  const destroyScreen = $effect.root(() => {
    const editing = $derived(session.rawJson);
    $effect(() => {
      seen = editing;
      void editing.reading;
    });
  });
  flushSync();
  destroyScreen();
  return seen!;
}

describe('an open design', () => {
  it('opens with a session of its own, takes edits as undo steps, and walks them back and forth', async () => {
    const { workspace } = await openWindow();
    workspace.files.newDesign();
    const doc = workspace.active!;
    const session = workspace.sessionOf(doc);
    expect(session.doc).toBe(doc);
    expect(session.disposed).toBe(false);
    expect(workspace.sessionOf(doc)).toBe(session);
    expect(doc.canUndo).toBe(false);

    const tableId = doc.design.tables[0]!.id;
    workspace.edit((d) => addEntity(d, tableId, 'User'));
    workspace.edit((d) => addEntity(d, tableId, 'Order'));
    // Keystrokes in one field are one step until the field lets go.
    workspace.edit((d) => renameDesign(d, 'S'), 'name');
    workspace.edit((d) => renameDesign(d, 'Shop'), 'name');
    doc.endCoalescing();
    expect(doc.design.name).toBe('Shop');

    doc.undo();
    expect(doc.design.name).toBe('Untitled design');
    doc.undo();
    expect(entityNames(doc)).toEqual(['User']);
    expect(doc.canRedo).toBe(true);
    doc.redo();
    expect(entityNames(doc)).toEqual(['User', 'Order']);
    // A new edit forgets what could be redone.
    workspace.edit((d) => addEntity(d, tableId, 'Item'));
    expect(doc.canRedo).toBe(false);
    doc.undo();
    doc.undo();
    doc.undo();
    expect(entityNames(doc)).toEqual([]);
    expect(doc.canUndo).toBe(false);
  });

  it('edits the active design, or the one named, and no design once it is closed', async () => {
    const { workspace } = await openWindow();
    workspace.files.newDesign();
    const first = workspace.active!;
    workspace.files.newDesign();
    const second = workspace.active!;
    expect(second).not.toBe(first);

    workspace.edit((d) => renameDesign(d, 'Second'));
    workspace.edit((d) => renameDesign(d, 'First'), undefined, first);
    expect([first.design.name, second.design.name]).toEqual(['First', 'Second']);

    await workspace.close(first.id, true);
    expect(workspace.documents).toEqual([second]);
    workspace.edit((d) => renameDesign(d, 'Too late'), undefined, first);
    expect(first.design.name).toBe('First');
    // A screen still holding the closed design gets a session that has ended already.
    const late = workspace.sessionOf(first);
    expect(late.disposed).toBe(true);
    expect(late.simulation).toBeDefined();
  });

  it('asks before closing a design with unsaved edits; discarding them closes it and forgets its record', async () => {
    const { workspace } = await openWindow();
    workspace.files.newDesign();
    const doc = workspace.active!;
    const session = workspace.sessionOf(doc);
    await workspace.close(doc.id);
    expect(workspace.view.dialog).toBe('close');
    expect(workspace.view.closing).toBe(doc);
    expect(session.disposed).toBe(false);

    await workspace.close(doc.id, true);
    expect(workspace.view.dialog).toBeUndefined();
    expect(workspace.documents).toEqual([]);
    expect(workspace.active).toBeUndefined();
    expect(session.disposed).toBe(true);
  });
});

describe('closing a design ends its session', () => {
  it('releases the progress listeners of its sample, simulation, solver and run stores', async () => {
    const { workspace, listeners } = await openWindow();
    await workspace.files.openExample('ecommerce');
    const doc = workspace.active!;
    const before = listeners.count;
    const session = workspace.sessionOf(doc);
    const stores = [session.sample(1), session.simulation, session.solver, session.run];
    // Asked again (another mount of a screen): the same stores, no more listeners.
    expect([session.sample(1), session.simulation, session.solver, session.run]).toEqual(stores);
    expect(listeners.count - before).toBe(4);

    await workspace.close(doc.id, true);
    expect(session.disposed).toBe(true);
    expect(listeners.count).toBe(before);
  });

  it('cancels a run on its way in the host', async () => {
    const { workspace, calls } = await openWindow();
    await workspace.files.openExample('ecommerce');
    const doc = workspace.active!;
    const run = workspace.sessionOf(doc).run;
    run.form = { ...run.form, items: '1000' };
    const running = run.start(doc.design, doc.design.tables[0]!.id);
    await vi.waitFor(() => expect(run.hasHostProgress).toBe(true), { timeout: 10_000, interval: 20 });

    await workspace.close(doc.id, true);
    expect(calls).toContain('task.cancel');
    await running;
    expect(run.phase).toBe('idle');
    expect(run.report).toBeUndefined();
  });

  it('drops the Raw JSON text with an edit still waiting; the text lives on while the design is open', async () => {
    const { workspace } = await openWindow();
    workspace.files.newDesign();
    const doc = workspace.active!;
    const session = workspace.sessionOf(doc);

    // Made by a screen that has gone since: it still reads what is typed, and still reaches the design.
    const editing = showThenLeaveJsonScreen(session);
    editing.edit('{ "formatVersion": 1, ');
    expect(editing.reading.kind).toBe('syntax');
    editing.edit(designText({ ...doc.design, name: 'Typed' }));
    expect(editing.reading.kind).toBe('design');
    editing.flush();
    expect(doc.design.name).toBe('Typed');
    doc.undo();
    expect(doc.design.name).toBe('Untitled design');
    expect(showThenLeaveJsonScreen(session)).toBe(editing);

    editing.edit(designText({ ...doc.design, name: 'Never applied' }));
    expect(editing.isPending).toBe(true);
    await workspace.close(doc.id, true);
    expect(editing.isPending).toBe(false);
    expect(doc.design.name).toBe('Untitled design');
  });

  it('ends every session, and the window stops listening to the host, when the window goes', async () => {
    const { workspace, listeners } = await openWindow();
    const before = listeners.count;
    workspace.files.newDesign();
    workspace.files.newDesign();
    const sessions = workspace.documents.map((d) => workspace.sessionOf(d));
    for (const s of sessions) void s.simulation;
    expect(listeners.count - before).toBe(2);

    workspace.dispose();
    expect(sessions.map((s) => s.disposed)).toEqual([true, true]);
    expect(listeners.count).toBe(0); // the menu's commands too
  });
});
