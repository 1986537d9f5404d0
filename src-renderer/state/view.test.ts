import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { createDesign } from '../../src-shared/model/index.ts';
import { openWorkspaceDb, type WorkspaceDb } from '../lib/db.ts';
import { OpenDocument } from './document.svelte.ts';
import { WorkspaceView } from './view.svelte.ts';

const dbs: WorkspaceDb[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function view(): { view: WorkspaceView; db: WorkspaceDb } {
  const db = openWorkspaceDb(`keyplan-view-${Math.random().toString(36).slice(2)}`);
  dbs.push(db);
  return { view: new WorkspaceView(db), db };
}

const docNamed = (id: string) => new OpenDocument({ id, design: createDesign(id), onchange: () => {} });

describe('WorkspaceView', () => {
  it('is busy while a command runs and says its error with the problems it lists', async () => {
    const { view: v } = view();
    let busyInside = false;
    const problems = [{ code: 'model.schema', path: 'tables[0]', message: 'Not a table.' }];
    await v.guard('Could not open x.keyplan.json', async () => {
      busyInside = v.busy;
      throw new AppError({ code: 'file.invalidDesign', message: 'It is not a design.', details: problems });
    });
    expect(busyInside).toBe(true);
    expect(v.busy).toBe(false);
    expect(v.notice).toEqual({ kind: 'error', code: 'file.invalidDesign', message: 'Could not open x.keyplan.json: It is not a design.', problems });
  });

  it('says nothing when the user canceled, and names a plain error ipc.internal', async () => {
    const { view: v } = view();
    await v.guard('Could not open the file', async () => {
      throw new AppError({ code: 'file.canceled', message: 'Canceled.' });
    });
    expect(v.notice).toBeUndefined();
    await v.guard('Could not save', async () => {
      throw new Error('disk full');
    });
    expect(v.notice).toEqual({ kind: 'error', code: 'ipc.internal', message: 'Could not save: disk full' });
  });

  it('lets an edit clear news but not an error', () => {
    const { view: v } = view();
    v.inform('Saved a.keyplan.json.');
    v.dismissInfo();
    expect(v.notice).toBeUndefined();
    v.report(new Error('broken'), 'Autosave failed');
    v.dismissInfo();
    expect(v.notice?.kind).toBe('error');
  });

  it('closes the dialogs that would write a document this window stops editing, and only those', () => {
    const { view: v } = view();
    const a = docNamed('a');
    const b = docNamed('b');
    v.dialog = 'saveAs';
    v.closeDialogsOf(b, a);
    expect(v.dialog).toBe('saveAs');
    v.closeDialogsOf(a, a);
    expect(v.dialog).toBeUndefined();

    v.dialog = 'conflict';
    v.conflict = { doc: a, version: null };
    v.closeDialogsOf(b, b);
    expect(v.dialog).toBe('conflict');
    v.closeDialogsOf(a, b);
    expect([v.dialog, v.conflict]).toEqual([undefined, undefined]);

    v.dialog = 'close';
    v.closing = b;
    v.closeDialogsOf(b, a);
    expect([v.dialog, v.closing]).toEqual([undefined, undefined]);
  });

  it('remembers the screen shown, and takes back only a screen that still exists', async () => {
    const { view: v, db } = view();
    v.show('costs');
    expect(v.screen).toBe('costs');
    await expect.poll(async () => (await db.settings.get('screen'))?.value).toBe('costs');
    const next = new WorkspaceView(db);
    next.restoreScreen('costs');
    expect(next.screen).toBe('costs');
    next.restoreScreen('retired-screen');
    expect(next.screen).toBe('costs');
  });
});
