/**
 * What one access pattern costs: its plan (from the planner) turned into read or write units per
 * request and per second, dollars per month on-demand and provisioned, where the capacity is
 * consumed (the table or a GSI), and, for reads, the Scan that would do the same job beside it.
 * The units are worked out in `read-cost.ts` and `write-cost.ts`; what the patterns of one costing
 * share, in `table-costing.ts`.
 */
import { figure, formatNumber, lazyFigure, type Figure, type Unit } from '../capacity/index.ts';
import type { AccessPattern, Pricing, Table } from '../model/index.ts';
import { averageRatePerSecond, busiestRatePerSecond, isWritePattern, type AverageSource } from '../model/index.ts';
import type { Plan } from '../planner/index.ts';
import { monthlyFigures, type MonthlyUsd, type UnitRates } from './money.ts';
import { costProjectionOption, type ProjectionOption } from './projection-option.ts';
import { readPerRequest, scanOf } from './read-cost.ts';
import { ownCosting, type TableCosting } from './table-costing.ts';
import { writeCost } from './write-cost.ts';
import type { Consumption } from './types.ts';
export type { Consumption } from './types.ts';

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
  /** × the pattern's peak requests per second (its busiest minute, spikes included): what capacity is sized from. */
  perSecond: Figure;
  /** × the pattern's average requests per second: what on-demand requests are priced from (docs/traffic.md). */
  averagePerSecond: Figure;
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

/** "500/s" */
function rateText(rate: number): string {
  return `${formatNumber(rate)}/s`;
}

/** What the pattern's per-second figure and its monthly dollars rest on: sized from the peak, priced from the average. */
function rateAssumption(pattern: AccessPattern, peak: number, average: number, source: AverageSource): string {
  const sized = `Capacity is sized from the peak ${rateText(peak)}`;
  if (source === 'peak') return `${sized}; on-demand requests are priced from the average rate ${rateText(average)}, the peak all month (no average or daily profile is stated: set one in the pattern editor, docs/traffic.md).`;
  if (source === 'stated') return `${sized}; on-demand requests are priced from the average rate ${rateText(average)}, as stated (docs/traffic.md).`;
  const profile = pattern.profile ? `the ${pattern.profile.kind} profile` : 'a flat day';
  const spikes = (pattern.spikes ?? []).length;
  return `${sized}; on-demand requests are priced from the average rate ${rateText(average)}: the peak ${rateText(pattern.ratePerSecond)} over ${profile}${spikes > 0 ? ` with ${spikes} spike${spikes === 1 ? '' : 's'}` : ''}, averaged over the day's 1,440 minutes (docs/traffic.md).`;
}

function perSecondOf(perRequest: Figure, rate: number, unit: Unit, label = 'Sized from the peak'): Figure {
  const value = perRequest.value * rate;
  return lazyFigure(
    value,
    unit,
    () => [
      ...perRequest.steps,
      {
        label: `${label} ${rateText(rate)}`,
        expression: `${formatNumber(perRequest.value, 4)} ${perRequest.unit} × ${formatNumber(rate)} requests/s`,
        value,
        unit,
      },
    ],
    [...perRequest.assumptions],
  );
}

/** The on-demand dollars of the units at the average rate, the average's step first in the derivation. */
function onDemandFromAverage(averageUnits: Figure, rates: UnitRates, table: Table, pricing: Pricing): Figure {
  const dollars = monthlyFigures(rates, table.tableClass, pricing).onDemand;
  return lazyFigure(dollars.value, dollars.unit, () => [averageUnits.steps.at(-1)!, ...dollars.steps], [...dollars.assumptions]);
}

/** The pattern's monthly figures: on-demand from the average units, provisioned (the load's share of capacity) from the peak units. */
function monthlyOf(kind: 'read' | 'write', peakUnits: Figure, averageUnits: Figure, table: Table, pricing: Pricing): MonthlyUsd {
  const rates = (v: number): UnitRates => (kind === 'read' ? { readUnitsPerSecond: v, writeUnitsPerSecond: 0 } : { readUnitsPerSecond: 0, writeUnitsPerSecond: v });
  return {
    onDemand: onDemandFromAverage(averageUnits, rates(averageUnits.value), table, pricing),
    provisioned: monthlyFigures(rates(peakUnits.value), table.tableClass, pricing).provisioned,
  };
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
  const rate = busiestRatePerSecond(pattern);
  const average = averageRatePerSecond(pattern);
  const assumption = rateAssumption(pattern, rate, average.value, average.source);
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
      averagePerSecond: notCosted(reason, isWrite ? 'WCU/s' : 'RCU/s'),
      monthly: { onDemand: notCosted(reason, 'USD/month'), provisioned: notCosted(reason, 'USD/month') },
      consumption: [],
      needsKeyDesign: reason,
    };
  }
  if (isWritePattern(pattern)) {
    const { perRequest, consumption } = writeCost(table, pattern, plan, shared.sizes);
    const perSecond = perSecondOf(perRequest, rate, 'WCU/s');
    perSecond.assumptions.push(assumption);
    const averagePerSecond = perSecondOf(perRequest, average.value, 'WCU/s', 'Priced from the average rate');
    averagePerSecond.assumptions.push(assumption);
    return {
      patternId: pattern.id,
      name: pattern.name,
      kind: 'write',
      plan,
      perRequest,
      perSecond,
      averagePerSecond,
      monthly: monthlyOf('write', perSecond, averagePerSecond, table, pricing),
      consumption,
    };
  }
  const units = readPerRequest(table, plan, shared.sizes);
  const perRequest = units.total;
  const perSecond = perSecondOf(perRequest, rate, 'RCU/s');
  perSecond.assumptions.push(assumption);
  const averagePerSecond = perSecondOf(perRequest, average.value, 'RCU/s', 'Priced from the average rate');
  averagePerSecond.assumptions.push(assumption);
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
    averagePerSecond,
    monthly: monthlyOf('read', perSecond, averagePerSecond, table, pricing),
    consumption,
  };
  const option = costProjectionOption(table, pattern, plan, (t, _p, pl) => readPerRequest(t, pl, shared.sizes).total, shared.projection, shared.changeCost);
  if (option) cost.projectionOption = option;
  if (plan.operation !== 'Scan') {
    const scanRequest = scanOf(table, plan.consistency, plan.itemsReturned, shared.sizes);
    const scanSecond = perSecondOf(scanRequest, rate, 'RCU/s');
    const scanAverage = perSecondOf(scanRequest, average.value, 'RCU/s', 'Priced from the average rate');
    cost.scan = {
      perRequest: scanRequest,
      perSecond: scanSecond,
      monthly: monthlyOf('read', scanSecond, scanAverage, table, pricing),
      ratio: perRequest.value > 0 ? scanRequest.value / perRequest.value : Infinity,
    };
  }
  return cost;
}
