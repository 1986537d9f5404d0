/**
 * Multi-attribute GSI keys (docs/dynamodb-rules.md §11): a Query gives an equality on every
 * partition-key attribute; sort-key conditions go left to right without gaps, a range or begins_with
 * only on the last one used; a filter cannot name a key attribute of the index it queries. Each case
 * below is a condition shape and what DynamoDB does with it.
 */
import { describe, expect, it } from 'vitest';
import { planPattern } from './index.ts';
import type { AccessPattern, Table } from '../model/index.ts';
import { validateDesign } from '../model/index.ts';

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
    const { estimateIndexEntryBytes } = await import('../capacity/index.ts');
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
    const { indexFraction } = await import('../capacity/index.ts');
    const table = tournaments();
    table.entities[0]!.attributes.find((a) => a.name === 'bracket')!.presence = 0.8;
    expect(indexFraction(table, table.entities[0]!, 'ByTournamentRegion').value).toBeCloseTo(0.8, 10);
    expect(indexFraction(table, table.entities[1]!, 'ByTournamentRegion').value).toBe(0);
  });
});

describe('multi-attribute keys in suggestions', () => {
  it('suggests a new GSI keyed on the entity\'s own attributes, multi-attribute, with what it saves', async () => {
    const { applyIndexSuggestion } = await import('./index.ts');
    const table = tournaments();
    table.globalSecondaryIndexes = [];
    const p = pattern({ range: { attribute: 'round', operator: '>=' } });
    const plan = planPattern(table, p);
    expect(plan.operation).toBe('Scan');
    expect(plan.suggestion).toMatchObject({
      kind: 'gsi',
      indexName: 'GSI1',
      natural: { partitionKeys: [{ name: 'tournamentId', type: 'S' }, { name: 'region', type: 'S' }], sortKeys: [{ name: 'round', type: 'N' }] },
    });
    // By hand: GSI1PK (6 B) + TOURNAMENTID# (13) + tournamentId (16, S default) + # (1) + REGION# (7) + region (16) = 59 B;
    // GSI1SK (6 B) + round (8, N default) = 14 B; 73 B in all.
    expect(plan.suggestion?.reason).toMatch(/partition key tournamentId \+ region and sort key round \(a multi-attribute key\), would serve it with a Query\. Against a synthetic key GSI1PK = TOURNAMENTID#\{tournamentId\}#REGION#\{region\} and GSI1SK = \{round\}, it saves: no key attribute to write and keep in sync, about 73 B less per Match item/);
    const next = applyIndexSuggestion(table, plan.suggestion!);
    expect(next.globalSecondaryIndexes[0]).toMatchObject({ name: 'GSI1', partitionKey: [{ name: 'tournamentId', type: 'S' }, { name: 'region', type: 'S' }], sortKey: { name: 'round', type: 'N' } });
    expect(next.entities[0]!.keys).toEqual(table.entities[0]!.keys);
    const served = planPattern(next, p);
    expect(served).toMatchObject({ operation: 'Query', keyCondition: 'tournamentId = :pk1 AND region = :pk2 AND round >= :sk' });
    expect(validateDesign({ formatVersion: 1, id: 'd', name: 'E', tables: [next] })).toEqual([]);
  });

  it('falls back to a synthetic key where the pattern filters on a key attribute (a filter cannot name the key), and that key serves it', async () => {
    const { applyIndexSuggestion } = await import('./index.ts');
    const table = tournaments();
    table.globalSecondaryIndexes = [];
    const p = pattern({ range: { attribute: 'round', operator: '>=' }, filter: 'region IN ("EU", "NA")' });
    const plan = planPattern(table, p);
    expect(plan.suggestion?.natural).toBeUndefined();
    expect(plan.suggestion).toMatchObject({ partitionKeyTemplate: 'TOURNAMENTID#{tournamentId}#REGION#{region}', sortKeyTemplate: '{round}' });
    expect(planPattern(applyIndexSuggestion(table, plan.suggestion!), p)).toMatchObject({ operation: 'Query', isServed: true });
  });

  it('never overloads a GSI keyed on an entity\'s own attribute: another entity would write key text into that attribute', () => {
    const table = tournaments();
    // A GSI keyed on Match's own score (one S attribute, no sort key): the shape an overload would take.
    table.globalSecondaryIndexes = [{ id: 'g-2', name: 'ByScore', partitionKey: { name: 'score', type: 'S' }, projection: { type: 'ALL' } }];
    table.entities[1]!.attributes.push({ name: 'nickname', type: 'S' });
    const byNickname = { id: 'p-nick', name: 'Player by nickname', entityId: 'e-player', action: 'query' as const, known: ['nickname'], ratePerSecond: 5, consistency: 'eventual' as const };
    const plan = planPattern(table, byNickname);
    expect(plan.suggestion?.reuses).toBeUndefined();
    expect(plan.suggestion?.indexName).not.toBe('ByScore');
  });

  it('falls back to a synthetic key where the attributes cannot be key attributes (more than 4 known)', () => {
    const table = tournaments();
    table.globalSecondaryIndexes = [];
    const plan = planPattern(table, pattern({ known: ['tournamentId', 'region', 'round', 'bracket', 'score'] }));
    expect(plan.suggestion?.natural).toBeUndefined();
    expect(plan.suggestion?.partitionKeyTemplate).toBe('TOURNAMENTID#{tournamentId}#REGION#{region}#ROUND#{round}#BRACKET#{bracket}#SCORE#{score}');
  });
});

describe('multi-attribute alternatives to synthetic GSI keys', () => {
  /** The same table with the GSI keyed synthetically: GSI1PK = TOURNAMENT#{tournamentId}#REGION#{region}, GSI1SK = ROUND#{round:03}#{bracket}. */
  async function synthetic() {
    const table = tournaments();
    table.globalSecondaryIndexes = [{ id: 'g-1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'ALL' } }];
    const match = table.entities[0]!;
    match.keys.GSI1PK = { template: 'TOURNAMENT#{tournamentId}#REGION#{region}' };
    match.keys.GSI1SK = { template: 'ROUND#{round:03}#{bracket}' };
    for (const a of match.attributes) a.averageSizeBytes = 10;
    return { table, ...(await import('./index.ts')) };
  }

  it('offers the entity\'s own attributes as the key, with the bytes it saves, and serves the same Query after', async () => {
    const { table, naturalKeyAlternatives, applyNaturalKey } = await synthetic();
    const [alt] = naturalKeyAlternatives(table);
    expect(alt).toMatchObject({
      gsiName: 'GSI1',
      entityName: 'Match',
      partitionKeys: [{ name: 'tournamentId', type: 'S' }, { name: 'region', type: 'S' }],
      sortKeys: [{ name: 'round', type: 'N' }, { name: 'bracket', type: 'S' }],
      removes: ['GSI1PK', 'GSI1SK'],
    });
    // By hand: GSI1PK 6 + "TOURNAMENT#" 11 + 10 + "#REGION#" 8 + 10 = 45 B; GSI1SK 6 + "ROUND#" 6 + 10 + "#" 1 + 10 = 33 B.
    expect(alt!.bytesPerItem).toBe(78);
    expect(alt!.bytesTotal).toBe(7_800_000);
    const before = planPattern(table, pattern({ known: ['tournamentId', 'region', 'round'] }));
    expect(before.keyCondition).toBe('GSI1PK = :pk AND begins_with(GSI1SK, :sk)');
    const next = applyNaturalKey(table, alt!);
    expect(next.entities[0]!.keys).toEqual({ PK: { template: 'MATCH#{matchId}' }, SK: { template: 'MATCH' } });
    const after = planPattern(next, pattern({ known: ['tournamentId', 'region', 'round'] }));
    expect(after).toMatchObject({ operation: 'Query', keyCondition: 'tournamentId = :pk1 AND region = :pk2 AND round = :sk1', itemsRead: before.itemsRead });
    expect(validateDesign({ formatVersion: 1, id: 'd', name: 'E', tables: [next] })).toEqual([]);
  });

  it('is never offered where the synthetic key carries a constant, a condition, shards, or other entities', async () => {
    const cases: Array<[string, (t: Table) => void]> = [
      ['a constant sort key', (t) => (t.entities[0]!.keys.GSI1SK = { template: 'MATCH' })],
      ['literal text that labels no attribute', (t) => (t.entities[0]!.keys.GSI1PK = { template: 'TOURNAMENT#{tournamentId}#LIVE' })],
      ['an only-when condition', (t) => (t.entities[0]!.keys.GSI1PK = { template: 'TOURNAMENT#{tournamentId}', when: 'region = "EU"' })],
      ['shards', (t) => (t.entities[0]!.keys.GSI1PK = { template: 'TOURNAMENT#{tournamentId}', shards: { count: 4, method: 'random' } })],
      ['an overloaded index', (t) => (t.entities[1]!.keys.GSI1PK = { template: 'PLAYER#{playerId}' })],
    ];
    for (const [name, change] of cases) {
      const { table, naturalKeyAlternatives } = await synthetic();
      change(table);
      expect(naturalKeyAlternatives(table), name).toEqual([]);
    }
  });
});
