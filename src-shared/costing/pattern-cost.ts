/**
 * What one access pattern costs: its plan (from the planner) turned into read or write units per
 * request and per second, dollars per month on-demand and provisioned, where the capacity is
 * consumed (the table or a GSI), and, for reads, the Scan that would do the same job beside it.
 */
import {
  batchGetReadUnits,
  estimateIndexEntryBytes,
  estimateItemBytes,
  getItemReadUnits,
  queryReadUnits,
  scanReadUnits,
  writeUnits,
  type IndexRef,
  type IndexWriteInput,
} from '../capacity/index.ts';
import { figure, formatNumber, lazyFigure, type Figure, type Step, type Unit } from '../capacity/figure.ts';
import { READ_UNITS_PER_BLOCK, readBlocksForBytes, writeUnitsForBytes } from '../capacity/units/rules.ts';
import { AWS_DOCS } from '../capacity/sources.ts';
import type { AccessPattern, Entity, Pricing, Table } from '../model/schema.ts';
import { isWritePattern, kindOf, type WriteAction } from '../model/pattern-kinds.ts';
import { planPattern, planTable } from '../planner/index.ts';
import { withValueModel } from '../model/value-model.ts';
import type { Plan, ProjectionChange, Target } from '../planner/types.ts';
import { estimateStorage, type StorageEstimate } from '../capacity/estimate.ts';
import { monthlyFigures, type MonthlyUsd } from './money.ts';
import {
  costProjectionChange,
  costProjectionOption,
  projectionChangeKey,
  withProjection,
  type ProjectionChangeCost,
  type ProjectionContext,
  type ProjectionOption,
  type WriteUnitsChange,
} from './projection-option.ts';

/** Units one pattern consumes per second on one table or GSI (LSIs consume the table's). */
export interface Consumption {
  /** `table`, or a GSI's name. */
  target: 'table' | { gsi: string };
  readUnitsPerSecond: number;
  writeUnitsPerSecond: number;
}

export interface ScanAlternative {
  perRequest: Figure;
  perSecond: Figure;
  monthly: MonthlyUsd;
  /** Scan RCU per request ÷ the plan's RCU per request (≥ 1 when the plan is cheaper). */
  ratio: number;
}

export interface PatternCost {
  patternId: string;
  name: string;
  kind: 'read' | 'write';
  plan: Plan;
  /** RCU (reads) or WCU (writes) per pattern call, over all its requests and index writes. */
  perRequest: Figure;
  /** × the pattern's requests per second. */
  perSecond: Figure;
  monthly: MonthlyUsd;
  /** Reads whose index lacks needed attributes: the projection change that avoids the fetches, costed. */
  projectionOption?: ProjectionOption;
  /** Reads only: a Scan doing the same job, for comparison. Absent when the plan already is a Scan. */
  scan?: ScanAlternative;
  consumption: Consumption[];
  /**
   * Why the pattern is not costed yet (the plan's `needsKeyDesign`): its figures are 0, it consumes
   * nothing and the totals leave it out. Show "needs a key design", never its figures as a cost.
   */
  needsKeyDesign?: string;
}

/** ProjectionExpression has no effect on the capacity a read consumes. */
const PROJECTION_EXPRESSION_SOURCE = AWS_DOCS.projectionExpressions;
/** Each GetItem or BatchGetItem item is rounded up to 4 KB on its own. */
const READ_CONSUMPTION_SOURCE = AWS_DOCS.readWriteUnits;

const RATE_ASSUMPTION = 'The rate is taken as sustained all month (the peak rate; an average rate gives a lower monthly cost).';

/**
 * Item and index-entry sizes (`estimateItemBytes`, `estimateIndexEntryBytes`), estimated once per
 * table object, entity and index within one costing: every pattern of an entity reads the same sizes.
 */
export interface SizeEstimates {
  item(table: Table, entity: Entity): Figure;
  entry(table: Table, entity: Entity, index: IndexRef): Figure;
}

/** Sizes estimated on every call. */
const ESTIMATED: SizeEstimates = { item: estimateItemBytes, entry: estimateIndexEntryBytes };

