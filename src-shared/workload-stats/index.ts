/**
 * The one answer to "how many" and "what share" for a design: the share of an entity's items that
 * meet a condition or carry an attribute, distinct values of a key, items per key value (mean and
 * largest under the spread), the share on the hottest key, and a target's share of an entity's
 * items. Formulas over the value model and its relation graph; it never samples. Entities & keys,
 * Costs, the planner, the simulator and the solver call it (the design sheet through the planner and
 * Costs; the Data screen still counts the items it generated).
 *
 * More on its rules: docs/modules.md, "src-shared/workload-stats".
 */
export {
  allowedValueCount,
  distinctCombinationsOf,
  distinctValuesOf,
  entityCountsOf,
  formatCount,
  formatItems,
  formatList,
  formatPercent,
  presenceOf,
  sanitizeCount,
  shareOf,
  tidy,
  tiedAttributes,
  UNKNOWN_EXISTS_SELECTIVITY,
  UNKNOWN_RANGE_SELECTIVITY,
  valuesAllowedBy,
} from './counts.ts';
export type { DistinctValues, EntityCounts, Share, SharePart } from './counts.ts';
export { membershipShareOf } from './membership.ts';
export type { MembershipFactor, MembershipShare } from './membership.ts';
export { itemsPerKeyOf, topShareOf } from './items-per-key.ts';
export type { KeyItems } from './items-per-key.ts';
