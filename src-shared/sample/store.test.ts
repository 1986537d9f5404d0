import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { itemSizeBytes } from '../capacity/index.ts';
import type { Attribute, Design, Entity, Table } from '../model/index.ts';
import { compareCodePoints, createSampleStore, type SampleStore } from './store.ts';
import type { SampleRow } from './types.ts';

const ecommerce = JSON.parse(readFileSync(new URL('../../examples/ecommerce.keyplan.json', import.meta.url), 'utf8')) as Design;

function design(table: Partial<Table> & Pick<Table, 'entities'>): Design {
  return {
    formatVersion: 1,
    id: 'd',
    name: 'Test',
    tables: [
      {
        id: 't',
        name: 'Things',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [],
        localSecondaryIndexes: [],
        accessPatterns: [],
        ...table,
      },
    ],
  };
}

const entity = (id: string, itemCount: number, attributes: Attribute[], keys: Entity['keys']): Entity => ({ id, name: id, itemCount, attributes, keys });

/** Every row of a view, collection headers included. */
function allLines(store: SampleStore, view: string): SampleRow[] {
  const { total } = store.page(view, 0, 0);
  const rows: SampleRow[] = [];
  for (let offset = 0; offset < total; offset += 997) rows.push(...store.page(view, offset, 997).rows);
  return rows;
}
const itemsOf = (rows: SampleRow[]) => rows.filter((r) => !r.collection);

const shop = (seed = 1, maxItems = 20_000) => createSampleStore(ecommerce, 'tbl-shop', { seed, maxItems });

