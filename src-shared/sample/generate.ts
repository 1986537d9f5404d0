/**
 * Generating a sample: how many items of each entity (`sampleCounts`), their columns (`columns.ts`)
 * and compiled keys (`keys.ts`), and one pass over the items, entity by entity, in chunks: sizes
 * column by column, then each view's members, grouped into item collections as they come
 * (`grouping.ts`). What it leaves is the store's data (`store-data.ts`); `views.ts` orders and
 * places the views, `reading.ts` reads them.
 */
import {
  partitionKeysOf,
  sortKeysOf,
  gsiKeySourceOf,
  keySlotsOf,
  type KeySlot,
  parseKeyTemplate,
  utf8ByteLength,
  type KeyTemplate,
  MAX_PARTITION_KEY_BYTES,
  MAX_SORT_KEY_BYTES,
  keyValueBound,
  maxKeyTextBytes,
} from '../model/index.ts';
import type { Attribute, Entity, KeyAttribute, KeyBinding, Projection, Table } from '../model/index.ts';
import type { Column, ColumnContext } from './column.ts';
import { createColumn } from './columns.ts';
import { addMembers, maskChecks, viewGroupersFor, ViewBuild, type MemberJob, type ViewDefinition } from './grouping.ts';
import { CompiledKey, type KeySizeLimit, type NaturalKey } from './keys.ts';
import type { EntityData, ViewData, ViewPlan } from './store-data.ts';
import { formatNumber } from '../numbers/index.ts';

/** The most items a store generates unless told otherwise; larger designs are scaled down to it. */
export const DEFAULT_MAX_ITEMS = 2_000_000;
/** How often, in items, generation reports progress. */
export const PROGRESS_EVERY_ITEMS = 50_000;

const TYPE_NAMES = new Set(['S', 'N', 'B', 'BOOL']);

