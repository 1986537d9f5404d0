/**
 * Format migrations: bring a design document written by an older build up to `FORMAT_VERSION`, one
 * version at a time, before its structure is checked. Each step takes the raw JSON of version n and
 * returns the raw JSON of version n + 1; steps never see invalid versions and never throw on odd
 * shapes (the structural check after them reports those).
 */
import { ok, fail, type Result } from '../errors.ts';
import type { Problem } from './problems.ts';
import { quoteClipped } from './quoted-text.ts';
import { FORMAT_VERSION } from './schema.ts';

/** A raw design document: parsed JSON, not yet checked. */
export type RawDocument = Record<string, unknown>;

/** One migration step: `up` turns a document of version `from` into one of version `to` (= from + 1). */
export interface MigrationStep {
  from: number;
  to: number;
  /** Returns a new document (the input is not changed), with `formatVersion` set to `to`. */
  up(doc: RawDocument): RawDocument;
}

/**
 * Version 0 was the draft format: one table under `table` instead of a list under `tables`.
 * Version 1 holds a list so a design can describe several tables.
 */
const v0ToV1: MigrationStep = {
  from: 0,
  to: 1,
  up(doc) {
    const { table, ...rest } = doc;
    const tables = 'tables' in rest ? rest.tables : table === undefined ? [] : [table];
    return { ...rest, formatVersion: 1, tables };
  },
};

/** Every step, in order; the last one's `to` is `FORMAT_VERSION`. */
export const MIGRATIONS: readonly MigrationStep[] = [v0ToV1];

/** The oldest format version this build can migrate from. */
export const OLDEST_FORMAT_VERSION = MIGRATIONS.reduce((oldest, step) => Math.min(oldest, step.from), FORMAT_VERSION);

/**
 * Brings `raw` up to `FORMAT_VERSION` by running the steps from its `formatVersion` on. A document
 * already at `FORMAT_VERSION` comes back unchanged (the same object). Errors: `model.invalidVersion`
 * (missing, not an integer, or older than any this build knows), `model.unsupportedVersion` (newer than
 * this build reads). All at path `formatVersion`.
 */
export function migrate(raw: RawDocument, steps: readonly MigrationStep[] = MIGRATIONS): Result<RawDocument, Problem> {
  const version = raw.formatVersion;
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    return fail([
      {
        code: 'model.invalidVersion',
        path: 'formatVersion',
        message: `The design's "formatVersion" is ${describeVersion(version)}; expected a whole number from ${OLDEST_FORMAT_VERSION} to ${FORMAT_VERSION}.`,
        found: describeVersion(version),
        expected: `a whole number from ${OLDEST_FORMAT_VERSION} to ${FORMAT_VERSION}`,
      },
    ]);
  }
  if (version > FORMAT_VERSION) {
    return fail([
      {
        code: 'model.unsupportedVersion',
        path: 'formatVersion',
        message: `The design was written in format version ${version}, but this build of Keyplan reads versions up to ${FORMAT_VERSION}.`,
        found: String(version),
        expected: `${FORMAT_VERSION} or lower`,
      },
    ]);
  }
  let doc = raw;
  for (let v = version; v < FORMAT_VERSION; v += 1) {
    const step = steps.find((s) => s.from === v);
    if (!step) {
      return fail([
        {
          code: 'model.invalidVersion',
          path: 'formatVersion',
          message: `The design's format version ${version} is older than any this build can read; expected ${OLDEST_FORMAT_VERSION} to ${FORMAT_VERSION}.`,
          found: String(version),
          expected: `a whole number from ${OLDEST_FORMAT_VERSION} to ${FORMAT_VERSION}`,
        },
      ]);
    }
    doc = step.up(doc);
  }
  return ok(doc);
}

function describeVersion(v: unknown): string {
  if (v === undefined) return 'missing';
  if (typeof v === 'string') return `the text ${quoteClipped(v)}`;
  if (typeof v === 'number') return String(v);
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : String(v);
}
