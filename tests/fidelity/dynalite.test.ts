/**
 * Fidelity suite: the capacity engine's predictions against what dynalite 4 reports as
 * ConsumedCapacity, for real items written through the AWS SDK v3.
 *
 * dynalite's capacity numbers were written against live DynamoDB, so where it models DynamoDB
 * (docs/dynamodb-rules.md §1.3: GetItem, BatchGetItem, Query and Scan reads summed then rounded
 * per page, table WCU of PutItem/UpdateItem/DeleteItem as the larger of old and new item, LSI reads
 * without fetches) the engine must agree exactly. Where dynalite does not model DynamoDB, the tests
 * say so and pin down the difference instead of comparing:
 * - strings are measured in UTF-16 code units, so every item here is ASCII (where UTF-16 units and
 *   UTF-8 bytes coincide);
 * - Scan ignores ConsistentRead: only eventually consistent scans are compared;
 * - an empty Query costs 0 in dynalite, 0.5 / 1 in DynamoDB (docs/dynamodb-rules.md §2.2, E-16);
 * - an LSI query that fetches base items is rounded once over all fetched items in dynalite, per
 *   item in DynamoDB (docs/dynamodb-rules.md §2.5, E-15);
 * - GSI/LSI write capacity, transactions and throttling are not modeled at all (not compared).
 *
 * Pages: dynalite cuts a page at 1 MB of an internal "compressed" size
 * (docs/dynamodb-rules.md §1.3), while the engine cuts at 1 MB of plain item size
 * (docs/dynamodb-rules.md §10.7). The engine's per-page rule is compared page by page on the pages
 * dynalite actually returned; whole multi-page totals are compared where both cut the same pages,
 * which the big items below are sized for (and which the test asserts first).
 */
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  UpdateItemCommand,
  type AttributeValue as SdkValue,
  type ConsumedCapacity,
  type QueryCommandInput,
  type ScanCommandInput,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  itemSizeBytes,
  type AttributeValue,
  type Item,
  PAGE_BYTES,
  batchGetReadUnits,
  batchWriteUnits,
  getItemReadUnits,
  queryReadUnits,
  readUnitsForBytes,
  scanReadUnits,
  writeUnits,
  type WriteInput,
} from '../../src-shared/capacity/index.ts';

// ---------------------------------------------------------------------------------------------
// Conversions between the engine's DynamoDB JSON (B as base64) and the SDK's (B as bytes)

function toSdk(v: AttributeValue): SdkValue {
  if ('B' in v) return { B: Buffer.from(v.B, 'base64') };
  if ('BS' in v) return { BS: v.BS.map((b) => Buffer.from(b, 'base64')) };
  if ('L' in v) return { L: v.L.map(toSdk) };
  if ('M' in v) return { M: Object.fromEntries(Object.entries(v.M).map(([k, x]) => [k, toSdk(x)])) };
  return v as SdkValue;
}

