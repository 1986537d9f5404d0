/**
 * Incremental costing for an open design: `createCostCache().costDesign(design)` returns exactly what
 * `costDesign(design)` returns, but plans and costs again only the patterns an edit touched, and sums
 * the tables' and the design's totals afresh from them. Typing a rate into one pattern of a
 * 200-pattern design re-costs that pattern, not the 199 others.
 *
 * More on its rules: docs/modules.md, "src-shared/costing/cost-cache.ts".
 */
import { estimateStorage, type StorageEstimate, DEFAULT_PRICING } from '../capacity/index.ts';
import type { Figure } from '../capacity/index.ts';
import type { AccessPattern, Design, Entity, Pricing, Table } from '../model/index.ts';
import { isWritePattern } from '../model/index.ts';
import { planPattern, planTable, type Plan, type ProjectionChange } from '../planner/index.ts';
import { costedTable, totalDesignCost, totalTableCost, type DesignCost, type TableCost } from './design-cost.ts';
import { costPattern, type PatternCost } from './pattern-cost.ts';
import { createSizeEstimates, type SizeEstimates } from './size-estimates.ts';
import { createTableCosting } from './table-costing.ts';
import { gsiWriteUnitsOn, hasSameValues, planWrites } from './write-cost.ts';
import { projectionChangeKey, withProjection, type ProjectionContext, type WriteUnitsChange } from './projection-option.ts';
import { warningsFor } from './warnings.ts';
import type { CostWarning } from './types.ts';

/** Costs of one open design, kept between calls. */
export interface CostCache {
  /** The same result as `costDesign(design)`, with the patterns no edit touched taken from earlier calls. */
  costDesign(design: Design): DesignCost;
}

/** One pattern's plan and cost in a table context. */
interface Entry {
  plan: Plan;
  cost: PatternCost;
  /** The key of the other patterns its plans read (a read's entity writes); absent when they read none. */
  company?: string;
  /** `warningsFor` of this pattern alone; absent while pattern ids repeat (a warning finds its pattern by id). */
  warnings?: CostWarning[];
}

/** A kept plan, and the key of the other patterns it read (absent: none). */
interface KeptPlan {
  plan: Plan;
  company?: string;
}

/** What one projection change costs in a table context, kept across edits. */
interface ChangeMemo {
  storage?: { before: number; after: number };
  /** Per write pattern key: its write units per second on the index before and after the change. */
  writes: Map<string, { was: number; now: number }>;
}

/** Everything kept for one table, valid while its context is the same (sizes and plans grow with it; entries and changes are those of the last call). */
interface TableMemo {
  context: string;
  storage?: StorageEstimate;
  /** Item and index-entry sizes by table (the table, or it with a projection change), entity position and index. */
  sizes: Map<string, Figure>;
  /** Plans that did not read their pattern's rate, by table (as for sizes) and the pattern without its rate. */
  plans: Map<string, KeptPlan>;
  /** By the pattern's key. */
  entries: Map<string, Entry>;
  changes: Map<string, ChangeMemo>;
}

/**
 * A key naming a JSON-like value exactly: equal keys for equal values, different keys otherwise
 * (numbers by their exact text, -0 and NaN included; absent and undefined fields told apart).
 */
export function exactKey(value: unknown): string {
  let out = '';
  const put = (v: unknown): void => {
    switch (typeof v) {
      case 'string':
        out += JSON.stringify(v);
        return;
      case 'number':
        out += Object.is(v, -0) ? 'n-0' : `n${v}`;
        return;
      case 'boolean':
        out += v ? 'T' : 'F';
        return;
      case 'undefined':
        out += 'U';
        return;
      case 'object': {
        if (v === null) {
          out += 'N';
        } else if (Array.isArray(v)) {
          out += '[';
          for (let i = 0; i < v.length; i += 1) {
            if (i > 0) out += ',';
            put(v[i]);
          }
          out += ']';
        } else {
          out += '{';
          let first = true;
          for (const k of Object.keys(v)) {
            out += `${first ? '' : ','}${JSON.stringify(k)}:`;
            first = false;
            put((v as Record<string, unknown>)[k]);
          }
          out += '}';
        }
        return;
      }
      default:
        // Designs are parsed JSON: a function, symbol or bigint here is a programming error.
        throw new Error(`A design holds a ${typeof v}, which a cost cache cannot key; expected JSON data.`);
    }
  };
  put(value);
  return out;
}

