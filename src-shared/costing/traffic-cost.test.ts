/**
 * A pattern's traffic through the day (docs/traffic.md) in its costs: on-demand requests priced from
 * the average rate, capacity sized from the peak, a table's load from its busiest minute. Every
 * figure is worked by hand from the rule with us-east-1 Standard prices: $0.625 per million write
 * request units, $0.125 per million read request units, $0.00065 per WCU-hour, 730 hours a month.
 */
import { describe, expect, it } from 'vitest';
import type { AccessPattern, Design } from '../model/index.ts';
import { parseDesign, validateDesign } from '../model/index.ts';
import { costDesign } from './design-cost.ts';

/** A 1,024-byte Order keyed by its id (PK 2 + 16, SK 2 + 5, orderId 7 + 10, body 4 + 978): one WCU per put. */
function designWith(patterns: Partial<AccessPattern>[], billing: Design['tables'][number]['billing'] = { mode: 'ON_DEMAND' }): Design {
  const design: Design = {
    formatVersion: 1,
    id: 'd-traffic',
    name: 'Traffic',
    tables: [
      {
        id: 't',
        name: 'Orders',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing,
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [],
        localSecondaryIndexes: [],
        entities: [
          {
            id: 'ent-order',
            name: 'Order',
            itemCount: 10_000,
            attributes: [
              { name: 'orderId', type: 'S', averageSizeBytes: 10 },
              { name: 'body', type: 'S', averageSizeBytes: 978 },
            ],
            keys: { PK: { template: 'ORDER#{orderId}' }, SK: { template: 'ORDER' } },
          },
        ],
        accessPatterns: patterns.map((p, i) => ({ id: `ap-${i}`, name: `Put ${i}`, entityId: 'ent-order', action: 'put', known: ['orderId'], ratePerSecond: 100, consistency: 'eventual', ...p })),
      },
    ],
  };
  const parsed = parseDesign(design);
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return parsed.value;
}

const SECONDS_PER_MONTH = 3600 * 730; // 2,628,000

describe('on-demand priced from the average, capacity sized from the peak', () => {
  it('a put of a 1 KB item at 100/s peak and 40/s average: $65.70 a month on-demand (not $164.25), $47.45 of provisioned capacity', () => {
    const put = costDesign(designWith([{ averagePerSecond: 40 }])).tables[0]!.patterns[0]!;
    expect(put.perRequest.value).toBe(1);
    expect(put.perSecond.value).toBe(100);
    expect(put.averagePerSecond.value).toBe(40);
    // 40 WRU/s × 2,628,000 s = 105,120,000 WRU; ÷ 1,000,000 × $0.625 = $65.70.
    expect(40 * SECONDS_PER_MONTH).toBe(105_120_000);
    expect(put.monthly.onDemand.value).toBeCloseTo(65.7, 9);
    // The peak: 100 WCU × 730 h × $0.00065 = $47.45.
    expect(put.monthly.provisioned.value).toBeCloseTo(47.45, 9);
    expect(put.monthly.onDemand.steps[0]).toMatchObject({ label: 'Priced from the average rate 40/s', value: 40, unit: 'WCU/s' });
    expect(put.perSecond.steps.at(-1)).toMatchObject({ label: 'Sized from the peak 100/s', value: 100 });
    expect(put.perSecond.assumptions.join(' ')).toContain('priced from the average rate 40/s, as stated');
  });

  it('a file with only ratePerSecond keeps it as the peak and the average: 100 WRU/s × 2,628,000 s × $0.625 per million = $164.25', () => {
    const put = costDesign(designWith([{}])).tables[0]!.patterns[0]!;
    expect(put.perSecond.value).toBe(100);
    expect(put.averagePerSecond.value).toBe(100);
    expect(put.monthly.onDemand.value).toBeCloseTo(164.25, 9);
    expect(put.perSecond.assumptions.join(' ')).toContain('the peak all month');
  });

  it('business hours at 100/s peak average 49.1667/s (11.8 of 24 hourly multipliers): $80.75625 a month', () => {
    // 0.1 × 6 + 0.2 + 0.4 + 0.8 + 1 × 8 + 0.8 + 0.4 + 0.2 + 0.1 × 4 = 11.8; 100 × 11.8 ÷ 24 = 49.1666…/s.
    const put = costDesign(designWith([{ profile: { kind: 'businessHours' } }])).tables[0]!.patterns[0]!;
    expect(put.perSecond.value).toBe(100);
    expect(put.averagePerSecond.value).toBeCloseTo(4_916.6667 / 100, 4);
    // 49.1666… × 2,628,000 = 129,210,000 WRU × $0.625 per million = $80.75625.
    expect(put.monthly.onDemand.value).toBeCloseTo(80.75625, 6);
  });

  it('a 3× spike for 30 minutes at 14:00 on a flat 100/s: peak 300/s, average 104.1667/s (1,410 minutes at 100, 30 at 300)', () => {
    const put = costDesign(designWith([{ spikes: [{ height: 3, durationMinutes: 30, atHour: 14 }] }])).tables[0]!.patterns[0]!;
    expect(put.perSecond.value).toBe(300);
    expect(put.averagePerSecond.value).toBeCloseTo((1410 * 100 + 30 * 300) / 1440, 9);
    expect(put.consumption[0]!.writeUnitsPerSecond).toBe(300);
  });

  it("a table's load is its busiest minute: business hours and a nightly batch, 100/s peak each, need 110 WCU/s (01:00–04:00: 10 + 100), not 200", () => {
    const table = costDesign(designWith([{ profile: { kind: 'businessHours' } }, { profile: { kind: 'nightlyBatch' } }])).tables[0]!;
    const target = table.targets[0]!;
    expect(target.writeUnitsPerSecond.value).toBeCloseTo(110, 9);
    expect(target.loadNeeds.writeCapacityUnits).toBe(110);
    expect(target.writeUnitsPerSecond.steps.at(-1)!.label).toContain('sized from the peak: the busiest minute');
    expect(target.writeUnitsPerSecond.steps.at(-1)!.label).toContain('01:00');
  });

  it('without traffic shapes the table load is the sum of the peaks, as before', () => {
    const table = costDesign(designWith([{}, { ratePerSecond: 50 }])).tables[0]!;
    expect(table.targets[0]!.writeUnitsPerSecond.value).toBe(150);
  });
});

