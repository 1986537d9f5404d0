import { describe, expect, it } from 'vitest';
import { sampleItems, sampleValue } from './legacy-values.ts';
import type { Attribute, Entity } from '../model/schema.ts';

const attr = (name: string, type: Attribute['type'] = 'S', extra: Partial<Attribute> = {}): Attribute => ({ name, type, ...extra });

describe('sampleValue by name', () => {
  it.each<[Attribute, unknown]>([
    [attr('userId'), 'u-000001'],
    [attr('orderItemId'), 'oi-000001'],
    [attr('user_id'), 'u-000001'],
    [attr('userId', 'N'), 1],
    [attr('orderDate'), '2026-03-14'],
    [attr('createdAt'), '2026-03-14T09:30:00Z'],
    [attr('expiresAt', 'N'), Math.floor(Date.UTC(2026, 2, 14, 9, 30) / 1000)],
    [attr('email'), 'ana@example.com'],
    [attr('name'), 'Ana Silva'],
    [attr('firstName'), 'Ana'],
    [attr('lastName'), 'Silva'],
    [attr('productName'), 'Trail Running Shoes'],
    [attr('status'), 'PENDING'],
    [attr('price', 'N'), 1999],
    [attr('total'), '19.99'],
    [attr('quantity', 'N'), 1],
    [attr('itemCount', 'N'), 1],
    [attr('rating', 'N'), 5],
    [attr('isActive', 'BOOL'), true],
    [attr('paid', 'BOOL'), true],
    [attr('widget'), 'widget-1'],
    [attr('widget', 'N'), 1],
    [attr('blob', 'B'), 'S1AAAA=='],
    [attr('tags', 'SS'), undefined],
    [attr('address', 'M'), undefined],
  ])('%j → %j', (attribute, expected) => {
    expect(sampleValue(attribute, 0, 'Thing')).toEqual(expected);
  });

  it('names a plain id after the entity', () => {
    expect(sampleValue(attr('id'), 1, 'Order')).toBe('o-000002');
  });
});

describe('sampleValue by generator', () => {
  it.each<[Attribute, number, unknown]>([
    [attr('x', 'S', { generator: { kind: 'id' } }), 2, 'x-000003'],
    [attr('x', 'N', { generator: { kind: 'number', min: 10, max: 12 } }), 0, 10],
    [attr('x', 'N', { generator: { kind: 'number', min: 10, max: 12 } }), 1, 11],
    [attr('x', 'S', { generator: { kind: 'number', min: 10, max: 12 } }), 2, '12'],
    [attr('x', 'S', { generator: { kind: 'enum', values: ['A', 'B'] } }), 1, 'B'],
    [attr('x', 'S', { generator: { kind: 'enum', values: ['A', 'B'], weights: [1, 0] } }), 1, 'A'],
    [attr('x', 'S', { generator: { kind: 'constant', value: 'FIXED' } }), 5, 'FIXED'],
    [attr('x', 'S', { generator: { kind: 'text', length: 5 } }), 0, 'fast '],
    [attr('x', 'S', { generator: { kind: 'date' } }), 1, '2026-03-13'],
    [attr('x', 'S', { generator: { kind: 'email' } }), 10, 'kofi@example.com'],
    [attr('customerRef', 'S', { generator: { kind: 'ref', entity: 'ent-user' }, cardinality: 2 }), 2, 'cr-000001'],
  ])('%j sample %i → %j', (attribute, index, expected) => {
    expect(sampleValue(attribute, index)).toEqual(expected);
  });

  it('gives version-4 shaped, distinct uuids', () => {
    const a = attr('token', 'S', { generator: { kind: 'uuid' } });
    const values = [0, 1, 2].map((i) => sampleValue(a, i));
    for (const v of values) expect(v).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(values).size).toBe(3);
  });
});

describe('sampleItems', () => {
  const order: Entity = {
    id: 'ent-order',
    name: 'Order',
    itemCount: 10,
    attributes: [attr('userId'), attr('orderId'), attr('orderDate'), attr('total', 'N'), attr('lines', 'L')],
    keys: { PK: { template: 'USER#{userId}' } },
  };

  it('gives one value per scalar attribute, the same every time', () => {
    const items = sampleItems(order, 3);
    expect(items).toHaveLength(3);
    expect(items[0]).toEqual({ userId: 'u-000001', orderId: 'o-000001', orderDate: '2026-03-14', total: 1999 });
    expect(items[1]?.orderId).toBe('o-000002');
    expect(sampleItems(order, 3)).toEqual(items);
  });

  it('gives nothing for a count of 0', () => {
    expect(sampleItems(order, 0)).toEqual([]);
  });
});
