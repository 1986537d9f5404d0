/**
 * Multi-attribute GSI keys (docs/dynamodb-rules.md §11): a Query gives an equality on every
 * partition-key attribute; sort-key conditions go left to right without gaps, a range or begins_with
 * only on the last one used; a filter cannot name a key attribute of the index it queries. Each case
 * below is a condition shape and what DynamoDB does with it.
 */
import { describe, expect, it } from 'vitest';
import { planPattern } from './index.ts';
import type { AccessPattern, Table } from '../model/schema.ts';
import { validateDesign } from '../model/validate.ts';

/** Matches of a tournament: the table keyed on the match, one GSI keyed on [tournamentId, region] / [round, bracket]. */
function tournaments(): Table {
  return {
    id: 't-1',
    name: 'Esports',
    partitionKey: { name: 'PK', type: 'S' },
    sortKey: { name: 'SK', type: 'S' },
    billing: { mode: 'ON_DEMAND' },
    tableClass: 'STANDARD',
    globalSecondaryIndexes: [
      {
        id: 'g-1',
        name: 'ByTournamentRegion',
        partitionKey: [
          { name: 'tournamentId', type: 'S' },
          { name: 'region', type: 'S' },
        ],
        sortKey: [
          { name: 'round', type: 'N' },
          { name: 'bracket', type: 'S' },
        ],
        projection: { type: 'ALL' },
      },
    ],
    localSecondaryIndexes: [],
    entities: [
      {
        id: 'e-match',
        name: 'Match',
        itemCount: 100_000,
        attributes: [
          { name: 'matchId', type: 'S' },
          { name: 'tournamentId', type: 'S', cardinality: 100 },
          { name: 'region', type: 'S', generator: { kind: 'enum', values: ['EU', 'NA', 'APAC', 'LATAM'] } },
          { name: 'round', type: 'N', generator: { kind: 'number', min: 1, max: 10 }, cardinality: 10 },
          { name: 'bracket', type: 'S', generator: { kind: 'enum', values: ['upper', 'lower'] } },
          { name: 'score', type: 'S' },
        ],
        keys: { PK: { template: 'MATCH#{matchId}' }, SK: { template: 'MATCH' } },
      },
      {
        id: 'e-player',
        name: 'Player',
        itemCount: 5_000,
        attributes: [
          { name: 'playerId', type: 'S' },
          { name: 'region', type: 'S' },
        ],
        keys: { PK: { template: 'PLAYER#{playerId}' }, SK: { template: 'PROFILE' } },
      },
    ],
    accessPatterns: [],
  };
}

const pattern = (over: Partial<AccessPattern>): AccessPattern => ({
  id: 'p-1',
  name: 'Matches',
  entityId: 'e-match',
  action: 'query',
  known: ['tournamentId', 'region'],
  ratePerSecond: 10,
  consistency: 'eventual',
  ...over,
});

const GSI = { kind: 'gsi', name: 'ByTournamentRegion' } as const;
const rejection = (plan: ReturnType<typeof planPattern>) => plan.rejected.find((r) => r.target.kind === 'gsi')?.reason ?? '';

