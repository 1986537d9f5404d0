import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design, Entity } from '../model/index.ts';
import { previewItems, previewKey, previewSamples } from './key-preview.ts';
import { createSampleStore } from './store.ts';

const example = (): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json'), 'utf8')) as Design;

describe('previewItems: key previews are the sample data’s own items', () => {
  it('the first orders of the preview are orders of the Data screen’s sample, attribute for attribute', () => {
    const design = example();
    const table = design.tables[0]!;
    const previews = previewItems(table, 'ent-order', 3);
    expect(previews.length).toBeGreaterThanOrEqual(3);
    const store = createSampleStore(design, table.id, { seed: 1 });
    for (const p of previews) {
      // The order's item collection is its user's: USER#{userId}.
      const line = store.find('table', `USER#${String(p.values.userId)}`);
      expect(line, `user ${String(p.values.userId)} has an item collection`).not.toBeNull();
      const same = store.page('table', line!, 500).rows.find((o) => o.entity === 'Order' && o.attributes.orderId === p.values.orderId);
      expect(same, `order ${String(p.values.orderId)} is in the sample`).toBeDefined();
      for (const [name, value] of Object.entries(p.values)) {
        if (name in same!.attributes) expect(same!.attributes[name]).toEqual(value);
      }
    }
  });

  it('generates the first items past the sample when it holds fewer: an entity of no items still has them', () => {
    const table = example().tables[0]!;
    const empty = { ...table, entities: table.entities.map((e) => (e.id === 'ent-order' ? { ...e, itemCount: 0 } : e)) };
    const previews = previewItems(empty, 'ent-order', 3, 1, false);
    expect(previews.map((p) => p.row)).toEqual([0, 1, 2]);
    expect(previews.map((p) => p.values.orderId)).toEqual(['o-000001', 'o-000002', 'o-000003']);
    // Its references still point into the generated users.
    for (const p of previews) expect(String(p.values.userId)).toMatch(/^u-\d{7}$/);
  });

  it('adds an item in each sparse index when the first ones are not', () => {
    const design = example();
    // GSI2 holds PENDING and PROCESSING orders: 5 % of them, so the first three are usually not in it.
    const previews = previewItems(design.tables[0]!, 'ent-order', 3);
    expect(previews.some((p) => p.values.status === 'PENDING' || p.values.status === 'PROCESSING')).toBe(true);
  });
});

const order: Entity = {
  id: 'ent-order',
  name: 'Order',
  itemCount: 100,
  attributes: [
    { name: 'orderId', type: 'S' },
    { name: 'status', type: 'S', generator: { kind: 'enum', values: ['SHIPPED', 'DELIVERED'] } },
  ],
  keys: {
    PK: { template: 'ORDER#{orderId}' },
    GSI1PK: { template: 'STATUS#{status}', when: 'status = "PENDING"' },
  },
};

describe('key previews', () => {
  it('renders every sample, and the keys of one sample describe the same item', () => {
    const samples = previewSamples(order);
    const pk = previewKey(order.keys.PK, samples);
    const gsi = previewKey(order.keys.GSI1PK, samples);
    expect(pk).toHaveLength(3);
    expect(pk.every((p) => p.kind === 'value' && p.value.startsWith('ORDER#'))).toBe(true);
    // Samples 1 and 3 are made to satisfy the condition; sample 2 keeps its own status.
    expect(gsi[0]).toEqual({ kind: 'value', value: 'STATUS#PENDING', deciding: 'status = "PENDING"' });
    expect(gsi[1]).toMatchObject({ kind: 'excluded' });
    expect(gsi[1]!.kind === 'excluded' && gsi[1]!.deciding).toBe(`status = ${JSON.stringify(samples[1]!.status)}`);
  });

  it('shows nothing for a template or a condition that does not parse', () => {
    const samples = previewSamples(order);
    expect(previewKey({ template: 'ORDER#{orderId' }, samples)).toEqual([]);
    expect(previewKey({ template: 'X', when: 'status ==' }, samples)).toEqual([]);
    expect(previewKey(undefined, samples)).toEqual([]);
  });
});
