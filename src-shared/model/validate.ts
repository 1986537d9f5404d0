/**
 * Reading and checking designs. `parseDesign` is THE entry point for a design from outside (file,
 * import, IPC, the raw-JSON editor): shape → migrate → structure → DynamoDB rules. `validateDesign`
 * runs the DynamoDB rules alone on a typed design; the UI runs it after every edit, so it is one pass
 * over a small document and every problem carries the exact path of the field to mark.
 *
 * Paths use property/index notation: `tables[0].entities[2].keys.GSI1PK.template`; a key that is
 * not an identifier is bracketed: `keys["GSI 1"]`.
 */
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { ok, fail, type Result } from '../errors.ts';
import { conditionAttributes, conditionValuesFor, parseCondition, type ConditionValue } from './condition.ts';
import { estimateRenderedBytes, parseKeyTemplate, templateAttributes, utf8ByteLength, type KeyTemplate } from './key-template.ts';
import { migrate } from './migrate.ts';
import type { ModelErrorCode, Problem } from './problems.ts';
import type { KeyTemplateErrorCode } from './key-template.ts';
import {
  Design as DesignSchema,
  type AccessPattern,
  type Attribute,
  type Design,
  type Entity,
  type KeyAttribute,
  type KeyAttributeType,
  type Projection,
  type RangeOperator,
  type Sharding,
  type Table,
} from './schema.ts';

/** GSIs per table: the default quota (adjustable). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html */
export const MAX_GSIS_PER_TABLE = 20;
/** LSIs per table (a hard limit). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html */
export const MAX_LSIS_PER_TABLE = 5;
/** Non-key attributes projected with INCLUDE, summed over all indexes of a table (repeats count). Same page. */
export const MAX_PROJECTED_NON_KEY_ATTRIBUTES = 100;
/** Largest partition key value in bytes. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html */
export const MAX_PARTITION_KEY_BYTES = 2048;
/** Largest sort key value in bytes. Same page. */
export const MAX_SORT_KEY_BYTES = 1024;
/** Longest key attribute name (and LSI INCLUDE attribute name), in UTF-8 bytes. Same page. */
export const MAX_KEY_ATTRIBUTE_NAME_BYTES = 255;
/** Longest TTL attribute name, in UTF-8 bytes: TimeToLiveSpecification.AttributeName takes 1–255. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TimeToLiveSpecification.html */
export const MAX_TTL_ATTRIBUTE_NAME_BYTES = 255;
/** Fewest and most write shards of a partition key (the schema's bounds for `shards.count`). */
export const MIN_SHARDS = 2;
export const MAX_SHARDS = 1000;
/** Table and index names: 3–255 characters of a-z A-Z 0-9 _ . - */
export const RESOURCE_NAME_PATTERN = /^[a-zA-Z0-9_.-]{3,255}$/;
/** What a resource name may hold, for messages. */
export const RESOURCE_NAME_RULE = '3–255 characters of a-z A-Z 0-9 _ . -';

/**
 * Rendered size assumed for an attribute without `averageSizeBytes` when estimating key lengths, by
 * type: an S value of 16 bytes is a short id or a date; an N renders as about 8 digits; a BOOL as
 * `true`/`false`. Estimates, not limits: set `averageSizeBytes` for a precise check.
 */
export const DEFAULT_RENDERED_BYTES: Readonly<Record<'S' | 'N' | 'B' | 'BOOL', number>> = { S: 16, N: 8, B: 16, BOOL: 5 };

type Code = ModelErrorCode | KeyTemplateErrorCode;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends a property name or an array index to a path: `joinPath('a', 0)` → `a[0]`, `joinPath('a', 'b c')` → `a["b c"]`. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (IDENTIFIER.test(key)) return base === '' ? key : `${base}.${key}`;
  return `${base}[${JSON.stringify(key)}]`;
}

const quote = (s: string): string => JSON.stringify(s);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as the user would describe it: `the text "x"`, `the number 5`, `a list of 2 items`, `missing`. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (typeof v === 'string') return v === '' ? 'empty text' : `the text ${quote(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.length === 1 ? 'a list of 1 item' : `a list of ${v.length} items`;
  return 'an object';
}

/**
 * `1st`, `2nd`, `3rd`, `11th`, `22nd`: how messages count the items of a list, from 1 as the UI's labels
 * do ("Attribute 1 name"). Paths keep 0-based indexes (`attributes[0]`); messages never show those.
 */
function ordinal(n: number): string {
  const tens = n % 100;
  const ones = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ones === 1 ? 'st' : ones === 2 ? 'nd' : ones === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

// ---------------------------------------------------------------------------------------------
// parseDesign
// ---------------------------------------------------------------------------------------------

/**
 * Reads a design from outside: every problem at once, structural and DynamoDB rules alike.
 * Errors: `model.notObject`; `model.notKeyplanDesign` (no `formatVersion`, or no `tables`/`table`);
 * `model.invalidVersion`, `model.unsupportedVersion` (from `migrate`); `model.schema` (one per
 * location, with found/expected in plain words); then everything `validateDesign` reports.
 */
export function parseDesign(input: unknown): Result<Design, Problem> {
  const structure = parseDesignStructure(input);
  if (!structure.ok) return structure;
  const problems = validateDesign(structure.value);
  return problems.length > 0 ? fail(problems) : structure;
}

/**
 * The first three steps of `parseDesign`: shape, migration and structure, without the DynamoDB
 * rules. Use it where a design that breaks a rule must still open (restoring autosaved work in
 * progress, showing a file's problems inline); run `validateDesign` on the result to list those.
 */
export function parseDesignStructure(input: unknown): Result<Design, Problem> {
  if (!isRecord(input)) {
    return fail([
      {
        code: 'model.notObject',
        path: '',
        message: `A design must be a JSON object; found ${describeValue(input)}.`,
        found: describeValue(input),
        expected: 'a JSON object with "formatVersion" and "tables"',
      },
    ]);
  }
  if (!('formatVersion' in input) || !('tables' in input || 'table' in input)) {
    const keys = Object.keys(input);
    const found = keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 8).map(quote).join(', ')}${keys.length > 8 ? ', …' : ''}`;
    return fail([
      {
        code: 'model.notKeyplanDesign',
        path: '',
        message: `This is not a Keyplan design: expected an object with "formatVersion" and "tables"; found ${found}.`,
        found,
        expected: 'an object with "formatVersion" and "tables"',
      },
    ]);
  }
  const migrated = migrate(input);
  if (!migrated.ok) return migrated;
  const problems = structuralProblems(DesignSchema, migrated.value);
  return problems.length > 0 ? fail(problems) : ok(migrated.value as Design);
}

