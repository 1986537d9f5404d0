/**
 * Hot keys as DynamoDB handles them (docs/dynamodb-rules.md §4.1, §4.3, §4.6, §4.8, §5), each expectation
 * computed by hand from the rules, never copied from a run.
 */
import { describe, expect, it } from 'vitest';
import type { AccessPattern, Entity, KeyBinding } from '../model/index.ts';
import { ONE_HOUR, oneTableDesign, putEvents, TEN_MINUTES } from './__fixtures__/designs.ts';
import { handModel, keyAt } from './__fixtures__/models.ts';
import { hotKeysOf, keyRedesignFor, whatIfFocus } from './advice.ts';
import { createSimulation, runToEnd } from './engine.ts';
import { finishSimulation } from './result.ts';
import { shardAdvice } from './shards.ts';
import { simulate } from './simulate.ts';
import type { HotKey, SimulationResult, TargetResult } from './types.ts';

function target(result: SimulationResult, name = 'table') {
  const t = result.targets.find((x) => x.name === name);
  if (!t) throw new Error(`no target ${name}`);
  return t;
}

/** One counter item: every write goes to one item of under 1 KB (1 WCU each). */
const oneCounter: Partial<Entity> = {
  itemCount: 1,
  attributes: [
    { name: 'counterId', type: 'S', generator: { kind: 'constant', value: 'page-views' } },
    { name: 'eventId', type: 'S', generator: { kind: 'id' } },
    { name: 'deviceId', type: 'S', generator: { kind: 'id' } },
    { name: 'total', type: 'N' },
  ],
  keys: { PK: { template: 'COUNTER#{counterId}' }, SK: { template: 'TOTAL' } },
};

/** One device taking every event, under random (not increasing) sort keys. */
const oneDevice: Partial<Entity> = {
  attributes: [
    { name: 'eventId', type: 'S', generator: { kind: 'id' } },
    { name: 'deviceId', type: 'S', generator: { kind: 'constant', value: 'd-1' } },
    { name: 'payload', type: 'S', averageSizeBytes: 700 },
  ],
  keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' } },
};

