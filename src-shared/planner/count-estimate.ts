/**
 * The planner's item-count estimates: the one answer to "how many" and "what share" that
 * src-shared/workload-stats gives every screen, re-exported for the planner's files.
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
  sanitizeCount,
  shareOf,
  tidy,
  UNKNOWN_EXISTS_SELECTIVITY,
  UNKNOWN_RANGE_SELECTIVITY,
  valuesAllowedBy,
  type DistinctValues,
  type EntityCounts,
  type Share,
  type SharePart,
} from '../workload-stats/index.ts';
