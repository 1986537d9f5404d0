/**
 * The run journal: the tables runs created and have not yet removed, so that a table left behind
 * (the app quit mid-run, the CLI was killed, the engine went away) is offered for cleanup later. A
 * run records its table before it sends CreateTable and forgets it once the table is deleted (or
 * CreateTable was refused): a crash in between leaves a record, never an unrecorded table.
 *
 * More on its rules: docs/modules.md, "src-main/run/journal.ts".
 */
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { schemas } from '../../src-shared/ipc/index.ts';
import { runTableName } from '../../src-shared/run/index.ts';
import { PRIVATE_DIR_MODE } from '../files/data-folder.ts';
import { createPrivateFile, readPrivateFile, writePrivateFile } from '../files/private-file.ts';
import { deleteTable, describeError, openEngine, readRunTags, RUN_ID_TAG, RUN_TOKEN_TAG, type Engine } from './engine.ts';

/** A table a run created and has not removed, as the app lists it (`run.leftovers`). */
export type LeftoverTable = Static<typeof schemas.LeftoverTable>;

/** What a run records of its table: where it was created and what marks it as the run's. */
export const JournalRecord = Type.Object(
  {
    name: Type.String({ minLength: 3, maxLength: 255 }),
    runId: Type.String({ minLength: 1, maxLength: 100 }),
    /** Random, set as the table's `keyplan:run-token` tag: tells this run's table from another's of the same name. */
    token: Type.String({ pattern: '^[0-9a-f]{32}$' }),
    engine: schemas.EngineChoice,
    engineLabel: Type.String({ maxLength: 500 }),
    /** AWS: the account STS named when the table was created. */
    account: Type.Optional(Type.String({ pattern: '^\\d{12}$' })),
    createdAt: Type.String({ maxLength: 40 }),
    /** The process that ran it: a `keyplan run` still going is not cleaned up by another. */
    pid: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type JournalRecord = Static<typeof JournalRecord>;

export interface RunJournal {
  /** Records a table a run is about to create. */
  add(record: JournalRecord): Promise<void>;
  /** Forgets the record with this token (its table was deleted, is gone, or was never created). */
  remove(token: string): Promise<void>;
  /** The records that verify, oldest first; the others are reported through `onCorrupt`. */
  list(): Promise<JournalRecord[]>;
}

export interface RunJournalOptions {
  /** The secret's file; default `run-journal.key` beside the journal's folder. */
  keyPath?: string;
  /**
   * What the journal belongs to (a workspace's real path, `cli`, `app`), signed into each record
   * so that a record moved to another journal does not verify. Default: the folder's path.
   */
  scope?: string;
  /** Told of each record dropped, with why (it is then neither offered nor deleted). */
  onCorrupt?: (problem: { path: string; message: string }) => void;
}

const FORMAT_VERSION = 2;
const RECORD_FILE = /^([0-9a-f]{32})\.json$/;
const KEY_BYTES = 32;
const KEY_TEXT = /^([0-9a-f]{64})\n?$/;

/** A new record token: 16 random bytes as 32 hex digits. */
export const newRunToken = () => randomBytes(16).toString('hex');

/** The record's fields in a fixed order, as signed. */
function signedText(scope: string, r: JournalRecord): string {
  const e = r.engine;
  return JSON.stringify([
    'keyplan-run-journal',
    FORMAT_VERSION,
    scope,
    r.name,
    r.runId,
    r.token,
    e.kind,
    e.kind === 'local' ? e.endpoint : '',
    e.kind === 'aws' ? e.region : '',
    e.kind === 'aws' ? (e.profile ?? '') : '',
    r.account ?? '',
    r.engineLabel,
    r.createdAt,
    r.pid ?? 0,
  ]);
}

/** The journal kept in the folder `folder` (created, 0700, on the first `add`). */
export function createRunJournal(folder: string, options: RunJournalOptions = {}): RunJournal {
  const keyPath = options.keyPath ?? join(dirname(folder), 'run-journal.key');
  const scope = options.scope ?? resolve(folder);
  let key: Promise<Buffer> | undefined;
  const secret = () => (key ??= loadOrCreateKey(keyPath).catch((error: unknown) => {
    key = undefined;
    throw error;
  }));
  const sign = async (r: JournalRecord) => createHmac('sha256', await secret()).update(signedText(scope, r)).digest();
  const drop = (path: string, message: string) => options.onCorrupt?.({ path, message });

  async function verified(path: string, token: string): Promise<JournalRecord | undefined> {
    let data: unknown;
    try {
      const text = await readPrivateFile(path);
      if (text === undefined) return undefined;
      data = JSON.parse(text);
    } catch (error) {
      drop(path, `cannot read this run journal record: ${describeError(error)}`);
      return undefined;
    }
    const { record, signature } = (data ?? {}) as { record?: unknown; signature?: unknown };
    if (!Value.Check(JournalRecord, record) || typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) {
      drop(path, 'this run journal record is not a record Keyplan writes; it was ignored');
      return undefined;
    }
    if (record.token !== token) {
      drop(path, 'this run journal record is filed under another token; it was ignored');
      return undefined;
    }
    if (!timingSafeEqual(Buffer.from(signature, 'hex'), await sign(record))) {
      drop(path, `the signature of the record of table "${record.name}" does not verify (it was not written by Keyplan for this user and this journal); it was ignored, and its table is never deleted`);
      return undefined;
    }
    if (!record.name.startsWith(runTableName(record.runId, ''))) {
      drop(path, `"${record.name}" is not the name of a table of run "${record.runId}" (keyplan-run-<short run id>-…); it was ignored`);
      return undefined;
    }
    return record;
  }

  return {
    async add(record) {
      if (!Value.Check(JournalRecord, record)) throw new Error(`Not a run journal record: ${JSON.stringify(record)}`);
      await mkdir(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
      const signature = (await sign(record)).toString('hex');
      await writePrivateFile(join(folder, `${record.token}.json`), `${JSON.stringify({ formatVersion: FORMAT_VERSION, record, signature }, null, 2)}\n`);
    },
    async remove(token) {
      if (!/^[0-9a-f]{32}$/.test(token)) return;
      await rm(join(folder, `${token}.json`), { force: true });
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        drop(folder, `cannot read the run journal: ${describeError(error)}`);
        return [];
      }
      const records: JournalRecord[] = [];
      for (const name of names) {
        const token = RECORD_FILE.exec(name)?.[1];
        if (token === undefined) continue; // temporary files of a write, and anything not ours
        const record = await verified(join(folder, name), token);
        if (record) records.push(record);
      }
      return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
  };
}

/** The per-user secret in `path`, made (0600, never through a link) when there is none. */
async function loadOrCreateKey(path: string): Promise<Buffer> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const text = await readPrivateFile(path);
    if (text !== undefined) {
      const hex = KEY_TEXT.exec(text)?.[1];
      if (hex === undefined) throw new Error(`The run journal's key "${path}" is damaged (expected ${KEY_BYTES * 2} hex digits); delete it and Keyplan makes a new one (runs recorded with the old one are then no longer offered for cleanup).`);
      return Buffer.from(hex, 'hex');
    }
    await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      await createPrivateFile(path, `${randomBytes(KEY_BYTES).toString('hex')}\n`);
    } catch (error) {
      // Another process made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`The run journal's key "${path}" could not be read after it was made.`);
}

/** What `cleanupLeftovers` did: the tables removed, and those it could not remove with why. */
export interface CleanupResult {
  removed: string[];
  failed: Array<{ name: string; message: string }>;
}

/** The journal's records as the app lists them: one per table name, without tokens. */
export function leftoverTables(records: JournalRecord[]): LeftoverTable[] {
  const byName = new Map<string, LeftoverTable>();
  for (const r of records) if (!byName.has(r.name)) byName.set(r.name, { name: r.name, engine: r.engine, engineLabel: r.engineLabel, createdAt: r.createdAt });
  return [...byName.values()];
}

/**
 * Removes the journal's tables (those named, or all), each on the engine its record names, once
 * its tags show it is that run's table (and, on AWS, the account is the one it was created in). A
 * table already gone counts as removed; so does every table of the embedded engine, whose tables
 * lived in memory and went with the process that ran it. A name the journal does not hold is
 * refused, and a table whose tags do not match is left alone and forgotten.
 */
export async function cleanupLeftovers(journal: RunJournal, names?: string[]): Promise<CleanupResult> {
  const records = await journal.list();
  const result: CleanupResult = { removed: [], failed: [] };
  let wanted = records;
  if (names !== undefined) {
    const known = new Set(records.map((e) => e.name));
    for (const name of new Set(names)) {
      if (!known.has(name)) result.failed.push({ name, message: `"${name}" is not a table a Keyplan run left behind (it is not in the run journal); Keyplan deletes only tables its runs created.` });
    }
    const asked = new Set(names);
    wanted = records.filter((e) => asked.has(e.name));
  }
  const removed = (name: string) => {
    if (!result.removed.includes(name)) result.removed.push(name);
  };

  const byEngine = new Map<string, JournalRecord[]>();
  for (const record of wanted) {
    if (record.engine.kind === 'embedded') {
      await journal.remove(record.token);
      removed(record.name);
      continue;
    }
    const key = JSON.stringify([record.engine, record.account ?? '']);
    byEngine.set(key, [...(byEngine.get(key) ?? []), record]);
  }

  for (const group of byEngine.values()) {
    const first = group[0]!;
    let engine: Engine;
    try {
      engine = await openEngine(first.engine);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      for (const r of group) result.failed.push({ name: r.name, message: `${r.engineLabel}: ${message}` });
      continue;
    }
    try {
      if (first.engine.kind === 'aws' && engine.identity.account !== first.account) {
        for (const r of group) {
          result.failed.push({
            name: r.name,
            message: `Table "${r.name}" was created in AWS account ${r.account ?? '(unrecorded)'}, but the credentials of this profile now belong to account ${engine.identity.account ?? '(unknown)'}; nothing was deleted. Use the profile of account ${r.account ?? '(unrecorded)'} to remove it.`,
          });
        }
        continue;
      }
      for (const r of group) await removeOne(engine, journal, r, result, removed);
    } finally {
      await engine.close();
    }
  }
  return result;
}

/** Deletes one record's table once its tags show it is that run's, and forgets the record. */
async function removeOne(engine: Engine, journal: RunJournal, r: JournalRecord, result: CleanupResult, removed: (name: string) => void): Promise<void> {
  let tags: Map<string, string> | 'absent';
  try {
    tags = await readRunTags(engine.client, r.name);
  } catch (error) {
    result.failed.push({ name: r.name, message: `Cannot read the tags of table "${r.name}" on ${r.engineLabel} to check it is the run's: ${describeError(error)}. Nothing was deleted.` });
    return;
  }
  if (tags === 'absent') {
    await journal.remove(r.token);
    removed(r.name);
    return;
  }
  if (tags.get(RUN_ID_TAG) !== r.runId || tags.get(RUN_TOKEN_TAG) !== r.token) {
    // Not this run's table (another made one of that name): never deleted, and not offered again.
    await journal.remove(r.token);
    result.failed.push({
      name: r.name,
      message: `Table "${r.name}" on ${r.engineLabel} does not carry the tags Keyplan set when its run created it (${RUN_ID_TAG} "${r.runId}" and its ${RUN_TOKEN_TAG}), so it is not that run's table; it was not deleted, and is no longer offered.`,
    });
    return;
  }
  try {
    await deleteTable(engine.client, r.name);
    await journal.remove(r.token);
    removed(r.name);
  } catch (error) {
    result.failed.push({ name: r.name, message: `DeleteTable on ${r.engineLabel} failed: ${describeError(error)}` });
  }
}
