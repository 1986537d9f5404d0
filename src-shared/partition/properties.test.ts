/**
 * The simulator's invariants over random models and workloads: load is conserved (served +
 * throttled = offered, per partition and step; what lands on partitions is what the patterns
 * offer), served load never exceeds a limit (per partition, per target), and a seed determines
 * the run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Workload } from '../model/index.ts';
import { oneTableDesign, putEvents, getEvent } from './__fixtures__/designs.ts';
import { handModel, type HandTarget } from './__fixtures__/models.ts';
import { createSimulation, step, type SimulationState } from './engine.ts';
import { ON_DEMAND_ACCOUNT_READ_UNITS, ON_DEMAND_ACCOUNT_WRITE_UNITS, PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND } from './limits.ts';
import { finishSimulation } from './result.ts';
import { simulate } from './simulate.ts';

const TOLERANCE = 1e-6;
const near = (a: number, b: number) => Math.abs(a - b) <= TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));

const capacity = fc.oneof(
  fc.constant({ mode: 'onDemand' as const }),
  fc.record({ mode: fc.constant('provisioned' as const), readUnitsPerSecond: fc.integer({ min: 1, max: 20_000 }), writeUnitsPerSecond: fc.integer({ min: 1, max: 8_000 }) }),
);

function targetArb(kind: 'table' | 'gsi', name: string, patterns: { kind: 'read' | 'write' }[]) {
  return fc.record({ capacity, partitionCount: fc.integer({ min: 1, max: 12 }), keyPositions: fc.array(fc.double({ min: 0, max: 0.999999, noNaN: true }), { minLength: 1, maxLength: 8 }), canSplitCollections: fc.boolean() }).chain((t) =>
    fc
      .tuple(
        ...patterns.map((p, patternIndex) =>
          fc.record({
            shares: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: t.keyPositions.length, maxLength: t.keyPositions.length }),
            background: fc.double({ min: 0, max: 1, noNaN: true }),
            unitsPerCall: fc.double({ min: 0.5, max: 8, noNaN: true }),
            isMonotonic: fc.boolean(),
            present: fc.boolean(),
          }).map((s) => ({ ...s, patternIndex, kind: p.kind })),
        ),
      )
      .map((sources): HandTarget => ({
        kind,
        name,
        capacity: t.capacity,
        partitionCount: t.partitionCount,
        canSplitCollections: t.canSplitCollections,
        keys: t.keyPositions.map((position, i) => ({ key: `${name}-k${i}`, position, items: 1 + i * 7, bytes: 1000 })),
        sources: sources
          .filter((s) => s.present && (kind === 'table' || s.kind === 'write' || s.patternIndex % 2 === 0))
          .map((s) => {
            const total = s.shares.reduce((a, b) => a + b, 0) + s.background;
            const norm = total > 0 ? total : 1;
            return {
              patternIndex: s.patternIndex,
              kind: s.kind,
              unitsPerCall: s.unitsPerCall,
              keys: s.shares.map((share, key) => ({ key, share: share / norm })).filter((k) => k.share > 0),
              background: total > 0 ? s.background / norm : 1,
              isMonotonic: s.isMonotonic,
            };
          }),
      })),
  );
}

const workloadArb: fc.Arbitrary<Workload> = fc.record({
  durationSeconds: fc.integer({ min: 30, max: 400 }),
  stepSeconds: fc.constantFrom(1, 2, 5),
  seed: fc.integer(),
  events: fc.array(
    fc.record({
      kind: fc.constantFrom('spike' as const, 'ramp' as const),
      startSecond: fc.integer({ min: 0, max: 300 }),
      durationSeconds: fc.integer({ min: 1, max: 200 }),
      multiplier: fc.double({ min: 0, max: 12, noNaN: true }),
    }),
    { maxLength: 3 },
  ),
});

const modelArb = fc
  .array(fc.record({ kind: fc.constantFrom('read' as const, 'write' as const), ratePerSecond: fc.double({ min: 0, max: 6000, noNaN: true }) }), { minLength: 1, maxLength: 4 })
  .chain((patterns) =>
    fc.tuple(fc.constant(patterns), targetArb('table', 'table', patterns), fc.array(fc.constant(0), { maxLength: 2 }).chain((g) => fc.tuple(...g.map((_, i) => targetArb('gsi', `GSI${i + 1}`, patterns))))),
  )
  .map(([patterns, table, gsis]) => handModel([table, ...gsis], patterns));

/** Checks every invariant on the step just done; returns the first broken one, in words. */
function brokenInvariant(state: SimulationState): string | undefined {
  const m = state.multipliers;
  const at = `step ${state.step}`;
  for (const target of state.targets) {
    const last = target.last;
    let servedR = 0;
    let servedW = 0;
    let offeredR = 0;
    let offeredW = 0;
    for (let i = 0; i < target.starts.length; i += 1) {
      const r = last.offeredRead[i]!;
      const w = last.offeredWrite[i]!;
      const sr = last.servedRead[i]!;
      const sw = last.servedWrite[i]!;
      const where = `${at}, ${target.model.name} partition ${i}`;
      // Conserved: served + throttled (by every cause) = offered.
      if (!near(sr + last.throttledRead.keyRange[i]! + last.throttledRead.provisioned[i]! + last.throttledRead.account[i]!, r)) return `${where}: reads not conserved`;
      if (!near(sw + last.throttledWrite.keyRange[i]! + last.throttledWrite.provisioned[i]! + last.throttledWrite.account[i]!, w)) return `${where}: writes not conserved`;
      if (sr < -TOLERANCE || sw < -TOLERANCE) return `${where}: negative served load`;
      // Never above one partition's limits: 3,000 R and 1,000 W, separately or as a linear combination.
      if (state.limits === 'linear' && sr / PARTITION_READ_UNITS_PER_SECOND + sw / PARTITION_WRITE_UNITS_PER_SECOND > 1 + TOLERANCE) return `${where}: above the partition limit`;
      if (sr > PARTITION_READ_UNITS_PER_SECOND * (1 + TOLERANCE) || sw > PARTITION_WRITE_UNITS_PER_SECOND * (1 + TOLERANCE)) return `${where}: above a partition limit`;
      servedR += sr;
      servedW += sw;
      offeredR += r;
      offeredW += w;
    }
    // What lands on partitions is what the patterns offer (after back-pressure).
    let sourceR = 0;
    let sourceW = 0;
    for (const s of target.sources) {
      if (s.source.kind === 'read') sourceR += s.baseUnits * m[s.group]!;
      else sourceW += s.baseUnits * m[s.group]!;
    }
    const where = `${at}, ${target.model.name}`;
    if (!near(offeredR, sourceR)) return `${where}: partitions got ${offeredR} RCU, patterns offered ${sourceR}`;
    if (!near(offeredW + last.backPressureWrite, sourceW)) return `${where}: partitions got ${offeredW} WCU (+${last.backPressureWrite} held back), patterns offered ${sourceW}`;
    // Never above the target's limit.
    if (last.limit.mode === 'provisioned') {
      if (servedR > (last.limit.readUnits + last.limit.burstRead) * (1 + TOLERANCE)) return `${where}: reads above provisioned + burst`;
      if (servedW > (last.limit.writeUnits + last.limit.burstWrite) * (1 + TOLERANCE)) return `${where}: writes above provisioned + burst`;
    } else {
      if (servedR / 3 + servedW > last.limit.writeEquivalents * (1 + TOLERANCE)) return `${where}: above on-demand capacity`;
      if (servedR > ON_DEMAND_ACCOUNT_READ_UNITS * (1 + TOLERANCE) || servedW > ON_DEMAND_ACCOUNT_WRITE_UNITS * (1 + TOLERANCE)) return `${where}: above the account quota`;
    }
  }
  for (const p of state.patterns) if (p.throttled > p.calls * (1 + TOLERANCE) + TOLERANCE) return `${at}: more throttled than requested`;
  return undefined;
}