function fromSdk(v: SdkValue): AttributeValue {
  if (v.B !== undefined) return { B: Buffer.from(v.B).toString('base64') };
  if (v.BS !== undefined) return { BS: v.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (v.L !== undefined) return { L: v.L.map(fromSdk) };
  if (v.M !== undefined) return { M: Object.fromEntries(Object.entries(v.M).map(([k, x]) => [k, fromSdk(x)])) };
  if (v.S !== undefined) return { S: v.S };
  if (v.N !== undefined) return { N: v.N };
  if (v.BOOL !== undefined) return { BOOL: v.BOOL };
  if (v.NULL !== undefined) return { NULL: true };
  if (v.SS !== undefined) return { SS: v.SS };
  if (v.NS !== undefined) return { NS: v.NS };
  throw new Error(`Unexpected attribute value ${JSON.stringify(v)}`);
}

const itemToSdk = (item: Item): Record<string, SdkValue> => Object.fromEntries(Object.entries(item).map(([k, v]) => [k, toSdk(v)]));
const itemFromSdk = (item: Record<string, SdkValue>): Item => Object.fromEntries(Object.entries(item).map(([k, v]) => [k, fromSdk(v)]));
const units = (c: ConsumedCapacity | undefined): number => {
  if (c?.CapacityUnits === undefined) throw new Error('No ConsumedCapacity in the response.');
  return c.CapacityUnits;
};

// ---------------------------------------------------------------------------------------------
// Items (ASCII only: dynalite counts UTF-16 code units)

const S = (s: string): AttributeValue => ({ S: s });
const N = (n: string): AttributeValue => ({ N: n });
const base64Of = (bytes: number): string => Buffer.from(Array.from({ length: bytes }, (_, i) => i % 251)).toString('base64');

/** The item with `attr` a string of the length that makes the item exactly `bytes` bytes. */
function sizedTo(item: Item, attr: string, bytes: number): Item {
  const without = itemSizeBytes({ ...item, [attr]: S('') });
  if (without > bytes) throw new Error(`Item is already ${without} B without ${attr}.`);
  return { ...item, [attr]: S('x'.repeat(bytes - without)) };
}

const TABLE = 'Fidelity';
const VECTORS = 'Vectors';

/** Items of every type and of sizes around the 1 KB and 4 KB boundaries; some in the LSI and GSI. */
const misc: Item[] = [
  { pk: S('misc'), sk: S('a'), kind: S('note'), lsk: S('2024-01-01'), text: S('x'.repeat(100)) },
  {
    pk: S('misc'),
    sk: S('b'),
    lsk: S('2024-01-02'),
    n1: N('3.14159'),
    n2: N('-12.3456'),
    n3: N('1e125'),
    n4: N('0.001'),
    n5: N('-0.015'),
    n6: N('12345678901234567890123456789012345678'),
    flag: { BOOL: true },
    nothing: { NULL: true },
  },
  {
    pk: S('misc'),
    sk: S('c'),
    kind: S('blob'),
    bin: { B: base64Of(3000) },
    bins: { BS: [base64Of(1), base64Of(2), base64Of(100)] },
    strings: { SS: ['a', 'bc', 'def'] },
    numbers: { NS: ['1.23', '12.3', '-7'] },
  },
  {
    pk: S('misc'),
    sk: S('d'),
    kind: S('note'),
    lsk: S('2024-01-04'),
    doc: { M: { list: { L: [S('a'), N('1.5'), { M: { deep: { L: [{ BOOL: false }, { NULL: true }] } } }] }, empty: { M: {} }, none: { L: [] } } },
  },
  sizedTo({ pk: S('misc'), sk: S('e1024'), kind: S('note') }, 'pad', 1024),
  sizedTo({ pk: S('misc'), sk: S('e1025') }, 'pad', 1025),
  sizedTo({ pk: S('misc'), sk: S('f4096'), lsk: S('2024-01-06') }, 'pad', 4096),
  sizedTo({ pk: S('misc'), sk: S('f4097'), kind: S('note') }, 'pad', 4097),
  sizedTo({ pk: S('misc'), sk: S('g'), lsk: S('2024-01-07') }, 'pad', 7 * 1024),
  sizedTo({ pk: S('misc'), sk: S('h'), kind: S('blob') }, 'pad', 20_000),
];

/**
 * 300 items of 10,286 bytes under one partition key: 3 MB, so a Query reads three pages. The size is
 * chosen so that dynalite's compressed page size and the engine's plain size both cut pages of 102
 * items (ceil(1,048,576 / 10,286) = 102, and dynalite's per-item size 10,380 gives 102 too); the test
 * checks that before comparing totals. Ten items are tagged "keep" for the filter tests.
 */
const BIG_COUNT = 300;
const BIG_PAD = 10_260;
const big: Item[] = Array.from({ length: BIG_COUNT }, (_, i) => ({
  pk: S('big'),
  sk: S(`item#${String(i).padStart(3, '0')}`),
  tag: S(i % 30 === 0 ? 'keep' : 'drop'),
  data: S('d'.repeat(BIG_PAD)),
}));
const BIG_BYTES = 10_286;

/** The vectors V-13..V-17 of docs/dynamodb-rules.md §9.1, in a table keyed on `a` alone as in dynalite's tests. */
const K = 'k123456789';
const vectorItems: Record<string, Item> = {
  'V-13': { a: S(`${K}3`.slice(0, 10)), b: S('b'.repeat(999)), c: N('12.3456'), d: { B: 'AQI=' }, e: { BS: ['AQI=', 'Ag==', 'AQ=='] } },
  'V-14': { a: S(`${K}4`.slice(-10)), b: S('b'.repeat(1001)), c: N('12.3456'), d: { B: 'AQI=' }, e: { BS: ['AQI=', 'Ag=='] } },
  'V-15': {
    a: S('v15-------'),
    bb: S('b'.repeat(3999)),
    ccc: N('12.3456'),
    dddd: { B: 'AQI=' },
    eeeee: { BS: ['AQI=', 'Ag==', 'AQ=='] },
    ffffff: { NULL: true },
    ggggggg: { BOOL: true },
    hhhhhhhh: { L: [S('a'), S('aa'), S('bb'), S('ccc')] },
    iiiiiiiii: { M: { aa: S('aa'), bbb: S('bbb') } },
  },
  'V-16': {
    a: S('v16-------'),
    ab: S('b'.repeat(4026)),
    abc: { NULL: true },
    abcd: { BOOL: true },
    abcde: { L: [S('aa'), N('12.3456'), { B: 'AQI=' }] },
    abcdef: { M: { aa: S('aa'), bbb: N('12.3456'), cccc: { B: 'AQI=' } } },
  },
  'V-17': {
    a: S('v17-------'),
    bb: S('b'.repeat(4000)),
    ccc: N('12.3456'),
    dddd: { B: 'AQI=' },
    eeeee: { BS: ['AQI=', 'Ag==', 'AQ=='] },
    ffffff: { NULL: true },
    ggggggg: { BOOL: true },
    hhhhhhhh: { L: [S('a'), S('aa'), S('bb'), S('ccc')] },
    iiiiiiiii: { M: { aa: S('aa'), bbb: S('bbb') } },
  },
};

// ---------------------------------------------------------------------------------------------
// Server and client

let server: ReturnType<typeof dynalite>;
let client: DynamoDBClient;

const key = (item: Item): Record<string, SdkValue> => itemToSdk({ pk: item['pk'] as AttributeValue, sk: item['sk'] as AttributeValue });

async function batchPut(table: string, items: readonly Item[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    const out = await client.send(
      new BatchWriteItemCommand({ RequestItems: { [table]: items.slice(i, i + 25).map((item) => ({ PutRequest: { Item: itemToSdk(item) } })) } }),
    );
    expect(Object.keys(out.UnprocessedItems ?? {})).toEqual([]);
  }
}

interface Page {
  capacity: number;
  scanned: number;
  count: number;
  items: Item[];
}

async function allPages(kind: 'query', input: QueryCommandInput): Promise<Page[]>;
async function allPages(kind: 'scan', input: ScanCommandInput): Promise<Page[]>;
async function allPages(kind: 'query' | 'scan', input: QueryCommandInput | ScanCommandInput): Promise<Page[]> {
  const pages: Page[] = [];
  let start: Record<string, SdkValue> | undefined;
  do {
    const request = { ...input, ReturnConsumedCapacity: 'TOTAL' as const, ...(start ? { ExclusiveStartKey: start } : {}) };
    const out = kind === 'query' ? await client.send(new QueryCommand(request as QueryCommandInput)) : await client.send(new ScanCommand(request as ScanCommandInput));
    pages.push({ capacity: units(out.ConsumedCapacity), scanned: out.ScannedCount ?? 0, count: out.Count ?? 0, items: (out.Items ?? []).map(itemFromSdk) });
    start = out.LastEvaluatedKey;
  } while (start);
  return pages;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const skOf = (item: Item): string => (item['sk'] as { S: string }).S;

beforeAll(async () => {
  server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'fidelity', secretAccessKey: 'fidelity' },
  });
  await client.send(
    new CreateTableCommand({
      TableName: TABLE,
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'lsk', AttributeType: 'S' },
        { AttributeName: 'kind', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      LocalSecondaryIndexes: [
        {
          IndexName: 'byLsk',
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'lsk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byKind',
          KeySchema: [
            { AttributeName: 'kind', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
          ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
        },
      ],
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
    }),
  );
  await client.send(
    new CreateTableCommand({
      TableName: VECTORS,
      AttributeDefinitions: [{ AttributeName: 'a', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'a', KeyType: 'HASH' }],
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
    }),
  );
  await batchPut(TABLE, [...misc, ...big]);
}, 20_000);

afterAll(async () => {
  client?.destroy();
  await new Promise<void>((resolve, reject) => server?.close((err) => (err ? reject(err) : resolve())));
});

// ---------------------------------------------------------------------------------------------

describe('the engine’s own worked examples', () => {
  it('E-1: a Scan of 1,000,000 items of 1 KB, eventually consistent, costs 125,000 RCU', () => {
    expect(scanReadUnits({ segments: [{ itemCount: 1_000_000, itemBytes: 1024 }], consistency: 'eventual' }).value).toBe(125_000);
  });

  it('E-3: a Query of 10,000 items of 1 KB, eventually consistent, costs 1,250 RCU', () => {
    expect(queryReadUnits({ itemCount: 10_000, itemBytes: 1024, consistency: 'eventual', target: 'table' }).value).toBe(1250);
  });

  it('E-4: with a filter keeping 100 of them it still costs 1,250 RCU', () => {
    expect(queryReadUnits({ itemCount: 10_000, itemBytes: 1024, consistency: 'eventual', target: 'table', itemsReturned: 100 }).value).toBe(1250);
  });
});

describe('item sizes as dynalite measures them (ASCII items)', () => {
  it('the vectors V-13..V-17 have the sizes of docs/dynamodb-rules.md §9.1', () => {
    expect(Object.fromEntries(Object.entries(vectorItems).map(([id, item]) => [id, itemSizeBytes(item)]))).toEqual({
      'V-13': 1024,
      'V-14': 1025,
      'V-15': 4096,
      'V-16': 4096,
      'V-17': 4097,
    });
  });

  it('E-17: PutItem of V-13 costs 1 WCU and of V-14 2 WCU, as predicted', async () => {
    const got: number[] = [];
    for (const id of ['V-13', 'V-14', 'V-15', 'V-16', 'V-17']) {
      const item = vectorItems[id] as Item;
      const out = await client.send(new PutItemCommand({ TableName: VECTORS, Item: itemToSdk(item), ReturnConsumedCapacity: 'TOTAL' }));
      expect(units(out.ConsumedCapacity), id).toBe(writeUnits({ kind: 'put', newItemBytes: itemSizeBytes(item), transactional: false, indexes: [] }).total.value);
      got.push(units(out.ConsumedCapacity));
    }
    expect(got).toEqual([1, 2, 4, 4, 5]);
  });

  it('GetItem of V-15, V-16 and V-17, strongly consistent, costs 1, 1 and 2 RCU, as predicted', async () => {
    const got: number[] = [];
    for (const id of ['V-15', 'V-16', 'V-17']) {
      const item = vectorItems[id] as Item;
      const out = await client.send(new GetItemCommand({ TableName: VECTORS, Key: itemToSdk({ a: item['a'] as AttributeValue }), ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL' }));
      expect(units(out.ConsumedCapacity), id).toBe(getItemReadUnits(itemSizeBytes(item), 'strong').value);
      got.push(units(out.ConsumedCapacity));
    }
    expect(got).toEqual([1, 1, 2]);
  });

  it('the items read back have the sizes they were written with', async () => {
    for (const item of misc) {
      const out = await client.send(new GetItemCommand({ TableName: TABLE, Key: key(item) }));
      expect(itemSizeBytes(itemFromSdk(out.Item ?? {}))).toBe(itemSizeBytes(item));
    }
  });
});

describe('GetItem and BatchGetItem', () => {
  it.each(['eventual', 'strong'] as const)('GetItem of every kind of item (%s) costs what the engine predicts', async (consistency) => {
    for (const item of misc) {
      const out = await client.send(new GetItemCommand({ TableName: TABLE, Key: key(item), ConsistentRead: consistency === 'strong', ReturnConsumedCapacity: 'TOTAL' }));
      expect(units(out.ConsumedCapacity), skOf(item)).toBe(getItemReadUnits(itemSizeBytes(item), consistency).value);
    }
  });

  it.each([
    { consistency: 'eventual', rcu: 0.5 },
    { consistency: 'strong', rcu: 1 },
  ] as const)('E-8: GetItem of a missing key ($consistency) costs $rcu RCU', async ({ consistency, rcu }) => {
    const out = await client.send(new GetItemCommand({ TableName: TABLE, Key: itemToSdk({ pk: S('misc'), sk: S('nope') }), ConsistentRead: consistency === 'strong', ReturnConsumedCapacity: 'TOTAL' }));
    expect(units(out.ConsumedCapacity)).toBe(rcu);
    expect(getItemReadUnits(undefined, consistency).value).toBe(rcu);
  });

  it('E-5: a ProjectionExpression does not lower the cost of a GetItem', async () => {
    const item = misc.at(-1) as Item;
    const out = await client.send(new GetItemCommand({ TableName: TABLE, Key: key(item), ProjectionExpression: 'pk', ReturnConsumedCapacity: 'TOTAL' }));
    expect(units(out.ConsumedCapacity)).toBe(getItemReadUnits(itemSizeBytes(item), 'eventual').value);
  });

  it.each(['eventual', 'strong'] as const)('BatchGetItem (%s) rounds each item on its own, missing keys included', async (consistency) => {
    const keys = [...misc.slice(4), { pk: S('misc'), sk: S('missing-1') }, { pk: S('misc'), sk: S('missing-2') }];
    const out = await client.send(
      new BatchGetItemCommand({ RequestItems: { [TABLE]: { Keys: keys.map(key), ConsistentRead: consistency === 'strong' } }, ReturnConsumedCapacity: 'TOTAL' }),
    );
    const sizes = keys.map((k) => {
      const found = misc.find((m) => skOf(m) === skOf(k));
      return found ? itemSizeBytes(found) : undefined;
    });
    expect(units(out.ConsumedCapacity?.[0])).toBe(batchGetReadUnits(sizes, consistency).value);
  });

  it('E-10 / E-11: a 4,096 B item, an 11 B item and a missing key cost 1.5 RCU eventual; 4,097 B: 2 RCU', async () => {
    const small: Item = { a: S('eleven-B-a') };
    const item4096 = sizedTo({ a: S('size-4096-') }, 'b', 4096);
    const item4097 = sizedTo({ a: S('size-4097-') }, 'b', 4097);
    await batchPut(VECTORS, [small, item4096, item4097]);
    for (const [first, rcu] of [
      [item4096, 1.5],
      [item4097, 2],
    ] as const) {
      const keys = [first, small, { a: S('not-there-') }].map((i) => itemToSdk({ a: i['a'] as AttributeValue }));
      const out = await client.send(new BatchGetItemCommand({ RequestItems: { [VECTORS]: { Keys: keys } }, ReturnConsumedCapacity: 'TOTAL' }));
      expect(units(out.ConsumedCapacity?.[0])).toBe(rcu);
      expect(batchGetReadUnits([itemSizeBytes(first), itemSizeBytes(small), undefined], 'eventual').value).toBe(rcu);
    }
  });
});

describe('Query', () => {
  const bigQuery: QueryCommandInput = { TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: 'big' } } };

  it('the big items are 10,286 B and both cut pages of 102 items (the precondition of the total comparisons)', async () => {
    expect(new Set(big.map(itemSizeBytes))).toEqual(new Set([BIG_BYTES]));
    expect(Math.ceil(PAGE_BYTES / BIG_BYTES)).toBe(102);
    const pages = await allPages('query', bigQuery);
    expect(pages.map((p) => p.scanned)).toEqual([102, 102, 96]);
    const engine = queryReadUnits({ itemCount: BIG_COUNT, itemBytes: BIG_BYTES, consistency: 'eventual', target: 'table' });
    expect(engine.steps.find((s) => s.unit === 'pages')?.expression).toBe('2 full pages of 102 items + 1 page of 96 items');
  });

  it.each(['eventual', 'strong'] as const)('each page costs its items summed and rounded up to 4 KB once (%s)', async (consistency) => {
    const pages = await allPages('query', { ...bigQuery, ConsistentRead: consistency === 'strong' });
    for (const page of pages) {
      expect(page.capacity).toBe(readUnitsForBytes(sum(page.items.map(itemSizeBytes)), consistency));
    }
  });

  it.each(['eventual', 'strong'] as const)('a 3-page Query costs what queryReadUnits predicts (%s)', async (consistency) => {
    const pages = await allPages('query', { ...bigQuery, ConsistentRead: consistency === 'strong' });
    const predicted = queryReadUnits({ itemCount: BIG_COUNT, itemBytes: BIG_BYTES, consistency, target: 'table' }).value;
    expect(sum(pages.map((p) => p.capacity))).toBe(predicted);
    // 2 × ceil(102 × 10,286 / 4,096) + ceil(96 × 10,286 / 4,096) = 2 × 257 + 242 = 756 blocks.
    expect(predicted).toBe(consistency === 'eventual' ? 378 : 756);
  });

  it('E-4: a FilterExpression keeping 10 items costs the same; Count 10, ScannedCount 300', async () => {
    const pages = await allPages('query', { ...bigQuery, FilterExpression: 'tag = :keep', ExpressionAttributeValues: { ':pk': { S: 'big' }, ':keep': { S: 'keep' } } });
    expect(sum(pages.map((p) => p.count))).toBe(10);
    expect(sum(pages.map((p) => p.scanned))).toBe(300);
    // The filtered pages return fewer items, so the sizes read come from the items written, in sort-key
    // order, page by page per ScannedCount.
    let offset = 0;
    for (const page of pages) {
      const read = big.slice(offset, offset + page.scanned);
      offset += page.scanned;
      expect(page.capacity).toBe(readUnitsForBytes(sum(read.map(itemSizeBytes)), 'eventual'));
    }
    const predicted = queryReadUnits({ itemCount: BIG_COUNT, itemBytes: BIG_BYTES, consistency: 'eventual', target: 'table', itemsReturned: 10 });
    expect(sum(pages.map((p) => p.capacity))).toBe(predicted.value);
  });

  it('E-5: a ProjectionExpression or Select=COUNT does not lower the cost', async () => {
    const full = sum((await allPages('query', bigQuery)).map((p) => p.capacity));
    const projected = sum((await allPages('query', { ...bigQuery, ProjectionExpression: 'sk' })).map((p) => p.capacity));
    const counted = sum((await allPages('query', { ...bigQuery, Select: 'COUNT' })).map((p) => p.capacity));
    expect([projected, counted]).toEqual([full, full]);
  });

  it('a single-page Query of mixed items costs their sum rounded once', async () => {
    for (const consistency of ['eventual', 'strong'] as const) {
      const [page, ...more] = await allPages('query', {
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: 'misc' } },
        ConsistentRead: consistency === 'strong',
      });
      expect(more).toEqual([]);
      const bytes = sum(misc.map(itemSizeBytes));
      expect(page?.capacity).toBe(queryReadUnits({ itemCount: misc.length, itemBytes: bytes / misc.length, consistency, target: 'table' }).value);
    }
  });

  it.each(['eventual', 'strong'] as const)('an LSI Query (%s) costs its KEYS_ONLY entries summed and rounded once', async (consistency) => {
    const [page] = await allPages('query', {
      TableName: TABLE,
      IndexName: 'byLsk',
      KeyConditionExpression: 'pk = :pk AND lsk >= :from',
      ExpressionAttributeValues: { ':pk': { S: 'misc' }, ':from': { S: '2024-01-01' } },
      ConsistentRead: consistency === 'strong',
    });
    const inIndex = misc.filter((m) => m['lsk'] !== undefined);
    const entries = inIndex.map((m) => itemSizeBytes({ pk: m['pk'] as AttributeValue, sk: m['sk'] as AttributeValue, lsk: m['lsk'] as AttributeValue }));
    expect(page?.count).toBe(inIndex.length);
    expect(page?.capacity).toBe(queryReadUnits({ itemCount: entries.length, itemBytes: sum(entries) / entries.length, consistency, target: 'lsi' }).value);
  });

  it('a GSI Query costs its KEYS_ONLY entries, eventually consistent', async () => {
    const [page] = await allPages('query', { TableName: TABLE, IndexName: 'byKind', KeyConditionExpression: 'kind = :k', ExpressionAttributeValues: { ':k': { S: 'note' } } });
    const inIndex = misc.filter((m) => (m['kind'] as { S?: string } | undefined)?.S === 'note');
    const entries = inIndex.map((m) => itemSizeBytes({ kind: m['kind'] as AttributeValue, pk: m['pk'] as AttributeValue, sk: m['sk'] as AttributeValue }));
    expect(page?.count).toBe(inIndex.length);
    expect(page?.capacity).toBe(queryReadUnits({ itemCount: entries.length, itemBytes: sum(entries) / entries.length, consistency: 'strong', target: 'gsi' }).value);
  });

  it('a KEYS_ONLY GSI that lacks what the caller needs: the GSI Query plus a BatchGetItem of the items on the table, each charged as predicted', async () => {
    const [page] = await allPages('query', { TableName: TABLE, IndexName: 'byKind', KeyConditionExpression: 'kind = :k', ExpressionAttributeValues: { ':k': { S: 'note' } } });
    const keys = (page?.items ?? []).map((entry) => ({ pk: entry['pk'] as AttributeValue, sk: entry['sk'] as AttributeValue }));
    expect(keys.length).toBeGreaterThan(1);
    const out = await client.send(new BatchGetItemCommand({ RequestItems: { [TABLE]: { Keys: keys.map((k) => itemToSdk(k)) } }, ReturnConsumedCapacity: 'TOTAL' }));
    const fetched = keys.map((k) => misc.find((m) => skOf(m) === (k.sk as { S: string }).S)!);
    // The fetch is a BatchGetItem: each base item rounded up to 4 KB on its own, eventually consistent.
    expect(units(out.ConsumedCapacity?.[0])).toBe(batchGetReadUnits(fetched.map((m) => itemSizeBytes(m)), 'eventual').value);
    expect(out.Responses?.[TABLE]).toHaveLength(keys.length);
  });

  it('documented difference (E-15): dynalite rounds LSI fetches once over all items, DynamoDB per item', async () => {
    const [page] = await allPages('query', {
      TableName: TABLE,
      IndexName: 'byLsk',
      KeyConditionExpression: 'pk = :pk AND lsk >= :from',
      ExpressionAttributeValues: { ':pk': { S: 'misc' }, ':from': { S: '2024-01-01' } },
      Select: 'ALL_ATTRIBUTES',
      ConsistentRead: true,
    });
    const inIndex = misc.filter((m) => m['lsk'] !== undefined);
    const entries = inIndex.map((m) => itemSizeBytes({ pk: m['pk'] as AttributeValue, sk: m['sk'] as AttributeValue, lsk: m['lsk'] as AttributeValue }));
    const bases = inIndex.map(itemSizeBytes);
    expect(page?.capacity).toBe(readUnitsForBytes(sum(entries), 'strong') + readUnitsForBytes(sum(bases), 'strong'));
    const perItem = readUnitsForBytes(sum(entries), 'strong') + sum(bases.map((b) => readUnitsForBytes(b, 'strong')));
    expect(perItem).toBeGreaterThan(page?.capacity ?? 0);
    // The engine charges per fetched item (DG LSI.md). With items of one size it equals perItem.
    const uniform = queryReadUnits({ itemCount: 4, itemBytes: 200, consistency: 'strong', target: 'lsi', lsiFetch: { baseItemBytes: 300 } });
    expect(uniform.value).toBe(readUnitsForBytes(800, 'strong') + 4 * readUnitsForBytes(300, 'strong'));
  });

  it('documented difference (E-16): an empty Query costs 0 in dynalite and the 0.5 minimum in the engine', async () => {
    const [page] = await allPages('query', { TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: 'nobody' } } });
    expect(page?.capacity).toBe(0);
    expect(queryReadUnits({ itemCount: 0, itemBytes: 0, consistency: 'eventual', target: 'table' }).value).toBe(0.5);
  });
});

