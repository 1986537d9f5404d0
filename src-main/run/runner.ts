/**
 * A run, host side: the design's table created on an engine, the sample items loaded, every access
 * pattern's planned requests sent and measured, the table removed, and the measurements set beside
 * the predictions. What to send comes from `prepareRun` and how to judge it from `comparePattern`
 * (both pure, in src-shared/run); this file only talks to the engine.
 *
 * Safety: the table's name is the run's own (`keyplan-run-<short id>-<name>`) and a run refuses to
 * start when a table of that name exists; on AWS it runs only once the caller has confirmed the
 * account the credentials belong to. The table is deleted whatever happens (success, a refused
 * request, cancel); a table that cannot be deleted stays in the run journal for cleanup later.
 *
 * Errors: `run.engine` (see engine.ts), `run.notConfirmed`, `run.tableExists`, `run.failed` (the
 * engine refused to create, describe or load the table: its message), `task.canceled`. A refused
 * access-pattern request is not an error of the run: it is recorded on that request, and the run
 * goes on.
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
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { AppError } from '../../src-shared/errors.ts';
import type { Item } from '../../src-shared/capacity/item-size.ts';
import type { Design } from '../../src-shared/model/schema.ts';
import { comparePattern, summarize } from '../../src-shared/run/compare.ts';
import { prepareRun, sendOrder } from '../../src-shared/run/prepare.ts';
import type {
  EngineChoice,
  MeasuredCall,
  MeasuredPage,
  MeasuredRequest,
  PatternMeasurement,
  RunOperation,
  RunPlan,
  RunReport,
  RunRequest,
} from '../../src-shared/run/types.ts';
import { deleteTable, describeError, openEngine, type Engine } from './engine.ts';
import type { RunJournal } from './journal.ts';

export { identifyEngine, type EngineIdentity } from './engine.ts';

/** Where a run stands: `done` of `total` steps (create, each load batch, each call, delete). */
export interface RunProgress {
  done: number;
  total: number;
  label: string;
}

export interface RunOptions {
  design: Design;
  /** The design table to run. */
  tableId: string;
  engine: EngineChoice;
  /** Sample items loaded per entity (default 20). */
  itemsPerEntity?: number;
  /** Calls per access pattern (default 5). */
  repeat?: number;
  /** Seed of the sample items (default 1). */
  seed?: number;
  /** AWS: the account the caller confirmed (`identifyEngine`'s `account`); the run refuses any other. */
  confirmAccount?: string;
  /** Names the run and its table (default: random). */
  runId?: string;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  /** Where the created table is recorded until it is removed. */
  journal?: RunJournal;
}

const DEFAULT_ITEMS_PER_ENTITY = 20;
const DEFAULT_REPEAT = 5;
const DEFAULT_SEED = 1;

/** BatchWriteItem takes at most 25 put or delete requests. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html */
const BATCH_WRITE_MAX_ITEMS = 25;
/**
 * Sends of one batch (the first and its retries) before unprocessed items fail the run; AWS advises
 * retrying them with exponential backoff: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html#Programming.Errors.BatchOperations
 */
const MAX_BATCH_TRIES = 8;
const BACKOFF_BASE_MS = 50;
const BACKOFF_MAX_MS = 5_000;
/** How long a new table (and its GSIs) may take to become ACTIVE before the run gives up. */
const ACTIVE_TIMEOUT_MS = 10 * 60_000;

const backoff = (attempt: number) => Math.min(BACKOFF_BASE_MS * 2 ** attempt, BACKOFF_MAX_MS);

// ---------------------------------------------------------------------------------------------
// DynamoDB JSON (binaries as base64) to and from the SDK (binaries as bytes)

/**
 * `input` as the SDK takes it: `{ B: "base64" }` and `{ BS: [...] }` become bytes. Everywhere else a
 * `B` key can appear (an attribute named B in a Key or Item) it holds an attribute value object,
 * never a string.
 */
function toSdk(value: unknown): unknown {
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
function fromSdk(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(fromSdk);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromSdk(v)]));
}

type Output = Record<string, unknown>;

