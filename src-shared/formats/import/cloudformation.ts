/**
 * CloudFormation import: the DynamoDB tables of a template (YAML or JSON) as a Keyplan design, with
 * notes on what was guessed, skipped and dropped. The reverse of `../cloudformation.ts`.
 *
 * - Text: a template whose first character (after blanks) is `{` is JSON; any other is YAML 1.2 with
 *   CloudFormation's short-form tags (`!Ref`, `!Sub`, `!GetAtt`, `!If` …), each read as its long
 *   form (`{ "Fn::Sub": … }`, `{ "Ref": … }`).
 *   https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/template-formats.html
 *   https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
 * - Tables: every `AWS::DynamoDB::Table` and `AWS::DynamoDB::GlobalTable` becomes a table, in the
 *   template's order. A template holds no entities or access patterns: each table has none, and a
 *   `dropped` note says so.
 *   https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html
 *   https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-globaltable.html
 * - Values: a literal is read as written; CloudFormation's own conversions are accepted (a number
 *   written as text, `"true"` for a Boolean). An intrinsic function is worked out where a template
 *   decides it: `Ref` to a parameter gives its `Default`; `Fn::Sub`, `Fn::Join`, `Fn::Select`,
 *   `Fn::Split` and `Fn::FindInMap` over such values are computed; `Fn::If` takes its first branch.
 *   Each such value gets an `inferred` note. What only a deployment decides (pseudo parameters such
 *   as `AWS::StackName`, `Fn::GetAtt`, `Fn::ImportValue`, a parameter without a Default …) gives the
 *   setting's default, with a note naming the function; a value nothing can stand in for (a key
 *   attribute's name, provisioned capacity) is a problem.
 * - A table's name: `TableName`, or, when it is absent or known only at deployment, the resource's
 *   logical id (an `inferred` note says so).
 * - Billing: `BillingMode` absent is PROVISIONED (the resource's documented default). A provisioned
 *   GSI without `ProvisionedThroughput` gets the table's (inferred). Auto scaling comes from
 *   `AWS::ApplicationAutoScaling::ScalableTarget` resources of namespace `dynamodb` whose `ResourceId`
 *   names a table of the template (`table/<name>`, `table/<name>/index/<gsi>`, by literal name or by
 *   `Ref` through `Fn::Sub`/`Fn::Join`) and the target tracking `ScalingPolicy` on them.
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.CloudFormation.html
 * - GlobalTable: the settings of the first replica (table class, point-in-time recovery, deletion
 *   protection, Contributor Insights, tags, KMS key, read capacity and its auto scaling); write
 *   capacity from `WriteProvisionedThroughputSettings` (its `SeedCapacity`, or its minimum, is the
 *   initial capacity) or `WriteOnDemandThroughputSettings`. Other replicas are `dropped` notes that
 *   name their Region and how their settings differ.
 * - Dropped (a `dropped` note with the path): Kinesis streaming, S3 import, resource policies, GSI
 *   Contributor Insights, scaling cooldowns, `Condition` on a table, a `DeletionPolicy` or
 *   `UpdateReplacePolicy` other than `Retain` (Keyplan's export writes `Retain`, so that one is kept
 *   in effect) and other settings a design does not hold. Unknown properties are `warning` notes.
 *
 * The design is checked with `parseDesign`; a problem of its rules is reported at the template path
 * it came from (`details.designPath` keeps the design's). Pure (no node:*), deterministic, and it
 * never throws.
 */
import { isAlias, isNode, Pair, parseDocument, Parser, Scalar, visit, YAMLMap, type CollectionTag, type CST, type Document, type ScalarTag } from 'yaml';
import { fail, ok } from '../../errors.ts';
import type { Problem } from '../../model/problems.ts';
import {
  CONTRIBUTOR_INSIGHTS_MODES,
  FORMAT_VERSION,
  STREAM_VIEW_TYPES,
  TABLE_CLASSES,
  type AutoScalingRange,
  type ContributorInsights,
  type Design,
  type Encryption,
  type GlobalSecondaryIndex,
  type KeyAttribute,
  type KeyAttributeType,
  type LocalSecondaryIndex,
  type OnDemandThroughput,
  type PointInTimeRecovery,
  type Projection,
  type ProvisionedThroughput,
  type StreamViewType,
  type Table,
  type TableClass,
  type WarmThroughput,
} from '../../model/schema.ts';
import { parseDesign } from '../../model/validate.ts';
import { clipText } from '../../model/quoted-text.ts';
import { describeValue, joinPath, listOf, quote } from '../../model/validate/wording.ts';
import { uniqueName } from '../table-spec.ts';
import type { ImportNote, ImportNoteKind, ImportResult } from './types.ts';
import { mapPath, type PathMap } from './paths.ts';
import { slug as idSlug } from './ids.ts';

/** Codes of the problems `fromCloudFormation` raises, besides the `model.*` rules of the design it builds. */
export type CloudFormationErrorCode =
  | 'cloudformation.syntax'
  | 'cloudformation.notTemplate'
  | 'cloudformation.noTable'
  | 'cloudformation.schema'
  | 'cloudformation.attributeDefinition'
  | 'cloudformation.unresolved';

/** The design's name when the template is not one Keyplan exported. */
export const DEFAULT_TEMPLATE_DESIGN_NAME = 'CloudFormation template';

const TABLE_TYPE = 'AWS::DynamoDB::Table';
const GLOBAL_TABLE_TYPE = 'AWS::DynamoDB::GlobalTable';
const SCALABLE_TARGET_TYPE = 'AWS::ApplicationAutoScaling::ScalableTarget';
const SCALING_POLICY_TYPE = 'AWS::ApplicationAutoScaling::ScalingPolicy';

/** How deep intrinsic functions may nest before a value is called unreadable (a guard against cycles through YAML aliases). */
const MAX_INTRINSIC_DEPTH = 32;
/** How many times a YAML document may expand its aliases (the yaml package's guard against "billion laughs" documents). */
const MAX_ALIAS_COUNT = 100;
/**
 * How deep YAML collections may nest. The yaml package builds nested collections by recursion; a text
 * nested hundreds deep exhausts the stack, and V8 can even abort the process when that happens while
 * it compiles a regular expression. A template nests a dozen levels at most.
 */
const MAX_YAML_DEPTH = 100;
/**
 * The longest message and path a note or problem keeps: every value is quoted clipped already, but a
 * path holds the template's own keys, and a hostile 100 KB key must not make every note that large.
 */
const MAX_MESSAGE_CHARS = 2000;
const MAX_PATH_CHARS = 1000;
/** Syntax errors reported at most; one is usually enough to find the fault. */
const MAX_SYNTAX_PROBLEMS = 10;

// ---------------------------------------------------------------------------------------------
// Reading the text
// ---------------------------------------------------------------------------------------------

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

type Format = 'json' | 'yaml';

