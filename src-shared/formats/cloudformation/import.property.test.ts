/**
 * Property tests of the CloudFormation importer (fast-check): mutated versions of each fixture in
 * tests/fixtures/cloudformation (keys deleted, values of the wrong type, random values and intrinsic
 * functions at random paths, written back as YAML or JSON; and text cut short, garbled or spliced)
 * never make it throw, and every answer is either a design `parseDesign` accepts, with well-formed
 * notes (whose messages do not repeat their paths), or a non-empty list of problems with a code, a
 * path and a message.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml, type ScalarTag, type CollectionTag } from 'yaml';
import { parseDesign } from '../../model/index.ts';
import { fromCloudFormation } from './import.ts';
import type { ImportResult } from '../common/import-types.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../tests/fixtures/cloudformation');
const FILES = ['orders-service.yaml', 'inventory.json'];
const textOf = (name: string): string => readFileSync(resolve(FIXTURES, name), 'utf8');

type Value = null | boolean | number | string | Value[] | { [key: string]: Value };
type Path = Array<string | number>;

/** The short forms as their long forms, so a YAML fixture can be changed as data and written back. */
const SHORT_FORMS = ['Ref', 'Condition', 'Sub', 'GetAtt', 'Join', 'Select', 'Split', 'If', 'Equals', 'And', 'Or', 'Not', 'FindInMap', 'ImportValue', 'Base64', 'Cidr', 'GetAZs', 'Transform'];
const tags: Array<ScalarTag | CollectionTag> = SHORT_FORMS.flatMap((name) => {
  const long = name === 'Ref' || name === 'Condition' ? name : `Fn::${name}`;
  const scalar: ScalarTag = { tag: `!${name}`, resolve: (s: string) => ({ [long]: name === 'GetAtt' ? s.split('.') : s }) };
  const collections = (['seq', 'map'] as const).map((collection): CollectionTag => ({ tag: `!${name}`, collection, resolve: (node) => ({ [long]: node.toJSON() }) }));
  return [scalar, ...collections];
});
const dataOf = (name: string): Value => (name.endsWith('.json') ? JSON.parse(textOf(name)) : parseYaml(textOf(name), { customTags: tags })) as Value;

function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

type Mutation = { kind: 'delete' | 'truncate' | 'duplicate' } | { kind: 'replace'; value: Value };

/** Values that reach the importer's special cases: intrinsic functions, enum words, edge numbers. */
const INTERESTING: Value[] = [
  '',
  0,
  -1,
  1.5,
  40,
  1e21,
  true,
  'true',
  null,
  [],
  {},
  'HASH',
  'RANGE',
  'PROVISIONED',
  'PAY_PER_REQUEST',
  'INCLUDE',
  'KMS',
  'AES256',
  'N',
  'BOOL',
  'table/prod-orders',
  'table/catalog/index/ByCategory',
  'dynamodb:index:ReadCapacityUnits',
  'DynamoDBWriteCapacityUtilization',
  'StepScaling',
  '__proto__',
  'x'.repeat(300),
  { Ref: 'AWS::NoValue' },
  { Ref: 'AWS::StackName' },
  { Ref: 'OrdersTable' },
  { Ref: 'Nope' },
  { Ref: ['not', 'a', 'name'] },
  { 'Fn::If': ['IsProd', 5, 6] },
  { 'Fn::If': ['IsProd'] },
  { 'Fn::ImportValue': 'shared' },
  { 'Fn::Sub': '${AWS::StackName}-x' },
  { 'Fn::Sub': ['${A}', { A: { Ref: 'Environment' } }] },
  { 'Fn::Sub': ['${A}', 5] },
  { 'Fn::Join': ['/', ['table', { Ref: 'OrdersTable' }]] },
  { 'Fn::Join': ['/', { Ref: 'Nope' }] },
  { 'Fn::Select': [9, ['a']] },
  { 'Fn::Split': [',', 5] },
  { 'Fn::FindInMap': ['CapacityByStage', { Ref: 'Stage' }, 'Read'] },
  { 'Fn::FindInMap': ['Missing', 'a', 'b', { DefaultValue: 3 }] },
  { 'Fn::GetAtt': ['OrdersTable', 'Arn'] },
  { 'Fn::Base64': 'x' },
  { 'Fn::Unknown': 1 },
  { Condition: 'IsProd' },
];

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom<Mutation>({ kind: 'delete' }, { kind: 'truncate' }, { kind: 'duplicate' }),
  fc.jsonValue({ maxDepth: 2 }).map((value): Mutation => ({ kind: 'replace', value: value as Value })),
  fc.constantFrom(...INTERESTING).map((value): Mutation => ({ kind: 'replace', value })),
);

/** A copy of `value` with `mutation` applied at `path`. */
function mutate(value: Value, path: Path, mutation: Mutation): Value {
  const copy = structuredClone(value);
  if (path.length === 0) return mutation.kind === 'replace' ? mutation.value : copy;
  let parent: any = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  const last = path.at(-1)!;
  const current = parent[last];
  if (mutation.kind === 'replace') parent[last] = structuredClone(mutation.value);
  else if (mutation.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (mutation.kind === 'truncate') {
    if (Array.isArray(current) || typeof current === 'string') parent[last] = current.slice(0, Math.floor(current.length / 2));
  } else if (Array.isArray(parent)) parent.push(structuredClone(current));
  else parent[`${String(last)}Copy`] = structuredClone(current);
  return copy;
}

type TextEdit = { kind: 'cut'; at: number } | { kind: 'insert'; at: number; text: string } | { kind: 'delete'; at: number; length: number };

const GARBAGE = fc.constantFrom(':', '{', '}', '[', ']', '!', '!Ref', '!Bogus ', '&a', '*a', '#', '|', '>', '- ', "'", '"', '\t', '\n', '\n  ', '%YAML 1.2\n', '---\n', '@', '`', '\\', '\u0000', '\uFEFF', ',', 'Resources:', '"Resources": {}');
const textEditArb: fc.Arbitrary<TextEdit> = fc.oneof(
  fc.nat().map((at): TextEdit => ({ kind: 'cut', at })),
  fc.tuple(fc.nat(), fc.oneof(GARBAGE, fc.string({ maxLength: 12 }))).map(([at, text]): TextEdit => ({ kind: 'insert', at, text })),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 40 })).map(([at, length]): TextEdit => ({ kind: 'delete', at, length })),
);

