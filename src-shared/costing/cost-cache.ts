/**
 * Incremental costing for an open design: `createCostCache().costDesign(design)` returns exactly what
 * `costDesign(design)` returns, but plans and costs again only the patterns an edit touched, and sums
 * the tables' and the design's totals afresh from them. Typing a rate into one pattern of a
 * 200-pattern design re-costs that pattern, not the 199 others.
 *
 * What a pattern's cost depends on, and so what its entry is keyed by (a stale figure is a bug, so
 * anything in doubt is in the key):
 * - the table as costed (index quota and value model applied: keys, indexes, entities with their
 *   attributes' values, billing, table class, every other setting) and the prices: the table's
 *   context. Any change to it, the value model included (a pattern's filter or set value names a
 *   value), starts the table afresh;
 * - the pattern itself, every field;
 * - for a read, the write patterns of its entity (a count's suggestion weighs them);
 * - for a read whose index lacks attributes, the projection change's cost, which reads every write
 *   pattern: that part is costed per change and rebuilt each time, each write pattern's units on the
 *   index kept per change and pattern.
 * Each table's warnings and totals are recomputed from the patterns' costs on every call.
 */
import { estimateStorage, type StorageEstimate } from '../capacity/estimate.ts';
import { DEFAULT_PRICING } from '../capacity/pricing.ts';
import type { Figure } from '../capacity/figure.ts';
import type { AccessPattern, Design, Entity, Pricing, Table } from '../model/schema.ts';
import { planPattern, planTable, type Plan, type ProjectionChange } from '../planner/index.ts';
import { costedTable, totalDesignCost, totalTableCost, type DesignCost, type TableCost } from './design-cost.ts';
import { costPattern, createSizeEstimates, createTableCosting, gsiWriteUnitsOn, planWrites, type PatternCost, type SizeEstimates, type TableCosting } from './pattern-cost.ts';
import { projectionChangeKey, withProjection, type ProjectionContext, type WriteUnitsChange } from './projection-option.ts';
import { warningsFor, type CostWarning } from './warnings.ts';

/** Costs of one open design, kept between calls. */
export interface CostCache {
  /** The same result as `costDesign(design)`, with the patterns no edit touched taken from earlier calls. */
  costDesign(design: Design): DesignCost;
}

/** One pattern's plan and cost in a table context. */
interface Entry {
  plan: Plan;
  cost: PatternCost;
  /** `warningsFor` of this pattern alone; absent while pattern ids repeat (a warning finds its pattern by id). */
  warnings?: CostWarning[];
}

/** What one projection change costs in a table context, kept across edits. */
interface ChangeMemo {
  storage?: { before: number; after: number };
  /** Per write pattern key: its write units per second on the index before and after the change. */
  writes: Map<string, { was: number; now: number }>;
}

/** Everything kept for one table, valid while its context is the same. */
interface TableMemo {
  context: string;
  storage?: StorageEstimate;
  /** Item and index-entry sizes by table (the table, or it with a projection change), entity position and index. */
  sizes: Map<string, Figure>;
  entries: Map<string, Entry>;
  changes: Map<string, ChangeMemo>;
}

/**
 * A key naming a JSON-like value exactly: equal keys for equal values, different keys otherwise
 * (numbers by their exact text, -0 and NaN included; absent and undefined fields told apart).
 */
export function exactKey(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? 'n-0' : `n${value}`;
    case 'boolean':
      return value ? 'T' : 'F';
    case 'undefined':
      return 'U';
    case 'object': {
      if (value === null) return 'N';
      if (Array.isArray(value)) return `[${value.map(exactKey).join(',')}]`;
      const record = value as Record<string, unknown>;
      return `{${Object.keys(record)
        .map((k) => `${JSON.stringify(k)}:${exactKey(record[k])}`)
        .join(',')}}`;
    }
    default:
      // Designs are parsed JSON: a function, symbol or bigint here is a programming error.
      throw new Error(`A design holds a ${typeof value}, which a cost cache cannot key; expected JSON data.`);
  }
}

