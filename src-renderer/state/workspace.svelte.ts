/**
 * The workspace: the open designs (restored from IndexedDB after a reload or a crash), which one is
 * active, the current screen, and the file commands that go through the host. Components call these
 * methods; they never talk to the host or the database themselves.
 */
import { getContext, setContext } from 'svelte';
import { AppError, type ErrorData } from '../../src-shared/errors.ts';
import type { ApiClient } from '../../src-shared/ipc/client.ts';
import type { ExampleInfo, FileEntry, FileVersion, HostInfo, MenuCommand, RecentFile } from '../../src-shared/ipc/contract.ts';
import { createDesign, duplicateDesign, newId } from '../../src-shared/model/edits.ts';
import type { Problem } from '../../src-shared/model/problems.ts';
import type { Design } from '../../src-shared/model/schema.ts';
import { parseDesignStructure } from '../../src-shared/model/validate.ts';
import type { Figure } from '../../src-shared/capacity/figure.ts';
import type { DocumentRecord, HistoryRecord, WorkspaceDb } from '../lib/db.ts';
import { OpenDocument, type Edit, type History } from './document.svelte.ts';
import { Autosave } from './autosave.svelte.ts';
import { ImportFlow } from './import.svelte.ts';
import type { ExportSaveResult } from './export.svelte.ts';
import { SCREENS, type ScreenId } from './screens.ts';
import { Revisions, type Revision } from './revisions.svelte.ts';
import { CompareState, designSourceKey, revisionSourceKey } from './compare.svelte.ts';
import { WindowLink, type LinkMessage, type WindowLinkOptions } from './window-link.ts';
import { DiskWatch } from './disk-watch.svelte.ts';
import { DocumentSession } from './session.svelte.ts';


export interface Notice {
  kind: 'error' | 'info';
  message: string;
  code?: string;
  problems?: Problem[];
}

/** A stored document that could not be restored; its record is left as it was. */
export interface RestoreFailure {
  id: string;
  title: string;
  problems: Problem[];
}

export type Command = MenuCommand | 'close';

