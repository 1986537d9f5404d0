import { describe, expect, it } from 'vitest';
import { getEvent, oneTableDesign, putEvents, TEN_MINUTES } from './__fixtures__/designs.ts';
import { simulate } from './simulate.ts';

const target = (result: ReturnType<typeof simulate>, name: string) => {
  const t = result.targets.find((x) => x.name === name);
  if (!t) throw new Error(`no target ${name}`);
  return t;
};

describe('on-demand maximums in the partition simulator (docs/dynamodb-rules.md §4.3, §4.7, §4.8)', () => {
  it('a table read maximum of 300 caps 1,000 GetItem/s of 0.5 RRU (500 RRU/s): 40% throttle with TableReadMaxOnDemandThroughputExceeded', () => {
    const design = oneTableDesign({ patterns: [getEvent(1000)], workload: TEN_MINUTES });
    design.tables[0]!.onDemandThroughput = { maxReadRequestUnits: 300 };
    const result = simulate(design, 't-test', { arrivalNoise: false });
    expect(result.patterns[0]?.reasons).toEqual(['TableReadMaxOnDemandThroughputExceeded']);
    expect(result.patterns[0]?.throttledFraction).toBeCloseTo(1 - 300 / 500, 6);
    const table = target(result, 'table');
    expect(table.capacity).toEqual({ mode: 'onDemand', maxReadUnitsPerSecond: 300 });
    expect(table.throttles.map((t) => t.reason)).toEqual(['TableReadMaxOnDemandThroughputExceeded']);
    expect(table.summary.join(' ')).toContain('serves at most 300 read request units/s (its on-demand maximum)');
  });

  it('a maximum above the load throttles nothing', () => {
    const design = oneTableDesign({ patterns: [getEvent(1000)], workload: TEN_MINUTES });
    design.tables[0]!.onDemandThroughput = { maxReadRequestUnits: 500, maxWriteRequestUnits: 1 };
    const result = simulate(design, 't-test', { arrivalNoise: false });
    expect(result.patterns[0]?.throttledFraction).toBe(0);
  });

  it("a GSI write maximum of 200 under 500 WRU/s holds back the table's writes (back-pressure) with IndexWriteMaxOnDemandThroughputExceeded", () => {
    const design = oneTableDesign({
      keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' }, GSI1PK: { template: 'DEVICE#{deviceId}' }, GSI1SK: { template: '{eventId}' } },
      gsis: [
        {
          id: 'g1',
          name: 'GSI1',
          partitionKey: { name: 'GSI1PK', type: 'S' },
          sortKey: { name: 'GSI1SK', type: 'S' },
          projection: { type: 'KEYS_ONLY' },
          onDemandThroughput: { maxWriteRequestUnits: 200 },
        },
      ],
      patterns: [putEvents(500)],
      workload: TEN_MINUTES,
    });
    const result = simulate(design, 't-test', { arrivalNoise: false });
    const gsi = target(result, 'GSI1');
    expect(gsi.throttles.map((t) => t.reason)).toEqual(['IndexWriteMaxOnDemandThroughputExceeded']);
    // 500 puts/s each write one GSI1 entry of 1 WRU: 300 of the 500 are over the maximum.
    expect(result.patterns[0]?.throttledFraction).toBeCloseTo(1 - 200 / 500, 6);
    expect(result.patterns[0]?.reasons).toEqual(['IndexWriteMaxOnDemandThroughputExceeded']);
    const base = target(result, 'table');
    expect(base.throttles.map((t) => t.reason)).toEqual(['IndexWriteMaxOnDemandThroughputExceeded']);
    expect(base.summary.join(' ')).toContain('back-pressure from GSI1');
  });
});
