/**
 * Checks what crosses the wire against the contract's schemas, compiled once (TypeBox's
 * `TypeCompiler`) the first time a channel is checked. Whatever arrives over IPC is untrusted: a
 * wrong shape is `ipc.badInput` whose `path` names the first failing field and whose `details` name
 * every one (up to `MAX_REPORTED_FIELDS`). Messages quote at most 80 characters of anything the caller
 * sent, so an error's size does not grow with the input.
 *
 * Not for the renderer: compiling builds functions from source text, which the page's
 * content security policy forbids (and the renderer has nothing to check).
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import type { ErrorData } from '../errors.ts';
import { clipText, quoteClipped } from '../model/index.ts';
import type { Channel, EventName } from './contract.ts';
import { contract, eventContract } from './contract-schemas.ts';

/** How many failing fields one `ipc.badInput` lists in its details. */
export const MAX_REPORTED_FIELDS = 20;

/** One failing field of an input: where, what it should be, what it is. */
export interface BadField {
  /** `expected.sha256`, `documentId`; empty for the input itself. */
  path: string;
  expected: string;
  found: string;
}

const compiled = new Map<TSchema, TypeCheck<TSchema>>();

function compile(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/**
 * `input` checked against `channel`'s input schema: `undefined` when it fits, else the `ipc.badInput`
 * error naming the first failing field (its `path`) and, in `details.fields`, every one.
 */
export function checkChannelInput(channel: Channel, input: unknown): ErrorData<'ipc.badInput'> | undefined {
  const check = compile(contract[channel].input);
  if (check.Check(input)) return undefined;
  const fields = badFields(check, input);
  const [first] = fields;
  if (first === undefined) {
    return { code: 'ipc.badInput', message: `Bad input to "${channel}": it does not fit the channel's schema.` };
  }
  const more = fields.length > 1 ? ` (and ${fields.length - 1} more: ${fields.slice(1, 4).map((f) => f.path || 'the input').join(', ')}${fields.length > 4 ? ', …' : ''})` : '';
  return {
    code: 'ipc.badInput',
    message: `Bad input to "${channel}": ${sentence(first)}${more}.`,
    ...(first.path === '' ? {} : { path: first.path }),
    details: { fields },
  };
}

/**
 * The fields of `output` that do not fit `channel`'s output schema (empty when it fits). For tests:
 * the host does not check its own replies at run time.
 */
export function checkChannelOutput(channel: Channel, output: unknown): BadField[] {
  const check = compile(contract[channel].output);
  return check.Check(output) ? [] : badFields(check, output);
}

/** The fields of an event's payload that do not fit its schema (empty when it fits). For tests. */
export function checkEventPayload(event: EventName, payload: unknown): BadField[] {
  const check = compile(eventContract[event]);
  return check.Check(payload) ? [] : badFields(check, payload);
}

/** Every failing field once, the first error at a place kept (a missing field is not also "not a string"). */
function badFields(check: TypeCheck<TSchema>, value: unknown): BadField[] {
  const fields: BadField[] = [];
  const seen = new Set<string>();
  for (const error of check.Errors(value)) {
    const field = toBadField(error);
    if (seen.has(field.path)) continue;
    seen.add(field.path);
    fields.push(field);
    if (fields.length === MAX_REPORTED_FIELDS) break;
  }
  return fields;
}

function toBadField(error: ValueError): BadField {
  const path = pathOf(error.path);
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return { path, expected: describeSchema(error.schema), found: 'missing' };
    case ValueErrorType.ObjectAdditionalProperties: {
      const known = Object.keys((error.schema as { properties?: object }).properties ?? {});
      return { path, expected: known.length === 0 ? 'no fields' : `only ${known.map((k) => `"${k}"`).join(', ')}`, found: 'an unknown field' };
    }
    default:
      return { path, expected: describeSchema(error.schema), found: describeValue(error.value) };
  }
}

function sentence(field: BadField): string {
  const subject = field.path === '' ? 'the input' : `"${field.path}"`;
  if (field.found === 'missing') return `${subject} is missing; expected ${field.expected}`;
  if (field.found === 'an unknown field') return `unknown field ${subject}; expected ${field.expected}`;
  return `${subject} must be ${field.expected}, received ${field.found}`;
}

/** A JSON pointer (`/expected/sha256`) as a path (`expected.sha256`, `a[0]`), each name cut at 80 characters. */
function pathOf(pointer: string): string {
  if (pointer === '') return '';
  let path = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (/^(0|[1-9]\d*)$/.test(segment)) path += `[${segment}]`;
    else path += `${path === '' ? '' : '.'}${clipText(segment)}`;
  }
  return path;
}

/** What a schema allows, in words: `a whole number ≥ 0`, `"cold" or "warm"`, `a string of at most 200 characters`. */
function describeSchema(schema: TSchema): string {
  const s = schema as { expected?: string; const?: unknown; anyOf?: TSchema[]; type?: string; minimum?: number; maxLength?: number };
  if (typeof s.expected === 'string') return s.expected;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf !== undefined) return s.anyOf.map(describeSchema).join(' or ');
  const atLeast = s.minimum === undefined ? '' : ` ≥ ${s.minimum}`;
  switch (s.type) {
    case 'string':
      return s.maxLength === undefined ? 'a string' : `a string of at most ${s.maxLength} characters`;
    case 'integer':
      return `a whole number${atLeast}`;
    case 'number':
      return `a number${atLeast}`;
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    default:
      return 'a valid value';
  }
}

/** A value as sent, quoting at most 80 characters of text: `the string "abc"`, `the number -1`, `an array`. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length > 80 ? `a string of ${value.length} characters, ${quoteClipped(value)}` : `the string ${quoteClipped(value)}`;
    case 'number':
    case 'boolean':
      return `the ${typeof value} ${String(value)}`;
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
