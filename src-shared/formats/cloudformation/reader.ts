/**
 * Reading the fields of a CloudFormation template with notes and problems: each value with its
 * intrinsic functions worked out (an `inferred` note says how), each field of the wrong shape a
 * problem (when the table needs it) or a `warning` (a setting skipped), each value known only at
 * deployment a problem or an `inferred` note naming the default taken. CloudFormation's own
 * conversions are accepted: a number written as text, "true" for a Boolean.
 */
import type { Problem } from '../../model/index.ts';
import { clipText, describeValue, joinPath } from '../../model/index.ts';
import type { ImportNote, ImportNoteKind } from '../common/import-types.ts';
import { intrinsicOf, isRecord, NO_VALUE, type Json, type Template } from './template.ts';

/** Codes of the problems `fromCloudFormation` raises, besides the `model.*` rules of the design it builds. */
export type CloudFormationErrorCode =
  | 'cloudformation.syntax'
  | 'cloudformation.notTemplate'
  | 'cloudformation.noTable'
  | 'cloudformation.schema'
  | 'cloudformation.attributeDefinition'
  | 'cloudformation.unresolved';

/**
 * The longest message and path a note or problem keeps: every value is quoted clipped already, but a
 * path holds the template's own keys, and a hostile 100 KB key must not make every note that large.
 */
const MAX_MESSAGE_CHARS = 2000;
const MAX_PATH_CHARS = 1000;

/** A value known only at deployment: what the template writes, and why the template does not decide it. */
export interface Unresolved {
  what: string;
  why: string;
}

/** A field read: absent, its value, or known only at deployment. */
export type Got = { kind: 'absent' } | { kind: 'value'; value: unknown } | ({ kind: 'unresolved' } & Unresolved);

/** A list item with its path in the template; `unresolved` when the item itself is known only at deployment. */
export interface Item {
  value: unknown;
  path: string;
  unresolved?: Unresolved;
}

/**
 * How a note names the field at `path`: its own key (`BillingMode`), with its place in its list
 * (`Tags[1]`). A note carries its path beside its message, and the CLI and the import dialog show
 * both; the message names the field without repeating the path, as the other importers' notes do.
 */
export function fieldName(path: string): string {
  // Read from the end, without a regular expression: a hostile key may be 100 KB long.
  let start = path.length;
  while (path.endsWith(']', start)) {
    const open = path.lastIndexOf('[', start - 1);
    if (open < 0 || !/^\[\d+\]$/.test(path.slice(open, start))) break;
    start = open;
  }
  const head = path.slice(0, start);
  const indexes = path.slice(start);
  // A key joinPath quoted (`["my key"]`; a quote inside it is escaped, so `["` starts it), or a plain one after the last dot.
  if (head.endsWith('"]')) return `${head.slice(head.lastIndexOf('["') + 1, -1)}${indexes}`;
  return `${head.slice(head.lastIndexOf('.') + 1)}${indexes}`;
}

/** A list item as a field read. */
export const gotOf = (item: Item): Got => (item.unresolved ? { kind: 'unresolved', ...item.unresolved } : { kind: 'value', value: item.value });

/** A number, or text of one, as CloudFormation converts it. */
function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

