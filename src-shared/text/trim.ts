/**
 * Trimming a repeated character from the ends of a string in one pass. Regular expressions such as
 * `/0+$/` retry at every position of a long run and take quadratic time on hostile input.
 */

/** `s` without the copies of `ch` (one character) at its end. */
export function trimEnd(s: string, ch: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === ch) end -= 1;
  return end === s.length ? s : s.slice(0, end);
}

/** `s` without the copies of `ch` (one character) at both ends. */
export function trimBoth(s: string, ch: string): string {
  let start = 0;
  while (start < s.length && s[start] === ch) start += 1;
  return trimEnd(s.slice(start), ch);
}
