/**
 * What a reviewer looks for in a design's costs: patterns served by a Scan, filters that read far
 * more than they return, writes that put more than one partition's 1,000 WCU/s on one partition
 * key (the table's or a GSI's, which throttles the table through back-pressure), and provisioned
 * capacity below the load (throttling) or far above it (money paid for capacity nothing uses).
 */
import { formatNumber, DEFAULT_PRICING, roundUsd } from '../capacity/index.ts';
import { parseKeyTemplate, templateAttributes, gsiKeySourceOf, partitionKeysOf } from '../model/index.ts';
import type { Distribution, Entity, Pricing, Table } from '../model/index.ts';
import { distinctValuesOf, entityCountsOf, type EntityCounts } from '../planner/index.ts';
import type { PatternCost } from './pattern-cost.ts';
import type { TargetCost, ThroughputWarningCode, CostWarning } from './types.ts';
import { formatUsd } from '../numbers/index.ts';
export type { CostWarningCode, CostWarning } from './types.ts';

/** A partition serves at most 1,000 write units per second. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html */
export const PARTITION_WRITE_UNITS_PER_SECOND = 1000;
/**
 * Provisioned capacity is flagged as more than needed when a table or GSI holds more than this many
 * times the whole units its load needs, in one direction...
 */
export const OVER_PROVISIONED_RATIO = 2;
/**
 * ...and the unused units cost more than this many dollars a month. Both must hold: 5 RCU for a load
 * of 1 is 5×, but the 4 unused RCU cost $0.38 a month; 100 RCU for a load of 60 leave $3.80 a month
 * unused, but 1.7× is ordinary headroom. (At us-east-1 Standard prices.)
 */
export const OVER_PROVISIONED_MIN_USD_PER_MONTH = 1;
/** A filter reading this many times more items than it returns is flagged. */
export const FILTER_WASTE_RATIO = 10;

/**
 * How many distinct values a key template takes for an entity's items (shards multiply it), and
 * the share of the items the most common value holds (from enum generator weights; else even).
 */
export function distinctKeyValues(entity: Entity, keyAttributes: readonly string[], refs?: EntityCounts): { count: number; template: string; largestItemShare: number } | undefined {
  // A multi-attribute GSI key hashes its attributes together: its values are their combinations.
  const sources = keyAttributes.map((name) => gsiKeySourceOf(entity, name));
  if (sources.length === 0 || sources.some((s) => s === undefined)) return undefined;
  const parsed = parseKeyTemplate(sources.map((s) => s?.template ?? '').join(''));
  if (!parsed.ok) return undefined;
  let count = 1;
  let largest = 1;
  for (const name of templateAttributes(parsed.value)) {
    const distinct = distinctValuesOf(entity, name, refs).count;
    count *= distinct;
    const weights = entity.attributes.find((a) => a.name === name)?.generator?.weights;
    const total = weights?.reduce((a, b) => a + b, 0) ?? 0;
    largest *= weights && total > 0 ? Math.max(...weights) / total : 1 / distinct;
  }
  count = Math.min(count, Math.max(1, entity.itemCount));
  const shards = sources.length === 1 ? (sources[0]?.binding?.shards?.count ?? 1) : 1;
  const template = sources.map((s) => s?.template ?? '').join(' + ');
  return { count: count * shards, template, largestItemShare: Math.max(largest, 1 / count) / shards };
}

/** Σ 1/k^s for k = 1..n: exact up to 100,000 terms, then the integral of the tail. */
function harmonic(n: number, s: number): number {
  const exact = Math.min(n, 100_000);
  let sum = 0;
  for (let k = 1; k <= exact; k++) sum += 1 / k ** s;
  if (n > exact) sum += s === 1 ? Math.log(n / exact) : (n ** (1 - s) - exact ** (1 - s)) / (1 - s);
  return sum;
}

/**
 * The share of the traffic the busiest of `count` key values takes: 1/count when even; the hot
 * key's share; rank 1's share under Zipf; all of it for time-based keys, where "today" takes every
 * new write.
 */