/** Sizes remembered for the life of this object (one costing: the tables it sees do not change meanwhile). */
export function createSizeEstimates(): SizeEstimates {
  const items = new Map<Table, Map<Entity, Figure>>();
  const entries = new Map<Table, Map<Entity, Map<string, Figure>>>();
  const inner = <K, V>(outer: Map<Table, Map<K, V>>, table: Table): Map<K, V> => {
    let map = outer.get(table);
    if (!map) outer.set(table, (map = new Map()));
    return map;
  };
  return {
    item(table, entity) {
      const byEntity = inner(items, table);
      let size = byEntity.get(entity);
      if (!size) byEntity.set(entity, (size = estimateItemBytes(table, entity)));
      return size;
    },
    entry(table, entity, index) {
      const byEntity = inner(entries, table);
      let byIndex = byEntity.get(entity);
      if (!byIndex) byEntity.set(entity, (byIndex = new Map()));
      const key = `${index.kind}:${index.name}`;
      let size = byIndex.get(key);
      if (!size) byIndex.set(key, (size = estimateIndexEntryBytes(table, entity, index)));
      return size;
    },
  };
}

function entityOf(table: Table, id: string): Entity | undefined {
  return table.entities.find((e) => e.id === id);
}

/** Average bytes per item read, weighted by how many items of each entity the plan reads (`target` the table: whole items). */
export function averageReadBytes(table: Table, plan: Plan, target: Target = plan.target, sizes: SizeEstimates = ESTIMATED): Figure {
  const parts = plan.entitiesRead
    .map((read) => {
      const entity = entityOf(table, read.entityId);
      if (!entity) return undefined;
      const size =
        target.kind === 'table'
          ? sizes.item(table, entity)
          : sizes.entry(table, entity, { kind: target.kind, name: target.name });
      return { read, size };
    })
    .filter((p): p is NonNullable<typeof p> => p !== undefined);
  const total = parts.reduce((sum, p) => sum + p.read.items, 0);
  if (parts.length === 0 || total <= 0) {
    const only = parts[0];
    return only ? only.size : figure([{ label: 'Item size', expression: 'no items read', value: 0, unit: 'B' }]);
  }
  if (parts.length === 1) return parts[0]!.size;
  const bytes = parts.reduce((sum, p) => sum + p.read.items * p.size.value, 0) / total;
  const reads = parts.map((p) => ({ name: p.read.name, items: p.read.items, size: p.size.value }));
  const build = (): Step[] => {
    const steps: Step[] = reads.map((r) => ({
      label: `${r.name}: ${formatNumber(r.items)} items of ${formatNumber(r.size)} B`,
      expression: `${formatNumber(r.items)} × ${formatNumber(r.size)} B`,
      value: r.items * r.size,
      unit: 'B',
    }));
    steps.push({
      label: 'Average size of the items read',
      expression: `${steps.map((s) => formatNumber(s.value)).join(' + ')} B / ${formatNumber(total)} items`,
      value: bytes,
      unit: 'B',
    });
    return steps;
  };
  return lazyFigure(bytes, 'B', build, [...new Set(parts.flatMap((p) => p.size.assumptions))]);
}

function readTargetOf(target: Target): 'table' | 'gsi' | 'lsi' {
  return target.kind;
}

/** `rest` preceded by how its input was found; a first step of `rest` restating that input is dropped. */
function withPrefix(prefix: Figure, rest: Figure): Figure {
  const [first, ...others] = rest.steps;
  const restates = first !== undefined && first.unit === prefix.unit && Math.abs(first.value - prefix.value) < 1e-9;
  const tail = restates ? others : rest.steps;
  // The last step decides the value, as in `figure`: the prefix's when nothing of `rest` is left.
  const last = tail.at(-1) ?? { value: prefix.value, unit: prefix.unit };
  return lazyFigure(last.value, last.unit, () => [...prefix.steps, ...tail], [...new Set([...prefix.assumptions, ...rest.assumptions])]);
}

