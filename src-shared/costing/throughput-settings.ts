/**
 * The load of a table and its GSIs against their throughput settings: warm throughput (what each
 * can serve at once, docs/dynamodb-rules.md §4.3 and docs/dynamodb-rules.md §4.4) and on-demand
 * maximums (what each may use at most, docs/dynamodb-rules.md §4.7 and docs/dynamodb-rules.md §4.8). Each target's warm throughput is shown with the partitions it implies
 * and the one-time cost of pre-warming to it, both estimates; a peak above the warm throughput or
 * the maximum is a warning naming what DynamoDB does and the patterns that make the peak.
 */
import {
  baselineWarmThroughput,
  effectiveWarmThroughput,
  ON_DEMAND_INSTANT_PEAK_MULTIPLE,
  preWarmCostUsd,
  warmThroughputPartitions,
  type EffectiveWarmThroughput,
  formatNumber,
  type Figure,
  AWS_DOCS,
} from '../capacity/index.ts';
import type { OnDemandThroughput, Pricing, ProvisionedThroughput, Table, WarmThroughput } from '../model/index.ts';
import { formatUsd } from '../numbers/index.ts';
import type { PatternCost } from './pattern-cost.ts';
import type { CostWarning, WarmThroughputCost } from './types.ts';
export type { ThroughputWarningCode, WarmThroughputCost } from './types.ts';

/**
 * The warm throughput of a table or GSI as a cost: the design's values (or the baseline, a new
 * on-demand table's 12,000 / 4,000, or the provisioned capacity), the partitions they imply and the
 * one-time pre-warming charge.
 */
export function warmThroughputCost(warm: WarmThroughput | undefined, configured: ProvisionedThroughput | undefined, table: Table, pricing: Pricing): WarmThroughputCost {
  const baseline = baselineWarmThroughput(configured ? { mode: 'PROVISIONED', ...configured } : { mode: 'ON_DEMAND' });
  const effective = effectiveWarmThroughput(warm, baseline);
  return {
    effective,
    isSet: effective.isReadSet || effective.isWriteSet,
    partitions: warmThroughputPartitions(effective),
    preWarmUsd: preWarmCostUsd({ warm: effective, tableClass: table.tableClass, pricing }),
  };
}

/** What the warnings need of one target (a `TargetCost` fits). */
export interface ThroughputTarget {
  name: string;
  kind: 'table' | 'gsi';
  readUnitsPerSecond: Figure;
  writeUnitsPerSecond: Figure;
  configured?: ProvisionedThroughput;
  warmThroughput: WarmThroughputCost;
  onDemandMaximum?: OnDemandThroughput;
}

type Direction = 'read' | 'write';

/** One direction of a table or GSI whose peak load is above a limit (units per second). */
export interface Excess {
  direction: Direction;
  /** The peak: the sum of the patterns that use it. */
  load: number;
  limit: number;
}

/** DynamoDB's throttling reason for an on-demand maximum: `TableReadMaxOnDemandThroughputExceeded` … (docs/dynamodb-rules.md §4.7). */
export function maxOnDemandReason(kind: 'table' | 'gsi', direction: Direction): `${'Table' | 'Index'}${'Read' | 'Write'}MaxOnDemandThroughputExceeded` {
  return `${kind === 'table' ? 'Table' : 'Index'}${direction === 'read' ? 'Read' : 'Write'}MaxOnDemandThroughputExceeded`;
}

/** Whether a pattern's consumption is on the table or GSI `t`. */
const isOn = (c: PatternCost['consumption'][number], t: Pick<ThroughputTarget, 'kind' | 'name'>) =>
  t.kind === 'table' ? c.target === 'table' : typeof c.target === 'object' && c.target.gsi === t.name;

const loadOf = (t: ThroughputTarget, direction: Direction) => (direction === 'read' ? t.readUnitsPerSecond : t.writeUnitsPerSecond).value;

/** The directions in which a table's or GSI's peak is above its on-demand maximum (none without one). */
export function overOnDemandMaximum(t: ThroughputTarget): Excess[] {
  const max = t.onDemandMaximum;
  if (!max) return [];
  return (['read', 'write'] as const).flatMap((direction) => {
    const limit = direction === 'read' ? max.maxReadRequestUnits : max.maxWriteRequestUnits;
    const load = loadOf(t, direction);
    return limit !== undefined && load > limit + 1e-9 ? [{ direction, load, limit }] : [];
  });
}

