import { describe, expect, it } from 'vitest';
import type { AccessPattern, Entity, KeyBinding } from '../model/index.ts';
import { getEvent, ONE_HOUR, oneTableDesign, putEvents, TEN_MINUTES } from './__fixtures__/designs.ts';
import { handModel, keyAt, type HandTarget } from './__fixtures__/models.ts';
import { createSimulation, isFinished, runToEnd, step } from './engine.ts';
import { buildSimulationModel } from './model.ts';
import { finishSimulation } from './result.ts';
import { recommendShards } from './shards.ts';
import { simulate } from './simulate.ts';
import { costDesign } from '../costing/index.ts';

/** One device: every event of the table goes to one partition-key value. */
const oneDevice: Partial<Entity> = {
  attributes: [
    { name: 'eventId', type: 'S', generator: { kind: 'id' } },
    { name: 'deviceId', type: 'S', generator: { kind: 'constant', value: 'd-1' } },
    { name: 'createdAt', type: 'S', generator: { kind: 'timestamp' } },
    { name: 'payload', type: 'S', averageSizeBytes: 700 },
  ],
};
const timestampSortKey: KeyBinding = { template: '{createdAt}#{eventId}' };

function table(result: ReturnType<typeof simulate>, name = 'table') {
  const t = result.targets.find((x) => x.name === name);
  if (!t) throw new Error(`no target ${name}`);
  return t;
}