function editText(text: string, edit: TextEdit): string {
  const at = text.length === 0 ? 0 : edit.at % (text.length + 1);
  if (edit.kind === 'cut') return text.slice(0, at);
  if (edit.kind === 'insert') return `${text.slice(0, at)}${edit.text}${text.slice(at)}`;
  return `${text.slice(0, at)}${text.slice(at + edit.length)}`;
}

const NOTE_KINDS = ['warning', 'inferred', 'dropped'];

/** How many AWS::DynamoDB::Table and GlobalTable resources a template holds. */
function tableResourcesOf(template: Value): number {
  const resources = typeof template === 'object' && template !== null && !Array.isArray(template) ? template.Resources : undefined;
  if (typeof resources !== 'object' || resources === null || Array.isArray(resources)) return 0;
  return Object.values(resources).filter((r) => typeof r === 'object' && r !== null && !Array.isArray(r) && (r.Type === 'AWS::DynamoDB::Table' || r.Type === 'AWS::DynamoDB::GlobalTable')).length;
}

/** The answer's contract: a design `parseDesign` accepts with well-formed notes, or a non-empty list of problems with code, path and message. */
function expectContract(result: ImportResult): void {
  if (result.ok) {
    const { design, notes } = result.value;
    expect(design.tables.length).toBeGreaterThan(0);
    expect(parseDesign(JSON.parse(JSON.stringify(design))).ok).toBe(true);
    for (const note of notes) {
      expect(NOTE_KINDS).toContain(note.kind);
      expect(typeof note.path).toBe('string');
      expect(note.message.length).toBeGreaterThan(0);
      // The path is shown beside the message (CLI and import dialog); the message does not repeat it.
      if (note.path.includes('.')) expect(note.message).not.toContain(note.path);
    }
  } else {
    expect(result.errors.length).toBeGreaterThan(0);
    for (const p of result.errors) {
      expect(p.code).toMatch(/^(cloudformation|model|keyTemplate)\./);
      expect(typeof p.path).toBe('string');
      expect(p.message.length).toBeGreaterThan(0);
    }
  }
}

function run(text: string): ImportResult {
  let result: ImportResult | undefined;
  expect(() => (result = fromCloudFormation(text))).not.toThrow();
  expectContract(result!);
  return result!;
}

describe('mutated fixtures (fast-check)', () => {
  it.each(FILES)('%s changed as data, written as YAML or JSON: never throws; a valid design or problems', (file) => {
    const data = dataOf(file);
    const answers = { designs: 0, refusals: 0 };
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), mutationArb), { minLength: 1, maxLength: 3 }), fc.boolean(), (mutations, asJson) => {
        let value = data;
        // Each mutation picks a path of the value as the mutations before it left it.
        for (const [pick, mutation] of mutations) {
          const paths = pathsOf(value);
          value = mutate(value, paths[pick % paths.length]!, mutation);
        }
        const text = asJson ? JSON.stringify(value, null, 2) : stringifyYaml(value);
        const result = run(text);
        answers[result.ok ? 'designs' : 'refusals'] += 1;
        // A design has one table per table resource: none goes missing without a problem.
        if (result.ok) expect(result.value.design.tables).toHaveLength(tableResourcesOf(value));
      }),
      { numRuns: 300, seed: 20261202 },
    );
    // Most single changes leave an importable template; some break what a table needs.
    expect(answers.designs).toBeGreaterThan(100);
    expect(answers.refusals).toBeGreaterThan(5);
  });

  it.each(FILES)('%s as text cut short, garbled or spliced: never throws; a valid design or problems', (file) => {
    const original = textOf(file);
    const answers = { designs: 0, refusals: 0 };
    fc.assert(
      fc.property(fc.array(textEditArb, { minLength: 1, maxLength: 3 }), (edits) => {
        const text = edits.reduce(editText, original);
        const result = run(text);
        answers[result.ok ? 'designs' : 'refusals'] += 1;
      }),
      { numRuns: 300, seed: 20261202 },
    );
    expect(answers.designs).toBeGreaterThan(10);
    expect(answers.refusals).toBeGreaterThan(10);
  });

  it('gives the same answer twice for the same mutated template', () => {
    const data = dataOf('orders-service.yaml');
    fc.assert(
      fc.property(fc.nat(), mutationArb, (pick, mutation) => {
        const paths = pathsOf(data);
        const text = stringifyYaml(mutate(data, paths[pick % paths.length]!, mutation));
        expect(fromCloudFormation(text)).toEqual(fromCloudFormation(text));
      }),
      { numRuns: 100, seed: 20261202 },
    );
  });

  it('never throws on any JSON value or any short text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? ''), fc.string({ maxLength: 200 })), (text) => {
        run(text);
      }),
      { numRuns: 500, seed: 20261202 },
    );
  });
});