describe('sharding advice from the peak (docs/dynamodb-rules.md §5)', () => {
  it('P-3: 3,500 WCU/s at headroom 1.25 → 5 shards, minimum 4', () => {
    expect(shardAdvice(3500, 0, 1.25)).toMatchObject({ minimum: 4, recommended: 5, headroom: 1.25 });
  });

  it('reads count against 3,000 RCU per partition: 7,000 RCU/s → minimum 3, 3 at 1.25 (8,750 / 3,000 = 2.9)', () => {
    expect(shardAdvice(0, 7000)).toMatchObject({ minimum: 3, recommended: 3 });
  });

  it('a single item at 5,000 WCU/s throttles at 1,000 WCU/s; minimum 5 shards, 7 at 1.25 headroom', () => {
    const design = oneTableDesign({ entity: oneCounter, patterns: [putEvents(5000)], workload: TEN_MINUTES });
    const result = simulate(design, 't-test', { arrivalNoise: false });
    // 5,000 offered, 1,000 served a second: 4,000 of every 5,000 writes throttle, 600 s long.
    expect(result.patterns[0]).toMatchObject({ requests: 3_000_000, throttled: 2_400_000, throttledFraction: 0.8, reasons: ['TableWriteKeyRangeThroughputExceeded'] });
    const t = target(result);
    expect(t.throttledKeys).toHaveLength(1);
    expect(t.throttledKeys[0]).toMatchObject({
      key: 'COUNTER#page-views',
      peakWriteUnitsPerSecond: 5000,
      statedPeakWriteUnitsPerSecond: 5000,
      throttledFraction: 0.8,
      reasons: ['TableWriteKeyRangeThroughputExceeded'],
      shards: { minimum: 5, recommended: 7, headroom: 1.25 },
    });
    expect(t.throttledKeys[0]?.limit).toBe("peak 5,000 WCU/s against one partition's 1,000 WCU/s");
    // One item cannot be split: split for heat refuses, once.
    expect(t.splits).toEqual([expect.objectContaining({ refused: 'oneKey', key: 'COUNTER#page-views' })]);
    expect(t.summary.join(' ')).toMatch(/Key COUNTER#page-views throttles 80% of its load: .* Shards for its stated peak of 5,000 WCU\/s: at least 5, 7 with 1.25 headroom\./);
  });

  it('a spike to 5× for two minutes: the advice comes from the 2,000 WCU/s peak, not the 453 WCU/s average', () => {
    const workload = { durationSeconds: 3600, stepSeconds: 1, seed: 1, events: [{ kind: 'spike' as const, startSecond: 600, durationSeconds: 120, multiplier: 5 }] };
    const design = oneTableDesign({ entity: oneDevice, patterns: [putEvents(400)], workload });
    const result = simulate(design, 't-test', { arrivalNoise: false });
    const t = target(result);
    // Average: (400 × 3,480 + 2,000 × 120) / 3,600 = 453.33 WCU/s; from it one shard would do.
    expect(t.hottestKeys[0]?.writeUnitsPerSecond).toBeCloseTo(453.333, 2);
    expect(shardAdvice(453.333).recommended).toBe(1);
    // Peak: 400 × 5 = 2,000 WCU/s: minimum ceil(2,000 / 1,000) = 2, recommended ceil(2,500 / 1,000) = 3.
    expect(t.throttledKeys[0]).toMatchObject({ key: 'DEVICE#d-1', peakWriteUnitsPerSecond: 2000, statedPeakWriteUnitsPerSecond: 2000, shards: { minimum: 2, recommended: 3 } });
    // The spike is shorter than the 5 minutes split for heat waits: 1,000 of 2,000 throttle for 120 s.
    expect(result.patterns[0]?.throttled).toBe(120 * 1000);
  });

  it('with arrival noise on, the advice still comes from the stated peak: 1,500 WCU/s → minimum 2, 2 recommended; 2,400 → 3 and 3', () => {
    // 1,500 × 1.25 / 1,000 = 1.875 → 2; 2,400 × 1.25 / 1,000 = 3 → 3. The noisy busiest second (up to 4σ
    // above: 1,500 + 4√1,500 ≈ 1,655) would have given 3 and 4.
    for (const [rate, minimum, recommended] of [[1500, 2, 2], [2400, 3, 3], [5000, 5, 7]] as const) {
      const result = simulate(oneTableDesign({ entity: oneCounter, patterns: [putEvents(rate)], workload: TEN_MINUTES }), 't-test');
      const key = target(result).throttledKeys[0];
      expect(key?.statedPeakWriteUnitsPerSecond).toBe(rate);
      expect(key?.peakWriteUnitsPerSecond).toBeGreaterThan(rate);
      expect(key?.shards).toMatchObject({ minimum, recommended });
      expect(key?.shards.explanation).toMatch(/stated peak.*busiest simulated second/);
    }
  });
});

describe('hot items and their neighbours (docs/dynamodb-rules.md §4.6)', () => {
  // One partition (a provisioned table far above the load, so only the partition limit binds):
  // a hot item at 0.9 taking 2,000 WCU/s, four neighbours at 0.1–0.4 taking 100 WCU/s each.
  const hot = { ...keyAt(0.9, 'HOT', 1) };
  const neighbours = [keyAt(0.1, 'N1'), keyAt(0.2, 'N2'), keyAt(0.3, 'N3'), keyAt(0.4, 'N4')];
  const model = () =>
    handModel(
      [
        {
          capacity: { mode: 'provisioned', readUnitsPerSecond: 100_000, writeUnitsPerSecond: 100_000 },
          partitionCount: 1,
          keys: [...neighbours, hot],
          sources: [
            { patternIndex: 0, kind: 'write', unitsPerCall: 1, keys: [{ key: 4, share: 1 }], background: 0, isMonotonic: false },
            { patternIndex: 1, kind: 'write', unitsPerCall: 1, keys: [0, 1, 2, 3].map((key) => ({ key, share: 0.25 })), background: 0, isMonotonic: false },
          ],
        },
      ],
      [
        { kind: 'write', ratePerSecond: 2000 },
        { kind: 'write', ratePerSecond: 400 },
      ],
    );

  it('neighbours throttle until split for heat isolates the hot item, then clear; the item stays capped at 1,000 WCU/s', () => {
    const result = finishSimulation(runToEnd(createSimulation(model(), TEN_MINUTES, 1, { arrivalNoise: false, start: 'cold' })));
    const t = result.targets[0]!;
    // 2,400 WCU/s offered on one partition serving 1,000: every write throttles with 1,400/2,400.
    // After 300 s above 80%, the cut goes to the hot item's edge (it is one item): neighbours alone.
    const cuts = (t.splits ?? []).filter((s) => s.at !== undefined);
    expect(cuts).toEqual([expect.objectContaining({ second: 300, at: 0.9, key: 'HOT' })]);
    // Neighbours: 300 s × 400 × 1,400/2,400 = 70,000, then nothing.
    expect(result.patterns[1]?.throttled).toBe(70_000);
    expect(result.patterns[1]?.timeline?.throttled.at(-1)).toBe(0);
    // The hot item: 300 s × 2,000 × 1,400/2,400 = 350,000, then 300 s × (2,000 − 1,000) = 300,000.
    expect(result.patterns[0]?.throttled).toBe(650_000);
    expect(t.partitions.map((p) => p.peakWriteUnitsPerSecond)).toEqual([2400 * (400 / 2400), 2000].map((x) => expect.closeTo(x, 6)));
    // Neighbours throttled only while they shared the hot item's partition.
    const n1 = t.throttledKeys.find((k) => k.key === 'N1');
    expect(n1?.throttledFraction).toBeCloseTo(70_000 / 4 / (100 * 600), 4);
    expect(n1?.shards).toMatchObject({ minimum: 1, recommended: 1 });
    expect(n1?.limit).toMatch(/with key HOT/);
  });

  it('each neighbour is told when split for heat separated it from the hot item, not when the first split came', () => {
    // One partition: HOT (one item) at 0.5 taking 2,000 WCU/s, L at 0.1 taking 300, R at 0.9 taking 100.
    const m = handModel(
      [
        {
          capacity: { mode: 'provisioned', readUnitsPerSecond: 100_000, writeUnitsPerSecond: 100_000 },
          partitionCount: 1,
          keys: [keyAt(0.1, 'L'), keyAt(0.5, 'HOT', 1), keyAt(0.9, 'R')],
          sources: [
            { patternIndex: 0, kind: 'write', unitsPerCall: 1, keys: [{ key: 1, share: 1 }], background: 0, isMonotonic: false },
            { patternIndex: 1, kind: 'write', unitsPerCall: 1, keys: [{ key: 0, share: 0.75 }, { key: 2, share: 0.25 }], background: 0, isMonotonic: false },
          ],
        },
      ],
      [
        { kind: 'write', ratePerSecond: 2000 },
        { kind: 'write', ratePerSecond: 400 },
      ],
    );
    const result = finishSimulation(runToEnd(createSimulation(m, { durationSeconds: 900, stepSeconds: 1, seed: 1, events: [] }, 1, { arrivalNoise: false })));
    const t = result.targets[0]!;
    // At 300 s the median (1,200 of 2,400) falls inside HOT; of its edges, 0.5 leaves 300 below (900 from
    // the middle) and its top leaves 2,300 (1,100 from it): the cut goes to 0.5 and L is alone. HOT and R
    // (2,100 WCU/s) stay above 80% for 300 s more: at 600 s the cut goes to HOT's top and R is alone.
    expect((t.splits ?? []).filter((s) => s.at !== undefined).map((s) => s.second)).toEqual([300, 600]);
    const l = t.throttledKeys.find((k) => k.key === 'L');
    const r = t.throttledKeys.find((k) => k.key === 'R');
    // L: 0–300 s at 1,400/2,400 = 7/12 throttled, then none: 300 × 7/12 / 900 = 0.1944.
    expect(l?.throttledFraction).toBeCloseTo((300 * 7) / 12 / 900, 4);
    // R: 7/12 for 300 s, then 1,100/2,100 = 11/21 for 300 s: (175 + 157.14) / 900 = 0.3690.
    expect(r?.throttledFraction).toBeCloseTo((300 * (7 / 12) + 300 * (11 / 21)) / 900, 4);
    expect(l?.limit).toMatch(/until split for heat put it and HOT on different partitions at 0:05:00$/);
    expect(r?.limit).toMatch(/until split for heat put it and HOT on different partitions at 0:10:00$/);
  });

  it('on a provisioned table with Streams, the hot item is not isolated and its neighbours keep throttling', () => {
    const m = model();
    m.targets[0]!.canIsolateItems = false;
    m.targets[0]!.canSplitCollections = false;
    const result = finishSimulation(runToEnd(createSimulation(m, TEN_MINUTES, 1, { arrivalNoise: false })));
    expect(result.patterns[1]?.throttled).toBe(600 * 400 * (1400 / 2400));
    expect(result.targets[0]?.splits).toEqual([expect.objectContaining({ refused: 'streams' })]);
  });
});

describe('reads and writes of a partition (docs/dynamodb-rules.md §4.1, §4.8)', () => {
  const byStatus: AccessPattern = { id: 'ap-by-status', name: 'Events by status', entityId: 'e-event', action: 'query', known: ['status'], resultSize: 1, ratePerSecond: 9000, consistency: 'eventual' };
  const design = oneTableDesign({
    keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' }, GSI1PK: { template: 'STATUS#{status}' }, GSI1SK: { template: '{createdAt}' } },
    gsis: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
    patterns: [byStatus, putEvents(100)],
    workload: TEN_MINUTES,
  });

  it('a GSI read hotspot throttles GSI reads only: no table write throttles under the default independent limits', () => {
    const result = simulate(design, 't-test', { arrivalNoise: false });
    expect(result.partitionLimits).toBe('independent');
    const gsi = target(result, 'GSI1');
    // STATUS#DONE takes 90% of 9,000 queries of one small entry, 0.5 RCU each (eventual): 4,050 RCU/s.
    expect(gsi.hottestKeys[0]).toMatchObject({ key: 'STATUS#DONE', peakReadUnitsPerSecond: 4050 });
    expect(gsi.throttles.map((x) => x.reason)).toEqual(['IndexReadKeyRangeThroughputExceeded']);
    expect(target(result).throttles).toEqual([]);
    expect(result.patterns[1]).toMatchObject({ throttled: 0, reasons: [] });
    expect(result.assumptions[0]).toMatch(/two separate limits, so reads never throttle writes/);
  });

  it('under the linear combination the same reads crowd the GSI writes out and back-pressure throttles the table', () => {
    const result = simulate(design, 't-test', { arrivalNoise: false, limits: 'linear' });
    expect(result.partitionLimits).toBe('linear');
    expect(target(result).throttles.map((x) => x.reason)).toEqual(['IndexWriteKeyRangeThroughputExceeded']);
    expect(result.assumptions[0]).toMatch(/linear combination \(R\/3,000 \+ W\/1,000 ≤ 1\)/);
  });
});

describe('cold and warm start (docs/dynamodb-rules.md §4.3, §4.6)', () => {
  const design = oneTableDesign({ entity: oneDevice, patterns: [putEvents(2400)], workload: ONE_HOUR });

  it('cold: one partition key at 2,400 WCU/s with random sort keys throttles until split for heat has cut it twice', () => {
    const result = simulate(design, 't-test', { arrivalNoise: false });
    expect(result.start).toBe('cold');
    // 0–300 s: 2,400 on one partition, 1,400 throttled a second; 300–600 s: two halves of 1,200, 200 each;
    // from 600 s: four quarters of 600, nothing.
    expect(result.patterns[0]?.throttled).toBe(300 * 1400 + 300 * 2 * 200);
    const t = target(result);
    expect((t.splits ?? []).filter((s) => s.at !== undefined).map((s) => s.second)).toEqual([300, 600, 600]);
    expect(t.summary.join(' ')).toMatch(/starts cold, as a new on-demand table: it serves 12,000 reads\/s or 4,000 writes\/s at once/);
    // 12,000 / 3,000 = 4 partitions to start; 1,000,000 items of about 0.8 KB are under one 10 GB partition; + 3 cuts = 7.
    expect(t.partitionOrigins).toEqual({ atStart: 4, onDemandScaling: 0, splitsBeforeRun: 0, splitsDuringRun: 3 });
    expect(t.summary[0]).toBe('Table has 7 partitions: 4 at the start (4 for throughput, under 1 needed for size) and 3 from splits for heat during the run.');
  });

  it('warm: the same load has run before, the key range is already cut and nothing throttles', () => {
    const result = simulate(design, 't-test', { arrivalNoise: false, start: 'warm' });
    expect(result.start).toBe('warm');
    expect(result.patterns[0]?.throttled).toBe(0);
    expect(target(result).summary.join(' ')).toMatch(/starts warm/);
    // Twice the 2,400 WCU/s previous peak: 4.8 → 5 partitions; the key's 2,400 on one of them is cut to
    // halves of 1,200 (over 80%), then quarters of 600: 3 splits before the run, 8 partitions.
    expect(target(result).summary[0]).toBe('Table has 8 partitions: 5 at the start (4.8 for throughput, under 1 needed for size) and 3 from splits for heat before the run.');
  });

  it('cold on-demand serves 4,000 WCU/s at once and doubles only from a peak 30 minutes old', () => {
    // 6,000 WCU/s over many keys: 4,000 served (the new-table level) until the 4,000 peak is 30 minutes old.
    const many = oneTableDesign({ patterns: [putEvents(6000, { kind: 'uniform' })], workload: { durationSeconds: 2400, stepSeconds: 1, seed: 1, events: [] } });
    const result = simulate(many, 't-test', { arrivalNoise: false });
    expect(result.patterns[0]?.throttled).toBeCloseTo(1800 * 2000, -3);
  });

  it('partitions added by on-demand scaling are counted apart from the start', () => {
    // 3,000 WCU/s over many keys: 750 a partition on 4, under 80%, so no split. At 1,800 s the 3,000
    // served at 0 s is 30 minutes old: twice it, 6,000 WCU/s, needs 6 partitions, 2 more.
    const many = oneTableDesign({ patterns: [putEvents(3000, { kind: 'uniform' })], workload: { durationSeconds: 2400, stepSeconds: 1, seed: 1, events: [] } });
    const t = target(simulate(many, 't-test', { arrivalNoise: false }));
    expect(t.partitionCount).toBe(6);
    expect(t.partitionOrigins).toEqual({ atStart: 4, onDemandScaling: 2, splitsBeforeRun: 0, splitsDuringRun: 0, firstScaleOutSecond: 1800 });
    expect(t.summary[0]).toBe('Table has 6 partitions: 4 at the start (4 for throughput, under 1 needed for size) and 2 added by on-demand scaling as its previous peak doubled, first at 0:30:00.');
  });
});

describe('auto scaling (docs/dynamodb-rules.md §4)', () => {
  it('a provisioned table holds clamp(ceil(load / target), min, max), not its initial capacity', () => {
    const design = oneTableDesign({
      billing: { mode: 'PROVISIONED', readCapacityUnits: 5, writeCapacityUnits: 5, autoScaling: { write: { minCapacity: 5, maxCapacity: 1000, targetUtilizationPercent: 70 } } },
      patterns: [putEvents(350, { kind: 'uniform' })],
      workload: TEN_MINUTES,
    });
    const t = target(simulate(design, 't-test', { arrivalNoise: false }));
    // 350 WCU/s at a 70% target: ceil(350 / 0.7) = 500 WCU.
    expect(t.capacity).toEqual({ mode: 'provisioned', readUnitsPerSecond: 5, writeUnitsPerSecond: 500 });
    expect(t.summary.join(' ')).toMatch(/Auto scaling holds 500 WCU .* instead of the initial 5/);
  });
});

describe('the heat map keeps the worst step of each bucket', () => {
  it('a one-second spike over the limit shows in its one-minute bucket', () => {
    // Two hours at 1 s steps: 60 s buckets. 500 WCU/s on one key, 3× for one second at 3,000 s.
    const workload = { durationSeconds: 7200, stepSeconds: 1, seed: 1, events: [{ kind: 'spike' as const, startSecond: 3000, durationSeconds: 1, multiplier: 3 }] };
    const t = target(simulate(oneTableDesign({ entity: oneDevice, patterns: [putEvents(500)], workload }), 't-test', { arrivalNoise: false }));
    const column = t.hottestKeys[0]!.partition;
    expect(t.heat.bucketSeconds).toBe(60);
    expect(t.heat.values[50]?.[column]).toBeCloseTo(1.5, 6);
    expect(t.heat.values[49]?.[column]).toBeCloseTo(0.5, 6);
  });
});

describe('what-if focus and key redesign', () => {
  it('starts from the target and key that throttle most, and names a higher-cardinality attribute before shards', () => {
    const keys: Record<string, KeyBinding> = { PK: { template: 'COUNTRY#{country}' }, SK: { template: 'EVENT#{eventId}' } };
    const design = oneTableDesign({ keys, patterns: [putEvents(3000, { kind: 'hotKey', share: 0.9 })], workload: TEN_MINUTES });
    const result = simulate(design, 't-test');
    const focus = whatIfFocus(result);
    expect(focus).toMatchObject({ targetName: 'table', key: { key: 'COUNTRY#US', entityId: 'e-event' } });
    const redesign = keyRedesignFor(design.tables[0]!, 'table', 'e-event', { key: focus?.key, limits: result.partitionLimits });
    // deviceId has 100,000 values: 5 × 100,000 = 500,000 keys, and the put knows every attribute.
    // (eventId is unique per item: it would leave no item collections; createdAt and day are dates.)
    expect(redesign).toMatchObject({ attribute: 'deviceId', suggestedTemplate: 'COUNTRY#{country}#{deviceId}', distinctNow: 5, distinctWith: 500_000 });
  });

  it('names no redesign for a key that neither throttles nor peaks above 80% of a partition', () => {
    const keys: Record<string, KeyBinding> = { PK: { template: 'COUNTRY#{country}' }, SK: { template: 'EVENT#{eventId}' } };
    const design = oneTableDesign({ keys, patterns: [putEvents(24)] });
    const cool: HotKey = { key: 'COUNTRY#US', partition: 0, share: 1, readUnitsPerSecond: 0, writeUnitsPerSecond: 24, peakReadUnitsPerSecond: 0, peakWriteUnitsPerSecond: 24, statedPeakReadUnitsPerSecond: 0, statedPeakWriteUnitsPerSecond: 24, throttledFraction: 0, reasons: [] };
    expect(keyRedesignFor(design.tables[0]!, 'table', 'e-event', { key: cool })).toBeUndefined();
    // 800 WCU/s is exactly 80% of 1,000: still no; 801 is over it; any throttling is enough.
    expect(keyRedesignFor(design.tables[0]!, 'table', 'e-event', { key: { ...cool, peakWriteUnitsPerSecond: 800 } })).toBeUndefined();
    expect(keyRedesignFor(design.tables[0]!, 'table', 'e-event', { key: { ...cool, peakWriteUnitsPerSecond: 801 } })).toBeDefined();
    expect(keyRedesignFor(design.tables[0]!, 'table', 'e-event', { key: { ...cool, throttledFraction: 0.01 } })).toBeDefined();
    // Reads count against 3,000 RCU: 2,401 RCU/s is over 80%.
    expect(keyRedesignFor(design.tables[0]!, 'table', 'e-event', { key: { ...cool, peakWriteUnitsPerSecond: 0, peakReadUnitsPerSecond: 2401 } })).toBeDefined();
  });

  it('counts the values a sparse GSI key takes in that GSI, not in the whole entity', () => {
    // GSI1PK = STATUS#{status} only where status = "PENDING" (10% of the 1,000,000 items by its 1:9 weights):
    // one value now; with eventId (unique) one per item in the GSI, 100,000, not 1,000,000.
    const design = oneTableDesign({
      keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' }, GSI1PK: { template: 'STATUS#{status}', when: 'status = "PENDING"' }, GSI1SK: { template: '{eventId}' } },
      gsis: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
      entity: {
        attributes: [
          { name: 'eventId', type: 'S', generator: { kind: 'id' } },
          { name: 'status', type: 'S', generator: { kind: 'enum', values: ['PENDING', 'DONE'], weights: [1, 9] } },
          { name: 'payload', type: 'S', averageSizeBytes: 700 },
        ],
      },
    });
    const redesign = keyRedesignFor(design.tables[0]!, 'GSI1', 'e-event');
    expect(redesign).toMatchObject({ attribute: 'eventId', distinctNow: 1, distinctWith: 100_000 });
    expect(redesign?.explanation).toMatch(/takes about 100,000 values instead of 1;/);
  });

  it('takes a uuid attribute, or one named like an id, as a candidate', () => {
    // PK = DEV#{deviceId} (1,000 values); eventId is a uuid the put knows: 1,000 × 1,000,000 capped at 1,000,000 items.
    const attributes: Entity['attributes'] = [
      { name: 'deviceId', type: 'S', cardinality: 1000 },
      { name: 'eventId', type: 'S', generator: { kind: 'uuid' } },
      { name: 'v', type: 'N' },
    ];
    const design = oneTableDesign({ keys: { PK: { template: 'DEV#{deviceId}' }, SK: { template: 'EV#{eventId}' } }, entity: { attributes }, patterns: [putEvents(2500)] });
    expect(keyRedesignFor(design.tables[0]!, 'table', 'e-event')).toMatchObject({ attribute: 'eventId', distinctNow: 1000, distinctWith: 1_000_000, suggestedTemplate: 'DEV#{deviceId}#{eventId}' });
    // The same by its name, whatever its generator says.
    const named = oneTableDesign({ keys: { PK: { template: 'DEV#{deviceId}' }, SK: { template: 'EV#{v}' } }, entity: { attributes: [attributes[0]!, { name: 'eventId', type: 'S', generator: { kind: 'text' } }, attributes[2]!] } });
    expect(keyRedesignFor(named.tables[0]!, 'table', 'e-event')?.attribute).toBe('eventId');
  });

  it('names the patterns that would lose their key', () => {
    const byCountry: AccessPattern = { id: 'ap-by-country', name: 'Events of a country', entityId: 'e-event', action: 'query', known: ['country'], resultSize: 10, ratePerSecond: 10, consistency: 'eventual' };
    const design = oneTableDesign({ keys: { PK: { template: 'COUNTRY#{country}' }, SK: { template: 'EVENT#{eventId}' } }, patterns: [byCountry] });
    const redesign = keyRedesignFor(design.tables[0]!, 'table', 'e-event');
    expect(redesign?.patternsWithout).toEqual(['Events of a country']);
    expect(redesign?.explanation).toMatch(/"Events of a country" does not know/);
  });
});

describe('hotKeysOf: the hottest-key list holds keys that are hot', () => {
  /** A target's report with keys of these shares (and throttled fractions) among `keys` keys with traffic. */
  const targetOf = (keys: number, shares: Array<[share: number, throttled?: number]>): TargetResult =>
    ({
      keysWithTraffic: { named: keys, background: 0 },
      hottestKeys: shares.map(([share, throttled = 0], i) => ({ key: `K#${i}`, share, throttledFraction: throttled }) as HotKey),
    }) as TargetResult;

  it('5 keys: the mean carries 20 %, so a hot key carries over 40 %; the even ones are left out', () => {
    expect(hotKeysOf(targetOf(5, [[0.6], [0.1], [0.1], [0.1], [0.1]])).map((k) => k.key)).toEqual(['K#0']);
    expect(hotKeysOf(targetOf(5, [[0.4], [0.15], [0.15], [0.15], [0.15]]))).toEqual([]);
  });

  it('one key carrying everything is its own mean: listed when it throttles, not otherwise', () => {
    expect(hotKeysOf(targetOf(1, [[1, 0.3]])).map((k) => k.key)).toEqual(['K#0']);
    expect(hotKeysOf(targetOf(1, [[1]]))).toEqual([]);
  });

  it('a quiet key throttled beside a hot one (under the mean) is not called hot', () => {
    // 50 keys: mean 2 %; the hot key 90 %, a neighbour at 0.2 % throttled by sharing its partition.
    expect(hotKeysOf(targetOf(50, [[0.9, 0.2], [0.002, 0.1]])).map((k) => k.key)).toEqual(['K#0']);
  });
});
