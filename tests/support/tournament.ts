/**
 * A table of esports matches for the multi-attribute GSI component tests: the table keyed on the
 * match, one GSI keyed on [tournamentId, region] / [round, bracket] that Match carries naturally (its
 * own attributes of those names), and a Player that carries only `region`.
 */
import type { Design, Table } from '../../src-shared/model/index.ts';

export function tournamentTable(id: string): Table {
  return {
    id,
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
        itemCount: 10_000,
        attributes: [
          { name: 'matchId', type: 'S' },
          { name: 'tournamentId', type: 'S' },
          { name: 'region', type: 'S', generator: { kind: 'enum', values: ['EU', 'NA', 'APAC', 'LATAM'] } },
          { name: 'round', type: 'N', generator: { kind: 'number', min: 1, max: 10 } },
          { name: 'bracket', type: 'S', generator: { kind: 'enum', values: ['upper', 'lower'] } },
          { name: 'isFinal', type: 'BOOL' },
        ],
        keys: { PK: { template: 'MATCH#{matchId}' }, SK: { template: 'MATCH' } },
      },
      {
        id: 'e-player',
        name: 'Player',
        itemCount: 500,
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

/** `design` with its first table replaced by the tournament table (same id, so the screens keep showing it). */
export function withTournamentTable(design: Design): Design {
  const first = design.tables[0];
  return { ...design, tables: [tournamentTable(first?.id ?? 't-1'), ...design.tables.slice(1)] };
}
