/**
 * Reading a generated sample: a view's lines a page at a time (item collection headers and items,
 * in the view's order), its items, the line of a partition key, and one item in DynamoDB JSON.
 * Values, keys and rows are rendered here, on demand; nothing is kept per item.
 */
import type { AttributeValue, Item } from '../capacity/index.ts';
import type { Column } from './column.ts';
import { CompiledKey } from './keys.ts';
import { entityOf, itemOf, type EntityData, type ViewData } from './store-data.ts';
import { KEY_PART_SEPARATOR, type SamplePage, type SampleRow, type SampleValue } from './types.ts';
import { compareCodePoints, groupKeys, keyTexts, sortView } from './views.ts';

/** The largest page `readPage` and `readItems` return. */
export const MAX_PAGE_ROWS = 10_000;

const isCarried = (data: EntityData, key: number, row: number): boolean => {
  const mask = data.carried[key];
  return !mask || mask[row] === 1;
};

const keyValue = (key: CompiledKey, row: number): SampleValue => {
  const text = key.render(row);
  return key.type === 'N' ? Number(text) : text;
};

const clampLimit = (limit: number): number => Math.max(0, Math.min(MAX_PAGE_ROWS, Math.floor(Number.isFinite(limit) ? limit : 0)));
const clampOffset = (offset: number): number => Math.max(0, Math.floor(Number.isFinite(offset) ? offset : 0));

/** The attributes of a member's entry, as (name, value) pairs; the view's own keys left out unless `withKeys`. */
function entryOf(entities: readonly EntityData[], v: ViewData, m: number, withKeys: boolean): { data: EntityData; row: number; attributes: Array<[string, Column | CompiledKey]> } {
  const item = itemOf(v, m);
  const data = entityOf(entities, item);
  const row = item - data.offset;
  const plan = v.plans[data.index]!;
  const skip = withKeys ? new Set<string>() : new Set([...v.pk, ...v.sk].map((a) => a.name));
  const attributes: Array<[string, Column | CompiledKey]> = [];
  if (plan.parts === null) {
    // The entity's own attributes first, then the key attributes it carries.
    for (const c of data.columns) if (!skip.has(c.name) && c.isPresent(row)) attributes.push([c.name, c]);
    data.keys.forEach((k, i) => {
      if (!skip.has(k.name) && isCarried(data, i, row)) attributes.push([k.name, k]);
    });
  } else {
    for (const part of plan.parts) {
      if ('key' in part) {
        const k = data.keys[part.key] as CompiledKey;
        if (!skip.has(k.name) && isCarried(data, part.key, row)) attributes.push([k.name, k]);
      } else if (!skip.has(part.column.name) && part.column.isPresent(row)) attributes.push([part.column.name, part.column]);
    }
  }
  return { data, row, attributes };
}

/** Member `m` of a view as a row: its keys in the view, its size there and the attributes it holds. */
function rowOf(entities: readonly EntityData[], v: ViewData, m: number): SampleRow {
  const { data, row, attributes } = entryOf(entities, v, m, false);
  const plan = v.plans[data.index]!;
  const values: Record<string, SampleValue> = {};
  for (const [name, source] of attributes) values[name] = source instanceof CompiledKey ? keyValue(source, row) : source.value(row);
  const result: SampleRow = {
    entityId: data.entity.id,
    entity: data.entity.name,
    partitionKey: groupKeys(entities, v)[v.groupOf[m]!]!,
    bytes: v.entryBytes[m]!,
    attributes: values,
  };
  if (plan.sk.length === 1) result.sortKey = (data.keys[plan.sk[0]!] as CompiledKey).render(row);
  else if (plan.sk.length > 1) result.sortKey = keyTexts(entities, v, m, 'sk').join(KEY_PART_SEPARATOR);
  // A multi-attribute key's values, each as rendered.
  if (v.pk.length > 1 || v.sk.length > 1) result.keyValues = [...keyTexts(entities, v, m, 'pk'), ...keyTexts(entities, v, m, 'sk')];
  return result;
}

