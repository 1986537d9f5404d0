/**
 * DynamoDB item sizes: DynamoDB JSON attribute values, their validation, and the byte counts every
 * read and write unit is computed from (reference §1).
 *
 * An item's size is the sum over its top-level attributes of the attribute name's UTF-8 bytes plus
 * the value's bytes. Strings count UTF-8 bytes (not UTF-16 code units, which is where dynalite
 * differs), binaries their decoded bytes, numbers follow the exact base-100 rule dynalite implements
 * (§1.2), lists and maps add 3 bytes plus 1 per element, sets add nothing.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
 */
import { ok, fail, type Result } from '../errors.ts';
import { utf8ByteLength } from '../model/key-template.ts';
import type { Problem } from '../model/problems.ts';
import { joinPath } from '../model/validate.ts';
import { figure, formatNumber, type Figure, type Step } from './figure.ts';

/** Codes of the problems `parseDynamoDbItem` and `checkItemSize` raise. */
export type ItemErrorCode =
  | 'item.notObject'
  | 'item.emptyAttributeName'
  | 'item.badAttributeValue'
  | 'item.unknownType'
  | 'item.badValue'
  | 'item.badNumber'
  | 'item.numberPrecision'
  | 'item.numberRange'
  | 'item.badBase64'
  | 'item.emptySet'
  | 'item.duplicateSetValue'
  | 'item.tooDeep'
  | 'item.tooLarge';

/**
 * One attribute value in DynamoDB JSON (the wire format of the API and of `aws dynamodb` CLI
 * output). Numbers are decimal strings; binaries are base64 strings.
 */
export type AttributeValue =
  | { S: string }
  | { N: string }
  | { B: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: string[] }
  | { L: AttributeValue[] }
  | { M: Record<string, AttributeValue> };

/** The type descriptors of DynamoDB JSON. */
export type AttributeValueType = 'S' | 'N' | 'B' | 'BOOL' | 'NULL' | 'SS' | 'NS' | 'BS' | 'L' | 'M';

/** An item: attribute name → value. */
export type Item = Record<string, AttributeValue>;

/**
 * Largest item, names and values included; an item of exactly this size is accepted (dynalite's
 * live-verified "just small enough" test). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
 */
export const MAX_ITEM_BYTES = 409_600;

/** Deepest nesting of lists and maps. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html */
export const MAX_NESTING_DEPTH = 32;

/** Significant digits a number may hold. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html */
export const MAX_NUMBER_DIGITS = 38;

/**
 * Decimal exponent range of a number's first significant digit: magnitudes from 1E-130 to
 * 9.99…E+125. Same page as MAX_NUMBER_DIGITS.
 */
export const MIN_NUMBER_EXPONENT = -130;
/** See MIN_NUMBER_EXPONENT. */
export const MAX_NUMBER_EXPONENT = 125;

/**
 * Bytes a list or map adds for itself, and bytes per element or entry (§1.1).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
 */
export const DOCUMENT_OVERHEAD_BYTES = 3;
/** See DOCUMENT_OVERHEAD_BYTES. */
export const DOCUMENT_ELEMENT_OVERHEAD_BYTES = 1;

const TYPES: readonly AttributeValueType[] = ['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M'];

// ---------------------------------------------------------------------------------------------
// Numbers

/** A decimal number split into what its stored size depends on. */
export interface DecimalParts {
  isNegative: boolean;
  /** Significant digits, leading and trailing zeros removed; `''` for zero. */
  digits: string;
  /** Power of ten of the first significant digit (`12.3` → 1, `0.05` → -2); 0 for zero. */
  exponent: number;
}

const DECIMAL = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;

/**
 * Splits a decimal string (`-12.30`, `1e3`, `.5`) into sign, significant digits and exponent, or
 * returns undefined when it is not a decimal number. Accepts what DynamoDB's number parser accepts,
 * as far as dynalite's (big.js) does, plus a leading `+`.
 */
export function parseDecimal(n: string): DecimalParts | undefined {
  const m = DECIMAL.exec(n);
  if (!m) return undefined;
  const whole = m[2] ?? '';
  const fraction = m[3] ?? m[4] ?? '';
  const all = whole + fraction;
  const first = all.search(/[1-9]/);
  if (first < 0) return { isNegative: false, digits: '', exponent: 0 };
  const power = m[5] === undefined ? 0 : Number(m[5]);
  return {
    isNegative: m[1] === '-',
    digits: all.slice(first).replace(/0+$/, ''),
    exponent: whole.length - 1 - first + power,
  };
}