/** The patterns of one call, with their keys and the other patterns their plans may read. */
interface Patterns {
  list: readonly AccessPattern[];
  /** Per pattern: its exact key. */
  keys: string[];
  /** Per pattern: its key without its rate. */
  rateFreeKey(i: number): string;
  /** Per pattern: the other patterns its plan may read (a read's entity writes; none for a write). */
  company(i: number): AccessPattern[];
  /** Per pattern: the exact key of `company(i)`. */
  companyKey(i: number): string;
  /** Where each pattern object is in the list. */
  positions: Map<AccessPattern, number>;
}

function patternsOf(list: readonly AccessPattern[]): Patterns {
  const keys = list.map((p) => `${isWritePattern(p) ? 'W' : 'R'}${exactKey(p)}`);
  const writesOf = new Map<string | undefined, number[]>();
  list.forEach((p, i) => {
    if (!isWritePattern(p)) return;
    const entity = writesOf.get(p.entityId);
    if (entity) entity.push(i);
    else writesOf.set(p.entityId, [i]);
  });
  const company = (i: number): number[] => (isWritePattern(list[i]!) ? [] : (writesOf.get(list[i]!.entityId) ?? []));
  const rateFree: (string | undefined)[] = [];
  return {
    list,
    keys,
    rateFreeKey: (i) => (rateFree[i] ??= `${isWritePattern(list[i]!) ? 'W' : 'R'}${exactKey({ ...list[i]!, ratePerSecond: undefined })}`),
    company: (i) => company(i).map((w) => list[w]!),
    companyKey: (i) => company(i).map((w) => keys[w]!).join('|'),
    positions: new Map(list.map((p, i) => [p, i])),
  };
}

/** A planning result: the plan, and whether planning read the pattern's rate or any other pattern. */
interface Tracked {
  plan: Plan;
  readsRate: boolean;
  readsCompany: boolean;
}

/** A stand-in for `pattern` that calls `onRead` with each field read from it. */
function watched(pattern: AccessPattern, onRead: (field: string | symbol) => void): AccessPattern {
  return new Proxy(pattern, {
    get(target, field, receiver) {
      onRead(field);
      return Reflect.get(target, field, receiver) as unknown;
    },
  });
}

/**
 * Plans pattern `i` on a view of `table` holding only it and its company, through stand-ins that
 * note what planning reads. When the value model would come out differently without the other
 * patterns, plans it in the whole table and counts everything as read.
 */
function planTracked(table: Table, patterns: Patterns, i: number): Tracked {
  const pattern = patterns.list[i]!;
  let isPlanning = false;
  let readsRate = false;
  let readsCompany = false;
  const own = watched(pattern, (field) => {
    if (isPlanning && field === 'ratePerSecond') readsRate = true;
  });
  const company = patterns.company(i).map((p) =>
    watched(p, () => {
      if (isPlanning) readsCompany = true;
    }),
  );
  const restricted: Table = { ...table, accessPatterns: [own, ...company] };
  if (!hasSameValues(table, restricted)) return { plan: planPattern(table, pattern), readsRate: true, readsCompany: true };
  isPlanning = true;
  try {
    return { plan: planPattern(restricted, own), readsRate, readsCompany };
  } finally {
    isPlanning = false;
  }
}

/** Plans kept by table scope and the pattern's rate-free key, with the company each read. */
interface PlanMemo {
  /** A kept plan of pattern `i` in the scope's table, if its company is as it was. */
  get(scope: string, i: number): KeptPlan | undefined;
  /** Keeps a plan when planning did not read the rate. */
  keep(scope: string, i: number, tracked: Tracked): void;
}

