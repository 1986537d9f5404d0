/**
 * What the WebSocket host quotes back of what a client sent: at most `MAX_ECHO_CHARS` characters of
 * any one string, in its own log lines (`clip`) and in error replies (`clipEchoes`).
 */
import type { ErrorData } from '../../src-shared/errors.ts';

/** At most this many characters of any one string a client sent are quoted back in an error reply. */
export const MAX_ECHO_CHARS = 200;

/** `text`, cut to `MAX_ECHO_CHARS` characters (and an ellipsis) when longer. */
export function clip(text: string): string {
  return text.length > MAX_ECHO_CHARS ? `${text.slice(0, MAX_ECHO_CHARS)}…` : text;
}

/**
 * The transport's last word on echoes: wherever an error's message, path or details repeat more than
 * {@link MAX_ECHO_CHARS} characters of a string the client sent (its channel, a value or a key of its
 * input, raw or JSON-escaped), the repeat is cut there. Handlers quote what they refuse
 * (`unknown field "…"`), and a 16 MB value must not travel back whole. Errors whose strings are all
 * short, nearly all of them, are returned as they are without looking at the request.
 */
export function clipEchoes<E extends ErrorData>(error: E, sent: unknown[]): E {
  const inError = new Set<string>();
  collectLongStrings(error, inError);
  if (inError.size === 0) return error;
  const long = new Set<string>();
  collectLongStrings(sent, long);
  if (long.size === 0) return error;
  const forms = [...long].flatMap((s) => {
    const escaped = JSON.stringify(s).slice(1, -1);
    return escaped === s ? [s] : [s, escaped];
  });
  const cut = (text: string): string => {
    if (text.length <= MAX_ECHO_CHARS) return text;
    let result = text;
    for (const form of forms) result = cutRepeats(result, form);
    return result;
  };
  const clipped: E = { ...error, message: cut(error.message) };
  if (error.path !== undefined) clipped.path = cut(error.path);
  if (error.details !== undefined) clipped.details = mapStrings(error.details, cut);
  return clipped;
}

/** Replaces each run of `text` longer than MAX_ECHO_CHARS that repeats `sent` from its start. */
function cutRepeats(text: string, sent: string): string {
  const probe = sent.slice(0, MAX_ECHO_CHARS + 1);
  let at = text.indexOf(probe);
  if (at === -1) return text;
  let result = '';
  let from = 0;
  while (at !== -1) {
    let length = probe.length;
    while (at + length < text.length && length < sent.length && text[at + length] === sent[length]) length += 1;
    result += `${text.slice(from, at)}${sent.slice(0, MAX_ECHO_CHARS)}… (${length} characters)`;
    from = at + length;
    at = text.indexOf(probe, from);
  }
  return result + text.slice(from);
}

function collectLongStrings(value: unknown, into: Set<string>): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.length > MAX_ECHO_CHARS) into.add(item);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        if (key.length > MAX_ECHO_CHARS) into.add(key);
        stack.push(child);
      }
    }
  }
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [map(key), mapStrings(child, map)]));
  }
  return value;
}