/**
 * Bytes a number value takes, by the exact rule dynalite implements and live DynamoDB agrees with
 * (§1.2): 1 for zero, else 1 + ceil(digits / 2), + 1 when the digit count and the exponent are both
 * even (the base-100 pairs do not line up), + 1 for a negative number. The docs' "about
 * ceil(digits / 2) + 1" is an approximation of this. Throws for a string that is not a number (call
 * `parseDynamoDbItem` on outside data first).
 */
export function numberValueBytes(n: string): number {
  const parts = parseDecimal(n);
  if (!parts) throw new Error(`numberValueBytes: ${JSON.stringify(n)} is not a decimal number.`);
  return decimalBytes(parts);
}

function decimalBytes({ isNegative, digits, exponent }: DecimalParts): number {
  if (digits === '') return 1;
  const d = digits.length;
  // `exponent % 2` is -1 for a negative odd exponent (truthy), so test evenness with === 0.
  const misaligned = d % 2 === 0 && exponent % 2 === 0 ? 1 : 0;
  return 1 + Math.ceil(d / 2) + misaligned + (isNegative ? 1 : 0);
}

/** The canonical text of a number (for spotting duplicates in a number set: `1.0` and `1` are one). */
function canonicalNumber(p: DecimalParts): string {
  return p.digits === '' ? '0' : `${p.isNegative ? '-' : ''}${p.digits}e${p.exponent}`;
}

// ---------------------------------------------------------------------------------------------
// Base64

const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The number of bytes a base64 string decodes to, or undefined when it is not canonical padded
 * base64 (length a multiple of 4, only `A–Z a–z 0–9 + /`, at most two `=` at the end, unused bits
 * zero). DynamoDB stores and counts the decoded bytes.
 */
export function base64DecodedLength(s: string): number | undefined {
  if (s.length % 4 !== 0) return undefined;
  const padding = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const body = s.length - padding;
  for (let i = 0; i < body; i += 1) {
    if (BASE64_DIGITS.indexOf(s.charAt(i)) < 0) return undefined;
  }
  if (padding > 0) {
    // The last digit before the padding carries 4 (==) or 2 (=) bits that decode to nothing; a
    // canonical encoder writes them as zeros.
    const last = BASE64_DIGITS.indexOf(s.charAt(body - 1));
    if ((last & (padding === 2 ? 0b1111 : 0b11)) !== 0) return undefined;
  }
  return (s.length / 4) * 3 - padding;
}

function base64Bytes(s: string): number {
  const n = base64DecodedLength(s);
  if (n === undefined) throw new Error(`attributeValueBytes: ${JSON.stringify(s.slice(0, 20))} is not base64.`);
  return n;
}

// ---------------------------------------------------------------------------------------------
// Sizes

/** The type descriptor of a value (`S`, `N`, `L`, …). */
export function attributeValueType(v: AttributeValue): AttributeValueType {
  for (const t of TYPES) if (Object.hasOwn(v, t)) return t;
  throw new Error('attributeValueType: not an attribute value.');
}

/**
 * Bytes a value takes, without its attribute name (§1.1): S its UTF-8 bytes, N per
 * `numberValueBytes`, B its decoded bytes, BOOL and NULL 1, sets the sum of their elements, L 3 + Σ(1 +
 * element), M 3 + Σ(1 + key UTF-8 bytes + value).
 */
export function attributeValueBytes(v: AttributeValue): number {
  if ('S' in v) return utf8ByteLength(v.S);
  if ('N' in v) return numberValueBytes(v.N);
  if ('B' in v) return base64Bytes(v.B);
  if ('BOOL' in v || 'NULL' in v) return 1;
  if ('SS' in v) return v.SS.reduce((sum, s) => sum + utf8ByteLength(s), 0);
  if ('NS' in v) return v.NS.reduce((sum, n) => sum + numberValueBytes(n), 0);
  if ('BS' in v) return v.BS.reduce((sum, b) => sum + base64Bytes(b), 0);
  if ('L' in v) return v.L.reduce((sum, e) => sum + DOCUMENT_ELEMENT_OVERHEAD_BYTES + attributeValueBytes(e), DOCUMENT_OVERHEAD_BYTES);
  return Object.entries(v.M).reduce(
    (sum, [k, e]) => sum + DOCUMENT_ELEMENT_OVERHEAD_BYTES + utf8ByteLength(k) + attributeValueBytes(e),
    DOCUMENT_OVERHEAD_BYTES,
  );
}

/** An item's size in bytes: Σ over top-level attributes of (name UTF-8 bytes + value bytes). */
export function itemSizeBytes(item: Item): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) bytes += utf8ByteLength(name) + attributeValueBytes(value);
  return bytes;
}

