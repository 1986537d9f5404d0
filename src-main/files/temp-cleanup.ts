/**
 * Removes the temporary files that saves interrupted by a crash or a power cut left behind
 * (`writeFileAtomic` writes `.<name>.keyplan-tmp-<12 hex digits>` and `.<name>.bak.keyplan-tmp-<12 hex digits>`, then
 * renames them; a process that dies in between leaves them). Only in the folders Keyplan writes,
 * only files with exactly that name, only regular files (a link is left alone, and so is what it
 * points to), and only files untouched for `minAgeMs`: another Keyplan instance may be mid-save.
 * Never throws; what it could not do is reported.
 */
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { TEMP_FILE_NAME } from './atomic-write.ts';

/** A temp file younger than this may belong to a save still running in another instance. */
export const LEFTOVER_MIN_AGE_MS = 60_000;
/** Entries looked at in all, so a huge folder (a workspace set to a home folder) costs little. */
const MAX_ENTRIES = 20_000;

export interface CleanupFolder {
  path: string;
  /** How many levels of subfolders to look in too (0: the folder only). Hidden folders and `node_modules` are skipped. */
  depth: number;
}

export interface CleanupOptions {
  folders: CleanupFolder[];
  /** Milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
  minAgeMs?: number;
}

export interface CleanupReport {
  /** Absolute paths of the temp files removed. */
  removed: string[];
  /** Folders or files that could not be read or removed (a missing folder is not a problem). */
  problems: { path: string; error: unknown }[];
}

/** Removes leftover temp files of interrupted saves from `folders`; see the module comment. */
export async function removeLeftoverTempFiles(options: CleanupOptions): Promise<CleanupReport> {
  const report: CleanupReport = { removed: [], problems: [] };
  const olderThan = (options.now ?? Date.now)() - (options.minAgeMs ?? LEFTOVER_MIN_AGE_MS);
  const visited = new Set<string>();
  let budget = MAX_ENTRIES;

  async function clean(folder: string, depth: number): Promise<void> {
    if (visited.has(folder)) return;
    visited.add(folder);
    const entries = await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') report.problems.push({ path: folder, error });
      return [];
    });
    for (const entry of entries) {
      if (budget-- <= 0) return;
      const path = join(folder, entry.name);
      // A link to a folder is not followed (Dirent says neither folder nor file for a link).
      if (entry.isDirectory()) {
        if (depth > 0 && !entry.name.startsWith('.') && entry.name !== 'node_modules') await clean(path, depth - 1);
      } else if (entry.isFile() && TEMP_FILE_NAME.test(entry.name)) {
        await removeIfOld(path);
      }
    }
  }

  async function removeIfOld(path: string): Promise<void> {
    try {
      const info = await lstat(path);
      if (!info.isFile() || info.mtimeMs > olderThan) return;
      await unlink(path);
      report.removed.push(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') report.problems.push({ path, error });
    }
  }

  // Deepest first per path, so a folder listed twice is walked with the larger depth.
  const folders = [...options.folders].sort((a, b) => b.depth - a.depth);
  for (const { path, depth } of folders) {
    try {
      await clean(resolve(path), Math.max(0, depth));
    } catch (error) {
      report.problems.push({ path, error });
    }
  }
  return report;
}
