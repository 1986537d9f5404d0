/**
 * The workload as each step's load multipliers: the events' spikes and ramps, times seeded arrival
 * noise. Patterns touched by the same events form one traffic group and share a multiplier
 * (`createSimulation`, engine.ts); the multipliers of a run are drawn once, in step order, into the
 * run's state.
 */
import { hasTrafficShape, hourlyMultipliers, minuteMultipliers, MINUTES_PER_DAY } from '../model/index.ts';
import type { AccessPattern, Workload, WorkloadEvent } from '../model/index.ts';
import { normal } from './random.ts';
import type { SimulationState } from './state.ts';

/** A workload of one hour at one-second steps without events: what a design without one gets. */
export const DEFAULT_WORKLOAD: Workload = { durationSeconds: 3600, stepSeconds: 1, seed: 1, events: [] };

/** The multiplier of a group's events at second `t`: spikes apply at once, ramps grow linearly, then stay. */
export function multiplierAt(events: readonly WorkloadEvent[], t: number): number {
  let m = 1;
  for (const e of events) {
    const end = e.startSecond + e.durationSeconds;
    if (e.kind === 'spike') {
      if (t >= e.startSecond && t < end) m *= e.multiplier;
    } else if (t >= end) m *= e.multiplier;
    else if (t >= e.startSecond) m *= 1 + ((e.multiplier - 1) * (t - e.startSecond)) / e.durationSeconds;
  }
  return m;
}

/**
 * Draws the multipliers of every step up to `until` (exclusive) that is not drawn yet, in step
 * order: requests arrive as a Poisson process, so a step's count varies around its mean by √n.
 */
export function drawMultipliers(state: SimulationState, until: number): void {
  const groups = state.groupEvents.length;
  const dt = state.stepSeconds;
  const drawn = state.drawn;
  const prefix = state.multiplierPrefix;
  for (let s = state.drawnSteps; s < until; s += 1) {
    const t = s * dt;
    for (let g = 0; g < groups; g += 1) {
      const mean = multiplierAt(state.groupEvents[g] as WorkloadEvent[], t);
      const calls = (state.groupCallsPerSecond[g] as number) * mean * dt;
      const noise = state.arrivalNoise && calls > 0 ? 1 + normal(state.random) / Math.sqrt(Math.max(1, calls)) : 1;
      const m = Math.max(0, mean * noise);
      drawn[s * groups + g] = m;
      prefix[(s + 1) * groups + g] = (prefix[s * groups + g] as number) + m;
    }
  }
  if (until > state.drawnSteps) state.drawnSteps = until;
}

const SECONDS_PER_HOUR = 3600;
const SECONDS_PER_DAY = 86_400;

/**
 * The hour of the day a run starts at: the hour of the patterns' busiest minute, their requests per
 * second summed (each `ratePerSecond` × its profile's hour × its spikes, docs/traffic.md); 0 when
 * no pattern's rate changes through the day. The earliest such hour on a tie.
 */
export function busiestStartHour(patterns: readonly AccessPattern[]): number {
  const shaped = patterns.filter((p) => hasTrafficShape(p));
  if (shaped.length === 0) return 0;
  const flat = patterns.filter((p) => !hasTrafficShape(p)).reduce((s, p) => s + (Number.isFinite(p.ratePerSecond) ? p.ratePerSecond : 0), 0);
  const sums = new Float64Array(MINUTES_PER_DAY).fill(flat);
  for (const p of shaped) minuteMultipliers(p).forEach((m, i) => (sums[i] = (sums[i] as number) + p.ratePerSecond * m));
  let best = 0;
  sums.forEach((s, i) => {
    if (s > (sums[best] as number) + 1e-9) best = i;
  });
  return Math.floor(best / 60);
}

/**
 * Each pattern's day as workload events of its own (the same spikes the Partitions screen adds), for
 * a run that starts at `startHour` and lasts `seconds` (a day at least, so a key's stated peak can
 * look at every hour): an hour whose profile multiplier is not 1 is a spike of that multiplier for
 * the hour; a pattern's spike multiplies its hour's rate from the start of `atHour` for its minutes.
 */
export function patternTrafficEvents(patterns: readonly AccessPattern[], startHour: number, seconds: number): WorkloadEvent[] {
  const horizon = Math.max(seconds, SECONDS_PER_DAY);
  const hours = Math.ceil(horizon / SECONDS_PER_HOUR);
  const events: WorkloadEvent[] = [];
  for (const p of patterns) {
    if (!hasTrafficShape(p)) continue;
    const hourly = hourlyMultipliers(p);
    for (let k = 0; k < hours; k += 1) {
      const multiplier = hourly[(startHour + k) % 24] as number;
      if (multiplier !== 1) events.push({ kind: 'spike', startSecond: k * SECONDS_PER_HOUR, durationSeconds: SECONDS_PER_HOUR, multiplier, patternIds: [p.id] });
    }
    for (const spike of p.spikes ?? []) {
      if (spike.height === 1) continue;
      const first = ((spike.atHour - startHour + 24) % 24) * SECONDS_PER_HOUR;
      for (let start = first; start < horizon; start += SECONDS_PER_DAY) {
        events.push({ kind: 'spike', startSecond: start, durationSeconds: spike.durationMinutes * 60, multiplier: spike.height, patternIds: [p.id] });
      }
    }
  }
  return events;
}

/** `workload` with the patterns' days added as events, and the hour of the day the run starts at. */
export function withPatternTraffic(workload: Workload, patterns: readonly AccessPattern[]): { workload: Workload; startHour: number; hasTraffic: boolean } {
  const startHour = busiestStartHour(patterns);
  const events = patternTrafficEvents(patterns, startHour, workload.durationSeconds);
  if (events.length === 0) return { workload, startHour, hasTraffic: false };
  return { workload: { ...workload, events: [...workload.events, ...events] }, startHour, hasTraffic: true };
}
