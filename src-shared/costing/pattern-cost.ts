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
  type IndexWriteInput,
} from '../capacity/index.ts';
import { figure, formatNumber, type Figure, type Step, type Unit } from '../capacity/figure.ts';
import { READ_UNITS_PER_BLOCK, readBlocksForBytes, writeUnitsForBytes } from '../capacity/units/rules.ts';
import { AWS_DOCS } from '../capacity/sources.ts';
import type { AccessPattern, Entity, Pricing, Table } from '../model/schema.ts';
import type { Plan, Target } from '../planner/types.ts';
import { monthlyFigures, type MonthlyUsd } from './money.ts';
import { costProjectionOption, type ProjectionOption } from './projection-option.ts';

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

function entityOf(table: Table, id: string): Entity | undefined {
  return table.entities.find((e) => e.id === id);
}

/** Average bytes per item read, weighted by how many items of each entity the plan reads (`target` the table: whole items). */
export function averageReadBytes(table: Table, plan: Plan, target: Target = plan.target): Figure {
  const parts = plan.entitiesRead
    .map((read) => {
      const entity = entityOf(table, read.entityId);
      if (!entity) return undefined;
      const size =
        target.kind === 'table'
          ? estimateItemBytes(table, entity)
          : estimateIndexEntryBytes(table, entity, { kind: target.kind, name: target.name });
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
  const steps: Step[] = parts.map((p) => ({
    label: `${p.read.name}: ${formatNumber(p.read.items)} items of ${formatNumber(p.size.value)} B`,
    expression: `${formatNumber(p.read.items)} × ${formatNumber(p.size.value)} B`,
    value: p.read.items * p.size.value,
    unit: 'B',
  }));
  steps.push({
    label: 'Average size of the items read',
    expression: `${steps.map((s) => formatNumber(s.value)).join(' + ')} B / ${formatNumber(total)} items`,
    value: bytes,
    unit: 'B',
  });
  return figure(steps, [...new Set(parts.flatMap((p) => p.size.assumptions))]);
}

function readTargetOf(target: Target): 'table' | 'gsi' | 'lsi' {
  return target.kind;
}

/** `rest` preceded by how its input was found; a first step of `rest` restating that input is dropped. */
function withPrefix(prefix: Figure, rest: Figure): Figure {
  const [first, ...others] = rest.steps;
  const restates = first !== undefined && first.unit === prefix.unit && Math.abs(first.value - prefix.value) < 1e-9;
  return figure([...prefix.steps, ...(restates ? others : rest.steps)], [...new Set([...prefix.assumptions, ...rest.assumptions])]);
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

function readPerRequest(table: Table, plan: Plan): ReadUnits {
  const size = averageReadBytes(table, plan);
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
      return only(scanOf(table, plan.consistency, plan.filter !== undefined ? plan.itemsReturned : undefined));
    default: {
      const fetch = plan.fetch;
      const baseItem = fetch ? averageReadBytes(table, plan, { kind: 'table' }) : undefined;
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
      const total = figure(
        [
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
  return figure([
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
export function scanOf(table: Table, consistency: Plan['consistency'], itemsReturned?: number): Figure {
  return scanReadUnits({
    segments: table.entities.map((e) => ({ itemCount: e.itemCount, itemBytes: estimateItemBytes(table, e).value, label: e.name })),
    consistency: consistency === 'transactional' ? 'strong' : consistency,
    ...(itemsReturned !== undefined ? { itemsReturned } : {}),
  });
}

function perSecondOf(perRequest: Figure, rate: number, unit: Unit): Figure {
  return figure(
    [
      ...perRequest.steps,
      {
        label: 'At the pattern\'s rate',
        expression: `${formatNumber(perRequest.value, 4)} ${perRequest.unit} × ${formatNumber(rate)} requests/s`,
        value: perRequest.value * rate,
        unit,
      },
    ],
    [...perRequest.assumptions],
  );
}

function writeCost(table: Table, pattern: AccessPattern, plan: Plan): { perRequest: Figure; consumption: Consumption[]; gsiShares: Record<string, number> } {
  const entity = pattern.entityId === undefined ? undefined : entityOf(table, pattern.entityId);
  if (!entity) {
    const none = figure([{ label: 'Write units', expression: 'the pattern names no known entity', value: 0, unit: 'WCU' }]);
    return { perRequest: none, consumption: [], gsiShares: {} };
  }
  const item = estimateItemBytes(table, entity).value;
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
    const entry = estimateIndexEntryBytes(table, entity, { kind: w.target.kind, name: w.target.name }).value;
    fractions[w.target.name] = w.fraction;
    if (w.enterShare !== undefined && w.enterShare > 0 && w.target.kind === 'gsi') entering[w.target.name] = { share: w.enterShare, units: writeUnitsForBytes(entry) };
    indexes.push({
      target: { kind: w.target.kind, name: w.target.name },
      effect: w.effect,
      reason: w.reason,
      ...(w.effect === 'put' && pattern.action === 'update' ? { oldEntryBytes: entry } : {}),
      ...(w.effect !== 'put' ? { oldEntryBytes: entry } : {}),
      ...(w.effect !== 'delete' ? { newEntryBytes: entry } : {}),
    });
  }
  const kind = pattern.action === 'put' ? 'put' : pattern.action === 'update' ? 'update' : 'delete';
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
    const steps: Step[] = [...units.total.steps];
    let expected = units.table.value;
    const parts = [`${formatNumber(units.table.value)} (table and LSIs)`];
    for (const [name, gsi] of Object.entries(units.gsis)) {
      const f = fractions[name] ?? 1;
      const enter = entering[name];
      expected += expectedOn(name, gsi.value);
      parts.push(
        (f < 1 ? `${formatNumber(gsi.value)} × ${formatNumber(f, 4)} (${name} holds that share)` : `${formatNumber(gsi.value)} (${name})`) +
          (enter ? ` + ${formatNumber(enter.units)} × ${formatNumber(enter.share, 4)} (the share entering ${name}: one put each)` : ''),
      );
    }
    steps.push({ label: 'Expected per write, sparse indexes weighted by the share of items they hold', expression: parts.join(' + '), value: expected, unit: 'WCU' });
    perRequest = figure(steps, units.total.assumptions);
  }
  const rate = pattern.ratePerSecond;
  const consumption: Consumption[] = [{ target: 'table', readUnitsPerSecond: 0, writeUnitsPerSecond: units.table.value * rate }];
  for (const [name, gsi] of Object.entries(units.gsis)) {
    consumption.push({ target: { gsi: name }, readUnitsPerSecond: 0, writeUnitsPerSecond: expectedOn(name, gsi.value) * rate });
  }
  return { perRequest, consumption, gsiShares: fractions };
}

/** A figure of 0 that says why it is not a cost: the pattern needs a key design first. */
function notCosted(reason: string, unit: Unit): Figure {
  return figure([{ label: 'Not costed: the pattern needs a key design', expression: reason, value: 0, unit }]);
}

/** Costs one pattern under its plan (a pattern that needs a key design is not costed: see `PatternCost.needsKeyDesign`). */
export function costPattern(table: Table, pattern: AccessPattern, plan: Plan, pricing: Pricing): PatternCost {
  const rate = pattern.ratePerSecond;
  const isWrite = pattern.action === 'put' || pattern.action === 'update' || pattern.action === 'delete';
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
  if (isWrite) {
    const { perRequest, consumption } = writeCost(table, pattern, plan);
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
  const units = readPerRequest(table, plan);
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
  const option = costProjectionOption(
    table,
    pattern,
    plan,
    pricing,
    (t, _p, pl) => readPerRequest(t, pl).total,
    (t, p, pl) => new Map(writeCost(t, p, pl).consumption.flatMap((c) => (typeof c.target === 'object' ? [[c.target.gsi, c.writeUnitsPerSecond] as const] : []))),
  );
  if (option) cost.projectionOption = option;
  if (plan.operation !== 'Scan') {
    const scanRequest = scanOf(table, plan.consistency, plan.itemsReturned);
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