describe('createSampleStore on the e-commerce example', () => {
  it('is deterministic: the same seed gives the same rows in every view', () => {
    const a = shop(7);
    const b = shop(7);
    expect(b.summary()).toEqual(a.summary());
    for (const view of ['table', 'GSI1', 'GSI2']) expect(allLines(b, view)).toEqual(allLines(a, view));
  });

  it('gives other items for another seed', () => {
    expect(shop(8).page('table', 0, 200).rows).not.toEqual(shop(7).page('table', 0, 200).rows);
  });

  it('scales counts down to maxItems, keeping proportions, and says so', () => {
    const summary = shop().summary();
    expect(summary.capped).toMatch(/20,050,000 items; 19,99\d were generated/);
    expect(summary.itemsPerEntity).toMatchObject({ 'ent-user': 997, 'ent-product': 49, 'ent-order': 4987, 'ent-order-item': 11970, 'ent-review': 1995 });
    expect(summary.itemCount).toBe(Object.values(summary.itemsPerEntity).reduce((s, n) => s + n, 0));
    expect(summary.entities?.map((e) => [e.name, e.requested])).toContainEqual(['Order', 5_000_000]);
  });

  it('reports progress about every 50,000 items, ending at the total', () => {
    const calls: Array<[number, number]> = [];
    createSampleStore(ecommerce, 'tbl-shop', { maxItems: 200_000, onProgress: (done, total) => calls.push([done, total]) });
    expect(calls.length).toBeGreaterThanOrEqual(4);
    const [lastDone, total] = calls.at(-1)!;
    expect(lastDone).toBe(total);
    for (let i = 1; i < calls.length; i += 1) expect(calls[i]![0]).toBeGreaterThanOrEqual(calls[i - 1]![0]);
  });

  it('keeps references consistent: every order belongs to a generated user, every order item to an order', () => {
    const store = shop();
    const rows = itemsOf(allLines(store, 'table'));
    const userIds = new Set(rows.filter((r) => r.entity === 'User').map((r) => r.attributes.userId));
    const orderIds = new Set(rows.filter((r) => r.entity === 'Order').map((r) => r.attributes.orderId));
    const productIds = new Set(rows.filter((r) => r.entity === 'Product').map((r) => r.attributes.productId));
    expect(userIds.size).toBe(997);
    for (const r of rows.filter((x) => x.entity === 'Order')) {
      expect(userIds.has(r.attributes.userId)).toBe(true);
      expect(r.partitionKey).toBe(`USER#${r.attributes.userId}`);
    }
    for (const r of rows.filter((x) => x.entity === 'OrderItem')) {
      expect(orderIds.has(r.attributes.orderId)).toBe(true);
      expect(productIds.has(r.attributes.productId)).toBe(true);
    }
  });

  it('generates ids like u-0000001 (7 digits for the example’s 1,000,000 users), unique per entity, and emails unique per user', () => {
    const rows = itemsOf(allLines(shop(), 'table'));
    const users = rows.filter((r) => r.entity === 'User');
    expect(users.map((u) => u.attributes.userId)).toContain('u-0000001');
    expect(new Set(users.map((u) => u.attributes.email)).size).toBe(users.length);
    for (const u of users) expect(u.attributes.email).toMatch(/^[a-z]+\.[a-z]+\d+@example\.com$/);
    const orders = rows.filter((r) => r.entity === 'Order');
    expect(new Set(orders.map((o) => o.attributes.orderId)).size).toBe(orders.length);
  });

  it('respects sparse conditions: GSI2 holds exactly the open orders, and only they carry GSI2PK', () => {
    const store = shop();
    const orders = itemsOf(allLines(store, 'table')).filter((r) => r.entity === 'Order');
    const open = orders.filter((o) => o.attributes.status === 'PENDING' || o.attributes.status === 'PROCESSING');
    for (const o of orders) expect('GSI2PK' in o.attributes).toBe(open.includes(o));
    const gsi2 = itemsOf(allLines(store, 'GSI2'));
    expect(gsi2).toHaveLength(open.length);
    expect(new Set(gsi2.map((r) => r.partitionKey))).toEqual(new Set(['STATUS#PENDING', 'STATUS#PROCESSING']));
    // PENDING 3 and PROCESSING 2 of weights summing to 100: about 5%.
    expect(open.length / orders.length).toBeGreaterThan(0.035);
    expect(open.length / orders.length).toBeLessThan(0.065);
  });

  it('follows enum weights: about 80% of orders are DELIVERED', () => {
    const orders = itemsOf(allLines(shop(), 'table')).filter((r) => r.entity === 'Order');
    const delivered = orders.filter((o) => o.attributes.status === 'DELIVERED').length / orders.length;
    expect(Math.abs(delivered - 0.8)).toBeLessThan(0.02);
  });

  it('projects INCLUDE: keys of the table and GSI2, plus userId and total; entry bytes as DynamoDB sizes them', () => {
    const store = shop();
    const page = store.items('GSI2', 0, 50);
    for (const [i, row] of page.rows.entries()) {
      expect(Object.keys(row.attributes).sort()).toEqual(['PK', 'SK', 'total', 'userId']);
      const entry = store.itemAt('GSI2', i);
      expect(Object.keys(entry).sort()).toEqual(['GSI2PK', 'GSI2SK', 'PK', 'SK', 'total', 'userId']);
      expect(itemSizeBytes(entry)).toBe(row.bytes);
    }
  });

  it('sizes every item exactly as itemSizeBytes does, in the table and in an ALL index', () => {
    const store = shop(3, 5_000);
    for (const view of ['table', 'GSI1']) {
      const { total, rows } = store.items(view, 0, 10_000);
      expect(rows).toHaveLength(total);
      rows.forEach((row, i) => expect(itemSizeBytes(store.itemAt(view, i))).toBe(row.bytes));
    }
  });

  it('sums views in the summary as the collections do', () => {
    const store = shop();
    for (const view of store.summary().views) {
      const collections = [...store.collections(view.name)];
      expect(collections).toHaveLength(view.collections);
      expect(collections.reduce((s, c) => s + c.items, 0)).toBe(view.itemCount);
      expect(collections.reduce((s, c) => s + c.bytes, 0)).toBe(view.bytes);
      const keys = store.keysOf(view.name);
      expect(keys.keyOfItem).toHaveLength(view.itemCount);
      expect(keys.bytesOfItem.reduce((s, b) => s + b, 0)).toBe(view.bytes);
    }
  });
});

