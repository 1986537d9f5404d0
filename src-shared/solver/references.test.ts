/**
 * The solver against hand-made designs from published examples (`__fixtures__/references.ts` says
 * which): given each with its key design removed, the best proposal serves every pattern without a
 * Scan, passes the design's rules, and costs no more per month than the reference. The bench reports
 * the same ratios with the times (`npm run bench -- solver`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { costDesign } from '../costing/index.ts';
import type { Design } from '../model/index.ts';
import { validateDesign } from '../model/index.ts';
import { planTable } from '../planner/index.ts';
import { forum, gameScores, telemetry } from './__fixtures__/references.ts';
import { solve, stripKeyDesign } from './index.ts';

const ecommerce = (): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json'), 'utf8')) as Design;

describe.each([
  ['the bundled e-commerce example (examples/ecommerce.keyplan.json)', ecommerce],
  ["DynamoDB's sample Forum, Thread and Reply tables as one table", forum],
  ["the Developer Guide's GameScores GSI example", gameScores],
  ['device telemetry after the AWS time-series guidance, with a sparse index of open alerts', telemetry],
])('%s', (_, make) => {
  const reference = make();
  const table = reference.tables[0]!;

  it('the reference itself serves every pattern and is valid (what the proposals are held to)', () => {
    expect(validateDesign(reference)).toEqual([]);
    for (const plan of planTable(table)) expect(plan.isServed, plan.explanation).toBe(true);
  });

  it('with its keys removed, the best proposal serves every pattern without a Scan and costs no more', () => {
    const hand = costDesign(reference).onDemandMonthly.value;
    const [best] = solve(stripKeyDesign(reference), table.id, { noScan: true, timeBudgetMs: 30_000 }).proposals;
    expect(best!.feasible, best!.problems.join(' ')).toBe(true);
    expect(best!.patterns.map((p) => p.badge)).not.toContain('Scan');
    expect(validateDesign(best!.design)).toEqual([]);
    for (const plan of planTable(best!.design.tables[0]!)) expect(plan.isServed, plan.explanation).toBe(true);
    // To a millionth: storage is billed from the first byte, and a proposal's key strings may be a few
    // bytes longer than the reference's (telemetry: $0.0003 of $3,367.70 a month).
    expect(best!.monthlyUsd).toBeLessThanOrEqual(hand * 1.000001);
  });
});

describe('rules the references exercise', () => {
  it('a score per user and game: the item collection by user, keyed by the game; the leaderboard through a GSI sorted by score', () => {
    const d = gameScores();
    const [best] = solve(stripKeyDesign(d), 'tbl-main', { noScan: true }).proposals;
    const keys = best!.design.tables[0]!.entities[0]!.keys;
    expect([keys.PK?.template, keys.SK?.template]).toEqual(['USERID#{userId}', 'GAMESCORE#{gameTitle}']);
    expect(best!.patterns.find((p) => p.name === "A user's scores in every game")).toMatchObject({ badge: 'Query', target: 'table' });
    expect(best!.patterns.find((p) => p.name === 'Top scores of a game')).toMatchObject({ badge: 'GSI Query' });
  });

  it('refuses a key that cannot tell items apart: a user\'s five scores keyed by the user alone', async () => {
    const { price } = await import('./evaluate.ts');
    const d = gameScores();
    const table = structuredClone(d.tables[0]!);
    table.entities[0]!.keys = { PK: { template: 'USER#{userId}' }, SK: { template: 'SCORE' } };
    table.globalSecondaryIndexes = [];
    const priced = price(d, table, {});
    expect(priced.feasible).toBe(false);
    // userId has a cardinality of 1,000,000; there are 5,000,000 scores.
    expect(priced.problems).toContain("GameScore's table key (userId) takes at most 1,000,000 distinct values for 5,000,000 items: items would overwrite each other.");
  });
});
