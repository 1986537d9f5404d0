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
import type { AccessPattern, Entity, Pricing, Table } from '../model/schema.ts';
import type { Plan, Target } from '../planner/types.ts';
import { monthlyFigures, type MonthlyUsd } from './money.ts';

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
  /** Reads only: a Scan doing the same job, for comparison. Absent when the plan already is a Scan. */
  scan?: ScanAlternative;
  consumption: Consumption[];
}

const RATE_ASSUMPTION = 'The rate is taken as sustained all month (the peak rate; an average rate gives a lower monthly cost).';

function entityOf(table: Table, id: string): Entity | undefined {
  return table.entities.find((e) => e.id === id);
}

/** Average bytes per item read, weighted by how many items of each entity the plan reads. */
function averageReadBytes(table: Table, plan: Plan): Figure {
  const parts = plan.entitiesRead
    .map((read) => {
      const entity = entityOf(table, read.entityId);
      if (!entity) return undefined;
      const size =
        plan.target.kind === 'table'
          ? estimateItemBytes(table, entity)
          : estimateIndexEntryBytes(table, entity, { kind: plan.target.kind, name: plan.target.name });
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

function readPerRequest(table: Table, plan: Plan): Figure {
  const size = averageReadBytes(table, plan);
  switch (plan.operation) {
    case 'GetItem':
      return withPrefix(size, getItemReadUnits(size.value, plan.consistency));
    case 'BatchGetItem':
      return withPrefix(size, batchGetReadUnits(Array.from({ length: Math.max(1, Math.round(plan.itemsRead)) }, () => size.value), plan.consistency));
    case 'Scan':
      return scanOf(table, plan.consistency, plan.itemsReturned);
    default:
      return withPrefix(
        size,
        queryReadUnits({
          itemCount: plan.itemsRead,
          itemBytes: size.value,
          consistency: plan.consistency,
          target: readTargetOf(plan.target),
          requests: plan.requests,
          itemsReturned: plan.itemsReturned,
        }),
      );
  }
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
  const entity = entityOf(table, pattern.entityId);
  if (!entity) {
    const none = figure([{ label: 'Write units', expression: 'the pattern names no known entity', value: 0, unit: 'WCU' }]);
    return { perRequest: none, consumption: [], gsiShares: {} };
  }
  const item = estimateItemBytes(table, entity).value;
  const indexes: IndexWriteInput[] = [];
  const fractions: Record<string, number> = {};
  for (const w of plan.indexWrites) {
    if (w.target.kind === 'table' || w.effect === 'none' || w.fraction <= 0) continue;
    const entry = estimateIndexEntryBytes(table, entity, { kind: w.target.kind, name: w.target.name }).value;
    fractions[w.target.name] = w.fraction;
    indexes.push({
      target: { kind: w.target.kind, name: w.target.name },
      effect: w.effect,
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
  let perRequest = units.total;
  if (partial.length > 0) {
    const steps: Step[] = [...units.total.steps];
    let expected = units.table.value;
    const parts = [`${formatNumber(units.table.value)} (table and LSIs)`];
    for (const [name, gsi] of Object.entries(units.gsis)) {
      const f = fractions[name] ?? 1;
      expected += gsi.value * f;
      parts.push(f < 1 ? `${formatNumber(gsi.value)} × ${formatNumber(f, 4)} (${name} holds that share)` : `${formatNumber(gsi.value)} (${name})`);
    }
    steps.push({ label: 'Expected per write, sparse indexes weighted by the share of items they hold', expression: parts.join(' + '), value: expected, unit: 'WCU' });
    perRequest = figure(steps, units.total.assumptions);
  }
  const rate = pattern.ratePerSecond;
  const consumption: Consumption[] = [{ target: 'table', readUnitsPerSecond: 0, writeUnitsPerSecond: units.table.value * rate }];
  for (const [name, gsi] of Object.entries(units.gsis)) {
    consumption.push({ target: { gsi: name }, readUnitsPerSecond: 0, writeUnitsPerSecond: gsi.value * (fractions[name] ?? 1) * rate });
  }
  return { perRequest, consumption, gsiShares: fractions };
}

/** Costs one pattern under its plan. */
export function costPattern(table: Table, pattern: AccessPattern, plan: Plan, pricing: Pricing): PatternCost {
  const rate = pattern.ratePerSecond;
  const isWrite = pattern.action === 'put' || pattern.action === 'update' || pattern.action === 'delete';
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
  const perRequest = readPerRequest(table, plan);
  const perSecond = perSecondOf(perRequest, rate, 'RCU/s');
  perSecond.assumptions.push(RATE_ASSUMPTION);
  const consumption: Consumption[] = [
    { target: plan.target.kind === 'gsi' ? { gsi: plan.target.name } : 'table', readUnitsPerSecond: perSecond.value, writeUnitsPerSecond: 0 },
  ];
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
