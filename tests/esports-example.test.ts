/**
 * examples/esports.keyplan.json, the start screen's second example: a valid design whose
 * multi-attribute GSI MatchesByTournamentRegion (partition key tournamentId + region, sort key
 * round + bracket, natural attributes of a match, no synthetic key) serves the match patterns, and
 * every other pattern is served by the index and operation it was designed for.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { partitionKeysOf, sortKeysOf, parseDesign } from '../src-shared/model/index.ts';
import type { Design, Table } from '../src-shared/model/index.ts';
import { planPattern, type Plan } from '../src-shared/planner/index.ts';
import { createSampleStore } from '../src-shared/sample/index.ts';

const file: unknown = JSON.parse(readFileSync(new URL('../examples/esports.keyplan.json', import.meta.url), 'utf8'));
const parsed = parseDesign(file);
const design = (): Design => {
  if (!parsed.ok) throw new Error(`the example does not parse: ${JSON.stringify(parsed.errors)}`);
  return parsed.value;
};
const table = (): Table => design().tables[0]!;
const MULTI = { kind: 'gsi', name: 'MatchesByTournamentRegion' } as const;

describe('examples/esports.keyplan.json', () => {
  it('parses and validates with no problem', () => {
    expect(parsed.ok ? [] : parsed.errors).toEqual([]);
  });

  it('keys MatchesByTournamentRegion on [tournamentId S, region S] / [round N, bracket S], natural attributes with no template', () => {
    const gsi = table().globalSecondaryIndexes.find((g) => g.name === MULTI.name)!;
    expect(partitionKeysOf(gsi)).toEqual([
      { name: 'tournamentId', type: 'S' },
      { name: 'region', type: 'S' },
    ]);
    expect(sortKeysOf(gsi)).toEqual([
      { name: 'round', type: 'N' },
      { name: 'bracket', type: 'S' },
    ]);
    for (const entity of table().entities) {
      for (const name of ['tournamentId', 'region', 'round', 'bracket']) expect(Object.hasOwn(entity.keys, name), `${entity.name} has no template for ${name}`).toBe(false);
    }
    const match = table().entities.find((e) => e.name === 'Match')!;
    expect(match.attributes.filter((a) => ['tournamentId', 'region', 'round', 'bracket'].includes(a.name)).map((a) => [a.name, a.type])).toEqual([
      ['tournamentId', 'S'],
      ['region', 'S'],
      ['round', 'N'],
      ['bracket', 'S'],
    ]);
  });

  type Expected = Pick<Plan, 'operation' | 'target' | 'keyCondition'>;
  it.each<[string, Expected]>([
    ['ap-get-tournament', { operation: 'GetItem', target: { kind: 'table' }, keyCondition: 'PK = :pk AND SK = :sk' }],
    ['ap-list-tournaments-by-game', { operation: 'Query', target: { kind: 'gsi', name: 'GSI1' }, keyCondition: 'GSI1PK = :pk AND GSI1SK >= :sk' }],
    ['ap-find-player-by-handle', { operation: 'Query', target: { kind: 'gsi', name: 'GSI1' }, keyCondition: 'GSI1PK = :pk AND GSI1SK = :sk' }],
    ['ap-list-roster', { operation: 'Query', target: { kind: 'table' }, keyCondition: 'PK = :pk AND begins_with(SK, :sk)' }],
    ['ap-get-match', { operation: 'GetItem', target: { kind: 'table' }, keyCondition: 'PK = :pk AND SK = :sk' }],
    // Equality on every partition-key attribute, no sort condition.
    ['ap-list-region-matches', { operation: 'Query', target: MULTI, keyCondition: 'tournamentId = :pk1 AND region = :pk2' }],
    // A range on the first sort-key attribute.
    ['ap-list-later-rounds', { operation: 'Query', target: MULTI, keyCondition: 'tournamentId = :pk1 AND region = :pk2 AND round >= :sk1' }],
    // Equality on round, begins_with on bracket: left to right, the range on the last one used.
    ['ap-list-round-bracket', { operation: 'Query', target: MULTI, keyCondition: 'tournamentId = :pk1 AND region = :pk2 AND round = :sk1 AND begins_with(bracket, :sk2)' }],
    ['ap-record-result', { operation: 'UpdateItem', target: { kind: 'table' }, keyCondition: 'PK = :pk, SK = :sk' }],
    // Standings carry tournamentId and region but no round or bracket: not in the multi-attribute GSI, served by the table.
    ['ap-list-standings', { operation: 'Query', target: { kind: 'table' }, keyCondition: 'PK = :pk AND begins_with(SK, :sk)' }],
  ])('serves %s by its intended index and operation', (id, expected) => {
    const pattern = table().accessPatterns.find((p) => p.id === id)!;
    const plan = planPattern(table(), pattern);
    expect(plan.isServed).toBe(true);
    expect({ operation: plan.operation, target: plan.target, keyCondition: plan.keyCondition }).toEqual(expected);
  });

  it('has the ten patterns planned above, every one served', () => {
    expect(table().accessPatterns.map((p) => p.id)).toHaveLength(10);
    expect(table().accessPatterns.filter((p) => !planPattern(table(), p).isServed)).toEqual([]);
  });

  it('reads 50 matches per tournament and region: 1,000,000 matches over 5,000 tournaments × 4 regions', () => {
    const plan = planPattern(table(), table().accessPatterns.find((p) => p.id === 'ap-list-region-matches')!);
    expect(plan.itemsRead).toBe(50);
  });

  it("updating a match's status and score rewrites its index entry in place: one table write and one GSI write", () => {
    const plan = planPattern(table(), table().accessPatterns.find((p) => p.id === 'ap-record-result')!);
    const gsiWrite = plan.indexWrites.find((w) => w.target.kind === 'gsi' && w.target.name === MULTI.name);
    // status and score are projected (ALL) but no key attribute of the index: a put in place, not a move (delete + put).
    expect(gsiWrite).toMatchObject({ effect: 'put', fraction: 1 });
    expect(plan.indexWrites.find((w) => w.target.kind === 'gsi' && w.target.name === 'GSI1')?.effect ?? 'none').toBe('none');
  });

  it('lays out the multi-attribute GSI in the sample: every match, no standing, collections keyed "tournamentId + region"', () => {
    const store = createSampleStore(design(), table().id, { maxItems: 20_000 });
    const matches = store.summary().entities!.find((e) => e.name === 'Match')!.itemCount;
    const view = store.summary().views.find((v) => v.name === MULTI.name)!;
    expect(view).toMatchObject({ partitionKeys: ['tournamentId', 'region'], sortKeys: ['round', 'bracket'], itemCount: matches });
    const rows = store.items(MULTI.name, 0, 10_000).rows;
    expect(new Set(rows.map((r) => r.entity))).toEqual(new Set(['Match']));
    expect(rows[0]!.partitionKey).toMatch(/^t-\d{4} \+ (EU|NA|APAC|LATAM)$/);
  });
});
