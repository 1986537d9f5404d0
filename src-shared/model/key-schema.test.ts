import { describe, expect, it } from 'vitest';
import { readKeySchema } from './key-schema.ts';

const defs = new Map([
  ['tournamentId', 'S'],
  ['region', 'S'],
  ['round', 'N'],
  ['bracket', 'S'],
  ['flag', 'BOOL'],
  ['a', 'S'],
  ['b', 'S'],
  ['c', 'S'],
  ['d', 'S'],
  ['e', 'S'],
]);
const gsi = { owner: 'GSI "ByRegion"', kind: 'gsi', path: 'GlobalSecondaryIndexes[0].KeySchema' } as const;
const el = (AttributeName: string, KeyType: string) => ({ AttributeName, KeyType });
const codes = (r: ReturnType<typeof readKeySchema>) => (r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`));

describe('readKeySchema', () => {
  it('reads repeated HASH then RANGE elements in key order, each with its own type', () => {
    const r = readKeySchema([el('tournamentId', 'HASH'), el('region', 'HASH'), el('round', 'RANGE'), el('bracket', 'RANGE')], defs, gsi);
    expect(r).toEqual({
      ok: true,
      value: { partition: [{ name: 'tournamentId', type: 'S' }, { name: 'region', type: 'S' }], sort: [{ name: 'round', type: 'N' }, { name: 'bracket', type: 'S' }] },
    });
  });

  it('names a RANGE element before a HASH one', () => {
    expect(codes(readKeySchema([el('tournamentId', 'HASH'), el('round', 'RANGE'), el('region', 'HASH')], defs, gsi))).toEqual([
      'GlobalSecondaryIndexes[0].KeySchema[2]: GSI "ByRegion": key schema element 3 (region) is a HASH after a RANGE; expected every HASH element before the RANGE elements.',
    ]);
  });

  it('names more than 4 attributes in a part, an attribute twice and a type other than S/N/B, all at once', () => {
    const r = readKeySchema([el('a', 'HASH'), el('b', 'HASH'), el('c', 'HASH'), el('d', 'HASH'), el('e', 'HASH'), el('a', 'RANGE'), el('flag', 'RANGE')], defs, gsi);
    expect(codes(r)).toEqual([
      'GlobalSecondaryIndexes[0].KeySchema[5]: GSI "ByRegion" names a twice in its key schema; expected each attribute once.',
      'GlobalSecondaryIndexes[0].KeySchema[6]: GSI "ByRegion": key attribute flag is defined as BOOL; expected S, N or B.',
      'GlobalSecondaryIndexes[0].KeySchema: GSI "ByRegion" has 5 HASH elements; expected at most 4 for a GSI.',
    ]);
  });

  it('names a multi-attribute key on a table or an LSI', () => {
    expect(codes(readKeySchema([el('a', 'HASH'), el('b', 'HASH')], defs, { owner: 'Table "Esports"', kind: 'table', path: 'KeySchema' }))).toEqual([
      'KeySchema: Table "Esports" has 2 HASH elements; expected at most 1 for a table (only a GSI takes a multi-attribute key).',
    ]);
    expect(codes(readKeySchema([el('a', 'HASH'), el('b', 'RANGE'), el('c', 'RANGE')], defs, { owner: 'LSI "ByRound"', kind: 'lsi', path: 'LocalSecondaryIndexes[0].KeySchema' }))).toEqual([
      'LocalSecondaryIndexes[0].KeySchema: LSI "ByRound" has 2 RANGE elements; expected at most 1 for an LSI (only a GSI takes a multi-attribute key).',
    ]);
  });

  it('names an undefined attribute, a bad KeyType and an empty schema', () => {
    expect(codes(readKeySchema([el('zzz', 'HASH'), el('a', 'SORT')], defs, gsi))).toEqual([
      'GlobalSecondaryIndexes[0].KeySchema[0]: GSI "ByRegion": key attribute zzz is not in AttributeDefinitions; expected a definition of type S, N or B.',
      'GlobalSecondaryIndexes[0].KeySchema[1].KeyType: GSI "ByRegion": key schema element 2 (a) has KeyType "SORT"; expected HASH or RANGE.',
    ]);
    expect(codes(readKeySchema([], defs, gsi))).toEqual(['GlobalSecondaryIndexes[0].KeySchema: GSI "ByRegion" has no key schema; expected a list of {AttributeName, KeyType}.']);
  });
});
