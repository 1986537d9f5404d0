/**
 * What a reviewer looks for in a design's costs: patterns served by a Scan, filters that read far
 * more than they return, writes that put more than one partition's 1,000 WCU/s on one partition
 * key (the table's or a GSI's, which throttles the table through back-pressure), and provisioned
 * capacity below the load.
 */
import { formatNumber } from '../capacity/figure.ts';
import { parseKeyTemplate, templateAttributes } from '../model/key-template.ts';
import type { Entity, Table } from '../model/schema.ts';
import { distinctValuesOf } from '../planner/index.ts';
import type { PatternCost } from './pattern-cost.ts';
import type { TargetCost } from './design-cost.ts';

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

/** How many distinct values a key template takes for an entity's items (shards multiply it). */
function distinctKeyValues(entity: Entity, keyAttribute: string): { count: number; template: string } | undefined {
  const binding = entity.keys[keyAttribute];
  if (!binding) return undefined;
  const parsed = parseKeyTemplate(binding.template);
  if (!parsed.ok) return undefined;
  let count = 1;
  for (const name of templateAttributes(parsed.value)) count *= distinctValuesOf(entity, name).count;
  count = Math.min(count, Math.max(1, entity.itemCount));
  return { count: count * (binding.shards?.count ?? 1), template: binding.template };
}

function hotKeyWarning(cost: PatternCost, entity: Entity, where: string, keyAttribute: string, unitsPerSecond: number): CostWarning | undefined {
  const keys = distinctKeyValues(entity, keyAttribute);
  if (!keys) return undefined;
  const perKey = unitsPerSecond / keys.count;
  if (perKey <= PARTITION_WRITE_UNITS_PER_SECOND) return undefined;
  return {
    code: 'cost.hotPartitionWrites',
    severity: 'error',
    patternId: cost.patternId,
    message:
      `"${cost.name}" writes ${formatNumber(perKey)} WCU/s to each ${where} partition key ${keyAttribute} = ${keys.template} ` +
      `(${formatNumber(unitsPerSecond)} WCU/s over ${formatNumber(keys.count)} key value${keys.count === 1 ? '' : 's'}); one partition takes at most 1,000 WCU/s. ` +
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
      const entityId = table.accessPatterns.find((p) => p.id === cost.patternId)?.entityId;
      const entity = table.entities.find((e) => e.id === entityId);
      if (entity) {
        for (const c of cost.consumption) {
          if (c.target === 'table') {
            const w = hotKeyWarning(cost, entity, 'table', table.partitionKey.name, c.writeUnitsPerSecond);
            if (w) warnings.push(w);
          } else {
            const gsi = table.globalSecondaryIndexes.find((g) => g.name === (c.target as { gsi: string }).gsi);
            const w = gsi && hotKeyWarning(cost, entity, `GSI ${gsi.name}`, gsi.partitionKey.name, c.writeUnitsPerSecond);
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
