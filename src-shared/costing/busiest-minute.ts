/**
 * A table's or GSI's load in its busiest minute: the patterns on it each follow their own day
 * (docs/traffic.md), so the capacity it needs is the highest sum over the day's minutes, not the sum
 * of each pattern's own peak.
 */
import { formatNumber, lazyFigure, type Figure, type Step } from '../capacity/index.ts';
import { hasTrafficShape, minuteMultipliers, MINUTES_PER_DAY, type AccessPattern } from '../model/index.ts';

/** One pattern's units per second on a target at its peak, with the pattern whose day it follows. */
export interface LoadPart {
  label: string;
  figure: Figure;
  pattern: AccessPattern | undefined;
}

/** Each minute's multiplier as a share of the pattern's busiest minute (its peak units are at 1). */
function shapeOf(pattern: AccessPattern): Float64Array {
  const minutes = minuteMultipliers(pattern);
  let top = 0;
  for (const m of minutes) if (m > top) top = m;
  return minutes.map((m) => (top > 0 ? m / top : 0));
}

/** "14:05" */
function clockOf(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/**
 * The load of `parts` in their busiest minute of the day, or undefined when no part's pattern has a
 * shape (then every minute is the same and the sum of the peaks is the answer).
 */
export function busiestMinuteLoad(label: string, parts: readonly LoadPart[], unit: 'RCU/s' | 'WCU/s'): Figure | undefined {
  if (!parts.some((p) => p.pattern && hasTrafficShape(p.pattern))) return undefined;
  const shapes = parts.map((p) => (p.pattern && hasTrafficShape(p.pattern) ? shapeOf(p.pattern) : undefined));
  let best = 0;
  let bestMinute = 0;
  for (let m = 0; m < MINUTES_PER_DAY; m += 1) {
    let sum = 0;
    parts.forEach((p, i) => (sum += p.figure.value * (shapes[i] ? (shapes[i][m] as number) : 1)));
    if (sum > best + 1e-9) {
      best = sum;
      bestMinute = m;
    }
  }
  const at = parts.map((p, i) => p.figure.value * (shapes[i] ? (shapes[i][bestMinute] as number) : 1));
  const build = (): Step[] => {
    const texts = at.map((v) => formatNumber(v, 4));
    const steps: Step[] = parts.map((p, i) => ({ label: `${p.label} at ${clockOf(bestMinute)} (its peak ${formatNumber(p.figure.value, 4)})`, expression: texts[i]!, value: at[i]!, unit }));
    steps.push({ label: `${label}, sized from the peak: the busiest minute of the patterns' days, ${clockOf(bestMinute)}`, expression: texts.join(' + '), value: best, unit });
    return steps;
  };
  return lazyFigure(best, unit, build, [...new Set(parts.flatMap((p) => p.figure.assumptions))]);
}

/**
 * Each hour's load (its busiest minute) of `parts`, 24 values from 00:00, or undefined when no part's
 * pattern has a shape: what auto scaling follows through the day.
 */
export function hourlyLoads(parts: readonly LoadPart[]): number[] | undefined {
  if (!parts.some((p) => p.pattern && hasTrafficShape(p.pattern))) return undefined;
  const shapes = parts.map((p) => (p.pattern && hasTrafficShape(p.pattern) ? shapeOf(p.pattern) : undefined));
  const hours = Array.from({ length: 24 }, () => 0);
  for (let m = 0; m < MINUTES_PER_DAY; m += 1) {
    let sum = 0;
    parts.forEach((p, i) => (sum += p.figure.value * (shapes[i] ? (shapes[i][m] as number) : 1)));
    const h = Math.floor(m / 60);
    if (sum > (hours[h] as number)) hours[h] = sum;
  }
  return hours;
}
