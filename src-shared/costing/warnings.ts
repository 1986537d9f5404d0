/**
 * What a reviewer looks for in a design's costs: patterns served by a Scan, filters that read far
 * more than they return, writes that put more than one partition's 1,000 WCU/s on one partition
 * key (the table's or a GSI's, which throttles the table through back-pressure), and provisioned
 * capacity below the load.
 */
import { formatNumber } from '../capacity/figure.ts';
import { parseKeyTemplate, templateAttributes } from '../model/key-template.ts';
import type { Distribution, Entity, Table } from '../model/schema.ts';
import { distinctValuesOf } from '../planner/index.ts';
import type { PatternCost } from './pattern-cost.ts';
import type { TargetCost } from './design-cost.ts';
import { bindingOf } from '../model/key-slots.ts';

export type CostWarningCode = 'cost.scan' | 'cost.filterWaste' | 'cost.hotPartitionWrites' | 'cost.underProvisioned' | 'cost.plan';

export interface CostWarning {
  code: CostWarningCode;
  severity: 'error' | 'warning';
  message: string;
  patternId?: string;
}

/** A partition serves at most 1,000 write units per second (reference §4.1). */
export const PARTITION_WRITE_UNITS_PER_SECOND = 1000;
/** A filter reading this many times more items than it returns is flagged. */
export const FILTER_WASTE_RATIO = 10;

/**
 * How many distinct values a key template takes for an entity's items (shards multiply it), and
 * the share of the items the most common value holds (from enum generator weights; else even).
 */
function distinctKeyValues(entity: Entity, keyAttribute: string): { count: number; template: string; largestItemShare: number } | undefined {
  const binding = bindingOf(entity, keyAttribute);
  if (!binding) return undefined;
  const parsed = parseKeyTemplate(binding.template);
  if (!parsed.ok) return undefined;
  let count = 1;
  let largest = 1;
  for (const name of templateAttributes(parsed.value)) {
    const distinct = distinctValuesOf(entity, name).count;
    count *= distinct;
    const weights = entity.attributes.find((a) => a.name === name)?.generator?.weights;
    const total = weights?.reduce((a, b) => a + b, 0) ?? 0;
    largest *= weights && total > 0 ? Math.max(...weights) / total : 1 / distinct;
  }
  count = Math.min(count, Math.max(1, entity.itemCount));
  const shards = binding.shards?.count ?? 1;
  return { count: count * shards, template: binding.template, largestItemShare: Math.max(largest, 1 / count) / shards };
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

function hotKeyWarning(cost: PatternCost, entity: Entity, traffic: Distribution | undefined, where: string, keyAttribute: string, unitsPerSecond: number): CostWarning | undefined {
  const keys = distinctKeyValues(entity, keyAttribute);
  if (!keys) return undefined;
  const busiest = busiestKeyShare(traffic, keys.count, keys.largestItemShare);
  const perKey = unitsPerSecond * busiest.share;
  if (perKey <= PARTITION_WRITE_UNITS_PER_SECOND) return undefined;
  return {
    code: 'cost.hotPartitionWrites',
    severity: 'error',
    patternId: cost.patternId,
    message:
      `"${cost.name}" writes ${formatNumber(perKey)} WCU/s to one ${where} partition key ${keyAttribute} = ${keys.template} ` +
      `(${formatNumber(unitsPerSecond)} WCU/s; ${busiest.why}); one partition takes at most 1,000 WCU/s. ` +
      `Shard the key (reference §5) or spread the writes.`,
  };
}

/** Every warning for one table's costed patterns and totals. */
export function warningsFor(table: Table, patterns: PatternCost[], targets: TargetCost[]): CostWarning[] {
  const warnings: CostWarning[] = [];
  for (const cost of patterns) {
    const { plan } = cost;
    if (cost.kind === 'read' && plan.operation === 'Scan') {
      const suggestion = plan.suggestion
        ? ` A ${plan.suggestion.kind.toUpperCase()} with partition key ${plan.suggestion.partitionKeyTemplate ?? '…'}${plan.suggestion.sortKeyTemplate ? ` and sort key ${plan.suggestion.sortKeyTemplate}` : ''} would serve it.`
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
            const w = hotKeyWarning(cost, entity, pattern?.traffic, 'table', table.partitionKey.name, c.writeUnitsPerSecond);
            if (w) warnings.push(w);
          } else {
            const gsi = table.globalSecondaryIndexes.find((g) => g.name === (c.target as { gsi: string }).gsi);
            const w = gsi && hotKeyWarning(cost, entity, pattern?.traffic, `GSI ${gsi.name}`, gsi.partitionKey.name, c.writeUnitsPerSecond);
            if (w) warnings.push(w);
          }
        }
      }
    }
    for (const text of plan.warnings ?? []) {
      warnings.push({ code: 'cost.plan', severity: 'warning', patternId: cost.patternId, message: `"${cost.name}": ${text}` });
    }
  }
  for (const t of targets) {
    if (!t.configured) continue;
    const where = t.kind === 'table' ? `Table ${table.name}` : `GSI ${t.name}`;
    if (t.readUnitsPerSecond.value > t.configured.readCapacityUnits) {
      warnings.push({
        code: 'cost.underProvisioned',
        severity: 'error',
        message: `${where} is provisioned with ${formatNumber(t.configured.readCapacityUnits)} RCU but its patterns need ${formatNumber(t.readUnitsPerSecond.value)} RCU/s: reads will throttle.`,
      });
    }
    if (t.writeUnitsPerSecond.value > t.configured.writeCapacityUnits) {
      warnings.push({
        code: 'cost.underProvisioned',
        severity: 'error',
        message: `${where} is provisioned with ${formatNumber(t.configured.writeCapacityUnits)} WCU but its patterns need ${formatNumber(t.writeUnitsPerSecond.value)} WCU/s: writes will throttle${t.kind === 'gsi' ? ', and so will the table\'s (GSI back-pressure)' : ''}.`,
      });
    }
  }
  return warnings;
}
