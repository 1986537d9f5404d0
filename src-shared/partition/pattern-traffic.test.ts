/**
 * The simulator runs each pattern's day (docs/traffic.md): its profile and spikes become workload
 * events from the busiest hour, a key's stated peak is its highest load in any minute of the day, and
 * a pattern's stated skew lands on the key its request goes to. Expectations computed by hand.
 */
import { describe, expect, it } from 'vitest';
import type { AccessPattern, Entity } from '../model/index.ts';
import { ONE_HOUR, oneTableDesign, putEvents, TEN_MINUTES } from './__fixtures__/designs.ts';
import { simulate } from './simulate.ts';
import { busiestStartHour, patternTrafficEvents } from './workload.ts';

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

const shaped = (rate: number, id: string, traffic: Partial<AccessPattern>): AccessPattern => ({ ...putEvents(rate, undefined, id), ...traffic });

describe('the patterns’ days as workload events', () => {
  it('a nightly batch starts the run at 01:00; its quiet hours are spikes of 0.05 for an hour each, 21 of them in a day', () => {
    const batch = shaped(100, 'b', { profile: { kind: 'nightlyBatch' } });
    expect(busiestStartHour([batch])).toBe(1);
    const events = patternTrafficEvents([batch], 1, 3600);
    // Hours 01–03 are at 1 (no event); 04–00, 21 hours, at 0.05: the first from 3 h into the run.
    expect(events).toHaveLength(21);
    expect(events[0]).toEqual({ kind: 'spike', startSecond: 3 * 3600, durationSeconds: 3600, multiplier: 0.05, patternIds: ['b'] });
  });

  it('a pattern without a profile or spikes adds no event and starts at 00:00', () => {
    expect(busiestStartHour([putEvents(100)])).toBe(0);
    expect(patternTrafficEvents([putEvents(100)], 0, 3600)).toEqual([]);
  });

  it('two patterns on one item, business hours and a nightly batch at 3,000 WCU/s each: stated peak 3,300 (01:00: 300 + 3,000), 4 shards at least, 5 with headroom', () => {
    const design = oneTableDesign({
      entity: oneCounter,
      patterns: [shaped(3000, 'a', { profile: { kind: 'businessHours' } }), shaped(3000, 'b', { profile: { kind: 'nightlyBatch' } })],
      workload: TEN_MINUTES,
    });
    const result = simulate(design, 't-test', { arrivalNoise: false });
    // Busiest minute: 01:00–04:00 at 0.1 × 3,000 + 3,000 = 3,300 WCU/s (09:00–17:00 is 3,000 + 150 = 3,150).
    expect(result.patterns.map((p) => p.requests)).toEqual([0.1 * 3000 * 600, 3000 * 600]);
    const key = result.targets[0]!.throttledKeys[0]!;
    expect(key.statedPeakWriteUnitsPerSecond).toBeCloseTo(3300, 6);
    // ceil(3,300 / 1,000) = 4; ceil(3,300 × 1.25 / 1,000) = ceil(4.125) = 5 (the sum of the peaks, 6,000, would say 6 and 8).
    expect(key.shards).toMatchObject({ minimum: 4, recommended: 5 });
    expect(result.assumptions.join(' ')).toContain('The run starts at 01:00');
  });

  it('a 5× spike for 2 minutes at 00:00 on 400 WCU/s: 2,000 WCU/s for 120 s; stated peak 2,000, 2 shards at least, 3 with headroom', () => {
    const oneDevice: Partial<Entity> = {
      attributes: [
        { name: 'eventId', type: 'S', generator: { kind: 'id' } },
        { name: 'deviceId', type: 'S', generator: { kind: 'constant', value: 'd-1' } },
        { name: 'payload', type: 'S', averageSizeBytes: 700 },
      ],
      keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' } },
    };
    const design = oneTableDesign({ entity: oneDevice, patterns: [shaped(400, 'p', { spikes: [{ height: 5, durationMinutes: 2, atHour: 0 }] })], workload: ONE_HOUR });
    const result = simulate(design, 't-test', { arrivalNoise: false });
    // 400 × 3,480 s + 2,000 × 120 s = 1,632,000 requests.
    expect(result.patterns[0]!.requests).toBe(1_632_000);
    // One item serves 1,000 WCU/s: 1,000 of the 2,000 throttle each second of the spike, none after it.
    expect(result.patterns[0]!.throttled).toBe(120 * 1000);
    expect(result.targets[0]!.throttledKeys[0]).toMatchObject({ statedPeakWriteUnitsPerSecond: 2000, shards: { minimum: 2, recommended: 3 } });
  });
});

