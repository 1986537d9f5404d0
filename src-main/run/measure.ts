/**
 * One planned access-pattern request sent and measured: its pages (Query and Scan page by page,
 * BatchGetItem's retries of UnprocessedKeys as pages of their own), each page's consumed capacity,
 * count and latency, the items each page read (from the request's witness), and for a write the item
 * before and after it. The engine's refusal is recorded on the request, not thrown.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { performance } from 'node:perf_hooks';
import type { Item } from '../../src-shared/capacity/index.ts';
import { AppError } from '../../src-shared/errors.ts';
import type { MeasuredPage, MeasuredRequest, RunOperation, RunPlan, RunRequest } from '../../src-shared/run/index.ts';
import { describeError } from './engine.ts';
import { backoff, capacityOf, isEmpty, itemsOf, MAX_BATCH_TRIES, pause, send, throwIfCanceled, type Output } from './sdk.ts';

/** Sends one planned request and measures it; the engine's refusal is recorded, not thrown. */
export async function measureRequest(client: DynamoDBClient, plan: RunPlan, request: RunRequest, signal: AbortSignal | undefined): Promise<MeasuredRequest> {
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