/** Attributes shown one step each in `itemSizeFigure`; the rest are grouped into one step. */
export const ITEMIZED_ATTRIBUTES = 40;

const plural = (n: number, one: string, many = `${one}s`): string => `${formatNumber(n)} ${n === 1 ? one : many}`;

function describeValue(v: AttributeValue, bytes: number): string {
  const b = `${formatNumber(bytes)} B`;
  if ('S' in v) return `S of ${plural(utf8ByteLength(v.S), 'UTF-8 byte')} = ${b}`;
  if ('N' in v) {
    const p = parseDecimal(v.N);
    const digits = p ? (p.digits === '' ? 'zero' : `${plural(p.digits.length, 'digit')}, exponent ${p.exponent}`) : '?';
    return `N ${v.N.length > 24 ? v.N.slice(0, 24) + '…' : v.N} (${digits}) = ${b}`;
  }
  if ('B' in v) return `B of ${b} decoded`;
  if ('BOOL' in v) return `BOOL = ${b}`;
  if ('NULL' in v) return `NULL = ${b}`;
  if ('SS' in v) return `SS of ${plural(v.SS.length, 'string')}, Σ elements = ${b}`;
  if ('NS' in v) return `NS of ${plural(v.NS.length, 'number')}, Σ elements = ${b}`;
  if ('BS' in v) return `BS of ${plural(v.BS.length, 'binary', 'binaries')}, Σ elements = ${b}`;
  if ('L' in v) return `L of ${plural(v.L.length, 'element')}: 3 + Σ(1 + element) = ${b}`;
  return `M of ${plural(Object.keys(v.M).length, 'entry', 'entries')}: 3 + Σ(1 + key + value) = ${b}`;
}

function hasType(v: AttributeValue, types: readonly AttributeValueType[]): boolean {
  if (types.includes(attributeValueType(v))) return true;
  if ('L' in v) return v.L.some((e) => hasType(e, types));
  if ('M' in v) return Object.values(v.M).some((e) => hasType(e, types));
  return false;
}

/**
 * An item's size as a Figure: one step per top-level attribute (name bytes + value bytes; past
 * `ITEMIZED_ATTRIBUTES` the rest are grouped), then the total, in bytes. For `keyplan size`.
 */
export function itemSizeFigure(item: Item): Figure {
  const source = '§1.1 https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html';
  const steps: Step[] = [];
  const entries = Object.entries(item);
  let total = 0;
  let restBytes = 0;
  entries.forEach(([name, value], i) => {
    const nameBytes = utf8ByteLength(name);
    const valueBytes = attributeValueBytes(value);
    total += nameBytes + valueBytes;
    if (i >= ITEMIZED_ATTRIBUTES) {
      restBytes += nameBytes + valueBytes;
      return;
    }
    steps.push({
      label: `Attribute ${JSON.stringify(name)}`,
      expression: `name ${formatNumber(nameBytes)} B + ${describeValue(value, valueBytes)}`,
      value: nameBytes + valueBytes,
      unit: 'B',
      source,
    });
  });
  if (entries.length > ITEMIZED_ATTRIBUTES) {
    const rest = entries.length - ITEMIZED_ATTRIBUTES;
    steps.push({ label: `The other ${plural(rest, 'attribute')}`, expression: 'Σ (name + value)', value: restBytes, unit: 'B', source });
  }
  steps.push({
    label: 'Item size',
    expression: entries.length === 0 ? 'no attributes' : `Σ over ${plural(entries.length, 'attribute')} = ${formatNumber(total)} B of the ${formatNumber(MAX_ITEM_BYTES)} B limit`,
    value: total,
    unit: 'B',
    source,
  });
  const values = Object.values(item);
  const assumptions: string[] = [];
  if (values.some((v) => hasType(v, ['N', 'NS']))) {
    assumptions.push('Number sizes use the exact base-100 rule dynalite implements; AWS documents only an approximation (reference §1.2, §10.15).');
  }
  if (values.some((v) => hasType(v, ['SS', 'NS', 'BS']))) {
    assumptions.push('A set counts the sum of its elements, with no overhead (reference §10.16).');
  }
  return figure(steps, assumptions);
}

/**
 * `item.tooLarge` when the item is over `MAX_ITEM_BYTES` (409,600 bytes; exactly 409,600 is
 * accepted), else the size in bytes. DynamoDB rejects such a write with "Item size has exceeded the
 * maximum allowed size".
 */
