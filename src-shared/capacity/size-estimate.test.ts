import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Attribute, Design, Entity, Table } from '../model/index.ts';
import { parseDesign } from '../model/index.ts';
import { BYTES_PER_GB } from './pricing.ts';
import { DEFAULT_VALUE_BYTES, ESTIMATE_ASSUMPTIONS, estimateIndexEntryBytes, estimateItemBytes, estimateStorage, isInIndex } from './size-estimate.ts';
import { indexFraction } from './index-fraction.ts';

const parsed = parseDesign(JSON.parse(readFileSync(new URL('../../examples/ecommerce.keyplan.json', import.meta.url), 'utf8')));
if (!parsed.ok) throw new Error('The example design does not parse.');
const shop = (parsed.value as Design).tables[0] as Table;
const entity = (name: string): Entity => {
  const e = shop.entities.find((x) => x.name === name);
  if (!e) throw new Error(`No entity ${name}`);
  return e;
};

/** A one-entity table around the given entity (keys PK/SK; GSI1 on GPK/GSK; LSI1 on LSK). */
function tableWith(e: Partial<Entity> & Pick<Entity, 'attributes' | 'keys'>, over: Partial<Table> = {}): { table: Table; entity: Entity } {
  const ent: Entity = { id: 'e1', name: 'Thing', itemCount: 1000, ...e };
  const table: Table = {
    id: 't1',
    name: 'Things',
    partitionKey: { name: 'PK', type: 'S' },
    sortKey: { name: 'SK', type: 'S' },
    billing: { mode: 'ON_DEMAND' },
    tableClass: 'STANDARD',
    globalSecondaryIndexes: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GPK', type: 'S' }, sortKey: { name: 'GSK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
    localSecondaryIndexes: [{ id: 'l1', name: 'LSI1', sortKey: { name: 'LSK', type: 'S' }, projection: { type: 'ALL' } }],
    entities: [ent],
    accessPatterns: [],
    ...over,
  };
  return { table, entity: table.entities[0] as Entity };
}

describe('estimateItemBytes', () => {
  it('sizes the example User: keys rendered at the attributes’ average sizes plus every attribute', () => {
    const f = estimateItemBytes(shop, entity('User'));
    // PK USER#{userId} 2+14, SK PROFILE 2+7, GSI1PK EMAIL#{email} 6+30, GSI1SK PROFILE 6+7;
    // userId 6+9, email 5+24, name 4+14, country 7+2, createdAt 9+20.
    expect(f.steps.slice(0, -1).map((s) => s.value)).toEqual([16, 9, 36, 13, 15, 29, 18, 9, 29]);
    expect(f.value).toBe(174);
    expect(f.unit).toBe('B');
    expect(f.assumptions).toEqual([ESTIMATE_ASSUMPTIONS.everyAttribute]);
  });

  it('counts a sparse-by-predicate key in full and says so', () => {
    const f = estimateItemBytes(shop, entity('Order'));
    expect(f.steps.find((s) => s.label.startsWith('Key "GSI2PK"'))?.value).toBe(21);
    expect(f.assumptions.some((a) => a.startsWith('Order: key GSI2PK is counted in full'))).toBe(true);
  });

  it.each([
    { type: 'S', bytes: 16 },
    { type: 'N', bytes: 5 },
    { type: 'B', bytes: 16 },
    { type: 'BOOL', bytes: 1 },
    { type: 'NULL', bytes: 1 },
    { type: 'SS', bytes: 32 },
    { type: 'NS', bytes: 10 },
    { type: 'BS', bytes: 32 },
    { type: 'L', bytes: 32 },
    { type: 'M', bytes: 32 },
  ] as const)('a $type attribute without an average size counts $bytes B', ({ type, bytes }) => {
    const { table, entity: e } = tableWith({ attributes: [{ name: 'x', type }], keys: { PK: { template: 'A' }, SK: { template: 'B' } } });
    const f = estimateItemBytes(table, e);
    expect(f.value).toBe(3 + 3 + 1 + bytes);
    expect(DEFAULT_VALUE_BYTES[type]).toBe(bytes);
    if (type !== 'BOOL' && type !== 'NULL') expect(f.assumptions.some((a) => a.includes('defaults used'))).toBe(true);
  });

  it('BOOL and NULL are 1 byte whatever average size is set', () => {
    const { table, entity: e } = tableWith({ attributes: [{ name: 'f', type: 'BOOL', averageSizeBytes: 5 }], keys: { PK: { template: 'A' }, SK: { template: 'B' } } });
    expect(estimateItemBytes(table, e).value).toBe(3 + 3 + 1 + 1);
  });

  it('counts an attribute that is also a key once, as the key; an N key takes the number’s size', () => {
    const { table, entity: e } = tableWith(
      {
        attributes: [
          { name: 'userId', type: 'S', averageSizeBytes: 9 },
          { name: 'version', type: 'N', averageSizeBytes: 3 },
        ],
        keys: { userId: { template: '{userId}' }, version: { template: '{version}' } },
      },
      { partitionKey: { name: 'userId', type: 'S' }, sortKey: { name: 'version', type: 'N' }, globalSecondaryIndexes: [], localSecondaryIndexes: [] },
    );
    const f = estimateItemBytes(table, e);
    expect(f.steps.map((s) => s.value)).toEqual([6 + 9, 7 + 3, 25]);
    expect(f.assumptions).toContain('Thing: userId, version is both an attribute and a key; counted once, as the key.');
  });

  it('a constant N key is the size of that number', () => {
    const { table, entity: e } = tableWith(
      { attributes: [], keys: { PK: { template: 'A' }, n: { template: '12.3456' } } },
      { sortKey: { name: 'n', type: 'N' }, globalSecondaryIndexes: [], localSecondaryIndexes: [] },
    );
    expect(estimateItemBytes(table, e).value).toBe(3 + 1 + 4);
  });

  it('a padded placeholder takes at least its width', () => {
    const { table, entity: e } = tableWith({
      attributes: [{ name: 'rank', type: 'N', averageSizeBytes: 2 }],
      keys: { PK: { template: 'A' }, SK: { template: 'R#{rank:08}' } },
    });
    expect(estimateItemBytes(table, e).steps[1]?.value).toBe(2 + 2 + 8);
  });
});