describe("a pattern's skew lands on the key its request goes to", () => {
  const gsi = (template: string) => ({
    keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' }, GSI1PK: { template }, GSI1SK: { template: '{createdAt}' } },
    gsis: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' as const }, sortKey: { name: 'GSI1SK', type: 'S' as const }, projection: { type: 'KEYS_ONLY' as const } }],
  });

  it('30 % of puts on one device does not make a country hot on an index by country: its writes follow the items (5 even countries, 180 WCU/s each)', () => {
    const design = oneTableDesign({ ...gsi('COUNTRY#{country}'), patterns: [shaped(900, 'p', { hotKeyShare: 0.3 })], workload: TEN_MINUTES });
    const result = simulate(design, 't-test', { arrivalNoise: false });
    const table = result.targets.find((t) => t.name === 'table')!;
    const index = result.targets.find((t) => t.name === 'GSI1')!;
    // The table: the hot device takes 30 % of 900 = 270 WCU/s.
    expect(table.hottestKeys[0]!.writeUnitsPerSecond).toBeCloseTo(270, 6);
    // The index: each of the 5 countries holds a fifth of the items and takes a fifth of the writes.
    expect(index.hottestKeys.map((k) => [k.key, k.share, k.writeUnitsPerSecond])).toEqual(['BR', 'DE', 'JP', 'PT', 'US'].map((c) => [`COUNTRY#${c}`, 0.2, 180]));
  });

  it('an index keyed by the device the request names does get the skew: 270 WCU/s on the hot device', () => {
    const design = oneTableDesign({ ...gsi('D#{deviceId}'), patterns: [shaped(900, 'p', { hotKeyShare: 0.3 })], workload: TEN_MINUTES });
    const result = simulate(design, 't-test', { arrivalNoise: false });
    const index = result.targets.find((t) => t.name === 'GSI1')!;
    expect(index.hottestKeys[0]!.writeUnitsPerSecond).toBeCloseTo(270, 6);
  });
});

describe("an attribute's skew reaches its keys on any key space size", () => {
  it('one device holding half of 1,000,000 events over 100,000 devices: puts at 3,000/s put 1,500 WCU/s on it, and it throttles', () => {
    const base = oneTableDesign({ patterns: [putEvents(3000)], workload: TEN_MINUTES });
    const table = base.tables[0]!;
    const entity = table.entities[0]!;
    const attributes = entity.attributes.map((a) => (a.name === 'deviceId' ? { ...a, generator: { kind: 'id' as const, distribution: { kind: 'hotKey' as const, share: 0.5 } } } : a));
    const design = { ...base, tables: [{ ...table, entities: [{ ...entity, attributes }] }] };
    const result = simulate(design, 't-test', { arrivalNoise: false });
    const hot = result.targets[0]!.throttledKeys[0]!;
    // An event is under 1 KB: 1 WCU a put; half of 3,000 puts a second go to the hot device.
    expect(hot.key).toMatch(/^DEVICE#/);
    expect(hot.statedPeakWriteUnitsPerSecond).toBeCloseTo(1500, 6);
    expect(hot.reasons).toEqual(['TableWriteKeyRangeThroughputExceeded']);
    // ceil(1,500 / 1,000) = 2; ceil(1,875 / 1,000) = 2.
    expect(hot.shards).toMatchObject({ minimum: 2, recommended: 2 });
  });
});

