import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Pricing, type Pricing as PricingData, parseDesign } from '../model/index.ts';
import { writeUnits, readUnitsForBytes } from './units.ts';
import {
  BYTES_PER_GB,
  DEFAULT_PRICING,
  PRICING_ASSUMPTIONS,
  heldCapacityUnits,
  loadOnlyUnits,
  onDemandMonthlyUsd,
  onDemandUsd,
  provisionedCapacityMonthlyUsd,
  provisionedMonthlyUsd,
  roundUsd,
  storageMonthlyUsd,
} from './pricing.ts';

const KB = 1024;

/** The default prices with `gb` of free Standard storage, as a user who sets the free tier on Costs has them. */
function withFreeStorage(gb: number): PricingData {
  const pricing = structuredClone(DEFAULT_PRICING) as PricingData;
  pricing.tableClasses.STANDARD.freeStorageGb = gb;
  return pricing;
}

describe('DEFAULT_PRICING', () => {
  it('is a valid Pricing per the design schema', () => {
    expect(Value.Check(Pricing, DEFAULT_PRICING)).toBe(true);
  });

  it('holds the us-east-1 Standard prices, a 730-hour month and binary GB', () => {
    expect(DEFAULT_PRICING.tableClasses.STANDARD).toEqual({
      writeRequestUnitUsdPerMillion: 0.625,
      readRequestUnitUsdPerMillion: 0.125,
      writeCapacityUnitUsdPerHour: 0.00065,
      readCapacityUnitUsdPerHour: 0.00013,
      storageUsdPerGbMonth: 0.25,
      freeStorageGb: 0,
    });
    expect([DEFAULT_PRICING.hoursPerMonth, DEFAULT_PRICING.bytesPerGb]).toEqual([730, 1_073_741_824]);
  });

  it('prices Standard-IA throughput about 1.25 × Standard (estimates)', () => {
    const std = DEFAULT_PRICING.tableClasses.STANDARD;
    const ia = DEFAULT_PRICING.tableClasses.STANDARD_INFREQUENT_ACCESS;
    for (const [a, b] of [
      [ia.writeRequestUnitUsdPerMillion, std.writeRequestUnitUsdPerMillion],
      [ia.readRequestUnitUsdPerMillion, std.readRequestUnitUsdPerMillion],
      [ia.writeCapacityUnitUsdPerHour, std.writeCapacityUnitUsdPerHour],
      [ia.readCapacityUnitUsdPerHour, std.readCapacityUnitUsdPerHour],
    ] as const) {
      expect(a / b).toBeCloseTo(1.25, 1);
    }
    expect(ia.storageUsdPerGbMonth).toBe(0.1);
  });
});

describe('pricing in a design file', () => {
  const example = JSON.parse(readFileSync(new URL('../../examples/ecommerce.keyplan.json', import.meta.url), 'utf8')) as Record<string, unknown>;

  it('is optional, and a design with the default pricing parses', () => {
    expect(parseDesign(example).ok).toBe(true);
    const r = parseDesign({ ...example, pricing: DEFAULT_PRICING });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.pricing).toEqual(DEFAULT_PRICING);
  });

  it('rejects a negative price at its path', () => {
    const pricing = structuredClone(DEFAULT_PRICING);
    pricing.tableClasses.STANDARD.storageUsdPerGbMonth = -1;
    const r = parseDesign({ ...example, pricing });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => [e.code, e.path])).toEqual([['model.schema', 'pricing.tableClasses.STANDARD.storageUsdPerGbMonth']]);
  });
});