describe('partition examples (docs/dynamodb-rules.md §9.3)', () => {
  it('P-2: one partition key taking 2,400 WCU/s with an increasing sort key throttles above 1,000 all run long', () => {
    const design = oneTableDesign({ entity: oneDevice, keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: timestampSortKey }, patterns: [putEvents(2400)], workload: ONE_HOUR });
    const result = simulate(design, 't-test', { arrivalNoise: false });
    const [pattern] = result.patterns;
    expect(pattern?.throttledFraction).toBeCloseTo(1400 / 2400, 3);
    expect(pattern?.reasons).toEqual(['TableWriteKeyRangeThroughputExceeded']);
    const t = table(result);
    expect(t.throttledTimeShare).toBe(1);
    expect(t.hottestKeys[0]).toMatchObject({ key: 'DEVICE#d-1', share: 1, writeUnitsPerSecond: 2400 });
    expect(t.splits).toEqual([expect.objectContaining({ refused: 'monotonic', key: 'DEVICE#d-1' })]);
    expect(t.summary).toContain(`Table partition ${t.hottestKeys[0]?.partition} takes 100% of writes, key DEVICE#d-1.`);
    expect(t.summary.join(' ')).toMatch(/ever-increasing sort key/);
  });

  it('P-2: without the increasing sort key, split for heat divides the key range five minutes after the load arrives', () => {
    const design = oneTableDesign({ entity: oneDevice, keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' } }, patterns: [putEvents(2400)], workload: ONE_HOUR });
    // A cold start: the key's 2,400 WCU/s arrive at second 0 on the formula's equal ranges.
    const result = simulate(design, 't-test', { arrivalNoise: false });
    const t = table(result);
    const splits = (t.splits ?? []).filter((s) => s.at !== undefined);
    expect(splits[0]?.second).toBe(300);
    // 2,400 → two halves of 1,200 (still throttled) → four quarters of 600.
    expect(splits).toHaveLength(3);
    expect(result.patterns[0]?.throttled).toBe(300 * 1400 + 300 * 400);
    expect(result.patterns[0]?.timeline?.throttled.at(-1)).toBe(0);
  });

  it('P-2: a table that has run at that load before has already split the key range (a warm start)', () => {
    const design = oneTableDesign({ entity: oneDevice, keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' } }, patterns: [putEvents(2400)], workload: TEN_MINUTES });
    const t = table(simulate(design, 't-test', { arrivalNoise: false, start: 'warm' }));
    expect(t.throttles).toEqual([]);
    expect((t.splits ?? []).every((s) => s.second === 0 && s.at !== undefined)).toBe(true);
    expect(t.summary.join(' ')).toMatch(/splits for heat before the run/);
  });

  it('P-7: a provisioned 100 WCU table banks 300 s of unused capacity, 30,000 WCU, for a burst', () => {
    const design = oneTableDesign({
      billing: { mode: 'PROVISIONED', readCapacityUnits: 100, writeCapacityUnits: 100 },
      patterns: [putEvents(10)],
      workload: { durationSeconds: 1200, stepSeconds: 1, seed: 1, events: [{ kind: 'spike', startSecond: 600, durationSeconds: 400, multiplier: 20 }] },
    });
    const result = simulate(design, 't-test', { arrivalNoise: false });
    // 200 WCU/s for 400 s: 100 over the provisioned rate; the bucket pays for 300 s of it.
    expect(result.patterns[0]?.throttled).toBe(100 * 100);
    expect(result.patterns[0]?.reasons).toEqual(['TableWriteProvisionedThroughputExceeded']);
    const timeline = result.patterns[0]?.timeline;
    const firstThrottled = timeline?.throttled.findIndex((n) => n > 0) ?? -1;
    expect(firstThrottled * (timeline?.bucketSeconds ?? 0)).toBe(900);
  });

  it('P-8: adaptive capacity serves 50/50/50/150 WCU on 4 partitions of a 400 WCU table without throttling', () => {
    const keys = [keyAt(0.1), keyAt(0.35), keyAt(0.6), keyAt(0.85)];
    const loads = [50, 50, 50, 150];
    const model = handModel(
      [{ capacity: { mode: 'provisioned', readUnitsPerSecond: 1, writeUnitsPerSecond: 400 }, partitionCount: 4, keys, sources: [{ patternIndex: 0, kind: 'write', unitsPerCall: 1, keys: loads.map((l, key) => ({ key, share: l / 300 })), background: 0, isMonotonic: false }] }],
      [{ kind: 'write', ratePerSecond: 300 }],
    );
    const result = finishSimulation(runToEnd(createSimulation(model, ONE_HOUR, 1, { arrivalNoise: false })));
    expect(result.patterns[0]?.throttled).toBe(0);
    expect(result.targets[0]?.partitions.map((p) => p.writeUnitsPerSecond)).toEqual([50, 50, 50, 150]);
  });

  it('P-8 contrast: 450 WCU on a 400 WCU table throttles once the hot partition has spent its burst bucket', () => {
    const keys = [keyAt(0.1), keyAt(0.35), keyAt(0.6), keyAt(0.85)];
    const loads = [50, 50, 50, 300];
    const model = handModel(
      [{ capacity: { mode: 'provisioned', readUnitsPerSecond: 1, writeUnitsPerSecond: 400 }, partitionCount: 4, keys, sources: [{ patternIndex: 0, kind: 'write', unitsPerCall: 1, keys: loads.map((l, key) => ({ key, share: l / 450 })), background: 0, isMonotonic: false }] }],
      [{ kind: 'write', ratePerSecond: 450 }],
    );
    // Warm: the table has been idle or steady before, so its burst buckets are full.
    const result = finishSimulation(runToEnd(createSimulation(model, ONE_HOUR, 1, { arrivalNoise: false, start: 'warm' })));
    const t = result.targets[0]!;
    // 200 over its share; 150 lent by the others; the last 50/s come from a 30,000-unit bucket: 600 s.
    expect(t.throttles).toEqual([{ reason: 'TableWriteProvisionedThroughputExceeded', requests: 50 * 3000 }]);
    expect(t.throttledTimeShare).toBeCloseTo(3000 / 3600, 3);
  });

  it('P-5: a new on-demand table takes a jump to about 4,000 WCU/s spread over many keys, but not to 4,800', () => {
    const run = (multiplier: number) =>
      simulate(oneTableDesign({ patterns: [putEvents(10)], workload: { durationSeconds: 120, stepSeconds: 1, seed: 1, events: [{ kind: 'spike', startSecond: 0, durationSeconds: 60, multiplier }] } }), 't-test', {
        arrivalNoise: false,
      });
    // 3,900, not 4,000: the hottest 64 keys by name make the four partitions a hair uneven.
    expect(run(390).patterns[0]?.throttled).toBe(0);
    const over = run(480);
    expect(over.patterns[0]?.throttledFraction).toBeGreaterThan(0);
    expect(over.patterns[0]?.reasons).toEqual(['TableWriteKeyRangeThroughputExceeded']);
  });

  it('warm throughput: a new on-demand table pre-warmed to 10,000 WCU/s starts on the 10 partitions the Costs screen counts and takes the 4,800 WCU/s jump', () => {
    const jump = { durationSeconds: 120, stepSeconds: 1, seed: 1, events: [{ kind: 'spike' as const, startSecond: 0, durationSeconds: 60, multiplier: 480 }] };
    const design = oneTableDesign({ patterns: [putEvents(10)], workload: jump });
    design.tables[0]!.warmThroughput = { writeUnitsPerSecond: 10_000 };
    const result = simulate(design, 't-test', { arrivalNoise: false });
    // max(12,000 ÷ 3,000, 10,000 ÷ 1,000) = 10 partitions; 4,800 WCU/s is under the 10,000 served at once, 480 on each.
    expect(result.targets[0]!.partitionCount).toBe(10);
    expect(costDesign(design).tables[0]!.targets[0]!.warmThroughput.partitions.value).toBe(10);
    expect(result.patterns[0]?.throttled).toBe(0);
    expect(result.assumptions.join(' ')).toContain('A table or GSI with warm throughput set starts on the partitions it implies');
    expect(result.targets[0]!.summary.join(' ')).toContain('Table starts cold but pre-warmed: its warm throughput serves 12,000 read and 10,000 write units/s at once, together, on the 10 partitions that implies');
  });

  it('warm throughput serves its reads and writes together: 20,000 RCU/s and 9,000 WCU/s under 30,000 R / 10,000 W neither warn nor throttle', () => {
    // 40,000 eventually consistent gets of a < 4 KB item (0.5 RCU) = 20,000 RCU/s; 9,000 puts of a < 1 KB item = 9,000 WCU/s.
    // Read as one capacity (reads or writes) they would be 20,000 ÷ 3 + 9,000 = 15,667 write-equivalents against 10,000.
    const design = oneTableDesign({ patterns: [putEvents(9000), getEvent(40_000)], workload: TEN_MINUTES });
    design.tables[0]!.warmThroughput = { readUnitsPerSecond: 30_000, writeUnitsPerSecond: 10_000 };
    const costs = costDesign(design);
    expect(costs.tables[0]!.targets[0]!.readUnitsPerSecond.value).toBe(20_000);
    expect(costs.tables[0]!.targets[0]!.writeUnitsPerSecond.value).toBe(9000);
    expect(costs.warnings.filter((w) => w.code === 'cost.warmThroughput')).toEqual([]);
    const result = simulate(design, 't-test', { arrivalNoise: false });
    // max(30,000 ÷ 3,000, 10,000 ÷ 1,000) = 10 partitions at the start: 2,000 RCU/s and 900 WCU/s each
    // (at 90% of the write limit each splits for heat after five minutes).
    expect(result.targets[0]!.partitionOrigins?.atStart).toBe(10);
    expect(result.patterns.map((p) => p.throttled)).toEqual([0, 0]);
  });

  it('P-6: on-demand doubles its previous peak at once, and doubles again only after 30 minutes', () => {
    // 3,000 WCU/s steady on many keys (16 partitions' worth of headroom), then a spike to 3× and a ramp.
    const design = oneTableDesign({ patterns: [putEvents(3000)], workload: { durationSeconds: 4000, stepSeconds: 1, seed: 1, events: [{ kind: 'spike', startSecond: 100, durationSeconds: 100, multiplier: 2 }, { kind: 'spike', startSecond: 300, durationSeconds: 100, multiplier: 3 }] } });
    const model = buildSimulationModel(design, design.tables[0]!);
    model.targets[0]!.partitions = { ...model.targets[0]!.partitions, partitionCount: 64 };
    // Warm: the steady 3,000 WCU/s before the run is the previous peak.
    const state = createSimulation(model, design.workload!, 1, { arrivalNoise: false, start: 'warm' });
    const throttledAt: number[] = [];
    while (!isFinished(state)) {
      const before = state.patterns[0]!.throttled;
      step(state);
      if (state.patterns[0]!.throttled > before) throttledAt.push(state.step - 1);
    }
    // 2× the 3,000 peak at 100 s is served; 3× (9,000 > 6,000) at 300 s throttles.
    expect(throttledAt.some((s) => s >= 100 && s < 200)).toBe(false);
    expect(throttledAt.some((s) => s >= 300 && s < 400)).toBe(true);
  });
});

describe('traffic over keys', () => {
  it('a country key taking 90% of the traffic puts one partition over its limit', () => {
    const design = oneTableDesign({ keys: { PK: { template: 'COUNTRY#{country}' }, SK: timestampSortKey }, patterns: [putEvents(3000, { kind: 'hotKey', share: 0.9 })], workload: TEN_MINUTES });
    const t = table(simulate(design, 't-test'));
    expect(t.hottestKeys[0]).toMatchObject({ key: 'COUNTRY#US', share: expect.closeTo(0.9, 2) });
    expect(t.largestShare).toBeGreaterThan(0.89);
    expect(t.throttles.map((x) => x.reason)).toEqual(['TableWriteKeyRangeThroughputExceeded']);
    expect(t.summary.some((s) => /takes 9\d% of writes, key COUNTRY#US/.test(s))).toBe(true);
  });

  it('without a traffic distribution, writes follow the items: enum weights make the hot key', () => {
    const design = oneTableDesign({ keys: { PK: { template: 'STATUS#{status}' }, SK: { template: 'EVENT#{eventId}' } }, patterns: [putEvents(1000)], workload: TEN_MINUTES });
    const t = table(simulate(design, 't-test'));
    expect(t.hottestKeys.map((k) => [k.key, k.share])).toEqual([
      ['STATUS#DONE', expect.closeTo(0.9, 3)],
      ['STATUS#PENDING', expect.closeTo(0.1, 3)],
    ]);
  });

  it('"uniform" spreads requests evenly over key values, whatever their items', () => {
    const design = oneTableDesign({ keys: { PK: { template: 'STATUS#{status}' }, SK: { template: 'EVENT#{eventId}' } }, patterns: [putEvents(1000, { kind: 'uniform' })], workload: TEN_MINUTES });
    expect(table(simulate(design, 't-test')).hottestKeys.map((k) => k.share)).toEqual([expect.closeTo(0.5, 3), expect.closeTo(0.5, 3)]);
  });

  it('Zipf gives rank r a share ∝ 1/r^s', () => {
    const design = oneTableDesign({ patterns: [getEvent(3000, { kind: 'zipf', exponent: 1 })], workload: TEN_MINUTES });
    const keys = table(simulate(design, 't-test')).hottestKeys;
    expect(keys[0]!.share / keys[1]!.share).toBeCloseTo(2, 1);
    expect(keys[0]!.share / keys[3]!.share).toBeCloseTo(4, 1);
  });

  it('"today" puts every write on the newest date key while past days stay idle', () => {
    const design = oneTableDesign({ keys: { PK: { template: 'DAY#{day}' }, SK: { template: 'EVENT#{eventId}' } }, patterns: [putEvents(500, { kind: 'today' })], workload: TEN_MINUTES });
    const t = table(simulate(design, 't-test'));
    expect(t.hottestKeys).toHaveLength(1);
    expect(t.hottestKeys[0]).toMatchObject({ key: 'DAY#2026-03-14', share: 1 });
    const writes = t.partitions.map((p) => p.writeUnitsPerSecond);
    expect(writes.filter((w) => w > 0)).toHaveLength(1);
    // The data itself spreads over all 365 days, so every partition holds items.
    expect(t.partitions.every((p) => p.items > 0)).toBe(true);
  });

  it('a GSI partition over its limit throttles the base-table writes through back-pressure', () => {
    const design = oneTableDesign({
      keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' }, GSI1PK: { template: 'STATUS#{status}' }, GSI1SK: { template: '{createdAt}' } },
      gsis: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
      patterns: [putEvents(3000)],
      workload: TEN_MINUTES,
    });
    const result = simulate(design, 't-test');
    const base = table(result);
    const gsi = table(result, 'GSI1');
    expect(gsi.hottestKeys[0]).toMatchObject({ key: 'STATUS#DONE' });
    expect(gsi.throttles[0]?.reason).toBe('IndexWriteKeyRangeThroughputExceeded');
    // The table's own partitions are fine; its writes throttle because of GSI1.
    expect(Math.max(...base.partitions.map((p) => p.peakWriteUnitsPerSecond))).toBeLessThan(1000);
    expect(base.throttles.map((t) => t.reason)).toEqual(['IndexWriteKeyRangeThroughputExceeded']);
    expect(base.summary).toContain('Base-table writes throttled 100% of the time (back-pressure from GSI1).');
    expect(result.patterns[0]?.reasons).toEqual(['IndexWriteKeyRangeThroughputExceeded']);
    expect(result.patterns[0]?.throttledFraction).toBeCloseTo(0.9 * (1 - 1000 / 2700), 1);
  });

  it('an under-provisioned GSI throttles the base-table writes with IndexWriteProvisionedThroughputExceeded', () => {
    const design = oneTableDesign({
      billing: { mode: 'PROVISIONED', readCapacityUnits: 1000, writeCapacityUnits: 5000 },
      keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' }, GSI1PK: { template: 'DEVICE#{deviceId}' }, GSI1SK: { template: '{createdAt}' } },
      gsis: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' }, provisioned: { readCapacityUnits: 100, writeCapacityUnits: 100 } }],
      patterns: [putEvents(500)],
      workload: TEN_MINUTES,
    });
    const result = simulate(design, 't-test', { arrivalNoise: false, start: 'warm' });
    // 400 WCU/s over the GSI's 100: its 30,000-unit burst bucket lasts 75 s, then 80% of the writes throttle.
    expect(table(result, 'GSI1').throttles).toEqual([{ reason: 'IndexWriteProvisionedThroughputExceeded', requests: expect.any(Number) }]);
    expect(table(result).throttles.map((t) => t.reason)).toEqual(['IndexWriteProvisionedThroughputExceeded']);
    expect(result.patterns[0]?.throttledFraction).toBeCloseTo((0.8 * (600 - 75)) / 600, 2);
    // Cold, a new GSI has saved no burst: 400 of every 500 writes throttle from the first second.
    expect(simulate(design, 't-test', { arrivalNoise: false }).patterns[0]?.throttledFraction).toBeCloseTo(0.8, 6);
  });

  it('a read spike on a GSI reaches the table only through the GSI writes it crowds out of the partition', () => {
    const byStatus: AccessPattern = { id: 'ap-by-status', name: 'Events by status', entityId: 'e-event', action: 'query', known: ['status'], resultSize: 1, ratePerSecond: 9000, consistency: 'eventual' };
    const design = oneTableDesign({
      keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' }, GSI1PK: { template: 'STATUS#{status}' }, GSI1SK: { template: '{createdAt}' } },
      gsis: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
      patterns: [byStatus, putEvents(100)],
      workload: TEN_MINUTES,
    });
    // A cold start: the read spike arrives before split for heat has cut the hot key's sort-key range.
    const result = simulate(design, 't-test', { limits: 'linear' });
    expect(table(result, 'GSI1').throttles[0]?.reason).toBe('IndexReadKeyRangeThroughputExceeded');
    // R/3,000 + W/1,000 ≤ 1: the reads leave the partition no room for its GSI writes.
    expect(table(result).throttles.map((t) => t.reason)).toEqual(['IndexWriteKeyRangeThroughputExceeded']);
    expect(result.patterns[1]?.reasons).toEqual(['IndexWriteKeyRangeThroughputExceeded']);
  });
});

describe('write sharding', () => {
  const hotDevice = (shards: number | undefined, rate = 2400) =>
    oneTableDesign({
      entity: oneDevice,
      keys: { PK: { template: 'DEVICE#{deviceId}', ...(shards ? { shards: { count: shards, method: 'random' } } : {}) }, SK: timestampSortKey },
      patterns: [putEvents(rate)],
      workload: ONE_HOUR,
    });

  it.each([3, 5, 8, 16])('a hot key sharded %i ways (600 WCU/s a shard) spreads over at least min(N, partitions) partitions and stops throttling', (n) => {
    // Warm: the table has run this load before (on-demand partitions for twice it, split for heat done).
    const result = simulate(hotDevice(n, 600 * n), 't-test', { start: 'warm' });
    const t = table(result);
    const loaded = t.partitions.filter((p) => p.writeUnitsPerSecond > 0).length;
    expect(loaded).toBeGreaterThanOrEqual(Math.min(n, t.partitionCount));
    // Two shards can hash onto one partition (the reason for the headroom of docs/dynamodb-rules.md §5); at 600 WCU/s each, such
    // a partition runs hot, and split for heat separates them (before the run, on a warm start).
    expect(result.patterns[0]!.throttled).toBe(0);
  });

  it('on a cold start, shards that hash onto one partition throttle until split for heat separates them', () => {
    const result = simulate(hotDevice(8, 4800), 't-test');
    const timeline = result.patterns[0]!.timeline!;
    expect(result.patterns[0]!.throttled).toBeGreaterThan(0);
    expect(timeline.throttled.slice(-60).every((x) => x === 0)).toBe(true);
  });

  it('the recommended shard count clears the throttling the unsharded key suffers', () => {
    const n = recommendShards(2400).shards;
    expect(n).toBe(3);
    const unsharded = simulate(hotDevice(undefined), 't-test').patterns[0]!;
    const sharded = simulate(hotDevice(n), 't-test').patterns[0]!;
    expect(unsharded.throttledFraction).toBeGreaterThan(0.5);
    expect(sharded.throttledFraction).toBeLessThan(unsharded.throttledFraction / 10);
  });
});

describe('average load per partition', () => {
  const write = (background: number): HandTarget['sources'][number] => ({ patternIndex: 0, kind: 'write', unitsPerCall: 1, keys: [], background, isMonotonic: false });

  it('counts every step at its multiplier: 100 WCU/s tripled for 100 of 600 s and 50 WCU/s steady average (500×100 + 100×300)/600 + 50', () => {
    const model = handModel(
      [{ capacity: { mode: 'provisioned', readUnitsPerSecond: 1, writeUnitsPerSecond: 10_000 }, partitionCount: 1, sources: [write(1), { ...write(1), patternIndex: 1 }] }],
      [
        { kind: 'write', ratePerSecond: 100 },
        { kind: 'write', ratePerSecond: 50 },
      ],
    );
    const workload = { durationSeconds: 600, stepSeconds: 1, seed: 1, events: [{ kind: 'spike' as const, startSecond: 200, durationSeconds: 100, multiplier: 3, patternIds: ['p0'] }] };
    const result = finishSimulation(runToEnd(createSimulation(model, workload, 1, { arrivalNoise: false })));
    expect(result.targets[0]!.partitions.map((p) => p.writeUnitsPerSecond)).toEqual([183.333]);
    expect(result.targets[0]!.partitions[0]!.peakWriteUnitsPerSecond).toBe(350);
  });

  it('gives each half of a split its share of the history: 900 WCU/s spread evenly averages 450 on each half, whenever it split', () => {
    const model = handModel([{ capacity: { mode: 'provisioned', readUnitsPerSecond: 1, writeUnitsPerSecond: 10_000 }, partitionCount: 1, sources: [write(1)] }], [{ kind: 'write', ratePerSecond: 900 }]);
    const workload = { durationSeconds: 600, stepSeconds: 1, seed: 1, events: [] };
    const result = finishSimulation(runToEnd(createSimulation(model, workload, 1, { arrivalNoise: false })));
    const t = result.targets[0]!;
    expect(t.splits).toHaveLength(1);
    expect(t.partitions.map((p) => p.writeUnitsPerSecond)).toEqual([450, 450]);
  });
});

describe('determinism and scale', () => {
  const byCountry: AccessPattern = { id: 'ap-by-country', name: 'Recent events of a country', entityId: 'e-event', action: 'query', known: ['country'], resultSize: 10, ratePerSecond: 500, consistency: 'eventual' };
  const design = oneTableDesign({ keys: { PK: { template: 'COUNTRY#{country}' }, SK: timestampSortKey }, patterns: [putEvents(2000, { kind: 'hotKey', share: 0.6 }), byCountry], workload: TEN_MINUTES });

  it('gives the same result for the same seed, and different noise for another', () => {
    expect(simulate(design, 't-test', { seed: 7 })).toEqual(simulate(design, 't-test', { seed: 7 }));
    expect(simulate(design, 't-test', { seed: 8 }).patterns[0]?.requests).not.toBe(simulate(design, 't-test', { seed: 7 }).patterns[0]?.requests);
  });

  it('keeps at most a few thousand keys by name for millions of items on 1,000 partitions', () => {
    const big = oneTableDesign({ billing: { mode: 'PROVISIONED', readCapacityUnits: 1_500_000, writeCapacityUnits: 500_000 }, patterns: [putEvents(1000), getEvent(1000, { kind: 'zipf', exponent: 1.2 })] });
    big.tables[0]!.entities[0]!.itemCount = 50_000_000;
    const model = buildSimulationModel(big, big.tables[0]!);
    expect(model.targets[0]?.partitions.partitionCount).toBe(1000);
    expect(model.targets[0]?.keys.length).toBeLessThan(3000);
    const items = model.targets[0]!.keys.reduce((s, k) => s + k.items, 0) + model.targets[0]!.background.items;
    expect(items).toBeCloseTo(50_000_000, -1);
  });

  it('downsamples the heat map to at most 120 buckets', () => {
    const t = table(simulate(oneTableDesign({ patterns: [putEvents(100)], workload: { durationSeconds: 7200, stepSeconds: 1, seed: 1, events: [] } }), 't-test'));
    expect(t.heat.values).toHaveLength(120);
    expect(t.heat.bucketSeconds).toBe(60);
    expect(t.heat.values[0]).toHaveLength(t.partitionCount);
  });

  it('takes the items per partition key from a sample when given', () => {
    const d = oneTableDesign({ patterns: [putEvents(10)], workload: TEN_MINUTES });
    const keys = [
      { partitionKey: 'DEVICE#big', items: 900, bytes: 900_000 },
      { partitionKey: 'DEVICE#small', items: 100, bytes: 100_000 },
    ];
    const t = table(simulate(d, 't-test', { keys: { table: keys } }));
    expect(t.partitions.reduce((s, p) => s + p.items, 0)).toBe(1000);
    expect(Math.max(...t.partitions.map((p) => p.items))).toBeGreaterThanOrEqual(900);
  });
});
