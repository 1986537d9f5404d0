/**
 * The first value generator's samples (`email` → `ana@example.com`, `createdAt` →
 * `2026-03-14T09:30:00Z`, sample i the i-th of a list), kept for one reader: `previewSamples`, an
 * entity's samples without its table, whose values the OneTable export's golden file pins (its saved
 * queries' keys). Every other reader takes its values from the one generator (`columns.ts`); once
 * that golden file is written anew from rank columns (`createRankColumn`: item i holds rank i of each
 * attribute), this module goes. Not exported from the folder's index.
 */
import type { Attribute, Entity, Generator } from '../model/schema.ts';
import { enumShares, idDigits } from '../model/value-model.ts';
import { CATEGORIES, CITIES, COUNTRIES, CURRENCIES, FIRST_NAMES, idInitialsOf, kindFromName, LAST_NAMES, PRODUCTS, STATUSES, wordsOf, type NameKind } from '../model/value-heuristics.ts';
import { toBase64 } from './column.ts';
import type { SampleItem, SampleValue } from './types.ts';

/** The date sample 0 falls on; later samples go back one day at a time. */
const SAMPLE_BASE_DATE_UTC_MS = Date.UTC(2026, 2, 14, 9, 30, 0);

const DAY_MS = 86_400_000;
/** Digits an id's number is padded to, as the sample data writes it (for up to 999,999 items). */
const ID_DIGITS = 6;
const WORDS = ['fast', 'delivery', 'great', 'quality', 'would', 'buy', 'again', 'fits', 'well', 'as', 'described', 'solid'];

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

/** A 32-bit FNV-1a hash, to derive stable pseudo-random digits from a name and an index. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function uuidFor(name: string, i: number): string {
  let hex = '';
  for (let k = 0; hex.length < 32; k += 1) hex += hash32(`${name}#${i}#${k}`).toString(16).padStart(8, '0');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const isoTimestamp = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

function text(i: number, length: number): string {
  let out = '';
  for (let k = 0; out.length < length; k += 1) out += (out === '' ? '' : ' ') + pick(WORDS, i * 3 + k);
  return out.slice(0, Math.max(1, length));
}

/** Picks from `values` by `weights` with a low-discrepancy sequence, so early samples follow the weights. */
function weightedPick(values: readonly string[], weights: readonly number[] | undefined, i: number): string {
  if (!weights || weights.length !== values.length) return pick(values, i);
  const total = weights.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return pick(values, i);
  const u = (((i + 0.5) * 0.6180339887498949) % 1) * total;
  let acc = 0;
  for (let k = 0; k < values.length; k += 1) {
    acc += weights[k] ?? 0;
    if (u < acc) return values[k] as string;
  }
  return values[values.length - 1] as string;
}

type Kind = Generator['kind'] | NameKind | 'boolean';

/** What an attribute suggests it holds when it has no generator: BOOL is `boolean` whatever its name; otherwise its name decides. */
function kindOf(name: string, type: Attribute['type']): Kind {
  return type === 'BOOL' ? 'boolean' : kindFromName(name);
}

/**
 * Sample `index` (0-based) of one attribute, or `undefined` for types a key preview cannot use (sets,
 * lists, maps, NULL). With a `cardinality`, values repeat every `cardinality` samples.
 * `entityName` names ids called just `id` (`Order.id` → `o-1001`).
 */
