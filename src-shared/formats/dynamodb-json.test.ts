import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Item } from '../capacity/item-size.ts';
import type { AttributeType, Design } from '../model/schema.ts';
import { encodeItem, encodeValue, itemTypesOf, parseBatchWriteRequest, toBatchWriteFiles, toDynamoDbJson, toDynamoDbJsonFiles } from './dynamodb-json.ts';

const load = (path: string): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, path), 'utf8')) as Design;
const items = (n: number): Item[] => Array.from({ length: n }, (_, i) => ({ PK: { S: `K#${i}` }, n: { N: String(i) } }));

describe('encodeValue', () => {
  it.each<[unknown, AttributeType, unknown]>([
    ['a', 'S', { S: 'a' }],
    [42, 'S', { S: '42' }],
    [42, 'N', { N: '42' }],
    ['-1.5e3', 'N', { N: '-1.5e3' }],
    ['abc', 'N', undefined],
    [Number.NaN, 'N', undefined],
    ['AQI=', 'B', { B: 'AQI=' }],
    [new Uint8Array([1, 2]), 'B', { B: 'AQI=' }],
    [true, 'BOOL', { BOOL: true }],
    ['false', 'BOOL', { BOOL: false }],
    [null, 'NULL', { NULL: true }],
    [['a', 'a', 'b'], 'SS', { SS: ['a', 'b'] }],
    [[], 'SS', undefined],
    [[1, '2'], 'NS', { NS: ['1', '2'] }],
    [[1, 'x', { a: null }], 'L', { L: [{ N: '1' }, { S: 'x' }, { M: { a: { NULL: true } } }] }],
    [{ a: [true] }, 'M', { M: { a: { L: [{ BOOL: true }] } } }],
    ['x', 'M', undefined],
  ])('%j as %s is %j', (value, type, expected) => {
    expect(encodeValue(value, type)).toEqual(expected);
  });

  it('types an item by the design: key attributes by their key type, others by the entity', () => {
    const design = load('__fixtures__/all-settings.keyplan.json');
    const table = design.tables[0]!;
    const types = itemTypesOf(table, table.entities[0]!);
    expect(encodeItem({ PK: 'CUSTOMER#1', total: '12', gift: false, other: 3, __proto__x: 'y' }, types)).toEqual({
      PK: { S: 'CUSTOMER#1' },
      total: { N: '12' },
      gift: { BOOL: false },
      other: { N: '3' },
      __proto__x: { S: 'y' },
    });
  });
});

describe('toBatchWriteFiles', () => {
  it('writes at most 25 PutRequests per file, numbered across tables', () => {
    const files = toBatchWriteFiles([
      { tableName: 'A', keyNames: ['PK'], items: items(51) },
      { tableName: 'B', keyNames: ['PK'], items: items(3) },
    ]);
    expect(files.map((f) => [f.fileName, f.tableName, f.itemCount])).toEqual([
      ['items-001.json', 'A', 25],
      ['items-002.json', 'A', 25],
      ['items-003.json', 'A', 1],
      ['items-004.json', 'B', 3],
    ]);
    expect(JSON.parse(files[3]!.content)).toEqual({ RequestItems: { B: items(3).map((Item) => ({ PutRequest: { Item } })) } });
  });

  it('drops an item whose key was already written (BatchWriteItem rejects repeated keys)', () => {
    const [file] = toBatchWriteFiles([{ tableName: 'A', keyNames: ['PK'], items: [...items(2), { PK: { S: 'K#0' }, n: { N: '9' } }] }], { stem: 'x' });
    expect(file).toMatchObject({ fileName: 'x-001.json', itemCount: 2 });
  });

  it('reads back what it wrote', () => {
    for (const file of toDynamoDbJsonFiles(load('__fixtures__/all-settings.keyplan.json'), { itemsPerEntity: 30 })) {
      const parsed = parseBatchWriteRequest(JSON.parse(file.content));
      expect(parsed.ok && parsed.value).toEqual([{ tableName: file.tableName, items: JSON.parse(file.content).RequestItems[file.tableName].map((r: any) => r.PutRequest.Item) }]);
    }
  });
});

describe('toDynamoDbJsonFiles', () => {
  it('writes each entity’s item count, up to itemsPerEntity, with keys rendered from the templates', () => {
    const design = load('../../examples/ecommerce.keyplan.json');
    const files = toDynamoDbJsonFiles(design, { itemsPerEntity: 10 });
    expect(files.reduce((n, f) => n + f.itemCount, 0)).toBe(50);
    const first = JSON.parse(files[0]!.content).RequestItems.Shop[0].PutRequest.Item;
    expect(first).toMatchObject({ PK: { S: 'USER#u-1001' }, SK: { S: 'PROFILE' }, GSI1PK: { S: 'EMAIL#ana@example.com' }, userId: { S: 'u-1001' } });
    expect(toDynamoDbJson(design, { itemsPerEntity: 10 }).trim().split('\n')).toHaveLength(files.length);
  });

  it('puts an item in a sparse GSI only when its condition holds', () => {
    const design = load('../../examples/ecommerce.keyplan.json');
    const orders = toDynamoDbJsonFiles(design, { itemsPerEntity: 4 })
      .flatMap((f) => JSON.parse(f.content).RequestItems.Shop.map((r: any) => r.PutRequest.Item))
      .filter((item: any) => item.SK.S.startsWith('ORDER#'));
    expect(orders).toHaveLength(4);
    for (const order of orders) expect(order.GSI2PK !== undefined).toBe(order.status.S === 'PENDING');
    expect(orders.some((o: any) => o.GSI2PK)).toBe(true);
  });
});

describe('parseBatchWriteRequest', () => {
  it('reads the bare RequestItems map too', () => {
    const parsed = parseBatchWriteRequest({ T: [{ PutRequest: { Item: { a: { S: 'x' } } } }] });
    expect(parsed).toEqual({ ok: true, value: [{ tableName: 'T', items: [{ a: { S: 'x' } }] }] });
  });

  it('is one problem for something that is not a request', () => {
    const parsed = parseBatchWriteRequest([1, 2]);
    expect(parsed.ok || parsed.errors.map((p) => [p.code, p.path])).toEqual([['dynamodbJson.notBatchWrite', '']]);
  });

  it('collects every problem with its path', () => {
    const parsed = parseBatchWriteRequest({
      RequestItems: {
        T: [
          { DeleteRequest: { Key: { a: { S: 'x' } } } },
          { PutRequest: { Item: { a: { N: 'abc' } } } },
          { PutRequest: { Item: { a: { S: 'x' } } } },
          { PutRequest: { Item: { a: { S: 'x' } } } },
          ...Array.from({ length: 22 }, (_, i) => ({ PutRequest: { Item: { a: { S: `y${i}` } } } })),
        ],
      },
    });
    expect(parsed.ok || parsed.errors.map((p) => [p.code, p.path])).toEqual([
      ['dynamodbJson.badRequest', 'RequestItems.T[0]'],
      ['item.badNumber', 'RequestItems.T[1].PutRequest.Item.a.N'],
      ['dynamodbJson.duplicateItem', 'RequestItems.T[3]'],
      ['dynamodbJson.tooManyRequests', 'RequestItems'],
    ]);
  });
});
