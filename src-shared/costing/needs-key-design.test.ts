import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addAccessPattern,
  updateAccessPattern,
  updateTable,
  createEntityForPattern,
  parseDesign,
} from '../model/index.ts';
import type { Design } from '../model/index.ts';
import { keyDesignGap, planTable } from '../planner/index.ts';
import { costDesign } from './design-cost.ts';

function example(): Design {
  const parsed = parseDesign(JSON.parse(readFileSync(resolve(__dirname, '../../examples/ecommerce.keyplan.json'), 'utf8')));
  if (!parsed.ok) throw new Error('the example does not parse');
  return parsed.value;
}

/** The example with two patterns added before their entities: a read and a write. */
function withPatternsFirst(): Design {
  let design = example();
  const tableId = design.tables[0]!.id;
  design = addAccessPattern(design, tableId, undefined, 'List returns of an order');
  design = addAccessPattern(design, tableId, undefined, 'Record a return');
  const [read, write] = design.tables[0]!.accessPatterns.slice(-2);
  design = updateAccessPattern(design, tableId, read!.id, { action: 'query', known: ['orderId'], ratePerSecond: 50 });
  design = updateAccessPattern(design, tableId, write!.id, { action: 'put', known: ['orderId', 'returnId'], ratePerSecond: 20 });
  return design;
}

describe('patterns that need a key design', () => {
  it('are planned as "needs a key design", with no operation and nothing read', () => {
    const design = withPatternsFirst();
    const plans = planTable(design.tables[0]!).slice(-2);
    for (const plan of plans) {
      expect(plan).toMatchObject({ operation: 'None', badge: 'Needs key design', isServed: false, itemsRead: 0, indexWrites: [] });
      expect(plan.needsKeyDesign).toMatch(/No entity yet/);
    }
  });

  it('include an entity with no template for the table keys, naming the missing keys', () => {
    let design = withPatternsFirst();
    const table = design.tables[0]!;
    const pattern = table.accessPatterns.at(-1)!;
    design = createEntityForPattern(design, table.id, pattern.id, 'Return');
    const created = design.tables[0]!.entities.at(-1)!;
    expect(keyDesignGap(design.tables[0]!, design.tables[0]!.accessPatterns.at(-1)!)).toBeUndefined();
    const keyless = { ...design.tables[0]!, entities: design.tables[0]!.entities.map((e) => (e.id === created.id ? { ...e, keys: {} } : e)) };
    expect(keyDesignGap(keyless, keyless.accessPatterns.at(-1)!)).toBe(`Return has no template for the table's keys PK and SK yet: design its keys on the Entities screen.`);
    const noSortKey = updateTable({ ...design, tables: [keyless] }, keyless.id, { sortKey: undefined }).tables[0]!;
    expect(keyDesignGap(noSortKey, noSortKey.accessPatterns.at(-1)!)).toMatch(/key PK yet/);
  });

  it('are not costed: zero figures that say why, no consumption, left out of the totals, which say how many', () => {
    const before = costDesign(example());
    const after = costDesign(withPatternsFirst());
    const table = after.tables[0]!;
    const leftOut = table.patterns.slice(-2);
    for (const cost of leftOut) {
      expect(cost.needsKeyDesign).toMatch(/No entity yet/);
      expect(cost.consumption).toEqual([]);
      expect(cost.scan).toBeUndefined();
      expect([cost.perRequest.value, cost.perSecond.value, cost.monthly.onDemand.value, cost.monthly.provisioned.value]).toEqual([0, 0, 0, 0]);
      expect(cost.monthly.onDemand.steps[0]!.label).toBe('Not costed: the pattern needs a key design');
    }
    expect(leftOut.map((c) => c.kind)).toEqual(['read', 'write']);
    expect(table.needingKeyDesign.map((p) => p.name)).toEqual(['List returns of an order', 'Record a return']);
    expect(after.patternsNeedingKeyDesign).toBe(2);
    expect(before.patternsNeedingKeyDesign).toBe(0);

    expect(after.onDemandMonthly.value).toBe(before.onDemandMonthly.value);
    expect(after.provisionedMonthly.value).toBe(before.provisionedMonthly.value);
    expect(table.onDemandMonthly.steps.map((s) => s.label)).not.toContain('List returns of an order');
    const said = '2 access patterns are left out: they need a key design before they are costed ("List returns of an order", "Record a return").';
    expect(after.onDemandMonthly.assumptions).toContain(said);
    expect(table.provisionedMonthly.assumptions).toContain(said);
    expect(before.onDemandMonthly.assumptions.join(' ')).not.toMatch(/left out/);
  });

  it('give one warning per table, not one per pattern', () => {
    const warnings = costDesign(withPatternsFirst()).warnings.filter((w) => w.code === 'cost.needsKeyDesign');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.severity).toBe('warning');
    expect(warnings[0]!.message).toMatch(/^2 access patterns are left out/);
  });

  it('are costed once their entity is created inline', () => {
    let design = withPatternsFirst();
    const table = design.tables[0]!;
    design = createEntityForPattern(design, table.id, table.accessPatterns.at(-1)!.id, 'Return');
    const cost = costDesign(design).tables[0]!;
    const write = cost.patterns.at(-1)!;
    expect(write.needsKeyDesign).toBeUndefined();
    expect(write.plan.operation).toBe('PutItem');
    expect(write.perRequest.value).toBeGreaterThan(0);
    expect(cost.needingKeyDesign.map((p) => p.name)).toEqual(['List returns of an order']);
  });

  it('cost a design of only patterns, with no entity at all', () => {
    let design: Design = { formatVersion: 1, id: 'd', name: 'Only patterns', tables: [{ ...example().tables[0]!, entities: [], accessPatterns: [], globalSecondaryIndexes: [], localSecondaryIndexes: [] }] };
    for (let i = 1; i <= 3; i++) design = addAccessPattern(design, design.tables[0]!.id, undefined, `Pattern ${i}`);
    const cost = costDesign(design);
    expect(cost.patternsNeedingKeyDesign).toBe(3);
    expect(cost.tables[0]!.onDemandMonthly.value).toBe(0);
  });
});