export function busiestKeyShare(traffic: Distribution | undefined, count: number, largestItemShare = 1 / Math.max(1, count)): { share: number; why: string } {
  const n = Math.max(1, count);
  switch (traffic?.kind) {
    case undefined:
      // No stated traffic: requests follow the items, as the partition simulator assumes.
      return { share: largestItemShare, why: largestItemShare > 1 / n + 1e-12 ? 'requests follow the items, and the most common key holds the largest share of them' : `writes spread over ${formatNumber(n)} key value${n === 1 ? '' : 's'} as the items do` };
    case 'hotKey':
      return { share: Math.max(traffic.share, (1 - traffic.share) / n), why: `one key takes ${formatNumber(traffic.share * 100)}% of the traffic` };
    case 'zipf':
      return { share: 1 / harmonic(n, traffic.exponent), why: `key popularity follows Zipf's law with s = ${formatNumber(traffic.exponent)}` };
    case 'today':
      return { share: 1, why: "the newest key (today's) takes every new write" };
    default:
      return { share: 1 / n, why: `writes spread evenly over ${formatNumber(n)} key value${n === 1 ? '' : 's'}` };
  }
}

function hotKeyWarning(cost: PatternCost, entity: Entity, traffic: Distribution | undefined, where: string, keyAttributes: readonly string[], unitsPerSecond: number, refs: EntityCounts): CostWarning | undefined {
  const keys = distinctKeyValues(entity, keyAttributes, refs);
  if (!keys) return undefined;
  const busiest = busiestKeyShare(traffic, keys.count, keys.largestItemShare);
  const perKey = unitsPerSecond * busiest.share;
  if (perKey <= PARTITION_WRITE_UNITS_PER_SECOND) return undefined;
  return {
    code: 'cost.hotPartitionWrites',
    severity: 'error',
    patternId: cost.patternId,
    message:
      `"${cost.name}" writes ${formatNumber(perKey)} WCU/s to one ${where} partition key ${keyAttributes.join(' + ')} = ${keys.template} ` +
      `(${formatNumber(unitsPerSecond)} WCU/s; ${busiest.why}); one partition takes at most 1,000 WCU/s. ` +
      `Shard the key (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-sharding.html) or spread the writes.`,
  };
}

const dollars = formatUsd;

/**
 * The capacity warnings of one provisioned table or GSI, per direction: `cost.underProvisioned` when
 * the load is above the fixed capacity or above the auto scaling maximum (requests throttle), and
 * `cost.overProvisioned` when the capacity held is more than `OVER_PROVISIONED_RATIO` × what the load
 * needs and the unused units cost more than `OVER_PROVISIONED_MIN_USD_PER_MONTH` (with auto scaling,
 * only when the minimum is what it holds: the floor is billed whatever the load).
 */
function capacityWarnings(table: Table, t: TargetCost, pricing: Pricing): CostWarning[] {
  const configured = t.configured;
  if (!configured) return [];
  const warnings: CostWarning[] = [];
  const where = t.kind === 'table' ? `Table ${table.name}` : `GSI ${t.name}`;
  const prices = pricing.tableClasses[table.tableClass];
  for (const direction of ['read', 'write'] as const) {
    const isRead = direction === 'read';
    const unit = isRead ? 'RCU' : 'WCU';
    const load = (isRead ? t.readUnitsPerSecond : t.writeUnitsPerSecond).value;
    const needs = isRead ? t.loadNeeds.readCapacityUnits : t.loadNeeds.writeCapacityUnits;
    const held = isRead ? t.billed.readCapacityUnits : t.billed.writeCapacityUnits;
    const range = configured.autoScaling?.[direction];
    const ceiling = range ? range.maxCapacity : isRead ? configured.readCapacityUnits : configured.writeCapacityUnits;
    const throttles = `${isRead ? 'reads' : 'writes'} will throttle${!isRead && t.kind === 'gsi' ? ", and so will the table's (GSI back-pressure)" : ''}`;
    if (load > ceiling) {
      warnings.push({
        code: 'cost.underProvisioned',
        severity: 'error',
        message: range
          ? `${where} auto scales ${direction}s up to at most ${formatNumber(range.maxCapacity)} ${unit}, but its patterns need ${formatNumber(load)} ${unit}/s: ${throttles}. Raise the maximum to at least ${formatNumber(needs)} ${unit}.`
          : `${where} is provisioned with ${formatNumber(ceiling)} ${unit} but its patterns need ${formatNumber(load)} ${unit}/s: ${throttles}.`,
      });
      continue;
    }
    // With auto scaling only the minimum is a setting that holds capacity beyond the load; a low
    // target utilization buys headroom on purpose.
    if (range && held !== range.minCapacity) continue;
    const unusedUsd = roundUsd((held - needs) * pricing.hoursPerMonth * (isRead ? prices.readCapacityUnitUsdPerHour : prices.writeCapacityUnitUsdPerHour));
    if (held > OVER_PROVISIONED_RATIO * needs && unusedUsd > OVER_PROVISIONED_MIN_USD_PER_MONTH) {
      const cost = `${formatNumber(held - needs)} ${unit} more than the ${formatNumber(needs)} ${unit} its patterns need (${formatNumber(load)} ${unit}/s), ${dollars(unusedUsd)} a month for capacity nothing uses`;
      warnings.push({
        code: 'cost.overProvisioned',
        severity: 'warning',
        message: range
          ? `${where} auto scales ${direction}s from a minimum of ${formatNumber(range.minCapacity)} ${unit}, and the minimum is billed whatever the load: ${cost}. Lower the minimum.`
          : `${where} is provisioned with ${formatNumber(held)} ${unit}: ${cost}. Lower it, or let auto scaling follow the load.`,
      });
    }
  }
  return warnings;
}

