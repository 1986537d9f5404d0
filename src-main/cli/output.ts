/**
 * Writing what `keyplan export` and `keyplan import` produce: every file goes to a temporary file in
 * its folder first, and only when all of them were written are they renamed into place, so a failed
 * run leaves no output file behind (nor half of one).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fail, ok, type Result } from '../../src-shared/errors.ts';

const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
};

const reasonOf = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code && FS_REASONS[code]) ?? (error instanceof Error ? error.message.split('\n')[0]! : String(error));
};

export interface OutputFile {
  /** Absolute path. */
  path: string;
  content: string;
}

/** Writes every file, or none: temporary files first, renamed into place once all are written. Errors are one line: `cannot write "<file>": <reason>`. */
export async function writeAll(files: readonly OutputFile[], shown: (path: string) => string): Promise<Result<void, string>> {
  const temps: Array<{ temp: string; path: string }> = [];
  try {
    for (const file of files) {
      const temp = `${file.path}.tmp-${randomBytes(6).toString('hex')}`;
      const handle = await open(temp, 'wx', 0o644).catch((error: unknown) => {
        throw Object.assign(new Error(reasonOf(error)), { target: file.path });
      });
      temps.push({ temp, path: file.path });
      try {
        await handle.writeFile(file.content, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    for (const { temp, path } of temps) await rename(temp, path);
    return ok(undefined);
  } catch (error) {
    await Promise.all(temps.map(({ temp }) => rm(temp, { force: true })));
    const target = (error as { target?: string }).target ?? temps.at(-1)?.path ?? files[0]?.path ?? '';
    return fail([`cannot write "${shown(target)}": ${reasonOf(error)}`]);
  }
}

/** A path as messages show it: relative to the working folder when inside it, else absolute. */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** Whether `out` names a folder: it ends with a path separator, or is an existing folder. */
export async function isFolder(out: string, cwd: string): Promise<boolean> {
  if (out.endsWith('/') || out.endsWith(sep)) return true;
  try {
    return (await stat(resolve(cwd, out))).isDirectory();
  } catch {
    return false;
  }
}

/** Creates a folder (and its parents); an error is one line. */
export async function makeFolder(path: string, shown: string): Promise<Result<void, string>> {
  try {
    await mkdir(path, { recursive: true });
    return ok(undefined);
  } catch (error) {
    return fail([`cannot create the folder "${shown}": ${reasonOf(error)}`]);
  }
}

/**
 * Where the files of a multi-file export go. In a folder: each under its own name. Else `out` is a
 * stem: one file is written to `out` itself; several to `out` without its `.json`, plus `-<suffix>.json`
 * (`items.json` → `items-001.json`, `items-002.json` …).
 */
export function pathsFor(out: string, cwd: string, isOutFolder: boolean, names: readonly string[], suffixes: readonly string[]): string[] {
  if (isOutFolder) return names.map((n) => join(resolve(cwd, out), n));
  if (names.length === 1) return [resolve(cwd, out)];
  const full = resolve(cwd, out);
  const stem = extname(full).toLowerCase() === '.json' ? full.slice(0, -5) : full;
  return suffixes.map((s) => join(dirname(stem), `${basename(stem)}-${s}.json`));
}
