/**
 * The File commands: new design, open (a file, an example, a recent file), save and save as (with
 * the conflict check against the version on disk), reload from disk, import and export. Files are
 * read and written by the host; what a command opens becomes a new document of the workspace, and
 * what goes wrong is said in the notice bar, with the open designs left as they were.
 */
import { hasErrorCode } from '../../src-shared/ipc/index.ts';
import type {
  ApiClient,
  ExampleInfo,
  FileEntry,
  FileVersion,
  HostInfo,
  HostWarning,
  OpenedFile,
  RecentFile,
  SavedFile,
} from '../../src-shared/ipc/index.ts';
import { createDesign } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import type { Autosave } from './autosave.svelte.ts';
import { designSourceKey, revisionSourceKey, type CompareState } from './compare.svelte.ts';
import type { DiskWatch } from './disk-watch.svelte.ts';
import type { Edit, OpenDocument } from './document.svelte.ts';
import type { ExportSaveResult } from './export.svelte.ts';
import type { ImportFlow } from './import.svelte.ts';
import type { Revisions } from './revisions.svelte.ts';
import type { SaveConflict, WorkspaceView } from './view.svelte.ts';

/** What the file commands need of the workspace: the open designs, and opening, editing and closing one. */
export interface FileCommandsHost {
  readonly host: HostInfo | undefined;
  readonly documents: readonly OpenDocument[];
  readonly active: OpenDocument | undefined;
  add(design: Design, file?: { fileRef: string; fileName: string; savedJson: string; fileVersion: FileVersion }): OpenDocument;
  activate(id: string): void;
  edit(edit: Edit, coalesceKey?: string, target?: OpenDocument): void;
  close(id: string): Promise<void>;
  /** Says a document another window edits cannot be saved from here. */
  readonly handover: { refuseReadOnly(doc: OpenDocument): void };
}

export interface FileCommandsParts {
  api: ApiClient;
  view: WorkspaceView;
  autosave: Autosave<OpenDocument>;
  imports: ImportFlow;
  revisions: Revisions;
  compare: CompareState;
  disk: DiskWatch;
}

export class FileCommands {
  recent = $state<RecentFile[]>([]);
  examples = $state<ExampleInfo[]>([]);
  /** The workspace folder's designs (browser mode's open dialog). */
  workspaceFiles = $state<FileEntry[]>([]);

  readonly #host: FileCommandsHost;
  readonly #api: ApiClient;
  readonly #view: WorkspaceView;
  readonly #parts: FileCommandsParts;

  constructor(host: FileCommandsHost, parts: FileCommandsParts) {
    this.#host = host;
    this.#api = parts.api;
    this.#view = parts.view;
    this.#parts = parts;
  }

  newDesign(): void {
    const n = this.#host.documents.filter((d) => d.design.name.startsWith('Untitled design')).length;
    this.#host.add(createDesign(n === 0 ? 'Untitled design' : `Untitled design ${n + 1}`));
    this.#view.show('patterns');
  }