interface ParsedText {
  root: unknown;
  format: Format;
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

function parseTemplateText(text: string): { ok: true; value: ParsedText } | { ok: false; errors: Problem[] } {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return /^[ \t\r\n]*\{/.test(body) ? parseJson(body) : parseYaml(body);
}

// ---------------------------------------------------------------------------------------------
// Values and intrinsic functions
// ---------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

/** A plain object of the template (not a list, nor a Set or bytes a YAML tag may give). */
function isRecord(v: unknown): v is Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `AWS::NoValue`: the property is left out. */
const NO_VALUE: unique symbol = Symbol('AWS::NoValue');

/** What an intrinsic function gives when the template decides it, with how; or why it cannot be read. */
type Evaluation = { ok: true; value: unknown; via: string[] } | { ok: false; what: string; why: string };

/** A part of a `ResourceId`: text, or a `Ref` to a table of the template. */
type IdPart = string | { table: string };

interface Parameter {
  hasDefault: boolean;
  default: unknown;
  isList: boolean;
}

/** The long name of an intrinsic function call (`{ "Fn::Sub": … }` → `Fn::Sub`), if `v` is one. */
function intrinsicOf(v: unknown): { name: string; arg: unknown } | undefined {
  if (!isRecord(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length !== 1) return undefined;
  const name = keys[0]!;
  if (name !== 'Ref' && name !== 'Condition' && !name.startsWith('Fn::')) return undefined;
  return { name, arg: v[name] };
}

const isScalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

/** The template's parameters, mappings and resources, and how to work out intrinsic functions over them. */
class Template {
  constructor(
    readonly format: Format,
    readonly parameters: ReadonlyMap<string, Parameter>,
    readonly mappings: Json,
    readonly resources: Json,
  ) {}

  /** `Fn::Sub` → `!Sub` in a YAML template; the long name in a JSON one. */
  fnName(long: string): string {
    if (this.format === 'json') return long;
    return `!${long.replace(/^Fn::/, '')}`;
  }

  /** An intrinsic function call as the template writes it, shortly: `!Ref TableName`, `!If [IsProd, …]`, `{"Ref": "TableName"}`. */
  show(v: unknown): string {
    const fn = intrinsicOf(v);
    if (!fn) return describeValue(v);
    const isJson = this.format === 'json';
    const brief = (a: unknown, depth: number): string => {
      if (typeof a === 'string') return !isJson && /^[A-Za-z0-9:._/-]+$/.test(a) && a.length <= 80 ? a : quote(a);
      if (typeof a === 'number' || typeof a === 'boolean') return String(a);
      if (Array.isArray(a) && depth === 0) return `[${a.slice(0, 3).map((x) => brief(x, 1)).join(', ')}${a.length > 3 ? ', …' : ''}]`;
      if (intrinsicOf(a) && depth === 0) return this.show(a);
      return '…';
    };
    const isDotted = fn.name === 'Fn::GetAtt' && !isJson && Array.isArray(fn.arg) && fn.arg.every((x) => typeof x === 'string');
    const arg = isDotted ? brief((fn.arg as string[]).join('.'), 0) : brief(fn.arg, 0);
    return isJson ? `{"${fn.name}": ${arg}}` : `${this.fnName(fn.name)} ${arg}`;
  }

  isTableResource(logicalId: string): boolean {
    const r = Object.hasOwn(this.resources, logicalId) ? this.resources[logicalId] : undefined;
    return isRecord(r) && (r.Type === TABLE_TYPE || r.Type === GLOBAL_TABLE_TYPE);
  }

  /** `Ref` to a name: a parameter's Default, `AWS::NoValue`, or why it is known only at deployment. */
  private ref(name: unknown, shown: string): Evaluation {
    if (typeof name !== 'string') return { ok: false, what: shown, why: 'its argument is not a name' };
    if (name === 'AWS::NoValue') return { ok: true, value: NO_VALUE, via: [] };
    if (name.startsWith('AWS::')) return { ok: false, what: shown, why: `${name} is a pseudo parameter, known only at deployment` };
    const parameter = this.parameters.get(name);
    if (parameter) {
      if (!parameter.hasDefault) return { ok: false, what: shown, why: `parameter ${quote(name)} has no Default` };
      const value = parameter.isList && typeof parameter.default === 'string' ? parameter.default.split(',').map((s) => s.trim()) : parameter.default;
      return { ok: true, value, via: [`the Default of parameter ${quote(name)}`] };
    }
    if (Object.hasOwn(this.resources, name)) return { ok: false, what: shown, why: `resource ${quote(name)} gets its name or id at deployment` };
    return { ok: false, what: shown, why: `${quote(name)} names no parameter or resource of the template` };
  }

  /** The pieces of a `Fn::Sub` string: text, and `${Name}` references (`${!Literal}` is text). */
  private subPieces(text: string): Array<{ text: string } | { name: string }> {
    const pieces: Array<{ text: string } | { name: string }> = [];
    let last = 0;
    for (const m of text.matchAll(/\$\{([^}]*)\}/g)) {
      const at = m.index ?? 0;
      if (at > last) pieces.push({ text: text.slice(last, at) });
      const inner = m[1] ?? '';
      pieces.push(inner.startsWith('!') ? { text: `\${${inner.slice(1)}}` } : { name: inner.trim() });
      last = at + m[0].length;
    }
    if (last < text.length) pieces.push({ text: text.slice(last) });
    return pieces;
  }

  private subArguments(arg: unknown): { text: string; vars: Json } | undefined {
    if (typeof arg === 'string') return { text: arg, vars: {} };
    if (Array.isArray(arg) && typeof arg[0] === 'string' && (arg.length === 1 || (arg.length === 2 && isRecord(arg[1])))) return { text: arg[0], vars: (arg[1] as Json | undefined) ?? {} };
    return undefined;
  }

  /** A `${Name}` of a `Fn::Sub`: one of its own variables, or a `Ref`; `${Resource.Attribute}` is `Fn::GetAtt`. */
  private subVariable(name: string, vars: Json, shown: string, depth: number): Evaluation {
    if (Object.hasOwn(vars, name)) return this.evaluate(vars[name], depth + 1);
    if (name.includes('.')) return { ok: false, what: shown, why: `\${${name}} is an attribute of a resource, known only at deployment` };
    const e = this.ref(name, shown);
    return e.ok ? e : { ok: false, what: shown, why: `\${${name}}: ${e.why}` };
  }

  /**
   * The value of `v` where the template decides it: itself when it is no intrinsic function call;
   * the computed value of `Ref` to a parameter, `Fn::Sub`, `Fn::Join`, `Fn::Select`, `Fn::Split`
   * and `Fn::FindInMap`; the first branch of `Fn::If`. Anything else is known only at deployment.
   */
  evaluate(v: unknown, depth = 0): Evaluation {
    const fn = intrinsicOf(v);
    if (!fn) return { ok: true, value: v, via: [] };
    const shown = this.show(v);
    if (depth > MAX_INTRINSIC_DEPTH) return { ok: false, what: shown, why: `intrinsic functions nest more than ${MAX_INTRINSIC_DEPTH} deep` };
    const failed = (why: string): Evaluation => ({ ok: false, what: shown, why });
    const scalarOf = (e: Evaluation): Evaluation => (e.ok && !isScalar(e.value) ? failed('a part of it is not text or a number') : e);
    switch (fn.name) {
      case 'Ref':
        return this.ref(fn.arg, shown);
      case 'Fn::If': {
        if (!Array.isArray(fn.arg) || fn.arg.length !== 3) return failed('Fn::If takes a condition and two values');
        const condition = typeof fn.arg[0] === 'string' ? fn.arg[0] : '?';
        const e = this.evaluate(fn.arg[1], depth + 1);
        if (!e.ok) return e;
        return { ok: true, value: e.value, via: [`the first branch of ${this.fnName('Fn::If')} on condition ${quote(condition)}, which is decided at deployment`, ...e.via] };
      }
      case 'Fn::Sub': {
        const args = this.subArguments(fn.arg);
        if (!args) return failed('Fn::Sub takes a string, or a string and a map of variables');
        let out = '';
        const via: string[] = [];
        for (const piece of this.subPieces(args.text)) {
          if ('text' in piece) {
            out += piece.text;
            continue;
          }
          const e = scalarOf(this.subVariable(piece.name, args.vars, shown, depth));
          if (!e.ok) return { ok: false, what: shown, why: e.why };
          out += String(e.value);
          via.push(...e.via);
        }
        return { ok: true, value: out, via };
      }
      case 'Fn::Join': {
        if (!Array.isArray(fn.arg) || fn.arg.length !== 2 || typeof fn.arg[0] !== 'string') return failed('Fn::Join takes a delimiter and a list');
        const list = this.evaluate(fn.arg[1], depth + 1);
        if (!list.ok) return { ok: false, what: shown, why: list.why };
        if (!Array.isArray(list.value)) return failed('its second argument is not a list');
        const via = [...list.via];
        const parts: string[] = [];
        for (const item of list.value) {
          const e = scalarOf(this.evaluate(item, depth + 1));
          if (!e.ok) return { ok: false, what: shown, why: e.why };
          if (e.value === NO_VALUE) continue;
          parts.push(String(e.value));
          via.push(...e.via);
        }
        return { ok: true, value: parts.join(fn.arg[0]), via };
      }
      case 'Fn::Select': {
        if (!Array.isArray(fn.arg) || fn.arg.length !== 2) return failed('Fn::Select takes an index and a list');
        const index = this.evaluate(fn.arg[0], depth + 1);
        const list = this.evaluate(fn.arg[1], depth + 1);
        if (!index.ok) return { ok: false, what: shown, why: index.why };
        if (!list.ok) return { ok: false, what: shown, why: list.why };
        const n = typeof index.value === 'number' ? index.value : typeof index.value === 'string' && /^\d+$/.test(index.value) ? Number(index.value) : NaN;
        if (!Array.isArray(list.value) || !Number.isInteger(n) || n < 0 || n >= list.value.length) return failed('its index is not a position in its list');
        const e = this.evaluate(list.value[n], depth + 1);
        return e.ok ? { ok: true, value: e.value, via: [...index.via, ...list.via, ...e.via] } : e;
      }
      case 'Fn::Split': {
        if (!Array.isArray(fn.arg) || fn.arg.length !== 2 || typeof fn.arg[0] !== 'string' || fn.arg[0] === '') return failed('Fn::Split takes a delimiter and a string');
        const e = this.evaluate(fn.arg[1], depth + 1);
        if (!e.ok) return { ok: false, what: shown, why: e.why };
        if (typeof e.value !== 'string') return failed('its second argument is not text');
        return { ok: true, value: e.value.split(fn.arg[0]), via: e.via };
      }
      case 'Fn::FindInMap': {
        if (!Array.isArray(fn.arg) || fn.arg.length < 3) return failed('Fn::FindInMap takes a map name and two keys');
        const keys: string[] = [];
        const via: string[] = [];
        for (const k of fn.arg.slice(0, 3)) {
          const e = this.evaluate(k, depth + 1);
          if (!e.ok) return { ok: false, what: shown, why: e.why };
          if (!isScalar(e.value)) return failed('a key of it is not text');
          keys.push(String(e.value));
          via.push(...e.via);
        }
        const [map, top, second] = keys as [string, string, string];
        const level1 = Object.hasOwn(this.mappings, map) ? this.mappings[map] : undefined;
        const level2 = isRecord(level1) && Object.hasOwn(level1, top) ? level1[top] : undefined;
        if (isRecord(level2) && Object.hasOwn(level2, second)) return { ok: true, value: level2[second], via: [...via, `Mappings.${map}.${top}.${second}`] };
        const fallback = fn.arg[3];
        if (isRecord(fallback) && Object.hasOwn(fallback, 'DefaultValue')) {
          const e = this.evaluate(fallback.DefaultValue, depth + 1);
          return e.ok ? { ok: true, value: e.value, via: [...via, ...e.via, `the DefaultValue of ${shown}`] } : e;
        }
        return failed(`Mappings has no ${quote(`${map}.${top}.${second}`)}`);
      }
      case 'Fn::GetAtt':
        return failed('it is an attribute of a resource, known only at deployment');
      case 'Fn::ImportValue':
        return failed('it is a value another stack exports, known only at deployment');
      case 'Fn::GetAZs':
      case 'Fn::Cidr':
        return failed('it is known only at deployment');
      case 'Fn::Base64':
        return failed('it is encoded text, not a setting');
      case 'Fn::Transform':
        return failed('it is the output of a macro, known only at deployment');
      case 'Condition':
      case 'Fn::Equals':
      case 'Fn::And':
      case 'Fn::Or':
      case 'Fn::Not':
        return failed('it is a condition, not a value');
      default:
        return failed(`${fn.name} is not an intrinsic function Keyplan reads`);
    }
  }

  /**
   * A `ResourceId` as parts, where a `Ref` to a table of the template (in `Ref`, `Fn::Sub` or
   * `Fn::Join`) stays a reference: a table's name is known only at deployment, but which table it
   * is, is known.
   */
  resourceIdParts(v: unknown, depth = 0): { ok: true; parts: IdPart[]; via: string[] } | { ok: false; what: string; why: string } {
    const fn = intrinsicOf(v);
    const shown = this.show(v);
    if (depth > MAX_INTRINSIC_DEPTH) return { ok: false, what: shown, why: `intrinsic functions nest more than ${MAX_INTRINSIC_DEPTH} deep` };
    if (fn?.name === 'Ref' && typeof fn.arg === 'string' && this.isTableResource(fn.arg)) return { ok: true, parts: [{ table: fn.arg }], via: [] };
    if (fn?.name === 'Fn::Sub') {
      const args = this.subArguments(fn.arg);
      if (args) {
        const parts: IdPart[] = [];
        const via: string[] = [];
        for (const piece of this.subPieces(args.text)) {
          if ('text' in piece) parts.push(piece.text);
          else if (Object.hasOwn(args.vars, piece.name)) {
            const inner = this.resourceIdParts(args.vars[piece.name], depth + 1);
            if (!inner.ok) return inner;
            parts.push(...inner.parts);
            via.push(...inner.via);
          } else if (this.isTableResource(piece.name)) parts.push({ table: piece.name });
          else {
            const e = this.subVariable(piece.name, {}, shown, depth);
            if (!e.ok || !isScalar(e.value)) return { ok: false, what: shown, why: e.ok ? 'a part of it is not text' : e.why };
            parts.push(String(e.value));
            via.push(...e.via);
          }
        }
        return { ok: true, parts, via };
      }
    }
    if (fn?.name === 'Fn::Join' && Array.isArray(fn.arg) && fn.arg.length === 2 && typeof fn.arg[0] === 'string') {
      const delimiter = fn.arg[0];
      const list = Array.isArray(fn.arg[1]) ? { ok: true as const, value: fn.arg[1] as unknown, via: [] as string[] } : this.evaluate(fn.arg[1], depth + 1);
      if (!list.ok) return { ok: false, what: shown, why: list.why };
      if (Array.isArray(list.value)) {
        const parts: IdPart[] = [];
        const via = [...list.via];
        for (const [k, item] of list.value.entries()) {
          if (k > 0) parts.push(delimiter);
          const inner = this.resourceIdParts(item, depth + 1);
          if (!inner.ok) return { ok: false, what: shown, why: inner.why };
          parts.push(...inner.parts);
          via.push(...inner.via);
        }
        return { ok: true, parts, via };
      }
    }
    if (fn?.name === 'Fn::If' && Array.isArray(fn.arg) && fn.arg.length === 3) {
      const inner = this.resourceIdParts(fn.arg[1], depth + 1);
      const condition = typeof fn.arg[0] === 'string' ? fn.arg[0] : '?';
      return inner.ok ? { ok: true, parts: inner.parts, via: [`the first branch of ${this.fnName('Fn::If')} on condition ${quote(condition)}, which is decided at deployment`, ...inner.via] } : inner;
    }
    const e = this.evaluate(v, depth);
    if (!e.ok) return e;
    if (!isScalar(e.value)) return { ok: false, what: shown, why: 'it is not text' };
    return { ok: true, parts: [String(e.value)], via: e.via };
  }
}

// ---------------------------------------------------------------------------------------------
// Reading fields, with notes and problems
// ---------------------------------------------------------------------------------------------

type Got = { kind: 'absent' } | { kind: 'value'; value: unknown } | { kind: 'unresolved'; what: string; why: string };

/** A list item with its path in the template. */
interface Item {
  value: unknown;
  path: string;
}

/** Reads fields of the template: every problem, and every note on what was guessed, skipped or dropped. */
class Reader {
  readonly notes: ImportNote[] = [];
  readonly problems: Problem[] = [];

  constructor(readonly template: Template) {}

  note(kind: ImportNoteKind, path: string, message: string): void {
    this.notes.push({ kind, path: clipText(path, MAX_PATH_CHARS), message: clipText(message, MAX_MESSAGE_CHARS) });
  }

  problem(code: CloudFormationErrorCode, path: string, message: string, found: string, expected: string): void {
    this.problems.push({ code, path: clipText(path, MAX_PATH_CHARS), message: clipText(message, MAX_MESSAGE_CHARS), found: clipText(found, MAX_PATH_CHARS), expected });
  }

  /** The value of `v` at `path`, an intrinsic function worked out where the template decides it (with an `inferred` note). */
  resolve(v: unknown, path: string): Got {
    if (!intrinsicOf(v)) return { kind: 'value', value: v };
    const e = this.template.evaluate(v);
    if (!e.ok) return { kind: 'unresolved', what: e.what, why: e.why };
    const shown = this.template.show(v);
    if (e.value === NO_VALUE) {
      if (e.via.length > 0) this.note('inferred', path, `${path} is ${shown}; it was left out, as ${e.via.join(', then ')} is AWS::NoValue.`);
      return { kind: 'absent' };
    }
    if (e.via.length > 0) this.note('inferred', path, `${path} is ${shown}; read as ${describeValue(e.value)}, from ${e.via.join(', then ')}.`);
    return { kind: 'value', value: e.value };
  }

  get(obj: Json, key: string, path: string): Got {
    if (!Object.hasOwn(obj, key)) return { kind: 'absent' };
    return this.resolve(obj[key], joinPath(path, key));
  }

  /** `what` (a sentence's end) of a value nothing stands in for, known only at deployment: a problem. */
  unresolvedProblem(path: string, got: { what: string; why: string }, expected: string): void {
    this.problem('cloudformation.unresolved', path, `${path} is ${got.what}, which the template does not decide (${got.why}); expected ${expected}.`, got.what, expected);
  }

  /** A value known only at deployment where the setting has a default: an `inferred` note saying what was taken. */
  unresolvedNote(path: string, got: { what: string; why: string }, taken: string): void {
    this.note('inferred', path, `${path} is ${got.what}, which the template does not decide (${got.why}); ${taken}.`);
  }

  /** A required object (or, when `isOptional`, an optional one: a wrong shape is then a warning). */
  record(obj: Json, key: string, path: string, isOptional: boolean): Json | undefined {
    const p = joinPath(path, key);
    const got = this.get(obj, key, path);
    if (got.kind === 'value' && isRecord(got.value)) return got.value;
    if (got.kind === 'absent' && isOptional) return undefined;
    if (isOptional) {
      if (got.kind === 'unresolved') this.unresolvedNote(p, got, 'the setting was skipped');
      else this.note('warning', p, `${p} is ${describeValue(got.kind === 'value' ? got.value : undefined)}; expected an object of settings, so it was skipped.`);
      return undefined;
    }
    if (got.kind === 'unresolved') this.unresolvedProblem(p, got, 'an object');
    else {
      const found = describeValue(got.kind === 'value' ? got.value : undefined);
      this.problem('cloudformation.schema', p, `${p} is ${found}; expected an object.`, found, 'an object');
    }
    return undefined;
  }

  /**
   * A list: its items with their paths, each intrinsic function worked out and `AWS::NoValue` items
   * left out. `need`: `required` (absent or malformed is a problem), `optional` (absent is fine,
   * malformed a warning: the setting is skipped) or `strict` (absent is fine, malformed a problem:
   * indexes and key definitions shape the table).
   */
  list(obj: Json, key: string, path: string, need: 'required' | 'optional' | 'strict', expected: string): Item[] | undefined {
    const p = joinPath(path, key);
    const got = this.get(obj, key, path);
    if (got.kind === 'absent' && need !== 'required') return undefined;
    if (got.kind !== 'value' || !Array.isArray(got.value)) {
      if (need === 'optional') {
        if (got.kind === 'unresolved') this.unresolvedNote(p, got, 'the setting was skipped');
        else this.note('warning', p, `${p} is ${describeValue(got.kind === 'value' ? got.value : undefined)}; expected ${expected}, so it was skipped.`);
      } else if (got.kind === 'unresolved') this.unresolvedProblem(p, got, expected);
      else {
        const found = describeValue(got.kind === 'value' ? got.value : undefined);
        this.problem('cloudformation.schema', p, `${p} is ${found}; expected ${expected}.`, found, expected);
      }
      return undefined;
    }
    const items: Item[] = [];
    got.value.forEach((raw, k) => {
      const ip = joinPath(p, k);
      const item = this.resolve(raw, ip);
      if (item.kind === 'value') items.push({ value: item.value, path: ip });
      else if (item.kind === 'unresolved') items.push({ value: { [UNRESOLVED]: item }, path: ip });
    });
    return items;
  }

  /** A required string; CloudFormation reads a number as its text. */
  requiredString(obj: Json, key: string, path: string, expected: string, allowed?: readonly string[]): string | undefined {
    const p = joinPath(path, key);
    const got = this.get(obj, key, path);
    if (got.kind === 'unresolved') {
      this.unresolvedProblem(p, got, expected);
      return undefined;
    }
    const v = got.kind === 'value' ? got.value : undefined;
    const text = typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
    if (text === undefined || (allowed && !allowed.includes(text))) {
      const found = describeValue(v);
      this.problem('cloudformation.schema', p, `${p} is ${found}; expected ${expected}.`, found, expected);
      return undefined;
    }
    return text;
  }

  /**
   * An optional string: undefined when absent, of the wrong type (a warning) or known only at
   * deployment (a note saying `taken`, the setting's default).
   */
  optionalString(obj: Json, key: string, path: string, expected: string, taken: string, allowed?: readonly string[]): string | undefined {
    const p = joinPath(path, key);
    const got = this.get(obj, key, path);
    if (got.kind === 'absent') return undefined;
    if (got.kind === 'unresolved') {
      this.unresolvedNote(p, got, taken);
      return undefined;
    }
    const v = got.value;
    const text = typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
    if (text === undefined || (allowed && !allowed.includes(text))) {
      this.note('warning', p, `${p} is ${describeValue(v)}; expected ${expected}, so ${taken}.`);
      return undefined;
    }
    return text;
  }

  /** A whole number (a number, or text of one, as CloudFormation converts it), required: a problem otherwise. */
  requiredInteger(obj: Json, key: string, path: string, expected: string): number | undefined {
    const p = joinPath(path, key);
    const got = this.get(obj, key, path);
    if (got.kind === 'unresolved') {
      this.unresolvedProblem(p, got, expected);
      return undefined;
    }
    const n = integerOf(got.kind === 'value' ? got.value : undefined);
    if (n === undefined) {
      const found = describeValue(got.kind === 'value' ? got.value : undefined);
      this.problem('cloudformation.schema', p, `${p} is ${found}; expected ${expected}.`, found, expected);
    }
    return n;
  }

  /** An optional whole number: undefined when absent, wrong (a warning) or known only at deployment (a note saying `taken`). */
  optionalInteger(obj: Json, key: string, path: string, expected: string, taken: string): number | undefined {
    const p = joinPath(path, key);
    const got = this.get(obj, key, path);
    if (got.kind === 'absent') return undefined;
    if (got.kind === 'unresolved') {
      this.unresolvedNote(p, got, taken);
      return undefined;
    }
    const n = integerOf(got.value);
    if (n === undefined) this.note('warning', p, `${p} is ${describeValue(got.value)}; expected ${expected}, so ${taken}.`);
    return n;
  }

  /** An optional number (a target utilization may be a fraction). */
  optionalNumber(obj: Json, key: string, path: string, expected: string, taken: string): number | undefined {
    const p = joinPath(path, key);
    const got = this.get(obj, key, path);
    if (got.kind === 'absent') return undefined;
    if (got.kind === 'unresolved') {
      this.unresolvedNote(p, got, taken);
      return undefined;
    }
    const n = numberOf(got.value);
    if (n === undefined) this.note('warning', p, `${p} is ${describeValue(got.value)}; expected ${expected}, so ${taken}.`);
    return n;
  }

  /** An optional Boolean (`true`, or the text "true", as CloudFormation converts it). */
  optionalBoolean(obj: Json, key: string, path: string, taken: string): boolean | undefined {
    const p = joinPath(path, key);
    const got = this.get(obj, key, path);
    if (got.kind === 'absent') return undefined;
    if (got.kind === 'unresolved') {
      this.unresolvedNote(p, got, taken);
      return undefined;
    }
    const v = got.value;
    if (typeof v === 'boolean') return v;
    if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
    this.note('warning', p, `${p} is ${describeValue(v)}; expected true or false, so ${taken}.`);
    return undefined;
  }

  /** Properties of `obj` not in `known`: a `warning` each (a misspelt or unknown property is skipped). */
  unknownProperties(obj: Json, path: string, known: readonly string[], owner: string): void {
    for (const key of Object.keys(obj)) {
      if (known.includes(key)) continue;
      const p = joinPath(path, key);
      this.note('warning', p, `${p} is not a property of ${owner}; it was skipped.`);
    }
  }
}

/** Marks a list item known only at deployment (the reader of the list says what it stood for). */
const UNRESOLVED = '\u0000unresolved';

function unresolvedItem(v: unknown): { what: string; why: string } | undefined {
  return isRecord(v) && Object.hasOwn(v, UNRESOLVED) ? (v[UNRESOLVED] as { what: string; why: string }) : undefined;
}

function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

function integerOf(v: unknown): number | undefined {
  const n = numberOf(v);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

// ---------------------------------------------------------------------------------------------
// Where each part of the design came from
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

const KEY_TYPES = ['S', 'N', 'B'] as const;
const PROJECTION_TYPES = ['ALL', 'KEYS_ONLY', 'INCLUDE'] as const;
const BILLING_MODES = ['PROVISIONED', 'PAY_PER_REQUEST'] as const;

/** https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html */
const TABLE_PROPERTIES = [
  'AttributeDefinitions',
  'BillingMode',
  'ContributorInsightsSpecification',
  'DeletionProtectionEnabled',
  'GlobalSecondaryIndexes',
  'ImportSourceSpecification',
  'KeySchema',
  'KinesisStreamSpecification',
  'LocalSecondaryIndexes',
  'OnDemandThroughput',
  'PointInTimeRecoverySpecification',
  'ProvisionedThroughput',
  'ResourcePolicy',
  'SSESpecification',
  'StreamSpecification',
  'TableClass',
  'TableName',
  'Tags',
  'TimeToLiveSpecification',
  'WarmThroughput',
];

/** https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-globaltable.html */
const GLOBAL_TABLE_PROPERTIES = [
  'AttributeDefinitions',
  'BillingMode',
  'GlobalSecondaryIndexes',
  'GlobalTableSourceArn',
  'GlobalTableWitnesses',
  'KeySchema',
  'LocalSecondaryIndexes',
  'MultiRegionConsistency',
  'ReadOnDemandThroughputSettings',
  'ReadProvisionedThroughputSettings',
  'Replicas',
  'SSESpecification',
  'StreamSpecification',
  'TableName',
  'TimeToLiveSpecification',
  'WarmThroughput',
  'WriteOnDemandThroughputSettings',
  'WriteProvisionedThroughputSettings',
];

const TABLE_GSI_PROPERTIES = ['ContributorInsightsSpecification', 'IndexName', 'KeySchema', 'OnDemandThroughput', 'Projection', 'ProvisionedThroughput', 'WarmThroughput'];
const GLOBAL_GSI_PROPERTIES = [
  'IndexName',
  'KeySchema',
  'Projection',
  'ReadOnDemandThroughputSettings',
  'ReadProvisionedThroughputSettings',
  'WarmThroughput',
  'WriteOnDemandThroughputSettings',
  'WriteProvisionedThroughputSettings',
];
const REPLICA_PROPERTIES = [
  'ContributorInsightsSpecification',
  'DeletionProtectionEnabled',
  'GlobalSecondaryIndexes',
  'GlobalTableSettingsReplicationMode',
  'KinesisStreamSpecification',
  'PointInTimeRecoverySpecification',
  'ReadOnDemandThroughputSettings',
  'ReadProvisionedThroughputSettings',
  'Region',
  'ReplicaStreamSpecification',
  'ResourcePolicy',
  'SSESpecification',
  'TableClass',
  'Tags',
];

/** Settings of a table or replica a design does not hold, each with what it is. */
const DROPPED_TABLE_SETTINGS: Record<string, string> = {
  KinesisStreamSpecification: 'streaming to Kinesis Data Streams',
  ImportSourceSpecification: 'an import of its first items from Amazon S3',
  ResourcePolicy: 'a resource-based policy',
  MultiRegionConsistency: 'the multi-Region consistency of a global table',
  GlobalTableWitnesses: 'a witness Region of a global table',
  GlobalTableSourceArn: 'the table a global table is made from',
  ReplicaStreamSpecification: "a resource-based policy on the replica's stream",
  GlobalTableSettingsReplicationMode: 'how settings replicate between replicas',
};

/** `Order Items` → `order-items`, at most 60 characters (a template's logical ids and names can be long). */
const slug = (text: string): string => idSlug(text).slice(0, 60);

interface KeyElement {
  name: string;
  /** The KeySchema element's path. */
  path: string;
}

/** What one table resource read into: the table, and facts the auto scaling and the names need. */
interface TableRead {
  logicalId: string;
  path: string;
  isGlobal: boolean;
  table: Table;
  /** The table's name was written in the template (or a parameter's Default), not taken from its logical id. */
  isNameKnown: boolean;
}

/** Reading one table resource: its attribute definitions, keys and paths. */
class TableContext {
  readonly definitions = new Map<string, { type: KeyAttributeType; path: string }>();
  readonly used = new Set<string>();

  constructor(
    readonly r: Reader,
    readonly map: PathMap,
    readonly ids: Set<string>,
    readonly logicalId: string,
    /** `tables[i]` */
    readonly tp: string,
    /** `Resources.X.Properties` */
    readonly pp: string,
    readonly isGlobal: boolean,
  ) {}

  /** `AttributeDefinitions`: each key attribute's type. */
  readDefinitions(props: Json): void {
    const items = this.r.list(props, 'AttributeDefinitions', this.pp, 'strict', 'a list of {AttributeName, AttributeType}') ?? [];
    for (const item of items) {
      const bad = unresolvedItem(item.value);
      if (bad) {
        this.r.unresolvedProblem(item.path, bad, 'an attribute definition');
        continue;
      }
      if (!isRecord(item.value)) {
        const found = describeValue(item.value);
        this.r.problem('cloudformation.schema', item.path, `${item.path} is ${found}; expected {AttributeName, AttributeType}.`, found, '{AttributeName, AttributeType}');
        continue;
      }
      const name = this.r.requiredString(item.value, 'AttributeName', item.path, 'an attribute name');
      const type = this.r.requiredString(item.value, 'AttributeType', item.path, 'S, N or B', KEY_TYPES) as KeyAttributeType | undefined;
      if (name === undefined || type === undefined) continue;
      const first = this.definitions.get(name);
      if (first === undefined) this.definitions.set(name, { type, path: item.path });
      else if (first.type !== type) {
        this.r.problem(
          'cloudformation.attributeDefinition',
          joinPath(item.path, 'AttributeType'),
          `${item.path} defines ${quote(name)} as ${type}, but ${first.path} defines it as ${first.type}; expected each attribute defined once.`,
          type,
          first.type,
        );
      } else this.r.note('warning', item.path, `${item.path} defines ${quote(name)} a second time (first at ${first.path}); the repeat was skipped.`);
    }
  }

  /** A key element's attribute with its type from `AttributeDefinitions` (a problem when it has none). */
  keyAttribute(e: KeyElement, designPath: string): KeyAttribute | undefined {
    const d = this.definitions.get(e.name);
    this.used.add(e.name);
    if (!d) {
      const p = joinPath(e.path, 'AttributeName');
      const expected = `an AttributeDefinitions entry for ${quote(e.name)} with AttributeType S, N or B`;
      this.r.problem('cloudformation.attributeDefinition', p, `${p} is the key attribute ${quote(e.name)}, which AttributeDefinitions does not define; expected ${expected}.`, quote(e.name), expected);
      return undefined;
    }
    this.map.push([designPath, e.path], [joinPath(designPath, 'name'), joinPath(e.path, 'AttributeName')], [joinPath(designPath, 'type'), joinPath(d.path, 'AttributeType')]);
    return { name: e.name, type: d.type };
  }

  /** Attribute definitions no key uses: a warning each (DynamoDB and cfn-lint E3039 reject them; the design needs none). */
  reportUnused(): void {
    for (const [name, d] of this.definitions) {
      if (this.used.has(name)) continue;
      this.r.note('warning', d.path, `${d.path} defines ${quote(name)}, which no key of the table or its indexes uses; it was skipped (AttributeDefinitions lists only key attributes).`);
    }
  }

  /** A `KeySchema`: its HASH and RANGE elements in order. */
  readKeySchema(obj: Json, path: string): { hash: KeyElement[]; range: KeyElement[] } | undefined {
    const items = this.r.list(obj, 'KeySchema', path, 'required', 'a list of {AttributeName, KeyType}');
    if (!items) return undefined;
    const hash: KeyElement[] = [];
    const range: KeyElement[] = [];
    let isBroken = false;
    for (const item of items) {
      const bad = unresolvedItem(item.value);
      if (bad || !isRecord(item.value)) {
        if (bad) this.r.unresolvedProblem(item.path, bad, '{AttributeName, KeyType}');
        else {
          const found = describeValue(item.value);
          this.r.problem('cloudformation.schema', item.path, `${item.path} is ${found}; expected {AttributeName, KeyType}.`, found, '{AttributeName, KeyType}');
        }
        isBroken = true;
        continue;
      }
      const name = this.r.requiredString(item.value, 'AttributeName', item.path, 'an attribute name');
      const keyType = this.r.requiredString(item.value, 'KeyType', item.path, 'HASH or RANGE', ['HASH', 'RANGE']);
      if (name === undefined || keyType === undefined) {
        isBroken = true;
        continue;
      }
      (keyType === 'HASH' ? hash : range).push({ name, path: item.path });
    }
    if (isBroken) return undefined;
    const ks = joinPath(path, 'KeySchema');
    if (hash.length === 0) {
      this.r.problem('cloudformation.schema', ks, `${ks} has no HASH element; expected a partition key (KeyType HASH).`, 'no HASH element', 'a HASH element');
      return undefined;
    }
    const firstRange = range[0];
    if (firstRange && items.findIndex((i) => i.path === firstRange.path) < items.findIndex((i) => i.path === hash[hash.length - 1]!.path)) {
      this.r.note('warning', ks, `${ks} lists a RANGE element before a HASH element; DynamoDB expects the partition key (HASH) first, and the elements were read by their KeyType.`);
    }
    return { hash, range };
  }

  /** A `Projection`. */
  readProjection(index: Json, ip: string, designPath: string): Projection | undefined {
    const p = this.r.record(index, 'Projection', ip, false);
    if (!p) return undefined;
    const pp = joinPath(ip, 'Projection');
    this.map.push([designPath, pp]);
    const type = this.r.requiredString(p, 'ProjectionType', pp, 'ALL, KEYS_ONLY or INCLUDE', PROJECTION_TYPES);
    if (type === undefined) return undefined;
    if (type !== 'INCLUDE') {
      const np = joinPath(pp, 'NonKeyAttributes');
      if (Object.hasOwn(p, 'NonKeyAttributes')) this.r.note('warning', np, `${np} is set, but the projection is ${type}; it was skipped (only INCLUDE takes NonKeyAttributes).`);
      return { type } as Projection;
    }
    const nonKey = this.r.list(p, 'NonKeyAttributes', pp, 'strict', 'a list of attribute names');
    const names: string[] = [];
    this.map.push([joinPath(designPath, 'nonKeyAttributes'), joinPath(pp, 'NonKeyAttributes')]);
    for (const item of nonKey ?? []) {
      const bad = unresolvedItem(item.value);
      if (bad) {
        this.r.unresolvedProblem(item.path, bad, 'an attribute name');
        continue;
      }
      if (typeof item.value !== 'string' && typeof item.value !== 'number') {
        const found = describeValue(item.value);
        this.r.problem('cloudformation.schema', item.path, `${item.path} is ${found}; expected an attribute name.`, found, 'an attribute name');
        continue;
      }
      this.map.push([joinPath(joinPath(designPath, 'nonKeyAttributes'), names.length), item.path]);
      names.push(String(item.value));
    }
    return { type: 'INCLUDE', nonKeyAttributes: names };
  }

  /** The GSIs' names, keys and projections (throughput is read by the resource's own reader). */
  readGsiKeys(props: Json, known: readonly string[], tableSlug: string): Array<{ raw: Json; path: string; gsi: GlobalSecondaryIndex }> {
    const items = this.r.list(props, 'GlobalSecondaryIndexes', this.pp, 'strict', 'a list of GlobalSecondaryIndex') ?? [];
    const out: Array<{ raw: Json; path: string; gsi: GlobalSecondaryIndex }> = [];
    for (const item of items) {
      const bad = unresolvedItem(item.value);
      if (bad || !isRecord(item.value)) {
        if (bad) this.r.unresolvedProblem(item.path, bad, 'a GlobalSecondaryIndex');
        else {
          const found = describeValue(item.value);
          this.r.problem('cloudformation.schema', item.path, `${item.path} is ${found}; expected a GlobalSecondaryIndex object.`, found, 'a GlobalSecondaryIndex object');
        }
        continue;
      }
      const gp = joinPath(joinPath(this.tp, 'globalSecondaryIndexes'), out.length);
      this.map.push([gp, item.path]);
      this.r.unknownProperties(item.value, item.path, known, `a GlobalSecondaryIndex of ${this.isGlobal ? GLOBAL_TABLE_TYPE : TABLE_TYPE}`);
      const name = this.r.requiredString(item.value, 'IndexName', item.path, 'an index name');
      if (name !== undefined) this.map.push([joinPath(gp, 'name'), joinPath(item.path, 'IndexName')]);
      const keys = this.readKeySchema(item.value, item.path);
      const projection = this.readProjection(item.value, item.path, joinPath(gp, 'projection'));
      if (name === undefined || !keys || !projection) continue;
      const partitionKey = keys.hash.map((e, k) => this.keyAttribute(e, keys.hash.length > 1 ? joinPath(joinPath(gp, 'partitionKey'), k) : joinPath(gp, 'partitionKey')));
      const sortKey = keys.range.map((e, k) => this.keyAttribute(e, keys.range.length > 1 ? joinPath(joinPath(gp, 'sortKey'), k) : joinPath(gp, 'sortKey')));
      if (partitionKey.some((a) => a === undefined) || sortKey.some((a) => a === undefined)) continue;
      const pk = partitionKey as KeyAttribute[];
      const sk = sortKey as KeyAttribute[];
      const gsi: GlobalSecondaryIndex = {
        id: uniqueName(`gsi-${tableSlug}-${slug(name)}`, this.ids),
        name,
        partitionKey: pk.length === 1 ? pk[0]! : pk,
        projection,
      };
      if (sk.length > 0) gsi.sortKey = sk.length === 1 ? sk[0]! : sk;
      out.push({ raw: item.value, path: item.path, gsi });
    }
    return out;
  }

  /** The LSIs: the table's partition key with another sort key. */
  readLsis(props: Json, tablePartitionKey: string, tableSlug: string): LocalSecondaryIndex[] {
    const items = this.r.list(props, 'LocalSecondaryIndexes', this.pp, 'strict', 'a list of LocalSecondaryIndex') ?? [];
    const out: LocalSecondaryIndex[] = [];
    for (const item of items) {
      const bad = unresolvedItem(item.value);
      if (bad || !isRecord(item.value)) {
        if (bad) this.r.unresolvedProblem(item.path, bad, 'a LocalSecondaryIndex');
        else {
          const found = describeValue(item.value);
          this.r.problem('cloudformation.schema', item.path, `${item.path} is ${found}; expected a LocalSecondaryIndex object.`, found, 'a LocalSecondaryIndex object');
        }
        continue;
      }
      const lp = joinPath(joinPath(this.tp, 'localSecondaryIndexes'), out.length);
      this.map.push([lp, item.path]);
      this.r.unknownProperties(item.value, item.path, ['IndexName', 'KeySchema', 'Projection'], 'a LocalSecondaryIndex');
      const name = this.r.requiredString(item.value, 'IndexName', item.path, 'an index name');
      if (name !== undefined) this.map.push([joinPath(lp, 'name'), joinPath(item.path, 'IndexName')]);
      const keys = this.readKeySchema(item.value, item.path);
      const projection = this.readProjection(item.value, item.path, joinPath(lp, 'projection'));
      if (name === undefined || !keys || !projection) continue;
      const ks = joinPath(item.path, 'KeySchema');
      const hash = keys.hash[0]!;
      if (keys.hash.length !== 1 || keys.range.length !== 1) {
        const found = `${keys.hash.length} HASH and ${keys.range.length} RANGE elements`;
        this.r.problem('cloudformation.schema', ks, `${ks} has ${found}; expected the table's partition key (HASH) and one sort key (RANGE).`, found, 'one HASH and one RANGE element');
        continue;
      }
      if (hash.name !== tablePartitionKey) {
        const p = joinPath(hash.path, 'AttributeName');
        this.r.problem('cloudformation.schema', p, `${p} is ${quote(hash.name)}; expected the table's partition key ${quote(tablePartitionKey)}, which an LSI shares.`, quote(hash.name), quote(tablePartitionKey));
        continue;
      }
      this.used.add(hash.name);
      const sortKey = this.keyAttribute(keys.range[0]!, joinPath(lp, 'sortKey'));
      if (!sortKey) continue;
      out.push({ id: uniqueName(`lsi-${tableSlug}-${slug(name)}`, this.ids), name, sortKey, projection });
    }
    return out;
  }
}

/** The name of a table when the template does not decide it: its logical id (a table name needs 3 characters). */
const nameFromLogicalId = (logicalId: string): string => (logicalId.length >= 3 ? logicalId : `${logicalId}Table`);

function readTableName(r: Reader, props: Json, pp: string, logicalId: string): { name: string; isKnown: boolean } {
  const p = joinPath(pp, 'TableName');
  const fallback = nameFromLogicalId(logicalId);
  const got = r.get(props, 'TableName', pp);
  if (got.kind === 'value' && (typeof got.value === 'string' || (typeof got.value === 'number' && Number.isFinite(got.value)))) return { name: String(got.value), isKnown: true };
  if (got.kind === 'absent') {
    r.note('inferred', pp, `Resource ${quote(logicalId)} has no TableName, so CloudFormation names the table at deployment; the table is named after its logical id, ${quote(fallback)}.`);
  } else if (got.kind === 'unresolved') {
    r.unresolvedNote(p, got, `the table is named after its logical id, ${quote(fallback)}`);
  } else r.note('warning', p, `${p} is ${describeValue(got.value)}; expected a table name, so the table is named after its logical id, ${quote(fallback)}.`);
  return { name: fallback, isKnown: false };
}

/** `-1` in an on-demand maximum means "no maximum" (DynamoDB's OnDemandThroughput). */
function maximumOf(r: Reader, obj: Json, key: string, path: string): number | undefined {
  const n = r.optionalInteger(obj, key, path, 'a whole number of request units, or -1 for no maximum', 'no maximum was taken');
  return n === -1 ? undefined : n;
}

function readOnDemandThroughput(r: Reader, obj: Json, path: string, designPath: string, map: PathMap): OnDemandThroughput | undefined {
  const o = r.record(obj, 'OnDemandThroughput', path, true);
  if (!o) return undefined;
  const op = joinPath(path, 'OnDemandThroughput');
  const out: OnDemandThroughput = {};
  const read = maximumOf(r, o, 'MaxReadRequestUnits', op);
  const write = maximumOf(r, o, 'MaxWriteRequestUnits', op);
  if (read !== undefined) out.maxReadRequestUnits = read;
  if (write !== undefined) out.maxWriteRequestUnits = write;
  map.push([designPath, op], [joinPath(designPath, 'maxReadRequestUnits'), joinPath(op, 'MaxReadRequestUnits')], [joinPath(designPath, 'maxWriteRequestUnits'), joinPath(op, 'MaxWriteRequestUnits')]);
  return read === undefined && write === undefined ? undefined : out;
}

function readWarmThroughput(r: Reader, obj: Json, path: string, designPath: string, map: PathMap): WarmThroughput | undefined {
  const w = r.record(obj, 'WarmThroughput', path, true);
  if (!w) return undefined;
  const wp = joinPath(path, 'WarmThroughput');
  const out: WarmThroughput = {};
  const read = r.optionalInteger(w, 'ReadUnitsPerSecond', wp, 'a whole number of read units per second', 'no warm read throughput was taken');
  const write = r.optionalInteger(w, 'WriteUnitsPerSecond', wp, 'a whole number of write units per second', 'no warm write throughput was taken');
  if (read !== undefined) out.readUnitsPerSecond = read;
  if (write !== undefined) out.writeUnitsPerSecond = write;
  map.push([designPath, wp], [joinPath(designPath, 'readUnitsPerSecond'), joinPath(wp, 'ReadUnitsPerSecond')], [joinPath(designPath, 'writeUnitsPerSecond'), joinPath(wp, 'WriteUnitsPerSecond')]);
  return read === undefined && write === undefined ? undefined : out;
}

/** `ProvisionedThroughput` {ReadCapacityUnits, WriteCapacityUnits}, both required. */
function readCapacity(r: Reader, pt: Json, ptp: string): ProvisionedThroughput | undefined {
  const read = r.requiredInteger(pt, 'ReadCapacityUnits', ptp, 'a whole number of read capacity units');
  const write = r.requiredInteger(pt, 'WriteCapacityUnits', ptp, 'a whole number of write capacity units');
  return read === undefined || write === undefined ? undefined : { readCapacityUnits: read, writeCapacityUnits: write };
}

function readBillingMode(r: Reader, props: Json, pp: string): 'PROVISIONED' | 'PAY_PER_REQUEST' {
  const mode = r.optionalString(props, 'BillingMode', pp, 'PROVISIONED or PAY_PER_REQUEST', 'PROVISIONED, the default, was taken', BILLING_MODES);
  return mode === 'PAY_PER_REQUEST' ? 'PAY_PER_REQUEST' : 'PROVISIONED';
}

function readTimeToLive(r: Reader, props: Json, pp: string, tp: string, map: PathMap): string | undefined {
  const ttl = r.record(props, 'TimeToLiveSpecification', pp, true);
  if (!ttl) return undefined;
  const ttp = joinPath(pp, 'TimeToLiveSpecification');
  const enabled = r.optionalBoolean(ttl, 'Enabled', ttp, 'TTL was taken as off');
  if (!enabled) return undefined;
  const name = r.optionalString(ttl, 'AttributeName', ttp, 'an attribute name', 'TTL was taken as off');
  if (name === undefined) {
    if (!Object.hasOwn(ttl, 'AttributeName')) r.note('warning', ttp, `${ttp} enables TTL without an AttributeName; TTL was taken as off.`);
    return undefined;
  }
  map.push([joinPath(tp, 'ttlAttribute'), joinPath(ttp, 'AttributeName')]);
  return name;
}

function readStream(r: Reader, props: Json, pp: string): StreamViewType | undefined {
  const s = r.record(props, 'StreamSpecification', pp, true);
  if (!s) return undefined;
  const sp = joinPath(pp, 'StreamSpecification');
  if (Object.hasOwn(s, 'ResourcePolicy')) r.note('dropped', joinPath(sp, 'ResourcePolicy'), `${joinPath(sp, 'ResourcePolicy')} sets a resource-based policy on the stream, which a design does not keep; it was dropped.`);
  return r.optionalString(s, 'StreamViewType', sp, STREAM_VIEW_TYPES.join(', '), 'the stream was taken as off', STREAM_VIEW_TYPES) as StreamViewType | undefined;
}

function readPointInTimeRecovery(r: Reader, obj: Json, path: string, tp: string, map: PathMap): PointInTimeRecovery | undefined {
  const p = r.record(obj, 'PointInTimeRecoverySpecification', path, true);
  if (!p) return undefined;
  const pp = joinPath(path, 'PointInTimeRecoverySpecification');
  const enabled = r.optionalBoolean(p, 'PointInTimeRecoveryEnabled', pp, 'point-in-time recovery was taken as off') ?? false;
  const days = r.optionalInteger(p, 'RecoveryPeriodInDays', pp, 'a whole number of days from 1 to 35', 'the default period (35 days) was taken');
  const out: PointInTimeRecovery = { enabled };
  if (days !== undefined) out.recoveryPeriodInDays = days;
  map.push([joinPath(tp, 'pointInTimeRecovery'), pp], [joinPath(joinPath(tp, 'pointInTimeRecovery'), 'recoveryPeriodInDays'), joinPath(pp, 'RecoveryPeriodInDays')]);
  return out;
}

/** `SSESpecification` → encryption: SSEEnabled false is the key DynamoDB owns; true is a KMS key (the AWS managed one unless a key is named). */
function readEncryption(r: Reader, sse: Json, sp: string, kmsKeyId: string | undefined, tp: string, map: PathMap): Encryption | undefined {
  const enabled = r.optionalBoolean(sse, 'SSEEnabled', sp, 'the key DynamoDB owns was taken');
  const type = r.optionalString(sse, 'SSEType', sp, 'KMS', 'KMS was taken');
  map.push([joinPath(tp, 'encryption'), sp]);
  if (!enabled) {
    if (kmsKeyId !== undefined) r.note('warning', sp, `${sp} names a KMS key but has SSEEnabled off; the key DynamoDB owns was taken, as SSEEnabled says.`);
    return { type: 'AWS_OWNED' };
  }
  if (type !== undefined && type !== 'KMS') r.note('warning', joinPath(sp, 'SSEType'), `${joinPath(sp, 'SSEType')} is ${quote(type)}; DynamoDB encrypts with AWS KMS when SSEEnabled is on, so KMS was taken.`);
  return kmsKeyId !== undefined && kmsKeyId.trim() !== '' ? { type: 'KMS', kmsKeyId } : { type: 'KMS' };
}

/** `KMSMasterKeyId`: a literal key id, ARN or alias (a `Ref` to a key of the template is known only at deployment). */
function readKmsKey(r: Reader, obj: Json, path: string, tp: string, map: PathMap): string | undefined {
  const key = r.optionalString(obj, 'KMSMasterKeyId', path, 'a KMS key id, ARN or alias', 'no key id was taken, which is the AWS managed key aws/dynamodb');
  if (key !== undefined) map.push([joinPath(joinPath(tp, 'encryption'), 'kmsKeyId'), joinPath(path, 'KMSMasterKeyId')]);
  return key;
}

function readContributorInsights(r: Reader, obj: Json, path: string, tp: string, map: PathMap): ContributorInsights | undefined {
  const c = r.record(obj, 'ContributorInsightsSpecification', path, true);
  if (!c) return undefined;
  const cp = joinPath(path, 'ContributorInsightsSpecification');
  const enabled = r.optionalBoolean(c, 'Enabled', cp, 'Contributor Insights was taken as off') ?? false;
  const mode = r.optionalString(c, 'Mode', cp, CONTRIBUTOR_INSIGHTS_MODES.join(' or '), 'the default mode was taken', CONTRIBUTOR_INSIGHTS_MODES);
  map.push([joinPath(tp, 'contributorInsights'), cp], [joinPath(joinPath(tp, 'contributorInsights'), 'mode'), joinPath(cp, 'Mode')]);
  if (mode !== undefined && !enabled) {
    r.note('dropped', joinPath(cp, 'Mode'), `${joinPath(cp, 'Mode')} is ${mode} with Contributor Insights off; a design keeps a mode only while it is on, so the mode was dropped.`);
    return { enabled };
  }
  return mode !== undefined ? { enabled, mode: mode as NonNullable<ContributorInsights['mode']> } : { enabled };
}

function readTableClass(r: Reader, obj: Json, path: string, tp: string, map: PathMap): TableClass {
  const c = r.optionalString(obj, 'TableClass', path, TABLE_CLASSES.join(' or '), 'STANDARD, the default, was taken', TABLE_CLASSES);
  if (c !== undefined) map.push([joinPath(tp, 'tableClass'), joinPath(path, 'TableClass')]);
  return (c as TableClass | undefined) ?? 'STANDARD';
}

function readTags(r: Reader, obj: Json, path: string, tp: string, map: PathMap): Record<string, string> | undefined {
  const items = r.list(obj, 'Tags', path, 'optional', 'a list of {Key, Value}');
  if (!items) return undefined;
  const entries: Array<[string, string]> = [];
  const seen = new Map<string, string>();
  for (const item of items) {
    const bad = unresolvedItem(item.value);
    if (bad) {
      r.unresolvedNote(item.path, bad, 'the tag was dropped');
      continue;
    }
    if (!isRecord(item.value)) {
      r.note('warning', item.path, `${item.path} is ${describeValue(item.value)}; expected {Key, Value}, so it was skipped.`);
      continue;
    }
    const key = r.optionalString(item.value, 'Key', item.path, 'a tag key', 'the tag was dropped');
    const value = r.optionalString(item.value, 'Value', item.path, 'a tag value', 'the tag was dropped');
    if (key === undefined || value === undefined) {
      if (!Object.hasOwn(item.value, 'Key') || !Object.hasOwn(item.value, 'Value')) r.note('warning', item.path, `${item.path} lacks a Key or a Value; the tag was skipped.`);
      continue;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      r.note('warning', item.path, `${item.path} repeats the tag key ${quote(key)} (first at ${first}); the repeat was skipped.`);
      continue;
    }
    seen.set(key, item.path);
    map.push([joinPath(joinPath(tp, 'tags'), key), item.path]);
    entries.push([key, value]);
  }
  map.push([joinPath(tp, 'tags'), joinPath(path, 'Tags')]);
  return Object.fromEntries(entries);
}

/** Settings the design does not hold: a `dropped` note each. */
function dropSettings(r: Reader, obj: Json, path: string, owner: string, keys: readonly string[]): void {
  for (const key of keys) {
    if (!Object.hasOwn(obj, key)) continue;
    const value = r.template.evaluate(obj[key]);
    if (value.ok && value.value === NO_VALUE) continue;
    const p = joinPath(path, key);
    r.note('dropped', p, `${owner} sets ${DROPPED_TABLE_SETTINGS[key] ?? key} (${key}), which a design does not keep; it was dropped.`);
  }
}

/** The resource's own attributes: `Condition`, and a `DeletionPolicy` or `UpdateReplacePolicy` other than the `Retain` Keyplan's export writes. */
function readResourceAttributes(r: Reader, resource: Json, rp: string, logicalId: string): void {
  if (Object.hasOwn(resource, 'Condition')) {
    const c = resource.Condition;
    const p = joinPath(rp, 'Condition');
    r.note('dropped', p, `Resource ${quote(logicalId)} is created only when condition ${typeof c === 'string' ? quote(c) : describeValue(c)} holds; a design's tables always exist, so the condition was dropped.`);
  }
  for (const policy of ['DeletionPolicy', 'UpdateReplacePolicy']) {
    if (!Object.hasOwn(resource, policy)) continue;
    const value = resource[policy];
    if (value === 'Retain') continue;
    const p = joinPath(rp, policy);
    r.note('dropped', p, `Resource ${quote(logicalId)} has ${policy} ${typeof value === 'string' ? value : describeValue(value)}; a design does not keep it, and Keyplan's export writes Retain.`);
  }
}

/** Every table: no entities, which a template does not hold. */
function noteNoEntities(r: Reader, rp: string, logicalId: string): void {
  r.note(
    'dropped',
    rp,
    `A CloudFormation template holds no entity information: table resource ${quote(logicalId)} was imported with no entities and no access patterns; add them after import.`,
  );
}

interface ResourceInput {
  r: Reader;
  map: PathMap;
  ids: Set<string>;
  logicalId: string;
  resource: Json;
  /** `tables[i]` */
  tp: string;
}

/** The table's properties object, or a problem. */
function propertiesOf(input: ResourceInput, rp: string): Json | undefined {
  if (!Object.hasOwn(input.resource, 'Properties')) {
    const p = joinPath(rp, 'Properties');
    input.r.problem('cloudformation.schema', p, `${p} is missing; expected the table's properties, with at least KeySchema and AttributeDefinitions.`, 'missing', 'an object of properties');
    return undefined;
  }
  return input.r.record(input.resource, 'Properties', rp, false);
}

/** The table's own key and the parts every table resource has in common. */
function readCommon(input: ResourceInput, ctx: TableContext, props: Json): { partitionKey: KeyAttribute; sortKey?: KeyAttribute } | undefined {
  ctx.readDefinitions(props);
  const keys = ctx.readKeySchema(props, ctx.pp);
  if (!keys) return undefined;
  const ks = joinPath(ctx.pp, 'KeySchema');
  if (keys.hash.length !== 1 || keys.range.length > 1) {
    const found = `${keys.hash.length} HASH and ${keys.range.length} RANGE elements`;
    input.r.problem('cloudformation.schema', ks, `${ks} has ${found}; expected one HASH element and at most one RANGE element (only a GSI's key has several attributes).`, found, 'one HASH and at most one RANGE element');
    return undefined;
  }
  const partitionKey = ctx.keyAttribute(keys.hash[0]!, joinPath(input.tp, 'partitionKey'));
  const sortKey = keys.range[0] ? ctx.keyAttribute(keys.range[0], joinPath(input.tp, 'sortKey')) : undefined;
  if (!partitionKey || (keys.range[0] && !sortKey)) return undefined;
  return sortKey ? { partitionKey, sortKey } : { partitionKey };
}

/** An `AWS::DynamoDB::Table`. */
function readTableResource(input: ResourceInput): TableRead | undefined {
  const { r, map, logicalId, tp } = input;
  const rp = joinPath('Resources', logicalId);
  const pp = joinPath(rp, 'Properties');
  readResourceAttributes(r, input.resource, rp, logicalId);
  const props = propertiesOf(input, rp);
  if (!props) return undefined;
  r.unknownProperties(props, pp, TABLE_PROPERTIES, TABLE_TYPE);
  const { name, isKnown } = readTableName(r, props, pp, logicalId);
  map.push([tp, rp], [joinPath(tp, 'name'), Object.hasOwn(props, 'TableName') ? joinPath(pp, 'TableName') : rp]);
  const ctx = new TableContext(r, map, input.ids, logicalId, tp, pp, false);
  const tableSlug = slug(name);
  const keys = readCommon(input, ctx, props);
  const gsiReads = ctx.readGsiKeys(props, TABLE_GSI_PROPERTIES, tableSlug);
  const lsis = keys ? ctx.readLsis(props, keys.partitionKey.name, tableSlug) : [];
  ctx.reportUnused();

  // Billing: https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html#cfn-dynamodb-table-billingmode
  const mode = readBillingMode(r, props, pp);
  map.push([joinPath(tp, 'billing'), Object.hasOwn(props, 'BillingMode') ? joinPath(pp, 'BillingMode') : pp]);
  const ptp = joinPath(pp, 'ProvisionedThroughput');
  let billing: Table['billing'] | undefined;
  let tableCapacity: ProvisionedThroughput | undefined;
  if (mode === 'PAY_PER_REQUEST') {
    billing = { mode: 'ON_DEMAND' };
    const pt = r.record(props, 'ProvisionedThroughput', pp, true);
    if (pt && (integerOf(pt.ReadCapacityUnits) !== 0 || integerOf(pt.WriteCapacityUnits) !== 0)) {
      r.note('warning', ptp, `${ptp} sets capacity on an on-demand (PAY_PER_REQUEST) table; it was skipped.`);
    }
  } else {
    if (!Object.hasOwn(props, 'ProvisionedThroughput')) {
      const why = Object.hasOwn(props, 'BillingMode') ? 'BillingMode is PROVISIONED' : 'BillingMode is absent, which means PROVISIONED';
      r.problem('cloudformation.schema', ptp, `${ptp} is missing, but ${why}; expected ReadCapacityUnits and WriteCapacityUnits.`, 'missing', 'ProvisionedThroughput with ReadCapacityUnits and WriteCapacityUnits');
    }
    const pt = Object.hasOwn(props, 'ProvisionedThroughput') ? r.record(props, 'ProvisionedThroughput', pp, false) : undefined;
    tableCapacity = pt ? readCapacity(r, pt, ptp) : undefined;
    if (tableCapacity) {
      billing = { mode: 'PROVISIONED', ...tableCapacity };
      map.push([joinPath(joinPath(tp, 'billing'), 'readCapacityUnits'), joinPath(ptp, 'ReadCapacityUnits')], [joinPath(joinPath(tp, 'billing'), 'writeCapacityUnits'), joinPath(ptp, 'WriteCapacityUnits')]);
    }
  }

  const gsis = gsiReads.map(({ raw, path, gsi }, k) => {
    const gp = joinPath(joinPath(tp, 'globalSecondaryIndexes'), k);
    const gptp = joinPath(path, 'ProvisionedThroughput');
    if (mode === 'PROVISIONED') {
      const pt = r.record(raw, 'ProvisionedThroughput', path, true);
      const capacity = pt ? readCapacity(r, pt, gptp) : undefined;
      if (capacity) {
        gsi.provisioned = capacity;
        map.push([joinPath(gp, 'provisioned'), gptp], [joinPath(joinPath(gp, 'provisioned'), 'readCapacityUnits'), joinPath(gptp, 'ReadCapacityUnits')], [joinPath(joinPath(gp, 'provisioned'), 'writeCapacityUnits'), joinPath(gptp, 'WriteCapacityUnits')]);
      } else if (!Object.hasOwn(raw, 'ProvisionedThroughput') && tableCapacity) {
        gsi.provisioned = { ...tableCapacity };
        map.push([joinPath(gp, 'provisioned'), ptp]);
        r.note('inferred', path, `GSI ${quote(gsi.name)} of a provisioned table has no ProvisionedThroughput (CloudFormation requires one); the table's ${tableCapacity.readCapacityUnits} RCU and ${tableCapacity.writeCapacityUnits} WCU were taken.`);
      }
      if (Object.hasOwn(raw, 'OnDemandThroughput')) {
        const op = joinPath(path, 'OnDemandThroughput');
        r.note('dropped', op, `${op} sets on-demand maximums on a GSI of a provisioned table, whose capacity is its maximum; it was dropped.`);
      }
    } else {
      const pt = r.record(raw, 'ProvisionedThroughput', path, true);
      if (pt && (integerOf(pt.ReadCapacityUnits) !== 0 || integerOf(pt.WriteCapacityUnits) !== 0)) r.note('warning', gptp, `${gptp} sets capacity on a GSI of an on-demand table; it was skipped.`);
      const max = readOnDemandThroughput(r, raw, path, joinPath(gp, 'onDemandThroughput'), map);
      if (max) gsi.onDemandThroughput = max;
    }
    const warm = readWarmThroughput(r, raw, path, joinPath(gp, 'warmThroughput'), map);
    if (warm) gsi.warmThroughput = warm;
    if (Object.hasOwn(raw, 'ContributorInsightsSpecification')) {
      const cp = joinPath(path, 'ContributorInsightsSpecification');
      r.note('dropped', cp, `${cp} sets Contributor Insights on GSI ${quote(gsi.name)}; a design keeps Contributor Insights for the table only, so it was dropped.`);
    }
    return gsi;
  });

  dropSettings(r, props, pp, `Table resource ${quote(logicalId)}`, ['KinesisStreamSpecification', 'ImportSourceSpecification', 'ResourcePolicy']);
  const tableClass = readTableClass(r, props, pp, tp, map);
  const ttl = readTimeToLive(r, props, pp, tp, map);
  const stream = readStream(r, props, pp);
  if (stream) map.push([joinPath(tp, 'stream'), joinPath(joinPath(pp, 'StreamSpecification'), 'StreamViewType')]);
  const pitr = readPointInTimeRecovery(r, props, pp, tp, map);
  const sse = r.record(props, 'SSESpecification', pp, true);
  const sp = joinPath(pp, 'SSESpecification');
  const encryption = sse ? readEncryption(r, sse, sp, readKmsKey(r, sse, sp, tp, map), tp, map) : undefined;
  const deletionProtection = r.optionalBoolean(props, 'DeletionProtectionEnabled', pp, 'deletion protection was taken as off');
  const tags = readTags(r, props, pp, tp, map);
  const insights = readContributorInsights(r, props, pp, tp, map);
  let onDemand: OnDemandThroughput | undefined;
  if (mode === 'PAY_PER_REQUEST') onDemand = readOnDemandThroughput(r, props, pp, joinPath(tp, 'onDemandThroughput'), map);
  else if (Object.hasOwn(props, 'OnDemandThroughput')) {
    const op = joinPath(pp, 'OnDemandThroughput');
    r.note('dropped', op, `${op} sets on-demand maximums on a provisioned table, whose capacity is its maximum; it was dropped.`);
  }
  const warm = readWarmThroughput(r, props, pp, joinPath(tp, 'warmThroughput'), map);
  noteNoEntities(r, rp, logicalId);

  if (!keys || !billing) return undefined;
  const table: Table = {
    id: uniqueName(`tbl-${tableSlug}`, input.ids),
    name,
    partitionKey: keys.partitionKey,
    billing,
    tableClass,
    globalSecondaryIndexes: gsis,
    localSecondaryIndexes: lsis,
    entities: [],
    accessPatterns: [],
  };
  if (keys.sortKey) table.sortKey = keys.sortKey;
  if (ttl !== undefined) table.ttlAttribute = ttl;
  if (stream) table.stream = stream;
  if (pitr) table.pointInTimeRecovery = pitr;
  if (encryption) table.encryption = encryption;
  if (deletionProtection !== undefined) table.deletionProtection = deletionProtection;
  if (tags) table.tags = tags;
  if (insights) table.contributorInsights = insights;
  if (onDemand) table.onDemandThroughput = onDemand;
  if (warm) table.warmThroughput = warm;
  return { logicalId, path: rp, isGlobal: false, table, isNameKnown: isKnown };
}

// ---------------------------------------------------------------------------------------------
// Global tables
// ---------------------------------------------------------------------------------------------

/** Capacity with auto scaling as a GlobalTable writes it (`CapacityAutoScalingSettings`). */
interface ScaledCapacity {
  units: number;
  range: AutoScalingRange;
}

/**
 * `CapacityAutoScalingSettings` {MinCapacity, MaxCapacity, SeedCapacity, TargetTrackingScalingPolicyConfiguration}.
 * The initial capacity is `SeedCapacity`, or the minimum when there is none (an `inferred` note).
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-globaltable-capacityautoscalingsettings.html
 */
function readCapacityAutoScaling(r: Reader, settings: Json, path: string, direction: 'read' | 'write', designPath: string, map: PathMap): ScaledCapacity | undefined {
  const min = r.requiredInteger(settings, 'MinCapacity', path, 'a whole number of capacity units');
  const max = r.requiredInteger(settings, 'MaxCapacity', path, 'a whole number of capacity units');
  const seed = r.optionalInteger(settings, 'SeedCapacity', path, 'a whole number of capacity units', 'the minimum was taken as the initial capacity');
  const tt = r.record(settings, 'TargetTrackingScalingPolicyConfiguration', path, false);
  const ttp = joinPath(path, 'TargetTrackingScalingPolicyConfiguration');
  let target: number | undefined;
  if (tt) {
    target = numberOf(tt.TargetValue);
    if (target === undefined) {
      const got = r.get(tt, 'TargetValue', ttp);
      if (got.kind === 'unresolved') r.unresolvedProblem(joinPath(ttp, 'TargetValue'), got, 'a target utilization in percent');
      else if (got.kind === 'value' && numberOf(got.value) !== undefined) target = numberOf(got.value);
      else {
        const found = describeValue(got.kind === 'value' ? got.value : undefined);
        r.problem('cloudformation.schema', joinPath(ttp, 'TargetValue'), `${joinPath(ttp, 'TargetValue')} is ${found}; expected a target utilization in percent.`, found, 'a number');
      }
    }
    noteCooldowns(r, tt, ttp);
  }
  if (min === undefined || max === undefined || target === undefined) return undefined;
  const units = seed ?? min;
  if (seed === undefined) r.note('inferred', path, `${path} sets no SeedCapacity, so the template holds no initial ${direction} capacity; the minimum, ${min}, was taken.`);
  map.push(
    [designPath, path],
    [joinPath(designPath, 'minCapacity'), joinPath(path, 'MinCapacity')],
    [joinPath(designPath, 'maxCapacity'), joinPath(path, 'MaxCapacity')],
    [joinPath(designPath, 'targetUtilizationPercent'), joinPath(ttp, 'TargetValue')],
  );
  return { units, range: { minCapacity: min, maxCapacity: max, targetUtilizationPercent: target } };
}

/** Scale-in and scale-out cooldowns and DisableScaleIn: a design keeps min, max and target only. */
function noteCooldowns(r: Reader, config: Json, path: string): void {
  const set = ['ScaleInCooldown', 'ScaleOutCooldown', 'DisableScaleIn'].filter((k) => Object.hasOwn(config, k));
  if (set.length === 0) return;
  r.note('dropped', path, `${path} sets ${set.join(', ')}; a design keeps auto scaling as a minimum, a maximum and a target utilization, so ${set.length === 1 ? 'it was' : 'they were'} dropped.`);
}

/** Read capacity of a global table's replica (or of a GSI in it): fixed `ReadCapacityUnits`, or auto scaled. */
function readReplicaReadCapacity(r: Reader, settings: Json, path: string, designPath: string, map: PathMap): ScaledCapacity | { units: number } | undefined {
  const scaling = r.record(settings, 'ReadCapacityAutoScalingSettings', path, true);
  if (scaling) return readCapacityAutoScaling(r, scaling, joinPath(path, 'ReadCapacityAutoScalingSettings'), 'read', joinPath(joinPath(designPath, 'autoScaling'), 'read'), map);
  const units = r.optionalInteger(settings, 'ReadCapacityUnits', path, 'a whole number of read capacity units', 'no read capacity was taken from it');
  if (units === undefined) return undefined;
  map.push([joinPath(designPath, 'readCapacityUnits'), joinPath(path, 'ReadCapacityUnits')]);
  return { units };
}

/** The auto scaling range of a capacity, if it scales. */
const rangeOf = (c: ScaledCapacity | { units: number }): AutoScalingRange | undefined => ('range' in c ? (c as ScaledCapacity).range : undefined);

/** Whether two template values are equal as data (bounded depth: YAML aliases may make cycles). */
function isSameValue(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (depth > 64) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, k) => isSameValue(x, b[k], depth + 1));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && isSameValue(a[k], b[k], depth + 1));
  }
  return false;
}

