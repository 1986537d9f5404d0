import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ASSUMPTIONS,
  PAGE_BYTES,
  batchGetReadUnits,
  batchWriteUnits,
  getItemReadUnits,
  maxReadBytesPerSecond,
  maxWriteBytesPerSecond,
  queryReadUnits,
  readUnitsForBytes,
  scanReadUnits,
  transactGetReadUnits,
  transactWriteUnits,
  writeUnits,
  writeUnitsForBytes,
  type IndexWriteInput,
} from './units.ts';

const KB = 1024;

describe('readUnitsForBytes and writeUnitsForBytes', () => {
  it.each([
    { bytes: 0, consistency: 'strong', units: 1 },
    { bytes: 1, consistency: 'eventual', units: 0.5 },
    { bytes: 4096, consistency: 'strong', units: 1 },
    { bytes: 4097, consistency: 'strong', units: 2 },
    { bytes: 3.5 * KB, consistency: 'strong', units: 1 },
    { bytes: 10 * KB, consistency: 'strong', units: 3 },
    { bytes: 7 * KB, consistency: 'transactional', units: 4 },
    { bytes: 3 * 1365.3333333333333, consistency: 'strong', units: 1 },
  ] as const)('reads $bytes B $consistency as $units units', ({ bytes, consistency, units }) => {
    expect(readUnitsForBytes(bytes, consistency)).toBe(units);
  });

  it.each([
    { bytes: 0, transactional: false, units: 1 },
    { bytes: 500, transactional: false, units: 1 },
    { bytes: 1024, transactional: false, units: 1 },
    { bytes: 1025, transactional: false, units: 2 },
    { bytes: 1.6 * KB, transactional: false, units: 2 },
    { bytes: 3 * KB, transactional: true, units: 6 },
  ])('writes $bytes B (transactional: $transactional) as $units units', ({ bytes, transactional, units }) => {
    expect(writeUnitsForBytes(bytes, transactional)).toBe(units);
  });
});

describe('GetItem, BatchGetItem, TransactGetItems (E-6..E-11, E-28)', () => {
  it.each([
    { id: 'E-6 SC', bytes: 7 * KB, consistency: 'strong', rcu: 2 },
    { id: 'E-6 EC', bytes: 7 * KB, consistency: 'eventual', rcu: 1 },
    { id: 'E-6 TX', bytes: 7 * KB, consistency: 'transactional', rcu: 4 },
    { id: 'E-7', bytes: 3500, consistency: 'strong', rcu: 1 },
    { id: 'E-8 SC', bytes: undefined, consistency: 'strong', rcu: 1 },
    { id: 'E-8 EC', bytes: undefined, consistency: 'eventual', rcu: 0.5 },
    { id: '10 KB billed as 12 KB', bytes: 10 * KB, consistency: 'strong', rcu: 3 },
  ] as const)('$id: GetItem costs $rcu RCU', ({ bytes, consistency, rcu }) => {
    const f = getItemReadUnits(bytes, consistency);
    expect(f.value).toBe(rcu);
    expect(f.unit).toBe('RCU');
  });

  it.each([
    { id: 'E-9 SC', sizes: [1.5 * KB, 6.5 * KB], consistency: 'strong', rcu: 3 },
    { id: 'E-9 EC', sizes: [1.5 * KB, 6.5 * KB], consistency: 'eventual', rcu: 1.5 },
    { id: 'E-10 table A', sizes: [4096, 11, undefined], consistency: 'eventual', rcu: 1.5 },
    { id: 'E-10 table B', sizes: [undefined], consistency: 'eventual', rcu: 0.5 },
    { id: 'E-11 table A', sizes: [4097, 11, undefined], consistency: 'eventual', rcu: 2 },
    { id: 'E-11 SC table A', sizes: [4096, 11, undefined], consistency: 'strong', rcu: 3 },
    { id: 'E-11 SC table B', sizes: [undefined], consistency: 'strong', rcu: 1 },
    { id: 'no keys', sizes: [], consistency: 'strong', rcu: 0 },
  ] as const)('$id: BatchGetItem costs $rcu RCU', ({ sizes, consistency, rcu }) => {
    expect(batchGetReadUnits(sizes, consistency).value).toBe(rcu);
  });

  it('groups equal sizes into one step each', () => {
    const f = batchGetReadUnits([100, 100, 100, undefined, 5000], 'strong');
    expect(f.steps.map((s) => [s.label, s.value])).toEqual([
      ['3 items of 100 B, each rounded up to 4 KB', 3],
      ['1 key not found', 1],
      ['1 item of 5,000 B, each rounded up to 4 KB', 2],
      ['4 KB blocks in all', 6],
      ['Read units, strongly consistent: one unit per 4 KB', 6],
    ]);
  });

  it('E-28: TransactGetItems of 3 items of 500 B costs 6 RCU', () => {
    expect(transactGetReadUnits([500, 500, 500]).value).toBe(6);
  });
});

