/**
 * Bytes of DynamoDB values and items (docs/dynamodb-rules.md §1): numbers by the base-100 rule, binaries decoded,
 * lists and maps with their overhead, and the item size as a Figure for `keyplan size`.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
 */
import { utf8ByteLength } from '../../model/index.ts';
import { figure, formatNumber, type Figure, type Step } from '../figure.ts';
import { AWS_DOCS } from '../sources.ts';
import { attributeValueType, base64DecodedLength, parseDecimal, type AttributeValue, type AttributeValueType, type DecimalParts, type Item } from './values.ts';

/**
 * Largest item, names and values included; an item of exactly this size is accepted (dynalite's
 * live-verified "just small enough" test). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
 */
export const MAX_ITEM_BYTES = 409_600;

/**
 * Bytes a list or map adds for itself, and bytes per element or entry (docs/dynamodb-rules.md §1.1).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
 */
export const DOCUMENT_OVERHEAD_BYTES = 3;
/** See DOCUMENT_OVERHEAD_BYTES. */
export const DOCUMENT_ELEMENT_OVERHEAD_BYTES = 1;

/**
 * Bytes a number value takes, by the exact rule dynalite implements and live DynamoDB agrees with
 * (docs/dynamodb-rules.md §1.2): 1 for zero, else 1 + ceil(digits / 2), + 1 when the digit count and the exponent are both
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

function base64Bytes(s: string): number {
  const n = base64DecodedLength(s);
  if (n === undefined) throw new Error(`attributeValueBytes: ${JSON.stringify(s.slice(0, 20))} is not base64.`);
  return n;
}

/**
 * Bytes a value takes, without its attribute name (docs/dynamodb-rules.md §1.1): S its UTF-8 bytes, N per
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
  const source = AWS_DOCS.itemSizes;
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
    assumptions.push('Number sizes use the exact base-100 rule dynalite implements; AWS documents only an approximation (a Keyplan assumption).');
  }
  if (values.some((v) => hasType(v, ['SS', 'NS', 'BS']))) {
    assumptions.push('A set counts the sum of its elements, with no overhead, as dynalite counts it (a Keyplan assumption).');
  }
  return figure(steps, assumptions);
}
