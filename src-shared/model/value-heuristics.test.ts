import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindFromName, wordsOf } from './value-heuristics.ts';

/** The split as it was written first: the same words, but quadratic on a long run of capitals. */
const quadraticWordsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());

describe('wordsOf', () => {
  it.each([
    ['orderDate', ['order', 'date']],
    ['created_at', ['created', 'at']],
    ['HTMLParser', ['html', 'parser']],
    ['userID', ['user', 'id']],
    ['ABCDefGHIjk', ['abc', 'def', 'gh', 'ijk']],
    ['GSI1PK', ['gsi1', 'pk']],
  ])('%s → %j', (name, words) => {
    expect(wordsOf(name)).toEqual(words);
  });

  it('splits like the greedy pattern it replaces', () => {
    const chars = fc.constantFrom('A', 'B', 'a', 'b', '1', '_', ' ', 'É');
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 24 }), (list) => {
        expect(wordsOf(list.join(''))).toEqual(quadraticWordsOf(list.join('')));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a 200,000-capital name as one word (in linear time)', () => {
    expect(wordsOf('A'.repeat(200_000))).toEqual(['a'.repeat(200_000)]);
    expect(kindFromName(`${'A'.repeat(200_000)}Id`)).toBe('id');
  });
});
