import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AutoScalingRange, Design, Table } from '../schema.ts';
import { parseDesign, validateDesign } from '../validate.ts';

const example = (): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../examples/ecommerce.keyplan.json'), 'utf8')) as Design;
const codesAndPaths = (d: Design) => validateDesign(d).map((p) => ({ code: p.code, path: p.path }));

/** The example, provisioned, with `read` auto scaling on the table and `write` on GSI1. */
function provisioned(read?: AutoScalingRange, write?: AutoScalingRange): Design {
  const design = example();
  const table: Table = design.tables[0]!;
  table.billing = { mode: 'PROVISIONED', readCapacityUnits: 100, writeCapacityUnits: 100, ...(read ? { autoScaling: { read } } : {}) };
  table.globalSecondaryIndexes.forEach((g, i) => {
    g.provisioned = { readCapacityUnits: 10, writeCapacityUnits: 10, ...(i === 0 && write ? { autoScaling: { write } } : {}) };
  });
  return design;
}

const range = (minCapacity: number, maxCapacity: number, targetUtilizationPercent: number): AutoScalingRange => ({ minCapacity, maxCapacity, targetUtilizationPercent });

describe('auto scaling of provisioned capacity', () => {
  it.each<[string, Design, { code: string; path: string }[]]>([
    ['a valid range on the table and a GSI', provisioned(range(5, 1000, 70), range(1, 1, 20)), []],
    ['the ends of the target range, 20 and 90 %', provisioned(range(1, 10, 20), range(1, 10, 90)), []],
    ['a maximum below the minimum', provisioned(range(50, 10, 70)), [{ code: 'model.billing', path: 'tables[0].billing.autoScaling.read.maxCapacity' }]],
    ['a target of 95 % on a GSI', provisioned(undefined, range(1, 10, 95)), [{ code: 'model.invalidNumber', path: 'tables[0].globalSecondaryIndexes[0].provisioned.autoScaling.write.targetUtilizationPercent' }]],
    ['a target of 10 %', provisioned(range(1, 10, 10)), [{ code: 'model.invalidNumber', path: 'tables[0].billing.autoScaling.read.targetUtilizationPercent' }]],
    [
      'a minimum of 0 and a maximum below it',
      provisioned(range(0, -1, 70)),
      [
        { code: 'model.invalidNumber', path: 'tables[0].billing.autoScaling.read.minCapacity' },
        { code: 'model.invalidNumber', path: 'tables[0].billing.autoScaling.read.maxCapacity' },
        { code: 'model.billing', path: 'tables[0].billing.autoScaling.read.maxCapacity' },
      ],
    ],
  ])('%s', (_, design, expected) => {
    expect(codesAndPaths(design)).toEqual(expected);
  });

  it('parseDesign reads auto scaling, and its schema rejects a target outside 20–90 % at the field', () => {
    const good = parseDesign(JSON.parse(JSON.stringify(provisioned(range(5, 1000, 70)))));
    expect(good.ok && good.value.tables[0]!.billing).toEqual({ mode: 'PROVISIONED', readCapacityUnits: 100, writeCapacityUnits: 100, autoScaling: { read: range(5, 1000, 70) } });
    const bad = parseDesign(JSON.parse(JSON.stringify(provisioned(range(5, 1000, 95)))));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.map((p) => ({ code: p.code, path: p.path }))).toEqual([{ code: 'model.schema', path: 'tables[0].billing.autoScaling.read.targetUtilizationPercent' }]);
    // The message names both ends of the range, not just the one that was not broken.
    if (!bad.ok) expect(bad.errors[0]?.expected).toBe('a number from 20 to 90');
  });
});
