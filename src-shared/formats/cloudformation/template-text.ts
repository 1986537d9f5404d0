/**
 * Reading a CloudFormation template's text: JSON when its first character (after blanks) is `{`,
 * otherwise YAML 1.2 with CloudFormation's short-form tags (`!Ref`, `!Sub`, `!GetAtt` …), each read as
 * its long form (`{ "Fn::Sub": … }`). A text that does not parse is a `cloudformation.syntax` problem
 * with its line and column; YAML nested too deep or with too many aliases is refused before it can
 * exhaust the stack or memory.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/template-formats.html
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
 */
import { isAlias, isNode, Pair, parseDocument, Parser, Scalar, visit, YAMLMap, type CollectionTag, type CST, type Document, type ScalarTag } from 'yaml';
import type { Problem } from '../../model/index.ts';
import { quote } from '../../model/index.ts';
import type { ImportNote } from '../common/import-types.ts';

/** How many times a YAML document may expand its aliases (the yaml package's guard against "billion laughs" documents). */
const MAX_ALIAS_COUNT = 100;
/**
 * How deep YAML collections may nest. The yaml package builds nested collections by recursion; a text
 * nested hundreds deep exhausts the stack, and V8 can even abort the process when that happens while
 * it compiles a regular expression. A template nests a dozen levels at most.
 */
const MAX_YAML_DEPTH = 100;
/** Syntax errors reported at most; one is usually enough to find the fault. */
const MAX_SYNTAX_PROBLEMS = 10;

/**
 * CloudFormation's short-form YAML tags and the long form each stands for.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
 */
const SHORT_FORMS: ReadonlyArray<[tag: string, long: string]> = [
  ['!Ref', 'Ref'],
  ['!Condition', 'Condition'],
  ['!Sub', 'Fn::Sub'],
  ['!GetAtt', 'Fn::GetAtt'],
  ['!Join', 'Fn::Join'],
  ['!Select', 'Fn::Select'],
  ['!Split', 'Fn::Split'],
  ['!If', 'Fn::If'],
  ['!Equals', 'Fn::Equals'],
  ['!And', 'Fn::And'],
  ['!Or', 'Fn::Or'],
  ['!Not', 'Fn::Not'],
  ['!FindInMap', 'Fn::FindInMap'],
  ['!ImportValue', 'Fn::ImportValue'],
  ['!Base64', 'Fn::Base64'],
  ['!Cidr', 'Fn::Cidr'],
  ['!GetAZs', 'Fn::GetAZs'],
  ['!Transform', 'Fn::Transform'],
];

/** One YAML tag per short form and node kind: a scalar, a sequence or a mapping becomes `{ long: value }`. */
function cloudFormationTags(): Array<ScalarTag | CollectionTag> {
  const tags: Array<ScalarTag | CollectionTag> = [];
  for (const [tag, long] of SHORT_FORMS) {
    // `!GetAtt Table.Arn` is the resource and the attribute joined by the first dot.
    const scalar = (value: string): unknown => {
      if (long !== 'Fn::GetAtt') return { [long]: value };
      const dot = value.indexOf('.');
      return { [long]: dot < 0 ? [value] : [value.slice(0, dot), value.slice(dot + 1)] };
    };
    tags.push({ tag, resolve: scalar });
    for (const collection of ['seq', 'map'] as const) {
      tags.push({
        tag,
        collection,
        resolve: (node) => {
          const map = new YAMLMap();
          map.items.push(new Pair(new Scalar(long), node));
          return map;
        },
      });
    }
  }
  return tags;
}

/** The template's language, which decides how intrinsic functions are shown in messages. */
export type TemplateFormat = 'json' | 'yaml';

/** A parsed template: its root value, its language, and the YAML parser's warnings as notes. */
export interface ParsedText {
  root: unknown;
  format: TemplateFormat;
  notes: ImportNote[];
}

/** Line and column (from 1) of a UTF-16 offset into `text`. */
function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let k = 0; k < end; k += 1) {
    if (text.charCodeAt(k) === 10) {
      line += 1;
      start = k + 1;
    }
  }
  return { line, column: end - start + 1 };
}

function syntaxProblem(language: 'JSON' | 'YAML', reason: string, line: number, column: number, found: string, expected: string): Problem {
  return {
    code: 'cloudformation.syntax',
    path: '',
    message: `The template is not valid ${language}: ${reason} at line ${line}, column ${column}.`,
    found,
    expected,
    details: { line, column },
  };
}

/** What stands at `offset` of `text`, for a syntax message: `"}"`, or the end of the text. */
function foundAt(text: string, offset: number): string {
  if (offset >= text.length) return 'the end of the text';
  const ch = String.fromCodePoint(text.codePointAt(offset) ?? 0);
  return JSON.stringify(ch);
}

/**
 * Where JSON text first breaks the grammar of RFC 8259, and what belongs there; undefined for valid
 * JSON. Iterative (a deeply nested text cannot overflow the stack). Used for the position only:
 * `JSON.parse` reads the value, and its messages differ between engines.
 */