const isWrite = (p: AccessPattern): boolean => p.action === 'put' || p.action === 'update' || p.action === 'delete';

/** The key of each pattern: the pattern, and for a read, its entity's write patterns. */
function patternKeys(patterns: readonly AccessPattern[]): string[] {
  const own = patterns.map(exactKey);
  const writesOf = new Map<string | undefined, string[]>();
  patterns.forEach((p, i) => {
    if (!isWrite(p)) return;
    const list = writesOf.get(p.entityId);
    if (list) list.push(own[i]!);
    else writesOf.set(p.entityId, [own[i]!]);
  });
  const joined = new Map([...writesOf].map(([entity, keys]) => [entity, keys.join('|')]));
  return patterns.map((p, i) => (isWrite(p) ? `W${own[i]!}` : `R${own[i]!}|${joined.get(p.entityId) ?? ''}`));
}

/** A cache for one open design (create one per document; it holds the last costing of each table). */
export function createCostCache(): CostCache {
  let memos: TableMemo[] = [];
  return {
    costDesign(design: Design): DesignCost {
      const pricing = design.pricing ?? DEFAULT_PRICING;
      const pricingKey = exactKey(pricing);
      const next: TableMemo[] = [];
      const tables = design.tables.map((t, i) => {
        const { cost, memo } = costTableCached(t, pricing, pricingKey, memos[i]);
        next.push(memo);
        return cost;
      });
      memos = next;
      return totalDesignCost(pricing, tables);
    },
  };
}

function costTableCached(designTable: Table, pricing: Pricing, pricingKey: string, previous: TableMemo | undefined): { cost: TableCost; memo: TableMemo } {
  const table = costedTable(designTable);
  const context = `${exactKey({ ...table, accessPatterns: undefined })}|${pricingKey}`;
  const kept = previous?.context === context ? previous : undefined;
  const memo: TableMemo = { context, sizes: kept?.sizes ?? new Map(), entries: new Map(), changes: new Map(), ...(kept?.storage ? { storage: kept.storage } : {}) };
  const storageOf = (): StorageEstimate => (memo.storage ??= estimateStorage(table));
  const patterns = table.accessPatterns;
  const keys = patternKeys(patterns);

  // Plans: kept ones, and the others planned (one by one when few, else the table at once).
  const found = keys.map((k) => kept?.entries.get(k));
  const missing = found.flatMap((e, i) => (e === undefined ? [i] : []));
  const fresh = missing.length > patterns.length / 2 ? planTable(table) : undefined;
  const plans = patterns.map((p, i) => found[i]?.plan ?? fresh?.[i] ?? planPattern(table, p));

  const scopes = new Map<Table, string>([[table, '']]);
  const sizes = contextSizes(scopes, memo.sizes);
  const shared = createTableCosting(table, pricing, sizes, cachedProjection(table, keys, plans, storageOf, sizes, scopes, kept, memo));
  const hasUniqueIds = new Set(patterns.map((p) => p.id)).size === patterns.length;
  const entries = patterns.map((p, i): Entry => {
    const entry = found[i] ?? costEntry(table, p, plans[i]!, pricing, shared, hasUniqueIds);
    memo.entries.set(keys[i]!, entry);
    return entry;
  });
  const costs = entries.map((e) => {
    // The projection change's own cost reads every write pattern: rebuilt from this call's work.
    const option = e.cost.projectionOption;
    return option ? { ...e.cost, projectionOption: { change: option.change, perRequest: option.perRequest, ...shared.changeCost(option.change) } } : e.cost;
  });
  const patternWarnings = hasUniqueIds ? entries.flatMap((e) => e.warnings ?? warningsFor(table, [e.cost], [], pricing)) : warningsFor(table, costs, [], pricing);
  return { cost: totalTableCost(designTable, table, pricing, { patterns: costs, storage: storageOf(), patternWarnings }), memo };
}

