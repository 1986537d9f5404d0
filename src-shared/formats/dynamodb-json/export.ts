/**
 * Items in DynamoDB JSON, as BatchWriteItem requests: files of at most 25 PutRequests each,
 * `{ "RequestItems": { "<table>": [ { "PutRequest": { "Item": { … } } } ] } }`, the input of
 * `aws dynamodb batch-write-item --cli-input-json file://<file>` and of the SDK's BatchWriteItemCommand.
 * `toBatchWriteFiles` writes them; `parseBatchWriteRequest` (`import.ts`) reads one back.
 *
 * Plain values (what sample rows hold: strings, numbers, booleans) become typed DynamoDB JSON by the
 * types the design declares (`encodeValue`, `encodeItem`, `itemTypesOf`): the table's and indexes' key
 * types for key attributes, each entity attribute's type for the rest.
 */
import type { Item } from '../../capacity/index.ts';
import { keySlotsOf } from '../../model/index.ts';
import type { AttributeType, Design, Entity, Table } from '../../model/index.ts';
import { createSampleStore } from '../../sample/index.ts';
import { encodeValue, inferValue, setOwn } from '../common/values.ts';

export { base64Encode, encodeValue } from '../common/values.ts';

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
