/**
 * Fuzzy matching for the command palette: the query's characters must appear in the text in order
 * (case-insensitive, spaces in the query ignored). Matches at the start of words and runs of adjacent
 * characters score higher, so "sa" ranks "Save as…" above "Show data", and "gtc" finds "Go to Costs".
 */
export interface FuzzyMatch {
  /** Higher is better. */
  score: number;
  /** Positions in the text of the matched characters (to highlight them). */
  positions: number[];
}

const isWordStart = (text: string, i: number): boolean => i === 0 || /[\s\-_/&(.:]/.test(text[i - 1]!);

/** Matches `query` against `text`; undefined when some query character is missing. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | undefined {
  const wanted = query.toLowerCase().replace(/\s+/g, '');
  if (wanted === '') return { score: 0, positions: [] };
  const lower = text.toLowerCase();
  // For each query character: its next occurrence, or the next one that starts a word (whichever
  // scores better with the rest). Memoized on (text position, query position): O(text × query).
  const memo = new Map<number, FuzzyMatch | undefined>();
  const best = (from: number, q: number): FuzzyMatch | undefined => {
    if (q === wanted.length) return { score: 0, positions: [] };
    const key = from * (wanted.length + 1) + q;
    if (memo.has(key)) return memo.get(key);
    const ch = wanted[q]!;
    const first = lower.indexOf(ch, from);
    const candidates = first < 0 ? [] : [first];
    for (let i = first + 1; first >= 0 && i < lower.length; i += 1) {
      if (lower[i] === ch && isWordStart(text, i)) {
        candidates.push(i);
        break;
      }
    }
    let result: FuzzyMatch | undefined;
    for (const at of candidates) {
      const rest = best(at + 1, q + 1);
      if (!rest) continue;
      let score = rest.score + 1;
      if (q > 0 && at === from) score += 4; // right after the previous matched character
      if (isWordStart(text, at)) score += 3;
      if (at === 0) score += 2;
      if (!result || score > result.score) result = { score, positions: [at, ...rest.positions] };
    }
    memo.set(key, result);
    return result;
  };
  const match = best(0, 0);
  if (!match) return undefined;
  // Shorter texts win ties: "Save" before "Save as…" for "save".
  return { score: match.score - text.length / 100, positions: match.positions };
}

/** Splits `text` into runs, marking those at `positions` (for <mark> highlighting). */
export function highlightRuns(text: string, positions: readonly number[]): Array<{ text: string; isMatch: boolean }> {
  const marked = new Set(positions);
  const runs: Array<{ text: string; isMatch: boolean }> = [];
  for (let i = 0; i < text.length; i += 1) {
    const isMatch = marked.has(i);
    const last = runs.at(-1);
    if (last && last.isMatch === isMatch) last.text += text[i];
    else runs.push({ text: text[i]!, isMatch });
  }
  return runs;
}
