/**
 * The workspace of one window: the open designs (restored from IndexedDB after a reload or a
 * crash), which one is active, and the parts that act on them, one responsibility each:
 *
 * - `view` (view.svelte.ts): the screen, the dialog, the notice bar;
 * - `files` (file-commands.svelte.ts): new, open, save, import and export through the host;
 * - `handover` (handover.ts): the other windows of the workspace, which edit some designs;
 * - `versions` (versions.ts): revisions, checkpoints, alternatives and solver proposals.
 *
 * More on its rules: docs/modules.md, "src-renderer/state/workspace.svelte.ts".
 */
import { getContext, setContext } from 'svelte';
import type { ApiClient, FileVersion, HostInfo, MenuCommand } from '../../src-shared/ipc/index.ts';
import { newId } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import type { WorkspaceDb } from '../lib/db.ts';
import { Autosave } from './autosave.svelte.ts';
import { CompareState } from './compare.svelte.ts';
import { DiskWatch } from './disk-watch.svelte.ts';
import { OpenDocument, type Edit, type History } from './document.svelte.ts';
import { FileCommands } from './file-commands.svelte.ts';
import { Handover } from './handover.ts';
import { ImportFlow } from './import.svelte.ts';
import { Revisions } from './revisions.svelte.ts';
import { DocumentSession } from './session.svelte.ts';
import { deleteStored, readHistory, readStoredDocuments, recordOf, type RestoreFailure, type StoredState } from './stored-documents.ts';
import { Versions } from './versions.ts';
import { WorkspaceView } from './view.svelte.ts';
import { WindowLink, type WindowLinkOptions } from './window-link.ts';

export type Command = MenuCommand | 'close';

/** The file a design was opened from or saved to. */
export type FileState = Pick<StoredState, 'fileRef' | 'fileName' | 'savedJson' | 'fileVersion'>;

export interface WorkspaceOptions {
  /** How windows of one workspace coordinate (default: this page's Web Locks and BroadcastChannel). */
  link?: WindowLinkOptions;
  /** How often open files are checked for outside changes, in ms (default 2,000; 0 = never). */
  diskCheckMs?: number;
  /** When autosave writes (default: the next animation frame). */
  nextFrame?: (run: () => void) => void;
}

export class Workspace {
  documents = $state<OpenDocument[]>([]);
  activeId = $state<string | undefined>();
  /** `offline`: no host answered; nothing is loaded or stored until the page is opened properly. */
  status = $state<'loading' | 'ready' | 'offline'>('loading');
  offlineReason = $state<string | undefined>();
  host = $state<HostInfo | undefined>();
  restoreFailures = $state<RestoreFailure[]>([]);

  readonly active: OpenDocument | undefined = $derived(this.documents.find((d) => d.id === this.activeId));
  readonly view: WorkspaceView;
  readonly files: FileCommands;
  readonly handover: Handover;
  readonly versions: Versions;
  /** The import dialog's file or text and what it reads as; the workspace changes only on accept. */
  readonly imports: ImportFlow;
  /** Every save and named checkpoint of every document. */
  readonly revisions: Revisions;
  /** The Compare screen's sources and report. */
  readonly compare: CompareState;
  /** Notices files changed on disk by another window or program. */
  readonly disk: DiskWatch;

  readonly #api: ApiClient;
  readonly #db: WorkspaceDb;
  readonly #autosave: Autosave<OpenDocument>;
  readonly #link: WindowLink;
  /** The session of each open design, by document id. */
  readonly #sessions = new Map<string, DocumentSession>();
  #lastShortcut: { command: Command; source: string; at: number } | undefined;
  #unsubscribeMenu: (() => void) | undefined;

  /** The host client, for the state classes of single screens. */
  get api(): ApiClient {
    return this.#api;
  }

