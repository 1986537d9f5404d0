/**
 * Property: every proposal the solver calls feasible passes `keyplan check` (the real command, on a
 * real file): the design's rules hold and every access pattern is served. Designs are random: one to
 * four entities with ids, references to earlier entities, enum and number attributes, and gets,
 * listings (by a reference or an attribute, with or without a range), counts and writes. An
 * infeasible proposal says why.
 */
import fc from 'fast-check';
import { rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src-main/cli.ts';
import type { AccessPattern, Attribute, Design, Entity } from '../src-shared/model/index.ts';
import { solve } from '../src-shared/solver/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'keyplan-solver-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RUNS = Number(process.env.KEYPLAN_SOLVER_RUNS ?? 60);

interface EntitySpec {
  count: number;
  parent: number | undefined;
  extras: ('enum' | 'number' | 'text')[];
}

const entitySpec = (index: number): fc.Arbitrary<EntitySpec> =>
  fc.record({
    count: fc.integer({ min: 10, max: 2_000_000 }),
    parent: index === 0 ? fc.constant(undefined) : fc.option(fc.integer({ min: 0, max: index - 1 }), { nil: undefined }),
    extras: fc.array(fc.constantFrom('enum' as const, 'number' as const, 'text' as const), { minLength: 0, maxLength: 3 }),
  });

interface PatternSpec {
  entity: number;
  kind: 'get' | 'by-parent' | 'by-attribute' | 'count' | 'put' | 'update';
  ranged: boolean;
  rate: number;
}

const designArb: fc.Arbitrary<Design> = fc.integer({ min: 1, max: 4 }).chain((count) =>
  fc
    .tuple(
      fc.tuple(...Array.from({ length: count }, (_, i) => entitySpec(i))),
      fc.array(
        fc.record({
          entity: fc.integer({ min: 0, max: count - 1 }),
          kind: fc.constantFrom('get' as const, 'by-parent' as const, 'by-attribute' as const, 'count' as const, 'put' as const, 'update' as const),
          ranged: fc.boolean(),
          rate: fc.integer({ min: 1, max: 500 }),
        }),
        { minLength: 1, maxLength: 6 },
      ),
    )
    .map(([specs, patterns]) => build(specs, patterns)),
);

function build(specs: readonly EntitySpec[], patternSpecs: readonly PatternSpec[]): Design {
  const entities: Entity[] = specs.map((spec, i) => {
    const name = `Kind${i}`;
    const attributes: Attribute[] = [{ name: `kind${i}Id`, type: 'S', generator: { kind: 'id' } }, { name: `createdAt${i}`, type: 'S', generator: { kind: 'timestamp' } }];
    if (spec.parent !== undefined) attributes.push({ name: `kind${spec.parent}Id`, type: 'S', generator: { kind: 'ref', entity: `e${spec.parent}` } });
    spec.extras.forEach((kind, k) => {
      if (kind === 'enum') attributes.push({ name: `status${i}${k}`, type: 'S', generator: { kind: 'enum', values: ['A', 'B', 'C'] } });
      else if (kind === 'number') attributes.push({ name: `amount${i}${k}`, type: 'N', generator: { kind: 'number', min: 0, max: 1000 } });
      else attributes.push({ name: `note${i}${k}`, type: 'S', averageSizeBytes: 50 });
    });
    return { id: `e${i}`, name, itemCount: spec.count, attributes, keys: {} };
  });
  const accessPatterns: AccessPattern[] = patternSpecs.map((p, n) => {
    const e = entities[p.entity]!;
    const spec = specs[p.entity]!;
    const idName = `kind${p.entity}Id`;
    const base = { id: `p${n}`, name: `Pattern ${n}`, entityId: e.id, ratePerSecond: p.rate, consistency: 'eventual' as const };
    const range = p.ranged ? { range: { attribute: `createdAt${p.entity}`, operator: '>=' as const } } : {};
    const other = e.attributes.find((a) => a.name.startsWith('status') || a.name.startsWith('amount'));
    switch (p.kind) {
      case 'get':
        return { ...base, action: 'get', known: [idName] };
      case 'by-parent':
        return spec.parent === undefined ? { ...base, action: 'get', known: [idName] } : { ...base, action: 'query', known: [`kind${spec.parent}Id`], resultSize: 10, ...range };
      case 'by-attribute':
        return other ? { ...base, action: 'query', known: [other.name], resultSize: 20, ...range } : { ...base, action: 'get', known: [idName] };
      case 'count':
        return spec.parent === undefined ? { ...base, action: 'get', known: [idName] } : { ...base, action: 'count', known: [`kind${spec.parent}Id`] };
      case 'put':
        return { ...base, action: 'put', known: e.attributes.filter((a) => a.type === 'S' && a.generator?.kind !== 'enum').map((a) => a.name) };
      default:
        return { ...base, action: 'update', known: [idName, ...(spec.parent === undefined ? [] : [`kind${spec.parent}Id`]), `createdAt${p.entity}`], updates: other ? [other.name] : [] };
    }
  });
  return {
    formatVersion: 1,
    id: 'd',
    name: 'Random',
    tables: [{ id: 't', name: 'Main', partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' }, billing: { mode: 'ON_DEMAND' }, tableClass: 'STANDARD', globalSecondaryIndexes: [], localSecondaryIndexes: [], entities, accessPatterns }],
  };
}

async function check(design: Design, name: string): Promise<{ code: number; out: string }> {
  const file = join(dir, `${name}.keyplan.json`);
  writeFileSync(file, JSON.stringify(design));
  let out = '';
  const code = await main(['check', file], { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) }, cwd: dir });
  return { code, out };
}

describe('every feasible proposal passes keyplan check', () => {
  it(`on ${RUNS} random designs`, async () => {
    let feasible = 0;
    let n = 0;
    await fc.assert(
      fc.asyncProperty(designArb, async (design) => {
        const result = solve(design, 't', { noScan: true, timeBudgetMs: 3_000 });
        expect(result.proposals.length).toBeGreaterThan(0);
        for (const p of result.proposals) {
          if (!p.feasible) {
            expect(p.problems.length).toBeGreaterThan(0);
            continue;
          }
          feasible += 1;
          const run = await check(p.design, `run-${(n += 1)}`);
          expect(run.code, run.out).toBe(0);
        }
      }),
      { numRuns: RUNS, seed: Number(process.env.KEYPLAN_SOLVER_SEED ?? 20261202) },
    );
    expect(feasible).toBeGreaterThan(0);
  }, 240_000);
});
