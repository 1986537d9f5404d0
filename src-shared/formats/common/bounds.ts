/**
 * The bounds every import keeps, so that a hostile file costs time and memory in proportion to its
 * size and is refused with a message that says why, instead of exhausting the stack or the heap:
 * - `MAX_IMPORT_BYTES`: the largest text any import reads (a model with sample data is a few MB);
 * - `MAX_IMPORT_DEPTH`: how deep objects and lists may nest. DynamoDB nests an item's attributes at
 *   most 32 levels deep, and each level is two in JSON (`{"M": {…}}`), so a NoSQL Workbench model's
 *   sample items stay under 70; a template or a table description nests a dozen levels at most.
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-attributes
 * The CloudFormation reader adds its own bounds for YAML text (size, alias expansion), in
 * `../cloudformation/template-text.ts`. All of them are listed in docs/limits.md.
 */
import type { Problem } from '../../model/index.ts';
import { joinPath } from '../../model/index.ts';
import { formatByteLimit } from '../../numbers/index.ts';

/** The largest text an import reads, in bytes (UTF-8): 20 MiB. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** How many levels objects and lists may nest in an imported value (the root is level 1). */
export const MAX_IMPORT_DEPTH = 100;

/** Codes of the problems the bounds raise. */
export type ImportBoundsErrorCode = 'import.tooLarge' | 'import.tooDeep' | 'import.aliasExpansion';

/**
 * The UTF-8 length of `text` in bytes, counted without allocating: a file's size on disk as the
 * user sees it, whatever the text's characters.
 */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** A byte count for messages: `20 MiB`, `1 MB`, `1.5 MB` (src-shared/numbers writes it). */
export const describeBytes = formatByteLimit;

/**
 * The problem of a text longer than `maxBytes` (`import.tooLarge`, path `''`), or undefined. `what`
 * names the text in the message (`The file`, `The template`); `why` says where the maximum comes from.
 * The length is checked before anything else reads the text, so a refused text costs one pass.
 */
export function tooLargeProblem(text: string, what: string, maxBytes = MAX_IMPORT_BYTES, why = 'the most Keyplan imports'): Problem | undefined {
  // A UTF-16 code unit is at most 3 UTF-8 bytes, and at least 1: count only when it can matter.
  if (text.length * 3 <= maxBytes) return undefined;
  const bytes = text.length > maxBytes ? Math.max(text.length, maxBytes + 1) : utf8Bytes(text);
  if (bytes <= maxBytes) return undefined;
  const found = text.length > maxBytes ? `more than ${describeBytes(maxBytes)}` : `${bytes} bytes`;
  const expected = `at most ${describeBytes(maxBytes)} (${why})`;
  return { code: 'import.tooLarge', path: '', message: `${what} is too large to import: ${found}; expected ${expected}.`, found, expected, details: { maxBytes } };
}

/** One value on the walk of `tooDeepProblem`: its key in its parent, so that a path is built only when one is reported. */
interface Step {
  value: unknown;
  key: string | number | undefined;
  parent: Step | undefined;
  depth: number;
}

function pathOf(step: Step, prefix: string): string {
  const keys: Array<string | number> = [];
  for (let s: Step | undefined = step; s?.key !== undefined; s = s.parent) keys.push(s.key);
  return keys.reverse().reduce<string>((path, key) => joinPath(path, key), prefix);
}

/**
 * Where a parsed value first nests objects or lists deeper than `maxDepth` levels (the root is level
 * 1): the problem (`import.tooDeep`) at the path of the first value past the limit, in document
 * order, or undefined. `what` names the value in the message (`The template`). Iterative, so any
 * depth is measured without recursion; each object is visited once, so a value that YAML aliases
 * share (or one that refers to itself) costs no more than its size. `prefix` starts every path
 * (`companions[0]`).
 */
export function tooDeepProblem(root: unknown, what: string, maxDepth = MAX_IMPORT_DEPTH, prefix = ''): Problem | undefined {
  const seen = new Set<object>();
  const stack: Step[] = [{ value: root, key: undefined, parent: undefined, depth: 1 }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { value, depth } = step;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (depth > maxDepth) {
      const path = pathOf(step, prefix);
      const found = `objects and lists nested deeper than ${maxDepth} levels`;
      const expected = `at most ${maxDepth} levels of objects and lists`;
      // The message starts with the path, which the CLI and the import dialog show once, beside it.
      return { code: 'import.tooDeep', path, message: `${path}: ${what} is nested deeper than ${maxDepth} levels here; expected ${expected}.`, found, expected, details: { maxDepth } };
    }
    // Pushed in reverse, so that values are visited in document order.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i], key: i, parent: step, depth: depth + 1 });
    } else {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let i = keys.length - 1; i >= 0; i -= 1) stack.push({ value: record[keys[i]!], key: keys[i]!, parent: step, depth: depth + 1 });
    }
  }
  return undefined;
}
