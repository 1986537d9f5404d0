/**
 * Behaviour pins for the time-step engine: the whole report of a few fixed designs, workloads and
 * seeds (quiet, throttling with burst and adaptive capacity, splits for heat and their refusals,
 * GSI back-pressure, on-demand scaling, the linear limit, warm starts, 5-second steps), and digests
 * of many small hand-built models. They hold what the engine did when they were recorded, so a
 * rewrite for speed must reproduce every figure; they are not capacity numbers (the tests beside
 * them compute those by hand from AWS's rules). Regenerate them (`npx vitest run -u`) only for a
 * change of behaviour that is meant, and say so in the commit.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccessPattern, Design, Workload } from '../model/index.ts';
import { benchShapedDesign, getEvent, oneTableDesign, putEvents } from './__fixtures__/designs.ts';
import { handModel, type HandTarget } from './__fixtures__/models.ts';
import { advance, createSimulation, runToEnd, step, type CreateOptions, type SimulationState } from './engine.ts';
import type { LoadSource, SimulationResult } from './types.ts';
import { createRandom, type Random } from './random.ts';
import { finishSimulation } from './result.ts';
import { simulate, startSimulation, type SimulateOptions } from './simulate.ts';
import { keyPeaks, offeredSums } from './state.ts';

/** JSON with one line per array of numbers, so a difference shows as the row it is in. */
function pretty(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'number')) return `[${value.join(',')}]`;
    if (value.length === 0) return '[]';
    const inner = `${indent}  `;
    return `[\n${value.map((v) => inner + pretty(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const inner = `${indent}  `;
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pretty(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

const goldenPath = (name: string) => `./__fixtures__/golden/${name}.golden.json`;

/** The report of a run done one `step` at a time, as the host does it. */
function stepped(design: Design, options: SimulateOptions): SimulationResult {
  const state = startSimulation(design, design.tables[0]!.id, options);
  while (state.step < state.totalSteps) step(state);
  return finishSimulation(state);
}

const byCountry: AccessPattern = { id: 'ap-by-country', name: 'Events of a country', entityId: 'e-event', action: 'query', known: ['country'], resultSize: 5, ratePerSecond: 300, consistency: 'eventual' };

const provisionedWithGsi = oneTableDesign({
  billing: { mode: 'PROVISIONED', readCapacityUnits: 3000, writeCapacityUnits: 2500 },
  keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' }, GSI1PK: { template: 'COUNTRY#{country}' }, GSI1SK: { template: '{createdAt}' } },
  gsis: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' }, provisioned: { readCapacityUnits: 2000, writeCapacityUnits: 1500 } }],
  patterns: [putEvents(900, { kind: 'hotKey', share: 0.3 }), getEvent(2000, { kind: 'uniform' }), byCountry],
  workload: { durationSeconds: 3000, stepSeconds: 5, seed: 5, events: [{ kind: 'spike', startSecond: 1000, durationSeconds: 500, multiplier: 2.5 }] },
});

/** On-demand, cold, load spread over 100,000 devices: no split, partitions come from doubling the previous peak. */
const onDemandScaling = oneTableDesign({
  patterns: [putEvents(2900, { kind: 'uniform' }), getEvent(3000, { kind: 'zipf', exponent: 0.8 })],
  workload: { durationSeconds: 4000, stepSeconds: 1, seed: 9, events: [{ kind: 'ramp', startSecond: 2000, durationSeconds: 1800, multiplier: 1.9 }] },
});

const cases: { name: string; design: () => Design; options: SimulateOptions; stepByStep?: boolean }[] = [
  { name: 'bench-shape-quiet', design: () => benchShapedDesign(), options: {}, stepByStep: true },
  { name: 'bench-shape-throttling', design: () => benchShapedDesign({ rateScale: 40 }), options: {}, stepByStep: true },
  { name: 'bench-shape-gsi-on-demand-linear', design: () => benchShapedDesign({ rateScale: 10, billing: { mode: 'ON_DEMAND' }, withGsi: true }), options: { limits: 'linear' } },
  { name: 'on-demand-scaling', design: () => onDemandScaling, options: {}, stepByStep: true },
  { name: 'provisioned-gsi-warm-5s-steps', design: () => provisionedWithGsi, options: { start: 'warm' } },
  { name: 'provisioned-gsi-cold-linear-5s-steps', design: () => provisionedWithGsi, options: { limits: 'linear', seed: 11 } },
];

describe('the engine reproduces its recorded reports', () => {
  for (const c of cases) {
    it(`${c.name}: the whole report`, async () => {
      const design = c.design();
      await expect(pretty(simulate(design, design.tables[0]!.id, c.options))).toMatchFileSnapshot(goldenPath(c.name));
    }, 120_000);
    if (c.stepByStep) {
      it(`${c.name}: one step at a time gives the same report`, async () => {
        await expect(pretty(stepped(c.design(), c.options))).toMatchFileSnapshot(goldenPath(c.name));
      }, 120_000);
    }
  }
});

/** A small random model: 1–4 patterns, a table and up to two GSIs of 1–12 partitions, 1–8 keys each. */
function randomCase(random: Random): { model: ReturnType<typeof handModel>; workload: Workload; options: CreateOptions } {
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const patterns = Array.from({ length: int(1, 4) }, () => ({ kind: pick(['read', 'write'] as const), ratePerSecond: random() < 0.1 ? 0 : random() * 6000 }));
  const target = (kind: 'table' | 'gsi', name: string): HandTarget => {
    const keyCount = int(1, 8);
    const sources: LoadSource[] = [];
    patterns.forEach((p, patternIndex) => {
      if (random() < 0.3 || (kind === 'gsi' && p.kind === 'read' && patternIndex % 2 === 1)) return;
      const shares = Array.from({ length: keyCount }, () => (random() < 0.3 ? 0 : random()));
      const background = random() < 0.3 ? 0 : random();
      const total = shares.reduce((a, b) => a + b, 0) + background;
      sources.push({
        patternIndex,
        kind: p.kind,
        unitsPerCall: 0.5 + random() * 7.5,
        keys: shares.map((s, key) => ({ key, share: total > 0 ? s / total : 0 })).filter((k) => k.share > 0),
        background: total > 0 ? background / total : 1,
        isMonotonic: random() < 0.3,
      });
    });
    return {
      kind,
      name,
      capacity: random() < 0.5 ? { mode: 'onDemand' } : { mode: 'provisioned', readUnitsPerSecond: int(1, 20_000), writeUnitsPerSecond: int(1, 8000) },
      partitionCount: int(1, 12),
      canSplitCollections: random() < 0.7,
      canIsolateItems: random() < 0.8,
      keys: Array.from({ length: keyCount }, (_, i) => ({ key: `${name}-k${i}`, position: random() * 0.999999, items: 1 + i * 7, bytes: 1000 })),
      sources,
    };
  };
  const gsis = Array.from({ length: int(0, 2) }, (_, i) => target('gsi', `GSI${i + 1}`));
  const workload: Workload = {
    durationSeconds: int(30, 900),
    stepSeconds: pick([1, 1, 2, 5]),
    seed: int(0, 1000),
    events: Array.from({ length: int(0, 3) }, () => ({
      kind: pick(['spike', 'ramp'] as const),
      startSecond: int(0, 600),
      durationSeconds: int(1, 300),
      multiplier: random() * 12,
      ...(random() < 0.3 ? { patternIds: ['p0'] } : {}),
    })),
  };
  const options: CreateOptions = { arrivalNoise: random() < 0.7, limits: pick(['independent', 'linear'] as const), start: pick(['cold', 'warm'] as const) };
  return { model: handModel([target('table', 'table'), ...gsis], patterns), workload, options };
}

const digest = (result: SimulationResult) => createHash('sha256').update(JSON.stringify(result)).digest('hex').slice(0, 16);

/** One line per model: the digest of its report, its partitions and its requests and throttled requests per pattern. */
function randomModelLines(run: (c: ReturnType<typeof randomCase>) => SimulationResult): string {
  const random = createRandom(20_150_415);
  const lines: string[] = [];
  for (let n = 0; n < 60; n += 1) {
    const result = run(randomCase(random));
    const throttled = result.patterns.map((p) => `${p.requests}/${p.throttled}`).join(' ');
    const partitions = result.targets.map((t) => t.partitionCount).join('+');
    lines.push(`${String(n).padStart(2)} ${digest(result)} partitions ${partitions} requests/throttled ${throttled}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('the engine reproduces its recorded runs of small random models', () => {
  it('60 models run to the end', async () => {
    const lines = randomModelLines((c) => finishSimulation(runToEnd(createSimulation(c.model, c.workload, c.workload.seed, c.options))));
    await expect(lines).toMatchFileSnapshot(goldenPath('random-models'));
  }, 120_000);

  it('the same models one step at a time', async () => {
    const lines = randomModelLines((c) => {
      const state = createSimulation(c.model, c.workload, c.workload.seed, c.options);
      while (state.step < state.totalSteps) step(state);
      return finishSimulation(state);
    });
    await expect(lines).toMatchFileSnapshot(goldenPath('random-models'));
  }, 120_000);
});

