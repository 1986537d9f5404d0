import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../capacity/index.ts';
import { evaluateCondition, parseCondition } from '../../model/index.ts';
import type { AttributeType, Design } from '../../model/index.ts';
import { encodeItem, encodeValue, itemTypesOf, toBatchWriteFiles, toDynamoDbJson, toDynamoDbJsonFiles } from './export.ts';
import { parseBatchWriteRequest } from './import.ts';

const load = (path: string): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '..', path), 'utf8')) as Design;
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
    for (const file of toDynamoDbJsonFiles(load('__fixtures__/all-settings.keyplan.json'), { maxItemsPerTable: 60 })) {
      const parsed = parseBatchWriteRequest(JSON.parse(file.content));
      expect(parsed.ok && parsed.value).toEqual([{ tableName: file.tableName, items: JSON.parse(file.content).RequestItems[file.tableName].map((r: any) => r.PutRequest.Item) }]);
    }
  });
});

describe('toDynamoDbJsonFiles', () => {
  it('writes the sample store’s items: up to maxItemsPerTable, entities in proportion, keys rendered from the templates', () => {
    const design = load('../../examples/ecommerce.keyplan.json');
    const files = toDynamoDbJsonFiles(design, { maxItemsPerTable: 200 });
    const items = files.flatMap((f) => JSON.parse(f.content).RequestItems.Shop.map((r: any) => r.PutRequest.Item));
    // The store scales 5 entities down to 200 items; order items that repeat a key (one product left) are written once.
    expect(items.length).toBeGreaterThan(100);
    expect(items.length).toBeLessThanOrEqual(200);
    expect(new Set(items.map((i: any) => `${i.PK.S}|${i.SK.S}`)).size).toBe(items.length);
    const users = items.filter((i: any) => i.SK.S === 'PROFILE');
    expect(users.length).toBeGreaterThan(0);
    for (const user of users) expect(user.PK.S).toBe(`USER#${user.userId.S}`);
    expect(toDynamoDbJson(design, { maxItemsPerTable: 200 }).trim().split('\n')).toHaveLength(files.length);
  });

  it('gives the same items for the same seed, other items for another', () => {
    const design = load('../../examples/ecommerce.keyplan.json');
    expect(toDynamoDbJson(design, { seed: 3 })).toBe(toDynamoDbJson(design, { seed: 3 }));
    expect(toDynamoDbJson(design, { seed: 3 })).not.toBe(toDynamoDbJson(design, { seed: 4 }));
  });

  it('puts an item in a sparse GSI only when its condition holds', () => {
    const design = load('../../examples/ecommerce.keyplan.json');
    const orders = toDynamoDbJsonFiles(design, { maxItemsPerTable: 400 })
      .flatMap((f) => JSON.parse(f.content).RequestItems.Shop.map((r: any) => r.PutRequest.Item))
      .filter((item: any) => item.SK.S.startsWith('ORDER#'));
    expect(orders.length).toBeGreaterThan(4);
    const when = parseCondition(design.tables[0]!.entities.find((e) => e.name === 'Order')!.keys.GSI2PK!.when!);
    if (!when.ok) throw new Error('the example’s condition does not parse');
    for (const order of orders) expect(order.GSI2PK !== undefined).toBe(evaluateCondition(when.value, { status: order.status.S }));
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
