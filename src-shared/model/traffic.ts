/**
 * A pattern's traffic through the day (docs/traffic.md): `ratePerSecond` is the peak, a daily profile
 * scales it hour by hour (multipliers 0–1), spikes multiply an hour's rate for some minutes, and the
 * average is stated or follows from the profile and spikes. Costs price on-demand requests from the
 * average and size capacity from the busiest minute; the simulator runs the same minutes.
 */
import { HOURS_PER_DAY, type AccessPattern, type TrafficProfileKind } from './schema.ts';

/** Minutes in a day: the traffic model's resolution (a spike lasts whole minutes from the start of an hour). */
export const MINUTES_PER_DAY = 1440;

/** Each named profile's 24 hourly multipliers of the peak, hour 0 (00:00–01:00) first. */
export const PROFILE_MULTIPLIERS: Readonly<Record<Exclude<TrafficProfileKind, 'custom'>, readonly number[]>> = {
  flat: Array.from({ length: HOURS_PER_DAY }, () => 1),
  // Office hours 09:00–17:00 at the peak, mornings and evenings ramping, nights at a tenth.
  businessHours: [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.2, 0.4, 0.8, 1, 1, 1, 1, 1, 1, 1, 1, 0.8, 0.4, 0.2, 0.1, 0.1, 0.1, 0.1],
  // Consumer traffic: quiet at night, building through the day, the peak 20:00–22:00.
  eveningPeak: [0.3, 0.2, 0.1, 0.1, 0.1, 0.1, 0.2, 0.3, 0.4, 0.4, 0.4, 0.5, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1, 0.8, 0.5],
  // A batch job 01:00–04:00 at the peak, a trickle the rest of the day.
  nightlyBatch: [0.05, 1, 1, 1, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05],
};

/** How the UI names each profile. */
export const PROFILE_LABELS: Readonly<Record<TrafficProfileKind, string>> = {
  flat: 'Flat (the peak all day)',
  businessHours: 'Business hours (09–17)',
  eveningPeak: 'Evening peak (20–22)',
  nightlyBatch: 'Nightly batch (01–04)',
  custom: 'Custom',
};

type Traffic = Pick<AccessPattern, 'ratePerSecond' | 'averagePerSecond' | 'profile' | 'spikes'>;

/** The pattern's 24 hourly multipliers of its peak (all 1 without a profile; a custom profile missing `hourly` is flat). */
export function hourlyMultipliers(pattern: Pick<AccessPattern, 'profile'>): readonly number[] {
  const profile = pattern.profile;
  if (!profile) return PROFILE_MULTIPLIERS.flat;
  if (profile.kind === 'custom') return profile.hourly?.length === HOURS_PER_DAY ? profile.hourly : PROFILE_MULTIPLIERS.flat;
  return PROFILE_MULTIPLIERS[profile.kind];
}

/** Whether the pattern's rate changes through the day (a profile other than flat, or a spike above 1×). */
export function hasTrafficShape(pattern: Pick<AccessPattern, 'profile' | 'spikes'>): boolean {
  return hourlyMultipliers(pattern).some((m) => m !== 1) || (pattern.spikes ?? []).some((s) => s.height !== 1);
}

/**
 * The pattern's rate in each minute of the day as a multiple of `ratePerSecond`: the hour's
 * multiplier × every spike covering the minute (a spike running past midnight goes on at 00:00).
 */
export function minuteMultipliers(pattern: Pick<AccessPattern, 'profile' | 'spikes'>): Float64Array {
  const hourly = hourlyMultipliers(pattern);
  const minutes = new Float64Array(MINUTES_PER_DAY);
  for (let m = 0; m < MINUTES_PER_DAY; m += 1) minutes[m] = hourly[Math.floor(m / 60)] as number;
  for (const spike of pattern.spikes ?? []) {
    const start = spike.atHour * 60;
    for (let d = 0; d < Math.min(spike.durationMinutes, MINUTES_PER_DAY); d += 1) {
      const m = (start + d) % MINUTES_PER_DAY;
      minutes[m] = (minutes[m] as number) * spike.height;
    }
  }
  return minutes;
}

/** The highest rate of the day, requests per second: `ratePerSecond` × the busiest minute's multiplier. */
export function busiestRatePerSecond(pattern: Traffic): number {
  if (!hasTrafficShape(pattern)) return pattern.ratePerSecond;
  let top = 0;
  for (const m of minuteMultipliers(pattern)) if (m > top) top = m;
  return pattern.ratePerSecond * top;
}

/** How the average rate was found: stated, from the profile and spikes, or the peak (neither given). */
export type AverageSource = 'stated' | 'profile' | 'peak';

/**
 * The average rate over a day, requests per second: `averagePerSecond` when stated; otherwise
 * `ratePerSecond` × the mean of the day's minute multipliers (the peak itself when the traffic is flat).
 */
export function averageRatePerSecond(pattern: Traffic): { value: number; source: AverageSource } {
  if (pattern.averagePerSecond !== undefined) return { value: pattern.averagePerSecond, source: 'stated' };
  if (!hasTrafficShape(pattern)) return { value: pattern.ratePerSecond, source: 'peak' };
  let sum = 0;
  for (const m of minuteMultipliers(pattern)) sum += m;
  return { value: (pattern.ratePerSecond * sum) / MINUTES_PER_DAY, source: 'profile' };
}
