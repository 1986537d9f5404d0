/**
 * The export dialog's state: which format is shown, its text for the active design, and copying or
 * saving it. The formats are the registry `keyplan export` reads too (`src-shared/formats/registry.ts`);
 * saving goes through the host (`file.export`).
 */
import {
  EXPORT_FORMATS,
  exportBaseName,
  exportFileName,
  type ExportFormat,
  type ExportFormatId,
} from '../../src-shared/formats/index.ts';
import type { Design } from '../../src-shared/model/index.ts';

/** One file of an export, as the dialog shows and saves it. */
export interface ExportFile {
  /** A default file name (the user may change it when saving in browser mode). */
  name: string;
  content: string;
  /** What the file holds, when a format makes several (the CLI input: one per table). */
  label?: string;
}

/** A format's files for a design, or why they could not be made. */
export type Rendered = { ok: true; files: ExportFile[] } | { ok: false; error: string };

export function renderExport(format: ExportFormat, design: Design): Rendered {
  try {
    const base = exportBaseName(design.name);
    const files = format.produce(design).map((file): ExportFile => ({
      name: exportFileName(format, base, file),
      content: file.content,
      ...(format.isMultiFile && file.label !== undefined ? { label: file.label } : {}),
    }));
    return { ok: true, files };
  } catch (error) {
    // The exporters assume a design that passes the rules; a half-made one may trip them.
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** How saving an export ended. */
export type ExportSaveResult =
  | { kind: 'saved'; name: string; where?: string | undefined }
  | { kind: 'exists'; name: string }
  | { kind: 'canceled' }
  | { kind: 'failed'; message: string };

export interface ExportHost {
  /** The design to export (the active one). */
  readonly design: Design | undefined;
  /** Writes an export through the host (`file.export`). */
  saveExport(name: string, content: string, overwrite: boolean): Promise<ExportSaveResult>;
}

/** The format the next export dialog opens on, when a screen asked for one (the design sheet's buttons). */
let requestedFormat: ExportFormatId | undefined;

/** Asks the next export dialog to open on `formatId` (once; later ones open on the default). */
export function requestExportFormat(formatId: ExportFormatId): void {
  requestedFormat = formatId;
}

export class ExportDialogState {
  readonly #host: ExportHost;
  formatId = $state<ExportFormatId>('cloudformation');
  /** The formats offered, one tab each: the registry's, in its order. */
  readonly formats: readonly ExportFormat[] = EXPORT_FORMATS;
  fileIndex = $state(0);
  /** What happened to the last copy or save, shown beside the buttons. */
  message = $state<{ kind: 'info' | 'error'; text: string } | undefined>();
  /** Browser mode: the name the file is saved under in the workspace folder. */
  saveName = $state('');
  /** The save name is taken; saving again replaces it. */
  confirmReplace = $state(false);
  isSaving = $state(false);

  readonly format: ExportFormat = $derived(this.formats.find((f) => f.id === this.formatId) ?? this.formats[0]!);
  readonly rendered: Rendered | undefined = $derived.by(() => {
    const design = this.#host.design;
    return design ? renderExport(this.format, design) : undefined;
  });
  readonly files: ExportFile[] = $derived(this.rendered?.ok ? this.rendered.files : []);
  readonly file: ExportFile | undefined = $derived(this.files[Math.min(this.fileIndex, this.files.length - 1)]);

  constructor(host: ExportHost) {
    this.#host = host;
    if (requestedFormat !== undefined && this.formats.some((f) => f.id === requestedFormat)) this.formatId = requestedFormat;
    requestedFormat = undefined;
    this.saveName = this.file?.name ?? '';
  }

  choose(formatId: ExportFormatId): void {
    this.formatId = formatId;
    this.fileIndex = 0;
    this.#resetSave();
  }

  chooseFile(index: number): void {
    this.fileIndex = index;
    this.#resetSave();
  }

  editSaveName(name: string): void {
    this.saveName = name;
    this.confirmReplace = false;
  }

  async copy(): Promise<void> {
    const file = this.file;
    if (!file) return;
    try {
      await navigator.clipboard.writeText(file.content);
      this.message = { kind: 'info', text: `Copied ${file.name} to the clipboard.` };
    } catch (error) {
      this.message = { kind: 'error', text: `Could not copy: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** Saves the shown file (under `saveName` in browser mode; the native dialog picks where in Electron). */
  async save(): Promise<void> {
    const file = this.file;
    if (!file || this.isSaving) return;
    this.isSaving = true;
    this.message = undefined;
    const result = await this.#host.saveExport(this.saveName.trim() || file.name, file.content, this.confirmReplace);
    this.isSaving = false;
    switch (result.kind) {
      case 'saved':
        this.confirmReplace = false;
        this.message = { kind: 'info', text: `Saved ${result.name}${result.where ? ` in ${result.where}` : ''}.` };
        return;
      case 'exists':
        this.confirmReplace = true;
        this.message = { kind: 'error', text: `${result.name} already exists. Save again to replace it.` };
        return;
      case 'failed':
        this.message = { kind: 'error', text: result.message };
        return;
      case 'canceled':
        return;
    }
  }

  #resetSave(): void {
    this.saveName = this.file?.name ?? '';
    this.confirmReplace = false;
    this.message = undefined;
  }
}