/** An `AWS::DynamoDB::GlobalTable`: see the module comment for which replica settings are read. */
function readGlobalTableResource(input: ResourceInput): TableRead | undefined {
  const { r, map, logicalId, tp } = input;
  const rp = joinPath('Resources', logicalId);
  const pp = joinPath(rp, 'Properties');
  readResourceAttributes(r, input.resource, rp, logicalId);
  const props = propertiesOf(input, rp);
  if (!props) return undefined;
  r.unknownProperties(props, pp, GLOBAL_TABLE_PROPERTIES, GLOBAL_TABLE_TYPE);
  const { name, isKnown } = readTableName(r, props, pp, logicalId);
  map.push([tp, rp], [joinPath(tp, 'name'), Object.hasOwn(props, 'TableName') ? joinPath(pp, 'TableName') : rp]);
  const ctx = new TableContext(r, map, input.ids, logicalId, tp, pp, true);
  const tableSlug = slug(name);
  const keys = readCommon(input, ctx, props);
  const gsiReads = ctx.readGsiKeys(props, GLOBAL_GSI_PROPERTIES, tableSlug);
  const lsis = keys ? ctx.readLsis(props, keys.partitionKey.name, tableSlug) : [];
  ctx.reportUnused();

  // Replicas: the first one's settings stand for the table.
  const replicas = r.list(props, 'Replicas', pp, 'required', 'a list of ReplicaSpecification') ?? [];
  const replicaItems = replicas.filter((item) => isRecord(item.value) && !unresolvedItem(item.value));
  const first = replicaItems[0];
  const firstReplica = first ? (first.value as Json) : undefined;
  const rsp = first?.path ?? joinPath(pp, 'Replicas');
  if (Object.hasOwn(props, 'Replicas') && replicas.length > 0 && !first) {
    r.problem('cloudformation.schema', joinPath(pp, 'Replicas'), `${joinPath(pp, 'Replicas')} has no replica object; expected at least one ReplicaSpecification with a Region.`, 'no replica object', 'a ReplicaSpecification');
  } else if (Object.hasOwn(props, 'Replicas') && replicas.length === 0) {
    r.problem('cloudformation.schema', joinPath(pp, 'Replicas'), `${joinPath(pp, 'Replicas')} is an empty list; expected at least one ReplicaSpecification with a Region.`, 'an empty list', 'a ReplicaSpecification');
  }
  const region = (replica: Json | undefined): string => {
    const ref = intrinsicOf(replica?.Region);
    if (ref?.name === 'Ref' && ref.arg === 'AWS::Region') return "the stack's Region";
    const got = replica ? r.template.evaluate(replica.Region) : undefined;
    return got?.ok && typeof got.value === 'string' ? got.value : got && !got.ok ? got.what : '(no Region)';
  };
  if (firstReplica) r.unknownProperties(firstReplica, rsp, REPLICA_PROPERTIES, 'a ReplicaSpecification');
  for (const item of replicas) {
    const bad = unresolvedItem(item.value);
    if (bad) r.unresolvedNote(item.path, bad, 'the replica was dropped');
    else if (!isRecord(item.value)) r.note('warning', item.path, `${item.path} is ${describeValue(item.value)}; expected a ReplicaSpecification, so it was skipped.`);
  }
  for (const item of replicaItems.slice(1)) {
    const replica = item.value as Json;
    const differing = [...new Set([...Object.keys(replica), ...Object.keys(firstReplica ?? {})])].filter(
      (k) => k !== 'Region' && !isSameValue(replica[k], firstReplica?.[k]),
    );
    const differs = differing.length > 0 ? `; it differs from the first replica in ${listOf(differing)}, which ${differing.length === 1 ? 'was' : 'were'} dropped too` : '';
    r.note('dropped', item.path, `The replica in ${region(replica)} was dropped: a design is one table in one Region, with the settings of the first replica (${region(firstReplica)})${differs}.`);
  }

  // Billing: PROVISIONED unless PAY_PER_REQUEST (the documented default).
  const mode = readBillingMode(r, props, pp);
  map.push([joinPath(tp, 'billing'), Object.hasOwn(props, 'BillingMode') ? joinPath(pp, 'BillingMode') : pp]);
  const bp = joinPath(tp, 'billing');
  let billing: Table['billing'] | undefined;
  let tableRead: ScaledCapacity | { units: number } | undefined;
  let tableWrite: ScaledCapacity | undefined;
  const globalRead = (owner: Json, ownerPath: string): number | undefined => {
    const settings = r.record(owner, 'ReadProvisionedThroughputSettings', ownerPath, true);
    return settings ? r.optionalInteger(settings, 'ReadCapacityUnits', joinPath(ownerPath, 'ReadProvisionedThroughputSettings'), 'a whole number of read capacity units', 'no read capacity was taken from it') : undefined;
  };
  if (mode === 'PROVISIONED') {
    const wpp = joinPath(pp, 'WriteProvisionedThroughputSettings');
    const write = Object.hasOwn(props, 'WriteProvisionedThroughputSettings') ? r.record(props, 'WriteProvisionedThroughputSettings', pp, false) : undefined;
    const scaling = write ? r.record(write, 'WriteCapacityAutoScalingSettings', wpp, false) : undefined;
    if (!Object.hasOwn(props, 'WriteProvisionedThroughputSettings')) {
      r.problem('cloudformation.schema', wpp, `${wpp} is missing, but the global table is provisioned (BillingMode ${Object.hasOwn(props, 'BillingMode') ? 'PROVISIONED' : 'absent, which means PROVISIONED'}); expected WriteCapacityAutoScalingSettings.`, 'missing', 'WriteProvisionedThroughputSettings with WriteCapacityAutoScalingSettings');
    }
    tableWrite = scaling ? readCapacityAutoScaling(r, scaling, joinPath(wpp, 'WriteCapacityAutoScalingSettings'), 'write', joinPath(joinPath(bp, 'autoScaling'), 'write'), map) : undefined;
    const rrp = joinPath(rsp, 'ReadProvisionedThroughputSettings');
    const replicaRead = firstReplica ? r.record(firstReplica, 'ReadProvisionedThroughputSettings', rsp, true) : undefined;
    tableRead = replicaRead ? readReplicaReadCapacity(r, replicaRead, rrp, bp, map) : undefined;
    if (!tableRead) {
      const units = globalRead(props, pp);
      if (units !== undefined) {
        tableRead = { units };
        map.push([joinPath(bp, 'readCapacityUnits'), joinPath(joinPath(pp, 'ReadProvisionedThroughputSettings'), 'ReadCapacityUnits')]);
      }
    }
    if (!tableRead && firstReplica) {
      r.problem('cloudformation.schema', rrp, `${rrp} is missing, and the global table sets no ReadProvisionedThroughputSettings either; expected the read capacity of a provisioned global table.`, 'missing', 'ReadProvisionedThroughputSettings');
    }
    if (tableWrite && tableRead) {
      billing = { mode: 'PROVISIONED', readCapacityUnits: tableRead.units, writeCapacityUnits: tableWrite.units };
      const read = rangeOf(tableRead);
      const autoScaling = { ...(read ? { read } : {}), write: tableWrite.range };
      billing.autoScaling = autoScaling;
    }
  } else {
    billing = { mode: 'ON_DEMAND' };
  }

  const readOnDemand = (owner: Json | undefined, ownerPath: string): number | undefined => {
    const s = owner ? r.record(owner, 'ReadOnDemandThroughputSettings', ownerPath, true) : undefined;
    return s ? maximumOf(r, s, 'MaxReadRequestUnits', joinPath(ownerPath, 'ReadOnDemandThroughputSettings')) : undefined;
  };
  const writeOnDemand = (owner: Json, ownerPath: string): number | undefined => {
    const s = r.record(owner, 'WriteOnDemandThroughputSettings', ownerPath, true);
    return s ? maximumOf(r, s, 'MaxWriteRequestUnits', joinPath(ownerPath, 'WriteOnDemandThroughputSettings')) : undefined;
  };
  let onDemand: OnDemandThroughput | undefined;
  if (mode === 'PAY_PER_REQUEST') {
    const replicaMax = readOnDemand(firstReplica, rsp);
    const maxRead = replicaMax ?? readOnDemand(props, pp);
    const maxWrite = writeOnDemand(props, pp);
    if (maxRead !== undefined || maxWrite !== undefined) {
      onDemand = { ...(maxRead !== undefined ? { maxReadRequestUnits: maxRead } : {}), ...(maxWrite !== undefined ? { maxWriteRequestUnits: maxWrite } : {}) };
      const dp = joinPath(tp, 'onDemandThroughput');
      map.push(
        [dp, pp],
        [joinPath(dp, 'maxReadRequestUnits'), joinPath(joinPath(replicaMax !== undefined ? rsp : pp, 'ReadOnDemandThroughputSettings'), 'MaxReadRequestUnits')],
        [joinPath(dp, 'maxWriteRequestUnits'), joinPath(joinPath(pp, 'WriteOnDemandThroughputSettings'), 'MaxWriteRequestUnits')],
      );
    }
  }

  // Throughput settings of the other billing mode do nothing.
  const otherModeKeys = mode === 'PROVISIONED' ? ['WriteOnDemandThroughputSettings', 'ReadOnDemandThroughputSettings'] : ['WriteProvisionedThroughputSettings', 'ReadProvisionedThroughputSettings'];
  const owners: Array<[Json, string]> = [[props, pp], ...(firstReplica ? [[firstReplica, rsp] as [Json, string]] : []), ...gsiReads.map((g): [Json, string] => [g.raw, g.path])];
  for (const [owner, ownerPath] of owners) {
    for (const key of otherModeKeys) {
      if (!Object.hasOwn(owner, key)) continue;
      const p = joinPath(ownerPath, key);
      r.note('warning', p, `${p} applies to ${mode === 'PROVISIONED' ? 'on-demand' : 'provisioned'} billing, but the global table is ${mode}; it was skipped.`);
    }
  }

  // GSIs: write settings on the GSI, read settings on the first replica's entry for it.
  const replicaGsis = new Map<string, { value: Json; path: string }>();
  const replicaGsiItems = firstReplica ? (r.list(firstReplica, 'GlobalSecondaryIndexes', rsp, 'optional', 'a list of ReplicaGlobalSecondaryIndexSpecification') ?? []) : [];
  for (const item of replicaGsiItems) {
    if (!isRecord(item.value) || unresolvedItem(item.value)) continue;
    const n = r.resolve(item.value.IndexName, joinPath(item.path, 'IndexName'));
    if (n.kind === 'value' && typeof n.value === 'string' && !replicaGsis.has(n.value)) replicaGsis.set(n.value, { value: item.value, path: item.path });
  }
  const gsis = gsiReads.map(({ raw, path, gsi }, k) => {
    const gp = joinPath(joinPath(tp, 'globalSecondaryIndexes'), k);
    const own = replicaGsis.get(gsi.name);
    replicaGsis.delete(gsi.name);
    if (own && Object.hasOwn(own.value, 'ContributorInsightsSpecification')) {
      const cp = joinPath(own.path, 'ContributorInsightsSpecification');
      r.note('dropped', cp, `${cp} sets Contributor Insights on GSI ${quote(gsi.name)}; a design keeps Contributor Insights for the table only, so it was dropped.`);
    }
    if (mode === 'PROVISIONED') {
      const wpp = joinPath(path, 'WriteProvisionedThroughputSettings');
      const write = r.record(raw, 'WriteProvisionedThroughputSettings', path, true);
      const scaling = write ? r.record(write, 'WriteCapacityAutoScalingSettings', wpp, false) : undefined;
      const gsiWrite = scaling ? readCapacityAutoScaling(r, scaling, joinPath(wpp, 'WriteCapacityAutoScalingSettings'), 'write', joinPath(joinPath(joinPath(gp, 'provisioned'), 'autoScaling'), 'write'), map) : undefined;
      const ownRead = own ? r.record(own.value, 'ReadProvisionedThroughputSettings', own.path, true) : undefined;
      let gsiRead = ownRead ? readReplicaReadCapacity(r, ownRead, joinPath(own!.path, 'ReadProvisionedThroughputSettings'), joinPath(gp, 'provisioned'), map) : undefined;
      if (!gsiRead) {
        const units = globalRead(raw, path);
        if (units !== undefined) {
          gsiRead = { units };
          map.push([joinPath(joinPath(gp, 'provisioned'), 'readCapacityUnits'), joinPath(joinPath(path, 'ReadProvisionedThroughputSettings'), 'ReadCapacityUnits')]);
        }
      }
      if (!gsiRead && tableRead) {
        gsiRead = { units: tableRead.units };
        r.note('inferred', path, `GSI ${quote(gsi.name)} has no read capacity in the first replica's GlobalSecondaryIndexes nor its own ReadProvisionedThroughputSettings; the table's ${tableRead.units} RCU were taken.`);
      }
      let writeUnits = gsiWrite?.units;
      if (writeUnits === undefined && tableWrite && !Object.hasOwn(raw, 'WriteProvisionedThroughputSettings')) {
        writeUnits = tableWrite.units;
        r.note('inferred', path, `GSI ${quote(gsi.name)} has no WriteProvisionedThroughputSettings; the table's initial ${tableWrite.units} WCU were taken, without auto scaling.`);
      }
      if (gsiRead && writeUnits !== undefined) {
        const provisioned: ProvisionedThroughput = { readCapacityUnits: gsiRead.units, writeCapacityUnits: writeUnits };
        const read = rangeOf(gsiRead);
        if (read || gsiWrite) provisioned.autoScaling = { ...(read ? { read } : {}), ...(gsiWrite ? { write: gsiWrite.range } : {}) };
        gsi.provisioned = provisioned;
        map.push([joinPath(gp, 'provisioned'), path]);
      }
    } else {
      const maxRead = readOnDemand(own?.value, own?.path ?? path) ?? readOnDemand(raw, path);
      const maxWrite = writeOnDemand(raw, path);
      if (maxRead !== undefined || maxWrite !== undefined) {
        gsi.onDemandThroughput = { ...(maxRead !== undefined ? { maxReadRequestUnits: maxRead } : {}), ...(maxWrite !== undefined ? { maxWriteRequestUnits: maxWrite } : {}) };
        map.push([joinPath(gp, 'onDemandThroughput'), path]);
      }
    }
    const warm = readWarmThroughput(r, raw, path, joinPath(gp, 'warmThroughput'), map);
    if (warm) gsi.warmThroughput = warm;
    return gsi;
  });
  for (const [indexName, entry] of replicaGsis) {
    r.note('warning', entry.path, `${entry.path} sets replica settings for GSI ${quote(indexName)}, which the global table does not define; they were skipped.`);
  }

  dropSettings(r, props, pp, `Global table resource ${quote(logicalId)}`, ['MultiRegionConsistency', 'GlobalTableWitnesses', 'GlobalTableSourceArn']);
  const ttl = readTimeToLive(r, props, pp, tp, map);
  const stream = readStream(r, props, pp);
  if (stream) map.push([joinPath(tp, 'stream'), joinPath(joinPath(pp, 'StreamSpecification'), 'StreamViewType')]);
  const warm = readWarmThroughput(r, props, pp, joinPath(tp, 'warmThroughput'), map);

  // The first replica's settings.
  let tableClass: TableClass = 'STANDARD';
  let pitr: PointInTimeRecovery | undefined;
  let deletionProtection: boolean | undefined;
  let tags: Record<string, string> | undefined;
  let insights: ContributorInsights | undefined;
  let kmsKeyId: string | undefined;
  if (firstReplica) {
    tableClass = readTableClass(r, firstReplica, rsp, tp, map);
    pitr = readPointInTimeRecovery(r, firstReplica, rsp, tp, map);
    deletionProtection = r.optionalBoolean(firstReplica, 'DeletionProtectionEnabled', rsp, 'deletion protection was taken as off');
    tags = readTags(r, firstReplica, rsp, tp, map);
    insights = readContributorInsights(r, firstReplica, rsp, tp, map);
    const replicaSse = r.record(firstReplica, 'SSESpecification', rsp, true);
    if (replicaSse) kmsKeyId = readKmsKey(r, replicaSse, joinPath(rsp, 'SSESpecification'), tp, map);
    dropSettings(r, firstReplica, rsp, `The first replica (${region(firstReplica)})`, ['KinesisStreamSpecification', 'ResourcePolicy', 'ReplicaStreamSpecification', 'GlobalTableSettingsReplicationMode']);
  }
  const sse = r.record(props, 'SSESpecification', pp, true);
  const sp = joinPath(pp, 'SSESpecification');
  let encryption: Encryption | undefined;
  if (sse) {
    const sseType = r.resolve(sse.SSEType, joinPath(sp, 'SSEType'));
    if (sseType.kind === 'value' && sseType.value === 'AES256') {
      // The GlobalTable schema allows AES256, the key DynamoDB owns.
      encryption = { type: 'AWS_OWNED' };
      map.push([joinPath(tp, 'encryption'), sp]);
    } else encryption = readEncryption(r, sse, sp, kmsKeyId, tp, map);
  } else if (kmsKeyId !== undefined) {
    r.note('warning', joinPath(rsp, 'SSESpecification'), `${joinPath(rsp, 'SSESpecification')} names a KMS key, but the global table has no SSESpecification turning KMS encryption on; the key was skipped.`);
  }
  noteNoEntities(r, rp, logicalId);

  if (!keys || !billing || !firstReplica) return undefined;
  const table: Table = {
    id: uniqueName(`tbl-${tableSlug}`, input.ids),
    name,
    partitionKey: keys.partitionKey,
    billing,
    tableClass,
    globalSecondaryIndexes: gsis,
    localSecondaryIndexes: lsis,
    entities: [],
    accessPatterns: [],
  };
  if (keys.sortKey) table.sortKey = keys.sortKey;
  if (ttl !== undefined) table.ttlAttribute = ttl;
  if (stream) table.stream = stream;
  if (pitr) table.pointInTimeRecovery = pitr;
  if (encryption) table.encryption = encryption;
  if (deletionProtection !== undefined) table.deletionProtection = deletionProtection;
  if (tags) table.tags = tags;
  if (insights) table.contributorInsights = insights;
  if (onDemand) table.onDemandThroughput = onDemand;
  if (warm) table.warmThroughput = warm;
  return { logicalId, path: rp, isGlobal: true, table, isNameKnown: isKnown };
}

