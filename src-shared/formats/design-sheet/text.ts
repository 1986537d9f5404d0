/**
 * How the design sheet words its data, the same on the design-sheet screen and in the Markdown and
 * HTML exports: units, the pattern's summary, what serves it, key cells, derivation steps, sources
 * and pricing.
 */
import { unitLabel, type Figure, AWS_DOCS, type DocSource } from '../../capacity/index.ts';
import { formatNumber } from '../../numbers/index.ts';
import type { Pricing } from '../../model/index.ts';
import type { KeyCell, KeyColumn } from './entity-chart.ts';
import type { PatternRow, PlannedRow } from './pattern-chart.ts';
import type { DesignSheet } from './sheet.ts';

/** `partition key`, or `partition key 2 of 3` for an attribute of a multi-attribute key. */
export const keyColumnRole = (c: KeyColumn): string => (c.position ? `${c.role} ${c.position.index + 1} of ${c.position.of}` : c.role);

/** Units per second as the costs screen shows them: `250 RCU/s`, `0.4 WCU/s`. */
export function sheetUnitsPerSecond(row: PlannedRow): string {
  return `${formatNumber(row.perSecond.value, 1)} ${row.unit}/s`;
}

/** Units per call, the base of the per-second figure: `0.5 RCU × 500/s`. */
export function sheetPerRequest(row: PlannedRow, ratePerSecond: number): string {
  return `${formatNumber(row.perRequest.value, 3)} ${row.unit} × ${formatNumber(ratePerSecond)}/s`;
}

/** A pattern row's entity and action in words: `Order · query · 100/s · eventual`. */
export function patternSummary(row: PatternRow): string {
  return `${row.entityName ?? 'no entity yet'} · ${row.action} · ${formatNumber(row.ratePerSecond)}/s · ${row.consistency}`;
}

/** What an unplanned pattern's row says instead of numbers. */
export const NEEDS_KEY_DESIGN = 'needs a key design';

/** What a key template cell holds: the template, and its condition or sharding. */
export function keyCellText(cell: KeyCell): string {
  return [cell.template === '' ? '(empty)' : cell.template, cell.when !== undefined ? `only when ${cell.when}` : undefined, cell.shards].filter((s) => s !== undefined).join('; ');
}

/** The sources a reader of the sheet can open for how the numbers are computed. */
export const SHEET_SOURCES = [AWS_DOCS.readWriteUnits, AWS_DOCS.onDemandPricing, AWS_DOCS.provisionedPricing] as const;

/** `Query on GSI GSI1`, `PutItem on table, + GSI1 (put)`, or why a pattern has no figures. */
export function servedByText(row: PatternRow): string {
  const plan = row.plan;
  if (!plan) return row.needsKeyDesign !== undefined ? NEEDS_KEY_DESIGN : 'not costed: the costs cannot be computed';
  const served = plan.isServed ? `${plan.badge === 'Fan-out Query' ? 'Fan-out Query' : plan.operation} on ${plan.target}` : `Scan on ${plan.target} (not served by a key)`;
  return plan.alsoWrites.length > 0 ? `${served}, + ${plan.alsoWrites.join(', ')}` : served;
}

/** One derivation step in words: `Read units, eventually consistent: 1 × 0.5 = 0.5 RCU`. */
export function stepText(step: Figure['steps'][number]): string {
  const value = `${formatNumber(step.value, 4)}${step.unit ? ` ${unitLabel(step.value, step.unit)}` : ''}`;
  const expression = step.expression.trim();
  const isBare = expression === '' || expression === formatNumber(step.value, 4) || expression === value;
  return `${step.label}: ${isBare ? value : expression.includes(' = ') ? `${value} (${expression})` : `${expression} = ${value}`}`;
}

/** The derivations of a planned row, titled: its units per second, then each monthly figure. */
export function rowDerivations(plan: PlannedRow): { title: string; figure: Figure }[] {
  return [
    { title: `${plan.unit} per second`, figure: plan.perSecond },
    { title: 'On-demand per month', figure: plan.onDemandMonthly },
    { title: "Provisioned per month (the load's share)", figure: plan.provisionedMonthly },
  ];
}

/**
 * Every AWS page the sheet's derivations cite, each once, numbered from 1 in this order: the
 * general sources first, then the others as the derivations first cite them.
 */
export function sheetSources(sheet: DesignSheet): DocSource[] {
  const byUrl = new Map<string, DocSource>(SHEET_SOURCES.map((s) => [s.url, s]));
  for (const t of sheet.tables) {
    for (const r of t.patterns) {
      if (!r.plan) continue;
      for (const d of rowDerivations(r.plan)) for (const step of d.figure.steps) if (step.source && !byUrl.has(step.source.url)) byUrl.set(step.source.url, step.source);
    }
  }
  return [...byUrl.values()];
}

/** The pricing the numbers rest on, in one sentence (without a final period). */
export function pricingText(pricing: Pricing): string {
  const source = pricing.source?.trim().replace(/[.\s]+$/, '');
  return `Prices for ${pricing.region}, ${formatNumber(pricing.hoursPerMonth)} hours a month${source ? ` (${source})` : ''}`;
}

/** How the sheet's numbers are computed, in two sentences shown above the derivations. */
export const SHEET_METHOD =
  "Units per second are the units of one call at the pattern's peak rate (its busiest minute), which sizes capacity; on-demand requests are priced from its average rate, the peak all month when no average or daily profile is stated (docs/traffic.md). " +
  "A pattern's provisioned figure is its load's share of capacity; a provisioned table is billed for the capacity it holds.";

/** What a reviewer must know beside a row: its plan's notes, or why it is not costed yet. */
export function rowNotes(row: PatternRow): string[] {
  if (row.plan) return row.plan.notes;
  return row.needsKeyDesign !== undefined ? [`Not costed, it needs a key design: ${row.needsKeyDesign}`] : [];
}