/** TypeBox errors → one plain-words problem per location. */
function structuralProblems(schema: TSchema, root: unknown): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const collect = (error: ValueError): void => {
    if (error.type === ValueErrorType.Union) {
      const variant = matchingVariant(error);
      if (variant) {
        for (const inner of variant) collect(inner);
        return;
      }
    }
    const problem = toProblem(error, root);
    if (seen.has(problem.path)) return;
    seen.add(problem.path);
    problems.push(problem);
  };
  for (const error of Value.Errors(schema, root)) collect(error);
  return problems;
}

/** The literal value a schema allows, if it is a literal. */
const literalOf = (s: TSchema | undefined): unknown => (s as { const?: unknown } | undefined)?.const;
/** The property schemas of an object schema. */
const propertiesOf = (s: TSchema): Record<string, TSchema> => (s as { properties?: Record<string, TSchema> }).properties ?? {};

/**
 * For a union of objects told apart by one literal property (`billing.mode`, `projection.type`):
 * the errors of the variant the value names, so the user hears about the field that is wrong in the
 * shape they chose, not about every variant. When the value names no variant, one error at the
 * discriminator listing the allowed values.
 */
function matchingVariant(error: ValueError): Iterable<ValueError> | undefined {
  const variants = (error.schema as { anyOf?: TSchema[] }).anyOf ?? [];
  const value = error.value;
  if (!isRecord(value) || variants.length === 0) return undefined;
  const discriminator = discriminatorOf(variants);
  if (discriminator === undefined) return undefined;
  const index = variants.findIndex((v) => literalOf(propertiesOf(v)[discriminator]) === value[discriminator]);
  if (index >= 0) return error.errors[index];
  const allowed = { anyOf: variants.map((v) => propertiesOf(v)[discriminator]) } as unknown as TSchema;
  const isMissing = !(discriminator in value);
  return [
    {
      type: isMissing ? ValueErrorType.ObjectRequiredProperty : ValueErrorType.Literal,
      schema: allowed,
      path: `${error.path}/${discriminator}`,
      value: value[discriminator],
      message: '',
      errors: [],
    },
  ];
}

function discriminatorOf(variants: TSchema[]): string | undefined {
  const [first] = variants;
  if (first === undefined || (first as { type?: string }).type !== 'object') return undefined;
  return Object.keys(propertiesOf(first)).find((key) => variants.every((v) => literalOf(propertiesOf(v)[key]) !== undefined));
}

/** What a schema allows, in plain words. */
function describeSchema(s: TSchema): string {
  const literal = literalOf(s);
  if (literal !== undefined) return JSON.stringify(literal);
  const anyOf = (s as { anyOf?: TSchema[] }).anyOf;
  if (anyOf) {
    if (anyOf.every((v) => literalOf(v) !== undefined)) return `one of ${anyOf.map((v) => JSON.stringify(literalOf(v))).join(', ')}`;
    const discriminator = discriminatorOf(anyOf);
    if (discriminator) {
      return `an object whose "${discriminator}" is one of ${anyOf
        .map((v) => JSON.stringify(literalOf(propertiesOf(v)[discriminator])))
        .join(', ')}`;
    }
    return anyOf.map(describeSchema).join(' or ');
  }
  const { type, minimum, minItems } = s as { type?: string; minimum?: number; minItems?: number };
  switch (type) {
    case 'string':
      return 'text';
    case 'integer':
      return minimum === undefined ? 'a whole number' : `a whole number ≥ ${minimum}`;
    case 'number':
      return minimum === undefined ? 'a number' : `a number ≥ ${minimum}`;
    case 'boolean':
      return 'true or false';
    case 'array':
      return minItems ? `a list of at least ${minItems} item${minItems === 1 ? '' : 's'}` : 'a list';
    case 'object':
      return 'an object';
    default:
      return 'a valid value';
  }
}

const SINGULAR: Record<string, string> = {
  tables: 'table',
  entities: 'entity',
  attributes: 'attribute',
  accessPatterns: 'access pattern',
  globalSecondaryIndexes: 'GSI',
  localSecondaryIndexes: 'LSI',
  nonKeyAttributes: 'non-key attribute',
  known: 'known attribute',
  values: 'value',
  weights: 'weight',
};

/** Turns a JSON pointer into a path and a description of the place, naming things by their names. */
function locate(pointer: string, root: unknown): { path: string; where: string; property?: string } {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const labels: string[] = [];
  let path = '';
  let value: unknown = root;
  let parentKey = '';
  let property: string | undefined;
  segments.forEach((segment, k) => {
    const isLast = k === segments.length - 1;
    if (Array.isArray(value)) {
      const index = Number(segment);
      path = joinPath(path, index);
      const element: unknown = value[index];
      const name = isRecord(element) && typeof element.name === 'string' && element.name !== '' ? element.name : undefined;
      const label = SINGULAR[parentKey] ?? 'item';
      labels.push(name !== undefined ? `${label} ${quote(name)}` : `${ordinal(index + 1)} ${label}`);
      value = element;
      parentKey = '';
      return;
    }
    path = joinPath(path, segment);
    const next = isRecord(value) ? value[segment] : undefined;
    if (isLast) property = segment;
    else if (parentKey === 'keys') labels.push(`key ${segment}`);
    else if (!Array.isArray(next) && segment !== 'keys') labels.push(quote(segment));
    parentKey = segment;
    value = next;
  });
  const where = labels.length === 0 ? 'Design' : labels.join(', ').replace(/^./, (c) => c.toUpperCase());
  return property === undefined ? { path, where } : { path, where, property };
}

