/**
 * Revisions and the Compare screen's state, as the UI drives them: the real host handlers over the
 * in-memory transport, a temporary workspace folder, and IndexedDB (fake-indexeddb).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addEntity, createDesign, renameDesign } from '../src-shared/model/index.ts';
import { compareSections } from '../src-renderer/state/compare.svelte.ts';
import type { Workspace } from '../src-renderer/state/workspace.svelte.ts';
import { startWorkspace as startIn } from './support/workspace.ts';

let dir: string;
let dbName: string;

const startWorkspace = (): Promise<Workspace> => startIn(dir, dbName);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keyplan-rev-'));
  dbName = `keyplan-test-${Math.random().toString(36).slice(2)}`;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('revisions', () => {
  it('records every save and checkpoint, keeps them across sessions, and restores one as a new, undoable revision', async () => {
    const ws = await startWorkspace();
    ws.files.newDesign();
    const doc = ws.active!;
    expect(await ws.files.saveAsNamed('shop.keyplan.json')).toBe(true);
    ws.edit((d) => renameDesign(d, 'Shop v2'));
    await ws.files.save();
    await ws.versions.checkpoint('  Before the GSI  ');
    expect(ws.revisions.of(doc.id).map((r) => r.label)).toEqual(['Before the GSI', 'Saved shop.keyplan.json', 'Saved shop.keyplan.json']);

    const again = await startWorkspace();
    const revisions = again.revisions.of(again.active!.id);
    expect(revisions).toHaveLength(3);
    const first = revisions.at(-1)!;
    await again.versions.restoreRevision(first);
    expect(again.active!.design.name).toBe('Untitled design');
    expect(again.revisions.of(again.active!.id).map((r) => r.label)).toEqual([
      'Restored from Saved shop.keyplan.json',
      'Before the GSI',
      'Saved shop.keyplan.json',
      'Saved shop.keyplan.json',
    ]);
    again.active!.undo();
    expect(again.active!.design.name).toBe('Shop v2');
  });

  it('keeps the documents a version-1 workspace stored when it opens as version 2', async () => {
    const old = new Dexie(dbName);
    old.version(1).stores({ documents: 'id, order', settings: 'key' });
    await old.table('documents').put({ id: 'doc-old', design: createDesign('Kept'), order: 0, updatedAt: '2026-01-01T00:00:00.000Z' });
    old.close();

    const ws = await startWorkspace();
    expect(ws.documents.map((d) => d.design.name)).toEqual(['Kept']);
    expect(ws.revisions.all).toEqual([]);
  });
});

describe('compare', () => {
  it('duplicates the active design as an alternative, opens it and chooses both', async () => {
    const ws = await startWorkspace();
    ws.files.newDesign();
    const original = ws.active!;
    ws.edit((d) => addEntity(d, d.tables[0]!.id, 'User'));
    ws.versions.duplicateAsAlternative();
    expect(ws.active!.design.name).toBe('Untitled design (alternative)');
    expect(ws.active!.design.id).not.toBe(original.design.id);
    expect(ws.compare.chosen.map((s) => s.label)).toEqual(['Untitled design', 'Untitled design (alternative)']);
    const report = ws.compare.report;
    expect(report?.ok).toBe(true);
    if (!report?.ok) return;
    expect(report.value.partitionRisk).toBeNull();
    const sections = compareSections(report.value, false);
    expect(sections.map((s) => s.id)).toEqual(['patterns', 'tables', 'totals', 'warnings']);
    expect(sections.find((s) => s.id === 'totals')!.subjects[0]!.rows.length).toBeGreaterThan(0);
    // The two are the same design so far: nothing differs.
    expect(compareSections(report.value, true).flatMap((s) => s.subjects)).toEqual([]);
  });

  it('compares a revision with the current design', async () => {
    const ws = await startWorkspace();
    ws.files.newDesign();
    await ws.versions.checkpoint('empty');
    ws.edit((d) => renameDesign(d, 'Renamed'));
    ws.versions.compareWithCurrent(ws.revisions.of(ws.active!.id)[0]!);
    expect(ws.view.screen).toBe('compare');
    expect(ws.compare.chosen.map((s) => s.kind)).toEqual(['revision', 'design']);
    expect(ws.compare.report?.ok).toBe(true);
  });
});
