/**
 * How problems name places and values: paths in property/index notation (`joinPath`), values and
 * list positions in plain words. Shared by every check of the design. User text is quoted clipped to
 * 80 characters and lists are cut after a few names, so a problem's size does not grow with the input.
 */
import { clipText, formatProblemCount, quoteClipped } from '../quoted-text.ts';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends a property name or an array index to a path: `joinPath('a', 0)` → `a[0]`, `joinPath('a', 'b c')` → `a["b c"]`. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (IDENTIFIER.test(key)) return base === '' ? key : `${base}.${key}`;
  return `${base}[${JSON.stringify(key)}]`;
}

/** A name or a value quoted as JSON text, at most 80 characters of it, for messages: `"Order"`. */
export const quote = (s: string): string => quoteClipped(s);

/** A name shown without quotes (after "has no attribute", in a key label): at most 80 characters. */
export const shown = (s: string): string => clipText(s);

/** Whether `v` is a plain object (not null, not a list). */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as the user would describe it: `the text "x"`, `the number 5`, `a list of 2 items`, `missing`. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (typeof v === 'string') return v === '' ? 'empty text' : `the text ${quote(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.length === 1 ? 'a list of 1 item' : `a list of ${v.length} items`;
  return 'an object';
}

/**
 * `1st`, `2nd`, `3rd`, `11th`, `22nd`: how messages count the items of a list, from 1 as the UI's labels
 * do ("Attribute 1 name"). Paths keep 0-based indexes (`attributes[0]`); messages never show those.
 */
export function ordinal(n: number): string {
  const tens = n % 100;
  const ones = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ones === 1 ? 'st' : ones === 2 ? 'nd' : ones === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

/** Names a list shows before it says how many there are in all. */
export const MAX_LISTED_NAMES = 12;

/**
 * Names joined for an "expected one of" list: `a, b, c`, or `(none)`; each name at most 80 characters,
 * and past `MAX_LISTED_NAMES` names, `a, b, …, l, … (40 in all)`.
 */
export function listOf(names: readonly string[]): string {
  if (names.length === 0) return '(none)';
  const listed = names.slice(0, MAX_LISTED_NAMES).map((n) => clipText(n));
  return names.length > MAX_LISTED_NAMES ? `${listed.join(', ')}, … (${formatProblemCount(names.length)} in all)` : listed.join(', ');
}

/** `an S attribute`, `a BOOL attribute`: the article as the type's letters are read out. */
export const typed = (type: string): string => `${/^(S|SS|N|NS|L|M)$/.test(type) ? 'an' : 'a'} ${type} attribute`;