/** A save refused because the file changed on disk: what the conflict dialog asks about. */
export interface SaveConflict {
  doc: OpenDocument;
  /** The version on disk now; null when the file was moved or deleted. */
  version: FileVersion | null;
}

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
  screen = $state<ScreenId>('entities');
  /** `offline`: no host answered; nothing is loaded or stored until the page is opened properly. */
  status = $state<'loading' | 'ready' | 'offline'>('loading');
  offlineReason = $state<string | undefined>();
  host = $state<HostInfo | undefined>();
  notice = $state<Notice | undefined>();
  dialog = $state<'open' | 'saveAs' | 'close' | 'import' | 'export' | 'conflict' | undefined>();
  /** The save the conflict dialog asks about. */
  conflict = $state.raw<SaveConflict | undefined>();
  /** The design the close dialog asks about. */
  closing = $state<OpenDocument | undefined>();
  restoreFailures = $state<RestoreFailure[]>([]);
  recent = $state<RecentFile[]>([]);
  examples = $state<ExampleInfo[]>([]);
  workspaceFiles = $state<FileEntry[]>([]);
  busy = $state(false);
  /** The number whose derivation is shown (a click on any figure). */
  explained = $state<{ title: string; figure: Figure } | undefined>();
  /** Which table of a multi-table design the screens show. */
  tableId = $state<string | undefined>();

  readonly active: OpenDocument | undefined = $derived(this.documents.find((d) => d.id === this.activeId));
  /** The import dialog's file or text and what it reads as; the workspace changes only on accept. */
  readonly imports = new ImportFlow((design, source) => this.importDesign(design, source));
  /** Every save and named checkpoint of every document. */
  readonly revisions: Revisions;
  /** The Compare screen's sources and report. */
  readonly compare: CompareState;

  readonly #api: ApiClient;
  readonly #db: WorkspaceDb;
  readonly #autosave: Autosave<OpenDocument>;
  readonly #link: WindowLink;
  /** Per open design: its sample data and simulations (see `sessionOf`). */
  readonly #sessions = new Map<string, DocumentSession>();
  /** Notices files changed on disk by another window or program. */
  readonly disk: DiskWatch;
  #lastShortcut: { command: Command; source: string; at: number } | undefined;

  /** The host client, for the state classes of single screens (the data screen's sample). */
  get api(): ApiClient { return this.#api; }

  constructor(api: ApiClient, db: WorkspaceDb, options: WorkspaceOptions = {}) {
    this.#api = api;
    this.#db = db;
    this.revisions = new Revisions(db);
    this.compare = new CompareState(() => this.documents, () => this.active, this.revisions);
    this.#link = new WindowLink(options.link);
    this.#link.onmessage = (message) => void this.#follow(message);
    this.#link.onlost = (docId) => this.#lose(docId);
    this.#autosave = new Autosave(db, {
      recordOf: (doc) => this.#recordOf(doc),
      historyOf: (doc) => doc.history,
      onerror: (error) => this.#report(error, 'Autosave failed'),
      onstored: (docId) => this.#link.post({ type: 'stored', docId }),
      windowId: this.#link.windowId,
      isWindowOpen: (windowId) => this.#link.isWindowOpen(windowId),
      ...(options.nextFrame ? { nextFrame: options.nextFrame } : {}),
    });
    this.disk = new DiskWatch(api, () => this.documents.filter((d) => !d.readOnly), options.diskCheckMs);
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
      this.#api.on('menu.command', ({ command }) => void this.run(command, 'menu'));
      await this.#restore();
      await Promise.all([this.refreshRecent(), this.#loadExamples()]);
      this.disk.start();
    } catch (error) {
      this.#report(error, 'Keyplan could not start');
    } finally {
      this.status = 'ready';
    }
  }

  async #restore(): Promise<void> {
    await this.#autosave.replayJournal();
    await this.revisions.load();
    const records = await this.#db.documents.orderBy('order').toArray();
    const failures: RestoreFailure[] = [];
    for (const record of records) {
      // Work in progress may break DynamoDB rules (they show inline); only a broken shape fails.
      const parsed = parseDesignStructure(record.design);
      if (!parsed.ok) {
        failures.push({ id: record.id, title: record.fileName ?? nameOf(record.design), problems: parsed.errors });
        continue;
      }
      if (this.documents.some((d) => d.id === record.id)) continue;
      // Another window may be editing it: then this one shows it read-only and follows that window.
      const owned = await this.#link.claim(record.id);
      this.documents.push(this.#makeDocument(record.id, parsed.value, record, owned ? await this.#loadHistory(record.id) : undefined, !owned));
    }
    this.restoreFailures = failures;
    const settings = await this.#db.settings.bulkGet(['activeId', 'screen']);
    const activeId = settings[0]?.value;
    const screen = settings[1]?.value;
    this.activeId = this.documents.find((d) => d.id === activeId)?.id ?? this.documents[0]?.id;
    if (SCREENS.some((s) => s.id === screen)) this.screen = screen as ScreenId;
  }

  #makeDocument(
    id: string,
    design: Design,
    file?: Pick<DocumentRecord, 'fileRef' | 'fileName' | 'savedJson' | 'fileVersion'>,
    history?: History,
    readOnly = false,
  ) {
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

  /** The stored undo history of a document; steps whose design no longer parses are dropped. */
  async #loadHistory(id: string): Promise<History> {
    const rows = await this.#db.history.where('documentId').equals(id).sortBy('seq');
    const steps = (stack: HistoryRecord['stack']) =>
      rows.flatMap((r) => {
        if (r.stack !== stack) return [];
        const parsed = parseDesignStructure(r.design);
        return parsed.ok ? [{ seq: r.seq, design: parsed.value }] : [];
      });
    return { past: steps('past'), future: steps('future') };
  }

  #add(design: Design, file?: { fileRef: string; fileName: string; savedJson: string; fileVersion: FileVersion }): OpenDocument {
    this.notice = undefined;
    const doc = this.#makeDocument(newId('doc'), design, file);
    this.documents.push(doc);
    this.activate(doc.id);
    void this.#link.claim(doc.id); // a new id: no other window can hold it
    void this.#autosave.now(doc);
    return doc;
  }

  /** Another window's news about a document this one shows. */
  async #follow(message: LinkMessage): Promise<void> {
    if (this.status !== 'ready') return; // the restore reads every record as it is now
    const doc = this.documents.find((d) => d.id === message.docId);
    if (message.type === 'release') {
      if (doc && !doc.readOnly && this.#link.owns(doc.id)) await this.#handOver(doc);
      return;
    }
    if (message.type === 'closed') {
      if (doc?.readOnly) this.#drop(doc.id);
      return;
    }
    if (message.type !== 'stored' || (doc && !doc.readOnly)) return;
    const record = await this.#db.documents.get(message.docId);
    const parsed = record ? parseDesignStructure(record.design) : undefined;
    if (!record || !parsed?.ok) return;
    const state = { design: parsed.value, fileRef: record.fileRef, fileName: record.fileName, savedJson: record.savedJson, fileVersion: record.fileVersion };
    const current = this.documents.find((d) => d.id === message.docId);
    if (current) current.follow(state);
    else {
      // A document another window opened (and so edits): listed here too, read-only.
      this.documents.push(this.#makeDocument(record.id, parsed.value, record, undefined, true));
      if (this.activeId === undefined) this.activeId = record.id;
    }
  }

  /** A save or save-as asked of a document another window edits: say how to get it back. */
  #refuseReadOnly(doc: OpenDocument): void {
    if (this.dialog === 'saveAs' || this.dialog === 'conflict') this.dialog = undefined;
    this.notice = {
      kind: 'error',
      message: `${doc.title} is edited in another window, so it cannot be saved from here. "Take over editing" first, or save it in that window.`,
    };
  }

  /** Dialogs that would write `doc` close when this window stops editing it. */
  #closeDialogsOf(doc: OpenDocument): void {
    if ((this.dialog === 'saveAs' && this.active === doc) || (this.dialog === 'conflict' && this.conflict?.doc === doc)) {
      this.dialog = undefined;
      this.conflict = undefined;
    }
    if (this.dialog === 'close' && this.closing === doc) {
      this.dialog = undefined;
      this.closing = undefined;
    }
  }

  /** Another window takes this document over: store the last edits, stop editing, let go. */
  async #handOver(doc: OpenDocument): Promise<void> {
    doc.readOnly = true;
    this.#closeDialogsOf(doc);
    await this.#autosave.now(doc);
    this.#autosave.cancel(doc.id);
    this.#link.release(doc.id);
    this.#link.post({ type: 'released', docId: doc.id });
    if (doc === this.active) this.notice = { kind: 'info', message: `${doc.title} is edited in another window now; here it follows that window's edits.` };
  }

  /** The lock was taken by force (this window did not answer in time): stop writing the document. */
  #lose(docId: string): void {
    const doc = this.documents.find((d) => d.id === docId);
    if (!doc) return;
    doc.readOnly = true;
    this.#closeDialogsOf(doc);
    this.#autosave.cancel(docId);
  }

  /** Makes this window the one that edits `doc` (it was open read-only because another window edits it). */
  async takeOver(doc: OpenDocument): Promise<void> {
    if (!doc.readOnly) return;
    await this.#guard(`Could not take over ${doc.title}`, async () => {
      await this.#link.takeOver(doc.id);
      const record = await this.#db.documents.get(doc.id);
      const parsed = record ? parseDesignStructure(record.design) : undefined;
      if (record && parsed?.ok) {
        doc.follow({ design: parsed.value, fileRef: record.fileRef, fileName: record.fileName, savedJson: record.savedJson, fileVersion: record.fileVersion });
      }
      doc.resume(await this.#loadHistory(doc.id));
      this.notice = { kind: 'info', message: `You edit ${doc.title} in this window now; the other window shows it read-only.` };
    });
  }

  /**
   * The session of an open design: its sample data and simulations, kept while it is open (results
   * survive moving between screens) and disposed when it closes (its tasks are canceled).
   */
  sessionOf(doc: OpenDocument): DocumentSession {
    let session = this.#sessions.get(doc.id);
    if (!session) {
      session = new DocumentSession(this.#api, doc.id);
      // A late call for a design already closed gets a session that is disposed at once: nothing leaks.
      if (this.documents.includes(doc)) this.#sessions.set(doc.id, session);
      else session.dispose();
    }
    return session;
  }

  #endSession(id: string): void {
    this.#sessions.get(id)?.dispose();
    this.#sessions.delete(id);
  }

  /** Removes a document from this window only (another window edits it, or closed it). */
  #drop(id: string): void {
    this.#endSession(id);
    this.documents = this.documents.filter((d) => d.id !== id);
    if (this.activeId === id) this.activeId = this.documents.at(-1)?.id;
  }

  activate(id: string): void {
    if (id !== this.activeId) this.notice = undefined;
    this.activeId = id;
    void this.#db.settings.put({ key: 'activeId', value: id });
  }

  show(screen: ScreenId): void {
    this.screen = screen;
    void this.#db.settings.put({ key: 'screen', value: screen });
  }

  /**
   * Applies a pure edit to the active design, or to `target` (one undo step; see `OpenDocument.apply`).
   * A document already closed is left alone (a late edit must not bring its autosave record back).
   */
  edit(edit: Edit, coalesceKey?: string, target: OpenDocument | undefined = this.active): void {
    if (!target || !this.documents.includes(target)) return;
    if (this.notice?.kind === 'info') this.notice = undefined;
    target.apply(edit, coalesceKey);
  }

  /** Shows how a number is computed. */
  explain(title: string, figure: Figure): void {
    this.explained = { title, figure };
  }

  dismissNotice(): void {
    this.notice = undefined;
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
        return this.newDesign();
      case 'open':
        return this.open();
      case 'save':
        return this.save();
      case 'saveAs':
        return this.saveAs();
      case 'undo':
        return this.active?.undo();
      case 'redo':
        return this.active?.redo();
      case 'close':
        if (this.active) await this.close(this.active.id);
        return;
      case 'import':
        return this.openImport();
      case 'export':
        return this.openExport();
    }
  }

  /** Shows the import dialog, reading `files` at once when they were dropped on the window. */
  openImport(files: readonly File[] = []): void {
    this.imports.reset();
    this.dialog = 'import';
    if (files.length > 0) void this.imports.readFiles(files);
  }

  /** Opens an imported design as a new, unsaved document (the import dialog's accept). */
  importDesign(design: Design, source: string): void {
    this.dialog = undefined;
    this.#add(design);
    this.show('entities');
    this.notice = { kind: 'info', message: `Imported "${design.name}" from ${source}. It is a new design, not saved to a file yet.` };
  }

  /** Shows the export dialog for the active design. */
  openExport(): void {
    if (this.active) this.dialog = 'export';
  }

  /**
   * Saves an exported file through the host: in browser mode under `name` in the workspace folder,
   * in Electron where the native save dialog says (`name` as its suggestion).
   */
  async saveExport(name: string, content: string, overwrite: boolean): Promise<ExportSaveResult> {
    try {
      const saved = await this.#api.call('file.export', { name, content, overwrite });
      return { kind: 'saved', name: saved.name, where: this.host?.mode === 'browser' ? this.host.workspaceDir : undefined };
    } catch (error) {
      if (error instanceof AppError && error.code === 'file.canceled') return { kind: 'canceled' };
      if (error instanceof AppError && error.code === 'file.exists') return { kind: 'exists', name };
      return { kind: 'failed', message: `Could not save ${name}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  newDesign(): void {
    const n = this.documents.filter((d) => d.design.name.startsWith('Untitled design')).length;
    this.#add(createDesign(n === 0 ? 'Untitled design' : `Untitled design ${n + 1}`));
    this.show('patterns');
  }

  async openExample(id: string): Promise<void> {
    await this.#guard('Could not open the example', async () => {
      const { design } = await this.#api.call('examples.open', { id });
      this.#add(design);
      this.show('entities');
    });
  }

  /** Shows the open dialog: the native one in Electron, the workspace file list in a browser. */
  async open(): Promise<void> {
    if (this.host?.mode === 'electron') {
      await this.#guard('Could not open the file', async () => {
        const opened = await this.#api.call('file.openDialog', {});
        this.#adopt(opened.ref, opened.name, opened.design, opened.version);
      });
      return;
    }
    await this.#guard('Could not list the workspace folder', async () => {
      this.workspaceFiles = (await this.#api.call('file.list', {})).files;
    });
    this.dialog = 'open';
  }

  /** Opens a file the host named (workspace list, recent list). The open designs stay as they are on failure. */
  async openRef(ref: string): Promise<void> {
    this.dialog = undefined;
    await this.#guard(`Could not open ${ref}`, async () => {
      const opened = await this.#api.call('file.open', { ref });
      this.#adopt(opened.ref, opened.name, opened.design, opened.version);
      if (opened.migratedFrom !== undefined) {
        this.notice = {
          kind: 'info',
          message: `${opened.name} was written by format version ${opened.migratedFrom}; it is upgraded and will be saved in the current format.`,
        };
      }
    });
    await this.refreshRecent();
  }

  #adopt(ref: string, name: string, design: Design, version: FileVersion): void {
    const already = this.documents.find((d) => d.fileRef === ref);
    if (already && (already.readOnly || !already.isDirty)) {
      // Open here already (or edited in another window, shown here read-only): one document per file.
      this.activate(already.id);
      return;
    }
    this.#add(design, { fileRef: ref, fileName: name, savedJson: JSON.stringify(design), fileVersion: version });
  }

  /**
   * Saves the active design over its file. The save names the version this editor holds; when the
   * file changed on disk since, nothing is written and the conflict dialog asks what to do.
   * `overwrite` (the dialog's answer) names the version now on disk instead, or none when it is gone.
   */
  async save(overwrite?: SaveConflict): Promise<void> {
    const doc = overwrite?.doc ?? this.active;
    if (!doc || doc.readOnly) return;
    if (!doc.fileRef) return this.saveAs();
    const expected = overwrite ? overwrite.version : doc.fileVersion;
    await this.#guard(`Could not save ${doc.title}`, async () => {
      try {
        const saved = await this.#api.call('file.save', { ref: doc.fileRef!, design: doc.design, ...(expected ? { expected } : {}) });
        doc.markSaved(saved.ref, saved.name, saved.version);
        this.disk.saved(doc);
        await this.#autosave.now(doc);
        await this.revisions.record(doc.id, doc.design, `Saved ${saved.name}`);
        this.conflict = undefined;
        if (this.dialog === 'conflict') this.dialog = undefined;
        this.notice = { kind: 'info', message: `Saved ${saved.name}.` };
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'file.changed') throw error;
        const onDisk = (error.details as { version?: FileVersion | null } | undefined)?.version ?? null;
        this.conflict = { doc, version: onDisk };
        this.dialog = 'conflict';
      }
    });
    await this.refreshRecent();
  }

  /** The conflict dialog's "Compare": the version on disk beside this one on the Compare screen. */
  async compareWithDisk(doc: OpenDocument): Promise<void> {
    if (!doc.fileRef) return;
    await this.#guard(`Could not read ${doc.title} from disk`, async () => {
      const opened = await this.#api.call('file.open', { ref: doc.fileRef! });
      const revision = await this.revisions.record(doc.id, opened.design, `On disk: ${opened.name}`);
      this.compare.select([revisionSourceKey(revision.id), designSourceKey(doc.id)]);
      if (this.dialog === 'conflict') this.dialog = undefined;
      this.show('compare');
      this.notice = {
        kind: 'info',
        message: `Comparing the version of ${opened.name} on disk (kept as a revision) with yours. Save again to choose: overwrite it, or save yours as a new file.`,
      };
    });
  }

  /** Replaces the design with the version on disk, as one undoable edit (the banner's "Reload"). */
  async reloadFromDisk(doc: OpenDocument): Promise<void> {
    if (!doc.fileRef || doc.readOnly) return;
    await this.#guard(`Could not reload ${doc.title}`, async () => {
      const opened = await this.#api.call('file.open', { ref: doc.fileRef! });
      this.edit(() => opened.design, undefined, doc);
      doc.markSaved(opened.ref, opened.name, opened.version);
      this.disk.saved(doc);
      this.notice = { kind: 'info', message: `Reloaded ${opened.name} from disk. Undo brings back the design it replaced.` };
    });
  }

  async saveAs(): Promise<void> {
    const doc = this.active;
    if (!doc) return;
    if (doc.readOnly) return this.#refuseReadOnly(doc);
    if (this.host?.mode === 'electron') {
      await this.saveAsNamed(suggestedFileName(doc.design.name));
      return;
    }
    this.dialog = 'saveAs';
  }

  /** Saves the active design under `name`. Returns false (and keeps the dialog) when the name is taken. */
  async saveAsNamed(name: string, overwrite = false): Promise<boolean> {
    const doc = this.active;
    if (!doc) return false;
    // Another window took it over while the dialog was open: that window's record must not change.
    if (doc.readOnly) {
      this.#refuseReadOnly(doc);
      return false;
    }
    let saved = false;
    await this.#guard(`Could not save ${name}`, async () => {
      const result = await this.#api.call('file.saveAs', { name, design: doc.design, overwrite });
      doc.markSaved(result.ref, result.name, result.version);
      this.disk.saved(doc);
      await this.#autosave.now(doc);
      this.conflict = undefined;
      await this.revisions.record(doc.id, doc.design, `Saved ${result.name}`);
      this.dialog = undefined;
      this.notice = { kind: 'info', message: `Saved ${result.name}.` };
      saved = true;
    });
    await this.refreshRecent();
    return saved;
  }

  /** Keeps the active design as a named revision (a checkpoint), without saving it to a file. */
  async checkpoint(name: string): Promise<void> {
    const doc = this.active;
    const label = name.trim();
    if (!doc || label === '') return;
    await this.#guard('Could not keep the checkpoint', async () => {
      await this.revisions.record(doc.id, doc.design, label);
      this.notice = { kind: 'info', message: `Checkpoint "${label}" kept.` };
    });
  }

  /**
   * Makes a revision's design the current one of its document, as one undoable edit, and records
   * that as a new revision ("Restored from …"): the design replaced is still in the undo stack.
   */
  async restoreRevision(revision: Revision): Promise<void> {
    const doc = this.documents.find((d) => d.id === revision.documentId);
    if (!doc) return;
    const design = JSON.parse(JSON.stringify(revision.design)) as Design;
    this.edit(() => design, undefined, doc);
    await this.#guard('Could not record the restore', async () => {
      await this.revisions.record(doc.id, doc.design, `Restored from ${revision.label}`);
      this.notice = { kind: 'info', message: `Restored "${revision.label}". Undo brings back the design it replaced.` };
    });
  }

  /** Compares the active design's current state with one of its revisions. */
  compareWithCurrent(revision: Revision): void {
    this.compare.select([revisionSourceKey(revision.id), designSourceKey(revision.documentId)]);
    this.show('compare');
  }

  /**
   * Starts a new, unsaved design from the active one ("<name> (alternative)"), opens it, and
   * chooses both for the Compare screen.
   */
  duplicateAsAlternative(): void {
    const original = this.active;
    if (!original) return;
    const copy = this.#add(duplicateDesign(original.design, `${original.design.name} (alternative)`));
    this.compare.select([designSourceKey(original.id), designSourceKey(copy.id)]);
    this.notice = { kind: 'info', message: `"${copy.design.name}" is a new design started from "${original.title}"; both are chosen on the Compare screen.` };
  }

  /**
   * Opens a key-design proposal (a complete design the solver made from `original`) as a new,
   * unsaved document named `name`; `original` stays as it is. As an alternative, both are chosen on
   * the Compare screen, which is shown.
   */
  openProposal(original: OpenDocument, design: Design, name: string, as: 'newDesign' | 'alternative'): void {
    if (!this.documents.includes(original)) return;
    const copy = this.#add(duplicateDesign(design, name));
    if (as === 'newDesign') {
      this.notice = { kind: 'info', message: `"${name}" is a new design made from a proposal for "${original.title}", not saved to a file yet; "${original.title}" is unchanged.` };
      return;
    }
    this.compare.select([designSourceKey(original.id), designSourceKey(copy.id)]);
    this.show('compare');
    this.notice = { kind: 'info', message: `"${name}" is a new design made from a proposal for "${original.title}"; both are chosen on the Compare screen.` };
  }

  /** Closes a design. With unsaved edits it first asks (the close dialog); `force` discards them. */
  async close(id: string, force = false): Promise<void> {
    const doc = this.documents.find((d) => d.id === id);
    if (!doc) return;
    if (doc.isDirty && !force && !doc.readOnly) {
      this.closing = doc;
      this.dialog = 'close';
      return;
    }
    if (this.closing === doc) {
      this.closing = undefined;
      this.dialog = undefined;
    }
    this.#autosave.cancel(id);
    if (doc.readOnly) return this.#drop(id); // another window edits it: only this window's view closes
    this.#endSession(id);
    this.documents = this.documents.filter((d) => d.id !== id);
    if (this.activeId === id) this.activeId = this.documents.at(-1)?.id;
    await this.#autosave.settled();
    await this.#db.transaction('rw', this.#db.documents, this.#db.history, async () => {
      await this.#db.documents.delete(id);
      await this.#db.history.where('documentId').equals(id).delete();
    });
    this.#link.release(id);
    this.#link.post({ type: 'closed', docId: id });
  }

  /** Saves the design the close dialog asks about to its file, then closes it. */
  async saveAndClose(): Promise<void> {
    const doc = this.closing;
    if (!doc?.fileRef) return;
    this.activate(doc.id);
    await this.save();
    if (!doc.isDirty) await this.close(doc.id);
  }

  /** Forgets a stored document that could not be restored, after the user chose to. */
  async discardFailed(id: string): Promise<void> {
    await this.#db.documents.delete(id);
    await this.#db.history.where('documentId').equals(id).delete();
    this.restoreFailures = this.restoreFailures.filter((f) => f.id !== id);
  }

  async refreshRecent(): Promise<void> {
    try {
      this.recent = (await this.#api.call('recent.list', {})).files;
    } catch (error) {
      this.#report(error, 'Could not read the recent files');
    }
  }

  async #loadExamples(): Promise<void> {
    this.examples = (await this.#api.call('examples.list', {})).examples;
  }

  /** Stops the disk checks and lets go of this window's documents (the window is closing; tests). */
  dispose(): void {
    this.disk.stop();
    for (const id of [...this.#sessions.keys()]) this.#endSession(id);
    this.#link.close();
  }

  /** Writes every pending autosave now (the page is being hidden or closed). */
  flush(): void {
    this.#autosave.flush();
  }

  #recordOf(doc: OpenDocument): DocumentRecord {
    const record: DocumentRecord = {
      id: doc.id,
      design: doc.design,
      order: this.documents.indexOf(doc),
      updatedAt: new Date().toISOString(),
    };
    if (doc.fileRef !== undefined) record.fileRef = doc.fileRef;
    if (doc.fileName !== undefined) record.fileName = doc.fileName;
    if (doc.savedJson !== undefined) record.savedJson = doc.savedJson;
    if (doc.fileVersion !== undefined) record.fileVersion = { ...doc.fileVersion };
    return record;
  }

  async #guard(context: string, work: () => Promise<void>): Promise<void> {
    this.busy = true;
    try {
      await work();
    } catch (error) {
      if (error instanceof AppError && error.code === 'file.canceled') return;
      this.#report(error, context);
    } finally {
      this.busy = false;
    }
  }

  #report(error: unknown, context: string): void {
    const data: ErrorData =
      error instanceof AppError ? error.toData() : { code: 'ipc.internal', message: String((error as Error)?.message ?? error) };
    const problems = Array.isArray(data.details) ? (data.details as Problem[]) : undefined;
    this.notice = {
      kind: 'error',
      code: data.code,
      message: `${context}: ${data.message}`,
      ...(problems ? { problems } : {}),
    };
  }
}

function nameOf(design: unknown): string {
  const name = (design as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : 'Untitled design';
}

/** `My shop design` → `my-shop-design.keyplan.json`. */
export function suggestedFileName(designName: string): string {
  const base = designName
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${base || 'design'}.keyplan.json`;
}


const KEY = Symbol('workspace');
export const setWorkspace = (workspace: Workspace): Workspace => setContext(KEY, workspace);
export const getWorkspace = (): Workspace => getContext<Workspace>(KEY);
