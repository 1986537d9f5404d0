/**
 * Dollars per month for a rate of read and write units, both ways a table can be billed. A
 * pattern's provisioned figure is its load's share of capacity (units × hours × price, not rounded):
 * the table or GSI is what gets provisioned and billed, in whole units, at the capacity it holds
 * whatever the load (see `design-cost.ts`).
 */
import {
  onDemandMonthlyUsd,
  PROVISIONED_PRICING_URL,
  roundUsd,
  formatNumber,
  lazyFigure,
  type Figure,
} from '../capacity/index.ts';
import type { Pricing, TableClass } from '../model/index.ts';
import { formatUsdExact } from '../numbers/index.ts';

export interface MonthlyUsd {
  onDemand: Figure;
  provisioned: Figure;
}

export interface UnitRates {
  readUnitsPerSecond: number;
  writeUnitsPerSecond: number;
}


/**
 * The provisioned capacity a rate takes up, priced per hour: the pattern's load's share of capacity.
 * Not a share of a provisioned table's bill, which is for the capacity held whatever the load.
 */
export function provisionedShareUsd(rates: UnitRates, tableClass: TableClass, pricing: Pricing): Figure {
  const p = pricing.tableClasses[tableClass];
  const hours = pricing.hoursPerMonth;
  const reads = roundUsd(rates.readUnitsPerSecond * hours * p.readCapacityUnitUsdPerHour);
  const writes = roundUsd(rates.writeUnitsPerSecond * hours * p.writeCapacityUnitUsdPerHour);
  // The derivation's text is written when someone opens it.
  return lazyFigure(
    roundUsd(reads + writes),
    'USD/month',
    () => [
      {
        label: 'Read capacity this load uses',
        expression: `${formatNumber(rates.readUnitsPerSecond, 4)} RCU × ${formatNumber(hours)} h × ${formatUsdExact(p.readCapacityUnitUsdPerHour)}`,
        value: reads,
        unit: 'USD/month',
        source: PROVISIONED_PRICING_URL,
      },
      {
        label: 'Write capacity this load uses',
        expression: `${formatNumber(rates.writeUnitsPerSecond, 4)} WCU × ${formatNumber(hours)} h × ${formatUsdExact(p.writeCapacityUnitUsdPerHour)}`,
        value: writes,
        unit: 'USD/month',
        source: PROVISIONED_PRICING_URL,
      },
      { label: "Provisioned capacity this load takes up per month (the load's share)", expression: `${formatUsdExact(reads)} + ${formatUsdExact(writes)}`, value: roundUsd(reads + writes), unit: 'USD/month' },
    ],
    [
      "A pattern's provisioned figure is its load's share of capacity. The table and each GSI are billed for the whole units they hold, whatever the load: configured, or what auto scaling holds (see the totals).",
    ],
  );
}

export function monthlyFigures(rates: UnitRates, tableClass: TableClass, pricing: Pricing): MonthlyUsd {
  return {
    onDemand: onDemandMonthlyUsd({ ...rates, tableClass, pricing }),
    provisioned: provisionedShareUsd(rates, tableClass, pricing),
  };
}
