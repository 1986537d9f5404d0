/**
 * A run's sample items: drawn once from the seeded sample store, each kept as DynamoDB JSON and as
 * plain values (what key templates render from), with the helpers requests take them apart with
 * (the primary key, a value typed back as DynamoDB JSON).
 */
import type { AttributeValue, Item } from '../capacity/index.ts';
import type { Design, Table } from '../model/index.ts';
import { kindOf } from '../model/index.ts';
import { createSampleStore } from '../sample/index.ts';
import { tableKeyNames } from './create-table.ts';

/** A value as key templates render it. */
export type Plain = string | number | boolean;

/** A sample item of the run: its DynamoDB JSON and plain values. */
export interface SampleItem {
  item: Item;
  values: Record<string, Plain>;
}

/** An item as plain values (S, N, BOOL; other types are left out: no key template renders them). */
export function plainValues(item: Item): Record<string, Plain> {
  const out: Record<string, Plain> = {};
  for (const [name, value] of Object.entries(item)) {
    const v = value as Record<string, unknown>;
    if (typeof v['S'] === 'string') out[name] = v['S'];
    else if (typeof v['N'] === 'string') out[name] = Number(v['N']);
    else if (typeof v['BOOL'] === 'boolean') out[name] = v['BOOL'];
  }
  return out;
}

/** A value typed as DynamoDB JSON for an attribute of `type` (S when unknown). */
export function typed(value: Plain, type: string | undefined): AttributeValue {
  if (type === 'N') return { N: String(value) };
  if (type === 'BOOL') return { BOOL: value === true || value === 'true' };
  if (type === 'B') return { B: String(value) };
  return { S: String(value) };
}

/** The primary key of an item, for requests. */
export function keyOf(item: Item, table: Table): Item {
  const key: Item = {};
  for (const name of tableKeyNames(table)) {
    const v = item[name];
    if (v !== undefined) key[name] = v;
  }
  return key;
}

/** `PK=USER#1, SK=PROFILE`: an item's primary key, for display. */
export function keyText(item: Item, table: Table): string {
  return Object.entries(keyOf(item, table))
    .map(([name, v]) => `${name}=${String(Object.values(v as Record<string, unknown>)[0])}`)
    .join(', ');
}

/** Calls `k` of `repeat` spread over the candidates. */
export function pick<T>(candidates: readonly T[], k: number, repeat: number): T {
  const stride = Math.max(1, Math.floor(candidates.length / Math.max(1, repeat)));
  return candidates[(k * stride) % candidates.length]!;
}

/** A run's sample, by entity id. */
export interface RunSample {
  /** The items the run loads into its table. */
  loaded: Map<string, SampleItem[]>;
  /** Items not loaded, for the entity's put patterns to write (`repeat` per put pattern). */
  heldBack: Map<string, SampleItem[]>;
}

/** Sample items are read from the store this many at a time. */
const PAGE = 5_000;

/**
 * Draws the sample of `table` (a table of `design` as the run holds it: each entity's item count is
 * what the run loads) with `seed`, and holds back `repeat` more items per entity and put pattern.
 */
export function drawSample(design: Design, table: Table, repeat: number, seed: number): RunSample {
  // Puts write items that are not loaded: K more per entity with put patterns, held back.
  const putsPerEntity = new Map<string, number>();
  for (const p of table.accessPatterns) if (kindOf(p.action).creates && p.entityId !== undefined) putsPerEntity.set(p.entityId, (putsPerEntity.get(p.entityId) ?? 0) + repeat);
  const storeTable: Table = { ...table, entities: table.entities.map((e) => ({ ...e, itemCount: e.itemCount + (putsPerEntity.get(e.id) ?? 0) })) };
  const store = createSampleStore({ ...design, tables: design.tables.map((t) => (t.id === table.id ? storeTable : t)) }, table.id, { seed, maxItems: 10_000_000 });

  // Items with the same primary key are one item in DynamoDB (the later write replaces the earlier):
  // a sample of random references can draw a key twice, so only its first item is kept.
  const byEntity = new Map<string, SampleItem[]>();
  const seen = new Set<string>();
  const total = store.summary().views.find((v) => v.name === 'table')?.itemCount ?? 0;
  for (let offset = 0; offset < total; offset += PAGE) {
    const page = store.items('table', offset, Math.min(PAGE, total - offset));
    page.rows.forEach((row, i) => {
      const item = store.itemAt('table', offset + i);
      const key = JSON.stringify(keyOf(item, table));
      if (seen.has(key)) return;
      seen.add(key);
      const list = byEntity.get(row.entityId) ?? [];
      list.push({ item, values: plainValues(item) });
      byEntity.set(row.entityId, list);
    });
  }
  const loaded = new Map<string, SampleItem[]>();
  const heldBack = new Map<string, SampleItem[]>();
  for (const [entityId, list] of byEntity) {
    const held = putsPerEntity.get(entityId) ?? 0;
    loaded.set(entityId, list.slice(0, list.length - held));
    heldBack.set(entityId, list.slice(list.length - held));
  }
  return { loaded, heldBack };
}