describe('the aggregate view', () => {
  const store = shop(2, 10_000);

  it('puts a header before each collection with its item count and bytes, then its items', () => {
    const lines = allLines(store, 'table');
    const summary = store.summary().views.find((v) => v.name === 'table')!;
    expect(lines).toHaveLength(summary.itemCount + summary.collections);
    let header: SampleRow | undefined;
    let items = 0;
    let bytes = 0;
    const close = () => {
      if (!header) return;
      expect(header.collection).toEqual({ items, bytes });
    };
    for (const line of lines) {
      if (line.collection) {
        close();
        header = line;
        items = 0;
        bytes = 0;
      } else {
        expect(line.partitionKey).toBe(header!.partitionKey);
        items += 1;
        bytes += line.bytes;
      }
    }
    close();
  });

  it('orders collections by partition key and items by sort key (code point order)', () => {
    const lines = allLines(store, 'table');
    const headers = lines.filter((l) => l.collection).map((l) => l.partitionKey);
    for (let i = 1; i < headers.length; i += 1) expect(compareCodePoints(headers[i - 1]!, headers[i]!)).toBeLessThan(0);
    const items = itemsOf(lines);
    for (let i = 1; i < items.length; i += 1) {
      if (items[i]!.partitionKey === items[i - 1]!.partitionKey) expect(compareCodePoints(items[i - 1]!.sortKey!, items[i]!.sortKey!)).toBeLessThanOrEqual(0);
    }
  });

  it('pages consistently: any page equals the same slice of the whole view', () => {
    const whole = allLines(store, 'GSI1');
    expect(store.page('GSI1', 123, 50).rows).toEqual(whole.slice(123, 173));
    expect(store.page('GSI1', whole.length - 3, 50).rows).toEqual(whole.slice(-3));
    expect(store.page('GSI1', whole.length + 10, 50).rows).toEqual([]);
  });

  it('finds the first collection whose partition key starts with a prefix', () => {
    const lines = allLines(store, 'table');
    const at = store.find('table', 'PRODUCT#');
    expect(at).not.toBeNull();
    expect(lines[at!]!.collection).toBeDefined();
    expect(lines[at!]!.partitionKey.startsWith('PRODUCT#')).toBe(true);
    expect(lines.slice(0, at!).some((l) => l.partitionKey.startsWith('PRODUCT#'))).toBe(false);
    const user = lines.find((l) => l.entity === 'User')!;
    expect(lines[store.find('table', user.partitionKey)!]!.partitionKey).toBe(user.partitionKey);
    expect(store.find('table', 'NOPE#')).toBeNull();
    expect(store.find('table', 'USER#zzz')).toBeNull();
  });

  it('rejects an unknown view by naming the views there are', () => {
    expect(() => store.page('GSI9', 0, 10)).toThrow(/"table", "GSI1", "GSI2"/);
  });
});

