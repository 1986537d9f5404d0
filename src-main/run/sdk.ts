/**
 * A run's conversation with the engine: DynamoDB JSON (binaries as base64) to and from the SDK's
 * values, one send per operation, a response's consumed capacity, and the retry and cancel helpers
 * every call of a run shares (`runner.ts`, `measure.ts`).
 */
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteItemCommand,
  DescribeTableCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { AppError } from '../../src-shared/errors.ts';
import type { Item } from '../../src-shared/capacity/index.ts';
import type { MeasuredPage, RunOperation } from '../../src-shared/run/index.ts';

/**
 * Sends of one batch (the first and its retries) before unprocessed items fail the run; AWS advises
 * retrying them with exponential backoff: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html#Programming.Errors.BatchOperations
 */
export const MAX_BATCH_TRIES = 8;
const BACKOFF_BASE_MS = 50;
const BACKOFF_MAX_MS = 5_000;

/** The wait before retry `attempt`: exponential from 50 ms, at most 5 s. */
export const backoff = (attempt: number) => Math.min(BACKOFF_BASE_MS * 2 ** attempt, BACKOFF_MAX_MS);

// ---------------------------------------------------------------------------------------------
// DynamoDB JSON (binaries as base64) to and from the SDK (binaries as bytes)

/**
 * `input` as the SDK takes it: `{ B: "base64" }` and `{ BS: [...] }` become bytes. Everywhere else a
 * `B` key can appear (an attribute named B in a Key or Item) it holds an attribute value object,
 * never a string.
 */
export function toSdk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toSdk);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1) {
    const [key, inner] = entries[0]!;
    if (key === 'B' && typeof inner === 'string') return { B: Buffer.from(inner, 'base64') };
    if (key === 'BS' && Array.isArray(inner) && inner.every((b) => typeof b === 'string')) return { BS: inner.map((b: string) => Buffer.from(b, 'base64')) };
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, toSdk(v)]));
}

/** An SDK output as DynamoDB JSON: bytes (only binary values hold them) become base64. */
export function fromSdk(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(fromSdk);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromSdk(v)]));
}

export type Output = Record<string, unknown>;

export const COMMANDS: Record<RunOperation | 'BatchWriteItem' | 'CreateTable' | 'DescribeTable', new (input: never) => unknown> = {
  GetItem: GetItemCommand,
  BatchGetItem: BatchGetItemCommand,
  Query: QueryCommand,
  Scan: ScanCommand,
  PutItem: PutItemCommand,
  UpdateItem: UpdateItemCommand,
  DeleteItem: DeleteItemCommand,
  TransactWriteItems: TransactWriteItemsCommand,
  BatchWriteItem: BatchWriteItemCommand,
  CreateTable: CreateTableCommand,
  DescribeTable: DescribeTableCommand,
};

/** Sends `operation` with a DynamoDB JSON input; the output as DynamoDB JSON. */
export async function send(client: DynamoDBClient, operation: keyof typeof COMMANDS, input: Record<string, unknown>): Promise<Output> {
  const command = new COMMANDS[operation](toSdk(input) as never);
  return fromSdk(await client.send(command as Parameters<DynamoDBClient['send']>[0])) as Output;
}

// ---------------------------------------------------------------------------------------------
// Consumed capacity

interface Capacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
  LocalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/**
 * A response's ConsumedCapacity as units in all and per target (`table`, or an index's name). One
 * object for single-item operations, Query and Scan; a list (one per table) for BatchGetItem and
 * TransactWriteItems, summed. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ConsumedCapacity.html
 */
export function capacityOf(consumed: unknown): Pick<MeasuredPage, 'capacityUnits' | 'byTarget'> {
  const list = (Array.isArray(consumed) ? consumed : consumed === undefined ? [] : [consumed]) as Capacity[];
  let capacityUnits = 0;
  const byTarget: Record<string, number> = {};
  const add = (target: string, units: number | undefined) => {
    if (units !== undefined) byTarget[target] = (byTarget[target] ?? 0) + units;
  };
  for (const c of list) {
    capacityUnits += c.CapacityUnits ?? 0;
    add('table', c.Table?.CapacityUnits);
    for (const [name, index] of Object.entries(c.GlobalSecondaryIndexes ?? {})) add(name, index.CapacityUnits);
    for (const [name, index] of Object.entries(c.LocalSecondaryIndexes ?? {})) add(name, index.CapacityUnits);
  }
  return { capacityUnits, byTarget };
}

export const itemsOf = (responses: unknown): Item[] => Object.values((responses ?? {}) as Record<string, Item[]>).flat();
export const isEmpty = (requestItems: unknown): boolean => Object.values((requestItems ?? {}) as Record<string, { Keys?: unknown[] } | unknown[]>).every((r) => (Array.isArray(r) ? r.length === 0 : (r.Keys ?? []).length === 0));

export const canceled = () => new AppError({ code: 'task.canceled', message: 'The run was canceled.' });

export function throwIfCanceled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw canceled();
}

/** Waits `ms`, or less when the run is canceled (the caller then checks the signal). */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
