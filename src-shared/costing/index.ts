/**
 * Costs: the planner's plans priced by the capacity engine. `costDesign` is what the costs screen,
 * the access-patterns screen and `keyplan cost` show; an open document gets the same result through
 * `createCostCache`, which re-costs only the patterns an edit touched.
 */
export * from './design-cost.ts';
export * from './pattern-cost.ts';
export { createSizeEstimates, type SizeEstimates } from './size-estimates.ts';
export { averageReadBytes, scanOf } from './read-cost.ts';
export { gsiWriteUnitsOn, hasSameValues, planWrites } from './write-cost.ts';
export { createProjectionContext, createTableCosting, type TableCosting } from './table-costing.ts';
export * from './money.ts';
export * from './warnings.ts';
export * from './changes.ts';
export * from './throughput-settings.ts';
export * from './capacity-proposal.ts';
export * from './cost-cache.ts';
export { itemLimitWarnings } from './item-limits.ts';
export { withProjection } from './projection-option.ts';