/**
 * The directions in which a table's or GSI's peak is above the warm throughput in effect (what it
 * serves at once). Patterns served by a Scan are left out: their load is a design problem of its own
 * (`cost.scan`), and pre-warming for it would be the wrong advice.
 */
export function overWarmThroughput(t: ThroughputTarget, patterns: readonly PatternCost[]): Excess[] {
  const warm = t.warmThroughput.effective;
  // Summed per pattern, then over patterns, in the patterns' order (one pass, both directions).
  let reads = 0;
  let writes = 0;
  for (const p of patterns) {
    if (p.plan.operation === 'Scan') continue;
    let r = 0;
    let w = 0;
    for (const c of p.consumption) {
      if (!isOn(c, t)) continue;
      r += c.readUnitsPerSecond;
      w += c.writeUnitsPerSecond;
    }
    reads += r;
    writes += w;
  }
  return (['read', 'write'] as const).flatMap((direction) => {
    const limit = direction === 'read' ? warm.readUnitsPerSecond : warm.writeUnitsPerSecond;
    const load = direction === 'read' ? reads : writes;
    return load > limit + 1e-9 ? [{ direction, load, limit }] : [];
  });
}

/** The patterns whose load on `target` makes its peak in one direction, largest first: `"Place order" 60 WCU/s`. */
/** Each target's consumption by pattern, in the patterns' order: one pass over the patterns for all targets. */
function consumptionOn(targets: readonly ThroughputTarget[], patterns: readonly PatternCost[]): Map<ThroughputTarget, { name: string; read: number; write: number }[]> {
  const on = new Map(targets.map((t) => [t, [] as { name: string; read: number; write: number }[]]));
  const gsis = new Map<string, ThroughputTarget[]>();
  for (const t of targets) if (t.kind === 'gsi') gsis.set(t.name, [...(gsis.get(t.name) ?? []), t]);
  const tables = targets.filter((t) => t.kind === 'table');
  for (const p of patterns) {
    for (const c of p.consumption) {
      const at = c.target === 'table' ? tables : typeof c.target === 'object' ? (gsis.get(c.target.gsi) ?? []) : [];
      for (const t of at) on.get(t)!.push({ name: p.name, read: c.readUnitsPerSecond, write: c.writeUnitsPerSecond });
    }
  }
  return on;
}

/** The five largest contributors, ties in the patterns' order (as a stable sort gives them), and how many more. */
function contributors(parts: readonly { name: string; read: number; write: number }[], direction: Direction): string {
  const top: { name: string; units: number }[] = [];
  let count = 0;
  for (const part of parts) {
    const units = direction === 'read' ? part.read : part.write;
    if (!(units > 0)) continue;
    count += 1;
    let at = top.length;
    while (at > 0 && top[at - 1]!.units < units) at -= 1;
    if (at < 5) {
      top.splice(at, 0, { name: part.name, units });
      if (top.length > 5) top.pop();
    }
  }
  const shown = top.map((p) => `"${p.name}" ${formatNumber(p.units, 1)}`);
  return shown.join(', ') + (count > 5 ? `, and ${count - 5} more` : '');
}

const where = (t: ThroughputTarget, table: Table) => (t.kind === 'table' ? `Table ${table.name}` : `GSI ${t.name}`);

/**
 * `cost.onDemandMaximum` (an error) per table or GSI and direction whose peak, the sum of the
 * patterns that hit it, is above its on-demand maximum: those requests throttle with
 * `ThrottlingException`, reason `<Table|Index><Read|Write>MaxOnDemandThroughputExceeded`; a GSI's
 * writes over its maximum throttle the table's writes too (GSI back-pressure, docs/dynamodb-rules.md §4.8).
 */
