import { describe, expect, it } from 'vitest';
import { PATTERN_ACTIONS, type AccessPattern, type PatternAction } from './schema.ts';
import { isCountPattern, isReadPattern, isWritePattern, kindOf, PATTERN_KIND_ORDER, PATTERN_KINDS, unreachableAction, writeOperationOf } from './pattern-kinds.ts';

const pattern = (action: PatternAction): AccessPattern => ({ id: 'p', name: 'p', action, known: [], ratePerSecond: 1, consistency: 'eventual' });

describe('the pattern-kinds table', () => {
  it('has exactly one kind per action a design file can store, offered in the schema order', () => {
    expect(Object.keys(PATTERN_KINDS).sort()).toEqual([...PATTERN_ACTIONS].sort());
    expect(PATTERN_KIND_ORDER).toEqual(PATTERN_ACTIONS);
  });

  it.each<[PatternAction, 'read' | 'write']>([
    ['get', 'read'],
    ['query', 'read'],
    ['count', 'read'],
    ['put', 'write'],
    ['update', 'write'],
    ['delete', 'write'],
  ])('%s is a %s', (action, family) => {
    expect(kindOf(action).family).toBe(family);
    expect(isWritePattern(pattern(action))).toBe(family === 'write');
    expect(isReadPattern(pattern(action))).toBe(family === 'read');
  });

  it('only a count counts; only get and query return attributes; only an update changes attributes', () => {
    expect(PATTERN_ACTIONS.filter((a) => isCountPattern(pattern(a)))).toEqual(['count']);
    expect(PATTERN_ACTIONS.filter((a) => kindOf(a).returnsAttributes)).toEqual(['get', 'query']);
    expect(PATTERN_ACTIONS.filter((a) => kindOf(a).changesAttributes)).toEqual(['update']);
  });

  it('a put creates an item and a delete removes one, so both move a counter; an update and a delete address an existing item', () => {
    expect(PATTERN_ACTIONS.filter((a) => kindOf(a).creates)).toEqual(['put']);
    expect(PATTERN_ACTIONS.filter((a) => kindOf(a).changesItemCount)).toEqual(['put', 'delete']);
    expect(PATTERN_ACTIONS.filter((a) => kindOf(a).addressesExisting)).toEqual(['update', 'delete']);
  });

  it('a write is one single-item operation; a read may be served by a Query or a Scan', () => {
    expect(writeOperationOf('put')).toBe('PutItem');
    expect(writeOperationOf('update')).toBe('UpdateItem');
    expect(writeOperationOf('delete')).toBe('DeleteItem');
    for (const a of PATTERN_ACTIONS) {
      if (kindOf(a).family === 'write') expect(kindOf(a).operations).toHaveLength(1);
      else expect(kindOf(a).operations).toEqual(expect.arrayContaining(['Query', 'Scan']));
    }
    expect(kindOf('get').operations[0]).toBe('GetItem');
  });

  it('unreachableAction names an action no kind handles (a file that was not validated)', () => {
    expect(() => unreachableAction('archive' as never)).toThrow(/"archive"/);
  });
});
