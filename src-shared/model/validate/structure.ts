/**
 * The structural check of `parseDesignStructure`: the design's shape against the TypeBox schema,
 * each TypeBox error turned into one `model.schema` problem per location, its JSON pointer into a path
 * (`tables[0].entities[2].name`) and a place named by the names in the design.
 */
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { formatNumber } from '../../numbers/index.ts';
import type { Problem } from '../problems.ts';
import { describeValue, isRecord, joinPath, ordinal, quote } from './wording.ts';

/** TypeBox errors → one plain-words problem per location. */
export function structuralProblems(schema: TSchema, root: unknown): Problem[] {
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
 * For a union of an object and a list (a GSI key part: one attribute or several): the errors of the
 * shape the value has. For a union of objects told apart by one literal property (`billing.mode`, `projection.type`):
 * the errors of the variant the value names, so the user hears about the field that is wrong in the
 * shape they chose, not about every variant. When the value names no variant, one error at the
 * discriminator listing the allowed values.
 */
function matchingVariant(error: ValueError): Iterable<ValueError> | undefined {
  const variants = (error.schema as { anyOf?: TSchema[] }).anyOf ?? [];
  const value = error.value;
  // One attribute or a list of them (a GSI key part): the errors of the shape the value has.
  const kinds = variants.map((v) => (v as { type?: string }).type);
  if (kinds.length === 2 && kinds.includes('array') && kinds.includes('object') && (Array.isArray(value) || isRecord(value))) {
    return error.errors[kinds.indexOf(Array.isArray(value) ? 'array' : 'object')];
  }
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
  const { type, minimum, maximum, minItems } = s as { type?: string; minimum?: number; maximum?: number; minItems?: number };
  // Large bounds with thousands separators: "1,000,000,000,000", not "1000000000000".
  const shown = (n: number): string => (Number.isInteger(n) && Math.abs(n) >= 10_000 ? formatNumber(n, 0) : String(n));
  const bounds = (what: string): string =>
    minimum !== undefined && maximum !== undefined
      ? `${what} from ${shown(minimum)} to ${shown(maximum)}`
      : minimum !== undefined
        ? `${what} ≥ ${shown(minimum)}`
        : maximum !== undefined
          ? `${what} ≤ ${shown(maximum)}`
          : what;
  switch (type) {
    case 'string':
      return 'text';
    case 'integer':
      return bounds('a whole number');
    case 'number':
      return bounds('a number');
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
