/**
 * One value model: the widest key text the model states for an attribute (`maxKeyTextBytes`, which
 * the key size check reads) is never narrower than what the sample data generates for it; and sample
 * data never stores a key over DynamoDB's limit silently.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8ByteLength, maxKeyTextBytes } from '../model/index.ts';
import type { Attribute, Design, Entity, Generator } from '../model/index.ts';
import { createColumn } from './columns.ts';
import { createSampleStore, sampleContext } from './store.ts';

const ctx = sampleContext(7, '2026-03-14');

/** The widest text the sample data gives `attribute` over an entity's items, and what the model says. */
function widths(attribute: Attribute, itemCount: number): { generated: number; stated: number | undefined } {
  const entity: Entity = { id: 'e', name: 'Order Item', itemCount, attributes: [attribute], keys: {} };
  const rows = Math.min(itemCount, 2000);
  const column = createColumn(entity, attribute, rows, ctx, () => undefined);
  let generated = 0;
  for (let r = 0; r < rows; r += 1) generated = Math.max(generated, utf8ByteLength(column.text(r)));
  return { generated, stated: maxKeyTextBytes(attribute, entity) };
}

const NAMES = ['userId', 'id', 'orderUuid', 'email', 'fullName', 'firstName', 'lastName', 'userName', 'productName', 'title', 'status', 'country', 'city', 'currency', 'category', 'phone', 'sku', 'avatarUrl', 'price', 'quantity', 'rating', 'notes', 'createdAt', 'orderDate', 'thing'];
const GENERATORS: Array<Generator | undefined> = [
  undefined,
  { kind: 'id' },
  { kind: 'id', prefix: 'ORDER-€-', width: 9 },
  { kind: 'uuid' },
  { kind: 'name' },
  { kind: 'email' },
  { kind: 'date', min: 0, max: 30 },
  { kind: 'timestamp' },
  { kind: 'number', min: -500, max: 12_000 },
  { kind: 'number', min: 0.5, max: 99.99 },
  { kind: 'enum', values: ['A', 'BÉTA', 'GAMMA-€'] },
  { kind: 'enum', values: ['1', '-2.5', '300'] },
  { kind: 'constant', value: 'PROFILE-😀' },
  { kind: 'text', length: 57 },
];

describe('maxKeyTextBytes bounds the sample data', () => {
  it('for every name the sample data reads, with and without a generator, for S, N and BOOL', () => {
    const wider: string[] = [];
    for (const name of NAMES) {
      for (const generator of GENERATORS) {
        for (const type of ['S', 'N', 'BOOL'] as const) {
          for (const [itemCount, cardinality] of [[50, undefined], [1500, undefined], [1500, 12]] as const) {
            const attribute: Attribute = { name, type, ...(generator ? { generator } : {}), ...(cardinality ? { cardinality } : {}) };
            const { generated, stated } = widths(attribute, itemCount);
            if (stated !== undefined && generated > stated) wider.push(`${JSON.stringify(attribute)} × ${itemCount}: ${generated} > ${stated}`);
          }
        }
      }
    }
    expect(wider).toEqual([]);
  });

  it('is exact where the values have one width or a listed longest', () => {
    // "ORDER-€-" is 10 bytes (€ is 3), then 9 digits.
    expect(widths({ name: 'orderId', type: 'S', generator: { kind: 'id', prefix: 'ORDER-€-', width: 9 } }, 100)).toEqual({ generated: 19, stated: 19 });
    // "GAMMA-€" is 9 bytes.
    expect(widths({ name: 'v', type: 'S', generator: { kind: 'enum', values: ['A', 'BÉTA', 'GAMMA-€'] } }, 500)).toEqual({ generated: 9, stated: 9 });
    expect(widths({ name: 'v', type: 'S', generator: { kind: 'uuid' } }, 10)).toEqual({ generated: 36, stated: 36 });
    expect(widths({ name: 'v', type: 'S', generator: { kind: 'text', length: 57 } }, 10)).toEqual({ generated: 57, stated: 57 });
    expect(widths({ name: 'createdAt', type: 'S' }, 10)).toEqual({ generated: 20, stated: 20 });
  });

  it('holds for generated enums, constants, ids and text', () => {
    const generator = fc.oneof(
      fc.record({ kind: fc.constant('enum' as const), values: fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { minLength: 1, maxLength: 6 }) }),
      fc.record({ kind: fc.constant('constant' as const), value: fc.string({ unit: 'grapheme', maxLength: 40 }) }),
      fc.record({ kind: fc.constant('id' as const), prefix: fc.string({ unit: 'grapheme', maxLength: 12 }), width: fc.integer({ min: 1, max: 12 }) }),
      fc.record({ kind: fc.constant('text' as const), length: fc.integer({ min: 0, max: 300 }) }),
    );
    fc.assert(
      fc.property(generator, fc.constantFrom('S' as const, 'N' as const), fc.integer({ min: 1, max: 3000 }), (g, type, itemCount) => {
        const { generated, stated } = widths({ name: 'v', type, generator: g }, itemCount);
        expect(stated).toBeDefined();
        expect(generated).toBeLessThanOrEqual(stated ?? 0);
      }),
      { numRuns: 150 },
    );
  });
});

