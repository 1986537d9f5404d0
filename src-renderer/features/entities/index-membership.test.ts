import { describe, expect, it } from 'vitest';
import type { Entity, Table } from '../../../src-shared/model/index.ts';
import { describeFactors, entityIndexesOf } from './index-membership.ts';

/** Matches keyed in a GSI on [tournamentId, region] / [round, bracket]; a second, classic GSI on GSI2PK. */
function table(match: Partial<Entity> = {}, extra: Entity[] = []): Table {
  return {
    id: 't',
    name: 'Esports',
    partitionKey: { name: 'PK', type: 'S' },
    sortKey: { name: 'SK', type: 'S' },
    billing: { mode: 'ON_DEMAND' },
    tableClass: 'STANDARD',
    globalSecondaryIndexes: [
      {
        id: 'g1',
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
      { id: 'g2', name: 'GSI2', partitionKey: { name: 'GSI2PK', type: 'S' }, projection: { type: 'KEYS_ONLY' } },
    ],
    localSecondaryIndexes: [],
    entities: [
      {
        id: 'match',
        name: 'Match',
        itemCount: 10_000,
        attributes: [
          { name: 'matchId', type: 'S' },
          { name: 'tournamentId', type: 'S' },
          { name: 'region', type: 'S' },
          { name: 'round', type: 'N' },
          { name: 'bracket', type: 'S' },
          { name: 'status', type: 'S', generator: { kind: 'enum', values: ['OPEN', 'DONE'] } },
        ],
        keys: { PK: { template: 'MATCH#{matchId}' }, SK: { template: 'MATCH' } },
        ...match,
      },
      ...extra,
    ],
    accessPatterns: [],
  };
}

const withPresence = (name: string, presence: number) => (a: Entity['attributes'][number]) => (a.name === name ? { ...a, presence } : a);

describe('an entity in the GSIs of its table', () => {
  it('carries every key attribute of a multi-attribute GSI as its own attributes: every item is in it', () => {
    const { related, unrelated } = entityIndexesOf(table(), 'match');
    expect(related).toHaveLength(1);
    const [m] = related;
    expect(m).toMatchObject({ index: 'ByTournamentRegion', isMultiAttribute: true, isMember: true, fraction: 1, itemCount: 10_000, factors: [] });
    expect(m!.partition.map((p) => [p.key.name, p.kind, p.attributeType])).toEqual([
      ['tournamentId', 'natural', 'S'],
      ['region', 'natural', 'S'],
    ]);
    expect(m!.sort.map((p) => [p.key.name, p.kind, p.attributeType])).toEqual([
      ['round', 'natural', 'N'],
      ['bracket', 'natural', 'S'],
    ]);
    // It writes nothing into GSI2's key: its items are never there.
    expect(unrelated).toEqual(['GSI2']);
  });

  it('an optional key attribute puts only the items that carry it in the index, at its presence', () => {
    const t = table();
    t.entities[0]!.attributes = t.entities[0]!.attributes.map(withPresence('bracket', 0.8));
    const [m] = entityIndexesOf(t, 'match').related;
    expect(m!.isMember).toBe(true);
    expect(m!.fraction).toBeCloseTo(0.8);
    expect(m!.factors).toEqual([{ kind: 'presence', text: 'bracket', fraction: 0.8, basis: 'its presence in the value model' }]);
    expect(describeFactors(m!.factors)).toBe('those that carry bracket');
  });

  it("a template's `when` condition and an optional attribute multiply into the planner's share", () => {
    const t = table({ keys: { PK: { template: 'MATCH#{matchId}' }, SK: { template: 'MATCH' }, region: { template: '{region}', when: 'status = "OPEN"' } } });
    t.entities[0]!.attributes = t.entities[0]!.attributes.map(withPresence('round', 0.5));
    const [m] = entityIndexesOf(t, 'match').related;
    expect(m!.partition.map((p) => [p.key.name, p.kind, p.template])).toEqual([
      ['tournamentId', 'natural', undefined],
      ['region', 'template', '{region}'],
    ]);
    expect(m!.factors.map((f) => [f.kind, f.text, f.fraction])).toEqual([
      ['condition', 'status = "OPEN"', 0.5],
      ['presence', 'round', 0.5],
    ]);
    // The factors shown are the planner's: their product is its share.
    expect(m!.factors.reduce((p, f) => p * f.fraction, 1)).toBeCloseTo(m!.fraction);
    expect(m!.fraction).toBeCloseTo(0.25);
    expect(describeFactors(m!.factors)).toBe('those that carry round, where status = "OPEN"');
  });

  it('an entity with only some of the key attributes is not in the index, and says which it misses', () => {
    const player: Entity = {
      id: 'player',
      name: 'Player',
      itemCount: 500,
      attributes: [
        { name: 'playerId', type: 'S' },
        { name: 'region', type: 'S' },
      ],
      keys: { PK: { template: 'PLAYER#{playerId}' }, SK: { template: 'PROFILE' } },
    };
    const [m] = entityIndexesOf(table({}, [player]), 'player').related;
    expect(m).toMatchObject({ index: 'ByTournamentRegion', isMember: false, fraction: 0 });
    expect([...m!.partition, ...m!.sort].map((p) => `${p.key.name}:${p.kind}`)).toEqual(['tournamentId:missing', 'region:natural', 'round:missing', 'bracket:missing']);
    expect(m!.reason).toBeUndefined();
  });

  it('a template that does not parse keeps the entity out, with the reason', () => {
    const t = table({ keys: { PK: { template: 'MATCH#{matchId}' }, SK: { template: 'MATCH' }, GSI2PK: { template: 'T#{tournamentId' } } });
    const gsi2 = entityIndexesOf(t, 'match').related.find((m) => m.index === 'GSI2');
    expect(gsi2).toMatchObject({ isMember: false });
    expect(gsi2!.reason).toMatch(/template for GSI2PK is unusable/);
  });

  it('a GSI with a one-attribute key and a template is listed with the template', () => {
    const t = table({ keys: { PK: { template: 'MATCH#{matchId}' }, SK: { template: 'MATCH' }, GSI2PK: { template: 'T#{tournamentId}' } } });
    const gsi2 = entityIndexesOf(t, 'match').related.find((m) => m.index === 'GSI2');
    expect(gsi2).toMatchObject({ isMultiAttribute: false, isMember: true, fraction: 1 });
    expect(gsi2!.partition).toEqual([{ key: { name: 'GSI2PK', type: 'S' }, kind: 'template', template: 'T#{tournamentId}' }]);
  });
});
