/**
 * Reading a CloudFormation template's text: JSON when its first character (after blanks) is `{`,
 * otherwise YAML 1.2 with CloudFormation's short-form tags (`!Ref`, `!Sub`, `!GetAtt` …), each read as
 * its long form (`{ "Fn::Sub": … }`). A text that does not parse is a `cloudformation.syntax` problem
 * with its line and column. A text larger than CloudFormation's own quota, nested deeper than
 * `MAX_IMPORT_DEPTH`, or whose YAML aliases would more than double it, is refused before it can
 * exhaust the stack, the heap or the importer's time (the bounds are listed in docs/limits.md).
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/template-formats.html
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
 */
import { Composer, isAlias, isNode, Pair, Parser, YAMLParseError, Scalar, visit, YAMLMap, type CollectionTag, type CST, type Document, type ScalarTag } from 'yaml';
import type { Problem } from '../../model/index.ts';
import { quote } from '../../model/index.ts';
import { MAX_IMPORT_DEPTH, tooDeepProblem, tooLargeProblem } from '../common/bounds.ts';
import type { ImportNote } from '../common/import-types.ts';
import { aliasExpansion, deepTokenOffset, duplicateKeyOffset, MAX_YAML_DEPTH, MIN_ALIAS_VALUES, yamlDepth } from './yaml-bounds.ts';

/**
 * The largest template read, in bytes: CloudFormation's quota for a template body stored in Amazon S3
 * (1 MB), so every template CloudFormation deploys is read. A 48 MB YAML scalar cost 2.9 GB to parse.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html
 */
export const MAX_TEMPLATE_BYTES = 1024 * 1024;
/** How many times a YAML document may expand its aliases (the yaml package's guard against "billion laughs" documents). */
const MAX_ALIAS_COUNT = 100;
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
 * The first YAML document of a text's syntax tree, as the yaml package's `parseDocument` makes it
 * (a second document is an error), with CloudFormation's tags. `tokens` is emptied as it is composed.
 */
function composeDocument(tokens: CST.Token[], length: number): Document {
  function* drain(): Generator<CST.Token> {
    for (let token = tokens.shift(); token !== undefined; token = tokens.shift()) yield token;
  }
  // Keys are checked for duplicates by `duplicateKeyOffset`: the yaml package compares each key with
  // every key before it, and a map of 20,000 keys cost 2.3 s of CPU.
  const composer = new Composer({ customTags: cloudFormationTags(), logLevel: 'error', uniqueKeys: false });
  let doc: Document | undefined;
  for (const composed of composer.compose(drain(), true, length)) {
    if (!doc) doc = composed;
    else {
      doc.errors.push(new YAMLParseError([composed.range[0], composed.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'));
      break;
    }
  }
  // compose(…, true) always ends with a document, empty for an empty text.
  return doc!;
}

function parseYaml(text: string): { ok: true; value: ParsedText } | { ok: false; errors: Problem[] } {
  const expected = 'YAML text (https://yaml.org/spec/1.2.2/) with CloudFormation short-form tags';
  const deepToken = deepTokenOffset(text);
  // The text's syntax tree is built once: its depth is measured on it, then it is composed into the
  // document (as the yaml package's parseDocument composes it), each part released once composed.
  const tokens = deepToken === undefined ? [...new Parser().parse(text)] : [];
  const nesting = deepToken === undefined ? yamlDepth(tokens) : { depth: Infinity, offset: deepToken };
  if (nesting.depth > MAX_YAML_DEPTH) {
    const { line, column } = lineColumnAt(text, nesting.offset);
    return { ok: false, errors: [syntaxProblem('YAML', `the text is nested deeper than ${MAX_YAML_DEPTH} levels`, line, column, `collections nested deeper than ${MAX_YAML_DEPTH} levels`, `at most ${MAX_YAML_DEPTH} levels`)] };
  }
  let doc: Document;
  try {
    doc = composeDocument(tokens, text.length);
  } catch {
    return { ok: false, errors: [syntaxProblem('YAML', 'the text cannot be read as YAML', 1, 1, 'text the YAML parser stops on', expected)] };
  }
  if (doc.errors.length > 0) {
    const errors = doc.errors.slice(0, MAX_SYNTAX_PROBLEMS).map((e) => {
      const { line, column } = lineColumnAt(text, e.pos[0]);
      const reason = (e.message.split(/ at line \d+, column \d+/)[0] ?? e.message).trim();
      return syntaxProblem('YAML', reason.charAt(0).toLowerCase() + reason.slice(1), line, column, foundAt(text, e.pos[0]), expected);
    });
    return { ok: false, errors };
  }
  const duplicate = duplicateKeyOffset(doc);
  if (duplicate !== undefined) {
    const { line, column } = lineColumnAt(text, duplicate);
    return { ok: false, errors: [syntaxProblem('YAML', 'map keys must be unique', line, column, foundAt(text, duplicate), expected)] };
  }
  const expansion = aliasExpansion(doc);
  if (expansion) {
    const { line, column } = lineColumnAt(text, expansion.offset);
    const found = `aliases that repeat ${expansion.added} values`;
    const expected = `aliases that repeat at most ${expansion.allowed} values (as many as the text writes, or ${MIN_ALIAS_VALUES} in a small template)`;
    const message = `The template's YAML aliases repeat ${expansion.added} values, more than the ${expansion.written} its text writes; the alias at line ${line}, column ${column} goes past the ${expansion.allowed} allowed. Write the repeated parts out, or import a template without aliases.`;
    return { ok: false, errors: [{ code: 'import.aliasExpansion', path: '', message, found, expected, details: { line, column, added: expansion.added, written: expansion.written, allowed: expansion.allowed } }] };
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
    const { line, column } = lineColumnAt(text, w.pos[0]);
    const where = `Line ${line}, column ${column}`;
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

/**
 * The template's root value, or its problems: a text larger than `MAX_TEMPLATE_BYTES`
 * (`import.tooLarge`), a syntax error (`cloudformation.syntax`, with its line and column), or a value
 * nested deeper than `MAX_IMPORT_DEPTH` levels (`import.tooDeep`, at its path). A leading byte order
 * mark is read past.
 */
export function parseTemplateText(text: string): { ok: true; value: ParsedText } | { ok: false; errors: Problem[] } {
  const tooLarge = tooLargeProblem(text, 'The template', MAX_TEMPLATE_BYTES, "CloudFormation's quota for a template in Amazon S3");
  if (tooLarge) return { ok: false, errors: [tooLarge] };
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const parsed = /^[ \t\r\n]*\{/.test(body) ? parseJson(body) : parseYaml(body);
  if (!parsed.ok) return parsed;
  const tooDeep = tooDeepProblem(parsed.value.root, 'The template');
  return tooDeep ? { ok: false, errors: [tooDeep] } : parsed;
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