describe('cost examples worked by hand from the AWS prices', () => {
  it('C-1: 1,000,000 writes of 1 KB and 1,000,000 EC reads of 4 KB on demand cost $0.625 + $0.0625', () => {
    const wru = 1_000_000 * writeUnits({ kind: 'put', newItemBytes: KB, transactional: false, indexes: [] }).total.value;
    const rru = 1_000_000 * readUnitsForBytes(4 * KB, 'eventual');
    const f = onDemandUsd({ readRequestUnits: rru, writeRequestUnits: wru, tableClass: 'STANDARD', pricing: DEFAULT_PRICING });
    expect(f.steps.map((s) => s.value)).toEqual([0.0625, 0.625, 0.6875]);
    expect(f.unit).toBe('USD');
  });

  it('C-2: with 3 KB items and one ALL GSI the writes cost $3.75', () => {
    const w = writeUnits({ kind: 'put', newItemBytes: 3 * KB, transactional: false, indexes: [{ target: { kind: 'gsi', name: 'GSI1' }, effect: 'put', newEntryBytes: 3 * KB }] });
    expect(w.total.value).toBe(6);
    const f = onDemandUsd({ readRequestUnits: 0, writeRequestUnits: 1_000_000 * w.total.value, tableClass: 'STANDARD', pricing: DEFAULT_PRICING });
    expect(f.value).toBe(3.75);
  });

  it('C-3: 100 WCU + 100 RCU provisioned for 730 hours cost $47.45 + $9.49', () => {
    const f = provisionedMonthlyUsd({ rcu: 100, wcu: 100, tableClass: 'STANDARD', pricing: DEFAULT_PRICING });
    expect(f.steps.map((s) => [s.label.split(':')[0], s.value])).toEqual([
      ['Provisioned RCU', 100],
      ['Provisioned WCU', 100],
      ['Read capacity (Standard)', 9.49],
      ['Write capacity (Standard)', 47.45],
      ['Provisioned capacity per month', 56.94],
    ]);
    expect(f.unit).toBe('USD/month');
    expect(f.assumptions).toContain(PRICING_ASSUMPTIONS.noFreeCapacity);
  });

  it('C-4: 100 GB in Standard costs $18.75 a month with the 25 GB free tier set', () => {
    const f = storageMonthlyUsd({ bytes: 100 * BYTES_PER_GB, tableClass: 'STANDARD', pricing: withFreeStorage(25) });
    expect(f.value).toBe(18.75);
    expect(f.steps.map((s) => s.value)).toEqual([100, 75, 18.75]);
    expect(f.assumptions).toContain(PRICING_ASSUMPTIONS.freeStorageShared);
  });

  it('100 GB in Standard at the default prices: no free storage subtracted, 100 GB × $0.25 = $25, and the derivation says why', () => {
    const f = storageMonthlyUsd({ bytes: 100 * BYTES_PER_GB, tableClass: 'STANDARD', pricing: DEFAULT_PRICING });
    expect(f.value).toBe(25);
    expect(f.steps.map((s) => s.value)).toEqual([100, 100, 25]);
    expect(f.steps[1]!.expression).toBe('max(0, 100 GB − 0 GB)');
    expect(f.assumptions).toContain(PRICING_ASSUMPTIONS.noFreeStorage);
    expect(PRICING_ASSUMPTIONS.noFreeStorage).toMatch(/per account and Region.*Free storage, GB/);
  });
});

