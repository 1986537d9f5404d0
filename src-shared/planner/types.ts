/**
 * What the planner decides for one access pattern: the operation that serves it, on which index,
 * with which key condition, and how many items it reads and returns per request. The capacity code
 * turns a plan into RCU/WCU and dollars; the UI and CLI show it.
 */
import type { Consistency, KeyAttribute, Projection, PatternOperation } from '../model/index.ts';

/** A DynamoDB operation, or `None`: no operation yet, the pattern needs a key design (`Plan.needsKeyDesign`). */
export type Operation = PatternOperation | 'None';

/** The label shown on a pattern's row. */
export type PlanBadge =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'GSI Query'
  | 'LSI Query'
  | 'Fan-out Query'
  | 'Scan'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'Needs key design';

/** The table itself, or one of its indexes by name. */
export type Target = { kind: 'table' } | { kind: 'gsi'; name: string } | { kind: 'lsi'; name: string };

/** An entity whose items the request reads (the item collection can hold several). */
export interface EntityRead {
  entityId: string;
  name: string;
  /** Items of this entity read per request (estimate). */
  items: number;
}

/** Why an index (or the table) was not chosen for a read. */
export interface Rejection {
  target: Target;
  reason: string;
}

/** An index that would serve an unserved pattern: what to add, in the model's terms. */
export interface IndexSuggestion {
  kind: 'gsi' | 'lsi';
  /** Partition-key template for the pattern's entity, e.g. `STATUS#{status}`. */
  partitionKeyTemplate?: string;
  /** Sort-key template supporting the needed range or order, e.g. `{createdAt}`. */
  sortKeyTemplate?: string;
  reason: string;
  /** The entity the templates are for (the pattern's). */
  entityId?: string;
  /** A free name for the new index, e.g. `GSI3`. */
  indexName?: string;
  /** The new GSI's partition key attribute (absent for an LSI, which shares the table's). */
  partitionKey?: KeyAttribute;
  /** The new index's sort key attribute (an LSI always has one). */
  sortKey?: KeyAttribute;
  projection?: Projection;
  /** The index already exists (it holds other entities): only the entity's key templates are added. */
  reuses?: boolean;
  /**
   * A new GSI keyed on the entity's own attributes (a natural key, multi-attribute when more than
   * one): its key parts in key order, and no templates to add. `partitionKey`/`sortKey` are then the
   * first attribute of each part.
   */
  natural?: { partitionKeys: KeyAttribute[]; sortKeys: KeyAttribute[] };
}

/** An index a write touches, and how (docs/dynamodb-rules.md §3.3). */
export interface IndexWrite {
  target: Target;
  /**
   * put: the item enters or is rewritten in the index (1 write); move: an update changes the
   * index key while the item stays in the index (delete + put, 2 writes); delete: the item leaves it
   * (1 write); enterOrLeave: an update crosses the index's condition, so the item enters (one put) or
   * leaves (one delete), 1 write either way; none: not in the index or nothing projected changes (0).
   */
  effect: 'put' | 'move' | 'delete' | 'enterOrLeave' | 'none';
  /** Share of the entity's items the index holds (sparse by predicate < 1): the weight of `effect`. */
  fraction: number;
  /** An update that sets a key value inside the index's condition: the share of items it brings in, one put each (besides `effect` for those already in). */
  enterShare?: number;
  reason: string;
}

/**
 * Base items a read must fetch from the table because the index it queries does not project what the
 * pattern needs (its returned attributes, or the attributes its filter tests).
 * - `gsi`: a GSI cannot fetch; the caller sends a GetItem/BatchGetItem per item to the table, charged
 *   on the table's capacity (and the filter on missing attributes runs in the caller, after the fetch).
 * - `lsi`: DynamoDB fetches the base item itself for each item the Query reads, charged per fetched
 *   item rounded up to 4 KB on the table's capacity.
 */
export interface BaseFetch {
  kind: 'gsi' | 'lsi';
  /** The index that lacks the attributes. */
  index: string;
  /** Needed attributes the index does not project, in the pattern's order. */
  missing: string[];
  /** Of `missing`, those the filter tests (a GSI cannot filter on them: the caller does, after fetching). */
  missingForFilter: string[];
  /** Items fetched per pattern call. */
  items: number;
  /** GSI only: the operation that fetches them, and how many requests (100 keys per BatchGetItem). */
  operation?: 'GetItem' | 'BatchGetItem' | 'TransactGetItems';
  requests?: number;
  /** The consistency of the fetch (a table read can be strong even when the GSI read is not). */
  consistency: Consistency;
}

/** A projection that would let an index serve a pattern alone: INCLUDE these attributes (or ALL). */
export interface ProjectionChange {
  kind: 'gsi' | 'lsi';
  index: string;
  projection: Projection;
  /** The attributes it adds to the index. */
  adds: string[];
}

export interface Plan {
  patternId: string;
  operation: Operation;
  badge: PlanBadge;
  target: Target;
  /** The key condition as it would be sent, with placeholders: `PK = :pk AND begins_with(SK, :sk)`. */
  keyCondition?: string;
  /** What each placeholder holds, as a key template: `:pk` → `USER#{userId}`. */
  values: Record<string, string>;
  /** A FilterExpression the request also sends (it does not lower the cost). */
  filter?: string;
  /** What each `#name` placeholder of the filter stands for: `#status` → `status`. */
  names?: Record<string, string>;
  /** The `Limit` sent with a Query (per request; it caps the items read), when there is one. */
  limit?: number;
  /** Requests per pattern call: 1, or N for a fan-out over N shards. */
  requests: number;
  /** The consistency actually used (a GSI read is always eventual). */
  consistency: Consistency;
  /** `ScanIndexForward=false` for a descending order. */
  scanIndexForward?: boolean;
  entitiesRead: EntityRead[];
  /** Items read (evaluated) per pattern call, over all its requests: what capacity is charged on. */
  itemsRead: number;
  /** Items returned per pattern call (after any filter or Limit). */
  itemsReturned: number;
  /** False when no key-based access serves the pattern and it falls back to a Scan. */
  isServed: boolean;
  /** What the caller needs back: `item` (the whole item), a list of attributes, or nothing (a count). */
  returns?: 'item' | string[];
  /** Base items fetched because the queried index lacks needed attributes. */
  fetch?: BaseFetch;
  /** The projection change that would remove `fetch`; costed beside the plan. */
  projectionChange?: ProjectionChange;
  /** Index writes for write patterns (empty for reads). */
  indexWrites: IndexWrite[];
  rejected: Rejection[];
  suggestion?: IndexSuggestion;
  /** Why this operation, in one or two sentences. */
  explanation: string;
  /** Modeling assumptions behind the counts ("Order.userId has 1,000,000 distinct values"). */
  assumptions: string[];
  /**
   * Why the pattern cannot be planned yet: it has no entity, or its entity has no template for the
   * table's keys. Such a plan has operation `None`, reads nothing and costs nothing; it is shown as
   * "needs a key design" and left out of totals, never as a cost.
   */
  needsKeyDesign?: string;
  /** A flaw of the design this plan exposes (a get whose caller knows no key): shown as an error. */
  designProblem?: string;
  /**
   * What the user should look at although the pattern is served: a sparse index that holds only
   * some of the entity's items, a strong read downgraded on a GSI, a write whose key is not known.
   */
  warnings?: string[];
}
