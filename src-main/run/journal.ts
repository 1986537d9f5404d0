/**
 * The run journal: a file listing the tables runs created and have not yet removed, so that a table
 * left behind (the app quit mid-run, the engine went away) is offered for cleanup at the next start.
 * A run adds its table before it sends CreateTable and removes it once the table is deleted: a crash
 * in between leaves a record, never an unrecorded table.
 *
 * The file is `{ "formatVersion": 1, "tables": [LeftoverTable, ...] }`, replaced atomically on every
 * change (temporary file, then rename); changes from one process are applied one at a time. A file
 * that cannot be read as a journal counts as empty, and the caller hears of it through `onCorrupt`.
 */
import { Value } from '@sinclair/typebox/value';
import type { Static } from '@sinclair/typebox';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as schemas from '../../src-shared/ipc/contract-schemas.ts';
import { writeFileAtomic } from '../files/atomic-write.ts';
import { deleteTable, describeError, openEngine, type Engine } from './engine.ts';

/** A table a run created and has not removed: its name, its engine, and when it was created. */
export type LeftoverTable = Static<typeof schemas.LeftoverTable>;

export interface RunJournal {
  /** Records a table a run is about to create. */
  add(entry: LeftoverTable): Promise<void>;
  /** Forgets the table `name` (it was deleted, or is gone). */
  remove(name: string): Promise<void>;
  /** The tables recorded, oldest first. */
  list(): Promise<LeftoverTable[]>;
}

export interface RunJournalOptions {
  /** Told when the file is there but is not a journal (it is then read as empty), with why. */
  onCorrupt?: (problem: { path: string; message: string }) => void;
}

const FORMAT_VERSION = 1;

/** The journal kept in `filePath` (created with its folder on the first `add`). */
export function createRunJournal(filePath: string, options: RunJournalOptions = {}): RunJournal {
  // Every operation waits for the one before it, so two runs' read-modify-writes never interleave.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(operation: () => Promise<T>): Promise<T> => {
    const next = queue.then(operation, operation);
    queue = next.catch(() => undefined);
    return next;
  };

  const corrupt = (message: string) => options.onCorrupt?.({ path: filePath, message });

  async function read(): Promise<LeftoverTable[]> {
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      corrupt(`cannot read the run journal: ${describeError(error)}`);
      return [];
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      corrupt(`the run journal is not JSON: ${describeError(error)}`);
      return [];
    }
    const tables = (data as { tables?: unknown } | null)?.tables;
    if (!Array.isArray(tables)) {
      corrupt('the run journal has no "tables" list');
      return [];
    }
    const entries = tables.filter((t): t is LeftoverTable => Value.Check(schemas.LeftoverTable, t));
    if (entries.length < tables.length) corrupt(`the run journal has ${tables.length - entries.length} entries that are not tables; they were ignored`);
    return entries;
  }

  async function write(tables: LeftoverTable[]): Promise<void> {
    await mkdir(dirname(filePath), { recursive: true });
    await writeFileAtomic(filePath, `${JSON.stringify({ formatVersion: FORMAT_VERSION, tables }, null, 2)}\n`, { keepBackup: false });
  }

  return {
    add: (entry) =>
      serialized(async () => {
        const tables = await read();
        await write([...tables.filter((t) => t.name !== entry.name), entry]);
      }),
    remove: (name) =>
      serialized(async () => {
        const tables = await read();
        if (tables.some((t) => t.name === name)) await write(tables.filter((t) => t.name !== name));
      }),
    list: () => serialized(read),
  };
}

/** What `cleanupLeftovers` did: the tables removed, and those it could not remove with why. */
export interface CleanupResult {
  removed: string[];
  failed: Array<{ name: string; message: string }>;
}

/**
 * Removes the journal's tables (those named, or all): each engine is opened once, each table
 * deleted and forgotten. A table already gone counts as removed; so does every table of the
 * embedded engine, whose tables lived in memory and went with the process that ran it. A name the
 * journal does not hold is refused: only tables a run created are ever deleted here.
 */
export async function cleanupLeftovers(journal: RunJournal, names?: string[]): Promise<CleanupResult> {
  const entries = await journal.list();
  const result: CleanupResult = { removed: [], failed: [] };
  let wanted = entries;
  if (names !== undefined) {
    const known = new Set(entries.map((e) => e.name));
    for (const name of new Set(names)) {
      if (!known.has(name)) result.failed.push({ name, message: `"${name}" is not a table a Keyplan run left behind (it is not in the run journal); Keyplan deletes only tables its runs created.` });
    }
    const asked = new Set(names);
    wanted = entries.filter((e) => asked.has(e.name));
  }

  const byEngine = new Map<string, LeftoverTable[]>();
  for (const entry of wanted) {
    if (entry.engine.kind === 'embedded') {
      await journal.remove(entry.name);
      result.removed.push(entry.name);
      continue;
    }
    const key = JSON.stringify(entry.engine);
    byEngine.set(key, [...(byEngine.get(key) ?? []), entry]);
  }

  for (const tables of byEngine.values()) {
    let engine: Engine;
    try {
      engine = await openEngine(tables[0]!.engine);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      for (const t of tables) result.failed.push({ name: t.name, message: `${t.engineLabel}: ${message}` });
      continue;
    }
    try {
      for (const t of tables) {
        try {
          await deleteTable(engine.client, t.name);
          await journal.remove(t.name);
          result.removed.push(t.name);
        } catch (error) {
          result.failed.push({ name: t.name, message: `DeleteTable on ${t.engineLabel} failed: ${describeError(error)}` });
        }
      }
    } finally {
      await engine.close();
    }
  }
  return result;
}