describe('estimateIndexEntryBytes', () => {
  it('INCLUDE: the example Order in GSI2 holds both table keys, both index keys, userId and total', () => {
    const f = estimateIndexEntryBytes(shop, entity('Order'), { kind: 'gsi', name: 'GSI2' });
    expect(f.steps.slice(0, -1).map((s) => [s.label.split(' ')[1], s.value])).toEqual([
      ['"PK"', 16],
      ['"SK"', 28],
      ['"GSI2PK"', 21],
      ['"GSI2SK"', 26],
      ['"userId"', 15],
      ['"total"', 9],
    ]);
    expect(f.value).toBe(115);
  });

  it('ALL: the whole item', () => {
    const item = estimateItemBytes(shop, entity('Order'));
    const f = estimateIndexEntryBytes(shop, entity('Order'), { kind: 'gsi', name: 'GSI1' });
    expect(f.value).toBe(item.value);
    expect(f.steps.at(-1)?.label).toBe('GSI "GSI1" entry (ALL: the whole item)');
  });

  it('KEYS_ONLY: the table keys and the index keys; an LSI shares the partition key', () => {
    const { table, entity: e } = tableWith({
      attributes: [{ name: 'big', type: 'S', averageSizeBytes: 5000 }],
      keys: { PK: { template: 'AA' }, SK: { template: 'BB' }, GPK: { template: 'CC' }, GSK: { template: 'DD' }, LSK: { template: 'EE' } },
    });
    expect(estimateIndexEntryBytes(table, e, { kind: 'gsi', name: 'GSI1' }).value).toBe(4 + 4 + 5 + 5);
    const lsi = { ...table, localSecondaryIndexes: [{ id: 'l1', name: 'LSI1', sortKey: { name: 'LSK', type: 'S' as const }, projection: { type: 'KEYS_ONLY' as const } }] };
    expect(estimateIndexEntryBytes(lsi, e, { kind: 'lsi', name: 'LSI1' }).value).toBe(4 + 4 + 5);
  });

  it('INCLUDE names an attribute the entity lacks: left out and noted', () => {
    const { table, entity: e } = tableWith(
      { attributes: [{ name: 'a', type: 'S', averageSizeBytes: 10 }], keys: { PK: { template: 'A' }, SK: { template: 'B' }, GPK: { template: 'C' }, GSK: { template: 'D' } } },
      { globalSecondaryIndexes: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GPK', type: 'S' }, sortKey: { name: 'GSK', type: 'S' }, projection: { type: 'INCLUDE', nonKeyAttributes: ['a', 'zz'] } }] },
    );
    const f = estimateIndexEntryBytes(table, e, { kind: 'gsi', name: 'GSI1' });
    expect(f.value).toBe(3 + 3 + 4 + 4 + 11);
    expect(f.steps.at(-1)?.expression).toBe('Σ over 5 attributes; Thing has no zz');
  });

  it('throws for an index the table does not have (a programming error)', () => {
    expect(() => estimateIndexEntryBytes(shop, entity('User'), { kind: 'lsi', name: 'GSI1' })).toThrow(/no LSI named "GSI1"/);
  });
});

describe('isInIndex and indexFraction', () => {
  it.each([
    { entity: 'User', index: 'GSI1', isIn: true, fraction: 1 },
    { entity: 'User', index: 'GSI2', isIn: false, fraction: 0 },
    { entity: 'OrderItem', index: 'GSI1', isIn: false, fraction: 0 },
    { entity: 'Order', index: 'GSI2', isIn: true, fraction: 0.05 },
    { entity: 'Order', index: 'nope', isIn: false, fraction: 0 },
  ])('$entity in $index: $isIn, share $fraction', ({ entity: name, index, isIn, fraction }) => {
    expect(isInIndex(shop, entity(name), index)).toBe(isIn);
    const f = indexFraction(shop, entity(name), index);
    expect(f.value).toBeCloseTo(fraction, 12);
    expect(f.unit).toBe('ratio');
  });

  const withStatus = (status: Attribute, when: string) =>
    tableWith({
      attributes: [status],
      keys: { PK: { template: 'A' }, SK: { template: 'B' }, GPK: { template: 'S#{status}', when }, GSK: { template: 'X', when } },
    });

  it.each([
    { what: 'IN over 2 of cardinality 5', status: { name: 'status', type: 'S', cardinality: 5 }, when: 'status IN ("A", "B")', share: 2 / 5 },
    { what: '= with cardinality 5', status: { name: 'status', type: 'S', cardinality: 5 }, when: 'status = "A"', share: 1 / 5 },
    { what: '<> with cardinality 5', status: { name: 'status', type: 'S', cardinality: 5 }, when: 'status <> "A"', share: 4 / 5 },
    { what: 'IN with more values than the cardinality', status: { name: 'status', type: 'S', cardinality: 2 }, when: 'status IN ("A", "B", "C")', share: 1 },
    { what: 'enum weights', status: { name: 'status', type: 'S', generator: { kind: 'enum', values: ['A', 'B', 'C'], weights: [1, 1, 2] } }, when: 'status = "C"', share: 0.5 },
    { what: 'enum without weights', status: { name: 'status', type: 'S', generator: { kind: 'enum', values: ['A', 'B', 'C', 'D'] } }, when: 'status IN ("A", "X")', share: 0.25 },
    { what: 'enum range', status: { name: 'status', type: 'S', generator: { kind: 'enum', values: ['A', 'B', 'C', 'D'] } }, when: 'status >= "C"', share: 0.5 },
    { what: 'numeric enum', status: { name: 'status', type: 'N', generator: { kind: 'enum', values: ['1', '2', '3', '4'] } }, when: 'status < 2', share: 0.25 },
    { what: 'a number range', status: { name: 'status', type: 'N', generator: { kind: 'number', min: 0, max: 100 } }, when: 'status > 75', share: 25 / 101 }, // whole numbers 0..100 as the sample data draws them: 76..100 of 101
    { what: 'BOOL', status: { name: 'status', type: 'BOOL' }, when: 'status = true', share: 0.5 },
    { what: 'attribute_exists', status: { name: 'status', type: 'S' }, when: 'attribute_exists(status)', share: 1 },
    { what: 'two clauses', status: { name: 'status', type: 'S', cardinality: 4 }, when: 'status <> "A" AND attribute_exists(status)', share: 0.75 },
    // No generator and no cardinality: the value model takes the values the conditions name plus one other, even.
    { what: 'no generator: the named value and one other', status: { name: 'status', type: 'S' }, when: 'status = "A"', share: 0.5 },
    { what: 'a range without a distribution', status: { name: 'status', type: 'S' }, when: 'status > "M"', share: 0.5 },
    { what: 'an attribute the entity lacks', status: { name: 'other', type: 'S' }, when: 'status = "A"', share: 0 },
  ] as const)('$what: $share', ({ status, when, share }) => {
    const { table, entity: e } = withStatus(status as Attribute, when);
    expect(indexFraction(table, e, 'GSI1').value).toBeCloseTo(share, 12);
  });

  it('says where the values come from when the attribute has no generator', () => {
    const { table, entity: e } = withStatus({ name: 'status', type: 'S' }, 'status = "A"');
    expect(indexFraction(table, e, 'GSI1').assumptions[0]).toMatch(/status has no generator: the values the design's conditions name \(A\) and one other value, all equally likely/);
  });

  it('multiplies distinct clauses across the index keys', () => {
    const { table, entity: e } = tableWith({
      attributes: [
        { name: 'a', type: 'S', cardinality: 2 },
        { name: 'b', type: 'S', cardinality: 5 },
      ],
      keys: { PK: { template: 'A' }, SK: { template: 'B' }, GPK: { template: 'X', when: 'a = "x"' }, GSK: { template: 'Y', when: 'a = "x" AND b = "y"' } },
    });
    const f = indexFraction(table, e, 'GSI1');
    expect(f.value).toBeCloseTo(0.1, 12);
    expect(f.assumptions).toContain(ESTIMATE_ASSUMPTIONS.conditionIndependence);
  });
});

describe('estimateStorage', () => {
  it('C-5: 10 M items of 900 B with a 200 B GSI entry take 10 GB + 3 GB (≈ 9.31 + 2.79 GiB)', () => {
    const { table } = tableWith(
      {
        itemCount: 10_000_000,
        attributes: [
          { name: 'inc', type: 'S', averageSizeBytes: 187 },
          { name: 'data', type: 'S', averageSizeBytes: 696 },
        ],
        keys: { PK: { template: 'A' }, SK: { template: 'B' }, GPK: { template: 'G' } },
      },
      {
        globalSecondaryIndexes: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GPK', type: 'S' }, projection: { type: 'INCLUDE', nonKeyAttributes: ['inc'] } }],
        localSecondaryIndexes: [],
      },
    );
    const e = table.entities[0] as Entity;
    expect(estimateItemBytes(table, e).value).toBe(900);
    expect(estimateIndexEntryBytes(table, e, { kind: 'gsi', name: 'GSI1' }).value).toBe(200);
    const s = estimateStorage(table);
    expect(s.table.value).toBe(10_000_000_000);
    expect(s.indexes['GSI1']?.value).toBe(3_000_000_000);
    expect(s.totalBytes).toBe(13_000_000_000);
    expect(s.table.value / BYTES_PER_GB).toBeCloseTo(9.31, 2);
    expect((s.indexes['GSI1']?.value ?? 0) / BYTES_PER_GB).toBeCloseTo(2.79, 2);
  });

  it('the example: GSI2 holds only the open orders, and the total adds every part', () => {
    const s = estimateStorage(shop);
    const order = entity('Order');
    const entry = estimateIndexEntryBytes(shop, order, { kind: 'gsi', name: 'GSI2' }).value;
    expect(s.indexes['GSI2']?.value).toBeCloseTo(order.itemCount * 0.05 * (entry + 100), 6);
    expect(s.totalBytes).toBeCloseTo(s.table.value + (s.indexes['GSI1']?.value ?? 0) + (s.indexes['GSI2']?.value ?? 0), 3);
    expect(Object.keys(s.indexes)).toEqual(['GSI1', 'GSI2']);
    expect(s.total.unit).toBe('B');
  });

  it('more items never take less storage', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 0, max: 1e6 }), (count, more) => {
        const at = (n: number) => estimateStorage({ ...shop, entities: shop.entities.map((e) => ({ ...e, itemCount: n })) }).totalBytes;
        return at(count) <= at(count + more);
      }),
      { numRuns: 30 },
    );
  });
});
