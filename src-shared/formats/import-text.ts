/**
 * The text of a file the user imports (a NoSQL Workbench model or a Keyplan design), from its bytes.
 * Bytes that are not UTF-8 are refused with the byte offset of the first bad sequence, instead of the
 * silent U+FFFD replacement of `File.text()` or `Buffer.toString('utf8')`: JSON exchanged between
 * systems is UTF-8 (RFC 8259, section 8.1), so such a file is not JSON text.
 */
import { fail, ok, type Result } from '../errors.ts';
import type { Problem } from '../model/index.ts';
import { decodeUtf8Strict, describeUtf8Failure } from '../text/index.ts';

/**
 * Decodes an imported file's bytes as strict UTF-8. Error: `file.notUtf8` at path `''` (the code
 * opening a design file gives too), whose message names `source` and the byte offset (with line,
 * column and the bytes), and whose `details` are `{ offset, line, column, reason }`.
 *
 * @example
 * const text = decodeImportText(new Uint8Array(await file.arrayBuffer()), file.name);
 * const reading = text.ok ? readImport(text.value, file.name) : { source: file.name, problems: text.errors };
 */
export function decodeImportText(bytes: Uint8Array, source: string): Result<string, Problem> {
  const decoded = decodeUtf8Strict(bytes);
  if (decoded.ok) return ok(decoded.text);
  const where = describeUtf8Failure(bytes, decoded);
  return fail([
    {
      code: 'file.notUtf8',
      path: '',
      message: `${source} is not UTF-8 text, so it is not JSON: ${where}. Expected a NoSQL Workbench model or a Keyplan design saved as UTF-8.`,
      found: where,
      expected: 'UTF-8 text',
      details: { offset: decoded.offset, line: decoded.line, column: decoded.column, reason: decoded.reason },
    },
  ]);
}
