/**
 * The host's design files: list, open, save (atomic, with a backup) and save-as, over a locator that
 * decides which refs are allowed. A design is validated before anything on disk changes; a file the
 * user made read-only is never replaced.
 */
import { access, constants, lstat, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import { hasErrorCode } from '../../src-shared/ipc/index.ts';
import type { FileEntry, FileRef, FileVersion, OpenedFile, SavedFile } from '../../src-shared/ipc/index.ts';
import { MAX_DESIGN_BYTES } from '../../src-shared/model/index.ts';
import { createFileExclusive, realWritePath, writeFileAtomic } from './atomic-write.ts';
import { checkDesign, readDesignFile, readFileVersion, serializeDesign, tooLargeError, versionOf } from './design-file.ts';
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
   * (details `{ version }`: what is on disk, null when nothing) unless the file is that version; saves
   * of one file (by its real path) run one after another, so of two from one version one is refused.
   * Errors: `file.invalidDesign`, `file.tooLarge` (its file would be over `MAX_DESIGN_BYTES`),
   * `file.readOnly`, `file.changed` (each with nothing written), `file.io`.
   */
  save(ref: FileRef, design: unknown, expected?: FileVersion): Promise<SavedFile>;
  /** The version of `ref` on disk, or null when it does not exist. */
  version(ref: FileRef): Promise<FileVersion | null>;
  /**
   * Like `save` to a new name. Without `overwrite` the file is created only if nothing has the name
   * (`createFileExclusive`): `file.exists` otherwise, also when another save created it meanwhile.
   */
  saveAs(name: string, design: unknown, options: { overwrite: boolean }): Promise<SavedFile>;
  /**
   * Writes an exported text (a template, a model) atomically to `ref`, kept as named (no suffix;
   * design and backup names refused with `file.badName`). `file.exists` when it exists and
   * `overwrite` is false (created as `saveAs` creates); `file.readOnly` over a read-only file.
   * No backup: an export is regenerated from its design at will.
   */
  writeExport(ref: FileRef, content: string, options: { overwrite: boolean }): Promise<SavedFile>;
  /** Whether `ref` names an existing file; never throws. */
  exists(ref: FileRef): Promise<boolean>;
}

export function createFileService(locator: FileLocator, now: () => Date = () => new Date()): FileService {
  /**
   * Writes to one file run one after another, keyed by its real path (a link and its target, a path
   * through a linked folder, are one file), so a version check and its write are never interleaved
   * with another write's.
   */
  const writing = new Map<string, Promise<unknown>>();

  async function oneAtATime<T>(target: ResolvedFile, work: () => Promise<T>): Promise<T> {
    // Unresolvable (a missing folder, a loop of links): the write itself fails and says why.
    const key = await realWritePath(target.path).catch(() => target.path);
    const previous = writing.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    writing.set(key, settled);
    void settled.then(() => {
      if (writing.get(key) === settled) writing.delete(key);
    });
    return next;
  }

  /** Writes `design` over `target` (`replace`, after the checks) or creates it (`create`: `file.exists` when taken). */
  async function write(target: ResolvedFile, design: unknown, mode: { replace: true; expected?: FileVersion } | { replace: false }): Promise<SavedFile> {
    const valid = checkDesign(design, target.label, 'was not saved');
    const text = serializeDesign(valid);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > MAX_DESIGN_BYTES) throw tooLargeError(target.label, bytes, 'was not saved');
    return oneAtATime(target, async () => {
      let backupPath: string | undefined;
      if (mode.replace) {
        await refuseReadOnly(target);
        if (mode.expected !== undefined) await refuseChanged(target, mode.expected);
        ({ backupPath } = await writeOrFail(target, () => writeFileAtomic(target.path, text, { keepBackup: true })));
      } else {
        await writeOrFail(target, () => createFileExclusive(target.path, text));
      }
      const written = versionOf(Buffer.from(text, 'utf8'), await writeOrFail(target, async () => (await stat(target.path)).mtimeMs));
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
    if (await lstat(target.path).then(() => true, () => false)) throw existsError(target);
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
      return write(await locator.resolveForWrite(ref), design, expected === undefined ? { replace: true } : { replace: true, expected });
    },

    async version(ref) {
      // Resolved as a save would: the version a save checks is the version reported here.
      const target = await locator.resolveForWrite(ref).catch((error: unknown) => {
        if (hasErrorCode(error, 'file.notFound')) return undefined;
        throw error;
      });
      return target === undefined ? null : readFileVersion(target.path, target.label);
    },

    async saveAs(name, design, { overwrite }) {
      const target = await locator.resolveForWrite(name);
      // Checked first to spare the write; the create itself is what makes a simultaneous one lose.
      if (!overwrite) await refuseExisting(target);
      return write(target, design, { replace: overwrite });
    },

    async writeExport(ref, content, { overwrite }) {
      const target = await locator.resolveExportForWrite(ref);
      if (!overwrite) await refuseExisting(target);
      await oneAtATime(target, async () => {
        if (!overwrite) return writeOrFail(target, () => createFileExclusive(target.path, content));
        await refuseReadOnly(target);
        await writeOrFail(target, () => writeFileAtomic(target.path, content, { keepBackup: false }));
      });
      return { ref: target.ref, name: basename(target.path), savedAt: now().toISOString() };
    },

    exists: (ref) => locator.exists(ref),
  };
}

/** Runs a write of `target`: a name taken meanwhile is `file.exists`, other fs failures `file.io`/`file.notFound` naming the file. */
async function writeOrFail<T>(target: ResolvedFile, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw existsError(target);
    throw toFileError(error, target.label, 'write');
  }
}

function existsError(target: ResolvedFile): AppError {
  return new AppError({
    code: 'file.exists',
    message: `"${target.label}" already exists. Choose another name or confirm replacing it.`,
    path: 'name',
  });
}

/** The system's answers to "may this user write the file?" that mean no. */
const WRITE_DENIED = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Refuses to replace a file the user made read-only (`file.readOnly`). The permission bits decide as
 * `ls -l` shows them: with no write bit set (0444, `chmod a-w`) the file is read-only for everyone,
 * though the save's rename needs only the folder's permission and root may write any file; otherwise
 * `access` says whether this user may write it (the owner's bit for the owner, a read-only mount).
 * Nothing there yet, or not a file: nothing to refuse (the write says what is wrong).
 */
async function refuseReadOnly(target: ResolvedFile): Promise<void> {
  const info = await stat(target.path).catch(() => undefined);
  if (!info?.isFile()) return;
  const bits = info.mode & 0o777;
  const isReadOnly =
    (bits & 0o222) === 0 ||
    (await access(target.path, constants.W_OK).then(
      () => false,
      (error: unknown) => WRITE_DENIED.has((error as NodeJS.ErrnoException).code ?? ''),
    ));
  if (!isReadOnly) return;
  throw new AppError({
    code: 'file.readOnly',
    message: `"${target.label}" was not saved: the file is read-only (permissions ${permissionText(bits)}). Make it writable, or save under another name; nothing was changed.`,
    details: { mode: `0${bits.toString(8).padStart(3, '0')}` },
  });
}

/** `0o644` → `rw-r--r--`. */
function permissionText(bits: number): string {
  return [6, 3, 0].map((shift) => ['r', 'w', 'x'].map((letter, i) => ((bits >> shift) & (4 >> i) ? letter : '-')).join('')).join('');
}
