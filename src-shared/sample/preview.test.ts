import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design } from '../model/schema.ts';
import { previewItems } from './preview.ts';
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

  it('adds an item in each sparse index when the first ones are not', () => {
    const design = example();
    // GSI2 holds PENDING and PROCESSING orders: 5 % of them, so the first three are usually not in it.
    const previews = previewItems(design.tables[0]!, 'ent-order', 3);
    expect(previews.some((p) => p.values.status === 'PENDING' || p.values.status === 'PROCESSING')).toBe(true);
  });
});
