import { describe, expect, it } from 'vitest';
import type { Attribute, Entity } from '../model/index.ts';
import { sampleContext } from './column.ts';
import { createColumn, createRankColumn } from './columns.ts';
import { rankedValuesOf } from './values.ts';

const entity = (attributes: Attribute[], itemCount = 1000): Entity => ({ id: 'e-order', name: 'Order', itemCount, attributes, keys: {} });
const ranks = (e: Entity, a: Attribute, n: number): unknown[] => {
  const values = rankedValuesOf(e, a)!;
  return Array.from({ length: n }, (_, r) => values.at(r));
};

describe('rankedValuesOf: an attribute’s values by rank, as the sample data draws them', () => {
  it('gives ids in order, the same width as the sample data’s', () => {
    const a: Attribute = { name: 'userId', type: 'S' };
    expect(ranks(entity([a], 2_000_000), a, 3)).toEqual(['u-0000001', 'u-0000002', 'u-0000003']);
    expect(ranks(entity([{ name: 'userId', type: 'N' }]), { name: 'userId', type: 'N' }, 2)).toEqual([1, 2]);
  });

  it('starts dates at the newest day and goes back a day per rank, past the window when there is no cardinality', () => {
    const a: Attribute = { name: 'orderDate', type: 'S' };
    const values = rankedValuesOf(entity([a]), a)!;
    expect([values.at(0), values.at(1), values.at(400)]).toEqual(['2026-03-14', '2026-03-13', '2025-02-07']);
    // Asked out of order, and past the first ranks it generated: the same values.
    expect(values.at(1)).toBe('2026-03-13');
  });

  it('starts over past the distinct values: a cardinality, a list', () => {
    const day: Attribute = { name: 'day', type: 'S', generator: { kind: 'date' }, cardinality: 2 };
    expect(ranks(entity([day]), day, 3)).toEqual(['2026-03-14', '2026-03-13', '2026-03-14']);
    const status: Attribute = { name: 'status', type: 'S', generator: { kind: 'enum', values: ['OPEN', 'DONE'], weights: [1, 9] } };
    expect(ranks(entity([status]), status, 3)).toEqual(['OPEN', 'DONE', 'OPEN']);
  });

  it('spreads numbers and timestamps of a cardinality from the first and the newest', () => {
    const n: Attribute = { name: 'score', type: 'N', generator: { kind: 'number', min: 10, max: 12 } };
    expect(ranks(entity([n]), n, 4)).toEqual([10, 11, 12, 10]);
    const t: Attribute = { name: 'at', type: 'S', generator: { kind: 'timestamp', min: 0, max: 0 }, cardinality: 4 };
    expect(ranks(entity([t]), t, 2)).toEqual(['2026-03-14T23:59:59Z', '2026-03-14T17:59:59Z']);
  });

  it('has no values for a list, map, set or NULL', () => {
    const a: Attribute = { name: 'lines', type: 'L' };
    expect(rankedValuesOf(entity([a]), a)).toBeUndefined();
  });

  it('are the values the sample data holds: a column of an attribute with a cardinality draws among the first ranks', () => {
    const attributes: Attribute[] = [
      { name: 'ownerId', type: 'S', generator: { kind: 'id' }, cardinality: 5 },
      { name: 'day', type: 'S', generator: { kind: 'date', distribution: { kind: 'zipf', exponent: 1 } }, cardinality: 7 },
      { name: 'amount', type: 'N', generator: { kind: 'number', min: 1, max: 1000 }, cardinality: 8 },
      { name: 'email', type: 'S', cardinality: 6 },
    ];
    const e = entity(attributes);
    const ctx = sampleContext(1);
    for (const a of attributes) {
      const column = createColumn(e, a, 2000, ctx, () => undefined);
      const held = new Set(Array.from({ length: 2000 }, (_, r) => column.value(r)));
      const ranked = createRankColumn(e, a, a.cardinality!, ctx, () => undefined);
      expect(held, a.name).toEqual(new Set(Array.from({ length: a.cardinality! }, (_, r) => ranked.value(r))));
    }
  });
});
