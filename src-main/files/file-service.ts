/**
 * The host's design files: list, open, save (atomic, with a backup) and save-as, over a locator that
 * decides which refs are allowed. A design is validated before anything on disk changes.
 */
import { lstat, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import type { FileEntry, FileRef, OpenedFile, SavedFile } from '../../src-shared/ipc/contract.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { checkDesign, readDesignFile, serializeDesign } from './design-file.ts';
import { toFileError } from './fs-errors.ts';
import { BACKUP_SUFFIX, type FileLocator, type ResolvedFile } from './locator.ts';

export interface FileService {
  /** Browser mode: the folder files are confined to. */
  readonly workspaceDir?: string;
  /** The design files of the workspace (browser mode); none in Electron. */
  list(): Promise<FileEntry[]>;
  /** Reads and parses a design. Errors: see `readDesignFile`, plus the locator's. */
  open(ref: FileRef): Promise<OpenedFile>;
  /** Checks the design's shape, then writes it over `ref`. Errors: `file.invalidDesign` (nothing written), `file.io`. */
  save(ref: FileRef, design: unknown): Promise<SavedFile>;
  /** Like `save` to a new name; `file.exists` when it exists and `overwrite` is false. */
  saveAs(name: string, design: unknown, options: { overwrite: boolean }): Promise<SavedFile>;
  /**
   * Writes an exported text (a template, a model) atomically to `ref`, kept as named (no suffix;
   * design and backup names refused with `file.badName`). `file.exists` when it exists and
   * `overwrite` is false. No backup: an export is regenerated from its design at will.
   */
  writeExport(ref: FileRef, content: string, options: { overwrite: boolean }): Promise<SavedFile>;
  /** Whether `ref` names an existing file; never throws. */
  exists(ref: FileRef): Promise<boolean>;
}

export function createFileService(locator: FileLocator, now: () => Date = () => new Date()): FileService {
  async function write(target: ResolvedFile, design: unknown): Promise<SavedFile> {
    const valid = checkDesign(design, target.label, 'was not saved');
    let backupPath: string | undefined;
    try {
      ({ backupPath } = await writeFileAtomic(target.path, serializeDesign(valid), { keepBackup: true }));
    } catch (error) {
      throw toFileError(error, target.label, 'write');
    }
    const saved: SavedFile = { ref: target.ref, name: basename(target.path), savedAt: now().toISOString() };
    if (backupPath !== undefined) saved.backupRef = `${target.ref}${BACKUP_SUFFIX}`;
    return saved;
  }

  async function refuseExisting(target: ResolvedFile): Promise<void> {
    if (await lstat(target.path).then(() => true, () => false)) {
      throw new AppError({
        code: 'file.exists',
        message: `"${target.label}" already exists. Choose another name or confirm replacing it.`,
        path: 'name',
      });
    }
  }

  return {
    ...(locator.workspaceDir !== undefined ? { workspaceDir: locator.workspaceDir } : {}),

    async list() {
      const files = await locator.listFiles();
      const entries = await Promise.all(
        files.map(async ({ ref, path }): Promise<FileEntry | undefined> => {
          const info = await stat(path).catch(() => undefined);
          if (!info) return undefined;
          return { ref, name: basename(ref), sizeBytes: info.size, modifiedAt: info.mtime.toISOString() };
        }),
      );
      return entries.filter((e): e is FileEntry => e !== undefined);
    },

    async open(ref) {
      const target = await locator.resolveForRead(ref);
      const { design, migratedFrom } = await readDesignFile(target.path, target.label);
      const opened: OpenedFile = { ref: target.ref, name: basename(target.ref), design };
      if (migratedFrom !== undefined) opened.migratedFrom = migratedFrom;
      return opened;
    },

    async save(ref, design) {
      return write(await locator.resolveForWrite(ref), design);
    },

    async saveAs(name, design, { overwrite }) {
      const target = await locator.resolveForWrite(name);
      if (!overwrite) await refuseExisting(target);
      return write(target, design);
    },

    async writeExport(ref, content, { overwrite }) {
      const target = await locator.resolveExportForWrite(ref);
      if (!overwrite) await refuseExisting(target);
      try {
        await writeFileAtomic(target.path, content, { keepBackup: false });
      } catch (error) {
        throw toFileError(error, target.label, 'write');
      }
      return { ref: target.ref, name: basename(target.path), savedAt: now().toISOString() };
    },

    exists: (ref) => locator.exists(ref),
  };
}
