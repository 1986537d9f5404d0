/**
 * The sample store over GSIs with multi-attribute keys and natural key attributes
 * (docs/dynamodb-rules.md §11): an item is in such an index only with every key attribute; its
 * collection is the tuple of its partition-key attributes (shown joined by " + "); inside it, items
 * sort by the sort-key attributes left to right, each in its own type's order. Values come from
 * constants and sequence ids, so every order and count below is computed by hand.
 */
import { describe, expect, it } from 'vitest';
import { itemSizeBytes } from '../capacity/index.ts';
import type { Attribute, Design, Entity } from '../model/index.ts';
import { KEY_PART_SEPARATOR } from '../partition/index.ts';
import { createSampleStore, type SampleStore } from './store.ts';
import type { SampleRow } from './types.ts';

const constant = (name: string, type: 'S' | 'N', value: string): Attribute => ({ name, type, generator: { kind: 'constant', value } });
/** 1, 2, 3 … in row order. */
const sequence = (name: string): Attribute => ({ name, type: 'N', generator: { kind: 'id' } });
const matchId: Attribute = { name: 'matchId', type: 'S', generator: { kind: 'id' } };

const match = (name: string, itemCount: number, attributes: Attribute[], keys: Entity['keys'] = {}): Entity => ({
  id: name,
  name,
  itemCount,
  attributes: [matchId, ...attributes],
  keys: { PK: { template: `${name}#{matchId}` }, SK: { template: 'MATCH' }, ...keys },
});

function tournament(): Design {
  return {
    formatVersion: 1,
    id: 'd',
    name: 'Tournament',
    tables: [
      {
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
          { id: 'g2', name: 'ByRegion', partitionKey: { name: 'region', type: 'S' }, sortKey: { name: 'round', type: 'N' }, projection: { type: 'KEYS_ONLY' } },
        ],
        localSecondaryIndexes: [],
        entities: [
          // Rounds 1–3 of the upper bracket and 1–12 of the lower one, T1 in EU.
          match('A', 3, [constant('tournamentId', 'S', 'T1'), constant('region', 'S', 'EU'), sequence('round'), constant('bracket', 'S', 'upper')]),
          match('B', 12, [constant('tournamentId', 'S', 'T1'), constant('region', 'S', 'EU'), sequence('round'), constant('bracket', 'S', 'lower')]),
          // The same tournament in another region: another collection.
          match('C', 2, [constant('tournamentId', 'S', 'T1'), constant('region', 'S', 'NA'), constant('round', 'N', '1'), constant('bracket', 'S', 'upper')]),
          // No bracket at all: in ByRegion, never in ByTournamentRegion.
          match('E', 5, [constant('tournamentId', 'S', 'T1'), constant('region', 'S', 'EU'), sequence('round')]),
          // A bracket on about half of the items (presence 0.5): only those are in ByTournamentRegion.
          match('F', 200, [constant('tournamentId', 'S', 'T2'), constant('region', 'S', 'EU'), sequence('round'), { ...constant('bracket', 'S', 'upper'), presence: 0.5 }]),
          // tournamentId from a template rather than an attribute: the same value, so the same collection as A and B.
          match('I', 2, [constant('region', 'S', 'EU'), constant('round', 'N', '1'), constant('bracket', 'S', 'upper')], { tournamentId: { template: 'T1' } }),
          // No region, round or bracket: in neither index.
          { id: 'Team', name: 'Team', itemCount: 4, attributes: [{ name: 'teamId', type: 'S', generator: { kind: 'id' } }], keys: { PK: { template: 'TEAM#{teamId}' }, SK: { template: 'TEAM' } } },
        ],
        accessPatterns: [],
      },
    ],
  };
}

function allLines(store: SampleStore, view: string): SampleRow[] {
  const { total } = store.page(view, 0, 0);
  return store.page(view, 0, total).rows;
}