describe('Query (E-3..E-5, E-12..E-16, E-26)', () => {
  it.each([
    { id: 'E-3', input: { itemCount: 10_000, itemBytes: KB, consistency: 'eventual', target: 'table' }, rcu: 1250, pages: 10 },
    { id: 'E-4 (a filter keeps 100)', input: { itemCount: 10_000, itemBytes: KB, consistency: 'eventual', target: 'table', itemsReturned: 100 }, rcu: 1250, pages: 10 },
    { id: 'E-12 SC', input: { itemCount: 10, itemBytes: (40.8 * KB) / 10, consistency: 'strong', target: 'table' }, rcu: 11, pages: 1 },
    { id: 'E-12 EC', input: { itemCount: 10, itemBytes: (40.8 * KB) / 10, consistency: 'eventual', target: 'table' }, rcu: 5.5, pages: 1 },
    { id: 'E-13 SC', input: { itemCount: 1500, itemBytes: 64, consistency: 'strong', target: 'table' }, rcu: 24, pages: 1 },
    { id: 'E-13 EC', input: { itemCount: 1500, itemBytes: 64, consistency: 'eventual', target: 'table' }, rcu: 12, pages: 1 },
    { id: 'E-14 (GSI)', input: { itemCount: 8, itemBytes: 2000, consistency: 'eventual', target: 'gsi' }, rcu: 2, pages: 1 },
    { id: 'E-14 asked strong: a GSI reads eventual', input: { itemCount: 8, itemBytes: 2000, consistency: 'strong', target: 'gsi' }, rcu: 2, pages: 1 },
    { id: 'E-15 SC (LSI fetch)', input: { itemCount: 4, itemBytes: 200, consistency: 'strong', target: 'lsi', lsiFetch: { baseItemBytes: 300 } }, rcu: 5, pages: 1 },
    { id: 'E-15 EC (LSI fetch)', input: { itemCount: 4, itemBytes: 200, consistency: 'eventual', target: 'lsi', lsiFetch: { baseItemBytes: 300 } }, rcu: 2.5, pages: 1 },
    { id: 'LSI without fetch', input: { itemCount: 4, itemBytes: 200, consistency: 'strong', target: 'lsi' }, rcu: 1, pages: 1 },
    { id: 'E-16 (matches nothing)', input: { itemCount: 0, itemBytes: KB, consistency: 'eventual', target: 'table' }, rcu: 0.5, pages: 1 },
    { id: 'E-26 sharded', input: { itemCount: 1000, itemBytes: 200, consistency: 'eventual', target: 'table', requests: 10 }, rcu: 25, pages: 1 },
    { id: 'E-26 unsharded', input: { itemCount: 1000, itemBytes: 200, consistency: 'eventual', target: 'table' }, rcu: 24.5, pages: 1 },
    { id: 'transactional is read strong', input: { itemCount: 1, itemBytes: 100, consistency: 'transactional', target: 'table' }, rcu: 1, pages: 1 },
  ] as const)('$id: $rcu RCU', ({ input, rcu, pages }) => {
    const f = queryReadUnits(input);
    expect(f.value).toBe(rcu);
    expect(f.unit).toBe('RCU');
    expect(f.steps.find((s) => s.unit === 'pages')?.value).toBe(pages);
  });

  it('E-3 shows 9 full pages of 1,024 items and one of 784', () => {
    const f = queryReadUnits({ itemCount: 10_000, itemBytes: KB, consistency: 'eventual', target: 'table' });
    expect(f.steps.find((s) => s.unit === 'pages')?.expression).toBe('9 full pages of 1,024 items + 1 page of 784 items');
    expect(f.steps.find((s) => s.label.startsWith('4 KB blocks'))?.value).toBe(2500);
    expect(f.assumptions).toContain(ASSUMPTIONS.pageBoundary);
  });

  it('E-4: the filter shows in the derivation and does not change the cost', () => {
    const f = queryReadUnits({ itemCount: 10_000, itemBytes: KB, consistency: 'eventual', target: 'table', itemsReturned: 100 });
    expect(f.steps.some((s) => s.unit === 'items' && s.value === 100 && /does not lower/.test(s.label))).toBe(true);
  });

  it('a page that crosses 1 MB keeps the crossing item (docs/dynamodb-rules.md §10.7)', () => {
    // 1,000 B items: ceil(1,048,576 / 1,000) = 1,049 items fit the first page.
    const f = queryReadUnits({ itemCount: 1050, itemBytes: 1000, consistency: 'strong', target: 'table' });
    expect(f.steps.find((s) => s.unit === 'pages')?.expression).toBe('1 full page of 1,049 items + 1 page of 1 item');
    expect(f.value).toBe(Math.ceil(1_049_000 / 4096) + 1);
  });

  it('E-16 notes the minimum-per-request assumption; index reads note the entry-size one', () => {
    expect(queryReadUnits({ itemCount: 0, itemBytes: 1, consistency: 'eventual', target: 'table' }).assumptions).toContain(ASSUMPTIONS.minimumPerRequest);
    expect(queryReadUnits({ itemCount: 8, itemBytes: 2000, consistency: 'strong', target: 'gsi' }).assumptions).toEqual([
      ASSUMPTIONS.gsiEventual,
      ASSUMPTIONS.indexEntrySize,
    ]);
  });
});