/** Read units per pattern call, split by whose capacity pays: the target (table or GSI) and, for a GSI fetch, the table. */
interface ReadUnits {
  total: Figure;
  /** Units charged to the plan's target (the table for the table and LSIs, else the GSI). */
  onTarget: number;
  /** Units charged to the table by a GSI plan's fetches. */
  onTable: number;
}

/** A step saying that returning fewer attributes does not lower the units (docs/dynamodb-rules.md §2.1). */
function projectionExpressionStep(plan: Plan, sizeValue: number): Step | undefined {
  if (!Array.isArray(plan.returns)) return undefined;
  return {
    label: `Returns only ${plan.returns.join(', ') || 'the key'} (ProjectionExpression): charged on the full ${plan.target.kind === 'table' ? 'item' : 'index entry'} size all the same`,
    expression: `${formatNumber(sizeValue)} B per item`,
    value: sizeValue,
    unit: '',
    source: PROJECTION_EXPRESSION_SOURCE,
  };
}

function withSteps(prefix: Step[], rest: Figure): Figure {
  return prefix.length === 0 ? rest : figure([...prefix, ...rest.steps], rest.assumptions);
}

function readPerRequest(table: Table, plan: Plan, sizes: SizeEstimates): ReadUnits {
  const size = averageReadBytes(table, plan, plan.target, sizes);
  const pe = projectionExpressionStep(plan, size.value);
  const head = pe ? [pe] : [];
  const only = (f: Figure): ReadUnits => ({ total: f, onTarget: f.value, onTable: 0 });
  switch (plan.operation) {
    case 'GetItem':
      return only(withPrefix(size, withSteps(head, getItemReadUnits(size.value, plan.consistency))));
    case 'BatchGetItem': {
      // Keys that find nothing (a fan-out over shards asks every shard) cost the minimum each (docs/dynamodb-rules.md §2.2, docs/dynamodb-rules.md §5).
      const keys = Math.max(1, Math.round(plan.itemsRead));
      const found = Math.min(keys, Math.max(0, Math.round(plan.itemsReturned)));
      const sizes = Array.from({ length: keys }, (_, i) => (i < found ? size.value : undefined));
      return only(withPrefix(size, withSteps(head, batchGetReadUnits(sizes, plan.consistency))));
    }
    case 'Scan':
      return only(scanOf(table, plan.consistency, plan.filter !== undefined ? plan.itemsReturned : undefined, sizes));
    default: {
      const fetch = plan.fetch;
      const baseItem = fetch ? averageReadBytes(table, plan, { kind: 'table' }, sizes) : undefined;
      const query = withPrefix(
        size,
        withSteps(
          head,
          queryReadUnits({
            itemCount: plan.itemsRead,
            itemBytes: size.value,
            consistency: plan.consistency,
            target: readTargetOf(plan.target),
            requests: plan.requests,
            // The "a filter does not lower the cost" step belongs only to a pattern that filters.
            ...(plan.filter !== undefined ? { itemsReturned: plan.itemsReturned } : {}),
            ...(fetch?.kind === 'lsi' && baseItem ? { lsiFetch: { baseItemBytes: baseItem.value } } : {}),
          }),
        ),
      );
      if (fetch?.kind !== 'gsi' || !baseItem) return only(query);
      const fetchUnits = fetchReadUnits(fetch, baseItem.value);
      const total = lazyFigure(
        query.value + fetchUnits.value,
        'RCU',
        () => [
          ...query.steps.map((st, i) => (i === query.steps.length - 1 ? { ...st, label: `${st.label} (the GSI Query, on ${fetch.index}'s capacity)` } : st)),
          ...baseItem.steps.map((st, i) => (i === baseItem.steps.length - 1 ? { ...st, label: `Base item fetched from the table: ${st.label.charAt(0).toLowerCase()}${st.label.slice(1)}` } : st)),
          ...fetchUnits.steps,
          {
            label: `Read units in all: the GSI Query plus the fetches from the table`,
            expression: `${formatNumber(query.value, 4)} + ${formatNumber(fetchUnits.value, 4)}`,
            value: query.value + fetchUnits.value,
            unit: 'RCU',
          },
        ],
        [...new Set([...query.assumptions, ...fetchUnits.assumptions])],
      );
      return { total, onTarget: query.value, onTable: fetchUnits.value };
    }
  }
}

