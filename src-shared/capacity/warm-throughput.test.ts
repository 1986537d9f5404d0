import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICING } from './pricing.ts';
import { baselineWarmThroughput, effectiveWarmThroughput, preWarmCostUsd, warmThroughputPartitions } from './warm-throughput.ts';

const onDemand = baselineWarmThroughput({ mode: 'ON_DEMAND' });
const provisioned = (r: number, w: number) => baselineWarmThroughput({ mode: 'PROVISIONED', readCapacityUnits: r, writeCapacityUnits: w });

describe('warm throughput: the partitions it implies', () => {
  it.each<[string, ReturnType<typeof effectiveWarmThroughput>, number]>([
    // Warm throughput: ceil(max(read / 3,000, write / 1,000)), AWS's "12,000 reads or 4,000 writes" (docs/dynamodb-rules.md §4.3)
    ['a new on-demand table, nothing set: max(12,000 / 3,000, 4,000 / 1,000), the simulator\'s 4', effectiveWarmThroughput(undefined, onDemand), 4],
    ['30,000 reads and 10,000 writes a second: max(10, 10)', effectiveWarmThroughput({ readUnitsPerSecond: 30_000, writeUnitsPerSecond: 10_000 }, onDemand), 10],
    ['4,500 reads and 1,500 writes: max(1.5, 1.5)', effectiveWarmThroughput({ readUnitsPerSecond: 4500, writeUnitsPerSecond: 1500 }, onDemand), 2],
    // A provisioned table with none set: ceil(RCU / 3,000 + WCU / 1,000), docs/dynamodb-rules.md §4.2
    ['P-1: provisioned 10,000 RCU and 2,000 WCU: ceil(3.33 + 2)', effectiveWarmThroughput(undefined, provisioned(10_000, 2_000)), 6],
    ['1 read and 1 write a second: at least one partition', effectiveWarmThroughput({ readUnitsPerSecond: 1, writeUnitsPerSecond: 1 }, onDemand), 1],
    ['writes raised to 9,000, reads left at the default: max(4, 9)', effectiveWarmThroughput({ writeUnitsPerSecond: 9000 }, onDemand), 9],
    // Provisioned with warm throughput set: partitions are never taken away, so the larger of the two
    ['provisioned 3,000 / 3,000 with writes warmed to 3,000: max(ceil(max(1, 3)), ceil(1 + 3)) = max(3, 4)', effectiveWarmThroughput({ writeUnitsPerSecond: 3000 }, provisioned(3000, 3000)), 4],
    ['provisioned 3,000 / 3,000 warmed to 30,000 reads: max(ceil(max(10, 3)), 4) = max(10, 4)', effectiveWarmThroughput({ readUnitsPerSecond: 30_000 }, provisioned(3000, 3000)), 10],
  ])('%s = %d', (_, warm, partitions) => {
    expect(warmThroughputPartitions(warm).value).toBe(partitions);
  });

  it('says where each value comes from and that the count is an estimate', () => {
    const f = warmThroughputPartitions(effectiveWarmThroughput({ writeUnitsPerSecond: 9000 }, onDemand));
    expect(f.steps[0]!.label).toBe('Read units per second served at once: not set, so the default of a new on-demand table');
    expect(f.steps[1]!.label).toBe('Write units per second served at once: the warm throughput set');
    expect(f.steps.at(-1)).toMatchObject({ label: 'Partitions implied (estimate: the larger direction alone)', expression: 'max(1, ceil(max(4, 9)))', unit: 'partitions' });
    expect(f.assumptions[0]).toMatch(/^Estimate: AWS does not publish how many partitions/);
  });
});

describe('warm throughput: the one-time pre-warming cost, an estimate', () => {
  it.each<[string, Parameters<typeof preWarmCostUsd>[0], number]>([
    // (30,000 − 12,000) × $0.00013 + (10,000 − 4,000) × $0.00065 = $2.34 + $3.90
    ['30,000 / 10,000 on a new on-demand Standard table', { warm: effectiveWarmThroughput({ readUnitsPerSecond: 30_000, writeUnitsPerSecond: 10_000 }, onDemand), tableClass: 'STANDARD', pricing: DEFAULT_PRICING }, 6.24],
    // Standard-IA: 18,000 × $0.00016 + 6,000 × $0.00081 = $2.88 + $4.86
    ['the same on Standard-IA', { warm: effectiveWarmThroughput({ readUnitsPerSecond: 30_000, writeUnitsPerSecond: 10_000 }, onDemand), tableClass: 'STANDARD_INFREQUENT_ACCESS', pricing: DEFAULT_PRICING }, 7.74],
    // (5,000 − 100) × $0.00013; writes not raised
    ['reads to 5,000 on a table provisioned with 100 RCU', { warm: effectiveWarmThroughput({ readUnitsPerSecond: 5000 }, provisioned(100, 100)), tableClass: 'STANDARD', pricing: DEFAULT_PRICING }, 0.637],
    ['a value below the default raises nothing', { warm: effectiveWarmThroughput({ readUnitsPerSecond: 5000, writeUnitsPerSecond: 4000 }, onDemand), tableClass: 'STANDARD', pricing: DEFAULT_PRICING }, 0],
  ])('%s: $%s', (_, input, usd) => {
    expect(preWarmCostUsd(input).value).toBeCloseTo(usd, 9);
  });

  it('shows the raise, the hour of provisioned capacity it is priced as, and its basis', () => {
    const f = preWarmCostUsd({ warm: effectiveWarmThroughput({ readUnitsPerSecond: 30_000, writeUnitsPerSecond: 10_000 }, onDemand), tableClass: 'STANDARD', pricing: DEFAULT_PRICING });
    expect(f.steps.map((s) => [s.expression, s.value])).toEqual([
      ['max(0, 30,000 − 12,000)', 18_000],
      ['max(0, 10,000 − 4,000)', 6_000],
      ['18,000 RCU × 1 h × $0.00013', 2.34],
      ['6,000 WCU × 1 h × $0.00065', 3.9],
      ['$2.34 + $3.9', 6.24],
    ]);
    expect(f.steps.at(-1)!.label).toBe('Pre-warming, once (estimate)');
    expect(f.assumptions.join(' ')).toContain('publishes no price');
  });
});