describe('Scan (eventually consistent only: dynalite ignores ConsistentRead on Scan)', () => {
  it('reads every item; each page costs its items summed and rounded once, and the total is within a block per page of scanReadUnits', async () => {
    const pages = await allPages('scan', { TableName: TABLE, FilterExpression: 'attribute_exists(kind)' });
    const all = await allPages('scan', { TableName: TABLE });
    const everything = [...misc, ...big];
    expect(sum(pages.map((p) => p.scanned))).toBe(everything.length);
    expect(sum(pages.map((p) => p.count))).toBe(misc.filter((m) => m['kind']).length);
    expect(pages.map((p) => p.capacity)).toEqual(all.map((p) => p.capacity));
    for (const page of all) {
      expect(page.capacity).toBe(readUnitsForBytes(sum(page.items.map(itemSizeBytes)), 'eventual'));
    }
    // dynalite cuts mixed-size pages at a compressed size, the engine at the average plain size: the
    // totals then differ by page rounding only, at most half a unit per page.
    const engine = scanReadUnits({
      segments: [
        { itemCount: misc.length, itemBytes: sum(misc.map(itemSizeBytes)) / misc.length, label: 'misc' },
        { itemCount: big.length, itemBytes: BIG_BYTES, label: 'big' },
      ],
      consistency: 'eventual',
    });
    const enginePages = engine.steps.find((s) => s.unit === 'pages')?.value ?? 0;
    expect(Math.abs(engine.value - sum(all.map((p) => p.capacity)))).toBeLessThanOrEqual(0.5 * Math.max(enginePages, all.length));
  });
});

