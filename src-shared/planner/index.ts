/**
 * The planner: access pattern → operation plan. Pure, deterministic and fast enough to run on every
 * keystroke; it never throws, also not on a design that does not validate (a broken template makes
 * the entity absent from that key, an unknown entity gives an unserved plan).
 *
 * Reads (get, query, count) try the table, every GSI and every LSI and keep the cheapest that serves
 * the pattern (`read.ts`, its parts in `read-*.ts`); writes (put, update, delete) address the table by the item's primary key
 * and list each index write (`write.ts`). Item counts are estimates from item counts, cardinalities
 * and generators (the rules are in `count-estimate.ts`); each plan states its assumptions.
 */
import type { AccessPattern, Table } from '../model/index.ts';
import { withValueModel, isWritePattern, bindingOf, withinIndexQuota } from '../model/index.ts';
import { planRead } from './read.ts';
import { readRequestOf } from './read-request.ts';
import { planNeedingKeyDesign, planUnknownEntity } from './read-scan.ts';
import { viewTable, type TableView } from './table-view.ts';
import type { Plan } from './types.ts';
import { planWrite } from './write.ts';

export type * from './types.ts';
export { applyIndexSuggestion } from './suggest.ts';
export { boundAttributes, viewTable, type KeyTarget, type Membership, type TableView } from './table-view.ts';
export { applyNaturalKey, naturalKeyAlternatives, type NaturalKeyAlternative } from './natural-keys.ts';
export { distinctCombinationsOf, distinctValuesOf, entityCountsOf, formatCount, shareOf, type EntityCounts } from './count-estimate.ts';
export { MAX_BATCH_GET_KEYS } from './read-candidate.ts';

/**
 * Why a pattern cannot be planned yet, or undefined when it can: it has no entity (it was written
 * first, as DynamoDB design starts), or its entity has no template for the table's partition key or
 * sort key (every item carries the table's keys, so without them no request can address it).
 * An entity id that names no entity is a broken reference, not missing work: it is planned (and
 * reported by validation) as before.
 */
export function keyDesignGap(table: Table, pattern: AccessPattern): string | undefined {
  if (pattern.entityId === undefined) return 'No entity yet: pick or create the entity this pattern reads or writes, then design its keys.';
  const entity = (table.entities ?? []).find((e) => e.id === pattern.entityId);
  if (!entity) return undefined;
  const missing = [table.partitionKey, table.sortKey]
    .filter((k): k is NonNullable<typeof k> => k !== undefined)
    .filter((k) => (bindingOf(entity, k.name)?.template ?? '').trim() === '')
    .map((k) => k.name);
  if (missing.length === 0) return undefined;
  return `${entity.name} has no template for the table's ${missing.length === 1 ? `key ${missing[0]}` : `keys ${missing.join(' and ')}`} yet: design its keys on the Entities screen.`;
}

function planWith(view: TableView, pattern: AccessPattern): Plan {
  const gap = keyDesignGap(view.table, pattern);
  if (gap !== undefined) return planNeedingKeyDesign(pattern, gap);
  const entity = pattern.entityId === undefined ? undefined : view.byId.get(pattern.entityId);
  if (!entity) return planUnknownEntity(view, pattern);
  if (isWritePattern(pattern)) return planWrite(view, entity, pattern);
  return planRead(readRequestOf(view, entity, pattern));
}

/** Plans one access pattern of a table: the operation, target, key condition, counts and why. */
export function planPattern(table: Table, pattern: AccessPattern): Plan {
  // A pattern planned on its own (not yet in the table) still names values of the value model.
  const withPattern = (table.accessPatterns ?? []).includes(pattern) ? table : { ...table, accessPatterns: [...(table.accessPatterns ?? []), pattern] };
  return planWith(viewTable(withValueModel(withPattern)), pattern);
}

/** Plans every access pattern of a table, in the table's pattern order (the table is prepared once). */
export function planTable(table: Table): Plan[] {
  const view = viewTable(withValueModel(withinIndexQuota(table)));
  return (table.accessPatterns ?? []).map((p) => planWith(view, p));
}
