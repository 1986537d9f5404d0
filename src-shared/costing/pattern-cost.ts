/**
 * What one access pattern costs: its plan (from the planner) turned into read or write units per
 * request and per second, dollars per month on-demand and provisioned, where the capacity is
 * consumed (the table or a GSI), and, for reads, the Scan that would do the same job beside it.
 * The units are worked out in `read-cost.ts` and `write-cost.ts`; what the patterns of one costing
 * share, in `table-costing.ts`.
 */
import { figure, formatNumber, lazyFigure, type Figure, type Unit } from '../capacity/index.ts';
import type { AccessPattern, Pricing, Table } from '../model/index.ts';
import { isWritePattern } from '../model/index.ts';
import type { Plan } from '../planner/index.ts';
import { monthlyFigures, type MonthlyUsd } from './money.ts';
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

const RATE_ASSUMPTION = 'The rate is taken as sustained all month (the peak rate; an average rate gives a lower monthly cost).';

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
