/**
 * The kinds of access pattern, in one table: what each reads or writes, the DynamoDB operation it
 * becomes, what the caller must know. Every other module asks this table (or switches over
 * `PatternAction` with `unreachableAction` in its default), never compares an action to a string:
 * a new kind then fails to compile until every place that must handle it does (`eslint.config.js`
 * forbids the comparison outside this file).
 */
import { PATTERN_ACTIONS, type AccessPattern, type PatternAction } from './schema.ts';

/** The DynamoDB operations an access pattern can become. */
export type PatternOperation = 'GetItem' | 'BatchGetItem' | 'Query' | 'Scan' | 'PutItem' | 'UpdateItem' | 'DeleteItem';

/** Reads return or count items; writes change one item. */
export type PatternFamily = 'read' | 'write';

/** What one kind of access pattern is. */
export interface PatternKind {
  /** Read or write. */
  readonly family: PatternFamily;
  /** The pattern editor's label for the kind. */
  readonly label: string;
  /**
   * The operations that can serve it, best first: a read is planned per index among these; a write
   * is its one single-item operation (sent inside a TransactWriteItems when transactional).
   */
  readonly operations: readonly [PatternOperation, ...PatternOperation[]];
  /** The verb in sentences ("to update a User ..."). */
  readonly verb: string;
  /** It returns the number of matching items, not the items (`Select: COUNT`). */
  readonly counts: boolean;
  /** It asks for a single item: at most one per call unless a result size says otherwise. */
  readonly single: boolean;
  /** It may say which attributes it needs back (`returns`): reads that return items. */
  readonly returnsAttributes: boolean;
  /** It writes a new item, so it carries every attribute and knows its whole key by construction. */
  readonly creates: boolean;
  /** It changes attributes of an existing item, and may list them (`updates`) and their values (`sets`). */
  readonly changesAttributes: boolean;
  /** It adds or removes an item, so a counter of the entity's items must change with it. */
  readonly changesItemCount: boolean;
  /** It addresses one existing item by its primary key (an update or a delete, not a put). */
  readonly addressesExisting: boolean;
}

/** Every kind, keyed by the `action` a design file stores. */
export const PATTERN_KINDS = {
  get: {
    family: 'read',
    label: 'get one item',
    operations: ['GetItem', 'BatchGetItem', 'Query', 'Scan'],
    verb: 'get',
    counts: false,
    single: true,
    returnsAttributes: true,
    creates: false,
    changesAttributes: false,
    addressesExisting: false,
    changesItemCount: false,
  },
  query: {
    family: 'read',
    label: 'list many items',
    operations: ['Query', 'Scan'],
    verb: 'query',
    counts: false,
    single: false,
    returnsAttributes: true,
    creates: false,
    changesAttributes: false,
    addressesExisting: false,
    changesItemCount: false,
  },
  count: {
    family: 'read',
    label: 'count items',
    operations: ['Query', 'Scan'],
    verb: 'count',
    counts: true,
    single: false,
    returnsAttributes: false,
    creates: false,
    changesAttributes: false,
    addressesExisting: false,
    changesItemCount: false,
  },
  put: {
    family: 'write',
    label: 'write: put (create or replace)',
    operations: ['PutItem'],
    verb: 'put',
    counts: false,
    single: true,
    returnsAttributes: false,
    creates: true,
    changesAttributes: false,
    addressesExisting: false,
    changesItemCount: true,
  },
  update: {
    family: 'write',
    label: 'write: update',
    operations: ['UpdateItem'],
    verb: 'update',
    counts: false,
    single: true,
    returnsAttributes: false,
    creates: false,
    changesAttributes: true,
    addressesExisting: true,
    changesItemCount: false,
  },
  delete: {
    family: 'write',
    label: 'write: delete',
    operations: ['DeleteItem'],
    verb: 'delete',
    counts: false,
    single: true,
    returnsAttributes: false,
    creates: false,
    changesAttributes: false,
    addressesExisting: true,
    changesItemCount: true,
  },
} as const satisfies { readonly [A in PatternAction]: PatternKind };

/** The actions of write patterns. */
export type WriteAction = { [A in PatternAction]: (typeof PATTERN_KINDS)[A]['family'] extends 'write' ? A : never }[PatternAction];
/** The actions of read patterns. */
export type ReadAction = Exclude<PatternAction, WriteAction>;

/** The kind of an action; an action no kind has (a file not validated yet) reads as a query. */
export const kindOf = (action: PatternAction): PatternKind => PATTERN_KINDS[action] ?? PATTERN_KINDS.query;

/** Whether the pattern writes (put, update, delete). */
export const isWritePattern = <P extends Pick<AccessPattern, 'action'>>(p: P): p is P & { action: WriteAction } => kindOf(p.action).family === 'write';

/** Whether the pattern reads (get, query, count). */
export const isReadPattern = <P extends Pick<AccessPattern, 'action'>>(p: P): p is P & { action: ReadAction } => kindOf(p.action).family === 'read';

/** Whether the pattern counts items instead of returning them. */
export const isCountPattern = (p: Pick<AccessPattern, 'action'>): boolean => kindOf(p.action).counts;

/** The single-item DynamoDB operation a write pattern sends. */
export const writeOperationOf = (action: WriteAction): PatternOperation => PATTERN_KINDS[action].operations[0];

/** The actions in the order the pattern editor offers them. */
export const PATTERN_KIND_ORDER: readonly PatternAction[] = PATTERN_ACTIONS;

/**
 * For the default of an exhaustive `switch (pattern.action)`: the compiler rejects the call while any
 * action is unhandled; at run time (a file not validated) it names the action.
 */
export function unreachableAction(action: never): never {
  throw new Error(`Unknown access-pattern action ${JSON.stringify(action)}`);
}