export function onDemandMaximumWarnings(table: Table, targets: ThroughputTarget[], patterns: PatternCost[]): CostWarning[] {
  if (table.billing.mode !== 'ON_DEMAND') return [];
  const warnings: CostWarning[] = [];
  let on: ReturnType<typeof consumptionOn> | undefined;
  for (const t of targets) {
    for (const { direction, load, limit } of overOnDemandMaximum(t)) {
      on ??= consumptionOn(targets, patterns);
      const unit = direction === 'read' ? 'read request units' : 'write request units';
      const reason = maxOnDemandReason(t.kind, direction);
      const field = direction === 'read' ? 'maxReadRequestUnits' : 'maxWriteRequestUnits';
      const backPressure =
        t.kind === 'gsi' && direction === 'write'
          ? ` The table's writes that update ${t.name} throttle too (GSI back-pressure, ${AWS_DOCS.gsiBackPressure.url}).`
          : '';
      warnings.push({
        code: 'cost.onDemandMaximum',
        severity: 'error',
        message:
          `${where(t, table)}: its patterns peak at ${formatNumber(load, 1)} ${unit}/s, above its on-demand maximum of ${formatNumber(limit)} (${field}); ` +
          `the requests over it throttle with ThrottlingException, reason ${reason}.${backPressure} ` +
          `Patterns: ${contributors(on.get(t)!, direction)}. Raise the maximum to at least ${formatNumber(Math.ceil(load - 1e-9))} or remove it (${AWS_DOCS.onDemandMaximum.url}).`,
      });
    }
  }
  return warnings;
}

/**
 * `cost.warmThroughput` (a warning) per on-demand table or GSI and direction whose peak is above
 * the warm throughput in effect (the design's, or a new table's 12,000 reads / 4,000 writes a
 * second): it may throttle until DynamoDB scales, since on-demand serves at once only up to twice
 * its previous peak. Says what pre-warming to the peak would cost once (an estimate). Provisioned
 * targets are left out: their capacity is their warm throughput, and a load above it is
 * `cost.underProvisioned`; so is the load of patterns served by a Scan (`overWarmThroughput`).
 */
export function warmThroughputWarnings(table: Table, targets: ThroughputTarget[], patterns: PatternCost[], pricing: Pricing): CostWarning[] {
  if (table.billing.mode !== 'ON_DEMAND') return [];
  const warnings: CostWarning[] = [];
  const keyed = patterns.filter((p) => p.plan.operation !== 'Scan');
  let on: ReturnType<typeof consumptionOn> | undefined;
  for (const t of targets) {
    const warm = t.warmThroughput.effective;
    for (const { direction, load, limit: instant } of overWarmThroughput(t, patterns)) {
      on ??= consumptionOn(targets, keyed);
      const isRead = direction === 'read';
      const isSet = isRead ? warm.isReadSet : warm.isWriteSet;
      const peak = Math.ceil(load - 1e-9);
      // What raising this direction alone to the peak costs (the other at its baseline).
      const toPeak = effectiveWarmThroughput(isRead ? { readUnitsPerSecond: peak } : { writeUnitsPerSecond: peak }, warm.baseline);
      const preWarm = preWarmCostUsd({ warm: toPeak, tableClass: table.tableClass, pricing });
      const units = isRead ? 'read units' : 'write units';
      const backPressure = t.kind === 'gsi' && !isRead ? ", and the table's writes with them (GSI back-pressure)" : '';
      warnings.push({
        code: 'cost.warmThroughput',
        severity: 'warning',
        message:
          `${where(t, table)}: its patterns peak at ${formatNumber(load, 1)} ${units}/s, above the ${formatNumber(instant)} it serves at once ` +
          `(${isSet ? 'its warm throughput' : `${warm.baseline.basis}, no warm throughput set`}). ${isRead ? 'Reads' : 'Writes'} may throttle until DynamoDB scales${backPressure}: ` +
          `on-demand serves up to ${ON_DEMAND_INSTANT_PEAK_MULTIPLE}× its previous peak at once and doubling again can take 30 minutes. ` +
          `Patterns: ${contributors(on.get(t)!, direction)}. Pre-warm by setting warm throughput to ${formatNumber(peak)} ${units}/s (about ${formatUsd(preWarm.value)} once, an estimate; ${AWS_DOCS.warmThroughput.url}).`,
      });
    }
  }
  return warnings;
}
