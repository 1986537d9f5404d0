/**
 * Golden files of whole sample stores: what the store generates for four designs (a benchmark-shaped
 * one, the two examples, and one of every key shape the store groups differently), down to every
 * partition key, every item's key and size, each collection's totals and where the simulator's hash
 * places each key. Large arrays are kept as SHA-256 digests of their bytes, small ones whole, with
 * the first rows of every view rendered in full.
 *
 * These pin the generator so that it can be made faster without changing a single item: the files
 * were written by the store before its speed work, and must stay as they are. After a deliberate
 * change to the generated data, review the diff and regenerate with
 * `KEYPLAN_UPDATE_GOLDEN=1 npx vitest run src-shared/sample/golden.test.ts`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Attribute, Design, Entity } from '../model/index.ts';
import { hashFraction, placeKeyColumns } from '../partition/index.ts';
import { createSampleStore, type SampleStore, type SampleStoreOptions } from './store.ts';

const root = resolve(import.meta.dirname, '../..');
const fixtures = resolve(import.meta.dirname, '__fixtures__');
const isUpdating = process.env.KEYPLAN_UPDATE_GOLDEN === '1';

const readDesign = (file: string): Design => JSON.parse(readFileSync(resolve(root, file), 'utf8')) as Design;

/** The benchmark's shape (five entities, owner-grouped keys of an id with a cardinality), at a size a test can afford. */
function benchShaped(): Design {
  const names = ['Account', 'Device', 'Event', 'Invoice', 'Session'];
  const entities: Entity[] = names.map((name, i) => {
    const id = `${name.toLowerCase()}Id`;
    return {
      id: `e-${i}`,
      name,
      itemCount: 2_000_000,
      attributes: [
        { name: id, type: 'S', generator: { kind: 'id' } },
        { name: 'ownerId', type: 'S', generator: { kind: 'id' }, cardinality: 200_000 },
        { name: 'createdAt', type: 'S', generator: { kind: 'timestamp' } },
        { name: 'payload', type: 'S', averageSizeBytes: 600 },
      ],
      keys: { PK: { template: `${name.toUpperCase()}#{ownerId}` }, SK: { template: `${name.toUpperCase()}#{${id}}` } },
    };
  });
  return {
    formatVersion: 1,
    id: 'bench-shaped',
    name: 'Benchmark-shaped',
    tables: [
      {
        id: 't',
        name: 'Bench',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [],
        localSecondaryIndexes: [],
        entities,
        accessPatterns: [],
      },
    ],
  };
}

const entity = (id: string, itemCount: number, attributes: Attribute[], keys: Entity['keys']): Entity => ({ id, name: id, itemCount, attributes, keys });

/**
 * One entity per way the store groups a key: ids with and without a cardinality, references drawn by
 * Zipf's law into another entity's collections, emails, a sharded constant (random suffixes) and a
 * sharded id (calculated suffixes), a non-ASCII literal, a literal that starts with another entity's
 * (so both group by the rendered string), padding, two placeholders, a constant key, N and B keys, a
 * natural GSI key, a sparse key by condition and one by an optional attribute.
 */