describe('Scan (E-1, E-2)', () => {
  it.each([
    { id: 'E-1', consistency: 'eventual', rcu: 125_000 },
    { id: 'E-2', consistency: 'strong', rcu: 250_000 },
  ] as const)('$id: a Scan of 1,000,000 items of 1 KB costs $rcu RCU', ({ consistency, rcu }) => {
    const f = scanReadUnits({ segments: [{ itemCount: 1_000_000, itemBytes: KB }], consistency });
    expect(f.value).toBe(rcu);
    expect(f.steps.find((s) => s.unit === 'pages')?.value).toBe(977);
  });

  it('reads every group of items, whatever the filter returns', () => {
    const f = scanReadUnits({
      segments: [
        { itemCount: 500_000, itemBytes: 512, label: 'User' },
        { itemCount: 500_000, itemBytes: 1536, label: 'Order' },
      ],
      consistency: 'eventual',
      itemsReturned: 10,
    });
    expect(f.value).toBe(125_000);
    expect(f.steps.filter((s) => s.label.startsWith('Bytes read:')).map((s) => s.value)).toEqual([256_000_000, 768_000_000]);
  });

  it('a parallel scan pages each segment on its own', () => {
    const one = scanReadUnits({ segments: [{ itemCount: 1000, itemBytes: 200 }], consistency: 'eventual' });
    const ten = scanReadUnits({ segments: [{ itemCount: 1000, itemBytes: 200 }], consistency: 'eventual', totalSegments: 10 });
    expect([one.value, ten.value]).toEqual([24.5, 25]);
  });

  it('an empty table still costs one read; a GSI scan is eventual', () => {
    expect(scanReadUnits({ segments: [], consistency: 'strong' }).value).toBe(1);
    expect(scanReadUnits({ segments: [{ itemCount: 8, itemBytes: 2000 }], consistency: 'strong', target: 'gsi' }).value).toBe(2);
  });
});