describe('multi-attribute GSI keys in the planner', () => {
  it('is a valid design: natural key attributes, no templates', () => {
    const table = tournaments();
    expect(validateDesign({ formatVersion: 1, id: 'd', name: 'E', tables: [table] })).toEqual([]);
  });

  it('queries by equality on every partition attribute, with no sort condition', () => {
    const plan = planPattern(tournaments(), pattern({}));
    expect(plan.operation).toBe('Query');
    expect(plan.target).toEqual(GSI);
    expect(plan.keyCondition).toBe('tournamentId = :pk1 AND region = :pk2');
    expect(plan.values).toEqual({ ':pk1': '{tournamentId}', ':pk2': '{region}' });
    // 100,000 matches over 100 tournaments × 4 regions = 250 per (tournament, region).
    expect(plan.itemsRead).toBe(250);
  });

  it('takes a range on the first sort attribute, compared as its own type (a number)', () => {
    const plan = planPattern(tournaments(), pattern({ range: { attribute: 'round', operator: '>=' } }));
    expect(plan.target).toEqual(GSI);
    expect(plan.keyCondition).toBe('tournamentId = :pk1 AND region = :pk2 AND round >= :sk1');
    expect(plan.values[':sk1']).toBe('{round}');
  });

  it('takes an equality on the first sort attribute and a range on the second', () => {
    const plan = planPattern(tournaments(), pattern({ known: ['tournamentId', 'region', 'round'], range: { attribute: 'bracket', operator: 'begins_with' } }));
    expect(plan.target).toEqual(GSI);
    expect(plan.keyCondition).toBe('tournamentId = :pk1 AND region = :pk2 AND round = :sk1 AND begins_with(bracket, :sk2)');
  });

  it('takes an equality on every sort attribute', () => {
    const plan = planPattern(tournaments(), pattern({ known: ['tournamentId', 'region', 'round', 'bracket'] }));
    expect(plan.keyCondition).toBe('tournamentId = :pk1 AND region = :pk2 AND round = :sk1 AND bracket = :sk2');
    // 250 per (tournament, region) over 10 rounds × 2 brackets.
    expect(plan.itemsRead).toBe(12.5);
  });

  it('takes BETWEEN on the last sort attribute used', () => {
    const plan = planPattern(tournaments(), pattern({ known: ['tournamentId', 'region', 'round'], range: { attribute: 'bracket', operator: 'between' } }));
    expect(plan.keyCondition).toBe('tournamentId = :pk1 AND region = :pk2 AND round = :sk1 AND bracket BETWEEN :from2 AND :to2');
  });

  it('leaves trailing sort attributes out: an equality on round alone reads the round', () => {
    const plan = planPattern(tournaments(), pattern({ known: ['tournamentId', 'region', 'round'] }));
    expect(plan.keyCondition).toBe('tournamentId = :pk1 AND region = :pk2 AND round = :sk1');
    expect(plan.itemsRead).toBe(25);
  });

  it('rejects a pattern that lacks one partition attribute, naming the rule', () => {
    const plan = planPattern(tournaments(), pattern({ known: ['tournamentId'] }));
    expect(plan.target).not.toEqual(GSI);
    expect(rejection(plan)).toMatch(/needs region, which the caller does not know \(a multi-attribute partition key takes an equality on every one of its attributes\)/);
  });

  it('rejects a range on the second sort attribute without the first (no gaps)', () => {
    const plan = planPattern(tournaments(), pattern({ range: { attribute: 'bracket', operator: 'begins_with' } }));
    expect(plan.target).not.toEqual(GSI);
    expect(rejection(plan)).toMatch(/left to right without gaps, and the caller does not know round/);
  });

  it('rejects a range on a partition attribute', () => {
    const plan = planPattern(tournaments(), pattern({ known: ['tournamentId'], range: { attribute: 'region', operator: 'begins_with' } }));
    expect(rejection(plan)).toMatch(/a partition key takes equality only/);
  });

  it('rejects begins_with on a number sort attribute', () => {
    const plan = planPattern(tournaments(), pattern({ range: { attribute: 'round', operator: 'begins_with' } }));
    expect(rejection(plan)).toMatch(/begins_with takes only a string or binary sort key attribute/);
  });

  it('will not move a skipped sort attribute into the filter: a filter on a key attribute of the index is refused', () => {
    const plan = planPattern(tournaments(), pattern({ filter: 'bracket = "upper"' }));
    expect(plan.target).not.toEqual(GSI);
    expect(rejection(plan)).toMatch(/the filter names bracket, a key attribute of ByTournamentRegion; a Query's filter cannot name the key attributes/);
  });

  it('filters on a non-key attribute as usual', () => {
    const plan = planPattern(tournaments(), pattern({ filter: 'score = "3-1"' }));
    expect(plan.target).toEqual(GSI);
    expect(plan.keyCondition).toBe('tournamentId = :pk1 AND region = :pk2');
  });

  it('holds only the items that carry every key attribute: a Player (region only) is not in the index', () => {
    const table = tournaments();
    const plan = planPattern(table, pattern({ id: 'p-2', entityId: 'e-player', known: ['region'] }));
    expect(plan.target).not.toEqual(GSI);
    expect(rejection(plan)).toMatch(/Player has neither a template nor an attribute for tournamentId/);
  });

  it('counts the share of items that carry an optional key attribute (sparse)', () => {
    const table = tournaments();
    const bracket = table.entities[0]!.attributes.find((a) => a.name === 'bracket')!;
    bracket.presence = 0.5;
    const plan = planPattern(table, pattern({ known: ['tournamentId', 'region', 'round'] }));
    expect(plan.target).toEqual(GSI);
    // Half of the 25 items of a round carry bracket.
    expect(plan.itemsRead).toBe(12.5);
  });

  it('moves an index entry when an update changes a natural key attribute (delete + put)', () => {
    const plan = planPattern(tournaments(), pattern({ id: 'p-3', action: 'update', known: ['matchId'], updates: ['round'] }));
    const write = plan.indexWrites.find((w) => w.target.kind === 'gsi');
    expect(write?.effect).toBe('move');
  });

  it('leaves the index alone when an update changes no key or projected attribute', () => {
    const table = tournaments();
    table.globalSecondaryIndexes[0]!.projection = { type: 'KEYS_ONLY' };
    const plan = planPattern(table, pattern({ id: 'p-3', action: 'update', known: ['matchId'], updates: ['score'] }));
    expect(plan.indexWrites.find((w) => w.target.kind === 'gsi')?.effect).toBe('none');
  });
});

describe('multi-attribute GSI keys in sizes and shares', () => {
  it('counts each key attribute once in a KEYS_ONLY entry: the table keys plus the four index key attributes', async () => {
    const { estimateIndexEntryBytes } = await import('../capacity/estimate.ts');
    const table = tournaments();
    table.globalSecondaryIndexes[0]!.projection = { type: 'KEYS_ONLY' };
    const match = table.entities[0]!;
    for (const a of match.attributes) a.averageSizeBytes = 10;
    const entry = estimateIndexEntryBytes(table, match, { kind: 'gsi', name: 'ByTournamentRegion' });
    // By hand: PK (2 B name + "MATCH#" 6 + matchId 10 = 18 B), SK (2 + "MATCH" 5 = 7 B),
    // tournamentId 12 + 10, region 6 + 10, round 5 + 10, bracket 7 + 10: 18 + 7 + 22 + 16 + 15 + 17 = 95 B.
    expect(entry.value).toBe(95);
  });

  it('puts the share of items carrying every key attribute in the index', async () => {
    const { indexFraction } = await import('../capacity/index-fraction.ts');
    const table = tournaments();
    table.entities[0]!.attributes.find((a) => a.name === 'bracket')!.presence = 0.8;
    expect(indexFraction(table, table.entities[0]!, 'ByTournamentRegion').value).toBeCloseTo(0.8, 10);
    expect(indexFraction(table, table.entities[1]!, 'ByTournamentRegion').value).toBe(0);
  });
});