describe('auto scaling follows the day', () => {
  const autoScaled: Design['tables'][number]['billing'] = {
    mode: 'PROVISIONED',
    readCapacityUnits: 5,
    writeCapacityUnits: 5,
    autoScaling: { read: { minCapacity: 5, maxCapacity: 1000, targetUtilizationPercent: 70 }, write: { minCapacity: 5, maxCapacity: 1000, targetUtilizationPercent: 70 } },
  };

  it('a business-hours put at 100/s peak holds 70.75 WCU on average (not 143): 70.75 × 730 h × $0.00065 = $33.571625 of writes', () => {
    // Each hour: ceil(100 × m ÷ 70 %): m = 0.1 → 15 (10 hours), 0.2 → 29 (2), 0.4 → 58 (2), 0.8 → 115 (2), 1 → 143 (8).
    // (150 + 58 + 116 + 230 + 1,144) ÷ 24 = 1,698 ÷ 24 = 70.75 WCU.
    const target = costDesign(designWith([{ profile: { kind: 'businessHours' } }], autoScaled)).tables[0]!.targets[0]!;
    expect(target.billed.writeCapacityUnits).toBeCloseTo(70.75, 9);
    // Reads: no load, the 5 RCU minimum: 5 × 730 × $0.00013 = $0.4745.
    expect(target.provisionedMonthly.value).toBeCloseTo(70.75 * 730 * 0.00065 + 5 * 730 * 0.00013, 9);
    expect(target.provisionedMonthly.steps.map((s) => s.label).join(' ')).toContain('auto scaling holds each hour of the day');
  });

  it('a flat put at 100/s holds ceil(100 ÷ 70 %) = 143 WCU all day, as before', () => {
    const target = costDesign(designWith([{}], autoScaled)).tables[0]!.targets[0]!;
    expect(target.billed.writeCapacityUnits).toBe(143);
  });
});

describe('traffic checks name the field at fault', () => {
  const problemsOf = (p: Partial<AccessPattern>) => {
    const design = designWith([{}]);
    const table = design.tables[0]!;
    return validateDesign({ ...design, tables: [{ ...table, accessPatterns: [{ ...table.accessPatterns[0]!, ...p }] }] });
  };

  it.each([
    [{ averagePerSecond: 120 }, 'tables[0].accessPatterns[0].averagePerSecond'],
    [{ averagePerSecond: 10, profile: { kind: 'eveningPeak' as const } }, 'tables[0].accessPatterns[0].profile'],
    [{ profile: { kind: 'custom' as const } }, 'tables[0].accessPatterns[0].profile.hourly'],
    [{ profile: { kind: 'flat' as const, hourly: Array.from({ length: 24 }, () => 0.5) } }, 'tables[0].accessPatterns[0].profile.hourly'],
  ])('%j is refused with model.traffic at its path', (p, path) => {
    expect(problemsOf(p)).toContainEqual(expect.objectContaining({ code: 'model.traffic', path }));
  });

  it('a custom profile of 23 multipliers, or a multiplier above 1, is a schema problem at its path', () => {
    const design = designWith([{}]);
    const raw = JSON.parse(JSON.stringify(design));
    raw.tables[0].accessPatterns[0].profile = { kind: 'custom', hourly: Array.from({ length: 23 }, () => 1) };
    const short = parseDesign(raw);
    expect(short.ok).toBe(false);
    if (!short.ok) expect(short.errors).toContainEqual(expect.objectContaining({ code: 'model.schema', path: expect.stringContaining('accessPatterns[0].profile.hourly') }));
    raw.tables[0].accessPatterns[0].profile = { kind: 'custom', hourly: Array.from({ length: 24 }, (_, i) => (i === 3 ? 1.5 : 1)) };
    const high = parseDesign(raw);
    expect(high.ok).toBe(false);
    if (!high.ok) expect(high.errors).toContainEqual(expect.objectContaining({ code: 'model.schema', path: expect.stringContaining('profile.hourly[3]') }));
  });
});
