/**
 * Atomic replacement of a file: the new bytes go to a temporary file in the same folder, are flushed
 * to disk, and are renamed over the target, so a crash leaves either the old file or the new one,
 * never half of one. The previous version is kept beside it as `<file>.bak`, flushed as well.
 *
 * A save keeps what the user set on the file: its permission bits (a 0600 file stays 0600; a new
 * file gets 0644 less the umask), and a symbolic link stays a link — the new content replaces the
 * link's target, with the temporary file beside the target so the rename stays on one file system.
 * Whether a link may be followed is the locator's decision (browser mode refuses links that lead
 * out of the workspace); this module follows any it is given. Ownership is not carried over.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, link, lstat, open, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

export interface AtomicWriteOptions {
  /** Keep the current content of `path` (if any) as `<path>.bak` before replacing it. */
  keepBackup: boolean;
  /**
   * For tests: called when the new content (and the backup) are on disk, before the rename that
   * replaces the file. A process that dies here leaves the old file whole and a temporary file
   * that `removeLeftoverTempFiles` removes at the next start.
   */
  beforeRename?: (tempPath: string) => Promise<void> | void;
}

/**
 * The names of the temporary files a save writes: `.<name>.keyplan-tmp-<12 hex digits>` beside the
 * file (the backup's is `.<name>.bak.keyplan-tmp-<12 hex digits>`). Hidden, which no name Keyplan
 * accepts for a design or an export can be, and marked as Keyplan's: cleanup never takes a user's file.
 */
export const TEMP_FILE_NAME = /^\..+\.keyplan-tmp-[0-9a-f]{12}$/;

/** Permission bits a new file gets before the umask, as `open` and `writeFile` give them. */
const NEW_FILE_MODE = 0o644;
/** As the kernel's own limit on links followed in one lookup. */
const MAX_LINKS_FOLLOWED = 40;

/**
 * Writes `data` over `path` (through a symbolic link to its target); returns the backup's path
 * when a previous version was kept (`<path>.bak`, beside `path` as named).
 */
export async function writeFileAtomic(path: string, data: string, options: AtomicWriteOptions): Promise<{ backupPath?: string }> {
  const target = await followLinks(path);
  const mode = await stat(target).then(
    (info) => info.mode & 0o777,
    (error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    },
  );
  const temp = tempPathFor(target);
  const handle = await open(temp, 'wx', NEW_FILE_MODE);
  try {
    try {
      // Set explicitly: the mode given to `open` is reduced by the umask.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    const backupPath = options.keepBackup ? await backUp(target, `${path}.bak`) : undefined;
    await options.beforeRename?.(temp);
    await rename(temp, target);
    await syncFolder(dirname(target));
    if (backupPath !== undefined && dirname(backupPath) !== dirname(target)) await syncFolder(dirname(backupPath));
    return backupPath ? { backupPath } : {};
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Creates `path` holding `data`, only if nothing has that name yet, atomically: the bytes go to a
 * temporary file beside it, flushed, which is then hard-linked as `path`. `link` fails with `EEXIST`
 * when anything has the name (a file, a folder, a link even to nothing), so of two creates at once,
 * in this process or another, exactly one wins and the other's bytes never show; a crash leaves no
 * file or the whole one. The temporary name is removed either way (`EEXIST` is thrown as is).
 *
 * A file system without hard links (FAT, exFAT) gets the file created with `O_EXCL` and written in
 * place: still never over another's file, but a crash during the write can leave it short.
 */
export async function createFileExclusive(path: string, data: string): Promise<void> {
  const temp = tempPathFor(path);
  try {
    await writeNewFile(temp, data);
    try {
      await link(temp, path);
    } catch (error) {
      if (!HARD_LINKS_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      await writeNewFile(path, data);
    }
  } finally {
    await rm(temp, { force: true });
  }
  await syncFolder(dirname(path));
}

/** What `link` fails with where the file system has no hard links. */
const HARD_LINKS_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Creates `path` (`O_EXCL`: `EEXIST` when taken) with 0644 less the umask, writes `data` and flushes
 * it; a failed write removes the file it created.
 */
async function writeNewFile(path: string, data: string): Promise<void> {
  const handle = await open(path, 'wx', NEW_FILE_MODE);
  try {
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}

/**
 * The real path of the file a write to `path` replaces: its links followed as `writeFileAtomic`
 * follows them, and its folder's path resolved (`a/link-to-b/x` → `/…/b/x`), whether or not the
 * file exists yet. Two names with the same real path are one file.
 */
export async function realWritePath(path: string): Promise<string> {
  const target = await followLinks(path);
  return join(await realpath(dirname(target)), basename(target));
}

/** `.<name>.keyplan-tmp-<12 hex digits>`, in the same folder as `path`. */
function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.keyplan-tmp-${randomBytes(6).toString('hex')}`);
}

/**
 * The file a write to `path` replaces: `path` itself, or where its chain of links ends (which may
 * not exist yet). Each link is read relative to its folder's real path, as the kernel reads it.
 */
async function followLinks(path: string): Promise<string> {
  let current = path;
  for (let followed = 0; followed <= MAX_LINKS_FOLLOWED; followed += 1) {
    const info = await lstat(current).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    if (!info?.isSymbolicLink()) return current;
    current = resolve(await realpath(dirname(current)), await readlink(current));
  }
  throw Object.assign(new Error(`Too many symbolic links from "${path}" (more than ${MAX_LINKS_FOLLOWED}).`), { code: 'ELOOP' });
}

/**
 * Copies the current version of `source` to `backupPath` (via a temp file, flushed, then renamed);
 * nothing to copy → undefined. The copy keeps the source's permission bits.
 */
async function backUp(source: string, backupPath: string): Promise<string | undefined> {
  const temp = tempPathFor(backupPath);
  try {
    await copyFile(source, temp);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    // `r+`: Windows flushes only a handle opened for writing.
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, backupPath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return backupPath;
}

/** Flushes the folder entry of a rename; not supported on every platform, where it is skipped. */
async function syncFolder(folder: string): Promise<void> {
  let handle;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a folder for fsync; the rename itself is still atomic there.
  } finally {
    await handle?.close();
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