describe('writeUnits (E-17..E-25, E-29)', () => {
  const gsi = (name: string, effect: IndexWriteInput['effect'], oldEntryBytes?: number, newEntryBytes?: number): IndexWriteInput => ({
    target: { kind: 'gsi', name },
    effect,
    ...(oldEntryBytes === undefined ? {} : { oldEntryBytes }),
    ...(newEntryBytes === undefined ? {} : { newEntryBytes }),
  });

  it.each([
    { id: 'E-17 (V-13)', input: { kind: 'put', newItemBytes: 1024, transactional: false, indexes: [] }, total: 1, table: 1, gsis: {} },
    { id: 'E-17 (V-14)', input: { kind: 'put', newItemBytes: 1025, transactional: false, indexes: [] }, total: 2, table: 2, gsis: {} },
    {
      id: 'E-18',
      input: { kind: 'put', newItemBytes: 2.5 * KB, transactional: false, indexes: [gsi('GSI1', 'put', undefined, 2.5 * KB), gsi('GSI2', 'put', undefined, 2.5 * KB)] },
      total: 9,
      table: 3,
      gsis: { GSI1: 3, GSI2: 3 },
    },
    {
      id: 'E-19',
      input: { kind: 'put', newItemBytes: 2.5 * KB, transactional: false, indexes: [gsi('GSI1', 'put', undefined, 2.5 * KB), gsi('GSI2', 'put', undefined, 60)] },
      total: 7,
      table: 3,
      gsis: { GSI1: 3, GSI2: 1 },
    },
    {
      id: 'E-20',
      input: { kind: 'put', newItemBytes: 2.5 * KB, transactional: false, indexes: [gsi('GSI1', 'put', undefined, 2.5 * KB), gsi('GSI2', 'none')] },
      total: 6,
      table: 3,
      gsis: { GSI1: 3, GSI2: 0 },
    },
    {
      id: 'E-21',
      input: { kind: 'update', oldItemBytes: 0.8 * KB, newItemBytes: 0.8 * KB, transactional: false, indexes: [gsi('GSI1', 'move', 0.8 * KB, 0.8 * KB)] },
      total: 3,
      table: 1,
      gsis: { GSI1: 2 },
    },
    {
      id: 'E-22',
      input: { kind: 'update', oldItemBytes: 0.8 * KB, newItemBytes: 0.75 * KB, transactional: false, indexes: [gsi('GSI1', 'delete', 0.8 * KB)] },
      total: 2,
      table: 1,
      gsis: { GSI1: 1 },
    },
    {
      id: 'E-23',
      input: { kind: 'update', oldItemBytes: 600, newItemBytes: 610, transactional: false, indexes: [gsi('GSI1', 'none')] },
      total: 1,
      table: 1,
      gsis: { GSI1: 0 },
    },
    { id: 'E-24', input: { kind: 'update', oldItemBytes: 3.2 * KB, newItemBytes: 0.8 * KB, transactional: false, indexes: [] }, total: 4, table: 4, gsis: {} },
    { id: 'E-25 replace', input: { kind: 'put', oldItemBytes: 1025, newItemBytes: 11, transactional: false, indexes: [] }, total: 2, table: 2, gsis: {} },
    { id: 'E-25 again', input: { kind: 'put', oldItemBytes: 11, newItemBytes: 11, transactional: false, indexes: [] }, total: 1, table: 1, gsis: {} },
    { id: 'E-29', input: { kind: 'put', newItemBytes: 3 * KB, transactional: true, indexes: [] }, total: 6, table: 6, gsis: {} },
    { id: 'delete', input: { kind: 'delete', oldItemBytes: 2000, transactional: false, indexes: [] }, total: 2, table: 2, gsis: {} },
    { id: 'delete of a missing key', input: { kind: 'delete', transactional: false, indexes: [] }, total: 1, table: 1, gsis: {} },
    {
      id: 'transaction with a GSI (docs/dynamodb-rules.md §10.12)',
      input: { kind: 'put', newItemBytes: 3 * KB, transactional: true, indexes: [gsi('GSI1', 'put', undefined, 3 * KB)] },
      total: 9,
      table: 6,
      gsis: { GSI1: 3 },
    },
    {
      id: 'a move with two sizes (docs/dynamodb-rules.md §10.10)',
      input: { kind: 'update', oldItemBytes: 3000, newItemBytes: 900, transactional: false, indexes: [gsi('GSI1', 'move', 3000, 900)] },
      total: 7,
      table: 3,
      gsis: { GSI1: 4 },
    },
  ] as const)('$id: $total WCU', ({ input, total, table, gsis }) => {
    const w = writeUnits({ ...input, indexes: [...input.indexes] });
    expect(w.total.value).toBe(total);
    expect(w.total.unit).toBe('WCU');
    expect(w.table.value).toBe(table);
    expect(Object.fromEntries(Object.entries(w.gsis).map(([k, f]) => [k, f.value]))).toEqual(gsis);
  });

  it('charges LSI writes to the table and lists them', () => {
    const w = writeUnits({
      kind: 'put',
      newItemBytes: 1500,
      transactional: false,
      indexes: [
        { target: { kind: 'lsi', name: 'byDate' }, effect: 'put', newEntryBytes: 300 },
        { target: { kind: 'gsi', name: 'GSI1' }, effect: 'put', newEntryBytes: 1500 },
      ],
    });
    expect([w.total.value, w.table.value, w.lsis['byDate']?.value, w.gsis['GSI1']?.value]).toEqual([5, 3, 1, 2]);
    expect(w.table.steps.at(-1)?.label).toBe("Table capacity: the item write plus its LSIs'");
    // The total shows the whole derivation: the item, its LSI entry, then the GSI entry, each rounded up to 1 KB.
    expect(w.total.steps.map((s) => s.label)).toEqual([
      'Size of the new item',
      'Write units, rounded up to 1 KB',
      'LSI "byDate": put the entry',
      'LSI writes, charged to the table',
      "Table capacity: the item write plus its LSIs'",
      'Table, with its LSIs',
      'GSI "GSI1": put the entry',
      'GSI "GSI1", from its own capacity',
      'Write units in all',
    ]);
  });

  it('E-21 shows the delete and the put, and notes the two-size assumption', () => {
    const w = writeUnits({ kind: 'update', oldItemBytes: 800, newItemBytes: 800, transactional: false, indexes: [gsi('GSI1', 'move', 800, 800)] });
    expect(w.gsis['GSI1']?.steps.map((s) => s.value)).toEqual([1, 1, 2]);
    expect(w.total.assumptions).toContain(ASSUMPTIONS.twoSizedMove);
  });

  it('throws when a size it needs is missing (a programming error)', () => {
    expect(() => writeUnits({ kind: 'put', transactional: false, indexes: [] })).toThrow(/newItemBytes/);
    expect(() => writeUnits({ kind: 'put', newItemBytes: 1, transactional: false, indexes: [gsi('G', 'move', 1)] })).toThrow(/newEntryBytes/);
  });
});

