/**
 * The partition simulator and a multi-attribute GSI partition key: DynamoDB hashes the key's
 * attributes together (docs/dynamodb-rules.md §11), so the index's partition keys are the
 * combinations of their values, and one hot combination is one hot key.
 */
import { describe, expect, it } from 'vitest';
import { keySpaceOf, simulate } from '../src-shared/partition/index.ts';
import type { Design, Entity } from '../src-shared/model/index.ts';

const match = (): Entity => ({
  id: 'e-match',
  name: 'Match',
  itemCount: 40_000,
  attributes: [
    { name: 'matchId', type: 'S' },
    { name: 'tournamentId', type: 'S', cardinality: 50 },
    { name: 'region', type: 'S', generator: { kind: 'enum', values: ['EU', 'NA', 'APAC', 'LATAM'] } },
    { name: 'round', type: 'N', cardinality: 8 },
  ],
  keys: { PK: { template: 'MATCH#{matchId}' }, SK: { template: 'MATCH' } },
});

describe('multi-attribute partition keys in the simulator', () => {
  it('has one partition key per combination of the attributes: 50 tournaments × 4 regions = 200', () => {
    const space = keySpaceOf(match(), ['tournamentId', 'region'], 40_000, new Map())!;
    expect(space.logicalKeys).toBe(200);
    expect(space.template).toBe('{tournamentId} + {region}');
    // Each key renders both values, hashed as one.
    expect(space.render(0, 0, 0)).toMatch(/^.+ \+ (EU|NA|APAC|LATAM)$/);
  });

  it('is no key space for an entity lacking one of the attributes (its items are not in the index)', () => {
    const player: Entity = { ...match(), attributes: match().attributes.filter((a) => a.name !== 'tournamentId') };
    expect(keySpaceOf(player, ['tournamentId', 'region'], 40_000, new Map())).toBeUndefined();
  });

  it('simulates writes into the index over the combined keys', () => {
    const design: Design = {
      formatVersion: 1,
      id: 'd',
      name: 'Esports',
      tables: [
        {
          id: 't',
          name: 'Esports',
          partitionKey: { name: 'PK', type: 'S' },
          sortKey: { name: 'SK', type: 'S' },
          billing: { mode: 'ON_DEMAND' },
          tableClass: 'STANDARD',
          globalSecondaryIndexes: [
            { id: 'g', name: 'ByTournamentRegion', partitionKey: [{ name: 'tournamentId', type: 'S' }, { name: 'region', type: 'S' }], sortKey: { name: 'round', type: 'N' }, projection: { type: 'KEYS_ONLY' } },
          ],
          localSecondaryIndexes: [],
          entities: [match()],
          accessPatterns: [{ id: 'p', name: 'Record a match', entityId: 'e-match', action: 'put', known: ['matchId'], ratePerSecond: 100, consistency: 'eventual' }],
        },
      ],
      workload: { durationSeconds: 60, stepSeconds: 1, seed: 7, events: [] },
    };
    const result = simulate(design, 't');
    const gsi = result.targets.find((t) => t.name === 'ByTournamentRegion');
    expect(gsi).toBeDefined();
    // 100 puts/s, each one index write: spread over 200 keys, no key near 1,000 WCU/s.
    expect(gsi!.throttledKeys).toEqual([]);
    expect(gsi!.hottestKeys[0]?.key ?? '').toMatch(/ \+ (EU|NA|APAC|LATAM)$/);
  });
});