describe('simulator invariants', () => {
  it('conserves load and never serves more than a partition or a target allows, step by step', () => {
    fc.assert(
      fc.property(modelArb, workloadArb, fc.boolean(), fc.constantFrom('independent' as const, 'linear' as const), fc.constantFrom('cold' as const, 'warm' as const), (model, workload, noise, limits, start) => {
        const state = createSimulation(model, workload, workload.seed, { arrivalNoise: noise, limits, start });
        let broken: string | undefined;
        while (state.step < state.totalSteps && broken === undefined) {
          step(state);
          broken = brokenInvariant(state);
        }
        expect(broken).toBeUndefined();
        const result = finishSimulation(state);
        for (const p of result.patterns) {
          expect(p.throttledFraction).toBeGreaterThanOrEqual(0);
          expect(p.throttledFraction).toBeLessThanOrEqual(1);
        }
        for (const t of result.targets) {
          expect(t.largestShare).toBeLessThanOrEqual(1 + TOLERANCE);
          expect(t.partitions.map((p) => p.index)).toEqual(t.partitions.map((_, i) => i));
          expect(t.partitions.at(-1)?.range[1]).toBe(1);
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('is deterministic for a seed', () => {
    fc.assert(
      fc.property(modelArb, workloadArb, (model, workload) => {
        const run = () => {
          const state = createSimulation(structuredClone(model), workload, workload.seed);
          while (state.step < state.totalSteps) step(state);
          return finishSimulation(state);
        };
        expect(run()).toEqual(run());
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it('runs any traffic distribution on a design, keeping every item and every request accounted for', () => {
    const traffic = fc.oneof(
      fc.constant(undefined),
      fc.constant({ kind: 'uniform' as const }),
      fc.constant({ kind: 'today' as const }),
      fc.double({ min: 0.1, max: 3, noNaN: true }).map((exponent) => ({ kind: 'zipf' as const, exponent })),
      fc.double({ min: 0, max: 1, noNaN: true }).map((share) => ({ kind: 'hotKey' as const, share })),
    );
    const template = fc.constantFrom('DEVICE#{deviceId}', 'COUNTRY#{country}', 'DAY#{day}', '{country}#{day}', 'STATUS#{status}#{eventId}', 'ALL');
    fc.assert(
      fc.property(template, traffic, traffic, fc.integer({ min: 1, max: 20 }), fc.double({ min: 1, max: 5000, noNaN: true }), (pk, t1, t2, shards, rate) => {
        const design = oneTableDesign({
          keys: { PK: { template: pk, ...(shards > 1 ? { shards: { count: shards, method: 'random' as const } } : {}) }, SK: { template: 'EVENT#{eventId}' } },
          patterns: [putEvents(rate, t1), getEvent(rate / 2, t2)],
          workload: { durationSeconds: 60, stepSeconds: 1, seed: 3, events: [] },
        });
        const result = simulate(design, 't-test');
        const t = result.targets[0]!;
        const items = t.partitions.reduce((s, p) => s + p.items, 0);
        expect(Math.abs(items - 1_000_000)).toBeLessThanOrEqual(t.partitionCount);
        const hot = t.hottestKeys.reduce((s, k) => s + k.share, 0);
        expect(hot).toBeLessThanOrEqual(1 + 1e-3);
        for (const p of result.patterns) expect(p.throttled).toBeLessThanOrEqual(p.requests);
        // Every partition has an origin: the start, on-demand scaling, or a split for heat.
        const o = t.partitionOrigins!;
        expect(o.atStart + o.onDemandScaling + o.splitsBeforeRun + o.splitsDuringRun).toBe(t.partitionCount);
      }),
      { numRuns: 30 },
    );
  }, 60_000);
});
