/**
 * What the read planner's candidates share: the preference classes they are ranked by, the match of
 * one target's keys that a GetItem (`read-get.ts`) or a Query (`read-query.ts`) candidate is built
 * from, and the consistency a target can give. The ranking itself is in `read.ts`.
 */
import type { KeyTemplate, Consistency } from '../model/index.ts';
import type { ReadRequest } from './read-request.ts';
import type { SortKeyMatch } from './sort-key.ts';
import type { BoundKey, KeyTarget, Membership } from './table-view.ts';
import type { Operation, Plan } from './types.ts';

/** The most keys one BatchGetItem request takes. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html */
export const MAX_BATCH_GET_KEYS = 100;

/** Preference classes, cheapest first. */
export const RANK = { getItem: 0, query: 1, gsiQuery: 2, fanOut: 3, scan: 4 } as const;
/** Added to a candidate's class when it reads a sparse index the pattern does not imply. */
export const PARTIAL_PENALTY = 0.5;

/** A target that serves the pattern, with its plan and its preference class (lower is cheaper). */
export interface Candidate {
  target: KeyTarget;
  rank: number;
  plan: Plan;
}

/** How many shards of a sharded partition key a read reaches. */
export interface ShardReach {
  /** Requests: N for a fan-out, else 1. */
  fanOut: number;
  /** A calculated suffix the caller can compute: one shard, holding 1/count of the key's items. */
  isOneShard: boolean;
  count: number;
}

/**
 * A target whose partition key the caller can name and whose sort key serves the pattern: what a
 * GetItem or Query candidate is built from. `notes`, `warnings` and `assumptions` are this
 * candidate's own (the request's notes copied in), filled as the candidate is built.
 */
export interface TargetMatch {
  request: ReadRequest;
  target: KeyTarget;
  membership: Membership;
  /** The entity's partition-key binding on the target (it has a template). */
  partitionKey: BoundKey;
  partitionTemplate: KeyTemplate;
  /** The attributes the partition-key template is built from, all known to the caller. */
  partitionAttributes: string[];
  sortKey: SortKeyMatch;
  /** Placeholder values of the key condition (`:pk`, `:sk` …). */
  values: Record<string, string>;
  sharding: ShardReach;
  /** The target is a sparse index whose condition the pattern does not imply. */
  isPartial: boolean;
  notes: string[];
  warnings: string[];
  assumptions: string[];
}

/**
 * The consistency a read on `target` gets: a GSI reads eventually consistent only, and a Query or
 * Scan has no transactional form. Says why in `notes` (and `warnings`) when it differs from the ask.
 */
export function usedConsistency(request: ReadRequest, target: KeyTarget, operation: Operation, notes: string[], warnings: string[]): Consistency {
  const asked = request.pattern.consistency;
  if (target.kind === 'gsi' && asked !== 'eventual') {
    const text = `${target.label} is a GSI, whose reads are eventually consistent only: the ${asked} read the pattern asks for is planned as eventual.`;
    notes.push(text);
    warnings.push(text);
    return 'eventual';
  }
  if (asked === 'transactional' && (operation === 'Query' || operation === 'Scan')) {
    notes.push(`A ${operation} has no transactional form (TransactGetItems takes gets only): planned as a strongly consistent ${operation}.`);
    return 'strong';
  }
  if (asked === 'transactional') notes.push(`Transactional: sent as TransactGetItems (2 read units per 4 KB).`);
  return asked === 'strong' || asked === 'transactional' ? asked : 'eventual';
}
