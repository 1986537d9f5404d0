/**
 * One row of a comparison: a value per design, which side is better by a stated rule (or a tie),
 * and whether the values differ at all (the "only rows that differ" filter).
 */
import type { Figure } from '../capacity/index.ts';

/**
 * How a row decides the better side:
 * - `lower`: the lower number is better (capacity units, dollars, bytes, partition share, throttling);
 * - `access`: a key-based operation (GetItem, BatchGetItem, Query, a write) beats a Scan;
 * - `absent`: a side without the value is better (a warning only some designs have);
 * - `none`: no side is better (key schema, projection, key condition: only the difference counts).
 */
export type BetterRule = 'lower' | 'access' | 'absent' | 'none';

/** The rules in words, as the report states them. */
export const BETTER_RULES: Record<BetterRule, string> = {
  lower: 'the lower number is better (units, dollars, bytes, partition share, throttling)',
  access: 'GetItem, BatchGetItem, Query and writes go by key and beat a Scan; a Query its index serves alone beats one that must fetch items from the table; otherwise key-based plans tie here (their cost rows decide)',
  absent: 'a design without the warning is better',
  none: 'no side is better: only the difference is shown',
};

/** How a value is shown: dollars per month, capacity units, bytes, a 0..1 share, a count, or text. */
export type RowFormat = 'usd' | 'units' | 'bytes' | 'share' | 'count' | 'text';

/** One side's value. `value` is null where the design has no such pattern, table, index or warning. */
export interface ComparisonCell {
  value: number | string | null;
  /** The derivation of the number, for the UI to open (capacity and cost rows). */
  figure?: Figure;
  /**
   * The value leaves out access patterns that need a key design (they are not costed yet): it is
   * shown, and never judged better, since a design is not cheaper for what it does not price.
   */
  partial?: true;
}

export interface ComparisonRow {
  /** Stable within a report: `pattern:ap-get-user:rcuPerRequest`. */
  key: string;
  /** What the row shows: `RCU per request`. */
  label: string;
  format: RowFormat;
  rule: BetterRule;
  /** One per design, in the order the designs were given. */
  cells: ComparisonCell[];
  /**
   * The index of the one better side; `tie` when the sides compared hold the same best value
   * (`bestSides` then lists them); null when the rule is `none` or fewer than two sides have a value.
   */
  best: number | 'tie' | null;
  /** Every side holding the best value (empty when `best` is null). */
  bestSides: number[];
  /** Whether the values are not all the same (a missing value differs from any present one). */
  differs: boolean;
}

/** Numbers closer than this (relative) are the same: sums of floating-point parts differ in the last bits. */
const RELATIVE_TOLERANCE = 1e-9;

/** Whether two numbers are the same up to rounding noise. */
export function isSameNumber(a: number, b: number): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b), 1e-12);
}

const isSame = (a: ComparisonCell['value'], b: ComparisonCell['value']): boolean =>
  typeof a === 'number' && typeof b === 'number' ? isSameNumber(a, b) : a === b;

/** The operation cell of a pattern that has no plan yet: no entity or no key templates for it. */
export const NEEDS_KEY_DESIGN = 'needs a key design';

/**
 * Operations that go by key (reads and writes) rank 0; a Scan ranks 1 (docs/dynamodb-rules.md §2);
 * NaN for no operation yet (`None`, a pattern that needs a key design): it takes no part.
 */
export function accessRank(operation: string): number {
  if (operation === 'None' || operation === NEEDS_KEY_DESIGN) return Number.NaN;
  // A key-based read that must fetch from the table (its index lacks what the pattern needs) is
  // never better than one its index serves alone.
  return operation === 'Scan' ? 1 : operation.includes(' + ') ? 0.5 : 0;
}

/** The score a rule gives a value: lower is better; undefined where the value takes no part. */
function scoreOf(rule: BetterRule, value: ComparisonCell['value']): number | undefined {
  switch (rule) {
    case 'lower':
      return typeof value === 'number' && !Number.isNaN(value) ? value : undefined;
    case 'access': {
      const rank = typeof value === 'string' ? accessRank(value) : Number.NaN;
      return Number.isNaN(rank) ? undefined : rank;
    }
    case 'absent':
      return value === null ? 0 : 1;
    case 'none':
      return undefined;
  }
}

/** Decides `best`, `bestSides` and `differs` for the cells of one row. */
export function judgeCells(rule: BetterRule, cells: readonly ComparisonCell[]): Pick<ComparisonRow, 'best' | 'bestSides' | 'differs'> {
  const differs = cells.some((c) => !isSame(c.value, cells[0]!.value));
  const scored = cells.map((c, side) => ({ side, score: c.partial ? undefined : scoreOf(rule, c.value) })).filter((s): s is { side: number; score: number } => s.score !== undefined);
  if (scored.length < 2) return { best: null, bestSides: [], differs };
  const min = Math.min(...scored.map((s) => s.score));
  const bestSides = scored.filter((s) => isSameNumber(s.score, min)).map((s) => s.side);
  return { best: bestSides.length === 1 ? bestSides[0]! : 'tie', bestSides, differs };
}

/** Builds a row and judges it. */
export function makeRow(key: string, label: string, format: RowFormat, rule: BetterRule, cells: ComparisonCell[]): ComparisonRow {
  return { key, label, format, rule, cells, ...judgeCells(rule, cells) };
}

/**
 * The sides to mark better in a row: the best ones when some side that takes part is worse; none
 * when every side that takes part holds the best value (a tie marks nothing) or no side can be better.
 */
export function markedSides(row: Pick<ComparisonRow, 'rule' | 'cells' | 'best' | 'bestSides'>): number[] {
  if (row.best === null) return [];
  const taking = row.cells.filter((c) => scoreOf(row.rule, c.value) !== undefined).length;
  return row.bestSides.length < taking ? [...row.bestSides] : [];
}
