/**
 * What every part of the describe-table import shares: its error codes, the collector of problems
 * and notes, and own-property access to the input's JSON.
 */
import type { Problem } from '../../model/index.ts';
import { describeValue, joinPath } from '../../model/index.ts';
import type { ImportNote, ImportNoteKind } from '../common/import-types.ts';

/**
 * Codes of the problems `fromDescribeTable` raises, besides the `model.*` and `keyTemplate.*`
 * problems of the design's rules: `describeTable.notOutput` (the input is not a DescribeTable
 * output), `describeTable.schema` (a field of the wrong shape, or missing), `describeTable.companion`
 * (a companion that is neither describe-time-to-live nor describe-continuous-backups output, or one
 * given twice).
 */
export type DescribeTableErrorCode = 'describeTable.notOutput' | 'describeTable.schema' | 'describeTable.companion';

/** An object of the input. */
export type Json = Record<string, unknown>;

/** A field the object holds itself (never one of Object.prototype's). */
export const own = (obj: Json, key: string): unknown => (Object.hasOwn(obj, key) ? obj[key] : undefined);
/** Whether the object holds `key` itself. */
export const has = (obj: Json, key: string): boolean => Object.hasOwn(obj, key);

/** Collects the problems that stop the import and the notes on what it skipped, inferred and dropped. */
export class Collector {
  readonly problems: Problem[] = [];
  readonly notes: ImportNote[] = [];

  problem(path: string, message: string, found: string, expected: string, code: DescribeTableErrorCode = 'describeTable.schema'): void {
    this.problems.push({ code, path, message, found, expected });
  }

  /** A field of the wrong shape: `<path> is <found>; expected <expected>.` */
  wrong(path: string, value: unknown, expected: string, why = ''): void {
    const found = describeValue(value);
    this.problem(path, `${path || 'The input'} is ${found}; expected ${expected}${why}.`, found, expected);
  }

  note(kind: ImportNoteKind, path: string, message: string): void {
    this.notes.push({ kind, path, message });
  }

  /** A `warning` for each field of `obj` that Keyplan does not read. */
  unknownFields(obj: Json, path: string, known: ReadonlySet<string>, what: string): void {
    for (const key of Object.keys(obj)) {
      if (!known.has(key)) this.note('warning', joinPath(path, key), `${joinPath(path, key)} is not a field of ${what} that Keyplan reads; it was skipped.`);
    }
  }
}