/**
 * The GetItem/BatchGetItem reads a caller sends to the table for each item a GSI Query returned
 * without the attributes it needs: each item rounded up to 4 KB on its own (docs/dynamodb-rules.md §2.2), at the fetch's
 * consistency. Fractional item counts are averages.
 */
function fetchReadUnits(fetch: NonNullable<Plan['fetch']>, itemBytes: number): Figure {
  const blocks = readBlocksForBytes(itemBytes);
  const factor = READ_UNITS_PER_BLOCK[fetch.consistency];
  const op = fetch.operation ?? 'BatchGetItem';
  return lazyFigure(fetch.items * blocks * factor, 'RCU', () => [
    {
      label:
        `${op} from the table for each item, each rounded up to 4 KB on its own` +
        (fetch.missingForFilter.length > 0 ? ` (every item read: the caller tests ${fetch.missingForFilter.join(', ')} after the fetch)` : ''),
      expression: `${formatNumber(fetch.items, 4)} item${fetch.items === 1 ? '' : 's'} × ceil(${formatNumber(itemBytes)} B / 4,096 B)`,
      value: fetch.items * blocks,
      unit: 'units',
      source: fetch.consistency === 'transactional' ? AWS_DOCS.transactions : READ_CONSUMPTION_SOURCE,
    },
    {
      label: `Fetch read units, ${fetch.consistency === 'eventual' ? 'eventually consistent: half a unit per 4 KB' : fetch.consistency === 'strong' ? 'strongly consistent: one unit per 4 KB' : 'transactional: two units per 4 KB'} (charged on the table)`,
      expression: `${formatNumber(fetch.items * blocks, 4)} × ${factor}`,
      value: fetch.items * blocks * factor,
      unit: 'RCU',
      source: READ_CONSUMPTION_SOURCE,
    },
  ]);
}

/** A Scan of the whole table: every entity's items, whatever the filter keeps. */
export function scanOf(table: Table, consistency: Plan['consistency'], itemsReturned?: number, sizes: SizeEstimates = ESTIMATED): Figure {
  return scanReadUnits({
    segments: table.entities.map((e) => ({ itemCount: e.itemCount, itemBytes: sizes.item(table, e).value, label: e.name })),
    consistency: consistency === 'transactional' ? 'strong' : consistency,
    ...(itemsReturned !== undefined ? { itemsReturned } : {}),
  });
}

function perSecondOf(perRequest: Figure, rate: number, unit: Unit): Figure {
  const value = perRequest.value * rate;
  return lazyFigure(
    value,
    unit,
    () => [
      ...perRequest.steps,
      {
        label: 'At the pattern\'s rate',
        expression: `${formatNumber(perRequest.value, 4)} ${perRequest.unit} × ${formatNumber(rate)} requests/s`,
        value,
        unit,
      },
    ],
    [...perRequest.assumptions],
  );
}