/** Lines `offset` … of a view (`SampleStore.page`): each item collection's header line, then its items in sort-key order. */
export function readPage(entities: readonly EntityData[], v: ViewData, offset: number, limit: number): SamplePage {
  const s = sortView(entities, v);
  const keys = groupKeys(entities, v);
  const groups = keys.length;
  const total = v.groupOf.length + groups;
  const rows: SampleRow[] = [];
  let line = clampOffset(offset);
  const end = Math.min(total, line + clampLimit(limit));
  if (line >= end) return { total, rows };
  // The collection holding `line`: the last p whose header line groupStart[p] + p ≤ line.
  let lo = 0;
  let hi = groups - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (s.groupStart[mid]! + mid <= line) lo = mid;
    else hi = mid - 1;
  }
  let p = lo;
  while (line < end) {
    const header = s.groupStart[p]! + p;
    if (line === header) {
      const g = s.groupOrder[p]!;
      const items = v.totals[2 * g]!;
      const bytes = v.totals[2 * g + 1]!;
      rows.push({ entityId: '', entity: '', partitionKey: keys[g]!, bytes, attributes: {}, collection: { items, bytes } });
    } else {
      const position = line - p - 1;
      if (position >= s.groupStart[p + 1]!) {
        p += 1;
        continue;
      }
      rows.push(rowOf(entities, v, s.order[position]!));
    }
    line += 1;
  }
  return { total, rows };
}

/** Items `offset` … of a view in its order, without header lines (`SampleStore.items`). */
export function readItems(entities: readonly EntityData[], v: ViewData, offset: number, limit: number): SamplePage {
  const s = sortView(entities, v);
  const total = v.groupOf.length;
  const start = clampOffset(offset);
  const end = Math.min(total, start + clampLimit(limit));
  const rows: SampleRow[] = [];
  for (let i = start; i < end; i += 1) rows.push(rowOf(entities, v, s.order[i]!));
  return { total, rows };
}

/** The header line of the first item collection whose partition key starts with `keyPrefix` (`SampleStore.find`). */
export function findKey(entities: readonly EntityData[], v: ViewData, keyPrefix: string): number | null {
  const s = sortView(entities, v);
  const keys = groupKeys(entities, v);
  const groups = keys.length;
  if (groups === 0) return null;
  const keyAt = (p: number): string => keys[s.groupOrder[p]!]!;
  if (v.pk.length > 1 || v.pk[0]!.type === 'B') {
    // Not in the order of their text (B, or several attributes each in its own type's order): a scan.
    for (let p = 0; p < groups; p += 1) if (keyAt(p).startsWith(keyPrefix)) return s.groupStart[p]! + p;
    return null;
  }
  if (v.pk[0]!.type === 'N') {
    const target = Number(keyPrefix.trim());
    if (keyPrefix.trim() === '' || !Number.isFinite(target)) return null;
    let lo = 0;
    let hi = groups;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (Number(keyAt(mid)) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo < groups && Number(keyAt(lo)) === target ? s.groupStart[lo]! + lo : null;
  }
  let lo = 0;
  let hi = groups;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareCodePoints(keyAt(mid), keyPrefix) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < groups && keyAt(lo).startsWith(keyPrefix) ? s.groupStart[lo]! + lo : null;
}

/** Item `offset` of a view in DynamoDB JSON (`SampleStore.itemAt`). Throws past the view's last item. */
export function readItem(entities: readonly EntityData[], v: ViewData, offset: number): Item {
  const s = sortView(entities, v);
  const position = clampOffset(offset);
  if (position >= v.groupOf.length) throw new Error(`Sample view ${JSON.stringify(v.info.name)} has ${v.groupOf.length} items; there is no item ${position}.`);
  const { row, attributes } = entryOf(entities, v, s.order[position]!, true);
  const item: Item = {};
  for (const [name, source] of attributes) {
    let value: AttributeValue;
    if (source instanceof CompiledKey) {
      const text = source.render(row);
      value = source.type === 'N' ? { N: text } : source.type === 'B' ? { B: text } : { S: text };
    } else value = source.attributeValue(row);
    item[name] = value;
  }
  return item;
}
