/**
 * The recent files list: a small JSON file in the user's data folder (data-folder.ts), most recent
 * first, at most `max` entries, one per ref. Files that no longer exist are dropped when the list is
 * read. The file is read and written without following links (private-file.ts): a link standing in
 * its place is read as an empty list and replaced by the next write, its target untouched.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FileRef, RecentFile } from '../../src-shared/ipc/index.ts';
import { PRIVATE_DIR_MODE } from './data-folder.ts';
import { readPrivateFile, writePrivateFile } from './private-file.ts';

export const MAX_RECENT_FILES = 10;

export interface RecentStore {
  /** Most recent first; entries whose file is gone are dropped (and forgotten). */
  list(): Promise<RecentFile[]>;
  /** Puts `ref` first (moving it if it was listed already). */
  add(file: { ref: FileRef; name: string }): Promise<void>;
  /** Whether `ref` is in the list, present or not. */
  has(ref: FileRef): Promise<boolean>;
}

export interface RecentStoreOptions {
  /** The JSON file, e.g. `<data folder>/workspaces/<id>/recent.json`; created with its folder on first write. */
  filePath: string;
  exists: (ref: FileRef) => Promise<boolean>;
  max?: number;
  now?: () => Date;
  /** Told once about an unreadable list file, which is then treated as empty. */
  onCorrupt?: (error: unknown) => void;
}

export function createRecentStore(options: RecentStoreOptions): RecentStore {
  const max = options.max ?? MAX_RECENT_FILES;
  const now = options.now ?? (() => new Date());
  // Every operation reads, then maybe writes: run them one at a time so none loses another's update.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(operation: () => Promise<T>): Promise<T> => {
    const next = queue.then(operation, operation);
    queue = next.catch(() => undefined);
    return next;
  };

  async function load(): Promise<RecentFile[]> {
    let text: string | undefined;
    try {
      text = await readPrivateFile(options.filePath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
      options.onCorrupt?.(error);
      return [];
    }
    if (text === undefined) return [];
    try {
      const parsed = JSON.parse(text) as { files?: unknown };
      return Array.isArray(parsed.files) ? parsed.files.filter(isRecentFile) : [];
    } catch (error) {
      options.onCorrupt?.(error);
      return [];
    }
  }

  async function store(files: RecentFile[]): Promise<void> {
    await mkdir(dirname(options.filePath), { recursive: true, mode: PRIVATE_DIR_MODE });
    await writePrivateFile(options.filePath, `${JSON.stringify({ version: 1, files }, null, 2)}\n`);
  }

  return {
    list: () =>
      serialized(async () => {
        const files = await load();
        const present = (await Promise.all(files.map(async (f) => ((await options.exists(f.ref)) ? f : undefined)))).filter(
          (f): f is RecentFile => f !== undefined,
        );
        if (present.length !== files.length) await store(present);
        return present;
      }),

    add: ({ ref, name }) =>
      serialized(async () => {
        const files = await load();
        const entry: RecentFile = { ref, name, openedAt: now().toISOString() };
        await store([entry, ...files.filter((f) => f.ref !== ref)].slice(0, max));
      }),

    has: (ref) => serialized(async () => (await load()).some((f) => f.ref === ref)),
  };
}

function isRecentFile(value: unknown): value is RecentFile {
  const v = value as Partial<RecentFile> | null;
  return typeof v === 'object' && v !== null && typeof v.ref === 'string' && typeof v.name === 'string' && typeof v.openedAt === 'string';
}
