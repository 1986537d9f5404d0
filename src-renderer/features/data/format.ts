/**
 * Display helpers of the data screen: sizes in DynamoDB's binary units, entity colours, values as
 * text. Presentation only; no domain rules.
 */
import type { SampleValue } from '../../../src-shared/sample/types.ts';
import { formatNumber } from '../../../src-shared/format/index.ts';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `436 B`, `1.2 KB`, `187.1 MB` (1 KB = 1,024 B, as DynamoDB counts). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${UNITS[unit]}`;
}

/** `1,000,000`. */
export const formatCount = (n: number): string => formatNumber(n, 3);

/** Distinguishable hues, in the order entities get them. */
const PALETTE = ['#2f5bd3', '#d9480f', '#2b8a3e', '#9c36b5', '#c2255c', '#0b7285', '#e67700', '#5c940d', '#364fc7', '#862e9c', '#495057', '#a61e4d'];

/** A colour per entity id, in the design's order of entities: the same entity keeps its colour. */
export function entityColours(entityIds: readonly string[]): Map<string, string> {
  return new Map(entityIds.map((id, i) => [id, PALETTE[i % PALETTE.length]!]));
}

/** A value as the list shows it: strings as they are, numbers and booleans as text. */
export const formatValue = (v: SampleValue): string => (typeof v === 'string' ? v : String(v));