describe('onDemandMonthlyUsd', () => {
  it('turns a steady rate into monthly units: 1 WRU/s for 730 h is 2,628,000 WRU', () => {
    const f = onDemandMonthlyUsd({ readUnitsPerSecond: 2, writeUnitsPerSecond: 1, tableClass: 'STANDARD', pricing: DEFAULT_PRICING });
    expect(f.steps.slice(0, 2).map((s) => s.value)).toEqual([5_256_000, 2_628_000]);
    expect(f.value).toBe(roundUsd(5.256 * 0.125 + 2.628 * 0.625));
  });

  it('matches C-1 when the rate spreads its units over the month', () => {
    const seconds = 3600 * 730;
    const f = onDemandMonthlyUsd({ readUnitsPerSecond: 500_000 / seconds, writeUnitsPerSecond: 1_000_000 / seconds, tableClass: 'STANDARD', pricing: DEFAULT_PRICING });
    expect(f.value).toBe(0.6875);
  });

  it('uses the table class and the month length the pricing gives', () => {
    const pricing: PricingData = { ...DEFAULT_PRICING, hoursPerMonth: 720 };
    const f = onDemandMonthlyUsd({ readUnitsPerSecond: 0, writeUnitsPerSecond: 1, tableClass: 'STANDARD_INFREQUENT_ACCESS', pricing });
    expect(f.value).toBe(roundUsd(2.592 * 0.78));
  });

  it('drops the default-price caveats once the user sets the prices', () => {
    const pricing = structuredClone(DEFAULT_PRICING);
    pricing.tableClasses.STANDARD.writeRequestUnitUsdPerMillion = 1.25;
    const f = onDemandMonthlyUsd({ readUnitsPerSecond: 0, writeUnitsPerSecond: 1, tableClass: 'STANDARD', pricing });
    expect(f.value).toBe(roundUsd(2.628 * 1.25));
    expect(f.assumptions).toEqual([]);
  });

  it('flags the default prices and the Standard-IA estimates', () => {
    const f = onDemandMonthlyUsd({ readUnitsPerSecond: 1, writeUnitsPerSecond: 1, tableClass: 'STANDARD_INFREQUENT_ACCESS', pricing: structuredClone(DEFAULT_PRICING) });
    expect(f.assumptions).toEqual([PRICING_ASSUMPTIONS.defaultPrices, PRICING_ASSUMPTIONS.infrequentAccess]);
  });
});

describe('provisionedMonthlyUsd', () => {
  it.each([
    { need: 12.2, provisioned: 13 },
    { need: 12, provisioned: 12 },
    { need: 0, provisioned: 1 },
    { need: 0.5, provisioned: 1 },
  ])('provisions $provisioned units for a need of $need per second', ({ need, provisioned }) => {
    const f = provisionedMonthlyUsd({ rcu: need, wcu: need, tableClass: 'STANDARD', pricing: DEFAULT_PRICING });
    expect([f.steps[0]?.value, f.steps[1]?.value]).toEqual([provisioned, provisioned]);
  });
});

describe('heldCapacityUnits: what a provisioned table or GSI is billed for', () => {
  const range = (minCapacity: number, maxCapacity: number, targetUtilizationPercent: number) => ({ minCapacity, maxCapacity, targetUtilizationPercent });
  it.each([
    // fixed capacity is held whatever the load
    { load: 0, configured: 100, autoScaling: undefined, held: 100 },
    { load: 500, configured: 100, autoScaling: undefined, held: 100 },
    // auto scaling: clamp(ceil(load ÷ target), min, max)
    { load: 150, configured: 100, autoScaling: range(5, 1000, 70), held: 215 }, // ceil(214.29)
    { load: 70, configured: 1, autoScaling: range(1, 1000, 70), held: 100 }, // exactly 100, not 101
    { load: 0, configured: 100, autoScaling: range(5, 1000, 70), held: 5 }, // the floor
    { load: 150, configured: 100, autoScaling: range(400, 1000, 70), held: 400 },
    { load: 150, configured: 100, autoScaling: range(5, 100, 70), held: 100 }, // the cap
    { load: 18, configured: 1, autoScaling: range(1, 100, 90), held: 20 },
  ])('load $load, configured $configured, auto scaling $autoScaling: holds $held', ({ load, configured, autoScaling, held }) => {
    expect(heldCapacityUnits({ loadUnitsPerSecond: load, configuredUnits: configured, ...(autoScaling ? { autoScaling } : {}) })).toBe(held);
  });

  it.each([
    [0, 1],
    [0.2, 1],
    [12, 12],
    [12.01, 13],
  ])('a load of %d units/s alone needs %i whole units', (load, units) => {
    expect(loadOnlyUnits(load)).toBe(units);
  });

  it('C-3 as configured: 100 RCU + 100 WCU for 730 h cost $9.49 + $47.45 = $56.94, with no load at all', () => {
    const f = provisionedCapacityMonthlyUsd({
      read: { loadUnitsPerSecond: 0, configuredUnits: 100 },
      write: { loadUnitsPerSecond: 0, configuredUnits: 100 },
      tableClass: 'STANDARD',
      pricing: DEFAULT_PRICING,
    });
    expect(f.steps.map((s) => s.value)).toEqual([100, 100, 9.49, 47.45, 56.94]);
    expect(f.assumptions).not.toContain(PRICING_ASSUMPTIONS.autoScalingSettled);
  });

  it('prices what auto scaling holds at the table class and month the pricing gives', () => {
    const pricing: PricingData = { ...DEFAULT_PRICING, hoursPerMonth: 720 };
    const f = provisionedCapacityMonthlyUsd({
      read: { loadUnitsPerSecond: 10, configuredUnits: 1, autoScaling: range(1, 100, 50) },
      write: { loadUnitsPerSecond: 0, configuredUnits: 1 },
      tableClass: 'STANDARD_INFREQUENT_ACCESS',
      pricing,
    });
    // 20 RCU × 720 h × $0.00016 = $2.304; 1 WCU × 720 h × $0.00081 = $0.5832.
    expect(f.value).toBe(2.8872);
    expect(f.assumptions).toContain(PRICING_ASSUMPTIONS.autoScalingSettled);
  });
});

