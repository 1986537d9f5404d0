/**
 * Reading the files a command is given: the text (with a one-line reason when it cannot be read, or
 * the byte offset where it stops being UTF-8), JSON with the line and column of a syntax error, and a
 * design through the same parser as the app.
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AppError, fail, ok, type Result } from '../../src-shared/errors.ts';
import { messageAfterPath, type Problem, validateDesign } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { decodeUtf8Strict, describeUtf8Failure } from '../../src-shared/text/index.ts';
import { checkDesign } from '../files/design-file.ts';
import { findJsonErrorOffset, lineAndColumn } from '../files/json-error-position.ts';
import { errorLine } from './io.ts';

const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'no such file (a part of the path is not a folder)',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/**
 * The file's text, or one line saying why there is none: `cannot read "<file>": <reason>`, or
 * `"<file>" is not UTF-8 text: byte offset N (line L, column C): <bytes>, <why>` (bytes are decoded
 * strictly: a bad byte is an error, never a silent U+FFFD). `file` is shown as typed, read relative to `cwd`.
 * With `limit`, a file larger than `limit.maxBytes` is refused from its size, before it is read:
 * `"<file>" is too large …: N bytes; expected at most <limit.shown> (<limit.why>)`. (The caller words
 * the maximum, so that `check` and `cost` load no import code.)
 */
export async function readText(file: string, cwd: string, limit?: { maxBytes: number; shown: string; what: string; why: string }): Promise<Result<string, string>> {
  let bytes: Uint8Array;
  try {
    const handle = await open(resolve(cwd, file), 'r');
    try {
      const { size } = await handle.stat();
      if (limit && size > limit.maxBytes) return fail([`"${file}" is too large ${limit.what}: ${size} bytes; expected at most ${limit.shown} (${limit.why}).`]);
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const reason = (code && FS_REASONS[code]) ?? (error instanceof Error ? error.message : String(error));
    return fail([`cannot read "${file}": ${reason}`]);
  }
  const decoded = decodeUtf8Strict(bytes);
  if (!decoded.ok) return fail([`"${file}" is not UTF-8 text: ${describeUtf8Failure(bytes, decoded)}; expected a file saved as UTF-8.`]);
  return ok(decoded.text);
}

/**
 * V8's reason without the parts the line and column replace: its quote of the text (which spans
 * lines: `Unexpected token ',', "{\n  "a": ,\n}" is not valid JSON`, cut with `...` on a long text)
 * and its character position. V8 keeps the message short, whatever the text's length.
 */
function jsonReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '')
    .replace(/ (?:in JSON )?at position \d+(?: \(line \d+ column \d+\))?/, '')
    .replace(/\.?$/, '.');
}

/** Parses JSON text; the error is one line naming the file and, where it can, the line and column. */
export function parseJson(text: string, file: string): Result<unknown, string> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return ok(JSON.parse(body) as unknown);
  } catch (error) {
    const where = errorPosition(body);
    return fail([`"${file}" is not valid JSON${where ? ` (line ${where.line}, column ${where.column})` : ''}: ${jsonReason(error)}`]);
  }
}

/**
 * The line and column of the first syntax error, when the scanner can find it. The scanner recurses
 * once per nesting level, so text nested deeper than the stack allows (`[[[[…` a million times) is
 * reported without a position rather than crashing the command.
 */
function errorPosition(body: string): { line: number; column: number } | undefined {
  try {
    const offset = findJsonErrorOffset(body);
    return offset === undefined ? undefined : lineAndColumn(body, offset);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * A design file read for a command:
 * - `design`: the shape is right (DynamoDB's rules are not checked yet; run `validateDesign`);
 * - `invalid`: a Keyplan design whose shape is broken, with every problem and its path;
 * - `unreadable`: no design at all (missing file, not JSON, not a Keyplan design, a newer format).
 */
export type DesignInput =
  | { kind: 'design'; design: Design }
  | { kind: 'invalid'; problems: Problem[] }
  | { kind: 'unreadable'; message: string };

/**
 * Reads and parses a design file with the app's own file checks (`checkDesign`: migration, shape,
 * the file error codes). The JSON is parsed here, for a one-line syntax error.
 */
export async function readDesign(file: string, cwd: string): Promise<DesignInput> {
  const text = await readText(file, cwd);
  if (!text.ok) return { kind: 'unreadable', message: text.errors.join(' ') };
  const json = parseJson(text.value, file);
  if (!json.ok) return { kind: 'unreadable', message: json.errors.join(' ') };
  try {
    return { kind: 'design', design: checkDesign(json.value, file, 'cannot be opened') };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'file.invalidDesign' && Array.isArray(error.details) && error.details.length > 0) {
      return { kind: 'invalid', problems: error.details as Problem[] };
    }
    return { kind: 'unreadable', message: error.message };
  }
}

/**
 * Reads a design a command can work on: one that opens and breaks no rule. Otherwise the error
 * lines to print, every problem with its path and a pointer to `keyplan check`; `purpose` finishes
 * "fix them to …" ("price the design").
 */
export async function readValidDesign(file: string, cwd: string, purpose: string): Promise<Result<Design, string>> {
  const input = await readDesign(file, cwd);
  if (input.kind === 'unreadable') return fail([errorLine(input.message)]);
  const problems = input.kind === 'design' ? validateDesign(input.design) : input.problems;
  if (input.kind === 'design' && problems.length === 0) return ok(input.design);
  const count = problems.length;
  return fail([
    ...problems.map((p) => errorLine(`${file}: ${problemLine(p)}`)),
    errorLine(`"${file}" has ${count} problem${count === 1 ? '' : 's'}; fix ${count === 1 ? 'it' : 'them'} to ${purpose} (see "keyplan check ${file}").`),
  ]);
}

/**
 * `path: message`, the way problems are listed; a message that already starts with its path (`path: …`,
 * or a sentence about it, `path is …`) is not prefixed again.
 */
export function problemLine(problem: Pick<Problem, 'path' | 'message'>): string {
  return problem.path === '' || messageAfterPath(problem) !== problem.message ? problem.message : `${problem.path}: ${problem.message}`;
}