function jsonSyntaxError(s: string): { offset: number; expected: string } | undefined {
  let i = 0;
  const stack: Array<'{' | '['> = [];
  const skipBlanks = (): void => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i += 1;
  };
  const readString = (): { offset: number; expected: string } | undefined => {
    i += 1;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        i += 1;
        return undefined;
      }
      if (c < 0x20) return { offset: i, expected: 'a control character written as an escape (\\n, \\t, \\u0000 …) inside a string' };
      if (c === 0x5c) {
        const e = s[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) return { offset: i, expected: 'four hexadecimal digits after \\u' };
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return { offset: i, expected: 'an escape such as \\" \\\\ \\n or \\u0041' };
      } else i += 1;
    }
    return { offset: s.length, expected: 'a closing double quote' };
  };
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  let state: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    skipBlanks();
    if (state === 'value') {
      const c = s[i];
      if (c === '{' || c === '[') {
        stack.push(c);
        i += 1;
        skipBlanks();
        if (s[i] === (c === '{' ? '}' : ']')) {
          stack.pop();
          i += 1;
          state = 'after';
        } else state = c === '{' ? 'key' : 'value';
        continue;
      }
      if (c === '"') {
        const bad = readString();
        if (bad) return bad;
        state = 'after';
        continue;
      }
      number.lastIndex = i;
      const m = number.exec(s);
      if (m) {
        i += m[0].length;
        state = 'after';
        continue;
      }
      const literal = ['true', 'false', 'null'].find((w) => s.startsWith(w, i));
      if (literal) {
        i += literal.length;
        state = 'after';
        continue;
      }
      return { offset: i, expected: 'a value (an object, a list, a string in double quotes, a number, true, false or null)' };
    }
    if (state === 'key') {
      if (s[i] !== '"') return { offset: i, expected: 'a property name in double quotes' };
      const bad = readString();
      if (bad) return bad;
      skipBlanks();
      if (s[i] !== ':') return { offset: i, expected: '":" after the property name' };
      i += 1;
      state = 'value';
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) return i < s.length ? { offset: i, expected: 'the end of the text after the template' } : undefined;
    if (s[i] === ',') {
      i += 1;
      state = top === '{' ? 'key' : 'value';
      continue;
    }
    if (s[i] === (top === '{' ? '}' : ']')) {
      stack.pop();
      i += 1;
      continue;
    }
    return { offset: i, expected: top === '{' ? '"," or "}" after a property value' : '"," or "]" after a list item' };
  }
}

function parseJson(text: string): { ok: true; value: ParsedText } | { ok: false; errors: Problem[] } {
  try {
    return { ok: true, value: { root: JSON.parse(text) as unknown, format: 'json', notes: [] } };
  } catch {
    const at = jsonSyntaxError(text) ?? { offset: 0, expected: 'JSON text' };
    const { line, column } = lineColumnAt(text, at.offset);
    const found = foundAt(text, at.offset);
    return { ok: false, errors: [syntaxProblem('JSON', `expected ${at.expected}, found ${found}`, line, column, found, at.expected)] };
  }
}

/** The first alias of `doc` whose anchor is not set before it (else its first alias): where `toJS` failed. */
function failedAliasOffset(doc: Document): number {
  const anchors = new Set<string>();
  let first: number | undefined;
  let missing: number | undefined;
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      first ??= node.range?.[0];
      if (!anchors.has(node.source)) {
        missing = node.range?.[0];
        return visit.BREAK;
      }
    } else if (isNode(node) && node.anchor) anchors.add(node.anchor);
    return undefined;
  });
  return missing ?? first ?? 0;
}

/**
 * The deepest nesting of collections in a YAML text, and where it first goes past `MAX_YAML_DEPTH`,
 * found without recursion from the yaml package's concrete syntax tree.
 */
function yamlDepth(text: string): { depth: number; offset: number } {
  let depth = 0;
  let offset = Infinity;
  for (const token of new Parser().parse(text)) {
    const stack: Array<[CST.Token | null | undefined, number]> = [[token, 0]];
    while (stack.length > 0) {
      const [t, d] = stack.pop()!;
      if (!t) continue;
      depth = Math.max(depth, d);
      if (d > MAX_YAML_DEPTH) {
        offset = Math.min(offset, t.offset);
        continue;
      }
      if (t.type === 'document') stack.push([t.value, d]);
      else if (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection') {
        for (const item of t.items) stack.push(['key' in item ? item.key : undefined, d + 1], [item.value, d + 1]);
      }
    }
  }
  return { depth, offset: Number.isFinite(offset) ? offset : 0 };
}

