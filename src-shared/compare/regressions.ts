/**
 * What makes a later design worse than the first, for a CI guard (`keyplan compare
 * --fail-if-costlier PCT`): it costs more on-demand by more than a percentage, it turns a key-based
 * read into a Scan, or it throttles a pattern the first design does not.
 */
import { formatNumber } from '../capacity/index.ts';
import { formatShare, formatUsd } from '../numbers/index.ts';
import type { ComparisonReport } from './types.ts';
import { accessRank } from './rows.ts';

/** `compare.costlier`: more on-demand dollars; `compare.becomesScan`: a Query/GetItem became a Scan; `compare.addsThrottling`. */
export type RegressionCode = 'compare.costlier' | 'compare.becomesScan' | 'compare.addsThrottling';

export interface Regression {
  code: RegressionCode;
  /** The later design (index into `report.sides`, ≥ 1). */
  side: number;
  /** The pattern's key, for the last two codes. */
  patternKey?: string;
  /** One sentence naming the designs, the pattern and the numbers. */
  message: string;
}


/**
 * The ways each later design is worse than the first (side 0). `maxIncreasePercent`: how much more
 * the on-demand total per month may cost, in percent (0 flags any increase). Throttling is checked
 * only when the report has the simulation.
 */
export function findRegressions(report: ComparisonReport, { maxIncreasePercent }: { maxIncreasePercent: number }): Regression[] {
  const out: Regression[] = [];
  const label = (side: number) => `"${report.sides[side]!.label}"`;
  const total = report.totals.find((r) => r.key === 'totals:onDemandMonthly');
  const base = total?.cells[0]?.value;
  for (let side = 1; side < report.sides.length; side++) {
    const value = total?.cells[side]?.value;
    if (typeof base === 'number' && typeof value === 'number') {
      const increase = base > 0 ? ((value - base) / base) * 100 : value > 0 ? Infinity : 0;
      // A hundredth of a cent is rounding noise in sums of Figures, not a cost.
      if (value - base > 1e-4 && increase > maxIncreasePercent) {
        const pct = Number.isFinite(increase) ? `${formatNumber(increase, 1)}% more` : 'more (the first costs nothing)';
        out.push({
          code: 'compare.costlier',
          side,
          message: `${label(side)} costs ${formatUsd(value)} per month on-demand, ${pct} than ${label(0)} (${formatUsd(base)}); the limit is ${formatNumber(maxIncreasePercent, 2)}%.`,
        });
      }
    }
    for (const p of report.patterns) {
      const before = p.sides[0]?.plan;
      const after = p.sides[side]?.plan;
      if (before && after && accessRank(before.operation) < accessRank(after.operation)) {
        const where = before.index === 'table' ? 'the table' : `${before.indexKind.toUpperCase()} ${before.index}`;
        out.push({
          code: 'compare.becomesScan',
          side,
          patternKey: p.key,
          message: `access pattern "${p.name}" (${p.sides[side]!.patternId}) is a ${before.operation} on ${where} in ${label(0)} but a Scan in ${label(side)}.`,
        });
      }
    }
    for (const row of report.partitionRisk?.patterns ?? []) {
      const before = row.cells[0]?.value;
      const after = row.cells[side]?.value;
      if (typeof after === 'number' && after > 0 && !(typeof before === 'number' && before > 0)) {
        const patternKey = row.key.replace(/:throttled$/, '');
        const was = typeof before === 'number' ? 'none' : 'the pattern is not there';
        out.push({
          code: 'compare.addsThrottling',
          side,
          patternKey,
          message: `access pattern "${row.label}" throttles ${formatShare(after)} of its requests in ${label(side)} (${label(0)}: ${was}, seed ${report.partitionRisk!.seed}).`,
        });
      }
    }
  }
  return out;
}