  constructor(api: ApiClient, db: WorkspaceDb, options: WorkspaceOptions = {}) {
    this.#api = api;
    this.#db = db;
    this.view = new WorkspaceView(db);
    this.revisions = new Revisions(db);
    this.compare = new CompareState(() => this.documents, () => this.active, this.revisions);
    this.#link = new WindowLink(options.link);
    this.#autosave = new Autosave(db, {
      recordOf: (doc) => recordOf(doc, this.documents.indexOf(doc)),
      historyOf: (doc) => doc.history,
      onerror: (error) => this.view.report(error, 'Autosave failed'),
      onstored: (docId) => this.#link.post({ type: 'stored', docId }),
      windowId: this.#link.windowId,
      isWindowOpen: (windowId) => this.#link.isWindowOpen(windowId),
      ...(options.nextFrame ? { nextFrame: options.nextFrame } : {}),
    });
    this.disk = new DiskWatch(api, () => this.documents.filter((d) => !d.readOnly), options.diskCheckMs);
    this.imports = new ImportFlow((design, source) => this.files.importDesign(design, source));
    this.files = new FileCommands(this, { api, view: this.view, autosave: this.#autosave, imports: this.imports, revisions: this.revisions, compare: this.compare, disk: this.disk });
    this.handover = new Handover(this, { link: this.#link, db, autosave: this.#autosave, view: this.view });
    this.versions = new Versions(this, { view: this.view, revisions: this.revisions, compare: this.compare });
  }

  /** `pending` while edits wait to reach IndexedDB; `idle` once everything is stored locally. */
  get autosave(): 'idle' | 'pending' {
    return this.#autosave.status;
  }

  /** Connects to the host and restores the open designs. Sets `status` to ready when done. */
  async init(): Promise<void> {
    try {
      this.host = await this.#api.call('app.info', {});
    } catch (error) {
      // Without a host this page must not touch the workspace another, connected page is using.
      this.offlineReason = error instanceof Error ? error.message : String(error);
      this.status = 'offline';
      return;
    }
    try {
      this.#unsubscribeMenu = this.#api.on('menu.command', ({ command }) => void this.run(command, 'menu'));
      await this.#restore();
      await Promise.all([this.files.refreshRecent(), this.files.loadExamples()]);
      this.disk.start();
    } catch (error) {
      this.view.report(error, 'Keyplan could not start');
    } finally {
      this.status = 'ready';
    }
  }

  async #restore(): Promise<void> {
    await this.#autosave.replayJournal();
    await this.revisions.load();
    const { stored, failures } = await readStoredDocuments(this.#db);
    for (const { record, design } of stored) {
      if (this.documents.some((d) => d.id === record.id)) continue;
      // Another window may be editing it: then this one shows it read-only and follows that window.
      const owned = await this.#link.claim(record.id);
      this.#open(this.#makeDocument(record.id, design, record, owned ? await readHistory(this.#db, record.id) : undefined, !owned));
    }
    this.restoreFailures = failures;
    const [activeId, screen] = await this.#db.settings.bulkGet(['activeId', 'screen']);
    this.activeId = this.documents.find((d) => d.id === activeId?.value)?.id ?? this.documents[0]?.id;
    this.view.restoreScreen(screen?.value);
  }

  #makeDocument(id: string, design: Design, file?: FileState, history?: History, readOnly = false): OpenDocument {
    return new OpenDocument({
      id,
      design,
      fileRef: file?.fileRef,
      fileName: file?.fileName,
      savedJson: file?.savedJson,
      fileVersion: file?.fileVersion,
      history,
      readOnly,
      onchange: (doc) => {
        if (!doc.readOnly) this.#autosave.schedule(doc);
      },
    });
  }

  /** Lists a document in this window, with the session that holds what is its own. */
  #open(doc: OpenDocument): void {
    this.#sessions.set(doc.id, new DocumentSession(this.#api, doc, (edit, coalesceKey) => this.edit(edit, coalesceKey, doc)));
    this.documents.push(doc);
  }

  /** Takes a document out of this window; its session ends (the one place it does). */
  #remove(id: string): void {
    this.#sessions.get(id)?.dispose();
    this.#sessions.delete(id);
    this.disk.forget(id);
    this.documents = this.documents.filter((d) => d.id !== id);
    if (this.activeId === id) this.activeId = this.documents.at(-1)?.id;
  }

  /** Opens `design` as a new document of this window and makes it the active one. */
  add(design: Design, file?: { fileRef: string; fileName: string; savedJson: string; fileVersion: FileVersion }): OpenDocument {
    this.view.dismissNotice();
    const doc = this.#makeDocument(newId('doc'), design, file);
    this.#open(doc);
    this.activate(doc.id);
    void this.#link.claim(doc.id); // a new id: no other window can hold it
    void this.#autosave.now(doc);
    return doc;
  }

  /** Lists a document another window opened (and so edits): read-only here, following that window. */
  addFollowed(id: string, state: StoredState): void {
    this.#open(this.#makeDocument(id, state.design, state, undefined, true));
    if (this.activeId === undefined) this.activeId = id;
  }

  /** Removes a document from this window only (another window edits it, or closed it). */
  drop(id: string): void {
    this.#remove(id);
  }

  /**
   * The session of an open design: its sample data, simulations, proposals, runs and Raw JSON text.
   * A late call for a design already closed gets a session that is disposed already: nothing leaks.
   */
  sessionOf(doc: OpenDocument): DocumentSession {
    const session = this.#sessions.get(doc.id);
    if (session?.doc === doc) return session;
    const ended = new DocumentSession(this.#api, doc, () => undefined);
    ended.dispose();
    return ended;
  }

  activate(id: string): void {
    if (id !== this.activeId) this.view.dismissNotice();
    this.activeId = id;
    void this.#db.settings.put({ key: 'activeId', value: id });
  }

  /**
   * Applies a pure edit to the active design, or to `target` (one undo step; see `OpenDocument.apply`).
   * A document already closed is left alone (a late edit must not bring its autosave record back).
   */
  edit(edit: Edit, coalesceKey?: string, target: OpenDocument | undefined = this.active): void {
    if (!target || !this.documents.includes(target)) return;
    this.view.dismissInfo();
    target.apply(edit, coalesceKey);
  }

  /**
   * Runs a command from the keyboard, the menu or a button. In Electron one key press may reach both
   * the page and the application menu; the second arrival of the same command is dropped.
   */
  async run(command: Command, source: 'keyboard' | 'menu' | 'button' = 'button'): Promise<void> {
    const now = Date.now();
    const last = this.#lastShortcut;
    if (source !== 'button') {
      this.#lastShortcut = { command, source, at: now };
      if (last && last.command === command && last.source !== source && now - last.at < 150) return;
    }
    switch (command) {
      case 'new':
        return this.files.newDesign();
      case 'open':
        return this.files.open();
      case 'save':
        return this.files.save();
      case 'saveAs':
        return this.files.saveAs();
      case 'undo':
        return this.active?.undo();
      case 'redo':
        return this.active?.redo();
      case 'close':
        if (this.active) await this.close(this.active.id);
        return;
      case 'import':
        return this.files.openImport();
      case 'export':
        return this.files.openExport();
    }
  }

  /** Closes a design. With unsaved edits it first asks (the close dialog); `force` discards them. */
  async close(id: string, force = false): Promise<void> {
    const doc = this.documents.find((d) => d.id === id);
    if (!doc) return;
    if (doc.isDirty && !force && !doc.readOnly) {
      this.view.closing = doc;
      this.view.dialog = 'close';
      return;
    }
    if (this.view.closing === doc) {
      this.view.closing = undefined;
      this.view.dialog = undefined;
    }
    this.#autosave.cancel(id);
    this.#remove(id);
    if (doc.readOnly) return; // another window edits it: only this window's view closes
    await this.#autosave.settled();
    await deleteStored(this.#db, id);
    this.#link.release(id);
    this.#link.post({ type: 'closed', docId: id });
  }

  /** Forgets a stored document that could not be restored, after the user chose to. */
  async discardFailed(id: string): Promise<void> {
    await deleteStored(this.#db, id);
    this.restoreFailures = this.restoreFailures.filter((f) => f.id !== id);
  }

  /** Stops the disk checks and the menu, ends every design's session and lets go of this window's documents (the window is closing; tests). */
  dispose(): void {
    this.disk.stop();
    this.#unsubscribeMenu?.();
    for (const session of this.#sessions.values()) session.dispose();
    this.#sessions.clear();
    this.#link.close();
  }

  /** Writes every pending autosave now (the page is being hidden or closed). */
  flush(): void {
    this.#autosave.flush();
  }
}

const KEY = Symbol('workspace');
export const setWorkspace = (workspace: Workspace): Workspace => setContext(KEY, workspace);
export const getWorkspace = (): Workspace => getContext<Workspace>(KEY);