function parseYaml(text: string): { ok: true; value: ParsedText } | { ok: false; errors: Problem[] } {
  const expected = 'YAML text (https://yaml.org/spec/1.2.2/) with CloudFormation short-form tags';
  const nesting = yamlDepth(text);
  if (nesting.depth > MAX_YAML_DEPTH) {
    const { line, column } = lineColumnAt(text, nesting.offset);
    return { ok: false, errors: [syntaxProblem('YAML', `the text nests collections more than ${MAX_YAML_DEPTH} deep`, line, column, `collections nested more than ${MAX_YAML_DEPTH} deep`, `at most ${MAX_YAML_DEPTH} levels`)] };
  }
  let doc: Document;
  try {
    doc = parseDocument(text, { customTags: cloudFormationTags(), logLevel: 'error', uniqueKeys: true });
  } catch {
    return { ok: false, errors: [syntaxProblem('YAML', 'the text cannot be read as YAML', 1, 1, 'text the YAML parser stops on', expected)] };
  }
  if (doc.errors.length > 0) {
    const errors = doc.errors.slice(0, MAX_SYNTAX_PROBLEMS).map((e) => {
      const position = e.linePos?.[0] ?? lineColumnAt(text, e.pos[0]);
      const line = 'line' in position ? position.line : 1;
      const column = 'col' in position ? position.col : 'column' in position ? position.column : 1;
      const reason = (e.message.split(/ at line \d+, column \d+/)[0] ?? e.message).trim();
      return syntaxProblem('YAML', reason.charAt(0).toLowerCase() + reason.slice(1), line, column, foundAt(text, e.pos[0]), expected);
    });
    return { ok: false, errors };
  }
  let root: unknown;
  try {
    root = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const { line, column } = lineColumnAt(text, failedAliasOffset(doc));
    const why = error instanceof Error && /alias count/i.test(error.message) ? `its aliases expand more than ${MAX_ALIAS_COUNT} times` : 'an alias names no anchor set before it';
    return { ok: false, errors: [syntaxProblem('YAML', why, line, column, foundAt(text, failedAliasOffset(doc)), expected)] };
  }
  const notes: ImportNote[] = doc.warnings.map((w) => {
    const position = w.linePos?.[0];
    const where = position ? `Line ${position.line}, column ${position.col}` : 'The template';
    const tag = /Unresolved tag: (\S+)/.exec(w.message)?.[1];
    return {
      kind: 'warning',
      path: '',
      message: tag
        ? `${where}: the tag ${quote(tag)} is not a CloudFormation intrinsic function; its value was read as if untagged.`
        : `${where}: ${(w.message.split(/ at line \d+, column \d+/)[0] ?? w.message).trim()}.`,
    };
  });
  return { ok: true, value: { root, format: 'yaml', notes } };
}

/** The template's root value, or its syntax problems. A leading byte order mark is read past. */
export function parseTemplateText(text: string): { ok: true; value: ParsedText } | { ok: false; errors: Problem[] } {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return /^[ \t\r\n]*\{/.test(body) ? parseJson(body) : parseYaml(body);
}

// ---------------------------------------------------------------------------------------------
// Whether a text is a template
// ---------------------------------------------------------------------------------------------

/**
 * A resource type: `AWS::DynamoDB::Table`, `AWS::Serverless::Function`, `Custom::SeedItems`, a
 * registry type `Vendor::Service::Resource` (letters and digits, then `::`-separated names).
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/resources-section-structure.html
 */
const RESOURCE_TYPE = /^[A-Za-z0-9]+(?:::[\w@-]+)+$/;

/**
 * Whether a parsed document is a CloudFormation template: it has `AWSTemplateFormatVersion`, or a
 * `Resources` map with at least one resource whose `Type` is a resource type. A document that merely
 * has a `Resources` key is not one.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/template-anatomy.html
 */
export function isTemplate(root: unknown): boolean {
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return false;
  const template = root as Record<string, unknown>;
  if (Object.hasOwn(template, 'AWSTemplateFormatVersion')) return true;
  const resources = template.Resources;
  if (typeof resources !== 'object' || resources === null || Array.isArray(resources)) return false;
  return Object.values(resources).some((r) => typeof r === 'object' && r !== null && typeof (r as { Type?: unknown }).Type === 'string' && RESOURCE_TYPE.test((r as { Type: string }).Type));
}

/** Lines that only a template whose text does not parse still shows: a top-level section, and a resource's Type. */
const VERSION_LINE = /^["']?AWSTemplateFormatVersion["']?[ \t]*:/m;
const RESOURCES_LINE = /^["']?Resources["']?[ \t]*:/m;
const TYPE_LINE = /\bType["']?[ \t]*:[ \t]*["']?[A-Za-z0-9]+::[\w@-]/;

/**
 * Whether a text (JSON or YAML) is a CloudFormation template (see `isTemplate`). A text that does not
 * parse is taken for one when it has `AWSTemplateFormatVersion:` at column 0, or `Resources:` at
 * column 0 and a resource `Type`, so that importing it says where its syntax breaks.
 */
export function isTemplateText(text: string): boolean {
  const parsed = parseTemplateText(text);
  if (parsed.ok) return isTemplate(parsed.value.root);
  return VERSION_LINE.test(text) || (RESOURCES_LINE.test(text) && TYPE_LINE.test(text));
}
