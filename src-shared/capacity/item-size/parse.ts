/**
 * Reading and checking items in DynamoDB JSON as DynamoDB would: every problem collected with its path
 * (`parseDynamoDbItem`), and the 400 KB item limit (`checkItemSize`).
 */
import { ok, fail, type Result } from '../../errors.ts';
import type { Problem } from '../../model/index.ts';
import { joinPath } from '../../model/index.ts';
import { formatNumber } from '../figure.ts';
import { MAX_ITEM_BYTES, itemSizeBytes } from './sizes.ts';
import { TYPES, base64DecodedLength, canonicalNumber, parseDecimal, type AttributeValue, type DecimalParts, type Item } from './values.ts';

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
