/**
 * Atomic replacement of a file: the new bytes go to a temporary file in the same folder, are flushed
 * to disk, and are renamed over the target, so a crash leaves either the old file or the new one,
 * never half of one. The previous version is kept beside it as `<file>.bak`.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface AtomicWriteOptions {
  /** Keep the current content of `path` (if any) as `<path>.bak` before replacing it. */
  keepBackup: boolean;
}

/** Writes `data` over `path`; returns the backup's path when a previous version was kept. */
export async function writeFileAtomic(
  path: string,
  data: string,
  options: AtomicWriteOptions,
): Promise<{ backupPath?: string }> {
  const temp = `${path}.tmp-${randomBytes(6).toString('hex')}`;
  const handle = await open(temp, 'wx', 0o644);
  try {
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    const backupPath = options.keepBackup ? await backUp(path) : undefined;
    await rename(temp, path);
    await syncFolder(dirname(path));
    return backupPath ? { backupPath } : {};
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Copies the current version to `<path>.bak` (itself via a temp file and rename); none → undefined. */
async function backUp(path: string): Promise<string | undefined> {
  const backupPath = `${path}.bak`;
  const temp = `${backupPath}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    await copyFile(path, temp);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
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