function toProblem(error: ValueError, root: unknown): Problem {
  const { path, where, property } = locate(error.path, root);
  const subject = property === undefined ? where : `${where}: ${quote(property)}`;
  const base = { code: 'model.schema' as const, path };
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty: {
      const expected = describeSchema(error.schema);
      return { ...base, message: `${subject} is missing; expected ${expected}.`, found: 'missing', expected };
    }
    case ValueErrorType.ObjectAdditionalProperties: {
      const known = Object.keys(propertiesOf(error.schema));
      const expected = `only ${known.map(quote).join(', ')}`;
      return {
        ...base,
        message: `${where}: unknown property ${quote(property ?? '')}; expected ${expected}.`,
        found: `the property ${quote(property ?? '')}`,
        expected,
      };
    }
    default: {
      const expected = describeSchema(error.schema);
      const found = describeValue(error.value);
      return { ...base, message: `${subject} is ${found}; expected ${expected}.`, found, expected };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// validateDesign
// ---------------------------------------------------------------------------------------------

/** Where a key attribute is used: the table's or an index's partition or sort key. */
interface KeyUse {
  attribute: KeyAttribute;
  /** Path of the KeyAttribute object. */
  path: string;
  /** `table "Shop"`, `GSI "GSI1"`, `LSI "LSI1"`. */
  owner: string;
  /** The index name, or '' for the table. */
  index: string;
  /** Whether this is the table's own key (an index may have an empty name while being edited). */
  isTable: boolean;
  role: 'partition' | 'sort';
}

class Collector {
  readonly problems: Problem[] = [];

  add(code: Code, path: string, message: string, found?: string, expected?: string): void {
    const problem: Problem = { code, path, message };
    if (found !== undefined) problem.found = found;
    if (expected !== undefined) problem.expected = expected;
    this.problems.push(problem);
  }

  /** Reports `value` unless it is a whole number ≥ `min` (or any finite number ≥ min when `isInteger` is false). */
  number(value: number, path: string, min: number, what: string, isInteger = true): void {
    const isValid = Number.isFinite(value) && value >= min && (!isInteger || Number.isInteger(value));
    if (isValid) return;
    const expected = `${isInteger ? 'a whole number' : 'a number'} ≥ ${min}`;
    this.add('model.invalidNumber', path, `${what} is ${describeValue(value)}; expected ${expected}.`, describeValue(value), expected);
  }
}

const listOf = (names: readonly string[]): string => (names.length === 0 ? '(none)' : names.join(', '));

/** `an S attribute`, `a BOOL attribute`: the article as the type's letters are read out. */
const typed = (type: string): string => `${/^(S|SS|N|NS|L|M)$/.test(type) ? 'an' : 'a'} ${type} attribute`;

/**
 * Checks a design against DynamoDB's rules and Keyplan's own (see the list in the module's tests):
 * names (the design's too), limits, key schemas, projections, billing, TTL attributes, ids, entities' key templates and conditions,
 * estimated key sizes, access patterns. Returns every problem; an empty list means the design is
 * valid. Pure and fast enough to run after every edit.
 */
export function validateDesign(design: Design): Problem[] {
  const c = new Collector();
  if (design.name.trim() === '') {
    c.add(
      'model.invalidName',
      'name',
      `The design has ${design.name === '' ? 'an empty name' : 'a name of only spaces'}; expected a name such as "Shop", which titles the design.`,
      design.name === '' ? 'an empty name' : 'only spaces',
      'a non-empty name',
    );
  }
  checkIds(design, c);
  const tableNames = new Map<string, number>();
  design.tables.forEach((table, ti) => {
    const tp = joinPath('tables', ti);
    const previous = tableNames.get(table.name);
    if (previous !== undefined) {
      c.add(
        'model.duplicateName',
        joinPath(tp, 'name'),
        `Table name ${quote(table.name)} is used by both the ${ordinal(previous + 1)} and the ${ordinal(ti + 1)} table; expected unique table names.`,
        quote(table.name),
        'a name no other table has',
      );
    } else tableNames.set(table.name, ti);
    validateTable(table, tp, c);
  });
  return c.problems;
}

function checkIds(design: Design, c: Collector): void {
  const seen = new Map<string, string>();
  const check = (id: string, path: string, what: string): void => {
    if (id.trim() === '') {
      c.add('model.invalidId', path, `${what} has an empty id; expected a non-empty id unique in the design.`, 'an empty id', 'a non-empty id');
      return;
    }
    const owner = seen.get(id);
    if (owner !== undefined) {
      c.add('model.duplicateId', path, `${what} has the id ${quote(id)}, already used by ${owner}; expected every id in the design to be unique.`, quote(id), 'an id no other part of the design has');
    } else seen.set(id, /^[A-Z][a-z]/.test(what) ? what.charAt(0).toLowerCase() + what.slice(1) : what); // `table "Shop"`, but `GSI "GSI1"`
  };
  design.tables.forEach((table, ti) => {
    const tp = joinPath('tables', ti);
    check(table.id, joinPath(tp, 'id'), `Table ${quote(table.name)}`);
    table.globalSecondaryIndexes.forEach((g, k) => check(g.id, joinPath(joinPath(joinPath(tp, 'globalSecondaryIndexes'), k), 'id'), `GSI ${quote(g.name)}`));
    table.localSecondaryIndexes.forEach((l, k) => check(l.id, joinPath(joinPath(joinPath(tp, 'localSecondaryIndexes'), k), 'id'), `LSI ${quote(l.name)}`));
    table.entities.forEach((e, k) => check(e.id, joinPath(joinPath(joinPath(tp, 'entities'), k), 'id'), `Entity ${quote(e.name)}`));
    table.accessPatterns.forEach((a, k) => check(a.id, joinPath(joinPath(joinPath(tp, 'accessPatterns'), k), 'id'), `Access pattern ${quote(a.name)}`));
  });
}

function checkResourceName(name: string, path: string, what: string, c: Collector): void {
  if (RESOURCE_NAME_PATTERN.test(name)) return;
  const bad = [...name].findIndex((ch) => !/[a-zA-Z0-9_.-]/.test(ch));
  const length = [...name].length;
  const problem =
    bad >= 0
      ? `has ${quote([...name][bad] ?? '')} at character ${bad + 1}`
      : length < 3
        ? `is too short (${length} character${length === 1 ? '' : 's'})`
        : `is too long (${length} characters)`;
  c.add('model.invalidName', path, `${what} name ${quote(name)} ${problem}; expected ${RESOURCE_NAME_RULE}.`, quote(name), RESOURCE_NAME_RULE);
}

function keyUsesOf(table: Table, tp: string): KeyUse[] {
  const uses: KeyUse[] = [];
  const tableOwner = `table ${quote(table.name)}`;
  uses.push({ attribute: table.partitionKey, path: joinPath(tp, 'partitionKey'), owner: tableOwner, index: '', isTable: true, role: 'partition' });
  if (table.sortKey) uses.push({ attribute: table.sortKey, path: joinPath(tp, 'sortKey'), owner: tableOwner, index: '', isTable: true, role: 'sort' });
  table.globalSecondaryIndexes.forEach((g, k) => {
    const gp = joinPath(joinPath(tp, 'globalSecondaryIndexes'), k);
    const owner = `GSI ${quote(g.name)}`;
    uses.push({ attribute: g.partitionKey, path: joinPath(gp, 'partitionKey'), owner, index: g.name, isTable: false, role: 'partition' });
    if (g.sortKey) uses.push({ attribute: g.sortKey, path: joinPath(gp, 'sortKey'), owner, index: g.name, isTable: false, role: 'sort' });
  });
  table.localSecondaryIndexes.forEach((l, k) => {
    const lp = joinPath(joinPath(tp, 'localSecondaryIndexes'), k);
    uses.push({ attribute: l.sortKey, path: joinPath(lp, 'sortKey'), owner: `LSI ${quote(l.name)}`, index: l.name, isTable: false, role: 'sort' });
  });
  return uses;
}

function validateTable(table: Table, tp: string, c: Collector): void {
  const tableLabel = `Table ${quote(table.name)}`;
  checkResourceName(table.name, joinPath(tp, 'name'), 'Table', c);

  // Key schemas: names, one type per attribute name, distinct partition and sort key.
  const uses = keyUsesOf(table, tp);
  const typeOf = new Map<string, KeyUse>();
  for (const use of uses) {
    const { name, type } = use.attribute;
    const bytes = utf8ByteLength(name);
    if (name === '' || bytes > MAX_KEY_ATTRIBUTE_NAME_BYTES) {
      c.add(
        'model.invalidName',
        joinPath(use.path, 'name'),
        `The ${use.role} key of ${use.owner} has ${name === '' ? 'an empty attribute name' : `an attribute name of ${bytes} bytes`}; expected 1–${MAX_KEY_ATTRIBUTE_NAME_BYTES} bytes.`,
        name === '' ? 'an empty name' : `${bytes} bytes`,
        `1–${MAX_KEY_ATTRIBUTE_NAME_BYTES} bytes`,
      );
      continue;
    }
    const first = typeOf.get(name);
    if (!first) typeOf.set(name, use);
    else if (first.attribute.type !== type) {
      c.add(
        'model.keyAttributeConflict',
        joinPath(use.path, 'type'),
        `Key attribute ${quote(name)} is ${type} as the ${use.role} key of ${use.owner} but ${first.attribute.type} as the ${first.role} key of ${first.owner}; expected one type per attribute name, since the table defines each key attribute once.`,
        type,
        first.attribute.type,
      );
    }
  }
  const sameKey = (pk: KeyAttribute, sk: KeyAttribute | undefined, skPath: string, owner: string): void => {
    if (sk && sk.name !== '' && sk.name === pk.name) {
      c.add(
        'model.duplicateKeyAttribute',
        joinPath(skPath, 'name'),
        `The sort key of ${owner} is ${quote(sk.name)}, the same attribute as its partition key; expected two different attributes.`,
        quote(sk.name),
        `an attribute other than ${quote(pk.name)}`,
      );
    }
  };
  sameKey(table.partitionKey, table.sortKey, joinPath(tp, 'sortKey'), `table ${quote(table.name)}`);
  table.globalSecondaryIndexes.forEach((g, k) =>
    sameKey(g.partitionKey, g.sortKey, joinPath(joinPath(joinPath(tp, 'globalSecondaryIndexes'), k), 'sortKey'), `GSI ${quote(g.name)}`),
  );

  // Index counts and names.
  if (table.globalSecondaryIndexes.length > MAX_GSIS_PER_TABLE) {
    c.add(
      'model.tooManyIndexes',
      joinPath(tp, 'globalSecondaryIndexes'),
      `${tableLabel} has ${table.globalSecondaryIndexes.length} GSIs; expected at most ${MAX_GSIS_PER_TABLE} (DynamoDB's default quota).`,
      `${table.globalSecondaryIndexes.length} GSIs`,
      `at most ${MAX_GSIS_PER_TABLE}`,
    );
  }
  if (table.localSecondaryIndexes.length > MAX_LSIS_PER_TABLE) {
    c.add(
      'model.tooManyIndexes',
      joinPath(tp, 'localSecondaryIndexes'),
      `${tableLabel} has ${table.localSecondaryIndexes.length} LSIs; expected at most ${MAX_LSIS_PER_TABLE}.`,
      `${table.localSecondaryIndexes.length} LSIs`,
      `at most ${MAX_LSIS_PER_TABLE}`,
    );
  }
  const indexNames = new Map<string, string>();
  // `which` tells indexes of one name apart in messages: "the 2nd GSI".
  const indexes = [
    ...table.globalSecondaryIndexes.map((g, k) => ({ kind: 'GSI', which: `the ${ordinal(k + 1)} GSI`, name: g.name, projection: g.projection, path: joinPath(joinPath(tp, 'globalSecondaryIndexes'), k) })),
    ...table.localSecondaryIndexes.map((l, k) => ({ kind: 'LSI', which: `the ${ordinal(k + 1)} LSI`, name: l.name, projection: l.projection, path: joinPath(joinPath(tp, 'localSecondaryIndexes'), k) })),
  ];
  for (const index of indexes) {
    checkResourceName(index.name, joinPath(index.path, 'name'), index.kind, c);
    const other = indexNames.get(index.name);
    if (other !== undefined) {
      c.add(
        'model.duplicateName',
        joinPath(index.path, 'name'),
        `${tableLabel} has two indexes named ${quote(index.name)} (${other} and ${index.which}); expected index names unique across the table's GSIs and LSIs.`,
        quote(index.name),
        'a name no other index of the table has',
      );
    } else indexNames.set(index.name, index.which);
  }

  // LSIs: the table's partition key with a different sort key.
  table.localSecondaryIndexes.forEach((l, k) => {
    const lp = joinPath(joinPath(tp, 'localSecondaryIndexes'), k);
    if (!table.sortKey) {
      c.add(
        'model.lsiNeedsSortKey',
        lp,
        `LSI ${quote(l.name)} needs table ${quote(table.name)} to have a sort key, and it has none; expected a table sort key, or a GSI instead of the LSI.`,
        'a table without a sort key',
        'a table with a sort key',
      );
    } else if (l.sortKey.name === table.sortKey.name) {
      c.add(
        'model.lsiSortKeyNotDistinct',
        joinPath(joinPath(lp, 'sortKey'), 'name'),
        `LSI ${quote(l.name)} uses the table's own sort key ${quote(l.sortKey.name)}; expected a different attribute, or the index adds nothing.`,
        quote(l.sortKey.name),
        `an attribute other than ${quote(table.sortKey.name)}`,
      );
    }
    if (l.sortKey.name !== '' && l.sortKey.name === table.partitionKey.name) {
      c.add(
        'model.duplicateKeyAttribute',
        joinPath(joinPath(lp, 'sortKey'), 'name'),
        `The sort key of LSI ${quote(l.name)} is ${quote(l.sortKey.name)}, the table's partition key, which is also the LSI's partition key; expected another attribute.`,
        quote(l.sortKey.name),
        `an attribute other than ${quote(table.partitionKey.name)}`,
      );
    }
  });

  // Projections.
  let projectedTotal = 0;
  const projectedBy: string[] = [];
  for (const index of indexes) checkProjection(index.projection, joinPath(index.path, 'projection'), `${index.kind} ${quote(index.name)}`, index.kind === 'LSI', c);
  for (const index of indexes) {
    if (index.projection.type !== 'INCLUDE') continue;
    projectedTotal += index.projection.nonKeyAttributes.length;
    projectedBy.push(`${index.name}: ${index.projection.nonKeyAttributes.length}`);
  }
  if (projectedTotal > MAX_PROJECTED_NON_KEY_ATTRIBUTES) {
    c.add(
      'model.tooManyProjectedAttributes',
      tp,
      `${tableLabel} projects ${projectedTotal} non-key attributes into its indexes (${projectedBy.join(', ')}); expected at most ${MAX_PROJECTED_NON_KEY_ATTRIBUTES} in total (an attribute projected into two indexes counts twice).`,
      String(projectedTotal),
      `at most ${MAX_PROJECTED_NON_KEY_ATTRIBUTES}`,
    );
  }

  // Billing.
  const billing = table.billing;
  if (billing.mode === 'PROVISIONED') {
    c.number(billing.readCapacityUnits, joinPath(joinPath(tp, 'billing'), 'readCapacityUnits'), 1, `${tableLabel}: provisioned read capacity`);
    c.number(billing.writeCapacityUnits, joinPath(joinPath(tp, 'billing'), 'writeCapacityUnits'), 1, `${tableLabel}: provisioned write capacity`);
  }
  table.globalSecondaryIndexes.forEach((g, k) => {
    const pp = joinPath(joinPath(joinPath(tp, 'globalSecondaryIndexes'), k), 'provisioned');
    if (billing.mode === 'PROVISIONED' && !g.provisioned) {
      c.add(
        'model.billing',
        pp,
        `GSI ${quote(g.name)} has no provisioned throughput, but table ${quote(table.name)} uses provisioned billing; expected read and write capacity units for the GSI.`,
        'no provisioned throughput',
        'readCapacityUnits and writeCapacityUnits',
      );
    } else if (billing.mode === 'ON_DEMAND' && g.provisioned) {
      c.add(
        'model.billing',
        pp,
        `GSI ${quote(g.name)} has provisioned throughput, but table ${quote(table.name)} is on-demand; expected no provisioned throughput on its GSIs.`,
        'provisioned throughput',
        'none (on-demand)',
      );
    } else if (g.provisioned) {
      c.number(g.provisioned.readCapacityUnits, joinPath(pp, 'readCapacityUnits'), 1, `GSI ${quote(g.name)}: provisioned read capacity`);
      c.number(g.provisioned.writeCapacityUnits, joinPath(pp, 'writeCapacityUnits'), 1, `GSI ${quote(g.name)}: provisioned write capacity`);
    }
  });

  if (table.ttlAttribute !== undefined) checkTtlAttribute(table, table.ttlAttribute, joinPath(tp, 'ttlAttribute'), uses, c);

  // Entities and access patterns.
  const slots = new Map<string, KeyUse[]>();
  for (const use of uses) {
    const list = slots.get(use.attribute.name);
    if (list) list.push(use);
    else slots.set(use.attribute.name, [use]);
  }
  const entityNames = new Map<string, number>();
  table.entities.forEach((entity, ej) => {
    const ep = joinPath(joinPath(tp, 'entities'), ej);
    if (entity.name.trim() === '') {
      c.add('model.invalidName', joinPath(ep, 'name'), `The ${ordinal(ej + 1)} entity of table ${quote(table.name)} has an empty name; expected a name such as User or Order.`, 'an empty name', 'a non-empty name');
    } else if (entityNames.has(entity.name)) {
      c.add(
        'model.duplicateName',
        joinPath(ep, 'name'),
        `${tableLabel} has two entities named ${quote(entity.name)} (the ${ordinal((entityNames.get(entity.name) ?? 0) + 1)} and the ${ordinal(ej + 1)}); expected unique entity names.`,
        quote(entity.name),
        'a name no other entity of the table has',
      );
    } else entityNames.set(entity.name, ej);
    validateEntity(table, entity, ep, slots, uses, c);
  });
  validateAccessPatterns(table, tp, c);
}

/**
 * The TTL attribute holds each item's expiry as a Number of epoch seconds; DynamoDB ignores items whose
 * TTL attribute is of another type. So its name must be 1–255 bytes (TimeToLiveSpecification's
 * AttributeName takes 1–255; counted in UTF-8 bytes like key attribute names), it cannot be an S or B
 * key attribute of the table or of an index, and an entity that declares it must declare it as N.
 */
function checkTtlAttribute(table: Table, name: string, path: string, uses: KeyUse[], c: Collector): void {
  const tableLabel = `Table ${quote(table.name)}`;
  if (name.trim() === '') {
    c.add(
      'model.invalidName',
      path,
      `${tableLabel} has an empty TTL attribute name; expected the name of an N attribute holding epoch seconds, or no TTL attribute.`,
      'an empty name',
      'an attribute name',
    );
    return;
  }
  const bytes = utf8ByteLength(name);
  if (bytes > MAX_TTL_ATTRIBUTE_NAME_BYTES) {
    c.add(
      'model.invalidName',
      path,
      `${tableLabel} has a TTL attribute name of ${bytes} bytes; expected at most ${MAX_TTL_ATTRIBUTE_NAME_BYTES} bytes, the longest name DynamoDB's TimeToLiveSpecification accepts.`,
      `${bytes} bytes`,
      `1–${MAX_TTL_ATTRIBUTE_NAME_BYTES} bytes`,
    );
  }
  const keyUse = uses.find((u) => u.attribute.name === name && u.attribute.type !== 'N');
  if (keyUse) {
    c.add(
      'model.ttlAttributeType',
      path,
      `${tableLabel}: the TTL attribute ${quote(name)} is the ${keyUse.role} key of ${keyUse.isTable ? 'the table' : keyUse.owner}, of type ${keyUse.attribute.type}; expected an N attribute holding epoch seconds (DynamoDB skips items whose TTL attribute is not a Number).`,
      `a ${keyUse.attribute.type} key attribute`,
      'an N attribute',
    );
  }
  for (const entity of table.entities) {
    const a = entity.attributes.find((x) => x.name === name && x.type !== 'N');
    if (!a) continue;
    c.add(
      'model.ttlAttributeType',
      path,
      `${tableLabel}: the TTL attribute ${quote(name)} is ${typed(a.type)} of entity ${quote(entity.name)}; expected an N attribute holding epoch seconds (DynamoDB skips items whose TTL attribute is not a Number).`,
      `${typed(a.type)} of ${entity.name}`,
      'an N attribute',
    );
  }
}

function checkProjection(projection: Projection, pp: string, owner: string, isLsi: boolean, c: Collector): void {
  if (projection.type !== 'INCLUDE') return;
  const np = joinPath(pp, 'nonKeyAttributes');
  if (projection.nonKeyAttributes.length === 0) {
    c.add(
      'model.projection',
      np,
      `${owner} has an INCLUDE projection with no attributes; expected at least one non-key attribute, or the KEYS_ONLY projection.`,
      'an empty list',
      'at least one attribute name',
    );
    return;
  }
  const seen = new Set<string>();
  projection.nonKeyAttributes.forEach((name, m) => {
    const ap = joinPath(np, m);
    if (name === '') {
      c.add('model.invalidName', ap, `${owner} projects an attribute with an empty name; expected an attribute name.`, 'an empty name', 'an attribute name');
      return;
    }
    const bytes = utf8ByteLength(name);
    if (isLsi && bytes > MAX_KEY_ATTRIBUTE_NAME_BYTES) {
      c.add(
        'model.invalidName',
        ap,
        `${owner} projects an attribute whose name is ${bytes} bytes long; expected at most ${MAX_KEY_ATTRIBUTE_NAME_BYTES} bytes for LSI projected attributes.`,
        `${bytes} bytes`,
        `at most ${MAX_KEY_ATTRIBUTE_NAME_BYTES} bytes`,
      );
    }
    // DynamoDB rejects a repeated name here ("Cannot have two attributes with the same name").
    if (seen.has(name)) {
      c.add('model.projection', ap, `${owner} projects ${quote(name)} twice; expected each attribute once.`, quote(name), 'each attribute once');
    }
    seen.add(name);
  });
}

const isScalarForKey = (type: Attribute['type']): type is 'S' | 'N' | 'B' | 'BOOL' => type === 'S' || type === 'N' || type === 'B' || type === 'BOOL';
const NUMBER_CONSTANT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

function validateEntity(table: Table, entity: Entity, ep: string, slots: Map<string, KeyUse[]>, uses: KeyUse[], c: Collector): void {
  const label = `Entity ${quote(entity.name)}`;
  c.number(entity.itemCount, joinPath(ep, 'itemCount'), 0, `${label}: item count`);

  const attributes = new Map<string, Attribute>();
  const firstIndex = new Map<string, number>();
  entity.attributes.forEach((a, k) => {
    const ap = joinPath(joinPath(ep, 'attributes'), k);
    if (a.name.trim() === '') {
      c.add('model.invalidName', joinPath(ap, 'name'), `${label}: the ${ordinal(k + 1)} attribute has an empty name; expected a name such as userId.`, 'an empty name', 'a non-empty name');
    } else if (attributes.has(a.name)) {
      c.add(
        'model.duplicateName',
        joinPath(ap, 'name'),
        `${label} has two attributes named ${quote(a.name)} (the ${ordinal((firstIndex.get(a.name) ?? 0) + 1)} and the ${ordinal(k + 1)}); expected unique attribute names.`,
        quote(a.name),
        'a name no other attribute of the entity has',
      );
    } else {
      attributes.set(a.name, a);
      firstIndex.set(a.name, k);
    }
    if (a.averageSizeBytes !== undefined) c.number(a.averageSizeBytes, joinPath(ap, 'averageSizeBytes'), 0, `${label}: average size of ${quote(a.name)}`, false);
    if (a.cardinality !== undefined) c.number(a.cardinality, joinPath(ap, 'cardinality'), 1, `${label}: cardinality of ${quote(a.name)}`);
  });
  const attributeNames = [...attributes.keys()];
  const renderedBytes: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const a of attributes.values()) {
    if (isScalarForKey(a.type)) renderedBytes[a.name] = a.averageSizeBytes ?? DEFAULT_RENDERED_BYTES[a.type];
  }

  const kp0 = joinPath(ep, 'keys');
  const tableKeys = [table.partitionKey, ...(table.sortKey ? [table.sortKey] : [])];
  for (const key of tableKeys) {
    if (key.name !== '' && !Object.hasOwn(entity.keys, key.name)) {
      const role = key === table.partitionKey ? 'partition' : 'sort';
      c.add(
        'model.missingKeyTemplate',
        joinPath(kp0, key.name),
        `${label} has no template for the table's ${role} key ${quote(key.name)}; expected one, since every item carries the table's keys.`,
        'no template',
        `a template for ${key.name}`,
      );
    }
  }

  for (const [keyName, binding] of Object.entries(entity.keys)) {
    const kp = joinPath(kp0, keyName);
    const keyUses = slots.get(keyName);
    if (!keyUses) {
      const known = [...slots.keys()];
      c.add(
        'model.unknownAttribute',
        kp,
        `${label} has a template for ${quote(keyName)}, which is not a key attribute of table ${quote(table.name)} or of its indexes; expected one of: ${listOf(known)}.`,
        quote(keyName),
        `one of: ${listOf(known)}`,
      );
      continue;
    }
    const keyType = (keyUses[0] as KeyUse).attribute.type;
    const isSortKey = keyUses.some((u) => u.role === 'sort');
    const isTableKey = keyUses.some((u) => u.isTable);
    const where = `${label}, key ${keyName}`;
    const templatePath = joinPath(kp, 'template');
    const parsed = parseKeyTemplate(binding.template, templatePath);
    if (!parsed.ok) {
      for (const p of parsed.errors) c.problems.push({ ...p, message: `${where}: ${p.message}` });
    } else {
      checkTemplate(parsed.value, keyType, isSortKey, where, templatePath, entity, attributes, attributeNames, renderedBytes, c);
    }
    if (binding.when !== undefined && binding.when.trim() !== '') {
      checkWhen(binding.when, joinPath(kp, 'when'), where, isTableKey, entity, attributes, attributeNames, c);
    }
    if (binding.shards !== undefined) checkShards(binding.shards, joinPath(kp, 'shards'), where, keyUses, entity, attributeNames, c);
  }

  checkIndexMembership(table, entity, kp0, uses, label, c);
}

function checkTemplate(
  t: KeyTemplate,
  keyType: KeyAttributeType,
  isSortKey: boolean,
  where: string,
  path: string,
  entity: Entity,
  attributes: Map<string, Attribute>,
  attributeNames: string[],
  renderedBytes: Record<string, number>,
  c: Collector,
): void {
  const source = quote(t.source);
  let hasUnknown = false;
  for (const part of t.parts) {
    if (part.kind !== 'attribute') continue;
    const a = attributes.get(part.name);
    if (!a) {
      hasUnknown = true;
      c.add(
        'keyTemplate.unknownAttribute',
        path,
        `${where}: template ${source} names ${quote(part.name)}, but ${entity.name} has no attribute ${quote(part.name)}; expected one of: ${listOf(attributeNames)}.`,
        quote(part.name),
        `one of: ${listOf(attributeNames)}`,
      );
    } else if (keyType === 'S' && a.type !== 'S' && a.type !== 'N' && a.type !== 'BOOL') {
      c.add(
        'keyTemplate.attributeType',
        path,
        `${where}: template ${source} names ${quote(a.name)}, ${typed(a.type)}; expected an S, N or BOOL attribute, the types a string key can hold as text.`,
        a.type,
        'S, N or BOOL',
      );
    } else if (keyType === 'S' && part.pad !== undefined && a.type !== 'N') {
      // (In an N or B key any padding is already a keyTemplate.keyType problem.)
      const placeholder = `{${part.name}:0${part.pad}}`;
      const expected = `padding only on an N attribute (a whole non-negative number), or {${part.name}} without padding`;
      c.add(
        'keyTemplate.paddingType',
        path,
        `${where}: template ${source} pads ${placeholder}, but ${quote(a.name)} is ${typed(a.type)} of ${entity.name}; expected ${expected}.`,
        `${placeholder} on ${typed(a.type)}`,
        expected,
      );
    }
  }
  if (hasUnknown) return;

  if (keyType === 'N' || keyType === 'B') {
    const [only, ...rest] = t.parts;
    const isSinglePlaceholder = only?.kind === 'attribute' && rest.length === 0 && only.pad === undefined && attributes.get(only.name)?.type === keyType;
    const isNumberConstant = keyType === 'N' && only?.kind === 'literal' && rest.length === 0 && NUMBER_CONSTANT.test(only.text) && only.text.replace(/[-.]/g, '').replace(/^0+/, '').length <= 38;
    if (!isSinglePlaceholder && !isNumberConstant) {
      const expected =
        keyType === 'N'
          ? 'a single placeholder of an N attribute without padding, such as {score}, or a number such as 0'
          : 'a single placeholder of a B attribute, such as {hash}';
      c.add('keyTemplate.keyType', path, `${where}: the key attribute is ${keyType}, but its template is ${source}; expected ${expected}.`, source, expected);
    }
    if (keyType === 'N') return;
  }

  const limit = isSortKey ? MAX_SORT_KEY_BYTES : MAX_PARTITION_KEY_BYTES;
  const bytes = estimateRenderedBytes(t, renderedBytes, 0);
  if (bytes > limit) {
    c.add(
      'model.keyTooLong',
      path,
      `${where}: template ${source} renders about ${bytes} bytes (from the attributes' average sizes); expected at most ${limit} bytes for a ${isSortKey ? 'sort' : 'partition'} key.`,
      `about ${bytes} bytes`,
      `at most ${limit} bytes`,
    );
  }
}

function checkWhen(
  when: string,
  path: string,
  where: string,
  isTableKey: boolean,
  entity: Entity,
  attributes: Map<string, Attribute>,
  attributeNames: string[],
  c: Collector,
): void {
  if (isTableKey) {
    c.add(
      'condition.onTableKey',
      path,
      `${where}: a "when" condition on a table key would leave some items without their primary key; expected no condition here (only index keys can be sparse).`,
      quote(when),
      'no condition',
    );
    return;
  }
  checkCondition(when, path, where, entity, attributes, attributeNames, c);
}

/** A condition (a key's `when`, a pattern's `filter`) must parse and compare the entity's attributes with values of their types. */
function checkCondition(
  source: string,
  path: string,
  where: string,
  entity: Entity,
  attributes: Map<string, Attribute>,
  attributeNames: string[],
  c: Collector,
): void {
  const parsed = parseCondition(source, path);
  if (!parsed.ok) {
    for (const p of parsed.errors) c.problems.push({ ...p, message: `${where}: ${p.message}` });
    return;
  }
  for (const name of conditionAttributes(parsed.value)) {
    const a = attributes.get(name);
    if (!a) {
      c.add(
        'condition.unknownAttribute',
        path,
        `${where}: condition ${quote(source)} names ${quote(name)}, but ${entity.name} has no attribute ${quote(name)}; expected one of: ${listOf(attributeNames)}.`,
        quote(name),
        `one of: ${listOf(attributeNames)}`,
      );
      continue;
    }
    const expectedType = a.type === 'S' ? 'string' : a.type === 'N' ? 'number' : a.type === 'BOOL' ? 'boolean' : undefined;
    if (expectedType === undefined) continue;
    const wrong = conditionValuesFor(parsed.value, name).find((v: ConditionValue) => typeof v !== expectedType);
    if (wrong !== undefined) {
      const wanted = a.type === 'S' ? 'a "quoted string"' : a.type === 'N' ? 'a number' : 'true or false';
      c.add(
        'condition.typeMismatch',
        path,
        `${where}: condition ${quote(source)} compares ${quote(name)}, ${typed(a.type)}, with ${describeValue(wrong)}, so it is never true; expected ${wanted}.`,
        describeValue(wrong),
        wanted,
      );
    }
  }
}

/**
 * Write sharding (reference §5) appends `.1`…`.N` to a partition-key value: only partition keys can
 * carry it, the key must be a string, and a calculated suffix needs the attribute it is hashed from.
 */
function checkShards(
  shards: Sharding,
  path: string,
  where: string,
  keyUses: KeyUse[],
  entity: Entity,
  attributeNames: string[],
  c: Collector,
): void {
  const partitionUses = keyUses.filter((u) => u.role === 'partition');
  if (partitionUses.length === 0) {
    const owners = keyUses.map((u) => `the sort key of ${u.owner}`).join(', ');
    c.add(
      'model.invalidSharding',
      path,
      `${where}: shards on ${owners}; expected shards only on a partition key (the table's or a GSI's), since a suffix on a sort key spreads nothing across partitions.`,
      'shards on a sort key',
      "shards on the table's or a GSI's partition key",
    );
    return;
  }
  const keyType = (partitionUses[0] as KeyUse).attribute.type;
  if (keyType !== 'S') {
    c.add(
      'model.invalidSharding',
      path,
      `${where}: shards on a ${keyType} partition key; expected an S key, since sharding appends ".1"…".N" to the key's text.`,
      `a ${keyType} key`,
      'an S key',
    );
  }
  const { count } = shards;
  if (!Number.isInteger(count) || count < MIN_SHARDS || count > MAX_SHARDS) {
    const expected = `a whole number from ${MIN_SHARDS} to ${MAX_SHARDS}`;
    c.add('model.invalidNumber', joinPath(path, 'count'), `${where}: shard count is ${describeValue(count)}; expected ${expected}.`, describeValue(count), expected);
  }
  if (shards.method !== 'calculated') return;
  const fromPath = joinPath(path, 'from');
  if (shards.from === undefined || shards.from.trim() === '') {
    c.add(
      'model.invalidSharding',
      fromPath,
      `${where}: calculated shards need "from", the attribute hashed into the suffix; expected one of: ${listOf(attributeNames)}.`,
      'no attribute',
      `one of: ${listOf(attributeNames)}`,
    );
  } else if (!attributeNames.includes(shards.from)) {
    c.add(
      'model.unknownAttribute',
      fromPath,
      `${where}: calculated shards hash ${quote(shards.from)}, but ${entity.name} has no attribute ${quote(shards.from)}; expected one of: ${listOf(attributeNames)}.`,
      quote(shards.from),
      `one of: ${listOf(attributeNames)}`,
    );
  }
}

/**
 * An item is in a GSI only when it has every key attribute of the index. A template for some of a
 * GSI's key attributes and not the others is almost always a mistake, unless the attributes it has are
 * keys of another index (or of the table) the entity is fully in.
 */
function checkIndexMembership(table: Table, entity: Entity, kp0: string, uses: KeyUse[], label: string, c: Collector): void {
  const has = (name: string): boolean => Object.hasOwn(entity.keys, name);
  const gsiKeys = table.globalSecondaryIndexes.map((g) => [g.partitionKey.name, ...(g.sortKey ? [g.sortKey.name] : [])]);
  const allKeys = [
    uses.filter((u) => u.isTable).map((u) => u.attribute.name),
    ...gsiKeys,
    ...table.localSecondaryIndexes.map((l) => [table.partitionKey.name, l.sortKey.name]),
  ];
  const explained = new Set<string>();
  for (const keys of allKeys) if (keys.every(has)) for (const k of keys) explained.add(k);
  table.globalSecondaryIndexes.forEach((g, gi) => {
    const keys = gsiKeys[gi] ?? [];
    const present = keys.filter(has);
    const missing = keys.filter((k) => !has(k));
    if (keys.includes('') || present.length === 0 || missing.length === 0 || present.every((k) => explained.has(k))) return;
    c.add(
      'model.incompleteIndexKey',
      joinPath(kp0, missing[0] as string),
      `${label} has a template for ${present.join(', ')} but none for ${missing.join(', ')}, so its items never appear in GSI ${quote(g.name)} (an item is in a GSI only when it has all of the index's key attributes); expected templates for all of ${keys.join(', ')}, or for none.`,
      'no template',
      `a template for ${missing.join(', ')}`,
    );
  });
}

function validateAccessPatterns(table: Table, tp: string, c: Collector): void {
  const names = new Map<string, number>();
  const entities = new Map(table.entities.map((e) => [e.id, e]));
  const entityList = table.entities.map((e) => `${e.id} (${e.name})`);
  table.accessPatterns.forEach((pattern, k) => {
    const ap = joinPath(joinPath(tp, 'accessPatterns'), k);
    const label = `Access pattern ${quote(pattern.name)}`;
    if (pattern.name.trim() === '') {
      c.add('model.invalidName', joinPath(ap, 'name'), `The ${ordinal(k + 1)} access pattern of table ${quote(table.name)} has an empty name; expected a name such as "Get user profile".`, 'an empty name', 'a non-empty name');
    } else if (names.has(pattern.name)) {
      c.add(
        'model.duplicateName',
        joinPath(ap, 'name'),
        `Table ${quote(table.name)} has two access patterns named ${quote(pattern.name)} (the ${ordinal((names.get(pattern.name) ?? 0) + 1)} and the ${ordinal(k + 1)}); expected unique access-pattern names.`,
        quote(pattern.name),
        'a name no other access pattern of the table has',
      );
    } else names.set(pattern.name, k);
    c.number(pattern.ratePerSecond, joinPath(ap, 'ratePerSecond'), 0, `${label}: rate per second`, false);
    if (pattern.resultSize !== undefined) c.number(pattern.resultSize, joinPath(ap, 'resultSize'), 0, `${label}: result size`);

    const entity = entities.get(pattern.entityId);
    if (!entity) {
      c.add(
        'model.unknownEntity',
        joinPath(ap, 'entityId'),
        `${label} refers to entity ${quote(pattern.entityId)}, which is not an entity of table ${quote(table.name)}; expected one of: ${listOf(entityList)}.`,
        quote(pattern.entityId),
        `one of: ${listOf(entityList)}`,
      );
      return;
    }
    const attributeNames = entity.attributes.map((a) => a.name);
    const checkAttribute = (name: string, path: string, role: string): void => {
      if (attributeNames.includes(name)) return;
      c.add(
        'model.unknownAttribute',
        path,
        `${label}: ${role} ${quote(name)} is not an attribute of ${entity.name}; expected one of: ${listOf(attributeNames)}.`,
        quote(name),
        `one of: ${listOf(attributeNames)}`,
      );
    };
    pattern.known.forEach((name, m) => checkAttribute(name, joinPath(joinPath(ap, 'known'), m), 'known attribute'));
    if (pattern.range) {
      checkAttribute(pattern.range.attribute, joinPath(joinPath(ap, 'range'), 'attribute'), 'range attribute');
      checkRangeOperator(pattern.range, joinPath(ap, 'range'), label, entity, c);
    }
    if (pattern.updates !== undefined) checkUpdates(table, pattern.action, pattern.updates, joinPath(ap, 'updates'), label, entity, checkAttribute, c);
    if (pattern.filter !== undefined && pattern.filter.trim() !== '') {
      const attributes = new Map(entity.attributes.map((a) => [a.name, a]));
      checkCondition(pattern.filter, joinPath(ap, 'filter'), `${label}, filter`, entity, attributes, attributeNames, c);
    }
  });
}

/** The attribute types each range operator can compare: DynamoDB's key-condition rules (begins_with on S or B; order on S, N, B). */
const RANGE_OPERAND_TYPES: Readonly<Record<RangeOperator, readonly Attribute['type'][]>> = {
  '=': ['S', 'N', 'B', 'BOOL'],
  '<': ['S', 'N', 'B'],
  '<=': ['S', 'N', 'B'],
  '>': ['S', 'N', 'B'],
  '>=': ['S', 'N', 'B'],
  between: ['S', 'N', 'B'],
  begins_with: ['S', 'B'],
};

function checkRangeOperator(range: NonNullable<AccessPattern['range']>, path: string, label: string, entity: Entity, c: Collector): void {
  const a = entity.attributes.find((x) => x.name === range.attribute);
  const allowed = RANGE_OPERAND_TYPES[range.operator];
  if (!a || allowed === undefined || allowed.includes(a.type)) return;
  const expected = `${range.operator} on ${allowed.join(', ')} attributes${range.operator === 'begins_with' ? ' (a prefix of text or bytes)' : ''}`;
  c.add(
    'model.rangeOperator',
    joinPath(path, 'operator'),
    `${label}: range ${range.operator} on ${quote(a.name)}, ${typed(a.type)} of ${entity.name}; expected ${expected}.`,
    `${range.operator} on ${typed(a.type)}`,
    expected,
  );
}

/**
 * `updates` lists what an update pattern changes: attributes of the entity, and never one its table
 * key templates are built from (UpdateItem cannot change the primary key; that is a delete and a put).
 */
function checkUpdates(
  table: Table,
  action: AccessPattern['action'],
  updates: string[],
  path: string,
  label: string,
  entity: Entity,
  checkAttribute: (name: string, path: string, role: string) => void,
  c: Collector,
): void {
  if (action !== 'update') {
    c.add(
      'model.invalidUpdates',
      path,
      `${label} is a ${action} pattern with "updates"; expected "updates" only on update patterns (it says which attributes an update changes).`,
      `updates on a ${action} pattern`,
      'no "updates", or action "update"',
    );
    return;
  }
  const tableKeyAttributes = new Map<string, string>();
  for (const key of [table.partitionKey, table.sortKey]) {
    const binding = key ? entity.keys[key.name] : undefined;
    const parsed = binding && key ? parseKeyTemplate(binding.template) : undefined;
    if (!parsed?.ok || !key) continue;
    for (const name of templateAttributes(parsed.value)) tableKeyAttributes.set(name, `${key.name} = ${binding?.template ?? ''}`);
  }
  updates.forEach((name, m) => {
    const ap = joinPath(path, m);
    checkAttribute(name, ap, 'updated attribute');
    const key = tableKeyAttributes.get(name);
    if (key !== undefined) {
      c.add(
        'model.invalidUpdates',
        ap,
        `${label} updates ${quote(name)}, which ${entity.name}'s table key ${key} is built from; UpdateItem cannot change an item's primary key, expected a delete and a put pattern instead.`,
        quote(name),
        "an attribute outside the table's key templates",
      );
    }
  });
}
