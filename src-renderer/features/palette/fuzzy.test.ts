import { describe, expect, it } from 'vitest';
import { fuzzyMatch, highlightRuns } from './fuzzy.ts';

const rank = (query: string, texts: string[]) =>
  texts
    .map((text) => ({ text, match: fuzzyMatch(query, text) }))
    .filter((r) => r.match !== undefined)
    .sort((a, b) => b.match!.score - a.match!.score)
    .map((r) => r.text);

describe('fuzzy matching for the command palette', () => {
  it('needs every query character, in order, ignoring case and spaces', () => {
    expect(fuzzyMatch('gtc', 'Go to Costs')).toBeDefined();
    expect(fuzzyMatch('go costs', 'Go to Costs')).toBeDefined();
    expect(fuzzyMatch('ctg', 'Go to Costs')).toBeUndefined();
    expect(fuzzyMatch('x', 'Save')).toBeUndefined();
  });

  it('ranks word starts and adjacent runs first', () => {
    expect(rank('sa', ['Show data', 'Save as…', 'Redo'])).toEqual(['Save as…', 'Show data']);
    expect(rank('dark', ['Toggle dark mode', 'Go to Data', 'Theme: dark'])).toEqual(['Theme: dark', 'Toggle dark mode']);
  });

  it('prefers the shorter text on a tie', () => {
    expect(rank('save', ['Save as…', 'Save'])).toEqual(['Save', 'Save as…']);
  });

  it('prefers a later word start over an early letter inside a word', () => {
    expect(fuzzyMatch('p', 'Open Partitions')!.positions).toEqual([5]);
    expect(highlightRuns('Open Partitions', fuzzyMatch('pa', 'Open Partitions')!.positions)).toEqual([
      { text: 'Open ', isMatch: false },
      { text: 'Pa', isMatch: true },
      { text: 'rtitions', isMatch: false },
    ]);
  });

  it('stays fast on a long query that does not match', () => {
    const text = 'a'.repeat(200);
    expect(fuzzyMatch(`${'a'.repeat(60)}b`, text)).toBeUndefined();
  });
});
