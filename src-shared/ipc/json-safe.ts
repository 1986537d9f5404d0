/**
 * Checks that a value survives `JSON.stringify` → `JSON.parse` unchanged in meaning: only plain
 * objects, arrays, strings, finite numbers, booleans and null. Classes (Date, Map, AppError), functions,
 * `undefined` array slots, NaN and bigint would be silently changed or dropped on a real wire.
 */

/** Where a non-JSON-safe value is (`design.createdAt`, empty for the value itself) and what it is (`a Date`). */
export interface NonJsonValue {
  path: string;
  found: string;
}

/**
 * Finds the first value that is not JSON-safe, or `undefined` when the whole value is JSON-safe.
 * An `undefined` object property is allowed: it reads back as an absent optional property.
 */
export function findNonJsonValue(value: unknown, path = ''): NonJsonValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : { path, found: String(value) };
    case 'object': {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (value[i] === undefined) return { path: `${path}[${i}]`, found: 'undefined' };
          const found = findNonJsonValue(value[i], `${path}[${i}]`);
          if (found !== undefined) return found;
        }
        return undefined;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        return { path, found: `a ${(value as object).constructor?.name ?? 'class instance'}` };
      }
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined) continue;
        const found = findNonJsonValue(item, path === '' ? key : `${path}.${key}`);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    default:
      return { path, found: `a ${typeof value}` };
  }
}

/** A deep copy through JSON, as a real transport would deliver it. */
export function roundTripJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
