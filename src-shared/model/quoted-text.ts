/**
 * How problems quote text the user wrote: at most `MAX_QUOTED_CHARS` characters of it, cut with an
 * ellipsis. A message that quoted a whole 80 KB key template once per placeholder grew with the square
 * of the input (issue 11: a crafted design made `keyplan check` die with "Invalid string length"), so
 * every quote of user text in a problem goes through here, and a problem's size stays bounded whatever
 * the input.
 */
import { formatNumber } from '../numbers/index.ts';

/** The most characters of user text a problem quotes. */
export const MAX_QUOTED_CHARS = 80;

/** The ellipsis that marks cut text. */
const ELLIPSIS = '…';

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** `s` cut to `end` code units, moved back one if that would split a surrogate pair. */
function cutEnd(s: string, end: number): number {
  return end > 0 && end < s.length && isHighSurrogate(s.charCodeAt(end - 1)) && isLowSurrogate(s.charCodeAt(end)) ? end - 1 : end;
}

/** A start that does not begin inside a surrogate pair. */
function cutStart(s: string, start: number): number {
  return start > 0 && start < s.length && isLowSurrogate(s.charCodeAt(start)) && isHighSurrogate(s.charCodeAt(start - 1)) ? start + 1 : start;
}

/**
 * `s` when it has at most `max` characters; else its first `max − 1` and `…`. Never splits a
 * surrogate pair. Constant time in the length of `s` beyond the part kept.
 */
export function clipText(s: string, max = MAX_QUOTED_CHARS): string {
  if (s.length <= max) return s;
  return s.slice(0, cutEnd(s, Math.max(0, max - 1))) + ELLIPSIS;
}

/**
 * About `max` characters of `s` around index `at` (the place a message points to), with `…` where
 * text was cut on either side; `s` itself when it is short enough.
 */
export function excerptAround(s: string, at: number, max = MAX_QUOTED_CHARS): string {
  if (s.length <= max) return s;
  const room = Math.max(1, max - 2);
  let start = Math.max(0, Math.min(at - Math.floor(room / 2), s.length - room));
  start = cutStart(s, start);
  const end = cutEnd(s, Math.min(s.length, start + room));
  return `${start > 0 ? ELLIPSIS : ''}${s.slice(start, end)}${end < s.length ? ELLIPSIS : ''}`;
}

/** `clipText(s)` in double quotes, escaped as JSON: how problems quote names, templates and values. */
export function quoteClipped(s: string, max = MAX_QUOTED_CHARS): string {
  return JSON.stringify(clipText(s, max));
}

/** A count with thousands separators, as problems write counts: `4,211` (a fraction keeps up to three decimals). */
export function formatProblemCount(n: number): string {
  return formatNumber(n, 3);
}
