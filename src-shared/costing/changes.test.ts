import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setKeyBinding, parseDesign } from '../model/index.ts';
import type { Design } from '../model/index.ts';
import { costDesign } from './design-cost.ts';
import { patternCostChanges } from './changes.ts';

function example(): Design {
  const parsed = parseDesign(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json'), 'utf8')));
  if (!parsed.ok) throw new Error('example does not parse');
  return parsed.value;
}

describe('pattern cost changes', () => {
  it('lists nothing for the same design', () => {
    const cost = costDesign(example());
    expect(patternCostChanges(cost, cost, 0)).toEqual([]);
  });

  it('shows the fan-out a random write sharding adds to the reads of that key', () => {
    const design = example();
    const table = design.tables[0]!;
    const product = table.entities.find((e) => e.name === 'Product')!;
    const sharded = setKeyBinding(design, table.id, product.id, 'GSI1PK', { ...product.keys.GSI1PK!, shards: { count: 4, method: 'random' } });
    const changes = patternCostChanges(costDesign(design), costDesign(sharded), 0);
    const byCategory = changes.find((c) => c.name === 'List products in a category');
    expect(byCategory?.before).toMatchObject({ badge: 'GSI Query', requests: 1 });
    expect(byCategory?.after).toMatchObject({ badge: 'Fan-out Query', requests: 4 });
    expect(byCategory!.after.perRequest.value).toBeGreaterThan(byCategory!.before.perRequest.value);
  });
});