export function checkItemSize(item: Item, path = 'item'): Result<number, Problem> {
  const bytes = itemSizeBytes(item);
  if (bytes <= MAX_ITEM_BYTES) return ok(bytes);
  return fail([
    {
      code: 'item.tooLarge',
      path,
      message: `The item is ${formatNumber(bytes)} bytes; expected at most ${formatNumber(MAX_ITEM_BYTES)} bytes (400 KB), names and values included.`,
      found: `${formatNumber(bytes)} bytes`,
      expected: `at most ${formatNumber(MAX_ITEM_BYTES)} bytes`,
    },
  ]);
}

// ---------------------------------------------------------------------------------------------
// Parsing DynamoDB JSON

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 30 ? v.slice(0, 30) + '…' : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

class ItemParser {
  readonly problems: Problem[] = [];

  add(code: ItemErrorCode, path: string, message: string, found: string, expected: string): void {
    this.problems.push({ code, path, message: `${path}: ${message}`, found, expected });
  }

  /** `depth` is the nesting level of the value (a top-level attribute's value is level 1). */
  value(v: unknown, path: string, depth: number): AttributeValue | undefined {
    if (!isRecord(v)) {
      this.add('item.badAttributeValue', path, `expected an attribute value such as {"S": "text"}, found ${describe(v)}.`, describe(v), 'an object with one type descriptor');
      return undefined;
    }
    const keys = Object.keys(v);
    if (keys.length !== 1) {
      const found = keys.length === 0 ? 'no type descriptor' : `${keys.length} keys: ${keys.join(', ')}`;
      this.add('item.badAttributeValue', path, `expected exactly one type descriptor (${TYPES.join(', ')}), found ${found}.`, found, 'exactly one type descriptor');
      return undefined;
    }
    const type = keys[0] as string;
    const at = joinPath(path, type);
    const raw = v[type];
    switch (type) {
      case 'S':
        return typeof raw === 'string' ? { S: raw } : this.badValue(at, raw, 'a string');
      case 'N': {
        if (typeof raw !== 'string') return this.badValue(at, raw, 'a number written as a string, e.g. "42"');
        return this.number(raw, at) === undefined ? undefined : { N: raw };
      }
      case 'B': {
        if (typeof raw !== 'string') return this.badValue(at, raw, 'a base64 string');
        return this.binary(raw, at) === undefined ? undefined : { B: raw };
      }
      case 'BOOL':
        return typeof raw === 'boolean' ? { BOOL: raw } : this.badValue(at, raw, 'true or false');
      case 'NULL':
        return raw === true ? { NULL: true } : this.badValue(at, raw, 'true (DynamoDB writes NULL as {"NULL": true})');
      case 'SS':
      case 'NS':
      case 'BS':
        return this.set(type, raw, at);
      case 'L': {
        if (!Array.isArray(raw)) return this.badValue(at, raw, 'a list of attribute values');
        if (!this.depthOk(depth, path)) return undefined;
        const list: AttributeValue[] = [];
        let isValid = true;
        raw.forEach((e: unknown, i) => {
          const parsed = this.value(e, joinPath(at, i), depth + 1);
          if (parsed) list.push(parsed);
          else isValid = false;
        });
        return isValid ? { L: list } : undefined;
      }
      case 'M': {
        if (!isRecord(raw)) return this.badValue(at, raw, 'an object of attribute values');
        if (!this.depthOk(depth, path)) return undefined;
        const map = this.attributes(raw, at, depth + 1, false);
        return map && { M: map };
      }
      default: {
        this.add('item.unknownType', at, `unknown type descriptor ${JSON.stringify(type)}; expected one of ${TYPES.join(', ')}.`, JSON.stringify(type), `one of ${TYPES.join(', ')}`);
        return undefined;
      }
    }
  }

  attributes(raw: Record<string, unknown>, path: string, depth: number, isTopLevel: boolean): Record<string, AttributeValue> | undefined {
    const out: Record<string, AttributeValue> = Object.create(null) as Record<string, AttributeValue>;
    let isValid = true;
    for (const [name, v] of Object.entries(raw)) {
      const at = joinPath(path, name);
      if (isTopLevel && name === '') {
        this.add('item.emptyAttributeName', at, 'an attribute name is empty; expected at least 1 character.', 'an empty name', 'a name of at least 1 byte');
        isValid = false;
        continue;
      }
      const parsed = this.value(v, at, depth);
      if (parsed) out[name] = parsed;
      else isValid = false;
    }
    return isValid ? out : undefined;
  }

  private badValue(path: string, raw: unknown, expected: string): undefined {
    this.add('item.badValue', path, `expected ${expected}, found ${describe(raw)}.`, describe(raw), expected);
    return undefined;
  }