/** Every warning for one table's costed patterns and totals. */
export function warningsFor(table: Table, patterns: PatternCost[], targets: TargetCost[], pricing: Pricing = DEFAULT_PRICING): CostWarning[] {
  const warnings: CostWarning[] = [];
  const refs = entityCountsOf(table);
  for (const cost of patterns) {
    const { plan } = cost;
    if (cost.kind === 'read' && plan.operation === 'Scan') {
      const suggestion = plan.suggestion
        ? plan.suggestion.natural
          ? ` A GSI keyed on ${plan.suggestion.natural.partitionKeys.map((k) => k.name).join(' + ')}${plan.suggestion.natural.sortKeys.length > 0 ? ` / ${plan.suggestion.natural.sortKeys.map((k) => k.name).join(' + ')}` : ''} (the entity's own attributes) would serve it.`
          : ` A ${plan.suggestion.kind.toUpperCase()} with partition key ${plan.suggestion.partitionKeyTemplate ?? '…'}${plan.suggestion.sortKeyTemplate ? ` and sort key ${plan.suggestion.sortKeyTemplate}` : ''} would serve it.`
        : '';
      warnings.push({
        code: 'cost.scan',
        severity: 'error',
        patternId: cost.patternId,
        message: `"${cost.name}" is served by a Scan: it reads all ${formatNumber(plan.itemsRead)} items, ${formatNumber(cost.perRequest.value)} RCU per request.${suggestion}`,
      });
    } else if (cost.kind === 'read' && plan.itemsRead >= FILTER_WASTE_RATIO * Math.max(1, plan.itemsReturned) && plan.filter) {
      warnings.push({
        code: 'cost.filterWaste',
        severity: 'warning',
        patternId: cost.patternId,
        message: `"${cost.name}" reads ${formatNumber(plan.itemsRead)} items to return ${formatNumber(plan.itemsReturned)} (${formatNumber(plan.itemsRead / Math.max(1, plan.itemsReturned), 1)}×): its filter does not lower the cost. A key that selects those items would.`,
      });
    }
    if (cost.kind === 'write') {
      const pattern = table.accessPatterns.find((p) => p.id === cost.patternId);
      const entity = table.entities.find((e) => e.id === pattern?.entityId);
      if (entity) {
        for (const c of cost.consumption) {
          if (c.target === 'table') {
            const w = hotKeyWarning(cost, entity, pattern?.traffic, 'table', [table.partitionKey.name], c.writeUnitsPerSecond, refs);
            if (w) warnings.push(w);
          } else {
            const gsi = table.globalSecondaryIndexes.find((g) => g.name === (c.target as { gsi: string }).gsi);
            const w = gsi && hotKeyWarning(cost, entity, pattern?.traffic, `GSI ${gsi.name}`, partitionKeysOf(gsi).map((k) => k.name), c.writeUnitsPerSecond, refs);
            if (w) warnings.push(w);
          }
        }
      }
    }
    for (const text of plan.warnings ?? []) {
      // A design problem is an error, not a cost to weigh: the pattern as written cannot be served by key.
      if (text === plan.designProblem) warnings.push({ code: 'cost.designProblem', severity: 'error', patternId: cost.patternId, message: `"${cost.name}": ${text}` });
      else warnings.push({ code: 'cost.plan', severity: 'warning', patternId: cost.patternId, message: `"${cost.name}": ${text}` });
    }
  }
  for (const t of targets) warnings.push(...capacityWarnings(table, t, pricing));
  return warnings;
}