function everyShape(): Design {
  return {
    formatVersion: 1,
    id: 'every-shape',
    name: 'Every key shape',
    tables: [
      {
        id: 't',
        name: 'Shapes',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [
          { id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' } },
          { id: 'g2', name: 'ByScore', partitionKey: { name: 'score', type: 'N' }, projection: { type: 'INCLUDE', nonKeyAttributes: ['email', 'total'] } },
          { id: 'g3', name: 'ByBlob', partitionKey: { name: 'BLOBPK', type: 'B' }, projection: { type: 'ALL' } },
          { id: 'g4', name: 'ByNumber', partitionKey: { name: 'NPK', type: 'N' }, sortKey: { name: 'SK', type: 'S' }, projection: { type: 'ALL' } },
        ],
        localSecondaryIndexes: [{ id: 'l1', name: 'ByTier', sortKey: { name: 'LSK', type: 'S' }, projection: { type: 'ALL' } }],
        entities: [
          entity(
            'User',
            3000,
            [
              { name: 'userId', type: 'S', generator: { kind: 'id' } },
              { name: 'email', type: 'S', generator: { kind: 'email' } },
              { name: 'name', type: 'S', generator: { kind: 'name' } },
              { name: 'tier', type: 'S', generator: { kind: 'enum', values: ['free', 'pro', 'team'], weights: [6, 3, 1] } },
              { name: 'score', type: 'N', generator: { kind: 'number', min: 1, max: 40 } },
              // A user name by its name alone (`handle`), on 30% of the users.
              { name: 'handle', type: 'S', presence: 0.3 },
            ],
            { PK: { template: 'USER#{userId}' }, SK: { template: 'PROFILE' }, GSI1PK: { template: 'EMAIL#{email}' }, GSI1SK: { template: 'N#{handle}' }, LSK: { template: '{tier}' } },
          ),
          entity(
            'Order',
            6000,
            [
              { name: 'orderId', type: 'S', generator: { kind: 'id' } },
              { name: 'userId', type: 'S', generator: { kind: 'ref', entity: 'User', distribution: { kind: 'zipf', exponent: 1.1 } } },
              { name: 'createdAt', type: 'S', generator: { kind: 'date' } },
              { name: 'total', type: 'N', generator: { kind: 'number', min: 5, max: 900.5 } },
              { name: 'status', type: 'S', generator: { kind: 'enum', values: ['PENDING', 'SHIPPED', 'DELIVERED'], weights: [1, 2, 7] } },
            ],
            {
              PK: { template: 'USER#{userId}' },
              SK: { template: 'ORDER#{createdAt}#{orderId}' },
              GSI1PK: { template: 'STATUS#{status}', when: 'status IN ("PENDING", "SHIPPED")', shards: { count: 3, method: 'random' } },
              GSI1SK: { template: '{createdAt}' },
              LSK: { template: 'O#{total}' },
            },
          ),
          entity(
            'Event',
            4000,
            [
              { name: 'country', type: 'S', generator: { kind: 'constant', value: 'PT' } },
              { name: 'eventId', type: 'S', generator: { kind: 'uuid' } },
            ],
            { PK: { template: 'COUNTRY#{country}', shards: { count: 8, method: 'random' } }, SK: { template: '{eventId}' } },
          ),
          entity(
            'Reading',
            4000,
            [
              { name: 'sensorId', type: 'S', generator: { kind: 'id' }, cardinality: 50 },
              { name: 'readingId', type: 'S', generator: { kind: 'id' } },
              { name: 'at', type: 'S', generator: { kind: 'timestamp', distribution: { kind: 'today' } } },
            ],
            { PK: { template: 'SENSOR#{sensorId}', shards: { count: 5, method: 'calculated', from: 'readingId' } }, SK: { template: '{at}' } },
          ),
          entity('Ünï', 500, [{ name: 'uId', type: 'S', generator: { kind: 'id' } }], { PK: { template: 'ÜSER#{uId}' }, SK: { template: 'Ü' } }),
          entity('Prefixed', 500, [{ name: 'n', type: 'S', generator: { kind: 'id' } }], { PK: { template: 'USER#A{n}' }, SK: { template: 'A' } }),
          entity(
            'Pad',
            300,
            [
              { name: 'num', type: 'N', generator: { kind: 'id' } },
              { name: 'label', type: 'S', generator: { kind: 'enum', values: ['x', 'y'] } },
            ],
            { PK: { template: 'P#{num:08}' }, SK: { template: '{num}#{label}' }, NPK: { template: '{num}' } },
          ),
          entity(
            'Bin',
            200,
            [
              { name: 'binId', type: 'S', generator: { kind: 'id' } },
              { name: 'blob', type: 'B', averageSizeBytes: 6, cardinality: 40 },
            ],
            { PK: { template: 'BIN#{binId}' }, SK: { template: 'B' }, BLOBPK: { template: '{blob}' } },
          ),
          entity('Const', 100, [{ name: 'cId', type: 'S', generator: { kind: 'id' } }], { PK: { template: 'SINGLETON' }, SK: { template: '{cId}' } }),
          entity(
            'Multi',
            400,
            [
              { name: 'a', type: 'S', generator: { kind: 'enum', values: ['red', 'green', 'blue'] } },
              { name: 'b', type: 'N', generator: { kind: 'number', min: 1, max: 9 } },
              { name: 'mId', type: 'S', generator: { kind: 'id' } },
            ],
            { PK: { template: 'M#{a}#{b}' }, SK: { template: '{mId}' } },
          ),
        ],
        accessPatterns: [],
      },
    ],
  };
}

const STORES: Array<[name: string, design: () => Design, options: SampleStoreOptions]> = [
  ['bench-shaped', benchShaped, { maxItems: 40_000, seed: 1 }],
  ['ecommerce', () => readDesign('examples/ecommerce.keyplan.json'), { maxItems: 30_000, seed: 3 }],
  ['esports', () => readDesign('examples/esports.keyplan.json'), { maxItems: 20_000, seed: 1 }],
  ['every-shape', everyShape, { seed: 5 }],
];

/** The first 16 hex digits of SHA-256 of an array's bytes, or of a list of strings one a line. */
function digest(values: ArrayBufferView | readonly string[]): string {
  const hash = createHash('sha256');
  if (ArrayBuffer.isView(values)) hash.update(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  else hash.update(values.join('\n'));
  return hash.digest('hex').slice(0, 16);
}

/** Everything the store shows of a view that generation decides (placement on 1,000 and on 7 partitions). */
function viewRecord(store: SampleStore, view: string): unknown {
  const k = store.keysOf(view);
  const placements = [1000, 7].map((n) => {
    const p = placeKeyColumns(k, n);
    return { partitions: n, items: digest(p.items), bytes: digest(p.bytes), keys: digest(p.keys), partitionOfKey: digest(p.partitionOfKey) };
  });
  const items = store.items(view, 0, 0).total;
  const firstKey = k.keys[0];
  return {
    keyType: k.keyType,
    keyCount: k.keys.length,
    firstKeys: k.keys.slice(0, 8),
    keys: digest(k.keys),
    keyOfItem: digest(k.keyOfItem),
    bytesOfItem: digest(k.bytesOfItem),
    itemsPerKey: digest(k.itemsPerKey),
    bytesPerKey: digest(k.bytesPerKey),
    firstCollections: [...store.collections(view)].slice(0, 5),
    placements,
    firstLines: store.page(view, 0, 24).rows,
    middleItems: store.items(view, Math.floor(items / 2), 4).rows,
    firstItem: items > 0 ? store.itemAt(view, 0) : null,
    lastItem: items > 0 ? store.itemAt(view, items - 1) : null,
    found: firstKey === undefined || k.keyType !== 'S' ? null : store.find(view, firstKey.slice(0, Math.ceil(firstKey.length / 2))),
  };
}

describe.each(STORES)('the sample store of %s', (name, design, options) => {
  it('generates the items, keys, sizes and placements of its golden file', () => {
    const d = design();
    const store = createSampleStore(d, d.tables[0]!.id, options);
    const summary = store.summary();
    const actual = `${JSON.stringify({ summary, views: Object.fromEntries(summary.views.map((v) => [v.name, viewRecord(store, v.name)])) }, null, 1)}\n`;
    const golden = resolve(fixtures, `${name}.store.golden.json`);
    if (isUpdating || !existsSync(golden)) writeFileSync(golden, actual);
    expect(actual).toBe(readFileSync(golden, 'utf8'));
  });

  it('places its keys from their structure exactly where the simulator places their rendered text', () => {
    const d = design();
    const store = createSampleStore(d, d.tables[0]!.id, options);
    const views = store.summary().views.map((v) => v.name);
    // Placed before any key is hashed or rendered (hashed a chunk at a time), then hashed, then
    // compared with the rendered keys.
    const placements = views.map((view) => [1000, 7].map((n) => store.placement(view, n)));
    const hashes = views.map((view) => Array.from(store.keyHashes(view)));
    views.forEach((view, i) => {
      const k = store.keysOf(view);
      expect(hashes[i], view).toEqual(k.keys.map((key) => hashFraction(key)));
      expect(placements[i], view).toEqual([1000, 7].map((n) => placeKeyColumns(k, n)));
    });
  });
});

describe('placing a sample of more keys than are hashed at a time', () => {
  it('places 150,000 items of the benchmark shape as their rendered keys are placed', () => {
    const d = benchShaped();
    const store = createSampleStore(d, 't', { maxItems: 150_000, seed: 2 });
    // 30,000 uniform draws per entity from 200,000 owner ids give 200,000 × (1 − e^−0.15) ≈ 27,900
    // distinct owners, ≈ 139,000 keys over the five entities: more than two chunks of 65,536 (what
    // a placement hashes at a time).
    expect(store.summary().views[0]!.collections).toBeGreaterThan(2 * 65_536);
    const placement = store.placement('table', 1000);
    expect(placement).toEqual(placeKeyColumns(store.keysOf('table'), 1000));
  });
});