function costEntry(table: Table, pattern: AccessPattern, plan: Plan, pricing: Pricing, shared: TableCosting, hasUniqueIds: boolean): Entry {
  const cost = costPattern(table, pattern, plan, pricing, shared);
  return hasUniqueIds ? { plan, cost, warnings: warningsFor(table, [cost], [], pricing) } : { plan, cost };
}

/**
 * Sizes kept with the table's context: by which table (`scopes`: the table itself, or it with one
 * projection change), the entity's position in it and the index. A table or entity it does not know
 * is estimated once per call.
 */
function contextSizes(scopes: ReadonlyMap<Table, string>, kept: Map<string, Figure>): SizeEstimates {
  const own = createSizeEstimates();
  const at = (table: Table, entity: Entity, what: string, estimate: () => Figure): Figure => {
    const scope = scopes.get(table);
    const position = table.entities.indexOf(entity);
    if (scope === undefined || position < 0) return estimate();
    const key = `${scope}\u0000${position}\u0000${what}`;
    let size = kept.get(key);
    if (!size) kept.set(key, (size = estimate()));
    return size;
  };
  return {
    item: (table, entity) => at(table, entity, 'item', () => own.item(table, entity)),
    entry: (table, entity, index) => at(table, entity, `${index.kind}:${index.name}`, () => own.entry(table, entity, index)),
  };
}

/**
 * The projection context of one call: changed tables made afresh (they carry this call's patterns),
 * each change's storage and each write pattern's units on its index taken from `kept` when there.
 */
function cachedProjection(
  table: Table,
  keys: readonly string[],
  plans: readonly Plan[],
  storageOf: () => StorageEstimate,
  sizes: SizeEstimates,
  scopes: Map<Table, string>,
  kept: TableMemo | undefined,
  memo: TableMemo,
): ProjectionContext {
  const changedTables = new Map<string, Table>();
  const writeLists = new Map<string, WriteUnitsChange[]>();
  const changeMemo = (change: ProjectionChange): ChangeMemo => {
    const key = projectionChangeKey(change);
    let m = memo.changes.get(key);
    if (!m) {
      const old = kept?.changes.get(key);
      m = { ...(old?.storage ? { storage: old.storage } : {}), writes: new Map() };
      memo.changes.set(key, m);
    }
    return m;
  };
  const changedTable = (change: ProjectionChange): Table => {
    const key = projectionChangeKey(change);
    let t = changedTables.get(key);
    if (!t) {
      changedTables.set(key, (t = withProjection(table, change)));
      scopes.set(t, key);
    }
    return t;
  };
  return {
    changedTable,
    indexStorageBytes(change) {
      const m = changeMemo(change);
      return (m.storage ??= {
        before: storageOf().indexes[change.index]?.value ?? 0,
        after: estimateStorage(changedTable(change)).indexes[change.index]?.value ?? 0,
      });
    },
    writeUnits(change) {
      const key = projectionChangeKey(change);
      const listed = writeLists.get(key);
      if (listed) return listed;
      const m = changeMemo(change);
      const old = kept?.changes.get(key)?.writes;
      const writes = table.accessPatterns.flatMap((p, i) => (isWrite(p) ? [i] : []));
      const missing = writes.filter((i) => !m.writes.has(keys[i]!) && !old?.has(keys[i]!));
      const changed = changedTable(change);
      const after = new Map(planWrites(changed, missing.map((i) => table.accessPatterns[i]!)).map((plan, n) => [missing[n]!, plan]));
      const list = writes.map((i): WriteUnitsChange => {
        const p = table.accessPatterns[i]!;
        const k = keys[i]!;
        let units = m.writes.get(k) ?? old?.get(k);
        if (!units) units = { was: gsiWriteUnitsOn(table, p, plans[i]!, change.index, sizes), now: gsiWriteUnitsOn(changed, p, after.get(i)!, change.index, sizes) };
        m.writes.set(k, units);
        return { name: p.name, was: units.was, now: units.now };
      });
      writeLists.set(key, list);
      return list;
    },
  };
}