describe('BatchWriteItem and TransactWriteItems (E-27, E-28)', () => {
  it('E-27: 500 B + 3.5 KB cost 5 WCU', () => {
    expect(batchWriteUnits([500, 3.5 * KB]).value).toBe(5);
  });

  it('E-28: a TransactWriteItems of 3 items of 500 B costs 6 WCU', () => {
    expect(transactWriteUnits([500, 500, 500]).value).toBe(6);
  });

  it('a delete of a missing key in a batch costs 1', () => {
    const f = batchWriteUnits([undefined, 2048]);
    expect(f.value).toBe(3);
    expect(f.assumptions).toEqual([ASSUMPTIONS.missingDelete]);
  });
});

describe('E-30: data rates of 6 RCU / 6 WCU', () => {
  it.each([
    { what: 'SC reads', f: () => maxReadBytesPerSecond(6, 'strong'), bytes: 24 * KB },
    { what: 'EC reads', f: () => maxReadBytesPerSecond(6, 'eventual'), bytes: 48 * KB },
    { what: 'transactional reads', f: () => maxReadBytesPerSecond(6, 'transactional'), bytes: 12 * KB },
    { what: 'writes', f: () => maxWriteBytesPerSecond(6, false), bytes: 6 * KB },
    { what: 'transactional writes', f: () => maxWriteBytesPerSecond(6, true), bytes: 3 * KB },
  ])('$what: $bytes B/s', ({ f, bytes }) => {
    const r = f();
    expect(r.value).toBe(bytes);
    expect(r.unit).toBe('B/s');
  });
});

