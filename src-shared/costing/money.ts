/**
 * Dollars per month for a rate of read and write units, both ways a table can be billed. A
 * pattern's provisioned figure is its share of the capacity (units × hours × price, not rounded):
 * the whole table or GSI is what gets provisioned, in whole units (see `design-cost.ts`).
 */
import { onDemandMonthlyUsd, roundUsd } from '../capacity/pricing.ts';
import { figure, formatNumber, type Figure } from '../capacity/figure.ts';
import type { Pricing, TableClass } from '../model/schema.ts';

export interface MonthlyUsd {
  onDemand: Figure;
  provisioned: Figure;
}

export interface UnitRates {
  readUnitsPerSecond: number;
  writeUnitsPerSecond: number;
}

const usd = (n: number) => `$${formatNumber(n, 6)}`;

/** The provisioned capacity a rate takes up, priced per hour: the pattern's share of its table's bill. */
export function provisionedShareUsd(rates: UnitRates, tableClass: TableClass, pricing: Pricing): Figure {
  const p = pricing.tableClasses[tableClass];
  const hours = pricing.hoursPerMonth;
  const reads = roundUsd(rates.readUnitsPerSecond * hours * p.readCapacityUnitUsdPerHour);
  const writes = roundUsd(rates.writeUnitsPerSecond * hours * p.writeCapacityUnitUsdPerHour);
  return figure(
    [
      {
        label: 'Read capacity used',
        expression: `${formatNumber(rates.readUnitsPerSecond, 4)} RCU × ${formatNumber(hours)} h × ${usd(p.readCapacityUnitUsdPerHour)}`,
        value: reads,
        unit: 'USD/month',
        source: 'dynamodb-reference.md §6',
      },
      {
        label: 'Write capacity used',
        expression: `${formatNumber(rates.writeUnitsPerSecond, 4)} WCU × ${formatNumber(hours)} h × ${usd(p.writeCapacityUnitUsdPerHour)}`,
        value: writes,
        unit: 'USD/month',
        source: 'dynamodb-reference.md §6',
      },
      { label: 'Provisioned capacity this takes up per month', expression: `${usd(reads)} + ${usd(writes)}`, value: roundUsd(reads + writes), unit: 'USD/month' },
    ],
    ['A provisioned figure per pattern is its share of the capacity; the table and each GSI are provisioned in whole units (see the totals).'],
  );
}

export function monthlyFigures(rates: UnitRates, tableClass: TableClass, pricing: Pricing): MonthlyUsd {
  return {
    onDemand: onDemandMonthlyUsd({ ...rates, tableClass, pricing }),
    provisioned: provisionedShareUsd(rates, tableClass, pricing),
  };
}