describe('storageMonthlyUsd', () => {
  it.each([
    { gb: 0, usd: 0 },
    { gb: 25, usd: 0 },
    { gb: 26, usd: 0.25 },
  ])('Standard with the 25 GB free tier set: $gb GB cost $usd', ({ gb, usd }) => {
    expect(storageMonthlyUsd({ bytes: gb * BYTES_PER_GB, tableClass: 'STANDARD', pricing: withFreeStorage(25) }).value).toBe(usd);
  });

  it.each([
    { gb: 0, usd: 0 },
    { gb: 1, usd: 0.25 },
    { gb: 19.81, usd: 4.9525 },
  ])('Standard at the default prices: $gb GB cost $usd (nothing free)', ({ gb, usd }) => {
    expect(storageMonthlyUsd({ bytes: gb * BYTES_PER_GB, tableClass: 'STANDARD', pricing: DEFAULT_PRICING }).value).toBeCloseTo(usd, 9);
  });

  it('Standard-IA has no free storage by default: 100 GB cost $10', () => {
    expect(storageMonthlyUsd({ bytes: 100 * BYTES_PER_GB, tableClass: 'STANDARD_INFREQUENT_ACCESS', pricing: DEFAULT_PRICING }).value).toBe(10);
  });

  it('uses the GB definition the pricing gives (decimal GB: 10 GB of C-5 is 10 GB)', () => {
    const decimal: PricingData = { ...DEFAULT_PRICING, bytesPerGb: 1e9 };
    expect(storageMonthlyUsd({ bytes: 10e9, tableClass: 'STANDARD', pricing: decimal }).steps[0]?.value).toBe(10);
    expect(storageMonthlyUsd({ bytes: 10e9, tableClass: 'STANDARD', pricing: DEFAULT_PRICING }).steps[0]?.value).toBeCloseTo(9.31, 2);
  });
});

describe('properties', () => {
  it('costs never go down as usage goes up', () => {
    const amount = fc.double({ min: 0, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(amount, amount, fc.constantFrom('STANDARD', 'STANDARD_INFREQUENT_ACCESS') as fc.Arbitrary<'STANDARD' | 'STANDARD_INFREQUENT_ACCESS'>, (a, b, tableClass) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const pricing = DEFAULT_PRICING;
        return (
          onDemandMonthlyUsd({ readUnitsPerSecond: lo, writeUnitsPerSecond: lo, tableClass, pricing }).value <=
            onDemandMonthlyUsd({ readUnitsPerSecond: hi, writeUnitsPerSecond: hi, tableClass, pricing }).value &&
          provisionedMonthlyUsd({ rcu: lo, wcu: lo, tableClass, pricing }).value <= provisionedMonthlyUsd({ rcu: hi, wcu: hi, tableClass, pricing }).value &&
          storageMonthlyUsd({ bytes: lo * 1e6, tableClass, pricing }).value <= storageMonthlyUsd({ bytes: hi * 1e6, tableClass, pricing }).value
        );
      }),
    );
  });
});
