/**
 * Input shape checks for handlers. Whatever arrives over IPC is untrusted: a wrong shape is refused
 * with `ipc.badInput`, its `path` naming the field. Designs are checked in depth by `parseDesign` later.
 */
import { AppError } from '../../src-shared/errors.ts';
import type { Channel } from '../../src-shared/ipc/contract.ts';

type FieldKind = 'string' | 'boolean' | 'number' | 'object';
type KindType = { string: string; boolean: boolean; number: number; object: object };
type FieldSpec = Record<string, FieldKind | `${FieldKind}?`>;
type BaseKind<K> = K extends `${infer B}?` ? B : K;
type Required<S extends FieldSpec> = { [K in keyof S as S[K] extends `${string}?` ? never : K]: KindType[BaseKind<S[K]> & FieldKind] };
type Optional<S extends FieldSpec> = { [K in keyof S as S[K] extends `${string}?` ? K : never]?: KindType[BaseKind<S[K]> & FieldKind] };
export type Checked<S extends FieldSpec> = Required<S> & Optional<S>;

/**
 * Checks that `input` is an object with exactly the fields of `spec` (`'string'`, `'boolean?'`, ...)
 * and returns it typed. Unknown fields are refused too: they are a caller's mistake.
 */
export function checkInput<S extends FieldSpec>(channel: Channel, input: unknown, spec: S): Checked<S> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw badInput(channel, '', `the input must be an object, received ${describe(input)}`);
  }
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(key in spec)) throw badInput(channel, key, `unknown field "${key}"; expected ${listFields(spec)}`);
  }
  for (const [key, kindSpec] of Object.entries(spec)) {
    const optional = kindSpec.endsWith('?');
    const kind = kindSpec.replace('?', '') as FieldKind;
    const value = record[key];
    if (value === undefined) {
      if (!optional) throw badInput(channel, key, `"${key}" is missing; expected a ${kind}`);
    } else if (!hasKind(value, kind)) {
      throw badInput(channel, key, `"${key}" must be a ${kind}, received ${describe(value)}`);
    }
  }
  return record as Checked<S>;
}

function hasKind(value: unknown, kind: FieldKind): boolean {
  if (kind === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  // NaN and ±Infinity do not survive JSON anyway; refuse them as the mistakes they are.
  if (kind === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === kind;
}

function badInput(channel: Channel, path: string, why: string): AppError {
  return new AppError({ code: 'ipc.badInput', message: `Bad input to "${channel}": ${why}.`, ...(path ? { path } : {}) });
}

function listFields(spec: FieldSpec): string {
  const keys = Object.keys(spec);
  return keys.length === 0 ? 'no fields' : keys.map((k) => `"${k}"`).join(', ');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}${typeof value === 'number' || typeof value === 'boolean' ? ` (${String(value)})` : ''}`;
}