function writeCost(table: Table, pattern: AccessPattern & { action: WriteAction }, plan: Plan, sizes: SizeEstimates): { perRequest: Figure; consumption: Consumption[]; gsiShares: Record<string, number> } {
  const entity = pattern.entityId === undefined ? undefined : entityOf(table, pattern.entityId);
  if (!entity) {
    const none = figure([{ label: 'Write units', expression: 'the pattern names no known entity', value: 0, unit: 'WCU' }]);
    return { perRequest: none, consumption: [], gsiShares: {} };
  }
  const item = sizes.item(table, entity).value;
  const indexes: IndexWriteInput[] = [];
  const fractions: Record<string, number> = {};
  /** Per GSI: the share of items that enter it (one put each) besides those weighted by `fractions`. */
  const entering: Record<string, { share: number; units: number }> = {};
  for (const w of plan.indexWrites) {
    if (w.target.kind === 'table') continue;
    if (w.effect === 'none' || w.fraction <= 0) {
      indexes.push({ target: { kind: w.target.kind, name: w.target.name }, effect: 'none', reason: w.reason });
      continue;
    }
    const entry = sizes.entry(table, entity, { kind: w.target.kind, name: w.target.name }).value;
    fractions[w.target.name] = w.fraction;
    if (w.enterShare !== undefined && w.enterShare > 0 && w.target.kind === 'gsi') entering[w.target.name] = { share: w.enterShare, units: writeUnitsForBytes(entry) };
    indexes.push({
      target: { kind: w.target.kind, name: w.target.name },
      effect: w.effect,
      reason: w.reason,
      ...(w.effect === 'put' && kindOf(pattern.action).addressesExisting ? { oldEntryBytes: entry } : {}),
      ...(w.effect !== 'put' ? { oldEntryBytes: entry } : {}),
      ...(w.effect !== 'delete' ? { newEntryBytes: entry } : {}),
    });
  }
  const kind = pattern.action;
  const units = writeUnits({
    kind,
    ...(kind !== 'put' ? { oldItemBytes: item } : {}),
    ...(kind !== 'delete' ? { newItemBytes: item } : {}),
    transactional: plan.consistency === 'transactional',
    indexes,
  });
  // A sparse-by-predicate index holds only part of the entity's items: weigh its writes by that share.
  const partial = Object.entries(fractions).filter(([, f]) => f < 1);
  const expectedOn = (name: string, units: number): number => units * (fractions[name] ?? 1) + (entering[name] ? entering[name].share * entering[name].units : 0);
  let perRequest = units.total;
  if (partial.length > 0 || Object.keys(entering).length > 0) {
    let expected = units.table.value;
    const terms: { name: string; units: number; share: number; enter: { share: number; units: number } | undefined }[] = [];
    for (const [name, gsi] of Object.entries(units.gsis)) {
      expected += expectedOn(name, gsi.value);
      terms.push({ name, units: gsi.value, share: fractions[name] ?? 1, enter: entering[name] });
    }
    const total = units.total;
    const tableUnits = units.table.value;
    const value = expected;
    perRequest = lazyFigure(
      value,
      'WCU',
      () => {
        const parts = [`${formatNumber(tableUnits)} (table and LSIs)`];
        for (const { name, units: u, share: f, enter } of terms) {
          parts.push(
            (f < 1 ? `${formatNumber(u)} × ${formatNumber(f, 4)} (${name} holds that share)` : `${formatNumber(u)} (${name})`) +
              (enter ? ` + ${formatNumber(enter.units)} × ${formatNumber(enter.share, 4)} (the share entering ${name}: one put each)` : ''),
          );
        }
        return [...total.steps, { label: 'Expected per write, sparse indexes weighted by the share of items they hold', expression: parts.join(' + '), value, unit: 'WCU' }];
      },
      units.total.assumptions,
    );
  }
  const rate = pattern.ratePerSecond;
  const consumption: Consumption[] = [{ target: 'table', readUnitsPerSecond: 0, writeUnitsPerSecond: units.table.value * rate }];
  for (const [name, gsi] of Object.entries(units.gsis)) {
    consumption.push({ target: { gsi: name }, readUnitsPerSecond: 0, writeUnitsPerSecond: expectedOn(name, gsi.value) * rate });
  }
  return { perRequest, consumption, gsiShares: fractions };
}

/**
 * Write units per second a write pattern puts on the GSI named `index` (0 when none): its
 * `consumption` there. Worked out from that GSI's index writes alone, which decide it on their own
 * (each GSI's write units are its entry's, weighted by its own share), so that a projection change
 * does not size every other index of every write pattern.
 */
export function gsiWriteUnitsOn(table: Table, pattern: AccessPattern, plan: Plan, index: string, sizes: SizeEstimates = ESTIMATED): number {
  if (!isWritePattern(pattern)) return 0;
  const only: Plan = { ...plan, indexWrites: plan.indexWrites.filter((w) => w.target.kind === 'gsi' && w.target.name === index) };
  const on = writeCost(table, pattern, only, sizes).consumption.find((c) => typeof c.target === 'object' && c.target.gsi === index);
  return on?.writeUnitsPerSecond ?? 0;
}