describe('properties', () => {
  const consistency = fc.constantFrom('eventual', 'strong', 'transactional') as fc.Arbitrary<'eventual' | 'strong' | 'transactional'>;
  const bytes = fc.double({ min: 0, max: 2e6, noNaN: true });

  it('more bytes never cost fewer units', () => {
    fc.assert(
      fc.property(bytes, bytes, consistency, fc.boolean(), (a, b, c, tx) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        return readUnitsForBytes(lo, c) <= readUnitsForBytes(hi, c) && writeUnitsForBytes(lo, tx) <= writeUnitsForBytes(hi, tx);
      }),
    );
  });

  it('a query costs at least a single rounding of all it reads, and at most one more block per page', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 1, max: 400_000 }), (items, size) => {
        const f = queryReadUnits({ itemCount: items, itemBytes: size, consistency: 'strong', target: 'table' });
        const pages = f.steps.find((s) => s.unit === 'pages')?.value ?? 0;
        const single = readUnitsForBytes(items * size, 'strong');
        return f.value >= single && f.value <= single + pages;
      }),
    );
  });

  it('more items or bigger items never make a query cheaper', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 0, max: 5000 }), (items, more, size, bigger) => {
        const q = (n: number, s: number) => queryReadUnits({ itemCount: n, itemBytes: s, consistency: 'eventual', target: 'table' }).value;
        return q(items, size) <= q(items + more, size) && q(items, size) <= q(items, size + bigger);
      }),
    );
  });

  it('a fan-out over N shards that each fit one page costs at most N × 0.5 RCU more than one query (docs/dynamodb-rules.md §5)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 4000 }), (shards, perShard, size) => {
        fc.pre(perShard * size <= PAGE_BYTES);
        const input = { itemCount: shards * perShard, itemBytes: size, consistency: 'eventual', target: 'table' } as const;
        const all = queryReadUnits(input).value;
        const sharded = queryReadUnits({ ...input, requests: shards }).value;
        return sharded >= readUnitsForBytes(shards * perShard * size, 'eventual') && sharded <= all + shards * 0.5;
      }),
    );
  });

  it('every page but the last reads at least 1 MB', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 409_600 }), (items, size) => {
        const f = scanReadUnits({ segments: [{ itemCount: items, itemBytes: size }], consistency: 'strong' });
        const pages = f.steps.find((s) => s.unit === 'pages')?.value ?? 0;
        return (pages - 1) * PAGE_BYTES <= items * size && items * size < pages * (PAGE_BYTES + size);
      }),
    );
  });

  it('a write costs at least its table write, and the parts add up', () => {
    fc.assert(
      fc.property(bytes, bytes, fc.boolean(), fc.array(fc.tuple(fc.constantFrom('put', 'move', 'delete', 'none') as fc.Arbitrary<IndexWriteInput['effect']>, bytes, bytes, fc.boolean()), { maxLength: 4 }), (before, after, tx, ix) => {
        const indexes = ix.map(([effect, o, n, isGsi], i): IndexWriteInput => ({ target: { kind: isGsi ? 'gsi' : 'lsi', name: `i${i}` }, effect, oldEntryBytes: o, newEntryBytes: n }));
        const w = writeUnits({ kind: 'update', oldItemBytes: before, newItemBytes: after, transactional: tx, indexes });
        const parts = w.table.value + Object.values(w.gsis).reduce((s, f) => s + f.value, 0);
        return w.total.value === parts && w.table.value >= writeUnitsForBytes(Math.max(before, after), tx);
      }),
    );
  });
});
