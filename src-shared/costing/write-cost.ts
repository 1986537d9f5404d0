/**
 * What a write plan consumes per call: the table write and each index write the planner listed
 * (`capacity`'s rules), a sparse index's writes weighted by the share of items it holds; and the
 * write patterns' plans on a table whose projection changed.
 */
import {
  writeUnits,
  type IndexWriteInput,
  figure,
  formatNumber,
  lazyFigure,
  type Figure,
  writeUnitsForBytes,
} from '../capacity/index.ts';
import type { AccessPattern, Table } from '../model/index.ts';
import { busiestRatePerSecond, isWritePattern, kindOf, type WriteAction, withValueModel } from '../model/index.ts';
import { planPattern, planTable } from '../planner/index.ts';
import type { Plan } from '../planner/index.ts';
import type { Consumption } from './types.ts';
import { entityOf, ESTIMATED_SIZES, type SizeEstimates } from './size-estimates.ts';

/**
 * A write plan's units per call (the table, its LSIs and each GSI it writes; a sparse index weighted by
 * the share of items it holds) and what it consumes per second at the pattern's rate.
 */
export function writeCost(table: Table, pattern: AccessPattern & { action: WriteAction }, plan: Plan, sizes: SizeEstimates): { perRequest: Figure; consumption: Consumption[] } {
  const entity = pattern.entityId === undefined ? undefined : entityOf(table, pattern.entityId);
  if (!entity) {
    const none = figure([{ label: 'Write units', expression: 'the pattern names no known entity', value: 0, unit: 'WCU' }]);
    return { perRequest: none, consumption: [] };
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
  // Capacity is sized from the busiest minute of the pattern's day (docs/traffic.md).
  const rate = busiestRatePerSecond(pattern);
  const consumption: Consumption[] = [{ target: 'table', readUnitsPerSecond: 0, writeUnitsPerSecond: units.table.value * rate }];
  for (const [name, gsi] of Object.entries(units.gsis)) {
    consumption.push({ target: { gsi: name }, readUnitsPerSecond: 0, writeUnitsPerSecond: expectedOn(name, gsi.value) * rate });
  }
  return { perRequest, consumption };
}

/**
 * Write units per second a write pattern puts on the GSI named `index` (0 when none): its
 * `consumption` there. Worked out from that GSI's index writes alone, which decide it on their own
 * (each GSI's write units are its entry's, weighted by its own share), so that a projection change
 * does not size every other index of every write pattern.
 */
export function gsiWriteUnitsOn(table: Table, pattern: AccessPattern, plan: Plan, index: string, sizes: SizeEstimates = ESTIMATED_SIZES): number {
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
