import { describe, expect, it } from 'vitest';
import { previewKey, previewSamples } from './preview.ts';
import type { Entity } from './schema.ts';

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
