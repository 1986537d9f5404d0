import { describe, expect, it } from 'vitest';
import { hasMultiAttributeKey, keyCellsOf, keyColumnsOf } from './format.ts';

describe('the data list key columns', () => {
  it('shows a table view as its partition key and sort key', () => {
    const columns = keyColumnsOf({ partitionKeys: ['PK'], sortKeys: ['SK'] });
    expect(columns.map((c) => `${c.name} (${c.role})`)).toEqual(['PK (partition key)', 'SK (sort key)']);
    expect(keyCellsOf({ partitionKey: 'USER#u-1', sortKey: 'PROFILE' }, columns)).toEqual(['USER#u-1', 'PROFILE']);
  });

  it('shows a multi-attribute GSI key as one column per attribute, in key order, each value in its column', () => {
    const view = { partitionKeys: ['tournamentId', 'region'], sortKeys: ['round', 'bracket'] };
    expect(hasMultiAttributeKey(view)).toBe(true);
    const columns = keyColumnsOf(view);
    expect(columns.map((c) => `${c.name} (${c.role})`)).toEqual([
      'tournamentId (partition key 1 of 2)',
      'region (partition key 2 of 2)',
      'round (sort key 1 of 2)',
      'bracket (sort key 2 of 2)',
    ]);
    expect(columns.map((c) => c.isPartition)).toEqual([true, true, false, false]);
    const row = { partitionKey: 't-0001 + EU', sortKey: '3 + upper-a', keyValues: ['t-0001', 'EU', '3', 'upper-a'] };
    expect(keyCellsOf(row, columns)).toEqual(['t-0001', 'EU', '3', 'upper-a']);
  });

  it('gives a view without a sort key one key column', () => {
    const columns = keyColumnsOf({ partitionKeys: ['GSI3PK'], sortKeys: [] });
    expect(hasMultiAttributeKey({ partitionKeys: ['GSI3PK'], sortKeys: [] })).toBe(false);
    expect(keyCellsOf({ partitionKey: 'X' }, columns)).toEqual(['X']);
  });
});
