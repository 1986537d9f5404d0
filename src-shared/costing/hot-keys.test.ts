import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDesign, createDesign } from '../model/index.ts';
import type { Design } from '../model/index.ts';
import { costDesign } from './design-cost.ts';
import { busiestKeyShare } from './warnings.ts';

function load(name: string): Design {
  const parsed = parseDesign(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../e2e/data', name), 'utf8')));
  if (!parsed.ok) throw new Error(`${name} does not parse`);
  return parsed.value;
}

describe('the busiest key of a traffic distribution', () => {
  it.each([
    [undefined, 50, 1 / 50],
    [{ kind: 'uniform' as const }, 4, 0.25],
    [{ kind: 'hotKey' as const, share: 0.9 }, 50, 0.9],
    [{ kind: 'today' as const }, 365, 1],
  ])('%j over %i keys takes %f', (traffic, count, share) => {
    expect(busiestKeyShare(traffic, count).share).toBeCloseTo(share, 10);
  });

  it('gives rank 1 of a Zipf(1) over 1,000 keys about 13.4% (1 / H(1000))', () => {
    expect(busiestKeyShare({ kind: 'zipf', exponent: 1 }, 1000).share).toBeCloseTo(1 / 7.485470860550345, 6);
  });
});

describe('hot partition key warnings', () => {
  it('flags the country key that takes 90% of 3,000 writes per second', () => {
    const warnings = costDesign(load('activity-log.keyplan.json')).warnings.filter((w) => w.code === 'cost.hotPartitionWrites');
    expect(warnings.map((w) => w.patternId)).toEqual(['ap-log-activity']);
    expect(warnings[0]!.message).toContain('2,700 WCU/s');
  });

  it("flags today's date key taking every new order", () => {
    const warnings = costDesign(load('orders-by-date.keyplan.json')).warnings.filter((w) => w.code === 'cost.hotPartitionWrites');
    expect(warnings.map((w) => w.patternId)).toEqual(['ap-place-order']);
  });

  it('does not flag the same writes spread evenly over the keys', () => {
    const design = load('activity-log.keyplan.json');
    delete design.tables[0]!.accessPatterns[0]!.traffic;
    expect(costDesign(design).warnings.filter((w) => w.code === 'cost.hotPartitionWrites')).toEqual([]);
  });
});

describe('without a stated traffic distribution', () => {
  it('lets requests follow the items: the most common key value takes its weight of the writes', () => {
    expect(busiestKeyShare(undefined, 4, 0.7).share).toBeCloseTo(0.7, 10);
    expect(busiestKeyShare(undefined, 4).share).toBeCloseTo(0.25, 10);
  });
});

describe('a partition key that references another entity', () => {
  it('has as many values as that entity has items: 3,000 writes/s over 2 devices put 1,500 WCU/s on each', () => {
    const design = createDesign('Readings', 'Telemetry');
    const table = design.tables[0]!;
    table.entities = [
      { id: 'e-dev', name: 'Device', itemCount: 2, attributes: [{ name: 'deviceId', type: 'S', generator: { kind: 'id' } }], keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'DEVICE' } } },
      {
        id: 'e-r',
        name: 'Reading',
        itemCount: 10_000_000,
        attributes: [
          { name: 'deviceId', type: 'S', generator: { kind: 'ref', entity: 'e-dev' } },
          { name: 'readingId', type: 'S', generator: { kind: 'id' } },
        ],
        keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'READING#{readingId}' } },
      },
    ];
    // Small items: 1 WCU a put.
    table.accessPatterns = [{ id: 'ap-put', name: 'Record a reading', entityId: 'e-r', action: 'put', known: ['deviceId', 'readingId'], ratePerSecond: 3000, consistency: 'eventual' }];
    const warnings = costDesign(design).warnings.filter((w) => w.code === 'cost.hotPartitionWrites');
    expect(warnings.map((w) => w.patternId)).toEqual(['ap-put']);
    expect(warnings[0]!.message).toContain('writes 1,500 WCU/s to one table partition key PK = DEVICE#{deviceId}');
  });
});