function sanitizeCount(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** Adds an optional attribute's name and value bytes to `out[row]` for the rows that carry it. */
function addPresentBytes(out: Uint32Array, column: Column, nameBytes: number, from: number, to: number): void {
  for (let r = from; r < to; r += 1) if (column.isPresent(r)) out[r] = (out[r] as number) + nameBytes + column.valueBytes(r);
}

/** Sizes of an entity's index entries (KEYS_ONLY / INCLUDE), filled a range of rows at a time. */
function entryArray(parts: NonNullable<ViewPlan['parts']>, data: EntityData, masks: readonly (Uint8Array | null)[], rows: number): { fill(from: number, to: number): Uint32Array } {
  let base = 0;
  const variable: Column[] = [];
  const keys: number[] = [];
  const optional: Array<{ column: Column; nameBytes: number }> = [];
  for (const part of parts) {
    if ('key' in part) keys.push(part.key);
    else if (part.column.present !== null) optional.push(part);
    else {
      base += part.nameBytes;
      const fixed = part.column.fixedBytes;
      if (fixed === undefined) variable.push(part.column);
      else base += fixed;
    }
  }
  const out = new Uint32Array(rows);
  return {
    fill(from, to) {
      out.fill(base, from, to);
      for (const c of variable) c.addValueBytes(out, from, to);
      for (const o of optional) addPresentBytes(out, o.column, o.nameBytes, from, to);
      for (const k of keys) (data.keys[k] as CompiledKey).addBytes(out, masks[k] ?? null, from, to);
      return out;
    },
  };
}

/** The sum of an array's values (a loop of its own, which V8 compiles apart from its caller's code). */
function sumOf(values: Uint32Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[i]!;
  return sum;
}

/**
 * How many items of each entity a sample generates: the design's counts, scaled down together (each
 * at least 1) when their sum exceeds `maxItems`. Row r of an entity is the same item however many
 * rows are generated, as long as the referenced entities keep these counts (see `previewItems`).
 */
export function sampleCounts(table: Table, maxItems = DEFAULT_MAX_ITEMS): { requested: number[]; totalRequested: number; factor: number; counts: number[] } {
  const requested = table.entities.map((e) => sanitizeCount(e.itemCount));
  const totalRequested = requested.reduce((s, n) => s + n, 0);
  const factor = totalRequested > maxItems ? maxItems / totalRequested : 1;
  const counts = requested.map((n) => (factor < 1 ? Math.min(n, Math.max(n > 0 && maxItems > 0 ? 1 : 0, Math.floor(n * factor))) : n));
  return { requested, totalRequested, factor, counts };
}

/** What `columnBuilder` needs of an entity: the entity and how many rows its columns hold. */
export interface ColumnOwner {
  entity: Entity;
  rows: number;
}

/**
 * Builds (once each) the column of an entity's attribute, for the entity's `rows`; a `ref` asks for
 * its target's column first: the target's attribute of the same name, else its id, never one being
 * built (a cycle).
 */
export function columnBuilder(owners: readonly ColumnOwner[], ctx: ColumnContext): (owner: ColumnOwner, attribute: Attribute) => Column {
  const built = new Map<string, Column>();
  const inProgress = new Set<string>();
  const columnOf = (owner: ColumnOwner, attribute: Attribute): Column => {
    const id = `${owner.entity.id}\u0000${attribute.name}`;
    const done = built.get(id);
    if (done) return done;
    inProgress.add(id);
    const column = createColumn(owner.entity, attribute, owner.rows, ctx, (entityId, name) => {
      const target = owners.find((x) => x.entity.id === entityId);
      if (!target || target.rows === 0) return undefined;
      const attrs = target.entity.attributes.filter((a) => TYPE_NAMES.has(a.type) && !inProgress.has(`${entityId}\u0000${a.name}`));
      const targetAttribute =
        attrs.find((a) => a.name === name) ??
        attrs.find((a) => a.generator?.kind === 'id' || a.generator?.kind === 'uuid') ??
        attrs.find((a) => a.generator === undefined && /id$/i.test(a.name));
      if (!targetAttribute) return undefined;
      return { column: columnOf(target, targetAttribute), rows: target.rows };
    });
    inProgress.delete(id);
    built.set(id, column);
    return column;
  };
  return columnOf;
}

/**
 * The key size limit to check a key's items against (docs/dynamodb-rules.md §7: 1,024 bytes for an
 * attribute that is a sort key anywhere, else 2,048), or undefined when no value can pass it: the
 * value model bounds every placeholder (`maxKeyTextBytes`) and the longest value fits. Keys whose
 * values are not bounded (names, references) are checked item by item.
 */
function sizeLimitToCheck(slot: KeySlot, binding: KeyBinding | NaturalKey, entity: Entity, entities: readonly Entity[]): KeySizeLimit | undefined {
  const limit: KeySizeLimit = slot.uses.some((u) => u.role === 'sort') ? { bytes: MAX_SORT_KEY_BYTES, role: 'sort' } : { bytes: MAX_PARTITION_KEY_BYTES, role: 'partition' };
  let template: KeyTemplate;
  if ('natural' in binding) template = { source: binding.natural, parts: [{ kind: 'attribute', name: binding.natural }] };
  else {
    const parsed = parseKeyTemplate(binding.template);
    if (!parsed.ok) return undefined;
    template = parsed.value;
  }
  const attributes = new Map<string, Attribute>();
  for (const a of entity.attributes) if (!attributes.has(a.name)) attributes.set(a.name, a);
  const bound = keyValueBound(template, 'natural' in binding ? undefined : binding.shards, (name) => {
    const a = attributes.get(name);
    if (!a) return undefined;
    const max = maxKeyTextBytes(a, entity, [], entities);
    return max === undefined ? { bytes: 0, isKnown: false } : { bytes: max, isKnown: true };
  });
  return bound.isEstimate || bound.bytes > limit.bytes ? limit : undefined;
}

/** What generation leaves: the entities' items and their views, and what could not be generated as designed. */
export interface Generated {
  entities: EntityData[];
  views: ViewData[];
  notes: string[];
  /** When the item counts were scaled down to the cap: why, in words. */
  capped?: string;
}

/**
 * Generates the items of `table` (its value model already explicit: `withValueModel`) and their
 * views, at most `maxItems` items in all. `onProgress` is called every `PROGRESS_EVERY_ITEMS` items
 * and at the end, with the items generated and the total; it may throw to abort.
 */
export function generateSample(table: Table, ctx: ColumnContext, maxItems: number, onProgress?: (done: number, total: number) => void): Generated {
  const notes: string[] = [];
  // Item counts, scaled down together when they exceed the cap.
  const { requested, totalRequested, factor, counts } = sampleCounts(table, maxItems);
  let capped: string | undefined;
  if (factor < 1) {
    const generated = counts.reduce((s, n) => s + n, 0);
    capped =
      `The design has ${formatNumber(totalRequested, 3)} items; ${formatNumber(generated, 3)} were generated ` +
      `(each entity's count × ${(Math.floor(factor * 1e4) / 1e4).toString()}) to keep the sample in memory. Counts per entity keep their proportions; ` +
      'references and distributions are over the generated items.';
  }
  const entities = entityDataOf(table, counts, requested, ctx, notes);
  const building = viewDefinitions(table).map((d) => startView(table, d, entities));
  const tableView = building[0]!;
  for (const data of entities) {
    if (data.rows > 0 && !tableView.plans[data.index]) {
      const missing = [table.partitionKey.name, table.sortKey?.name].filter((n): n is string => n !== undefined && keyIndex(data, n) < 0);
      notes.push(`${data.entity.name}: no template for ${missing.join(' and ')}, so its items cannot be stored; none were generated.`);
    }
  }

  // The pass over the items, entity by entity. Item sizes go into the table's entry sizes when its
  // members are every item; otherwise one array serves every entity in turn (fresh memory costs a
  // page fault per 4 KB).
  const itemSizes = tableView.members === null ? tableView.entryBytes : null;
  const sharedSizes = itemSizes ? undefined : new Uint32Array(entities.reduce((most, data) => Math.max(most, data.rows), 0));
  const progress = { done: 0, total: entities.reduce((s, data) => s + data.rows, 0), report: onProgress };
  for (const data of entities) {
    const itemBytes = itemSizes ? itemSizes.subarray(data.offset, data.offset + data.rows) : sharedSizes!.subarray(0, data.rows);
    addEntityItems(table, data, building, itemBytes, progress, notes);
  }
  for (const v of building) v.groupers = [];
  return { entities, views: building.map(finishView), notes, ...(capped ? { capped } : {}) };
}

/** Each entity's rows (consecutive item numbers, in the design's order), its columns and its compiled keys. */
function entityDataOf(table: Table, counts: readonly number[], requested: readonly number[], ctx: ColumnContext, notes: string[]): EntityData[] {
  const entities: EntityData[] = [];
  let offset = 0;
  table.entities.forEach((entity, index) => {
    entities.push({ entity, index, offset, rows: counts[index] ?? 0, requested: requested[index] ?? 0, columns: [], columnNameBytes: [], keys: [], carried: [], stored: 0 });
    offset += counts[index] ?? 0;
  });
  // Columns, built on demand so that a `ref` can ask for its target's column first.
  const columnOf = columnBuilder(entities, ctx);
  const slots = keySlotsOf(table);
  for (const data of entities) {
    const byName = new Map<string, Column>();
    for (const a of data.entity.attributes) if (a.name !== '' && !byName.has(a.name)) byName.set(a.name, columnOf(data, a));
    for (const slot of slots) {
      const name = slot.attribute.name;
      if (name === '') continue;
      let binding: KeyBinding | NaturalKey | undefined = Object.hasOwn(data.entity.keys, name) ? data.entity.keys[name] : undefined;
      // A GSI key attribute the entity carries under the key's own name, with no template, is the key
      // itself (a natural key, docs/dynamodb-rules.md §11); never for the table's keys, which need a template.
      if (!binding && !slot.isRequired && slot.uses.some((u) => u.kind === 'gsi') && gsiKeySourceOf(data.entity, name)?.isNatural) binding = { natural: name };
      if (!binding) continue;
      const limit = sizeLimitToCheck(slot, binding, data.entity, table.entities);
      const key = new CompiledKey(slot.attribute, binding, byName, ctx.seed, data.entity.id, limit);
      if (key.failure) notes.push(`${data.entity.name}: ${key.failure}; no item carries ${key.name}.`);
      if (key.ignoredCondition) notes.push(`${data.entity.name}: ${key.ignoredCondition}.`);
      data.keys.push(key);
    }
    const keyNames = new Set(data.keys.map((k) => k.name));
    for (const [name, column] of byName) {
      if (keyNames.has(name)) continue;
      data.columns.push(column);
      data.columnNameBytes.push(utf8ByteLength(name));
    }
  }
  return entities;
}

const keyIndex = (data: EntityData, name: string | undefined): number => (name === undefined ? -1 : data.keys.findIndex((k) => k.name === name));

/** What an entity puts in a view with these keys and projection; null when it is not in the view. */
function planFor(table: Table, data: EntityData, pk: readonly KeyAttribute[], sk: readonly KeyAttribute[], projection: Projection): ViewPlan | null {
  // An entity is in a view only with every key attribute of it: a multi-attribute key's too (sparse).
  const p = pk.map((a) => keyIndex(data, a.name));
  const s = sk.map((a) => keyIndex(data, a.name));
  if (p.length === 0 || p.some((k) => k < 0) || s.some((k) => k < 0)) return null;
  if (projection.type === 'ALL') return { pk: p, sk: s, parts: null };
  // An index entry holds the table's keys and its own, each key attribute once (docs/dynamodb-rules.md §11).
  const names = [table.partitionKey.name, table.sortKey?.name, ...pk.map((a) => a.name), ...sk.map((a) => a.name), ...(projection.type === 'INCLUDE' ? projection.nonKeyAttributes : [])];
  const parts: NonNullable<ViewPlan['parts']> = [];
  for (const name of new Set(names)) {
    if (name === undefined || name === '') continue;
    const k = keyIndex(data, name);
    if (k >= 0) parts.push({ key: k });
    else {
      const c = data.columns.find((x) => x.name === name);
      if (c) parts.push({ column: c, nameBytes: utf8ByteLength(name) });
    }
  }
  return { pk: p, sk: s, parts };
}

const ALL: Projection = { type: 'ALL' };

/** The table's views: the table, each GSI with a partition key, each LSI. */
function viewDefinitions(table: Table): ViewDefinition[] {
  return [
    { name: 'table', kind: 'table', pk: [table.partitionKey], sk: table.sortKey ? [table.sortKey] : [], projection: ALL },
    // A GSI's key may have several attributes per part (a multi-attribute key); one without a partition key (a design being edited) has no view.
    ...table.globalSecondaryIndexes
      .filter((g) => partitionKeysOf(g).length > 0)
      .map((g) => ({ name: g.name, kind: 'gsi' as const, pk: partitionKeysOf(g), sk: sortKeysOf(g), projection: g.projection })),
    ...table.localSecondaryIndexes.map((l) => ({ name: l.name, kind: 'lsi' as const, pk: [table.partitionKey], sk: l.sortKey ? [l.sortKey] : [], projection: l.projection })),
  ];
}

/** A view about to be generated: each entity's plan and groupers, its arrays sized for every item that may be in it. */
function startView(table: Table, d: ViewDefinition, entities: readonly EntityData[]): ViewBuild {
  const plans = entities.map((data) => planFor(table, data, d.pk, d.sk, d.projection));
  const groupers = viewGroupersFor(entities, plans, d.pk.length);
  const capacity = entities.reduce((s, data, i) => s + (plans[i] ? data.rows : 0), 0);
  const maxGroups = entities.reduce((s, data, i) => s + (plans[i] ? (groupers[i]?.maxGroups(data.rows) ?? data.rows) : 0), 0);
  // When every item carries the table's keys (always), the table's members are the items in order:
  // no member array, and its entry sizes are the items' sizes, computed in place.
  const isEveryItem =
    d.kind === 'table' && entities.every((data, i) => data.rows === 0 || plans[i]?.pk.concat(plans[i]!.sk).every((k) => (data.keys[k] as CompiledKey).isAlways) === true);
  return new ViewBuild(d, plans, groupers, capacity, maxGroups, isEveryItem ? new Uint32Array(capacity) : null);
}

/** Progress of the pass over the items. */
interface Progress {
  done: number;
  total: number;
  report: ((done: number, total: number) => void) | undefined;
}

/**
 * One entity's pass, in chunks: its items' sizes (`itemBytes`, column by column), then each view's
 * members. Records which items carry each key and how many can be stored.
 */
function addEntityItems(table: Table, data: EntityData, building: readonly ViewBuild[], itemBytes: Uint32Array, progress: Progress, notes: string[]): void {
  const { rows, keys, columns, columnNameBytes } = data;
  const tableView = building[0]!;
  const tablePlan = tableView.plans[data.index];
  if (!tablePlan || rows === 0) {
    data.carried = keys.map(() => null);
    progress.done += rows;
    if (progress.report && rows > 0) progress.report(progress.done, progress.total);
    return;
  }
  const masks = keys.map((k) => k.carriedMask(rows));
  data.carried = masks;
  notes.push(...overLimitNotes(table, data));
  let base = 0;
  const variable: Column[] = [];
  const optional: Array<{ column: Column; nameBytes: number }> = [];
  columns.forEach((c, i) => {
    const nameBytes = columnNameBytes[i] ?? 0;
    // An optional attribute counts only on the items that carry it.
    if (c.present !== null) return void optional.push({ column: c, nameBytes });
    base += nameBytes;
    const fixed = c.fixedBytes;
    if (fixed === undefined) variable.push(c);
    else base += fixed;
  });
  itemBytes.fill(base);
  const storedPk = masks[tablePlan.pk[0]!] ?? null;
  const storedSk = tablePlan.sk.length > 0 ? (masks[tablePlan.sk[0]!] ?? null) : null;
  const views = building
    .map((v) => {
      const plan = v.plans[data.index] ?? null;
      const grouper = v.groupers[data.index];
      if (!plan || !grouper) return undefined;
      const entries = plan.parts ? entryArray(plan.parts, data, masks, rows) : undefined;
      // An item missing any key attribute of the view is not in it.
      const checks = maskChecks([...plan.pk, ...plan.sk].map((k) => masks[k] ?? null), [storedPk, storedSk]);
      return { v, grouper, entries, ...checks };
    })
    .filter((x): x is MemberJob => x !== undefined);
  for (let from = 0; from < rows; from += PROGRESS_EVERY_ITEMS) {
    const to = Math.min(rows, from + PROGRESS_EVERY_ITEMS);
    for (const c of variable) c.addValueBytes(itemBytes, from, to);
    for (const o of optional) addPresentBytes(itemBytes, o.column, o.nameBytes, from, to);
    keys.forEach((k, i) => k.addBytes(itemBytes, masks[i] ?? null, from, to));
    for (const job of views) {
      const sizes = job.entries ? job.entries.fill(from, to) : itemBytes;
      addMembers(job, sizes, storedPk, storedSk, data.offset, from, to);
    }
    progress.done += to - from;
    if (progress.report) progress.report(progress.done, progress.total);
  }
  let stored = storedPk === null && storedSk === null ? rows : 0;
  if (stored === 0) for (let row = 0; row < rows; row += 1) if ((storedPk === null || storedPk[row] === 1) && (storedSk === null || storedSk[row] === 1)) stored += 1;
  data.stored = stored;
  if (stored < rows) {
    notes.push(`${data.entity.name}: ${formatNumber(rows - stored, 3)} of ${formatNumber(rows, 3)} items have no valid ${[table.partitionKey.name, table.sortKey?.name].filter(Boolean).join(' / ')} and were left out.`);
  }
}

/** The notes on an entity's keys whose values went over DynamoDB's key size limit on some items. */
function overLimitNotes(table: Table, data: EntityData): string[] {
  const notes: string[] = [];
  for (const k of data.keys) {
    if (k.overLimitItems === 0 || !k.sizeLimit) continue;
    const { bytes, role } = k.sizeLimit;
    const views = [...new Set(keySlotsOf(table).find((s) => s.attribute.name === k.name)?.uses.map((u) => (u.kind === 'table' ? 'the table' : u.index)))].join(' and ');
    notes.push(
      `${data.entity.name}: ${formatNumber(k.overLimitItems, 3)} of ${formatNumber(data.rows, 3)} items have a ${k.name} value over ${formatNumber(bytes, 3)} bytes, ` +
        `DynamoDB's ${role} key limit (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html); they are left out of ${views}.`,
    );
  }
  return notes;
}

/** A generated view with its arrays cut to what they hold: copied when less than half full, else a view of the first n (no copy). */
function finishView(v: ViewBuild): ViewData {
  const cut = (a: Uint32Array, n: number): Uint32Array => (n * 2 >= a.length ? a.subarray(0, n) : a.slice(0, n));
  const entryBytes = cut(v.entryBytes, v.count);
  const bytes = sumOf(entryBytes);
  return {
    info: {
      name: v.d.name,
      kind: v.d.kind,
      partitionKeys: v.d.pk.map((a) => a.name),
      sortKeys: v.d.sk.map((a) => a.name),
      itemCount: v.count,
      bytes,
      collections: v.groups,
    },
    pk: v.d.pk,
    sk: v.d.sk,
    plans: v.plans,
    members: v.members && cut(v.members, v.count),
    entryBytes,
    groupOf: cut(v.groupOf, v.count),
    firstMember: cut(v.firstMember, v.groups),
    totals: v.groups * 4 >= v.totals.length ? v.totals.subarray(0, 2 * v.groups) : v.totals.slice(0, 2 * v.groups),
  };
}