export function sampleValue(attribute: Attribute, index: number, entityName = '', digits = ID_DIGITS): SampleValue | undefined {
  const { name, type, generator } = attribute;
  if (type !== 'S' && type !== 'N' && type !== 'B' && type !== 'BOOL') return undefined;
  const i = attribute.cardinality !== undefined && attribute.cardinality > 0 ? index % attribute.cardinality : index;
  const isNumber = type === 'N';
  const kind: Kind = generator?.kind ?? kindOf(name, type);
  const first = pick(FIRST_NAMES, i);
  const round = Math.floor(i / FIRST_NAMES.length);
  const ms = SAMPLE_BASE_DATE_UTC_MS - i * DAY_MS - (i % 7) * 3_600_000;

  let value: SampleValue;
  switch (kind) {
    case 'id':
    case 'ref':
      // The same ids the sample data generates: initials, a dash and the 1-based number, zero-padded to 6.
      value = isNumber ? 1 + i : `${generator?.prefix ?? `${idInitialsOf(name, entityName)}-`}${String(1 + i).padStart(generator?.width ?? digits, '0')}`;
      break;
    case 'uuid':
      value = uuidFor(name, i);
      break;
    case 'name':
      value = `${first} ${pick(LAST_NAMES, i + round)}`;
      break;
    case 'firstName':
      value = first;
      break;
    case 'lastName':
      value = pick(LAST_NAMES, i);
      break;
    case 'userName':
      value = `${first.toLowerCase()}${round === 0 ? '' : round + 1}`;
      break;
    case 'email':
      value = `${first.toLowerCase()}${round === 0 ? '' : round + 1}@example.com`;
      break;
    case 'date':
      value = isNumber ? Math.floor(ms / 1000) : isoDate(ms);
      break;
    case 'timestamp':
      value = isNumber ? Math.floor(ms / 1000) : isoTimestamp(ms);
      break;
    case 'number': {
      const min = Math.ceil(generator?.min ?? 1);
      const max = Math.max(min, Math.floor(generator?.max ?? 100));
      value = min + ((i * 37) % (max - min + 1));
      break;
    }
    case 'enum':
      // The value model's shares: a spread (hot value, Zipf) or the weights.
      value = generator?.values && generator.values.length > 0 ? weightedPick(generator.values, generator.distribution && generator.distribution.kind !== 'uniform' ? enumShares(attribute)?.shares : generator.weights, i) : pick(STATUSES, i);
      break;
    case 'constant':
      value = generator?.value ?? '';
      break;
    case 'text':
      value = text(i, generator?.length ?? 24);
      break;
    case 'product':
      value = pick(PRODUCTS, i);
      break;
    case 'status':
      value = pick(STATUSES, i);
      break;
    case 'country':
      value = pick(COUNTRIES, i);
      break;
    case 'city':
      value = pick(CITIES, i);
      break;
    case 'currency':
      value = pick(CURRENCIES, i);
      break;
    case 'category':
      value = pick(CATEGORIES, i);
      break;
    case 'phone':
      value = `+1-555-${String(100 + (i % 900)).padStart(4, '0')}`;
      break;
    case 'sku':
      value = `SKU-${10001 + i}`;
      break;
    case 'url':
      value = `https://example.com/${wordsOf(name)[0] ?? 'item'}/${1001 + i}`;
      break;
    case 'money':
      value = isNumber ? 1999 + ((i * 1250) % 20000) : ((1999 + ((i * 1250) % 20000)) / 100).toFixed(2);
      break;
    case 'quantity':
      value = 1 + (i % 5);
      break;
    case 'rating':
      value = 5 - (i % 5);
      break;
    case 'boolean':
      value = i % 2 === 0;
      break;
    case 'plain':
      value = isNumber ? i + 1 : `${name}-${i + 1}`;
      break;
  }
  return coerce(value, type, i);
}

/** Makes a value fit the attribute's type (a generator may not match it, e.g. an `email` kind on N). */
function coerce(value: SampleValue, type: 'S' | 'N' | 'B' | 'BOOL', i: number): SampleValue {
  switch (type) {
    case 'S':
      return String(value);
    case 'N':
      return typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : i + 1;
    case 'BOOL':
      return typeof value === 'boolean' ? value : i % 2 === 0;
    case 'B':
      // Binary samples are base64 text of a few stable bytes, as DynamoDB JSON writes B values.
      return toBase64([0x4b, 0x50, i & 0xff, (i >> 8) & 0xff]);
  }
}

/**
 * Whether sample `i` carries an optional attribute: a low-discrepancy sequence, so that the first
 * samples already follow its presence share (sample 0 always carries it).
 */
function isPresentInSample(attribute: Attribute, i: number): boolean {
  const p = attribute.presence;
  if (p === undefined || !(p < 1)) return true;
  return ((i * 0.6180339887498949) % 1) < p;
}

/**
 * `count` sample items of an entity (samples 0 … count−1), each with a value for every scalar
 * attribute it carries (S, N, B as base64 text, BOOL). Deterministic: the same entity gives the same items.
 */
export function sampleItems(entity: Entity, count: number): SampleItem[] {
  const items: SampleItem[] = [];
  for (let i = 0; i < count; i += 1) {
    const item: SampleItem = {};
    for (const attribute of entity.attributes) {
      if (!isPresentInSample(attribute, i)) continue;
      const value = sampleValue(attribute, i, entity.name, idDigits(attribute, entity.itemCount));
      if (value !== undefined && attribute.name !== '') item[attribute.name] = value;
    }
    items.push(item);
  }
  return items;
}
