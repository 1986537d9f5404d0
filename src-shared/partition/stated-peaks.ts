/**
 * A key's stated peak: its load in the busiest second of the workload as the modeler stated it,
 * without the simulator's arrival noise. Sharding advice starts from it (docs/dynamodb-rules.md §5).
 */
import { MINUTES_PER_DAY, type WorkloadEvent } from '../model/index.ts';
import { keyUnitsAt, type SimulationState, type TargetState } from './state.ts';
import { multiplierAt } from './workload.ts';

/**
 * Each loaded key's stated peak: its load in the busiest second of the workload as the modeler stated
 * it (the events' spikes and ramps over the run's `steps`, and every minute of the patterns' days when
 * the workload holds them), without the arrival noise the simulator
 * draws on top. Sharding advice starts from this figure; the noisy busiest step is shown beside it.
 */
export function statedKeyPeaks(state: SimulationState, target: TargetState, steps: number): { read: Float64Array; write: Float64Array } {
  const ks = target.keyStats;
  const groups = state.groupEvents.length;
  // The distinct noise-free multiplier vectors of the run, without those another one covers in every group.
  const vectors: Float64Array[] = [];
  const m = new Float64Array(groups);
  // The run's steps, then, when the workload holds the patterns' days, every minute of a day (their
  // profiles and spikes change on whole minutes): the highest summed load in any second of them.
  const times: number[] = [];
  for (let s = 0; s < Math.max(1, steps); s += 1) times.push(s * state.stepSeconds);
  if (state.hasPatternDays) for (let minute = 0; minute < MINUTES_PER_DAY; minute += 1) times.push(minute * 60);
  for (const t of times) {
    for (let g = 0; g < groups; g += 1) m[g] = multiplierAt(state.groupEvents[g] as WorkloadEvent[], t);
    if (vectors.some((v) => v.every((x, g) => x >= (m[g] as number)))) continue;
    for (let n = vectors.length - 1; n >= 0; n -= 1) if ((vectors[n] as Float64Array).every((x, g) => x <= (m[g] as number))) vectors.splice(n, 1);
    vectors.push(Float64Array.from(m));
  }
  const read = new Float64Array(ks.peakRead.length);
  const write = new Float64Array(ks.peakWrite.length);
  const units = new Float64Array(2);
  for (let j = 0; j < ks.loaded.length; j += 1) {
    const k = ks.loaded[j] as number;
    for (const v of vectors) {
      keyUnitsAt(target.keyLoad, k, groups, v, 0, units);
      if ((units[0] as number) > (read[k] as number)) read[k] = units[0] as number;
      if ((units[1] as number) > (write[k] as number)) write[k] = units[1] as number;
    }
  }
  return { read, write };
}
