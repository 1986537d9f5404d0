/**
 * Reading and writing one design file: bytes → JSON → `parseDesignStructure`, and back. Every failure
 * becomes an `AppError` whose message names the file; nothing here changes a file that failed to read.
 *
 * Only the shape is enforced here (plus the format version): a design that breaks a DynamoDB rule is
 * work in progress, which opens and saves like any document and has its problems shown in the editor.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { AppError } from '../../src-shared/errors.ts';
import { formatBytes, formatCount } from '../../src-shared/numbers/index.ts';
import { MAX_DESIGN_BYTES, FORMAT_VERSION, type Design, parseDesignStructure } from '../../src-shared/model/index.ts';
import type { FileVersion } from '../../src-shared/ipc/index.ts';
import type { Problem } from '../../src-shared/model/index.ts';
import { decodeUtf8Strict, describeUtf8Failure } from '../../src-shared/text/index.ts';
import { toFileError } from './fs-errors.ts';
import { findJsonErrorOffset, lineAndColumn } from './json-error-position.ts';

export interface ReadDesign {
  design: Design;
  /** The file's format version when it was older than this build's and migrated on read. */
  migratedFrom?: number;
}

/** The version of the bytes read: modification time and content hash. */
export function versionOf(bytes: Uint8Array, mtimeMs: number): FileVersion {
  return { mtimeMs, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The version of the file at `path` now, or null when there is none. Errors: `file.io`. */
export async function readFileVersion(path: string, label: string): Promise<FileVersion | null> {
  try {
    // stat before reading: a write between the two shows as a newer hash with an older time, never the reverse.
    const info = await stat(path);
    return versionOf(await readFile(path), info.mtimeMs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw toFileError(error, label, 'read');
  }
}

/**
 * `file.tooLarge` for a design file of `bytes` over {@link MAX_DESIGN_BYTES} (details: `{ bytes,
 * maxBytes }`); `consequence` says what did not happen ("cannot be opened", "was not saved").
 */
export function tooLargeError(label: string, bytes: number, consequence: string): AppError {
  return new AppError({
    code: 'file.tooLarge',
    message: `"${label}" ${consequence}: it is ${formatCount(bytes)} bytes, and Keyplan opens and saves designs of at most ${formatBytes(MAX_DESIGN_BYTES)} (${formatCount(MAX_DESIGN_BYTES)} bytes).`,
    details: { bytes, maxBytes: MAX_DESIGN_BYTES },
  });
}

/**
 * Reads and parses a design file. Errors: `file.tooLarge` (over {@link MAX_DESIGN_BYTES}, refused
 * before it is read), `file.notFound`, `file.io`, `file.notUtf8` (details: offset,
 * line, column), `file.notJson` (details: line, column), `file.notDesign`, `file.unsupportedVersion`, `file.invalidDesign` (details: Problem[]).
 * `label` is how the message names the file.
 */
export async function readDesignFile(path: string, label: string): Promise<ReadDesign & { version: FileVersion }> {
  let bytes: Buffer;
  let mtimeMs: number;
  try {
    const info = await stat(path);
    mtimeMs = info.mtimeMs;
    if (info.size > MAX_DESIGN_BYTES) throw tooLargeError(label, info.size, 'cannot be opened');
    bytes = await readFile(path);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw toFileError(error, label, 'read');
  }
  // Grown between the stat and the read: refused all the same.
  if (bytes.length > MAX_DESIGN_BYTES) throw tooLargeError(label, bytes.length, 'cannot be opened');
  // Bytes that are not UTF-8 would open with U+FFFD in place of what the user wrote: refuse them instead.
  const decoded = decodeUtf8Strict(bytes);
  if (!decoded.ok) {
    throw new AppError({
      code: 'file.notUtf8',
      message: `"${label}" is not UTF-8 text at ${describeUtf8Failure(bytes, decoded)}. Design files are UTF-8 JSON; nothing was changed.`,
      details: { offset: decoded.offset, line: decoded.line, column: decoded.column },
    });
  }
  return { ...parseDesignText(decoded.text, label), version: versionOf(bytes, mtimeMs) };
}

/** Parses the text of a design file; the same errors as `readDesignFile` except the fs ones. */
export function parseDesignText(text: string, label: string): ReadDesign {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw notJsonError(text, error, label);
  }
  const design = checkDesign(json, label, 'cannot be opened');
  const version = (json as { formatVersion?: unknown }).formatVersion;
  return typeof version === 'number' && version < FORMAT_VERSION ? { design, migratedFrom: version } : { design };
}

/**
 * Runs `parseDesignStructure` and maps its problems to file errors: a newer format version →
 * `file.unsupportedVersion`; not a design at all → `file.notDesign`; anything else →
 * `file.invalidDesign` with every problem in `details`.
 */
export function checkDesign(input: unknown, label: string, consequence: string): Design {
  const result = parseDesignStructure(input);
  if (result.ok) return result.value;
  const problems: Problem[] = result.errors;
  const first = problems[0];
  // These two carry no `details`: their one problem is already the whole message, and the UI lists
  // `details` under the message, which would say the same sentence twice.
  const version = problems.find((p) => p.code === 'model.unsupportedVersion');
  if (version) {
    throw new AppError({
      code: 'file.unsupportedVersion',
      message: `"${label}" ${consequence}: ${version.message} A newer Keyplan can open it.`,
      path: version.path,
    });
  }
  const notDesign = problems.find((p) => p.code === 'model.notKeyplanDesign' || p.code === 'model.notObject');
  if (notDesign) {
    throw new AppError({
      code: 'file.notDesign',
      message: `"${label}" ${consequence}: ${notDesign.message}`,
    });
  }
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  throw new AppError({
    code: 'file.invalidDesign',
    message: `"${label}" ${consequence}: ${first?.path ? `${first.path}: ` : ''}${first?.message ?? 'the design is invalid.'}${more}`,
    details: problems,
  });
}

/** The JSON text a design is saved as: two-space indented, with a final newline. */
export function serializeDesign(design: Design): string {
  return `${JSON.stringify(design, null, 2)}\n`;
}

function notJsonError(text: string, error: unknown, label: string): AppError {
  // Node quotes the whole text in its message ("… "{\n  "a": ,\n}" is not valid JSON"): keep the reason only.
  const reason = (error instanceof Error ? error.message : String(error))
    .replace(/, "[\s\S]*" is not valid JSON$/, '')
    .replace(/ in JSON at position \d+( \(line \d+ column \d+\))?$/, '')
    .trim();
  const offset = findJsonErrorOffset(text);
  const where = offset === undefined ? undefined : lineAndColumn(text, offset);
  return new AppError({
    code: 'file.notJson',
    message: `"${label}" is not valid JSON${where ? ` (line ${where.line}, column ${where.column})` : ''}: ${reason}.`,
    ...(where ? { details: where } : {}),
  });
}