describe('sample data and the key size limits', () => {
  function design(sortKeyTemplate: string, attributes: Attribute[], itemCount = 200): Design {
    return {
      formatVersion: 1,
      id: 'd',
      name: 'Limits',
      tables: [
        {
          id: 't',
          name: 'App',
          partitionKey: { name: 'PK', type: 'S' },
          sortKey: { name: 'SK', type: 'S' },
          billing: { mode: 'ON_DEMAND' },
          tableClass: 'STANDARD',
          globalSecondaryIndexes: [{ id: 'g', name: 'GSI1', partitionKey: { name: 'G1PK', type: 'S' }, sortKey: { name: 'G1SK', type: 'S' }, projection: { type: 'ALL' } }],
          localSecondaryIndexes: [],
          entities: [{ id: 'e', name: 'Item', itemCount, attributes, keys: { PK: { template: 'P#{id}' }, SK: { template: 'S' }, G1PK: { template: 'G' }, G1SK: { template: sortKeyTemplate } } }],
          accessPatterns: [],
        },
      ],
    };
  }

  it('leaves items whose index sort key is over 1,024 bytes out of the index, and says so', () => {
    // Half the items (by an even enum) get "L#" + 1,023 bytes = 1,025 bytes; the others "L#A".
    const attributes: Attribute[] = [
      { name: 'id', type: 'S', generator: { kind: 'id' } },
      { name: 'label', type: 'S', generator: { kind: 'enum', values: ['A', 'x'.repeat(1023)] } },
    ];
    const store = createSampleStore(design('L#{label}', attributes), 't', { seed: 3 });
    const summary = store.summary();
    const gsi = summary.views.find((v) => v.name === 'GSI1');
    const over = 200 - (gsi?.itemCount ?? 0);
    expect(over).toBeGreaterThan(50);
    expect(over).toBeLessThan(150);
    expect(summary.notes).toEqual([
      `Item: ${over} of 200 items have a G1SK value over 1,024 bytes, DynamoDB's sort key limit (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html); they are left out of GSI1.`,
    ]);
    for (const row of store.page('GSI1', 0, 1000).rows) if (!row.collection) expect(utf8ByteLength(row.sortKey ?? '')).toBeLessThanOrEqual(1024);
  });

  it('keeps every item of a key that fits: 1,024 bytes exactly', () => {
    const attributes: Attribute[] = [
      { name: 'id', type: 'S', generator: { kind: 'id' } },
      { name: 'label', type: 'S', generator: { kind: 'enum', values: ['A', 'x'.repeat(1022)] } },
    ];
    const summary = createSampleStore(design('L#{label}', attributes), 't', { seed: 3 }).summary();
    expect(summary.views.find((v) => v.name === 'GSI1')?.itemCount).toBe(200);
    expect(summary.notes).toBeUndefined();
  });
});
