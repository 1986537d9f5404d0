/**
 * Items in DynamoDB JSON, as BatchWriteItem requests: files of at most 25 PutRequests each,
 * `{ "RequestItems": { "<table>": [ { "PutRequest": { "Item": { … } } } ] } }`, the input of
 * `aws dynamodb batch-write-item --cli-input-json file://<file>` and of the SDK's BatchWriteItemCommand.
 * Both directions: `toBatchWriteFiles` writes them, `parseBatchWriteRequest` reads one back.
 *
 * Plain values (what sample rows hold: strings, numbers, booleans) become typed DynamoDB JSON by the
 * types the design declares (`encodeValue`, `encodeItem`, `itemTypesOf`): the table's and indexes' key
 * types for key attributes, each entity attribute's type for the rest.
 */
import { parseDynamoDbItem, type Item } from '../../capacity/item-size.ts';
import { fail, ok, type Result } from '../../errors.ts';
import { keySlotsOf } from '../../model/key-slots.ts';
import type { Problem } from '../../model/problems.ts';
import type { AttributeType, Design, Entity, Table } from '../../model/schema.ts';
import { describeValue, joinPath } from '../../model/validate.ts';
import { createSampleStore } from '../../sample/store.ts';
import { encodeValue, inferValue, isRecord, setOwn } from '../common/values.ts';

export { base64Encode, encodeValue } from '../common/values.ts';

/** Codes of the problems `parseBatchWriteRequest` raises (besides the `item.*` codes of the items). */
export type DynamoDbJsonErrorCode = 'dynamodbJson.notBatchWrite' | 'dynamodbJson.badRequest' | 'dynamodbJson.tooManyRequests' | 'dynamodbJson.duplicateItem';

/** Put or delete requests in one BatchWriteItem call. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html */
export const MAX_BATCH_WRITE_REQUESTS = 25;

/** The declared type of every attribute an entity's items hold: key attributes by their key type, the others by the entity's attributes. */
export function itemTypesOf(table: Table, entity: Entity): Map<string, AttributeType> {
  const types = new Map<string, AttributeType>();
  for (const a of entity.attributes) types.set(a.name, a.type);
  for (const slot of keySlotsOf(table)) types.set(slot.attribute.name, slot.attribute.type);
  return types;
}

/**
 * Plain values as a DynamoDB JSON item, each typed by `types` (attributes without a declared type by
 * their JavaScript type). Values that cannot be of their type are left out.
 */
export function encodeItem(values: Readonly<Record<string, unknown>>, types: ReadonlyMap<string, AttributeType>): Item {
  const item: Item = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const type = types.get(name);
    const encoded = type ? encodeValue(value, type) : inferValue(value);
    if (encoded !== undefined) setOwn(item, name, encoded);
  }
  return item;
}

export interface DynamoDbJsonOptions extends BatchWriteOptions {
  /** Items per table, at most (default 100): the entities' item counts scaled down together, keeping their proportions. */
  maxItemsPerTable?: number;
  /** Seed of the sample data (default 1): the same design and seed give the same items. */
  seed?: number;
}

/** Items written per table unless told otherwise. */
export const DEFAULT_ITEMS_PER_TABLE = 100;

/**
 * Sample items of every table of the design as BatchWriteItem request files: the same seeded items
 * the app's data screen shows (`createSampleStore`: values from the attributes' generators and
 * distributions, references between entities, keys rendered from the templates, sparse index keys
 * only where their conditions hold), at most `maxItemsPerTable` per table, in the table's key order.
 * Deterministic for a given seed.
 */
export function toDynamoDbJsonFiles(design: Design, options: DynamoDbJsonOptions = {}): BatchWriteFile[] {
  const maxItems = Math.max(0, Math.floor(options.maxItemsPerTable ?? DEFAULT_ITEMS_PER_TABLE));
  const tables: TableItems[] = design.tables.map((table) => {
    const store = createSampleStore(design, table.id, { seed: options.seed ?? 1, maxItems });
    const count = store.summary().views.find((v) => v.kind === 'table')?.itemCount ?? 0;
    return {
      tableName: table.name,
      keyNames: [table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])],
      items: (function* () {
        for (let i = 0; i < count; i += 1) yield store.itemAt('table', i);
      })(),
    };
  });
  return toBatchWriteFiles(tables, options);
}

/** The same requests as `toDynamoDbJsonFiles`, one per line (JSON Lines), for a preview or a pipe. */
export function toDynamoDbJson(design: Design, options: DynamoDbJsonOptions = {}): string {
  return toDynamoDbJsonFiles(design, options)
    .map((f) => `${JSON.stringify(JSON.parse(f.content))}\n`)
    .join('');
}

/** The items of one table to write. */
export interface TableItems {
  tableName: string;
  /** The key attribute names, to drop repeated items (BatchWriteItem rejects a request that writes one key twice). */
  keyNames: readonly string[];
  items: Iterable<Item>;
}

/** One BatchWriteItem request file. */
export interface BatchWriteFile {
  fileName: string;
  tableName: string;
  itemCount: number;
  /** The JSON text (two-space indents, final newline). */
  content: string;
}

export interface BatchWriteOptions {
  /** File names are `<stem>-001.json`, `<stem>-002.json` … across all tables; default `items`. */
  stem?: string;
  /** PutRequests per file, 1–25 (default 25). */
  batchSize?: number;
}