describe('generators, keys and sort rules', () => {
  it('sorts N sort keys numerically and S sort keys by code point, not UTF-16 unit', () => {
    const d = design({
      sortKey: { name: 'SK', type: 'N' },
      localSecondaryIndexes: [{ id: 'l', name: 'ByLabel', sortKey: { name: 'LSK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
      entities: [
        entity(
          'Thing',
          40,
          [
            { name: 'n', type: 'N', generator: { kind: 'number', min: 1, max: 1000 } },
            { name: 'label', type: 'S', generator: { kind: 'enum', values: ['\uFFFD', '😀', 'z', 'é'] } },
          ],
          { PK: { template: 'ALL' }, SK: { template: '{n}' }, LSK: { template: '{label}' } },
        ),
      ],
    });
    const store = createSampleStore(d, 't', { seed: 4 });
    const numbers = store.items('table', 0, 100).rows.map((r) => Number(r.sortKey));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.some((n) => n >= 100)).toBe(true);
    const labels = [...new Set(store.items('ByLabel', 0, 100).rows.map((r) => r.sortKey))];
    expect(labels).toEqual(['z', 'é', '\uFFFD', '😀']);
    expect(Object.keys(store.items('ByLabel', 0, 1).rows[0]!.attributes).sort()).toEqual(['SK']);
  });

  it('projects KEYS_ONLY as the table keys and the index keys, and ALL as the whole item', () => {
    const d = design({
      globalSecondaryIndexes: [
        { id: 'g1', name: 'Keys', partitionKey: { name: 'G1PK', type: 'S' }, projection: { type: 'KEYS_ONLY' } },
        { id: 'g2', name: 'Everything', partitionKey: { name: 'G2PK', type: 'S' }, sortKey: { name: 'G2SK', type: 'S' }, projection: { type: 'ALL' } },
      ],
      entities: [
        entity('A', 30, [{ name: 'aId', type: 'S', generator: { kind: 'id' } }, { name: 'kind', type: 'S', generator: { kind: 'enum', values: ['x', 'y'] } }, { name: 'note', type: 'S', generator: { kind: 'text', length: 12 } }], {
          PK: { template: 'A#{aId}' },
          SK: { template: 'A' },
          G1PK: { template: 'KIND#{kind}' },
          G2PK: { template: 'K#{kind}' },
          G2SK: { template: '{aId}' },
        }),
      ],
    });
    const store = createSampleStore(d, 't');
    expect(store.summary().capped).toBeUndefined();
    const keysOnly = store.itemAt('Keys', 0);
    expect(Object.keys(keysOnly).sort()).toEqual(['G1PK', 'PK', 'SK']);
    expect(store.items('Keys', 0, 1).rows[0]!.bytes).toBe(itemSizeBytes(keysOnly));
    const all = store.itemAt('Everything', 0);
    expect(Object.keys(all).sort()).toEqual(['G1PK', 'G2PK', 'G2SK', 'PK', 'SK', 'aId', 'kind', 'note']);
    expect((all.note as { S: string }).S).toHaveLength(12);
    expect(store.summary().views.map((v) => [v.name, v.itemCount, v.collections])).toEqual([
      ['table', 30, 30],
      ['Keys', 30, 2],
      ['Everything', 30, 2],
    ]);
  });

  it('generates every kind within its rules and sizes every type exactly', () => {
    const d = design({
      entities: [
        entity(
          'Kinds',
          300,
          [
            { name: 'id', type: 'S', generator: { kind: 'uuid' } },
            { name: 'day', type: 'S', generator: { kind: 'date', min: 0, max: 9, distribution: { kind: 'today' } } },
            { name: 'at', type: 'S', generator: { kind: 'timestamp' } },
            { name: 'epoch', type: 'N', generator: { kind: 'timestamp' } },
            { name: 'n', type: 'N', generator: { kind: 'number', min: -50, max: 50 } },
            { name: 'price', type: 'N', generator: { kind: 'number', min: 0.5, max: 99.99 } },
            { name: 'plan', type: 'S', generator: { kind: 'constant', value: 'PRO' } },
            { name: 'text', type: 'S', generator: { kind: 'text', length: 40 } },
            { name: 'who', type: 'S', generator: { kind: 'name' } },
            { name: 'flag', type: 'BOOL' },
            { name: 'blob', type: 'B', averageSizeBytes: 7 },
            { name: 'address', type: 'M', averageSizeBytes: 60 },
            { name: 'lines', type: 'L', averageSizeBytes: 30 },
            { name: 'tags', type: 'SS', averageSizeBytes: 12 },
            { name: 'scores', type: 'NS', averageSizeBytes: 10 },
            { name: 'blobs', type: 'BS', averageSizeBytes: 9 },
            { name: 'nothing', type: 'NULL' },
            { name: 'rank', type: 'N', generator: { kind: 'number', min: 0, max: 99999 } },
            { name: 'group', type: 'S', cardinality: 3 },
          ],
          { PK: { template: 'K#{group}' }, SK: { template: '{day}#{rank:05}' } },
        ),
      ],
    });
    const store = createSampleStore(d, 't', { seed: 9, today: '2026-03-14' });
    const { rows } = store.items('table', 0, 1000);
    expect(rows).toHaveLength(300);
    rows.forEach((row, i) => expect(itemSizeBytes(store.itemAt('table', i))).toBe(row.bytes));
    const days = new Map<string, number>();
    for (const { attributes: a, sortKey } of rows) {
      expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(a.day! >= '2026-03-05' && a.day! <= '2026-03-14').toBe(true);
      days.set(a.day as string, (days.get(a.day as string) ?? 0) + 1);
      expect(a.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(Number.isInteger(a.epoch)).toBe(true);
      expect((a.n as number) >= -50 && (a.n as number) <= 50).toBe(true);
      const cents = (a.price as number) * 100;
      expect(cents >= 50 && cents <= 9999 && Math.abs(cents - Math.round(cents)) < 1e-9).toBe(true);
      expect(a.plan).toBe('PRO');
      expect(a.text).toHaveLength(40);
      expect(a.who).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
      expect(typeof a.flag).toBe('boolean');
      expect(sortKey).toMatch(/^\d{4}-\d\d-\d\d#\d{5}$/);
    }
    expect(new Set(rows.map((r) => r.attributes.group)).size).toBeLessThanOrEqual(3);
    expect(store.summary().views[0]!.collections).toBeLessThanOrEqual(3);
    // "today": the newest of 10 days holds 10/55 of the items, the oldest 1/55.
    expect(days.get('2026-03-14')!).toBeGreaterThan(3 * (days.get('2026-03-05') ?? 0));
    expect(days.get('2026-03-14')!).toBeGreaterThan(300 / 10);
  });

  it('draws references by their distribution: Zipf makes the first user the busiest', () => {
    const d = design({
      entities: [
        entity('User', 100, [{ name: 'userId', type: 'S', generator: { kind: 'id' } }], { PK: { template: 'USER#{userId}' }, SK: { template: 'PROFILE' } }),
        entity('Order', 5000, [{ name: 'orderId', type: 'S', generator: { kind: 'id' } }, { name: 'userId', type: 'S', generator: { kind: 'ref', entity: 'User', distribution: { kind: 'zipf', exponent: 1 } } }], {
          PK: { template: 'USER#{userId}' },
          SK: { template: 'ORDER#{orderId}' },
        }),
      ],
    });
    const store = createSampleStore(d, 't');
    const collections = [...store.collections('table')].sort((a, b) => b.items - a.items);
    expect(collections[0]!.partitionKey).toBe('USER#u-000001');
    // 1 / H(100) ≈ 19.3% of the orders, plus the user's own item.
    expect(Math.abs((collections[0]!.items - 1) / 5000 - 0.193)).toBeLessThan(0.02);
    expect(store.summary().views[0]!.collections).toBe(100);
  });

  it('merges keys of two entities that render the same string, even from different attributes', () => {
    const d = design({
      entities: [
        entity('A', 20, [{ name: 'x', type: 'S', generator: { kind: 'enum', values: ['1', '2'] } }], { PK: { template: 'K#{x}' }, SK: { template: 'A' } }),
        entity('B', 20, [{ name: 'y', type: 'N', generator: { kind: 'number', min: 1, max: 2 } }], { PK: { template: 'K#{y}' }, SK: { template: 'B' } }),
      ],
    });
    const store = createSampleStore(d, 't');
    expect([...store.collections('table')].map((c) => c.partitionKey).sort()).toEqual(['K#1', 'K#2']);
  });

  it('shards a partition key with suffixes 1 … N', () => {
    const d = design({
      entities: [
        entity('Event', 500, [{ name: 'country', type: 'S', generator: { kind: 'constant', value: 'PT' } }, { name: 'eventId', type: 'S', generator: { kind: 'id' } }], {
          PK: { template: 'COUNTRY#{country}', shards: { count: 4, method: 'random' } },
          SK: { template: '{eventId}' },
        }),
      ],
    });
    const store = createSampleStore(d, 't');
    expect([...store.collections('table')].map((c) => c.partitionKey).sort()).toEqual(['COUNTRY#PT.1', 'COUNTRY#PT.2', 'COUNTRY#PT.3', 'COUNTRY#PT.4']);
    store.items('table', 0, 5).rows.forEach((row, i) => expect(itemSizeBytes(store.itemAt('table', i))).toBe(row.bytes));
  });

  it('notes keys it cannot render and leaves items without a table key out', () => {
    const d = design({
      globalSecondaryIndexes: [{ id: 'g', name: 'ByGhost', partitionKey: { name: 'GPK', type: 'S' }, projection: { type: 'ALL' } }],
      entities: [
        entity('A', 10, [{ name: 'aId', type: 'S', generator: { kind: 'id' } }], { PK: { template: 'A#{aId}' }, SK: { template: 'A' }, GPK: { template: 'G#{ghost}' } }),
        entity('B', 10, [{ name: 'bId', type: 'S' }], { PK: { template: 'B#{bId}' } }),
      ],
    });
    const summary = createSampleStore(d, 't').summary();
    expect(summary.notes).toEqual([
      'A: GPK = G#{ghost}: no attribute "ghost"; no item carries GPK.',
      'B: no template for SK, so its items cannot be stored; none were generated.',
    ]);
    expect(summary.itemsPerEntity).toEqual({ A: 10, B: 0 });
    expect(summary.views.find((v) => v.name === 'ByGhost')!.itemCount).toBe(0);
  });

  it('finds an N partition key by its number', () => {
    const d = design({
      partitionKey: { name: 'PK', type: 'N' },
      sortKey: undefined,
      entities: [entity('A', 50, [{ name: 'n', type: 'N', generator: { kind: 'id' } }], { PK: { template: '{n}' } })],
    });
    const store = createSampleStore(d, 't');
    const lines = store.page('table', 0, 1000).rows;
    expect(lines.filter((l) => l.collection).map((l) => Number(l.partitionKey))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(lines[store.find('table', '42')!]!.partitionKey).toBe('42');
    expect(store.find('table', '4.5')).toBeNull();
  });
});

describe('people', () => {
  it("gives a user's email the same person as the user's name", () => {
    const d = design({
      entities: [
        entity('User', 50, [{ name: 'userId', type: 'S', generator: { kind: 'id' } }, { name: 'name', type: 'S', generator: { kind: 'name' } }, { name: 'email', type: 'S', generator: { kind: 'email' } }], {
          PK: { template: 'USER#{userId}' },
          SK: { template: 'PROFILE' },
        }),
      ],
    });
    for (const { attributes: a } of createSampleStore(d, 't').items('table', 0, 50).rows) {
      const [first, last] = String(a.name).toLowerCase().split(' ');
      expect(String(a.email).startsWith(`${first}.${last}`)).toBe(true);
    }
  });
});
