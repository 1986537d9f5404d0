/**
 * The File commands and the versions they make, as the UI drives them: the real host handlers over
 * the in-memory transport, a temporary workspace folder, IndexedDB (fake-indexeddb).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addEntity, createDesign, renameDesign } from '../src-shared/model/index.ts';
import { openWorkspaceDb } from '../src-renderer/lib/db.ts';
import { suggestedFileName } from '../src-renderer/state/file-commands.svelte.ts';
import type { Workspace } from '../src-renderer/state/workspace.svelte.ts';
import { startWorkspace as startIn } from './support/workspace.ts';

let dir: string;
let dbName: string;
const windows: Workspace[] = [];

const startWorkspace = async (): Promise<Workspace> => {
  const workspace = await startIn(dir, dbName);
  windows.push(workspace);
  return workspace;
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keyplan-files-'));
  dbName = `keyplan-test-${Math.random().toString(36).slice(2)}`;
});

afterEach(async () => {
  for (const w of windows.splice(0)) w.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('the File commands', () => {
  it('opens a file once: opening it again shows the document already open', async () => {
    const ws = await startWorkspace();
    ws.files.newDesign();
    await ws.files.saveAsNamed('orders');
    ws.files.newDesign();
    expect(ws.documents).toHaveLength(2);

    await ws.files.open();
    expect(ws.view.dialog).toBe('open');
    expect(ws.files.workspaceFiles.map((f) => f.name)).toEqual(['orders.keyplan.json']);
    await ws.files.openRef('orders.keyplan.json');
    expect(ws.view.dialog).toBeUndefined();
    expect(ws.documents).toHaveLength(2);
    expect(ws.active!.fileName).toBe('orders.keyplan.json');
  });

  it('imports pasted text as a new, unsaved design only when accepted', async () => {
    const ws = await startWorkspace();
    ws.files.openImport();
    expect(ws.view.dialog).toBe('import');
    ws.imports.pasted = JSON.stringify(createDesign('Pasted shop'));
    ws.imports.readPasted();
    expect(ws.documents).toEqual([]);
    expect(ws.imports.accept()).toBe(true);

    expect(ws.view.dialog).toBeUndefined();
    expect(ws.active!.design.name).toBe('Pasted shop');
    expect(ws.active!.fileRef).toBeUndefined();
    expect(ws.view.screen).toBe('entities');
    expect(ws.view.notice?.message).toMatch(/^Imported "Pasted shop" from Pasted text/);
  });

  it('saves and closes from the close dialog; a design that never loaded is forgotten when the user says so', async () => {
    const db = openWorkspaceDb(dbName);
    await db.documents.put({ id: 'doc-broken', design: { formatVersion: 1, tables: 'oops' }, order: 9, updatedAt: '2026-01-01T00:00:00Z' });
    db.close();
    const ws = await startWorkspace();
    ws.files.newDesign();
    await ws.files.saveAsNamed('orders');
    ws.edit((d) => renameDesign(d, 'Orders v2'));
    await ws.close(ws.active!.id);
    expect(ws.view.dialog).toBe('close');

    await ws.files.saveAndClose();
    expect(ws.documents).toEqual([]);
    expect(ws.view.dialog).toBeUndefined();
    expect(JSON.parse(await readFile(join(dir, 'workspace', 'orders.keyplan.json'), 'utf8')).name).toBe('Orders v2');

    expect(ws.restoreFailures.map((f) => f.id)).toEqual(['doc-broken']);
    await ws.discardFailed('doc-broken');
    expect(ws.restoreFailures).toEqual([]);
    const again = await startWorkspace();
    expect(again.restoreFailures).toEqual([]);
    expect(again.documents).toEqual([]);
  });

  it('saves an export beside the designs, and asks before replacing one', async () => {
    const ws = await startWorkspace();
    expect(await ws.files.saveExport('table.yaml', 'Resources: {}\n', false)).toEqual({ kind: 'saved', name: 'table.yaml', where: join(dir, 'workspace') });
    expect(await ws.files.saveExport('table.yaml', 'Resources: {}\n', false)).toEqual({ kind: 'exists', name: 'table.yaml' });
    expect(await readFile(join(dir, 'workspace', 'table.yaml'), 'utf8')).toBe('Resources: {}\n');
  });

  it('suggests a file name from the design name', () => {
    expect(suggestedFileName('My shop design')).toBe('my-shop-design.keyplan.json');
    expect(suggestedFileName('  ')).toBe('design.keyplan.json');
  });
});

describe('a key-design proposal', () => {
  it('opens as a new design, or as an alternative chosen for Compare; the design it came from stays as it is', async () => {
    const ws = await startWorkspace();
    ws.files.newDesign();
    const original = ws.active!;
    const proposal = addEntity(original.design, original.design.tables[0]!.id, 'Proposed');

    ws.versions.openProposal(original, proposal, 'Proposal 1', 'newDesign');
    expect(ws.active!.design.name).toBe('Proposal 1');
    expect(ws.active!.design.tables[0]!.entities.map((e) => e.name)).toEqual(['Proposed']);
    expect(original.design.tables[0]!.entities).toEqual([]);
    expect(ws.view.screen).toBe('patterns');

    ws.versions.openProposal(original, proposal, 'Proposal 2', 'alternative');
    expect(ws.view.screen).toBe('compare');
    expect(ws.compare.chosen.map((s) => s.label)).toEqual(['Untitled design', 'Proposal 2']);

    await ws.close(original.id, true);
    ws.versions.openProposal(original, proposal, 'Proposal 3', 'newDesign');
    expect(ws.documents.map((d) => d.design.name)).toEqual(['Proposal 1', 'Proposal 2']);
  });
});