/** A whole number, or text of one. */
export function integerOf(v: unknown): number | undefined {
  const n = numberOf(v);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

/** Text, or a number read as its text (CloudFormation converts it), optionally one of `allowed`. */
const textOf =
  (allowed?: readonly string[]) =>
  (v: unknown): string | undefined => {
    const text = typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
    return text === undefined || (allowed && !allowed.includes(text)) ? undefined : text;
  };

/** `true` or `false`, or the text of one in any case (CloudFormation converts it). */
function booleanOf(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  return undefined;
}

/** Reads fields of the template: every problem, and every note on what was guessed, skipped or dropped. */
export class Reader {
  readonly notes: ImportNote[] = [];
  readonly problems: Problem[] = [];

  constructor(readonly template: Template) {}

  note(kind: ImportNoteKind, path: string, message: string): void {
    this.notes.push({ kind, path: clipText(path, MAX_PATH_CHARS), message: clipText(message, MAX_MESSAGE_CHARS) });
  }

  problem(code: CloudFormationErrorCode, path: string, message: string, found: string, expected: string): void {
    this.problems.push({ code, path: clipText(path, MAX_PATH_CHARS), message: clipText(message, MAX_MESSAGE_CHARS), found: clipText(found, MAX_PATH_CHARS), expected });
  }

  /** The value of `v` at `path`, an intrinsic function worked out where the template decides it (with an `inferred` note). */
  resolve(v: unknown, path: string): Got {
    if (!intrinsicOf(v)) return { kind: 'value', value: v };
    const e = this.template.evaluate(v);
    if (!e.ok) return { kind: 'unresolved', what: e.what, why: e.why };
    const shown = this.template.show(v);
    if (e.value === NO_VALUE) {
      if (e.via.length > 0) this.note('inferred', path, `${fieldName(path)} is ${shown}; it was left out, as ${e.via.join(', then ')} is AWS::NoValue.`);
      return { kind: 'absent' };
    }
    if (e.via.length > 0) this.note('inferred', path, `${fieldName(path)} is ${shown}; read as ${describeValue(e.value)}, from ${e.via.join(', then ')}.`);
    return { kind: 'value', value: e.value };
  }

  get(obj: Json, key: string, path: string): Got {
    if (!Object.hasOwn(obj, key)) return { kind: 'absent' };
    return this.resolve(obj[key], joinPath(path, key));
  }

  /** A value nothing stands in for, known only at deployment: a problem. */
  unresolvedProblem(path: string, got: Unresolved, expected: string): void {
    this.problem('cloudformation.unresolved', path, `${path} is ${got.what}, which the template does not decide (${got.why}); expected ${expected}.`, got.what, expected);
  }

  /** A value known only at deployment where the setting has a default: an `inferred` note saying what was taken. */
  unresolvedNote(path: string, got: Unresolved, taken: string): void {
    this.note('inferred', path, `${fieldName(path)} is ${got.what}, which the template does not decide (${got.why}); ${taken}.`);
  }

  /**
   * A field that is not `expected`. With `taken` (what was done instead: "the setting was skipped"),
   * a setting: a `warning`, or an `inferred` note when it is known only at deployment. Without, a part
   * the table needs: a problem.
   */
  wrong(path: string, got: Got, expected: string, taken?: string): void {
    if (got.kind === 'unresolved') {
      if (taken === undefined) this.unresolvedProblem(path, got, expected);
      else this.unresolvedNote(path, got, taken);
      return;
    }
    const found = describeValue(got.kind === 'value' ? got.value : undefined);
    if (taken === undefined) this.problem('cloudformation.schema', path, `${path} is ${found}; expected ${expected}.`, found, expected);
    else this.note('warning', path, `${fieldName(path)} is ${found}; expected ${expected}, so ${taken}.`);
  }

  /** A required object (or, when `isOptional`, an optional one: a wrong shape is then a warning). */
  record(obj: Json, key: string, path: string, isOptional: boolean): Json | undefined {
    const got = this.get(obj, key, path);
    if (got.kind === 'value' && isRecord(got.value)) return got.value;
    if (got.kind === 'absent' && isOptional) return undefined;
    this.wrong(joinPath(path, key), got, isOptional ? 'an object of settings' : 'an object', isOptional ? 'the setting was skipped' : undefined);
    return undefined;
  }

  /**
   * A list: its items with their paths, each intrinsic function worked out and `AWS::NoValue` items
   * left out. `need`: `required` (absent or malformed is a problem), `optional` (absent is fine,
   * malformed a warning: the setting is skipped) or `strict` (absent is fine, malformed a problem:
   * indexes and key definitions shape the table).
   */
  list(obj: Json, key: string, path: string, need: 'required' | 'optional' | 'strict', expected: string): Item[] | undefined {
    const p = joinPath(path, key);
    const got = this.get(obj, key, path);
    if (got.kind === 'absent' && need !== 'required') return undefined;
    if (got.kind !== 'value' || !Array.isArray(got.value)) {
      this.wrong(p, got, expected, need === 'optional' ? 'the setting was skipped' : undefined);
      return undefined;
    }
    const items: Item[] = [];
    got.value.forEach((raw, k) => {
      const ip = joinPath(p, k);
      const item = this.resolve(raw, ip);
      if (item.kind === 'value') items.push({ value: item.value, path: ip });
      else if (item.kind === 'unresolved') items.push({ value: undefined, path: ip, unresolved: item });
    });
    return items;
  }

  /** A list item that is an object, or undefined: a problem (or, with `taken`, a note) when it is something else. */
  object(item: Item, expected: string, taken?: string): Json | undefined {
    if (!item.unresolved && isRecord(item.value)) return item.value;
    this.wrong(item.path, gotOf(item), expected, taken);
    return undefined;
  }

  /**
   * A scalar field, converted by `convert`. Required without `taken`: absent, wrong or known only at
   * deployment is a problem. Optional with `taken` (the setting's default, said in the note): absent
   * is undefined, wrong a `warning`, known only at deployment an `inferred` note.
   */
  private scalar<T>(obj: Json, key: string, path: string, expected: string, convert: (v: unknown) => T | undefined, taken?: string): T | undefined {
    const got = this.get(obj, key, path);
    if (got.kind === 'absent' && taken !== undefined) return undefined;
    const value = got.kind === 'value' ? convert(got.value) : undefined;
    if (value === undefined) this.wrong(joinPath(path, key), got, expected, taken);
    return value;
  }

  /** A required string; CloudFormation reads a number as its text. */
  requiredString(obj: Json, key: string, path: string, expected: string, allowed?: readonly string[]): string | undefined {
    return this.scalar(obj, key, path, expected, textOf(allowed));
  }

  /** An optional string: undefined when absent, of the wrong type (a warning) or known only at deployment (a note saying `taken`, the setting's default). */
  optionalString(obj: Json, key: string, path: string, expected: string, taken: string, allowed?: readonly string[]): string | undefined {
    return this.scalar(obj, key, path, expected, textOf(allowed), taken);
  }

  /** A whole number (a number, or text of one, as CloudFormation converts it), required: a problem otherwise. */
  requiredInteger(obj: Json, key: string, path: string, expected: string): number | undefined {
    return this.scalar(obj, key, path, expected, integerOf);
  }

  /** An optional whole number: undefined when absent, wrong (a warning) or known only at deployment (a note saying `taken`). */
  optionalInteger(obj: Json, key: string, path: string, expected: string, taken: string): number | undefined {
    return this.scalar(obj, key, path, expected, integerOf, taken);
  }

  /** A required number (a target utilization may be a fraction). */
  requiredNumber(obj: Json, key: string, path: string, expected: string): number | undefined {
    return this.scalar(obj, key, path, expected, numberOf);
  }

  /** An optional number. */
  optionalNumber(obj: Json, key: string, path: string, expected: string, taken: string): number | undefined {
    return this.scalar(obj, key, path, expected, numberOf, taken);
  }

  /** An optional Boolean (`true`, or the text "true", as CloudFormation converts it). */
  optionalBoolean(obj: Json, key: string, path: string, taken: string): boolean | undefined {
    return this.scalar(obj, key, path, 'true or false', booleanOf, taken);
  }

  /** Properties of `obj` not in `known`: a `warning` each (a misspelt or unknown property is skipped). */
  unknownProperties(obj: Json, path: string, known: readonly string[], owner: string): void {
    for (const key of Object.keys(obj)) {
      if (known.includes(key)) continue;
      const p = joinPath(path, key);
      this.note('warning', p, `${fieldName(p)} is not a property of ${owner}; it was skipped.`);
    }
  }
}
