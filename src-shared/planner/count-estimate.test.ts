import { describe, expect, it } from 'vitest';
import { distinctCombinationsOf, distinctValuesOf, formatCount, formatPercent, shareOf, type EntityCounts } from './count-estimate.ts';
import { parseCondition } from '../model/index.ts';
import type { Entity } from '../model/index.ts';

const order: Entity = {
  id: 'e-order',
  name: 'Order',
  itemCount: 1000,
  attributes: [
    { name: 'orderId', type: 'S' },
    { name: 'userId', type: 'S', generator: { kind: 'ref', entity: 'e-user' } },
    { name: 'status', type: 'S', cardinality: 5 },
    { name: 'channel', type: 'S', generator: { kind: 'enum', values: ['web', 'app', 'phone'], weights: [6, 3, 1] } },
    { name: 'region', type: 'S', generator: { kind: 'enum', values: ['eu', 'us'] } },
    { name: 'lines', type: 'N', generator: { kind: 'number', min: 1, max: 8 } },
    { name: 'isGift', type: 'BOOL' },
    { name: 'shop', type: 'S', generator: { kind: 'constant', value: 'main' } },
    { name: 'huge', type: 'S', cardinality: 1_000_000 },
  ],
  keys: {},
};
const refs: EntityCounts = new Map([['e-user', { name: 'User', itemCount: 100 }]]);
const condition = (source: string) => {
  const parsed = parseCondition(source);
  if (!parsed.ok) throw new Error(source);
  return parsed.value;
};

describe('distinctValuesOf', () => {
  it.each<[string, number, string]>([
    ['status', 5, 'Order.status has 5 distinct values (its cardinality)'],
    ['channel', 3, "Order.channel has 3 distinct values (its generator's values)"],
    ['lines', 8, "Order.lines has 8 distinct values (its generator's whole numbers 1–8)"],
    ['userId', 100, 'Order.userId has 100 distinct values (it references User, which has 100 items)'],
    ['isGift', 2, 'Order.isGift has 2 distinct values (a BOOL)'],
    ['shop', 1, 'Order.shop has 1 distinct value (a constant generator)'],
    ['orderId', 1000, 'Order.orderId has no cardinality: assumed unique (1,000 distinct values, one per Order item)'],
    ['huge', 1000, 'Order.huge has 1,000 distinct values (its cardinality)'],
  ])('%s has %d distinct values', (name, count, assumption) => {
    expect(distinctValuesOf(order, name, refs)).toEqual({ count, assumption });
  });

  it('multiplies the distinct values of several attributes, capped at the item count', () => {
    expect(distinctCombinationsOf(order, ['status', 'channel']).count).toBe(15);
    expect(distinctCombinationsOf(order, ['status', 'orderId']).count).toBe(1000);
    expect(distinctCombinationsOf(order, ['status', 'channel'], new Map([['status', 2]])).count).toBe(6);
  });
});

describe('shareOf', () => {
  it.each<[string, number]>([
    ['status = "PENDING"', 0.2],
    ['status IN ("PENDING", "PROCESSING")', 0.4],
    ['status <> "PENDING"', 0.8],
    ['channel = "web"', 0.6],
    ['channel IN ("app", "phone")', 0.4],
    ['channel <> "web" AND channel <> "app"', 0.1],
    ['region = "eu"', 0.5],
    ['lines > 4', 0.5],
    // isGift is on every item (no presence set): attribute_exists holds for all of them.
    ['attribute_exists(isGift)', 1],
    ['status = "PENDING" AND channel = "web"', 0.12],
  ])('%s holds for a share of %d', (source, share) => {
    expect(shareOf(order, condition(source), refs).fraction).toBeCloseTo(share, 10);
  });

  it('says where each share comes from', () => {
    expect(shareOf(order, condition('channel = "web"')).assumptions).toEqual(['Order: channel = "web" holds for 60% of items (the generator\'s weights)']);
  });
});

describe('formatCount', () => {
  it.each<[number, string]>([
    [1_000_000, '1,000,000'],
    [8333.3333, '8,333.33'],
    [2.4, '2.4'],
    [0, '0'],
    [-1234.5, '-1,234.5'],
  ])('writes %d as %s', (n, text) => expect(formatCount(n)).toBe(text));

  it('writes percentages', () => expect(formatPercent(0.05)).toBe('5%'));
});