// ---------------------------------------------------------------------------------------------
// Auto scaling resources
// ---------------------------------------------------------------------------------------------

/**
 * The scalable dimensions of DynamoDB.
 * https://docs.aws.amazon.com/autoscaling/application/APIReference/API_RegisterScalableTarget.html
 */
const DIMENSIONS: Record<string, { isIndex: boolean; direction: 'read' | 'write' }> = {
  'dynamodb:table:ReadCapacityUnits': { isIndex: false, direction: 'read' },
  'dynamodb:table:WriteCapacityUnits': { isIndex: false, direction: 'write' },
  'dynamodb:index:ReadCapacityUnits': { isIndex: true, direction: 'read' },
  'dynamodb:index:WriteCapacityUnits': { isIndex: true, direction: 'write' },
};

/** The predefined metric each direction tracks. https://docs.aws.amazon.com/autoscaling/application/APIReference/API_PredefinedMetricSpecification.html */
const METRICS = { read: 'DynamoDBReadCapacityUtilization', write: 'DynamoDBWriteCapacityUtilization' } as const;

interface ScalingTarget {
  logicalId: string;
  path: string;
  tableIndex: number;
  /** The GSI's position in its table, for an index dimension. */
  gsiIndex?: number;
  direction: 'read' | 'write';
  minCapacity: number;
  maxCapacity: number;
}

