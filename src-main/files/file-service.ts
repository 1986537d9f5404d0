/**
 * The host's design files: list, open, save (atomic, with a backup) and save-as, over a locator that
 * decides which refs are allowed. A design is validated before anything on disk changes.
 */
import { lstat, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import type { FileEntry, FileRef, FileVersion, OpenedFile, SavedFile } from '../../src-shared/ipc/contract.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { checkDesign, readDesignFile, readFileVersion, serializeDesign, versionOf } from './design-file.ts';
import { toFileError } from './fs-errors.ts';
import { BACKUP_SUFFIX, type FileLocator, type ResolvedFile } from './locator.ts';

export interface FileService {
  /** Browser mode: the folder files are confined to. */
  readonly workspaceDir?: string;
  /** The design files of the workspace (browser mode); none in Electron. */
  list(): Promise<FileEntry[]>;
  /** Reads and parses a design. Errors: see `readDesignFile`, plus the locator's. */
  open(ref: FileRef): Promise<OpenedFile>;
  /**
   * Checks the design's shape, then writes it over `ref`. With `expected`, refuses with `file.changed`
   * (details `{ version }`: what is on disk, null when nothing) unless the file is that version.
   * Errors: `file.invalidDesign` (nothing written), `file.changed` (nothing written), `file.io`.
   */
  save(ref: FileRef, design: unknown, expected?: FileVersion): Promise<SavedFile>;
  /** The version of `ref` on disk, or null when it does not exist. */
  version(ref: FileRef): Promise<FileVersion | null>;
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
  /** Saves to one path run one after another, so a version check and its write are never interleaved with another save's. */
  const writing = new Map<string, Promise<unknown>>();

  function oneAtATime<T>(path: string, work: () => Promise<T>): Promise<T> {
    const previous = writing.get(path) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    writing.set(path, settled);
    void settled.then(() => {
      if (writing.get(path) === settled) writing.delete(path);
    });
    return next;
  }

  async function write(target: ResolvedFile, design: unknown, expected?: FileVersion): Promise<SavedFile> {
    const valid = checkDesign(design, target.label, 'was not saved');
    const text = serializeDesign(valid);
    return oneAtATime(target.path, async () => {
      if (expected !== undefined) await refuseChanged(target, expected);
      let backupPath: string | undefined;
      let written: FileVersion;
      try {
        ({ backupPath } = await writeFileAtomic(target.path, text, { keepBackup: true }));
        written = versionOf(Buffer.from(text, 'utf8'), (await stat(target.path)).mtimeMs);
      } catch (error) {
        throw toFileError(error, target.label, 'write');
      }
      const saved: SavedFile = { ref: target.ref, name: basename(target.path), savedAt: now().toISOString(), version: written };
      if (backupPath !== undefined) saved.backupRef = `${target.ref}${BACKUP_SUFFIX}`;
      return saved;
    });
  }

  /** The content decides: a file touched but unchanged (same hash) is still the version the editor holds. */
  async function refuseChanged(target: ResolvedFile, expected: FileVersion): Promise<void> {
    const onDisk = await readFileVersion(target.path, target.label);
    if (onDisk !== null && onDisk.sha256 === expected.sha256) return;
    throw new AppError({
      code: 'file.changed',
      message:
        onDisk === null
          ? `"${target.label}" was not saved: it was moved or deleted since you opened it. Save it as a new file, or save here to recreate it.`
          : `"${target.label}" was not saved: it changed on disk since you opened it (another window or program saved it). Compare the two, overwrite it, or save yours as a new file.`,
      details: { version: onDisk },
    });
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
      const { design, migratedFrom, version } = await readDesignFile(target.path, target.label);
      const opened: OpenedFile = { ref: target.ref, name: basename(target.ref), design, version };
      if (migratedFrom !== undefined) opened.migratedFrom = migratedFrom;
      return opened;
    },

    async save(ref, design, expected) {
      return write(await locator.resolveForWrite(ref), design, expected);
    },

    async version(ref) {
      // Resolved as a save would: the version a save checks is the version reported here.
      const target = await locator.resolveForWrite(ref).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'file.notFound') return undefined;
        throw error;
      });
      return target === undefined ? null : readFileVersion(target.path, target.label);
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
