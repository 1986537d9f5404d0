/**
 * Pure edits of a pattern's traffic (docs/traffic.md): its daily shape (a stated average, or a
 * profile), a custom profile's hours, and its spikes. Each returns a new design.
 */
import { updateAccessPattern } from './pattern-edits.ts';
import type { AccessPattern, Design, TrafficProfileKind, TrafficSpike } from './schema.ts';
import { hourlyMultipliers } from './traffic.ts';

/** How a pattern's day is given: a peak and an average (no profile), or one of the profiles. */
export type TrafficShape = 'average' | TrafficProfileKind;

/** The pattern's shape as the editor shows it. */
export function trafficShapeOf(pattern: Pick<AccessPattern, 'profile'>): TrafficShape {
  return pattern.profile?.kind ?? 'average';
}

function patternOf(design: Design, tableId: string, patternId: string): AccessPattern | undefined {
  return design.tables.find((t) => t.id === tableId)?.accessPatterns.find((p) => p.id === patternId);
}

/**
 * Gives the pattern's day as `shape`: `average` drops the profile (a stated average then prices
 * it); a profile drops the stated average (the profile gives it). `custom` starts from the
 * multipliers the pattern has now, so choosing it changes no number until an hour is edited.
 */
export function setTrafficShape(design: Design, tableId: string, patternId: string, shape: TrafficShape): Design {
  const pattern = patternOf(design, tableId, patternId);
  if (!pattern) return design;
  if (shape === 'average') return updateAccessPattern(design, tableId, patternId, { profile: undefined });
  const profile = shape === 'custom' ? { kind: shape, hourly: [...hourlyMultipliers(pattern)] } : { kind: shape };
  return updateAccessPattern(design, tableId, patternId, { profile, averagePerSecond: undefined });
}

/** Sets hour `hour` (0–23) of a custom profile to `multiplier` (0–1); any other pattern is returned unchanged. */
export function setProfileHour(design: Design, tableId: string, patternId: string, hour: number, multiplier: number): Design {
  const pattern = patternOf(design, tableId, patternId);
  if (pattern?.profile?.kind !== 'custom') return design;
  const hourly = [...hourlyMultipliers(pattern)];
  hourly[hour] = multiplier;
  return updateAccessPattern(design, tableId, patternId, { profile: { kind: 'custom', hourly } });
}

/** Adds a spike of 2× for 15 minutes at the pattern's busiest hour (the first, on a tie). */
export function addSpike(design: Design, tableId: string, patternId: string): Design {
  const pattern = patternOf(design, tableId, patternId);
  if (!pattern) return design;
  const hourly = hourlyMultipliers(pattern);
  const atHour = hourly.indexOf(Math.max(...hourly));
  const spike: TrafficSpike = { height: 2, durationMinutes: 15, atHour: Math.max(0, atHour) };
  return updateAccessPattern(design, tableId, patternId, { spikes: [...(pattern.spikes ?? []), spike] });
}

/** Changes spike `index` of the pattern. */
export function updateSpike(design: Design, tableId: string, patternId: string, index: number, patch: Partial<TrafficSpike>): Design {
  const pattern = patternOf(design, tableId, patternId);
  const spikes = pattern?.spikes;
  if (!spikes?.[index]) return design;
  return updateAccessPattern(design, tableId, patternId, { spikes: spikes.map((s, i) => (i === index ? { ...s, ...patch } : s)) });
}

/** Removes spike `index`; the last one removed leaves no `spikes` field. */
export function removeSpike(design: Design, tableId: string, patternId: string, index: number): Design {
  const spikes = patternOf(design, tableId, patternId)?.spikes;
  if (!spikes?.[index]) return design;
  const rest = spikes.filter((_, i) => i !== index);
  return updateAccessPattern(design, tableId, patternId, { spikes: rest.length > 0 ? rest : undefined });
}