const COMMANDS: Record<RunOperation | 'BatchWriteItem' | 'CreateTable' | 'DescribeTable', new (input: never) => unknown> = {
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
async function send(client: DynamoDBClient, operation: keyof typeof COMMANDS, input: Record<string, unknown>): Promise<Output> {
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
function capacityOf(consumed: unknown): Pick<MeasuredPage, 'capacityUnits' | 'byTarget'> {
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

const itemsOf = (responses: unknown): Item[] => Object.values((responses ?? {}) as Record<string, Item[]>).flat();
const isEmpty = (requestItems: unknown): boolean => Object.values((requestItems ?? {}) as Record<string, { Keys?: unknown[] } | unknown[]>).every((r) => (Array.isArray(r) ? r.length === 0 : (r.Keys ?? []).length === 0));

// ---------------------------------------------------------------------------------------------
// The run

const canceled = () => new AppError({ code: 'task.canceled', message: 'The run was canceled.' });

function throwIfCanceled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw canceled();
}

/** Waits `ms`, or less when the run is canceled (the caller then checks the signal). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
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

/** A short random run id, lowercase letters and digits. */
const randomRunId = () => randomBytes(6).toString('hex');

/**
 * Runs one table of `design` on `options.engine` and reports every pattern measured against its
 * prediction (reports in the design's order). The table is always removed before this returns or
 * throws; `report.cleanup` (or an error's `details.cleanup`) says whether it was.
 */
export async function runDesign(options: RunOptions): Promise<RunReport> {
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const { signal } = options;
  throwIfCanceled(signal);
  const engine = await openEngine(options.engine);
  try {
    throwIfCanceled(signal);
    if (engine.choice.kind === 'aws' && (options.confirmAccount === undefined || options.confirmAccount !== engine.identity.account)) {
      const given = options.confirmAccount === undefined ? 'no account was confirmed' : `the account confirmed was ${options.confirmAccount}`;
      throw new AppError({
        code: 'run.notConfirmed',
        message: `A run on AWS creates, loads and deletes a table in account ${engine.identity.account}, region ${engine.identity.region}, which costs money; ${given}. Confirm account ${engine.identity.account} to run there. Nothing was created.`,
      });
    }
    const plan = prepareRun(options.design, {
      runId: options.runId ?? randomRunId(),
      tableId: options.tableId,
      itemsPerEntity: options.itemsPerEntity ?? DEFAULT_ITEMS_PER_ENTITY,
      repeat: options.repeat ?? DEFAULT_REPEAT,
      seed: options.seed ?? DEFAULT_SEED,
      capabilities: engine.capabilities,
    });
    const { measurements, cleanup } = await executePlan(engine, plan, options);
    const patterns = plan.patterns.map((p) => comparePattern(p, measurements.get(p.patternId), { capabilities: engine.capabilities, table: plan.table }));
    return {
      runId: plan.runId,
      engine: { kind: engine.choice.kind, label: engine.identity.label },
      table: { tableId: plan.table.tableId, name: plan.table.name, omittedIndexes: plan.table.omittedIndexes },
      itemsLoaded: plan.items.length,
      repeat: plan.repeat,
      patterns,
      summary: summarize(patterns),
      cleanup,
      startedAt,
      durationMs: performance.now() - started,
    };
  } finally {
    await engine.close();
  }
}

type Cleanup = RunReport['cleanup'];

/** Creates, loads, measures and (always) removes the plan's table. */
async function executePlan(engine: Engine, plan: RunPlan, options: RunOptions): Promise<{ measurements: Map<string, PatternMeasurement>; cleanup: Cleanup }> {
  const { client, identity } = engine;
  const { signal, journal } = options;
  const name = plan.table.name;
  const batches = Math.ceil(plan.items.length / BATCH_WRITE_MAX_ITEMS);
  const toSend = sendOrder(plan.patterns).filter((p) => p.skipped === undefined && p.calls.length > 0);
  const total = 2 + batches + toSend.reduce((n, p) => n + p.calls.length, 0);
  let done = 0;
  const progress = (label: string) => options.onProgress?.({ done, total, label });
  const step = (label: string) => {
    done += 1;
    progress(label);
  };

  /** A call to the engine outside the measured requests: its refusal fails the run. */
  const engineCall = async (operation: keyof typeof COMMANDS, input: Record<string, unknown>): Promise<Output> => {
    try {
      return await send(client, operation, input);
    } catch (error) {
      throw new AppError({ code: 'run.failed', message: `${operation} of table "${name}" on ${identity.label} failed: ${describeError(error)}` });
    }
  };

  let journaled = false;
  let createSent = false;
  let created = false;
  let failure: unknown;
  const measurements = new Map<string, PatternMeasurement>();
  try {
    await refuseExistingTable(client, name, identity.label);
    throwIfCanceled(signal);
    progress(`Creating table ${name}`);
    // Recorded before CreateTable is sent: a crash from here on leaves a record, not a stray table.
    if (journal) {
      try {
        await journal.add({ name, engine: engine.choice, engineLabel: identity.label, createdAt: new Date().toISOString() });
      } catch (error) {
        throw new AppError({ code: 'run.failed', message: `Cannot record table "${name}" in the run journal before creating it: ${describeError(error)}. Nothing was created.` });
      }
      journaled = true;
    }
    throwIfCanceled(signal);
    createSent = true;
    await engineCall('CreateTable', plan.table.createInput);
    created = true;
    await waitUntilActive(engineCall, name, signal);
    step(`Created table ${name}`);

    for (let start = 0; start < plan.items.length; start += BATCH_WRITE_MAX_ITEMS) {
      throwIfCanceled(signal);
      await writeBatch(engineCall, name, plan.items.slice(start, start + BATCH_WRITE_MAX_ITEMS), signal);
      step(`Loaded ${Math.min(start + BATCH_WRITE_MAX_ITEMS, plan.items.length)} of ${plan.items.length} items`);
    }

    for (const pattern of toSend) {
      const calls: MeasuredCall[] = [];
      for (const [k, call] of pattern.calls.entries()) {
        const requests: MeasuredRequest[] = [];
        for (const request of call.requests) {
          throwIfCanceled(signal);
          requests.push(await measureRequest(client, plan, request, signal));
        }
        calls.push({ requests });
        step(`${pattern.name}: call ${k + 1} of ${pattern.calls.length}`);
      }
      measurements.set(pattern.patternId, { patternId: pattern.patternId, calls });
    }
  } catch (error) {
    failure = error;
  }

  const cleanup: Cleanup = { removed: [], leftover: [] };
  let leftoverReason: string | undefined;
  if (createSent) {
    progress(`Removing table ${name}`);
    try {
      // Also when CreateTable seemed to fail: the engine may have created it before the answer was lost.
      const outcome = await deleteTable(client, name);
      if (created || outcome === 'deleted') cleanup.removed.push(name);
    } catch (error) {
      cleanup.leftover.push(name);
      leftoverReason = describeError(error);
    }
  }
  if (journaled && cleanup.leftover.length === 0) {
    // A record of a removed table is harmless (a later cleanup finds it gone and counts it removed),
    // so a failure to forget it does not fail the run.
    await journal!.remove(name).catch(() => undefined);
  }
  if (failure === undefined) {
    step(`Removed table ${name}`);
    return { measurements, cleanup };
  }
  throw withCleanup(failure, cleanup, leftoverReason);
}

/** The run's error, its message saying what became of the table, with the cleanup in `details`. */
function withCleanup(failure: unknown, cleanup: Cleanup, leftoverReason: string | undefined): unknown {
  if (!(failure instanceof AppError)) return failure;
  const sentences: string[] = [];
  for (const t of cleanup.removed) sentences.push(`Table "${t}" was removed.`);
  for (const t of cleanup.leftover) sentences.push(`Table "${t}" could not be removed (${leftoverReason ?? 'no reason given'}); delete it, or let Keyplan offer it among the leftover tables at its next start.`);
  return new AppError({
    code: failure.code,
    message: [failure.message, ...sentences].join(' '),
    ...(failure.path === undefined ? {} : { path: failure.path }),
    details: { ...(typeof failure.details === 'object' && failure.details !== null ? failure.details : {}), cleanup },
  });
}

/** `run.tableExists` when the engine has a table named `name`: a run touches no table it did not create. */
async function refuseExistingTable(client: DynamoDBClient, name: string, label: string): Promise<void> {
  try {
    await send(client, 'DescribeTable', { TableName: name });
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') return;
    throw new AppError({ code: 'run.failed', message: `DescribeTable of "${name}" on ${label} failed: ${describeError(error)}` });
  }
  throw new AppError({
    code: 'run.tableExists',
    message: `A table named "${name}" already exists on ${label}, and a run never touches a table it did not create. Run again (a new run gets a new name), or remove that table first.`,
  });
}

type EngineCall = (operation: keyof typeof COMMANDS, input: Record<string, unknown>) => Promise<Output>;

/** Polls DescribeTable until the table and every GSI are ACTIVE. */
async function waitUntilActive(engineCall: EngineCall, name: string, signal: AbortSignal | undefined): Promise<void> {
  const deadline = performance.now() + ACTIVE_TIMEOUT_MS;
  for (let attempt = 0; ; attempt += 1) {
    throwIfCanceled(signal);
    const table = (await engineCall('DescribeTable', { TableName: name }))['Table'] as
      | { TableStatus?: string; GlobalSecondaryIndexes?: Array<{ IndexStatus?: string }> }
      | undefined;
    if (table?.TableStatus === 'ACTIVE' && (table.GlobalSecondaryIndexes ?? []).every((g) => g.IndexStatus === 'ACTIVE')) return;
    if (performance.now() > deadline) {
      throw new AppError({ code: 'run.failed', message: `Table "${name}" was not ACTIVE after ${ACTIVE_TIMEOUT_MS / 60_000} minutes (status ${table?.TableStatus ?? 'unknown'}).` });
    }
    await pause(backoff(attempt), signal);
  }
}

/** One BatchWriteItem of up to 25 items, unprocessed items sent again with backoff. */
async function writeBatch(engineCall: EngineCall, name: string, items: Item[], signal: AbortSignal | undefined): Promise<void> {
  let pending: unknown = { [name]: items.map((Item) => ({ PutRequest: { Item } })) };
  for (let attempt = 1; ; attempt += 1) {
    const output = await engineCall('BatchWriteItem', { RequestItems: pending });
    const unprocessed = output['UnprocessedItems'];
    if (isEmpty(unprocessed)) return;
    if (attempt >= MAX_BATCH_TRIES) {
      const left = Object.values(unprocessed as Record<string, unknown[]>).reduce((n, r) => n + r.length, 0);
      throw new AppError({ code: 'run.failed', message: `${left} sample items of table "${name}" were still unprocessed after ${MAX_BATCH_TRIES} BatchWriteItem tries (the engine is throttling); run again with fewer items.` });
    }
    await pause(backoff(attempt), signal);
    throwIfCanceled(signal);
    pending = unprocessed;
  }
}

// ---------------------------------------------------------------------------------------------
// Measured requests

/** Sends one planned request and measures it; the engine's refusal is recorded, not thrown. */
async function measureRequest(client: DynamoDBClient, plan: RunPlan, request: RunRequest, signal: AbortSignal | undefined): Promise<MeasuredRequest> {
  const measured: MeasuredRequest = { operation: request.operation, pages: [] };
  try {
    switch (request.operation) {
      case 'Query':
      case 'Scan':
        await measurePaged(client, request, measured, signal);
        break;
      case 'GetItem':
        await measureGetItem(client, request, measured);
        break;
      case 'BatchGetItem':
        await measureBatchGet(client, request, measured, signal);
        break;
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem':
      case 'TransactWriteItems':
        await measureWrite(client, plan, request, measured, signal);
        break;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    measured.error = describeError(error);
  }
  return measured;
}

/** Sends `input` and measures the time to its answer. */
async function timed(client: DynamoDBClient, operation: RunOperation, input: Record<string, unknown>): Promise<{ output: Output; latencyMs: number }> {
  const start = performance.now();
  const output = await send(client, operation, input);
  return { output, latencyMs: performance.now() - start };
}

/**
 * Query or Scan, page after page with ExclusiveStartKey until no LastEvaluatedKey is returned (or
 * `stopAfterItems` items were). Each page's witness (the same request without filter and projection,
 * from the same start key and with the same Limit) tells which items the page read.
 */
async function measurePaged(client: DynamoDBClient, request: RunRequest, measured: MeasuredRequest, signal: AbortSignal | undefined): Promise<void> {
  let startKey: unknown;
  let returned = 0;
  const limit = request.input['Limit'];
  for (;;) {
    const from = startKey === undefined ? {} : { ExclusiveStartKey: startKey };
    const { output, latencyMs } = await timed(client, request.operation, { ...request.input, ...from });
    const page: MeasuredPage = {
      ...capacityOf(output['ConsumedCapacity']),
      count: (output['Count'] as number | undefined) ?? 0,
      scannedCount: (output['ScannedCount'] as number | undefined) ?? 0,
      latencyMs,
    };
    measured.pages.push(page);
    if (request.witness) {
      throwIfCanceled(signal);
      const witness = await send(client, request.operation, { ...request.witness, ...from, ...(limit === undefined ? {} : { Limit: limit }) });
      page.itemsRead = (witness['Items'] as Item[] | undefined) ?? [];
    }
    returned += page.count;
    startKey = output['LastEvaluatedKey'];
    if (startKey === undefined || (request.stopAfterItems !== undefined && returned >= request.stopAfterItems)) return;
    throwIfCanceled(signal);
  }
}

async function measureGetItem(client: DynamoDBClient, request: RunRequest, measured: MeasuredRequest): Promise<void> {
  const { output, latencyMs } = await timed(client, 'GetItem', request.input);
  const item = output['Item'] as Item | undefined;
  const count = item === undefined ? 0 : 1;
  const page: MeasuredPage = { ...capacityOf(output['ConsumedCapacity']), count, scannedCount: count, latencyMs };
  measured.pages.push(page);
  const read = request.witness ? ((await send(client, 'GetItem', request.witness))['Item'] as Item | undefined) : item;
  page.itemsRead = read === undefined ? [] : [read];
}

/** BatchGetItem's items, UnprocessedKeys sent again with backoff; `onAnswer` sees every answer. */
async function batchGet(
  client: DynamoDBClient,
  input: Record<string, unknown>,
  signal: AbortSignal | undefined,
  onAnswer: (output: Output, latencyMs: number) => void,
): Promise<Item[]> {
  const items: Item[] = [];
  let requestItems = input['RequestItems'];
  for (let attempt = 1; ; attempt += 1) {
    const { output, latencyMs } = await timed(client, 'BatchGetItem', { ...input, RequestItems: requestItems });
    onAnswer(output, latencyMs);
    items.push(...itemsOf(output['Responses']));
    const unprocessed = output['UnprocessedKeys'];
    if (isEmpty(unprocessed)) return items;
    if (attempt >= MAX_BATCH_TRIES) throw new Error(`UnprocessedKeys remained after ${MAX_BATCH_TRIES} BatchGetItem tries (the engine is throttling).`);
    await pause(backoff(attempt), signal);
    throwIfCanceled(signal);
    requestItems = unprocessed;
  }
}

/**
 * BatchGetItem: one page per answer (a retry of UnprocessedKeys is another request, charged on its
 * own). The witness's items (whole items, without projection) go on the first page: BatchGetItem
 * charges each item on its own, so which page they sit on does not change a total.
 */
async function measureBatchGet(client: DynamoDBClient, request: RunRequest, measured: MeasuredRequest, signal: AbortSignal | undefined): Promise<void> {
  await batchGet(client, request.input, signal, (output, latencyMs) => {
    const items = itemsOf(output['Responses']);
    measured.pages.push({ ...capacityOf(output['ConsumedCapacity']), count: items.length, scannedCount: items.length, latencyMs, itemsRead: items });
  });
  if (request.witness) {
    throwIfCanceled(signal);
    const read = await batchGet(client, request.witness, signal, () => undefined);
    measured.pages.forEach((page, i) => (page.itemsRead = i === 0 ? read : []));
  }
}

/** The item a write changes: its table and key (TransactWriteItems: its first Put, Update or Delete). */
function writtenKey(plan: RunPlan, request: RunRequest): { TableName: unknown; Key: Item } | undefined {
  let target = request.input;
  if (request.operation === 'TransactWriteItems') {
    const items = (request.input['TransactItems'] as Array<Record<string, Record<string, unknown>>> | undefined) ?? [];
    const first = items.map((t) => t['Put'] ?? t['Update'] ?? t['Delete']).find((t) => t !== undefined);
    if (!first) return undefined;
    target = first;
  }
  if (target['Key']) return { TableName: target['TableName'], Key: target['Key'] as Item };
  const item = target['Item'] as Item | undefined;
  if (!item) return undefined;
  const key: Item = {};
  for (const name of plan.table.keyAttributes) if (item[name] !== undefined) key[name] = item[name];
  return { TableName: target['TableName'], Key: key };
}

/** The item as stored now (a strongly consistent GetItem, not measured), or null. */
async function readItem(client: DynamoDBClient, key: { TableName: unknown; Key: Item }): Promise<Item | null> {
  const output = await send(client, 'GetItem', { TableName: key.TableName, Key: key.Key, ConsistentRead: true });
  return (output['Item'] as Item | undefined) ?? null;
}

/** A write, with the item read before and after it: a write is charged on the larger of the two. */
async function measureWrite(client: DynamoDBClient, plan: RunPlan, request: RunRequest, measured: MeasuredRequest, signal: AbortSignal | undefined): Promise<void> {
  const key = writtenKey(plan, request);
  if (key) measured.before = await readItem(client, key);
  throwIfCanceled(signal);
  const { output, latencyMs } = await timed(client, request.operation, request.input);
  measured.pages.push({ ...capacityOf(output['ConsumedCapacity']), count: 0, scannedCount: 0, latencyMs });
  throwIfCanceled(signal);
  if (key) measured.after = await readItem(client, key);
}

/** For tests: the conversions between DynamoDB JSON and the SDK's values. */
export const forTesting = { toSdk, fromSdk, capacityOf };

