/**
 * Plain values as DynamoDB JSON attribute values, typed by a declared attribute type or by their
 * JavaScript type. Shared by the item exports; `dynamodb-json/export.ts` re-exports the public part.
 */
import type { AttributeValue } from '../../capacity/index.ts';
import type { AttributeType } from '../../model/index.ts';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Bytes as base64 text, the way DynamoDB JSON writes B values. */
export function base64Encode(bytes: Uint8Array): string {
  let out = '';
  for (let k = 0; k < bytes.length; k += 3) {
    const a = bytes[k]!;
    const b = bytes[k + 1] ?? 0;
    const c = bytes[k + 2] ?? 0;
    const n = (a << 16) | (b << 8) | c;
    out += BASE64[(n >> 18) & 63]! + BASE64[(n >> 12) & 63]!;
    out += k + 1 < bytes.length ? BASE64[(n >> 6) & 63]! : '=';
    out += k + 2 < bytes.length ? BASE64[n & 63]! : '=';
  }
  return out;
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
const numberText = (v: unknown): string | undefined =>
  typeof v === 'number' ? (Number.isFinite(v) ? String(v) : undefined) : typeof v === 'string' && /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v.trim()) ? v.trim() : undefined;

/** A value of no declared type, typed by its JavaScript type (inside lists and maps). */
export function inferValue(v: unknown): AttributeValue | undefined {
  if (typeof v === 'string') return { S: v };
  if (typeof v === 'number') return Number.isFinite(v) ? { N: String(v) } : undefined;
  if (typeof v === 'boolean') return { BOOL: v };
  if (v === null) return { NULL: true };
  if (v instanceof Uint8Array) return { B: base64Encode(v) };
  if (Array.isArray(v)) return { L: v.map(inferValue).filter((x): x is AttributeValue => x !== undefined) };
  if (isRecord(v)) return { M: encodeMap(v) };
  return undefined;
}

function encodeMap(v: Record<string, unknown>): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [k, x] of Object.entries(v)) {
    const encoded = inferValue(x);
    if (encoded !== undefined) setOwn(out, k, encoded);
  }
  return out;
}

/** `obj[key] = value` as an own property, even for a key such as `__proto__`. */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

const unique = (values: string[]): string[] => [...new Set(values)];

/**
 * A plain value as DynamoDB JSON of the declared `type`: `encodeValue(42, 'N')` → `{ N: "42" }`,
 * `encodeValue(42, 'S')` → `{ S: "42" }`, `encodeValue(['a'], 'SS')` → `{ SS: ["a"] }`. B values are
 * base64 text or bytes. Undefined when the value cannot be of that type (or is an empty set, which
 * DynamoDB rejects); never throws.
 */
export function encodeValue(value: unknown, type: AttributeType): AttributeValue | undefined {
  switch (type) {
    case 'S':
      return typeof value === 'string' ? { S: value } : typeof value === 'number' || typeof value === 'boolean' ? { S: String(value) } : undefined;
    case 'N': {
      const n = numberText(value);
      return n === undefined ? undefined : { N: n };
    }
    case 'B':
      return typeof value === 'string' ? { B: value } : value instanceof Uint8Array ? { B: base64Encode(value) } : undefined;
    case 'BOOL':
      return typeof value === 'boolean' ? { BOOL: value } : value === 'true' || value === 'false' ? { BOOL: value === 'true' } : undefined;
    case 'NULL':
      return { NULL: true };
    case 'SS': {
      const values = unique((Array.isArray(value) ? value : [value]).filter((x): x is string | number => typeof x === 'string' || typeof x === 'number').map(String));
      return values.length > 0 ? { SS: values } : undefined;
    }
    case 'NS': {
      const values = unique((Array.isArray(value) ? value : [value]).map(numberText).filter((x): x is string => x !== undefined));
      return values.length > 0 ? { NS: values } : undefined;
    }
    case 'BS': {
      const values = unique((Array.isArray(value) ? value : [value]).map((x) => (typeof x === 'string' ? x : x instanceof Uint8Array ? base64Encode(x) : undefined)).filter((x): x is string => x !== undefined));
      return values.length > 0 ? { BS: values } : undefined;
    }
    case 'L':
      return Array.isArray(value) ? { L: value.map(inferValue).filter((x): x is AttributeValue => x !== undefined) } : undefined;
    case 'M':
      return isRecord(value) ? { M: encodeMap(value) } : undefined;
  }
}

