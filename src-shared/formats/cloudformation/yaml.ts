/**
 * A small YAML emitter for plain JSON data (objects, arrays, strings, numbers, booleans, null), in
 * block style with two-space indents, keys in insertion order. Enough for CloudFormation templates,
 * without a dependency. Internal to `formats`.
 *
 * Strings are written plain only when no YAML 1.1 or 1.2 reader can take them for anything else (a
 * number, a date, a boolean such as `yes`, `N` or `off`, null, or syntax); everything else is
 * double-quoted with JSON's escapes, which YAML's double-quoted style shares.
 */
import { wellFormed } from '../common/table-spec.ts';

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./:-]*$/;
/** Words YAML 1.1 (and some 1.2 readers) resolve to booleans or null. */
const KEYWORDS = /^(y|n|yes|no|true|false|on|off|null)$/i;

/** A scalar string as YAML: plain when that is unambiguous, else double-quoted. */
export function yamlString(text: string): string {
  const s = wellFormed(text);
  const isPlain = PLAIN.test(s) && !s.endsWith(':') && !KEYWORDS.test(s);
  return isPlain ? s : JSON.stringify(s);
}

function scalar(value: string | number | boolean | null): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return yamlString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return value ? 'true' : 'false';
}

const isBlock = (v: YamlValue): v is YamlValue[] | { [key: string]: YamlValue } =>
  typeof v === 'object' && v !== null && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);

const emptyCollection = (v: YamlValue): string | undefined =>
  Array.isArray(v) && v.length === 0 ? '[]' : typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0 ? '{}' : undefined;

function lines(value: YamlValue, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const element of value) {
      if (isBlock(element)) {
        const inner: string[] = [];
        lines(element, `${indent}  `, inner);
        // The first line of the element goes on the dash's line.
        out.push(`${indent}- ${inner[0]!.slice(indent.length + 2)}`, ...inner.slice(1));
      } else {
        out.push(`${indent}- ${emptyCollection(element) ?? scalar(element as string | number | boolean | null)}`);
      }
    }
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, element] of Object.entries(value)) {
      const k = yamlString(key);
      if (isBlock(element)) {
        out.push(`${indent}${k}:`);
        lines(element, `${indent}  `, out);
      } else {
        out.push(`${indent}${k}: ${emptyCollection(element) ?? scalar(element as string | number | boolean | null)}`);
      }
    }
    return;
  }
  out.push(`${indent}${scalar(value)}`);
}

/** The YAML text of `value`, ending with a newline. */
export function toYaml(value: YamlValue): string {
  if (!isBlock(value)) return `${emptyCollection(value) ?? scalar(value as string | number | boolean | null)}\n`;
  const out: string[] = [];
  lines(value, '', out);
  return `${out.join('\n')}\n`;
}