  private depthOk(depth: number, path: string): boolean {
    if (depth <= MAX_NESTING_DEPTH) return true;
    this.add('item.tooDeep', path, `lists and maps are nested ${depth} levels deep here; expected at most ${MAX_NESTING_DEPTH}.`, `${depth} levels`, `at most ${MAX_NESTING_DEPTH} levels`);
    return false;
  }

  private number(raw: string, path: string): DecimalParts | undefined {
    const p = parseDecimal(raw);
    if (!p) {
      this.add('item.badNumber', path, `${JSON.stringify(raw)} is not a number; expected a decimal such as 42, -1.5 or 6.02e23.`, JSON.stringify(raw), 'a decimal number');
      return undefined;
    }
    if (p.digits.length > MAX_NUMBER_DIGITS) {
      this.add('item.numberPrecision', path, `the number has ${p.digits.length} significant digits; expected at most ${MAX_NUMBER_DIGITS}.`, `${p.digits.length} digits`, `at most ${MAX_NUMBER_DIGITS} significant digits`);
      return undefined;
    }
    if (p.digits !== '' && (p.exponent > MAX_NUMBER_EXPONENT || p.exponent < MIN_NUMBER_EXPONENT)) {
      this.add('item.numberRange', path, `the number's magnitude is 1e${p.exponent}; expected 1e-130 to 9.99…e+125.`, `1e${p.exponent}`, 'a magnitude from 1e-130 to 9.99…e+125');
      return undefined;
    }
    return p;
  }

  private binary(raw: string, path: string): number | undefined {
    const n = base64DecodedLength(raw);
    if (n === undefined) {
      this.add('item.badBase64', path, `${describe(raw)} is not base64; expected padded base64 such as "AQI=".`, describe(raw), 'padded base64');
    }
    return n;
  }

  private set(type: 'SS' | 'NS' | 'BS', raw: unknown, path: string): AttributeValue | undefined {
    const element = type === 'SS' ? 'string' : type === 'NS' ? 'number string' : 'base64 string';
    if (!Array.isArray(raw)) return this.badValue(path, raw, `a list of ${element}s`);
    if (raw.length === 0) {
      this.add('item.emptySet', path, `a set may not be empty; expected at least one ${element}, or no attribute.`, 'an empty set', `at least one ${element}`);
      return undefined;
    }
    const seen = new Map<string, number>();
    const values: string[] = [];
    let isValid = true;
    raw.forEach((e: unknown, i) => {
      const at = joinPath(path, i);
      if (typeof e !== 'string') {
        this.badValue(at, e, `a ${element}`);
        isValid = false;
        return;
      }
      let key: string | undefined = e;
      if (type === 'NS') {
        const p = this.number(e, at);
        key = p && canonicalNumber(p);
      } else if (type === 'BS') {
        key = this.binary(e, at) === undefined ? undefined : e;
      }
      if (key === undefined) {
        isValid = false;
        return;
      }
      const first = seen.get(key);
      if (first !== undefined) {
        this.add('item.duplicateSetValue', at, `${describe(e)} repeats element ${first} of the set; expected each value once.`, describe(e), 'distinct values');
        isValid = false;
        return;
      }
      seen.set(key, i);
      values.push(e);
    });
    if (!isValid) return undefined;
    return type === 'SS' ? { SS: values } : type === 'NS' ? { NS: values } : { BS: values };
  }
}

/**
 * Reads an item written in DynamoDB JSON (`{"id": {"S": "a"}, "n": {"N": "1"}}`) and checks it as
 * DynamoDB would, collecting every problem with its path (`item.tags.SS[2]`):
 * `item.notObject`, `item.emptyAttributeName`, `item.badAttributeValue` (not one type descriptor),
 * `item.unknownType`, `item.badValue` (wrong JSON type for the descriptor), `item.badNumber`,
 * `item.numberPrecision` (over 38 significant digits), `item.numberRange`, `item.badBase64`,
 * `item.emptySet`, `item.duplicateSetValue`, `item.tooDeep` (lists and maps nested over 32 levels).
 * The size limit is checked separately by `checkItemSize`, so an oversize item can still be measured.
 * Never throws.
 */
export function parseDynamoDbItem(json: unknown, path = 'item'): Result<Item, Problem> {
  const parser = new ItemParser();
  if (!isRecord(json)) {
    parser.add('item.notObject', path, `expected an item, an object of attribute values such as {"id": {"S": "a"}}, found ${describe(json)}.`, describe(json), 'an object');
    return fail(parser.problems);
  }
  const item = parser.attributes(json, path, 1, true);
  return item && parser.problems.length === 0 ? ok(item) : fail(parser.problems);
}
