/**
 * Why a request throttled, written once: the cause bits a run keeps per partition, key and source,
 * and the names DynamoDB reports for them, `<Table|Index><Read|Write><LimitType>`
 * (docs/dynamodb-rules.md §4.7).
 */
import type { ThrottlingReason } from './types.ts';

/** Why a partition's load was not all served, as bits. */
export const CAUSE_KEY_RANGE = 1;
export const CAUSE_PROVISIONED = 2;
export const CAUSE_ACCOUNT = 4;
/** Over the on-demand maximum the design sets on the table or GSI (docs/dynamodb-rules.md §4.3, §4.7). */
export const CAUSE_MAX_ON_DEMAND = 8;

/** The cause bits in the order reasons are listed: key range, provisioned, account, on-demand maximum. */
export const CAUSES = [CAUSE_KEY_RANGE, CAUSE_PROVISIONED, CAUSE_ACCOUNT, CAUSE_MAX_ON_DEMAND] as const;
/** The limit each of `CAUSES` names, as the end of a reason. */
const LIMIT_TYPES = ['KeyRangeThroughputExceeded', 'ProvisionedThroughputExceeded', 'AccountLimitExceeded', 'MaxOnDemandThroughputExceeded'] as const;

/** `TableWriteKeyRangeThroughputExceeded` … for the cause bits `causes`, in the order of `CAUSES`. */
export function reasonsOf(causes: number, resource: 'Table' | 'Index', operation: 'Read' | 'Write'): ThrottlingReason[] {
  const out: ThrottlingReason[] = [];
  for (let c = 0; c < CAUSES.length; c += 1) if (causes & (CAUSES[c] as number)) out.push(`${resource}${operation}${LIMIT_TYPES[c] as (typeof LIMIT_TYPES)[number]}`);
  return out;
}

/** Every reason a table or a GSI can report, reads then writes, each in the order of `CAUSES` (indexes 0–3, 4–7). */
export function reasonNamesOf(kind: 'table' | 'gsi'): ThrottlingReason[] {
  const resource = kind === 'table' ? 'Table' : 'Index';
  return [...LIMIT_TYPES.map((n): ThrottlingReason => `${resource}Read${n}`), ...LIMIT_TYPES.map((n): ThrottlingReason => `${resource}Write${n}`)];
}