/**
 * The plans of `writes` (write patterns of `table`, in order) on `table`. Planned together on one
 * view of the table when that is exactly what planning them in `table` gives: a write's plan reads
 * the table's keys, indexes and value model, not the other patterns, and the value model is checked
 * to come out the same without the reads; else one by one.
 */
export function planWrites(table: Table, writes: readonly AccessPattern[]): Plan[] {
  const restricted: Table = { ...table, accessPatterns: [...writes] };
  return hasSameValues(table, restricted) ? planTable(restricted) : writes.map((p) => planPattern(table, p));
}

/** Whether `restricted` (`table` with fewer patterns) has exactly `table`'s entities once the value model is applied. */
export function hasSameValues(table: Table, restricted: Table): boolean {
  return withValueModel(table).entities === table.entities && withValueModel(restricted).entities === table.entities;
}

function remember<T>(memo: Map<string, T>, key: string, compute: () => T): T {
  let value = memo.get(key);
  if (value === undefined) memo.set(key, (value = compute()));
  return value;
}

/**
 * A projection context for one costing of `table` (the table as costed: index quota and value model
 * applied): each change's changed table, storage and write units computed once. `plans` gives the
 * table's plans in pattern order, `storage` its `estimateStorage`; both are read only when a pattern
 * asks for a projection change.
 */
export function createProjectionContext(table: Table, plans: () => readonly Plan[], storage: () => StorageEstimate, sizes: SizeEstimates = ESTIMATED): ProjectionContext {
  const changedTables = new Map<string, Table>();
  const storageBytes = new Map<string, { before: number; after: number }>();
  const writes = new Map<string, WriteUnitsChange[]>();
  const changedTable = (change: ProjectionChange): Table => remember(changedTables, projectionChangeKey(change), () => withProjection(table, change));
  return {
    changedTable,
    planChanged: (change, pattern) => planPattern(changedTable(change), pattern),
    indexStorageBytes: (change) =>
      remember(storageBytes, projectionChangeKey(change), () => ({
        before: storage().indexes[change.index]?.value ?? 0,
        after: estimateStorage(changedTable(change)).indexes[change.index]?.value ?? 0,
      })),
    writeUnits: (change) =>
      remember(writes, projectionChangeKey(change), () => {
        const before = plans();
        const changed = changedTable(change);
        const indexes = table.accessPatterns.flatMap((p, i) => (isWritePattern(p) ? [i] : []));
        const after = planWrites(changed, indexes.map((i) => table.accessPatterns[i]!));
        return indexes.map((i, n) => {
          const p = table.accessPatterns[i]!;
          return { name: p.name, was: gsiWriteUnitsOn(table, p, before[i]!, change.index, sizes), now: gsiWriteUnitsOn(changed, p, after[n]!, change.index, sizes) };
        });
      }),
  };
}

/**
 * What the patterns of one costing of a table share: sizes, the projection context, and each
 * projection change's cost, worked out once for the patterns asking for it.
 */
export interface TableCosting {
  sizes: SizeEstimates;
  projection: ProjectionContext;
  changeCost(change: ProjectionChange): ProjectionChangeCost;
}

/** The shared work of one costing of `table` at `pricing`. */
export function createTableCosting(table: Table, pricing: Pricing, sizes: SizeEstimates, projection: ProjectionContext): TableCosting {
  const costs = new Map<string, ProjectionChangeCost>();
  return { sizes, projection, changeCost: (change) => remember(costs, projectionChangeKey(change), () => costProjectionChange(table, change, pricing, projection)) };
}

/** The shared work of one pattern costed on its own: its sizes and, when it asks for a projection change, the table's plans (once per table object). */
function ownCosting(table: Table, pricing: Pricing): TableCosting {
  const sizes = createSizeEstimates();
  return createTableCosting(table, pricing, sizes, createProjectionContext(table, () => plansOf(table), () => estimateStorage(table), sizes));
}

