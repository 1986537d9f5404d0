/**
 * The workload as each step's load multipliers: the events' spikes and ramps, times seeded arrival
 * noise. Patterns touched by the same events form one traffic group and share a multiplier
 * (`createSimulation`, engine.ts); the multipliers of a run are drawn once, in step order, into the
 * run's state.
 */
import type { Workload, WorkloadEvent } from '../model/index.ts';
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