interface ScalingPolicy {
  logicalId: string;
  path: string;
  props: Json;
}

/** `table/<table>` or `table/<table>/index/<index>`, the table by name or by `Ref`. */
function parseResourceId(parts: IdPart[]): { table: string | { ref: string }; index?: string } | undefined {
  const segments: IdPart[][] = [[]];
  for (const part of parts) {
    if (typeof part !== 'string') {
      segments[segments.length - 1]!.push(part);
      continue;
    }
    part.split('/').forEach((piece, k) => {
      if (k > 0) segments.push([]);
      if (piece !== '') segments[segments.length - 1]!.push(piece);
    });
  }
  const flat = segments.map((s) => {
    if (s.length === 1 && typeof s[0] !== 'string') return { ref: s[0]!.table };
    return s.every((x) => typeof x === 'string') ? s.join('') : undefined;
  });
  const [kind, table, indexWord, index] = flat;
  if (kind !== 'table' || table === undefined) return undefined;
  if (flat.length === 2) return { table };
  if (flat.length === 4 && indexWord === 'index' && typeof index === 'string') return { table, index };
  return undefined;
}

/** `ScalableTarget`s of namespace dynamodb, matched to tables and GSIs of the template. */
function readScalingTargets(r: Reader, resources: Json, reads: TableRead[]): ScalingTarget[] {
  const targets: ScalingTarget[] = [];
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (!isRecord(resource) || resource.Type !== SCALABLE_TARGET_TYPE) continue;
    const rp = joinPath('Resources', logicalId);
    const pp = joinPath(rp, 'Properties');
    const props = isRecord(resource.Properties) ? resource.Properties : undefined;
    if (!props) continue;
    const namespace = r.template.evaluate(props.ServiceNamespace);
    const dimensionGot = r.template.evaluate(props.ScalableDimension);
    const dimensionText = dimensionGot.ok && typeof dimensionGot.value === 'string' ? dimensionGot.value : undefined;
    const isDynamoDb = namespace.ok ? namespace.value === 'dynamodb' : dimensionText?.startsWith('dynamodb:') === true;
    if (!isDynamoDb) continue;
    const dp = joinPath(pp, 'ScalableDimension');
    const dimension = dimensionText !== undefined ? DIMENSIONS[dimensionText] : undefined;
    if (!dimension) {
      r.note('warning', dp, `${dp} is ${dimensionGot.ok ? describeValue(dimensionGot.value) : dimensionGot.what}; expected one of ${Object.keys(DIMENSIONS).join(', ')}, so scalable target ${quote(logicalId)} was skipped.`);
      continue;
    }
    const ip = joinPath(pp, 'ResourceId');
    const id = r.template.resourceIdParts(props.ResourceId);
    if (!id.ok) {
      r.note('warning', ip, `${ip} is ${id.what}, which the template does not decide (${id.why}); scalable target ${quote(logicalId)} names no table of this template that Keyplan can tell, so it was skipped.`);
      continue;
    }
    const parsed = parseResourceId(id.parts);
    const tableIndex = parsed
      ? reads.findIndex((t) => (typeof parsed.table === 'string' ? t.isNameKnown && t.table.name === parsed.table : t.logicalId === parsed.table.ref))
      : -1;
    const shownId = id.parts.map((p) => (typeof p === 'string' ? p : `\${${p.table}}`)).join('');
    if (!parsed || tableIndex < 0) {
      const why = parsed ? 'names no table of this template' : 'is not of the form table/<table> or table/<table>/index/<index>';
      r.note('warning', ip, `${ip} is ${quote(shownId)}, which ${why}; scalable target ${quote(logicalId)} was skipped.`);
      continue;
    }
    if (id.via.length > 0) r.note('inferred', ip, `${ip} is ${r.template.show(props.ResourceId)}; read as ${quote(shownId)}, from ${id.via.join(', then ')}.`);
    const read = reads[tableIndex]!;
    if (dimension.isIndex !== (parsed.index !== undefined)) {
      r.note('warning', dp, `${dp} is ${dimensionText} but ${ip} names ${parsed.index !== undefined ? 'an index' : 'a table'}; scalable target ${quote(logicalId)} was skipped.`);
      continue;
    }
    if (read.isGlobal) {
      r.note('warning', rp, `Scalable target ${quote(logicalId)} scales global table ${quote(read.table.name)}, whose auto scaling belongs in the GlobalTable resource itself (CloudFormation does not support both); it was skipped.`);
      continue;
    }
    let gsiIndex: number | undefined;
    if (parsed.index !== undefined) {
      gsiIndex = read.table.globalSecondaryIndexes.findIndex((g) => g.name === parsed.index);
      if (gsiIndex < 0) {
        r.note('warning', ip, `${ip} names index ${quote(parsed.index)}, which table ${quote(read.table.name)} has no GSI of; scalable target ${quote(logicalId)} was skipped.`);
        continue;
      }
    }
    const min = r.optionalInteger(props, 'MinCapacity', pp, 'a whole number of capacity units', `scalable target ${quote(logicalId)} was skipped`);
    const max = r.optionalInteger(props, 'MaxCapacity', pp, 'a whole number of capacity units', `scalable target ${quote(logicalId)} was skipped`);
    if (min === undefined || max === undefined) {
      if (!Object.hasOwn(props, 'MinCapacity') || !Object.hasOwn(props, 'MaxCapacity')) r.note('warning', pp, `Scalable target ${quote(logicalId)} lacks MinCapacity or MaxCapacity; it was skipped.`);
      continue;
    }
    for (const key of ['ScheduledActions', 'SuspendedState']) {
      if (Object.hasOwn(props, key)) r.note('dropped', joinPath(pp, key), `Scalable target ${quote(logicalId)} sets ${key}, which a design does not keep; it was dropped.`);
    }
    const target: ScalingTarget = { logicalId, path: rp, tableIndex, direction: dimension.direction, minCapacity: min, maxCapacity: max };
    if (gsiIndex !== undefined) target.gsiIndex = gsiIndex;
    targets.push(target);
  }
  return targets;
}

