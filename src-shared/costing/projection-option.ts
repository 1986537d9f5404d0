/**
 * The other way to serve a pattern whose index lacks attributes it needs: change the index's
 * projection so the Query alone returns them. Costed beside the fetch plan: the pattern's reads with
 * the larger entries, and what the change adds to the index's storage and to every write that
 * touches it (docs/dynamodb-rules.md §1.4, §3.3).
 */
import { roundUsd, AWS_DOCS, formatNumber, lazyFigure, type Figure } from '../capacity/index.ts';
import type { AccessPattern, Pricing, Table } from '../model/index.ts';
import type { Plan, ProjectionChange } from '../planner/index.ts';
import { formatUsdExact } from '../numbers/index.ts';

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

/** `table` with one index's projection replaced. */
export function withProjection(table: Table, change: ProjectionChange): Table {
  return change.kind === 'gsi'
    ? { ...table, globalSecondaryIndexes: table.globalSecondaryIndexes.map((g) => (g.name === change.index ? { ...g, projection: change.projection } : g)) }
    : { ...table, localSecondaryIndexes: table.localSecondaryIndexes.map((l) => (l.name === change.index ? { ...l, projection: change.projection } : l)) };
}

const projectionText = (c: ProjectionChange): string =>
  c.projection.type === 'INCLUDE' ? `INCLUDE ${c.projection.nonKeyAttributes.join(', ')}` : c.projection.type;

type ReadUnitsOf = (table: Table, pattern: AccessPattern, plan: Plan) => Figure;

/** One write pattern's write units per second on the changed index, before and after the change. */
export interface WriteUnitsChange {
  name: string;
  was: number;
  now: number;
}

/**
 * What the projection options of one table's patterns share, computed once per change however many
 * patterns ask for it (and, in a cost cache, kept across edits that leave it as it was). Every
 * answer is a pure function of the table and the change; the context only decides how often it runs.
 */
export interface ProjectionContext {
  /** `withProjection(table, change)`. */
  changedTable(change: ProjectionChange): Table;
  /** The plan of one of the table's patterns in the changed table (`planPattern(changedTable(change), pattern)`). */
  planChanged(change: ProjectionChange, pattern: AccessPattern): Plan;
  /** Bytes the index stores now and with the change (`estimateStorage`'s figures for it). */
  indexStorageBytes(change: ProjectionChange): { before: number; after: number };
  /** Every write pattern of the table, in the table's order, with its write units per second on the index before and after. */
  writeUnits(change: ProjectionChange): WriteUnitsChange[];
}

/** A key naming a projection change exactly (the same key, the same change). */
export function projectionChangeKey(change: ProjectionChange): string {
  return JSON.stringify(change);
}

/** What a projection change adds to the index's storage and to the table's writes, and its monthly cost: the same for every pattern asking for it. */
export type ProjectionChangeCost = Pick<ProjectionOption, 'extraStorageBytes' | 'extraWriteUnitsPerSecond' | 'extraMonthlyUsd'>;

/**
 * Costs `plan.projectionChange`: read units of the pattern under the changed table (`readUnits`:
 * `readPerRequest` of `read-cost.ts`, passed in with the costing's shared sizes), and what the change adds
 * (`changeCost`, shared by the patterns asking for the same change).
 */
export function costProjectionOption(
  table: Table,
  pattern: AccessPattern,
  plan: Plan,
  readUnits: ReadUnitsOf,
  context: ProjectionContext,
  changeCost: (change: ProjectionChange) => ProjectionChangeCost,
): ProjectionOption | undefined {
  const change = plan.projectionChange;
  if (!change) return undefined;
  const changed = context.changedTable(change);
  const perRequest = readUnits(changed, pattern, context.planChanged(change, pattern));
  return { change, perRequest, ...changeCost(change) };
}

/** The storage and write units a projection change adds (docs/dynamodb-rules.md §1.4, §3.3), priced per month on-demand. */
export function costProjectionChange(table: Table, change: ProjectionChange, pricing: Pricing, context: ProjectionContext): ProjectionChangeCost {
  const { before, after } = context.indexStorageBytes(change);
  const extra = after - before;
  const gb = extra / pricing.bytesPerGb;
  const storageUsd = gb * pricing.tableClasses[table.tableClass].storageUsdPerGbMonth;
  const extraStorageBytes = lazyFigure(
    extra,
    'B',
    () => [
      { label: `${change.index} storage now`, expression: `${formatNumber(before)} B`, value: before, unit: 'B' },
      { label: `${change.index} storage with ${projectionText(change)}`, expression: `${formatNumber(after)} B`, value: after, unit: 'B' },
      { label: 'Storage added', expression: `${formatNumber(after)} B − ${formatNumber(before)} B (${formatNumber(gb, 4)} GB, ${formatUsdExact(storageUsd, 2)}/month at the storage price)`, value: extra, unit: 'B' },
    ],
    ['The added storage is priced at the full storage rate, as if the free tier were already used up.'],
  );

  let extraUnits = 0;
  const changes: WriteUnitsChange[] = [];
  for (const w of context.writeUnits(change)) {
    if (w.now === w.was) continue;
    extraUnits += w.now - w.was;
    changes.push(w);
  }
  const units = extraUnits;
  const extraWriteUnitsPerSecond = lazyFigure(units, 'WCU/s', () => [
    {
      label: `Writes to ${change.index} added by the larger entries`,
      expression: changes.length > 0 ? changes.map((w) => `${w.name}: ${formatNumber(w.was, 4)} → ${formatNumber(w.now, 4)} WCU/s`).join('; ') : 'no write pattern writes larger entries',
      value: units,
      unit: 'WCU/s',
    },
  ]);
  const prices = pricing.tableClasses[table.tableClass];
  const writesUsd = (units * 3600 * pricing.hoursPerMonth * prices.writeRequestUnitUsdPerMillion) / 1e6;
  const extraMonthlyUsd = lazyFigure(
    roundUsd(storageUsd + writesUsd),
    'USD/month',
    () => [
      { label: 'Added storage per month', expression: `${formatNumber(gb, 4)} GB × ${formatUsdExact(prices.storageUsdPerGbMonth, 4)}`, value: storageUsd, unit: 'USD/month', source: AWS_DOCS.pricing },
      {
        label: 'Added writes per month, on-demand',
        expression: `${formatNumber(units, 4)} WRU/s × 3,600 s × ${formatNumber(pricing.hoursPerMonth)} h / 1,000,000 × ${formatUsdExact(prices.writeRequestUnitUsdPerMillion, 4)}`,
        value: writesUsd,
        unit: 'USD/month',
        source: AWS_DOCS.onDemandPricing,
      },
      { label: 'Added per month by the projection change', expression: `${formatUsdExact(storageUsd, 4)} + ${formatUsdExact(writesUsd, 4)}`, value: roundUsd(storageUsd + writesUsd), unit: 'USD/month' },
    ],
    ['The added storage is priced at the full storage rate, as if the free tier were already used up.'],
  );
  return { extraStorageBytes, extraWriteUnitsPerSecond, extraMonthlyUsd };
}
