import { describe, expect, it } from 'vitest';
import { parseDesign } from '../validate.ts';

/** A design whose one table has a GSI with the given key parts (and, for the type rule, a Match entity). */
function design(gsi: Record<string, unknown>, tableExtra: Record<string, unknown> = {}): unknown {
  return {
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
        globalSecondaryIndexes: [{ id: 'g', name: 'ByTournament', projection: { type: 'ALL' }, ...gsi }],
        localSecondaryIndexes: [],
        entities: [
          {
            id: 'e',
            name: 'Match',
            itemCount: 10,
            attributes: [
              { name: 'matchId', type: 'S' },
              { name: 'tournamentId', type: 'S' },
              { name: 'region', type: 'S' },
              { name: 'round', type: 'N' },
            ],
            keys: { PK: { template: 'MATCH#{matchId}' }, SK: { template: 'MATCH' } },
          },
        ],
        accessPatterns: [],
        ...tableExtra,
      },
    ],
  };
}

const problems = (input: unknown) => {
  const r = parseDesign(input);
  return r.ok ? [] : r.errors.map((p) => ({ code: p.code, path: p.path, message: p.message }));
};

const s = (name: string) => ({ name, type: 'S' });

describe('multi-attribute GSI keys: validation', () => {
  it('accepts 4 partition attributes and 4 sort attributes, and the table key inside a GSI key (an inverted index)', () => {
    expect(problems(design({ partitionKey: [s('tournamentId'), s('region'), s('a'), s('b')], sortKey: [{ name: 'round', type: 'N' }, s('c'), s('d'), s('PK')] }))).toEqual([]);
  });

  it('names a partition key of 5 attributes', () => {
    const found = problems(design({ partitionKey: [s('a'), s('b'), s('c'), s('d'), s('e')] }));
    expect(found).toEqual([
      {
        code: 'model.multiAttributeKey',
        path: 'tables[0].globalSecondaryIndexes[0].partitionKey',
        message: expect.stringMatching(/^GSI "ByTournament" has a partition key of 5 attributes \(a, b, c, d, e\); expected at most 4/),
      },
    ]);
  });

  it('names a sort key of 5 attributes', () => {
    const found = problems(design({ partitionKey: s('tournamentId'), sortKey: [s('a'), s('b'), s('c'), s('d'), s('e')] }));
    expect(found.map((p) => [p.code, p.path])).toEqual([['model.multiAttributeKey', 'tables[0].globalSecondaryIndexes[0].sortKey']]);
  });

  it('names an empty partition key list', () => {
    const found = problems(design({ partitionKey: [] }));
    expect(found.map((p) => [p.code, p.path])).toEqual([['model.multiAttributeKey', 'tables[0].globalSecondaryIndexes[0].partitionKey']]);
    expect(found[0]?.message).toMatch(/partition key of no attributes; expected 1–4/);
  });

  it('names an attribute used twice in one index key, in either part', () => {
    const inPart = problems(design({ partitionKey: [s('tournamentId'), s('tournamentId')] }));
    expect(inPart.map((p) => [p.code, p.path])).toEqual([['model.duplicateKeyAttribute', 'tables[0].globalSecondaryIndexes[0].partitionKey[1].name']]);
    expect(inPart[0]?.message).toMatch(/names "tournamentId" twice in its key/);
    const across = problems(design({ partitionKey: [s('tournamentId'), s('region')], sortKey: s('region') }));
    expect(across.map((p) => [p.code, p.path])).toEqual([['model.duplicateKeyAttribute', 'tables[0].globalSecondaryIndexes[0].sortKey.name']]);
  });

  it('names a key attribute type other than S, N or B', () => {
    const found = problems(design({ partitionKey: [s('tournamentId'), { name: 'region', type: 'BOOL' }] }));
    expect(found.map((p) => [p.code, p.path])).toEqual([['model.schema', 'tables[0].globalSecondaryIndexes[0].partitionKey[1].type']]);
    expect(found[0]?.message).toMatch(/"S", "N", "B"/);
  });

  it('names a multi-attribute key on the table and on an LSI, as that rule', () => {
    const onTable = problems(design({ partitionKey: s('tournamentId') }, { partitionKey: [s('PK'), s('PK2')] }));
    expect(onTable).toEqual([
      {
        code: 'model.multiAttributeKey',
        path: 'tables[0].partitionKey',
        message: expect.stringMatching(/^Table "Esports" has a partition key of 2 attributes; expected one attribute: a table's own key cannot be multi-attribute, only a GSI's can/),
      },
    ]);
    const onLsi = problems(
      design({ partitionKey: s('tournamentId') }, { localSecondaryIndexes: [{ id: 'l', name: 'ByRound', sortKey: [s('round'), s('region')], projection: { type: 'ALL' } }] }),
    );
    expect(onLsi.map((p) => [p.code, p.path])).toEqual([['model.multiAttributeKey', 'tables[0].localSecondaryIndexes[0].sortKey']]);
    expect(onLsi[0]?.message).toMatch(/^LSI "ByRound" has a sort key of 2 attributes; expected one attribute/);
  });

  it('names an entity attribute whose type the index key cannot take', () => {
    const found = problems(design({ partitionKey: [s('tournamentId'), s('region')], sortKey: s('round') }));
    expect(found).toEqual([
      {
        code: 'model.keyAttributeConflict',
        path: 'tables[0].entities[0].attributes[3]',
        message: expect.stringMatching(/^"Match" carries "round" as N, but GSI "ByTournament" keys on it as S; DynamoDB rejects a write whose index key attribute has another type/),
      },
    ]);
  });

  it('reports every broken rule of a well-formed key at once', () => {
    const found = problems(design({ partitionKey: [s('a'), s('b'), s('c'), s('d'), s('a')], sortKey: [s('b')] }));
    expect(found.map((p) => `${p.code} ${p.path}`).sort()).toEqual([
      'model.duplicateKeyAttribute tables[0].globalSecondaryIndexes[0].partitionKey[4].name',
      'model.duplicateKeyAttribute tables[0].globalSecondaryIndexes[0].sortKey[0].name',
      'model.multiAttributeKey tables[0].globalSecondaryIndexes[0].partitionKey',
    ]);
  });

  it('reports a malformed key part (a list holding a non-attribute) at the element', () => {
    const found = problems(design({ partitionKey: [s('tournamentId'), 'region'] }));
    expect(found.map((p) => [p.code, p.path])).toEqual([['model.schema', 'tables[0].globalSecondaryIndexes[0].partitionKey[1]']]);
  });
});
