/**
 * What every part of the OneTable import shares: its error codes, the log that collects problems and
 * notes, and safe access to the schema's JSON (own properties only, so a key such as "constructor"
 * finds nothing).
 */
import type { Problem } from '../../model/index.ts';
import { describeValue } from '../../model/index.ts';
import type { ImportNote } from '../common/import-types.ts';

/**
 * Codes of the problems `fromOneTable` raises (besides the `model.*` and `keyTemplate.*` rules of
 * the design it builds): `onetable.notSchema` (not a OneTable schema at all), `onetable.unsupportedFormat` (a `format` other than `onetable:1.x`),
 * `onetable.schema` (a part missing or of the wrong shape), `onetable.keyType` (a key attribute
 * stored from a type a key cannot have, or from two types).
 */
export type OneTableErrorCode = 'onetable.notSchema' | 'onetable.unsupportedFormat' | 'onetable.schema' | 'onetable.keyType';

/** An object of the schema. */
export type Json = Record<string, unknown>;
/** Whether `v` is an object (not null, not a list). */
export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Text in double quotes for a message, clipped to 80 characters. */
export const quote = (s: string): string => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
/** `obj[key]` when `obj` holds `key` itself, never one of Object.prototype's. */
export const own = (obj: Json, key: string): unknown => (Object.hasOwn(obj, key) ? obj[key] : undefined);
/** `table[key]` for a key the input chose: own properties only, so "constructor" finds nothing. */
export const lookup = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
/** A value for a message: text in quotes, anything else described. */
export const shownValue = (v: unknown): string => (typeof v === 'string' ? quote(v) : describeValue(v));

/** Collects the problems that stop the import and the notes on what was inferred, skipped or dropped. */
export class Log {
  readonly problems: Problem[] = [];
  readonly notes: ImportNote[] = [];
  problem(code: OneTableErrorCode, path: string, message: string, found: string, expected: string): void {
    this.problems.push({ code, path, message, found, expected });
  }
  warn(path: string, message: string): void {
    this.notes.push({ kind: 'warning', path, message });
  }
  infer(path: string, message: string): void {
    this.notes.push({ kind: 'inferred', path, message });
  }
  drop(path: string, message: string): void {
    this.notes.push({ kind: 'dropped', path, message });
  }
  /** A problem for `value` at `path` not being `expected`: "indexes.gs1.hash is the number 5; expected …". */
  shape(path: string, value: unknown, expected: string): void {
    const found = describeValue(value);
    this.problem('onetable.schema', path, `${path} is ${found}; expected ${expected}.`, found, expected);
  }
}