function planMemo(memo: TableMemo, patterns: Patterns): PlanMemo {
  const keyOf = (scope: string, i: number): string => `${scope}\u0000${patterns.rateFreeKey(i)}`;
  return {
    get(scope, i) {
      const kept = memo.plans.get(keyOf(scope, i));
      return kept && (kept.company === undefined || kept.company === patterns.companyKey(i)) ? kept : undefined;
    },
    keep(scope, i, tracked) {
      if (!tracked.readsRate) memo.plans.set(keyOf(scope, i), tracked.readsCompany ? { plan: tracked.plan, company: patterns.companyKey(i) } : { plan: tracked.plan });
    },
  };
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

/**
 * Every pattern of the table planned at once: the writes on their own (a write's plan reads no
 * other pattern), the reads among the writes, each through a stand-in noting reads of its rate. Which
 * writes a read's plan read cannot be told apart here: each read counts as reading its company.
 */
function planEveryPattern(table: Table, patterns: Patterns, plans: PlanMemo): Tracked[] {
  const rates = patterns.list.map(() => false);
  const stand = patterns.list.map((p, i) =>
    watched(p, (field) => {
      if (field === 'ratePerSecond') rates[i] = true;
    }),
  );
  const writes = patterns.list.flatMap((p, i) => (isWritePattern(p) ? [i] : []));
  const writePlans = planWrites(table, writes.map((i) => stand[i]!));
  const readRates = [...rates];
  const planned = planTable({ ...table, accessPatterns: patterns.list.map((p, i) => (isWritePattern(p) ? p : stand[i]!)) });
  writes.forEach((i, n) => (planned[i] = writePlans[n]!));
  return planned.map((plan, i) => {
    const write = isWritePattern(patterns.list[i]!);
    const tracked: Tracked = { plan, readsRate: write ? readRates[i]! : rates[i]!, readsCompany: !write };
    plans.keep('', i, tracked);
    return tracked;
  });
}

function costTableCached(designTable: Table, pricing: Pricing, pricingKey: string, previous: TableMemo | undefined): { cost: TableCost; memo: TableMemo } {
  const table = costedTable(designTable);
  const context = `${exactKey({ ...table, accessPatterns: undefined })}|${pricingKey}`;
  const kept = previous?.context === context ? previous : undefined;
  const memo: TableMemo = { context, sizes: kept?.sizes ?? new Map(), plans: kept?.plans ?? new Map(), entries: new Map(), changes: new Map(), ...(kept?.storage ? { storage: kept.storage } : {}) };
  const storageOf = (): StorageEstimate => (memo.storage ??= estimateStorage(table));
  const patterns = patternsOf(table.accessPatterns);
  const plans = planMemo(memo, patterns);

  // Entries kept (their company as it was), else plans kept, else planned: the table at once when most are new.
  const found = patterns.keys.map((k, i) => {
    const entry = kept?.entries.get(k);
    return entry && (entry.company === undefined || entry.company === patterns.companyKey(i)) ? entry : undefined;
  });
  const unplanned = found.flatMap((e, i) => (e === undefined && plans.get('', i) === undefined ? [i] : []));
  const fresh = unplanned.length > patterns.list.length / 2 ? planEveryPattern(table, patterns, plans) : undefined;
  const planned = patterns.list.map((_, i): KeptPlan | undefined => {
    if (found[i]) return undefined;
    const tracked = fresh?.[i];
    if (tracked) return tracked.readsCompany ? { plan: tracked.plan, company: patterns.companyKey(i) } : { plan: tracked.plan };
    const known = plans.get('', i);
    if (known) return known;
    const now = planTracked(table, patterns, i);
    plans.keep('', i, now);
    return now.readsCompany ? { plan: now.plan, company: patterns.companyKey(i) } : { plan: now.plan };
  });
  const planOf = (i: number): Plan => found[i]?.plan ?? planned[i]!.plan;

  const scopes = new Map<Table, string>([[table, '']]);
  const sizes = contextSizes(scopes, memo.sizes);
  /** Patterns whose plan in a changed table read their company. */
  const changedReadCompany = new Set<number>();
  const projection = cachedProjection(table, patterns, planOf, storageOf, sizes, scopes, plans, changedReadCompany, kept, memo);
  const shared = createTableCosting(table, pricing, sizes, projection);
  const hasUniqueIds = new Set(patterns.list.map((p) => p.id)).size === patterns.list.length;
  const entries = patterns.list.map((p, i): Entry => {
    let entry = found[i];
    if (!entry) {
      const plan = planned[i]!;
      const cost = costPattern(table, p, plan.plan, pricing, shared);
      const company = plan.company ?? (changedReadCompany.has(i) ? patterns.companyKey(i) : undefined);
      entry = { plan: plan.plan, cost, ...(company !== undefined ? { company } : {}), ...(hasUniqueIds ? { warnings: warningsFor(table, [cost], [], pricing) } : {}) };
    }
    memo.entries.set(patterns.keys[i]!, entry);
    return entry;
  });
  const costs = entries.map((e) => {
    // The projection change's own cost reads every write pattern: rebuilt from this call's work.
    const option = e.cost.projectionOption;
    return option ? { ...e.cost, projectionOption: { change: option.change, perRequest: option.perRequest, ...shared.changeCost(option.change) } } : e.cost;
  });
  // Plans of patterns since edited away stay behind: dropped all at once when they far outnumber the patterns.
  if (memo.plans.size > 8 * (patterns.list.length + 16) * (memo.changes.size + 1)) memo.plans.clear();
  const patternWarnings = hasUniqueIds ? entries.flatMap((e) => e.warnings ?? warningsFor(table, [e.cost], [], pricing)) : warningsFor(table, costs, [], pricing);
  return { cost: totalTableCost(designTable, table, pricing, { patterns: costs, storage: storageOf(), patternWarnings, sizes }), memo };
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
 * each change's storage, plans in it, and each write pattern's units on its index taken from `kept`
 * when there.
 */
function cachedProjection(
  table: Table,
  patterns: Patterns,
  planOf: (i: number) => Plan,
  storageOf: () => StorageEstimate,
  sizes: SizeEstimates,
  scopes: Map<Table, string>,
  plans: PlanMemo,
  changedReadCompany: Set<number>,
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
    planChanged(change, pattern) {
      const changed = changedTable(change);
      const i = patterns.positions.get(pattern);
      // A pattern not of this table (never, from costPattern) is planned as a fresh costing would.
      if (i === undefined) return planPattern(changed, pattern);
      const scope = projectionChangeKey(change);
      const known = plans.get(scope, i);
      if (known) {
        if (known.company !== undefined) changedReadCompany.add(i);
        return known.plan;
      }
      const tracked = planTracked(changed, patterns, i);
      plans.keep(scope, i, tracked);
      if (tracked.readsCompany) changedReadCompany.add(i);
      return tracked.plan;
    },
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
      const writes = patterns.list.flatMap((p, i) => (isWritePattern(p) ? [i] : []));
      const missing = writes.filter((i) => !m.writes.has(patterns.keys[i]!) && !old?.has(patterns.keys[i]!));
      const changed = changedTable(change);
      // Plans in the changed table: kept ones, the others planned together, each through a stand-in noting reads of its rate.
      const unplanned = missing.filter((i) => plans.get(key, i) === undefined);
      const rates = new Map(unplanned.map((i) => [i, false]));
      const stand = unplanned.map((i) =>
        watched(patterns.list[i]!, (field) => {
          if (field === 'ratePerSecond') rates.set(i, true);
        }),
      );
      const fresh = new Map(unplanned.length === 0 ? [] : planWrites(changed, stand).map((plan, n) => [unplanned[n]!, plan]));
      for (const [i, plan] of fresh) plans.keep(key, i, { plan, readsRate: rates.get(i)!, readsCompany: false });
      const list = writes.map((i): WriteUnitsChange => {
        const p = patterns.list[i]!;
        const k = patterns.keys[i]!;
        let units = m.writes.get(k) ?? old?.get(k);
        if (!units) {
          const after = fresh.get(i) ?? plans.get(key, i)!.plan;
          units = { was: gsiWriteUnitsOn(table, p, planOf(i), change.index, sizes), now: gsiWriteUnitsOn(changed, p, after, change.index, sizes) };
        }
        m.writes.set(k, units);
        return { name: p.name, was: units.was, now: units.now };
      });
      writeLists.set(key, list);
      return list;
    },
  };
}
