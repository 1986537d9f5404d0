/**
 * How the costs of one table's patterns differ between two versions of a design (a what-if, an
 * alternative): the rows whose operation, request count or units per request changed.
 */
import type { Figure } from '../capacity/index.ts';
import type { DesignCost } from './design-cost.ts';

export interface PatternCostChange {
  patternId: string;
  name: string;
  kind: 'read' | 'write';
  before: { badge: string; requests: number; perRequest: Figure; onDemandMonthly: Figure };
  after: { badge: string; requests: number; perRequest: Figure; onDemandMonthly: Figure };
}

/** The patterns of table `tableIndex` whose plan or cost differs between `before` and `after`, matched by id. */
export function patternCostChanges(before: DesignCost, after: DesignCost, tableIndex: number): PatternCostChange[] {
  const old = new Map((before.tables[tableIndex]?.patterns ?? []).map((p) => [p.patternId, p]));
  const changes: PatternCostChange[] = [];
  for (const next of after.tables[tableIndex]?.patterns ?? []) {
    const prev = old.get(next.patternId);
    if (!prev) continue;
    const same =
      prev.plan.badge === next.plan.badge &&
      prev.plan.requests === next.plan.requests &&
      Math.abs(prev.perRequest.value - next.perRequest.value) < 1e-9;
    if (same) continue;
    const side = (c: typeof next) => ({ badge: c.plan.badge, requests: c.plan.requests, perRequest: c.perRequest, onDemandMonthly: c.monthly.onDemand });
    changes.push({ patternId: next.patternId, name: next.name, kind: next.kind, before: side(prev), after: side(next) });
  }
  return changes;
}
