/**
 * Costs: the planner's plans priced by the capacity engine. `costDesign` is what the costs screen,
 * the access-patterns screen and `keyplan cost` show.
 */
export * from './design-cost.ts';
export * from './pattern-cost.ts';
export * from './money.ts';
export * from './warnings.ts';
export * from './changes.ts';
export * from './throughput-settings.ts';
export * from './capacity-proposal.ts';
