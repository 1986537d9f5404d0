/**
 * The work the patterns of one costing of a table share: item and entry sizes, and the projection
 * context (each projection change's table, storage, write units and cost, worked out once for the
 * patterns asking for it).
 */
import { estimateStorage, type StorageEstimate } from '../capacity/index.ts';
import type { Pricing, Table } from '../model/index.ts';
import { isWritePattern } from '../model/index.ts';
import { planPattern, planTable } from '../planner/index.ts';
import type { Plan, ProjectionChange } from '../planner/index.ts';
import {
  costProjectionChange,
  projectionChangeKey,
  withProjection,
  type ProjectionChangeCost,
  type ProjectionContext,
  type WriteUnitsChange,
} from './projection-option.ts';
import { createSizeEstimates, ESTIMATED_SIZES, type SizeEstimates } from './size-estimates.ts';
import { gsiWriteUnitsOn, planWrites } from './write-cost.ts';

function remember<T>(memo: Map<string, T>, key: string, compute: () => T): T {
  let value = memo.get(key);
  if (value === undefined) memo.set(key, (value = compute()));
  return value;
}

/**
 * A projection context for one costing of `table` (the table as costed: index quota and value model
 * applied): each change's changed table, storage and write units computed once. `plans` gives the
 * table's plans in pattern order, `storage` its `estimateStorage`; both are read only when a pattern
 * asks for a projection change.
 */
export function createProjectionContext(table: Table, plans: () => readonly Plan[], storage: () => StorageEstimate, sizes: SizeEstimates = ESTIMATED_SIZES): ProjectionContext {
  const changedTables = new Map<string, Table>();
  const storageBytes = new Map<string, { before: number; after: number }>();
  const writes = new Map<string, WriteUnitsChange[]>();
  const changedTable = (change: ProjectionChange): Table => remember(changedTables, projectionChangeKey(change), () => withProjection(table, change));
  return {
    changedTable,
    planChanged: (change, pattern) => planPattern(changedTable(change), pattern),
    indexStorageBytes: (change) =>
      remember(storageBytes, projectionChangeKey(change), () => ({
        before: storage().indexes[change.index]?.value ?? 0,
        after: estimateStorage(changedTable(change)).indexes[change.index]?.value ?? 0,
      })),
    writeUnits: (change) =>
      remember(writes, projectionChangeKey(change), () => {
        const before = plans();
        const changed = changedTable(change);
        const indexes = table.accessPatterns.flatMap((p, i) => (isWritePattern(p) ? [i] : []));
        const after = planWrites(changed, indexes.map((i) => table.accessPatterns[i]!));
        return indexes.map((i, n) => {
          const p = table.accessPatterns[i]!;
          return { name: p.name, was: gsiWriteUnitsOn(table, p, before[i]!, change.index, sizes), now: gsiWriteUnitsOn(changed, p, after[n]!, change.index, sizes) };
        });
      }),
  };
}

/**
 * What the patterns of one costing of a table share: sizes, the projection context, and each
 * projection change's cost, worked out once for the patterns asking for it.
 */
export interface TableCosting {
  sizes: SizeEstimates;
  projection: ProjectionContext;
  changeCost(change: ProjectionChange): ProjectionChangeCost;
}

/** The shared work of one costing of `table` at `pricing`. */
export function createTableCosting(table: Table, pricing: Pricing, sizes: SizeEstimates, projection: ProjectionContext): TableCosting {
  const costs = new Map<string, ProjectionChangeCost>();
  return { sizes, projection, changeCost: (change) => remember(costs, projectionChangeKey(change), () => costProjectionChange(table, change, pricing, projection)) };
}

/** The shared work of one pattern costed on its own: its sizes and, when it asks for a projection change, the table's plans (once per table object). */
export function ownCosting(table: Table, pricing: Pricing): TableCosting {
  const sizes = createSizeEstimates();
  return createTableCosting(table, pricing, sizes, createProjectionContext(table, () => plansOf(table), () => estimateStorage(table), sizes));
}

/** Plans of a table, once per table object, for a pattern costed on its own that asks for a projection change. */
const planCache = new WeakMap<Table, Plan[]>();
function plansOf(table: Table): Plan[] {
  let plans = planCache.get(table);
  if (!plans) planCache.set(table, (plans = planTable(table)));
  return plans;
}