/** The bench's design (1,000 partitions, 20 patterns, an hour) at `rateScale` times its rates. */
const benchAt = (rateScale: number) => benchShapedDesign({ rateScale, billing: { mode: 'PROVISIONED', readCapacityUnits: 1_200_000, writeCapacityUnits: 600_000 } });

describe('the engine reproduces its recorded runs of the bench design (1,000 partitions)', () => {
  it('at its rates and at 40 times them: the digest of each report', async () => {
    const lines = [1, 40].map((scale) => {
      const design = benchAt(scale);
      const result = simulate(design, design.tables[0]!.id);
      return `x${scale} ${digest(result)} partitions ${result.targets[0]!.partitionCount} throttled ${result.patterns.map((p) => p.throttled).join(' ')}`;
    });
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot(goldenPath('bench-1000-partitions'));
  }, 120_000);
});

/** Everything a run keeps, typed arrays as arrays, for an exact comparison (numbers compared with Object.is). */
function everything(state: SimulationState): unknown {
  return {
    step: state.step,
    multiplierSums: Array.from(state.multiplierSums),
    patterns: state.patterns.map((p) => ({ ...p, reasons: [...p.reasons], callsByBucket: Array.from(p.callsByBucket), throttledByBucket: Array.from(p.throttledByBucket) })),
    targets: state.targets.map((t) => ({
      starts: t.starts,
      arrays: Object.fromEntries(
        (['sumRead', 'sumWrite', 'peakRead', 'peakWrite', 'burstRead', 'burstWrite', 'hotSeconds', 'retryAfter', 'throttledCalls', 'heat', 'throttledHeat', 'servedHistory'] as const).map((k) => [k, Array.from(t[k])]),
      ),
      keys: Object.fromEntries(
        (['throttledRead', 'throttledWrite', 'causesRead', 'causesWrite', 'firstThrottledFrom', 'firstThrottledTo'] as const).map((k) => [k, Array.from(t.keyStats[k])]),
      ),
      sums: (({ read, write }) => ({ read: Array.from(read), write: Array.from(write), since: t.sumsSince }))(offeredSums(state, t)),
      keyPeaks: (({ read, write }) => ({ read: Array.from(read), write: Array.from(write) }))(keyPeaks(state, t)),
      counts: [t.throttledSteps, t.throttledReadSteps, t.throttledWriteSteps, t.backPressureSteps, t.previousPeak],
      backPressureFrom: [...t.backPressureFrom],
      reasonCalls: [...t.reasonCalls],
      splits: t.splits,
      scaleOuts: t.scaleOuts,
      capped: t.capped,
      last: { offeredRead: Array.from(t.last.offeredRead), servedRead: Array.from(t.last.servedRead), offeredWrite: Array.from(t.last.offeredWrite), servedWrite: Array.from(t.last.servedWrite), limit: t.last.limit },
    })),
  };
}

