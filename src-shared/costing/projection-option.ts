/**
 * The other way to serve a pattern whose index lacks attributes it needs: change the index's
 * projection so the Query alone returns them. Costed beside the fetch plan: the pattern's reads with
 * the larger entries, and what the change adds to the index's storage and to every write that
 * touches it (docs/dynamodb-rules.md §1.4, §3.3).
 */
import { estimateStorage, roundUsd } from '../capacity/index.ts';
import { AWS_DOCS } from '../capacity/sources.ts';
import { figure, formatNumber, type Figure } from '../capacity/figure.ts';
import type { AccessPattern, Pricing, Table } from '../model/schema.ts';
import { planPattern, planTable, type Plan, type ProjectionChange } from '../planner/index.ts';

export interface ProjectionOption {
  change: ProjectionChange;
  /** The pattern's read units per call with the new projection (no fetches). */
  perRequest: Figure;
  /** Bytes the index stores in addition (entries grow; 100 B overhead per entry is unchanged). */
  extraStorageBytes: Figure;
  /** Write units per second the index's entries take in addition, over the table's write patterns. */
  extraWriteUnitsPerSecond: Figure;
  /** What the added storage and writes cost per month on-demand (the reads it saves are in `perRequest`). */
  extraMonthlyUsd: Figure;
}

/** Plans of a table, once per table object: every read pattern with a projection option asks for them. */
const planCache = new WeakMap<Table, Plan[]>();
function plansOf(table: Table): Plan[] {
  let plans = planCache.get(table);
  if (!plans) planCache.set(table, (plans = planTable(table)));
  return plans;
}

/** `table` with one index's projection replaced. */
export function withProjection(table: Table, change: ProjectionChange): Table {
  return change.kind === 'gsi'
    ? { ...table, globalSecondaryIndexes: table.globalSecondaryIndexes.map((g) => (g.name === change.index ? { ...g, projection: change.projection } : g)) }
    : { ...table, localSecondaryIndexes: table.localSecondaryIndexes.map((l) => (l.name === change.index ? { ...l, projection: change.projection } : l)) };
}

const projectionText = (c: ProjectionChange): string =>
  c.projection.type === 'INCLUDE' ? `INCLUDE ${c.projection.nonKeyAttributes.join(', ')}` : c.projection.type;

type ReadUnitsOf = (table: Table, pattern: AccessPattern, plan: Plan) => Figure;
type WriteUnitsOf = (table: Table, pattern: AccessPattern, plan: Plan) => Map<string, number>;

/**
 * Costs `plan.projectionChange`: read units of the pattern under the changed table, and the storage
 * and write units the index adds. `readUnits` and `writeUnitsByIndex` are the pattern-cost functions
 * (passed in to keep the two modules free of a cycle).
 */
export function costProjectionOption(
  table: Table,
  pattern: AccessPattern,
  plan: Plan,
  pricing: Pricing,
  readUnits: ReadUnitsOf,
  writeUnitsByIndex: WriteUnitsOf,
): ProjectionOption | undefined {
  const change = plan.projectionChange;
  if (!change) return undefined;
  const changed = withProjection(table, change);
  const perRequest = readUnits(changed, pattern, planPattern(changed, pattern));

  const before = estimateStorage(table).indexes[change.index]?.value ?? 0;
  const after = estimateStorage(changed).indexes[change.index]?.value ?? 0;
  const extra = after - before;
  const gb = extra / pricing.bytesPerGb;
  const storageUsd = gb * pricing.tableClasses[table.tableClass].storageUsdPerGbMonth;
  const extraStorageBytes = figure(
    [
      { label: `${change.index} storage now`, expression: `${formatNumber(before)} B`, value: before, unit: 'B' },
      { label: `${change.index} storage with ${projectionText(change)}`, expression: `${formatNumber(after)} B`, value: after, unit: 'B' },
      { label: 'Storage added', expression: `${formatNumber(after)} B − ${formatNumber(before)} B (${formatNumber(gb, 4)} GB, $${formatNumber(storageUsd, 2)}/month at the storage price)`, value: extra, unit: 'B' },
    ],
    ['The added storage is priced at the full storage rate, as if the free tier were already used up.'],
  );

  const plansBefore = plansOf(table);
  const plansAfter = planTable(changed);
  let extraUnits = 0;
  const parts: string[] = [];
  table.accessPatterns.forEach((p, i) => {
    if (p.action !== 'put' && p.action !== 'update' && p.action !== 'delete') return;
    const was = writeUnitsByIndex(table, p, plansBefore[i]!).get(change.index) ?? 0;
    const now = writeUnitsByIndex(changed, p, plansAfter[i]!).get(change.index) ?? 0;
    if (now === was) return;
    extraUnits += now - was;
    parts.push(`${p.name}: ${formatNumber(was, 4)} → ${formatNumber(now, 4)} WCU/s`);
  });
  const extraWriteUnitsPerSecond = figure([
    {
      label: `Writes to ${change.index} added by the larger entries`,
      expression: parts.length > 0 ? parts.join('; ') : 'no write pattern writes larger entries',
      value: extraUnits,
      unit: 'WCU/s',
    },
  ]);
  const prices = pricing.tableClasses[table.tableClass];
  const writesUsd = (extraUnits * 3600 * pricing.hoursPerMonth * prices.writeRequestUnitUsdPerMillion) / 1e6;
  const extraMonthlyUsd = figure(
    [
      { label: 'Added storage per month', expression: `${formatNumber(gb, 4)} GB × $${formatNumber(prices.storageUsdPerGbMonth, 4)}`, value: storageUsd, unit: 'USD/month', source: AWS_DOCS.pricing },
      {
        label: 'Added writes per month, on-demand',
        expression: `${formatNumber(extraUnits, 4)} WRU/s × 3,600 s × ${formatNumber(pricing.hoursPerMonth)} h / 1,000,000 × $${formatNumber(prices.writeRequestUnitUsdPerMillion, 4)}`,
        value: writesUsd,
        unit: 'USD/month',
        source: AWS_DOCS.onDemandPricing,
      },
      { label: 'Added per month by the projection change', expression: `$${formatNumber(storageUsd, 4)} + $${formatNumber(writesUsd, 4)}`, value: roundUsd(storageUsd + writesUsd), unit: 'USD/month' },
    ],
    ['The added storage is priced at the full storage rate, as if the free tier were already used up.'],
  );
  return { change, perRequest, extraStorageBytes, extraWriteUnitsPerSecond, extraMonthlyUsd };
}
