/**
 * A table over DynamoDB's index quota (20 GSIs, 5 LSIs) is planned and costed with the indexes
 * DynamoDB could create, and says so: a crafted design with thousands of GSIs once took 12 s and
 * ran `keyplan check` out of memory at 1 MB, because every index was weighed against every other.
 */
import { describe, expect, it } from 'vitest';
import { parseDesignStructure, withinIndexQuota } from '../model/index.ts';
import { hostileDesign } from '../model/validate/__fixtures__/hostile-designs.ts';
import { costDesign } from './design-cost.ts';
import { cpuNowMs } from '../../tests/support/cpu-time.ts';

const KB = 1024;

function designOf(bytes: number) {
  const parsed = parseDesignStructure(hostileDesign('manyIndexes', bytes, 0));
  if (!parsed.ok) throw new Error('the hostile design should have a valid shape');
  return parsed.value;
}

describe('a table with more indexes than DynamoDB allows', () => {
  it('is costed with its first 20 GSIs and says which were left out', () => {
    const design = designOf(64 * KB);
    const table = design.tables[0]!;
    expect(table.globalSecondaryIndexes.length).toBeGreaterThan(100);
    expect(withinIndexQuota(table).globalSecondaryIndexes).toEqual(table.globalSecondaryIndexes.slice(0, 20));
    const cost = costDesign(design);
    const warning = cost.warnings.find((w) => w.code === 'cost.designProblem' && w.message.includes('DynamoDB allows 20'));
    expect(warning?.message).toContain(`has ${table.globalSecondaryIndexes.length} GSIs (DynamoDB allows 20)`);
    expect(warning?.severity).toBe('error');
  });

  it('costs time in proportion to the design, not to the square of its indexes', () => {
    const time = (bytes: number) => {
      const design = designOf(bytes);
      costDesign(design); // warm up
      const started = cpuNowMs();
      for (let i = 0; i < 3; i += 1) costDesign(design);
      return (cpuNowMs() - started) / 3;
    };
    const small = time(64 * KB);
    const large = time(256 * KB);
    // Four times the input: at most about four times the time (quadratic would be sixteen).
    expect(large / Math.max(small, 1)).toBeLessThan(8);
  });
});