  async openExample(id: string): Promise<void> {
    await this.#view.guard('Could not open the example', async () => {
      const { design } = await this.#api.call('examples.open', { id });
      this.#host.add(design);
      this.#view.show('entities');
    });
  }

  /** Shows the open dialog: the native one in Electron, the workspace file list in a browser. */
  async open(): Promise<void> {
    if (this.#host.host?.mode === 'electron') {
      await this.#view.guard('Could not open the file', async () => {
        const opened = await this.#api.call('file.openDialog', {});
        this.#adopt(opened.ref, opened.name, opened.design, opened.version);
        this.#tellOpened(opened);
      });
      return;
    }
    await this.#view.guard('Could not list the workspace folder', async () => {
      this.workspaceFiles = (await this.#api.call('file.list', {})).files;
    });
    this.#view.dialog = 'open';
  }

  /** Opens a file the host named (workspace list, recent list). The open designs stay as they are on failure. */
  async openRef(ref: string): Promise<void> {
    this.#view.closeDialog();
    let recentChanged = true;
    await this.#view.guard(`Could not open ${ref}`, async () => {
      const opened = await this.#api.call('file.open', { ref });
      this.#adopt(opened.ref, opened.name, opened.design, opened.version);
      this.#tellOpened(opened);
      recentChanged = updatesRecent(opened.warnings);
    });
    if (recentChanged) await this.refreshRecent();
  }

  /** What an open has to say: a migration, and what went wrong beside it (the file is open all the same). */
  #tellOpened(opened: OpenedFile): void {
    const migrated =
      opened.migratedFrom === undefined
        ? undefined
        : `${opened.name} was written by format version ${opened.migratedFrom}; it is upgraded and will be saved in the current format.`;
    if (opened.warnings?.length) this.#view.warn([...(migrated ? [migrated] : []), ...opened.warnings.map((w) => w.message)].join(' '));
    else if (migrated) this.#view.inform(migrated);
  }

  #adopt(ref: string, name: string, design: Design, version: FileVersion): void {
    const already = this.#host.documents.find((d) => d.fileRef === ref);
    if (already && (already.readOnly || !already.isDirty)) {
      // Open here already (or edited in another window, shown here read-only): one document per file.
      this.#host.activate(already.id);
      return;
    }
    this.#host.add(design, { fileRef: ref, fileName: name, savedJson: JSON.stringify(design), fileVersion: version });
  }

  /**
   * Saves the active design over its file. The save names the version this editor holds; when the
   * file changed on disk since, nothing is written and the conflict dialog asks what to do.
   * `overwrite` (the dialog's answer) names the version now on disk instead, or none when it is gone.
   */
  async save(overwrite?: SaveConflict): Promise<void> {
    const doc = overwrite?.doc ?? this.#host.active;
    if (!doc || doc.readOnly) return;
    if (!doc.fileRef) return this.saveAs();
    const expected = overwrite ? overwrite.version : doc.fileVersion;
    let recentChanged = true;
    await this.#view.guard(`Could not save ${doc.title}`, async () => {
      try {
        const saved = await this.#api.call('file.save', { ref: doc.fileRef!, design: doc.design, ...(expected ? { expected } : {}) });
        await this.#saved(doc, saved);
        recentChanged = updatesRecent(saved.warnings);
        if (this.#view.dialog === 'conflict') this.#view.closeDialog();
      } catch (error) {
        if (!hasErrorCode(error, 'file.changed')) throw error;
        const onDisk = (error.details as { version?: FileVersion | null } | undefined)?.version ?? null;
        this.#view.conflict = { doc, version: onDisk };
        this.#view.dialog = 'conflict';
      }
    });
    if (recentChanged) await this.refreshRecent();
  }

  async saveAs(): Promise<void> {
    const doc = this.#host.active;
    if (!doc) return;
    if (doc.readOnly) return this.#host.handover.refuseReadOnly(doc);
    if (this.#host.host?.mode === 'electron') {
      await this.saveAsNamed(suggestedFileName(doc.design.name));
      return;
    }
    this.#view.dialog = 'saveAs';
  }

  /** Saves the active design under `name`. Returns false (and keeps the dialog) when the name is taken. */
  async saveAsNamed(name: string, overwrite = false): Promise<boolean> {
    const doc = this.#host.active;
    if (!doc) return false;
    // Another window took it over while the dialog was open: that window's record must not change.
    if (doc.readOnly) {
      this.#host.handover.refuseReadOnly(doc);
      return false;
    }
    let saved = false;
    let recentChanged = true;
    await this.#view.guard(`Could not save ${name}`, async () => {
      const result = await this.#api.call('file.saveAs', { name, design: doc.design, overwrite });
      await this.#saved(doc, result);
      recentChanged = updatesRecent(result.warnings);
      this.#view.closeDialog();
      saved = true;
    });
    if (recentChanged) await this.refreshRecent();
    return saved;
  }

  /**
   * What follows a save: the document knows it, autosave stores it, and the save is kept as a
   * revision. What went wrong beside the save (the recent list not updated) is a warning: it is saved.
   */
  async #saved(doc: OpenDocument, saved: SavedFile): Promise<void> {
    doc.markSaved(saved.ref, saved.name, saved.version);
    this.#parts.disk.saved(doc);
    await this.#parts.autosave.now(doc);
    await this.#parts.revisions.record(doc.id, doc.design, `Saved ${saved.name}`);
    this.#view.conflict = undefined;
    if (saved.warnings?.length) this.#view.warn(saved.warnings.map((w) => w.message).join(' '));
    else this.#view.inform(`Saved ${saved.name}.`);
  }

  /** Saves the design the close dialog asks about to its file, then closes it. */
  async saveAndClose(): Promise<void> {
    const doc = this.#view.closing;
    if (!doc?.fileRef) return;
    this.#host.activate(doc.id);
    await this.save();
    if (!doc.isDirty) await this.#host.close(doc.id);
  }

  /** The conflict dialog's "Compare": the version on disk beside this one on the Compare screen. */
  async compareWithDisk(doc: OpenDocument): Promise<void> {
    if (!doc.fileRef) return;
    await this.#view.guard(`Could not read ${doc.title} from disk`, async () => {
      const opened = await this.#api.call('file.open', { ref: doc.fileRef! });
      const revision = await this.#parts.revisions.record(doc.id, opened.design, `On disk: ${opened.name}`);
      this.#parts.compare.select([revisionSourceKey(revision.id), designSourceKey(doc.id)]);
      if (this.#view.dialog === 'conflict') this.#view.closeDialog();
      this.#view.show('compare');
      this.#view.inform(
        `Comparing the version of ${opened.name} on disk (kept as a revision) with yours. Save again to choose: overwrite it, or save yours as a new file.`,
      );
    });
  }

  /** Replaces the design with the version on disk, as one undoable edit (the banner's "Reload"). */
  async reloadFromDisk(doc: OpenDocument): Promise<void> {
    if (!doc.fileRef || doc.readOnly) return;
    await this.#view.guard(`Could not reload ${doc.title}`, async () => {
      const opened = await this.#api.call('file.open', { ref: doc.fileRef! });
      this.#host.edit(() => opened.design, undefined, doc);
      doc.markSaved(opened.ref, opened.name, opened.version);
      this.#parts.disk.saved(doc);
      this.#view.inform(`Reloaded ${opened.name} from disk. Undo brings back the design it replaced.`);
    });
  }

  /** Shows the import dialog, reading `files` at once when they were dropped on the window. */
  openImport(files: readonly File[] = []): void {
    this.#parts.imports.reset();
    this.#view.dialog = 'import';
    if (files.length > 0) void this.#parts.imports.readFiles(files);
  }

  /** Opens an imported design as a new, unsaved document (the import dialog's accept). */
  importDesign(design: Design, source: string): void {
    this.#view.closeDialog();
    this.#host.add(design);
    this.#view.show('entities');
    this.#view.inform(`Imported "${design.name}" from ${source}. It is a new design, not saved to a file yet.`);
  }

  /** Shows the export dialog for the active design. */
  openExport(): void {
    if (this.#host.active) this.#view.dialog = 'export';
  }

  /**
   * Saves an exported file through the host: in browser mode under `name` in the workspace folder,
   * in Electron where the native save dialog says (`name` as its suggestion).
   */
  async saveExport(name: string, content: string, overwrite: boolean): Promise<ExportSaveResult> {
    try {
      const saved = await this.#api.call('file.export', { name, content, overwrite });
      const host = this.#host.host;
      return { kind: 'saved', name: saved.name, where: host?.mode === 'browser' ? host.workspaceDir : undefined };
    } catch (error) {
      if (hasErrorCode(error, 'file.canceled')) return { kind: 'canceled' };
      if (hasErrorCode(error, 'file.exists')) return { kind: 'exists', name };
      return { kind: 'failed', message: `Could not save ${name}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  async refreshRecent(): Promise<void> {
    try {
      this.recent = (await this.#api.call('recent.list', {})).files;
    } catch (error) {
      this.#view.report(error, 'Could not read the recent files');
    }
  }

  async loadExamples(): Promise<void> {
    this.examples = (await this.#api.call('examples.list', {})).examples;
  }
}

/** Whether the recent list changed with a call: not when the host says it could not update it (reading it again would fail the same way). */
function updatesRecent(warnings: readonly HostWarning[] | undefined): boolean {
  return !warnings?.some((w) => w.code === 'recent.notUpdated');
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