/** Each target's scaling policies: by `ScalingTargetId` (a `Ref` to the target), or by the same resource and dimension. */
function policiesByTarget(r: Reader, resources: Json, targets: ScalingTarget[], reads: TableRead[]): Map<ScalingTarget, ScalingPolicy[]> {
  const out = new Map<ScalingTarget, ScalingPolicy[]>(targets.map((t) => [t, []]));
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (!isRecord(resource) || resource.Type !== SCALING_POLICY_TYPE) continue;
    const rp = joinPath('Resources', logicalId);
    const props = isRecord(resource.Properties) ? resource.Properties : undefined;
    if (!props) continue;
    const ref = intrinsicOf(props.ScalingTargetId);
    let target: ScalingTarget | undefined;
    if (ref?.name === 'Ref' && typeof ref.arg === 'string') target = targets.find((t) => t.logicalId === ref.arg);
    else if (!Object.hasOwn(props, 'ScalingTargetId')) {
      const dimension = r.template.evaluate(props.ScalableDimension);
      const id = r.template.resourceIdParts(props.ResourceId);
      const parsed = id.ok ? parseResourceId(id.parts) : undefined;
      const d = dimension.ok && typeof dimension.value === 'string' ? DIMENSIONS[dimension.value] : undefined;
      if (parsed && d) {
        target = targets.find((t) => {
          const read = reads[t.tableIndex]!;
          const isTable = typeof parsed.table === 'string' ? read.isNameKnown && read.table.name === parsed.table : read.logicalId === parsed.table.ref;
          const gsiName = t.gsiIndex === undefined ? undefined : read.table.globalSecondaryIndexes[t.gsiIndex]?.name;
          return isTable && gsiName === parsed.index && t.direction === d.direction;
        });
      }
    }
    if (target) out.get(target)!.push({ logicalId, path: rp, props });
  }
  return out;
}