describe('a GSI with a multi-attribute key in the sample', () => {
  const store = createSampleStore(tournament(), 't');
  const lines = allLines(store, 'ByTournamentRegion');
  const fWithBracket = store
    .items('table', 0, 10_000)
    .rows.filter((r) => r.entity === 'F' && 'bracket' in r.attributes).length;

  it('names its key attributes in key order', () => {
    const view = store.summary().views.find((v) => v.name === 'ByTournamentRegion')!;
    expect(view.partitionKeys).toEqual(['tournamentId', 'region']);
    expect(view.sortKeys).toEqual(['round', 'bracket']);
    expect(store.summary().views.find((v) => v.name === 'table')).toMatchObject({ partitionKeys: ['PK'], sortKeys: ['SK'] });
  });

  it('holds exactly the items that carry every key attribute: 3 + 12 + 2 + 2, plus the F items that have a bracket', () => {
    // About half of F's 200 items carry a bracket (presence 0.5, seeded).
    expect(fWithBracket).toBeGreaterThan(70);
    expect(fWithBracket).toBeLessThan(130);
    const view = store.summary().views.find((v) => v.name === 'ByTournamentRegion')!;
    expect(view.itemCount).toBe(19 + fWithBracket);
    expect(view.collections).toBe(3);
    const entities = lines.filter((l) => !l.collection).map((l) => l.entity);
    expect(entities).not.toContain('E');
    expect(entities).not.toContain('Team');
  });

  it('groups by the tuple of partition-key attributes, shown joined by " + ", collections in key order', () => {
    const headers = lines.filter((l) => l.collection).map((l) => [l.partitionKey, l.collection!.items]);
    expect(headers).toEqual([
      ['T1 + EU', 17],
      ['T1 + NA', 2],
      ['T2 + EU', fWithBracket],
    ]);
    expect(KEY_PART_SEPARATOR).toBe(' + ');
    expect([...store.keysOf('ByTournamentRegion').keys].sort()).toEqual(['T1 + EU', 'T1 + NA', 'T2 + EU']);
  });

  it('sorts a collection by round as a number, then by bracket, ties in generation order', () => {
    const start = lines.findIndex((l) => l.collection && l.partitionKey === 'T1 + EU');
    const items = lines.slice(start + 1, start + 18).map((l) => `${l.entity} ${l.keyValues!.slice(2).join(' ')}`);
    expect(items).toEqual([
      'B 1 lower',
      'A 1 upper',
      'I 1 upper',
      'I 1 upper',
      'B 2 lower',
      'A 2 upper',
      'B 3 lower',
      'A 3 upper',
      'B 4 lower',
      'B 5 lower',
      'B 6 lower',
      'B 7 lower',
      'B 8 lower',
      'B 9 lower',
      'B 10 lower',
      'B 11 lower',
      'B 12 lower',
    ]);
  });

  it('gives each row its key attributes in key order, the partition key and the sort key joined, the rest as attributes', () => {
    const row = lines.find((l) => l.entity === 'B' && l.keyValues?.[2] === '10')!;
    expect(row.keyValues).toEqual(['T1', 'EU', '10', 'lower']);
    expect(row.partitionKey).toBe('T1 + EU');
    expect(row.sortKey).toBe('10 + lower');
    expect(Object.keys(row.attributes).sort()).toEqual(['PK', 'SK', 'matchId']);
  });

  it('counts each key attribute once: an ALL entry is the item, byte for byte', () => {
    const tableBytes = new Map(store.items('table', 0, 10_000).rows.map((r) => [r.partitionKey, r.bytes]));
    const { rows } = store.items('ByTournamentRegion', 0, 10_000);
    rows.forEach((row, i) => {
      const entry = store.itemAt('ByTournamentRegion', i);
      expect(itemSizeBytes(entry)).toBe(row.bytes);
      expect(row.bytes).toBe(tableBytes.get(row.attributes.PK as string));
    });
  });

  it('finds a collection by the start of its joined key', () => {
    const at = store.find('ByTournamentRegion', 'T1 + NA');
    expect(lines[at!]).toMatchObject({ partitionKey: 'T1 + NA', collection: { items: 2 } });
    expect(store.find('ByTournamentRegion', 'T3')).toBeNull();
  });
});

describe('a natural key attribute (no template) in a one-attribute GSI key', () => {
  const store = createSampleStore(tournament(), 't');

  it('puts every item that carries region and round in ByRegion: 3 + 12 + 5 + 200 + 2 in EU, 2 in NA', () => {
    const headers = allLines(store, 'ByRegion')
      .filter((l) => l.collection)
      .map((l) => [l.partitionKey, l.collection!.items]);
    expect(headers).toEqual([
      ['EU', 222],
      ['NA', 2],
    ]);
    expect(store.items('ByRegion', 0, 1000).rows.map((r) => r.entity)).not.toContain('Team');
  });

  it('projects KEYS_ONLY as the table keys and the natural keys, sized as DynamoDB sizes them', () => {
    const entry = store.itemAt('ByRegion', 0);
    expect(Object.keys(entry).sort()).toEqual(['PK', 'SK', 'region', 'round']);
    expect(store.items('ByRegion', 0, 1).rows[0]!.bytes).toBe(itemSizeBytes(entry));
  });

  it('keeps the natural key attributes on the table item as the attributes they are', () => {
    const b = store.items('table', 0, 10_000).rows.find((r) => r.entity === 'B')!;
    expect(b.attributes).toMatchObject({ tournamentId: 'T1', region: 'EU', bracket: 'lower' });
    expect(typeof b.attributes.round).toBe('number');
    store.items('table', 0, 50).rows.forEach((row, i) => expect(itemSizeBytes(store.itemAt('table', i))).toBe(row.bytes));
  });
});
