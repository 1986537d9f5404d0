import { describe, expect, it } from 'vitest';
import { averageRatePerSecond, busiestRatePerSecond, hourlyMultipliers, PROFILE_MULTIPLIERS } from './traffic.ts';
import { setProfileHour, setTrafficShape } from './traffic-edits.ts';
import type { AccessPattern, Design } from './schema.ts';

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

describe('daily profiles (docs/traffic.md)', () => {
  it.each([
    ['flat', 24],
    ['businessHours', 11.8],
    ['eveningPeak', 11.4],
    ['nightlyBatch', 4.05],
  ] as const)('%s: 24 multipliers of at most 1 summing to %d, as the docs table says', (kind, total) => {
    const hours = PROFILE_MULTIPLIERS[kind];
    expect(hours).toHaveLength(24);
    expect(Math.max(...hours)).toBe(1);
    expect(sum(hours)).toBeCloseTo(total, 9);
  });

  it('an evening peak at 1,000/s peak averages 475/s; a 2× spike for 60 minutes at 20:00 makes the peak 2,000/s and adds 1,000 × 60 ÷ 1,440 = 41.67/s', () => {
    const p = { ratePerSecond: 1000, profile: { kind: 'eveningPeak' as const } };
    expect(averageRatePerSecond(p)).toEqual({ value: expect.closeTo(475, 9), source: 'profile' });
    const spiked = { ...p, spikes: [{ height: 2, durationMinutes: 60, atHour: 20 }] };
    expect(busiestRatePerSecond(spiked)).toBe(2000);
    expect(averageRatePerSecond(spiked).value).toBeCloseTo(475 + 1000 * 60 / 1440, 9);
  });

  it('a spike past midnight goes on at 00:00: 90 minutes from 23:00 on a flat 100/s is 90 minutes at 300/s', () => {
    const p = { ratePerSecond: 100, spikes: [{ height: 3, durationMinutes: 90, atHour: 23 }] };
    expect(averageRatePerSecond(p).value).toBeCloseTo((1350 * 100 + 90 * 300) / 1440, 9);
  });
});

describe('traffic edits', () => {
  const pattern: AccessPattern = { id: 'p', name: 'P', action: 'get', known: [], ratePerSecond: 100, consistency: 'eventual', averagePerSecond: 40 };
  const design: Design = {
    formatVersion: 1, id: 'd', name: 'D',
    tables: [{ id: 't', name: 'T', partitionKey: { name: 'PK', type: 'S' }, billing: { mode: 'ON_DEMAND' }, tableClass: 'STANDARD', globalSecondaryIndexes: [], localSecondaryIndexes: [], entities: [], accessPatterns: [pattern] }],
  };
  const patternOf = (d: Design) => d.tables[0]!.accessPatterns[0]!;

  it('choosing a profile drops the stated average; custom starts from the current hours and edits one', () => {
    const hours = setTrafficShape(design, 't', 'p', 'businessHours');
    expect(patternOf(hours)).not.toHaveProperty('averagePerSecond');
    const custom = setTrafficShape(hours, 't', 'p', 'custom');
    expect(patternOf(custom).profile).toEqual({ kind: 'custom', hourly: [...PROFILE_MULTIPLIERS.businessHours] });
    const edited = setProfileHour(custom, 't', 'p', 3, 1);
    expect(hourlyMultipliers(patternOf(edited))[3]).toBe(1);
    expect(patternOf(setTrafficShape(edited, 't', 'p', 'average'))).not.toHaveProperty('profile');
  });
});