/** The auto scaling of each target with its target tracking policy, set on the table's billing or the GSI's capacity. */
function applyAutoScaling(r: Reader, resources: Json, reads: TableRead[], map: PathMap): void {
  const targets = readScalingTargets(r, resources, reads);
  const policies = policiesByTarget(r, resources, targets, reads);
  const done = new Map<string, string>();
  for (const target of targets) {
    const read = reads[target.tableIndex]!;
    const table = read.table;
    const gsi = target.gsiIndex === undefined ? undefined : table.globalSecondaryIndexes[target.gsiIndex];
    const owner = gsi ? `GSI ${quote(gsi.name)} of table ${quote(table.name)}` : `table ${quote(table.name)}`;
    const list = policies.get(target) ?? [];
    let chosen: { policy: ScalingPolicy; value: number } | undefined;
    for (const policy of list) {
      const pp = joinPath(policy.path, 'Properties');
      const type = r.template.evaluate(policy.props.PolicyType);
      const typeText = type.ok && typeof type.value === 'string' ? type.value : undefined;
      if (typeText !== 'TargetTrackingScaling') {
        r.note('dropped', joinPath(pp, 'PolicyType'), `Scaling policy ${quote(policy.logicalId)} on ${owner} is ${typeText ?? 'not target tracking'}; a design keeps target tracking auto scaling only, so it was dropped.`);
        continue;
      }
      if (chosen) {
        r.note('warning', policy.path, `Scaling policy ${quote(policy.logicalId)} is a second target tracking policy on scalable target ${quote(target.logicalId)}; only ${quote(chosen.policy.logicalId)} was kept.`);
        continue;
      }
      const config = r.record(policy.props, 'TargetTrackingScalingPolicyConfiguration', pp, true);
      const cp = joinPath(pp, 'TargetTrackingScalingPolicyConfiguration');
      if (!config) {
        if (!Object.hasOwn(policy.props, 'TargetTrackingScalingPolicyConfiguration')) r.note('warning', pp, `Scaling policy ${quote(policy.logicalId)} has no TargetTrackingScalingPolicyConfiguration; it was skipped.`);
        continue;
      }
      if (Object.hasOwn(config, 'CustomizedMetricSpecification')) {
        r.note('dropped', joinPath(cp, 'CustomizedMetricSpecification'), `Scaling policy ${quote(policy.logicalId)} tracks a customized metric; a design keeps auto scaling on ${METRICS[target.direction]} only, so it was dropped.`);
        continue;
      }
      const spec = r.record(config, 'PredefinedMetricSpecification', cp, true);
      const metric = spec ? r.template.evaluate(spec.PredefinedMetricType) : undefined;
      const metricText = metric?.ok && typeof metric.value === 'string' ? metric.value : undefined;
      if (metricText !== METRICS[target.direction]) {
        const mp = joinPath(joinPath(cp, 'PredefinedMetricSpecification'), 'PredefinedMetricType');
        r.note('warning', mp, `Scaling policy ${quote(policy.logicalId)} tracks ${metricText ?? 'no predefined metric'}, but its target scales ${target.direction} capacity; expected ${METRICS[target.direction]}, so it was skipped.`);
        continue;
      }
      const value = r.optionalNumber(config, 'TargetValue', cp, 'a target utilization in percent', `scaling policy ${quote(policy.logicalId)} was skipped`);
      if (value === undefined) {
        if (!Object.hasOwn(config, 'TargetValue')) r.note('warning', cp, `${cp} has no TargetValue; scaling policy ${quote(policy.logicalId)} was skipped.`);
        continue;
      }
      noteCooldowns(r, config, cp);
      chosen = { policy, value };
    }
    if (!chosen) {
      if (list.length === 0) {
        r.note('dropped', target.path, `Scalable target ${quote(target.logicalId)} sets ${target.direction} capacity of ${owner} between ${target.minCapacity} and ${target.maxCapacity}, but no target tracking scaling policy uses it; a design keeps auto scaling with a target utilization only, so it was dropped.`);
      }
      continue;
    }
    if (table.billing.mode !== 'PROVISIONED') {
      r.note('dropped', target.path, `Scalable target ${quote(target.logicalId)} scales ${owner}, which is on-demand; auto scaling applies to provisioned capacity, so it was dropped.`);
      continue;
    }
    const key = `${target.tableIndex}/${target.gsiIndex ?? ''}/${target.direction}`;
    const earlier = done.get(key);
    if (earlier !== undefined) {
      r.note('warning', target.path, `Scalable target ${quote(target.logicalId)} scales ${target.direction} capacity of ${owner}, as ${quote(earlier)} does; only ${quote(earlier)} was kept.`);
      continue;
    }
    done.set(key, target.logicalId);
    const range: AutoScalingRange = { minCapacity: target.minCapacity, maxCapacity: target.maxCapacity, targetUtilizationPercent: chosen.value };
    const tp = joinPath('tables', target.tableIndex);
    const base = gsi ? joinPath(joinPath(joinPath(tp, 'globalSecondaryIndexes'), target.gsiIndex!), 'provisioned') : joinPath(tp, 'billing');
    const capacity = gsi ? gsi.provisioned : table.billing;
    if (!capacity) continue;
    capacity.autoScaling = { ...capacity.autoScaling, [target.direction]: range };
    const dp = joinPath(joinPath(base, 'autoScaling'), target.direction);
    const targetProps = joinPath(target.path, 'Properties');
    map.push(
      [dp, target.path],
      [joinPath(dp, 'minCapacity'), joinPath(targetProps, 'MinCapacity')],
      [joinPath(dp, 'maxCapacity'), joinPath(targetProps, 'MaxCapacity')],
      [joinPath(dp, 'targetUtilizationPercent'), joinPath(joinPath(joinPath(chosen.policy.path, 'Properties'), 'TargetTrackingScalingPolicyConfiguration'), 'TargetValue')],
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The template
// ---------------------------------------------------------------------------------------------

function readParameters(root: Json): Map<string, Parameter> {
  const out = new Map<string, Parameter>();
  const parameters = root.Parameters;
  if (!isRecord(parameters)) return out;
  for (const [name, p] of Object.entries(parameters)) {
    if (!isRecord(p)) continue;
    const type = typeof p.Type === 'string' ? p.Type : '';
    out.set(name, { hasDefault: Object.hasOwn(p, 'Default'), default: p.Default, isList: type === 'CommaDelimitedList' || type.startsWith('List<') });
  }
  return out;
}

/** What a template that is not one looks like, in a few words. */
function describeRoot(root: unknown): string {
  if (root === null || root === undefined) return 'an empty document';
  if (!isRecord(root)) return describeValue(root);
  const keys = Object.keys(root);
  if ('formatVersion' in root && ('tables' in root || 'table' in root)) return 'a Keyplan design';
  if ('DataModel' in root || 'ModelName' in root) return 'a NoSQL Workbench model';
  if ('Table' in root && isRecord(root.Table) && 'KeySchema' in root.Table) return 'DescribeTable output';
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 6).map((k) => quote(k)).join(', ')}${keys.length > 6 ? ', …' : ''}`;
}

/** The design's name and description from the template's Description; Keyplan's export writes `DynamoDB tables of the Keyplan design "<name>". <description>`. */
function nameAndDescription(root: Json): { name: string; description?: string; isInferred: boolean } {
  const d = typeof root.Description === 'string' ? root.Description.trim() : '';
  const own = /^DynamoDB tables of the Keyplan design "(.+?)"\.(?:\s+([\s\S]*))?$/.exec(d);
  if (own && own[1]!.trim() !== '') return own[2] ? { name: own[1]!, description: own[2], isInferred: false } : { name: own[1]!, isInferred: false };
  return d !== '' ? { name: DEFAULT_TEMPLATE_DESIGN_NAME, description: d, isInferred: true } : { name: DEFAULT_TEMPLATE_DESIGN_NAME, isInferred: true };
}

/**
 * Reads a CloudFormation template (YAML or JSON text) as a Keyplan design: one table per
 * `AWS::DynamoDB::Table` and `AWS::DynamoDB::GlobalTable`, with the auto scaling of its
 * `AWS::ApplicationAutoScaling` resources, and notes on every value inferred, part skipped and
 * setting dropped (see the module comment). Errors: `cloudformation.syntax` (YAML or JSON that does
 * not parse; `details` has its `line` and `column`), `cloudformation.notTemplate` (no `Resources`),
 * `cloudformation.noTable` (no table resource; the message names the types there are),
 * `cloudformation.schema` (a property a table needs, missing or of the wrong shape),
 * `cloudformation.attributeDefinition` (a key attribute without a type), `cloudformation.unresolved`
 * (a value nothing can stand in for, known only at deployment), and the `model.*` rules of the design,
 * at the template's paths. Deterministic; never throws.
 */
export function fromCloudFormation(text: string): ImportResult {
  const parsed = parseTemplateText(text);
  if (!parsed.ok) return fail(parsed.errors);
  const { root, format } = parsed.value;
  if (!isRecord(root) || !Object.hasOwn(root, 'Resources')) {
    const found = describeRoot(root);
    const expected = 'a mapping with a "Resources" section, as a CloudFormation template has';
    return fail([{ code: 'cloudformation.notTemplate', path: '', message: `This is not a CloudFormation template: expected ${expected}; found ${found}.`, found, expected }]);
  }
  const resources = root.Resources;
  if (!isRecord(resources)) {
    const found = describeValue(resources);
    return fail([{ code: 'cloudformation.notTemplate', path: 'Resources', message: `Resources is ${found}; expected a mapping of logical ids to resources.`, found, expected: 'a mapping of resources' }]);
  }
  const types: string[] = [];
  const tableIds: string[] = [];
  for (const [logicalId, resource] of Object.entries(resources)) {
    const type = isRecord(resource) && typeof resource.Type === 'string' ? resource.Type : undefined;
    if (type === TABLE_TYPE || type === GLOBAL_TABLE_TYPE) tableIds.push(logicalId);
    else if (type !== undefined && !types.includes(type)) types.push(type);
  }
  if (tableIds.length === 0) {
    const found = types.length === 0 ? 'no resources of any type' : `resources of type ${listOf(types)}`;
    const expected = `an ${TABLE_TYPE} or ${GLOBAL_TABLE_TYPE} resource`;
    return fail([
      {
        code: 'cloudformation.noTable',
        path: 'Resources',
        message: `The template has no DynamoDB table to import: expected ${expected}; found ${found}.`,
        found,
        expected,
        details: { resourceTypes: types },
      },
    ]);
  }

  const template = new Template(format, readParameters(root), isRecord(root.Mappings) ? root.Mappings : {}, resources);
  const r = new Reader(template);
  r.notes.push(...parsed.value.notes);
  if (Object.hasOwn(root, 'Transform')) {
    r.note('warning', 'Transform', `The template names the transform ${typeof root.Transform === 'string' ? quote(root.Transform) : describeValue(root.Transform)}, which can add or change resources at deployment; only the resources written in the template were read.`);
  }
  const ids = new Set<string>();
  const map: PathMap = [];
  const reads: TableRead[] = [];
  for (const logicalId of tableIds) {
    const resource = resources[logicalId] as Json;
    const input: ResourceInput = { r, map, ids, logicalId, resource, tp: joinPath('tables', reads.length) };
    const before = r.problems.length;
    const read = resource.Type === TABLE_TYPE ? readTableResource(input) : readGlobalTableResource(input);
    if (read) reads.push(read);
    else if (r.problems.length === before) {
      // Every reason a table is not read is a problem said where it is; this one only keeps a table from going missing unsaid.
      const rp = joinPath('Resources', logicalId);
      r.problem('cloudformation.schema', rp, `Table resource ${quote(logicalId)} could not be read as a table; expected the properties of ${String(resource.Type)}.`, 'an unreadable table', 'a table resource');
    }
  }
  if (r.problems.length > 0) return fail(r.problems);

  // A name taken from a logical id must not clash with a name the template writes.
  const written = new Set(reads.filter((t) => t.isNameKnown).map((t) => t.table.name));
  for (const read of reads) {
    if (read.isNameKnown) continue;
    const name = uniqueName(read.table.name, written, '-');
    if (name !== read.table.name) r.note('inferred', read.path, `Logical id ${quote(read.logicalId)} is the name of another table of the template; the table was named ${quote(name)}.`);
    read.table.name = name;
  }
  applyAutoScaling(r, resources, reads, map);

  const { name, description, isInferred } = nameAndDescription(root);
  if (isInferred) r.note('inferred', '', `The template holds no design name; the design was named ${quote(name)}.`);
  map.push(['name', 'Description'], ['description', 'Description']);
  const design: Design = { formatVersion: FORMAT_VERSION, id: uniqueName(`design-${slug(name)}`, ids), name, tables: reads.map((t) => t.table) };
  if (description !== undefined) design.description = description;
  const checked = parseDesign(design);
  if (!checked.ok) return fail(checked.errors.map((p) => ({ ...p, path: mapPath(map, p.path), details: { designPath: p.path } })));
  return ok({ design: checked.value, notes: r.notes });
}