/** Plans of a table, once per table object, for a pattern costed on its own that asks for a projection change. */
const planCache = new WeakMap<Table, Plan[]>();
function plansOf(table: Table): Plan[] {
  let plans = planCache.get(table);
  if (!plans) planCache.set(table, (plans = planTable(table)));
  return plans;
}

/** A figure of 0 that says why it is not a cost: the pattern needs a key design first. */
function notCosted(reason: string, unit: Unit): Figure {
  return figure([{ label: 'Not costed: the pattern needs a key design', expression: reason, value: 0, unit }]);
}

/**
 * Costs one pattern under its plan (a pattern that needs a key design is not costed: see
 * `PatternCost.needsKeyDesign`). `table` is the table as costed (`costTable` applies the index quota
 * and the value model first). `projection` shares the work of projection options between the
 * patterns of one costing; without it, the pattern's own is made when it needs one.
 */
export function costPattern(table: Table, pattern: AccessPattern, plan: Plan, pricing: Pricing, shared: TableCosting = ownCosting(table, pricing)): PatternCost {
  const rate = pattern.ratePerSecond;
  const isWrite = isWritePattern(pattern);
  if (plan.needsKeyDesign !== undefined) {
    const reason = plan.needsKeyDesign;
    const unit = isWrite ? 'WCU' : 'RCU';
    return {
      patternId: pattern.id,
      name: pattern.name,
      kind: isWrite ? 'write' : 'read',
      plan,
      perRequest: notCosted(reason, unit),
      perSecond: notCosted(reason, isWrite ? 'WCU/s' : 'RCU/s'),
      monthly: { onDemand: notCosted(reason, 'USD/month'), provisioned: notCosted(reason, 'USD/month') },
      consumption: [],
      needsKeyDesign: reason,
    };
  }
  if (isWritePattern(pattern)) {
    const { perRequest, consumption } = writeCost(table, pattern, plan, shared.sizes);
    const perSecond = perSecondOf(perRequest, rate, 'WCU/s');
    perSecond.assumptions.push(RATE_ASSUMPTION);
    return {
      patternId: pattern.id,
      name: pattern.name,
      kind: 'write',
      plan,
      perRequest,
      perSecond,
      monthly: monthlyFigures({ readUnitsPerSecond: 0, writeUnitsPerSecond: perSecond.value }, table.tableClass, pricing),
      consumption,
    };
  }
  const units = readPerRequest(table, plan, shared.sizes);
  const perRequest = units.total;
  const perSecond = perSecondOf(perRequest, rate, 'RCU/s');
  perSecond.assumptions.push(RATE_ASSUMPTION);
  const consumption: Consumption[] = [
    { target: plan.target.kind === 'gsi' ? { gsi: plan.target.name } : 'table', readUnitsPerSecond: units.onTarget * rate, writeUnitsPerSecond: 0 },
  ];
  if (units.onTable > 0) consumption.push({ target: 'table', readUnitsPerSecond: units.onTable * rate, writeUnitsPerSecond: 0 });
  const cost: PatternCost = {
    patternId: pattern.id,
    name: pattern.name,
    kind: 'read',
    plan,
    perRequest,
    perSecond,
    monthly: monthlyFigures({ readUnitsPerSecond: perSecond.value, writeUnitsPerSecond: 0 }, table.tableClass, pricing),
    consumption,
  };
  const option = costProjectionOption(table, pattern, plan, (t, _p, pl) => readPerRequest(t, pl, shared.sizes).total, shared.projection, shared.changeCost);
  if (option) cost.projectionOption = option;
  if (plan.operation !== 'Scan') {
    const scanRequest = scanOf(table, plan.consistency, plan.itemsReturned, shared.sizes);
    const scanSecond = perSecondOf(scanRequest, rate, 'RCU/s');
    cost.scan = {
      perRequest: scanRequest,
      perSecond: scanSecond,
      monthly: monthlyFigures({ readUnitsPerSecond: scanSecond.value, writeUnitsPerSecond: 0 }, table.tableClass, pricing),
      ratio: perRequest.value > 0 ? scanRequest.value / perRequest.value : Infinity,
    };
  }
  return cost;
}