/**
 * Items as BatchWriteItem request files of at most 25 PutRequests, one table per file, numbered in
 * order. An item whose key was already written is dropped (the later one would replace it anyway).
 * Deterministic.
 */
export function toBatchWriteFiles(tables: readonly TableItems[], options: BatchWriteOptions = {}): BatchWriteFile[] {
  const size = Math.max(1, Math.min(MAX_BATCH_WRITE_REQUESTS, Math.floor(options.batchSize ?? MAX_BATCH_WRITE_REQUESTS)));
  const stem = options.stem ?? 'items';
  const batches: Array<{ tableName: string; items: Item[] }> = [];
  for (const table of tables) {
    const seen = new Set<string>();
    let batch: Item[] = [];
    for (const item of table.items) {
      const key = JSON.stringify(table.keyNames.map((k) => item[k] ?? null));
      if (seen.has(key)) continue;
      seen.add(key);
      batch.push(item);
      if (batch.length === size) {
        batches.push({ tableName: table.tableName, items: batch });
        batch = [];
      }
    }
    if (batch.length > 0) batches.push({ tableName: table.tableName, items: batch });
  }
  const width = Math.max(3, String(batches.length).length);
  return batches.map((b, i) => {
    const request = { RequestItems: { [b.tableName]: b.items.map((Item) => ({ PutRequest: { Item } })) } };
    return { fileName: `${stem}-${String(i + 1).padStart(width, '0')}.json`, tableName: b.tableName, itemCount: b.items.length, content: `${JSON.stringify(request, null, 2)}\n` };
  });
}

/** The items a BatchWriteItem request puts, per table. */
export interface BatchWriteItems {
  tableName: string;
  items: Item[];
}

function problem(code: DynamoDbJsonErrorCode, path: string, message: string, found: string, expected: string): Problem {
  return { code, path, message, found, expected };
}

/**
 * Reads one BatchWriteItem request (`{ "RequestItems": { "<table>": [ { "PutRequest": { "Item": … } } ] } }`,
 * or the bare RequestItems map that `--request-items` takes), collecting every problem with its path:
 * `dynamodbJson.notBatchWrite` (not such a request: one problem), `dynamodbJson.badRequest` (a request
 * that is not a PutRequest with an Item), `dynamodbJson.tooManyRequests` (over 25),
 * `dynamodbJson.duplicateItem` (the same item twice), and the `item.*` problems of each item. Never throws.
 */
export function parseBatchWriteRequest(json: unknown): Result<BatchWriteItems[], Problem> {
  const wrapped = isRecord(json) && Object.hasOwn(json, 'RequestItems');
  const requestItems = wrapped ? json.RequestItems : json;
  const base = wrapped ? 'RequestItems' : '';
  const expected = 'an object {"RequestItems": {"<table>": [{"PutRequest": {"Item": {…}}}]}}';
  if (!isRecord(requestItems) || Object.values(requestItems).some((v) => !Array.isArray(v))) {
    const found = describeValue(requestItems);
    return fail([problem('dynamodbJson.notBatchWrite', base, `This is not a BatchWriteItem request: expected ${expected}; found ${found}.`, found, expected)]);
  }
  const problems: Problem[] = [];
  const tables: BatchWriteItems[] = [];
  let total = 0;
  for (const [tableName, requests] of Object.entries(requestItems) as Array<[string, unknown[]]>) {
    const tp = joinPath(base, tableName);
    const items: Item[] = [];
    const seen = new Set<string>();
    requests.forEach((request, i) => {
      const rp = joinPath(tp, i);
      total += 1;
      const put = isRecord(request) ? request.PutRequest : undefined;
      if (!isRecord(request) || !isRecord(put) || !Object.hasOwn(put, 'Item')) {
        const found = isRecord(request) && Object.hasOwn(request, 'DeleteRequest') ? 'a DeleteRequest' : describeValue(request);
        problems.push(problem('dynamodbJson.badRequest', rp, `Request ${i + 1} for table ${JSON.stringify(tableName)} is ${found}; expected {"PutRequest": {"Item": {…}}}.`, found, 'a PutRequest with an Item'));
        return;
      }
      const parsed = parseDynamoDbItem(put.Item, joinPath(joinPath(rp, 'PutRequest'), 'Item'));
      if (!parsed.ok) {
        problems.push(...parsed.errors);
        return;
      }
      const text = JSON.stringify(parsed.value);
      if (seen.has(text)) {
        problems.push(problem('dynamodbJson.duplicateItem', rp, `Request ${i + 1} for table ${JSON.stringify(tableName)} puts the same item as an earlier one; expected each item once (BatchWriteItem rejects duplicates).`, 'a repeated item', 'each item once'));
        return;
      }
      seen.add(text);
      items.push(parsed.value);
    });
    tables.push({ tableName, items });
  }
  if (total > MAX_BATCH_WRITE_REQUESTS) {
    problems.push(
      problem('dynamodbJson.tooManyRequests', base, `The request holds ${total} write requests; expected at most ${MAX_BATCH_WRITE_REQUESTS} (BatchWriteItem's limit).`, `${total} requests`, `at most ${MAX_BATCH_WRITE_REQUESTS}`),
    );
  }
  return problems.length > 0 ? fail(problems) : ok(tables);
}