describe('advancing a stretch at a time leaves exactly the state one step at a time leaves', () => {
  it('for 150 small random models, in calls of 1, 7 and all remaining steps', () => {
    const random = createRandom(7_041_969);
    for (let n = 0; n < 150; n += 1) {
      const c = randomCase(random);
      const start = () => createSimulation(structuredClone(c.model), c.workload, c.workload.seed, c.options);
      const stepped = start();
      while (stepped.step < stepped.totalSteps) step(stepped);
      const expected = everything(stepped);
      for (const calls of [1, 7, Infinity]) {
        const advanced = start();
        while (advanced.step < advanced.totalSteps) advance(advanced, calls === Infinity ? advanced.totalSteps : calls);
        expect(everything(advanced), `model ${n}, ${calls} steps a call`).toEqual(expected);
      }
    }
  }, 120_000);

  it('for the bench design at 40 times its rates (splits for heat in stretches where most partitions are quiet)', () => {
    const design = benchAt(40);
    const stepped = startSimulation(design, design.tables[0]!.id);
    while (stepped.step < stepped.totalSteps) step(stepped);
    const advanced = runToEnd(startSimulation(design, design.tables[0]!.id));
    expect(advanced.targets[0]!.splits.length).toBeGreaterThan(1);
    expect(everything(advanced)).toEqual(everything(stepped));
  }, 120_000);
});