describe('PutItem, UpdateItem, DeleteItem, BatchWriteItem', () => {
  /** Writes under pk "w" carry no lsk or kind, so no index is written and dynalite's table-only number is the whole cost. */
  const none = [
    { target: { kind: 'lsi' as const, name: 'byLsk' }, effect: 'none' as const },
    { target: { kind: 'gsi' as const, name: 'byKind' }, effect: 'none' as const },
  ];
  const expectWrite = (consumed: ConsumedCapacity | undefined, input: Omit<WriteInput, 'transactional' | 'indexes'>): void => {
    const w = writeUnits({ ...input, transactional: false, indexes: none });
    expect(w.total.value).toBe(w.table.value);
    expect(units(consumed)).toBe(w.total.value);
  };
  const put = async (item: Item) => client.send(new PutItemCommand({ TableName: TABLE, Item: itemToSdk(item), ReturnConsumedCapacity: 'TOTAL' }));

  it('PutItem charges the larger of the new item and the one it replaces (E-25)', async () => {
    const first = sizedTo({ pk: S('w'), sk: S('put') }, 'pad', 1500);
    const small = sizedTo({ pk: S('w'), sk: S('put') }, 'pad', 300);
    expectWrite((await put(first)).ConsumedCapacity, { kind: 'put', newItemBytes: 1500 });
    expectWrite((await put(small)).ConsumedCapacity, { kind: 'put', oldItemBytes: 1500, newItemBytes: 300 });
    expectWrite((await put(small)).ConsumedCapacity, { kind: 'put', oldItemBytes: 300, newItemBytes: 300 });
    const units2 = [(await put(first)).ConsumedCapacity, (await put(small)).ConsumedCapacity, (await put(small)).ConsumedCapacity].map(units);
    expect(units2).toEqual([2, 2, 1]);
  });

  it('UpdateItem charges the larger of the item before and after (E-24), and an upsert the new item', async () => {
    const before = sizedTo({ pk: S('w'), sk: S('upd') }, 'pad', 3300);
    await put(before);
    const shrink = await client.send(
      new UpdateItemCommand({
        TableName: TABLE,
        Key: key(before),
        UpdateExpression: 'SET #pad = :p',
        ExpressionAttributeNames: { '#pad': 'pad' },
        ExpressionAttributeValues: { ':p': { S: 'x'.repeat(800) } },
        ReturnValues: 'ALL_NEW',
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    const after = itemSizeBytes(itemFromSdk(shrink.Attributes ?? {}));
    expectWrite(shrink.ConsumedCapacity, { kind: 'update', oldItemBytes: 3300, newItemBytes: after });
    expect(units(shrink.ConsumedCapacity)).toBe(4);

    const upsert = await client.send(
      new UpdateItemCommand({
        TableName: TABLE,
        Key: itemToSdk({ pk: S('w'), sk: S('upsert') }),
        UpdateExpression: 'SET #pad = :p',
        ExpressionAttributeNames: { '#pad': 'pad' },
        ExpressionAttributeValues: { ':p': { S: 'x'.repeat(2100) } },
        ReturnValues: 'ALL_NEW',
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    expectWrite(upsert.ConsumedCapacity, { kind: 'update', newItemBytes: itemSizeBytes(itemFromSdk(upsert.Attributes ?? {})) });
  });

  it('DeleteItem charges the deleted item, and 1 WCU for a missing key', async () => {
    const doomed = sizedTo({ pk: S('w'), sk: S('del') }, 'pad', 5000);
    await put(doomed);
    const del = async (k: Item) => client.send(new DeleteItemCommand({ TableName: TABLE, Key: key(k), ReturnConsumedCapacity: 'TOTAL' }));
    expectWrite((await del(doomed)).ConsumedCapacity, { kind: 'delete', oldItemBytes: 5000 });
    expectWrite((await del(doomed)).ConsumedCapacity, { kind: 'delete' });
  });

  it('E-27: BatchWriteItem rounds each item on its own', async () => {
    const items = [500, 3.5 * 1024, 1024].map((bytes, i) => sizedTo({ pk: S('w'), sk: S(`batch-${i}`) }, 'pad', bytes));
    const out = await client.send(
      new BatchWriteItemCommand({ RequestItems: { [TABLE]: items.map((item) => ({ PutRequest: { Item: itemToSdk(item) } })) }, ReturnConsumedCapacity: 'TOTAL' }),
    );
    expect(units(out.ConsumedCapacity?.[0])).toBe(batchWriteUnits(items.map(itemSizeBytes)).value);
    expect(units(out.ConsumedCapacity?.[0])).toBe(6);
  });
});
