/**
 * The comparison report's shapes, shared by `compare.ts`, which builds the report, and `summary.ts`,
 * which sums it up: declared below both so neither imports the other's types.
 */
import type { Figure } from '../capacity/index.ts';
import type { CostWarning } from '../costing/index.ts';
import type { Workload } from '../model/index.ts';
import type { MatchKind } from './match.ts';
import type { BetterRule, ComparisonRow } from './rows.ts';

/** What kind of structural change: a table, its billing, an index, an entity or an access pattern. */
export type ChangeKind =
  | 'tableAdded'
  | 'tableRemoved'
  | 'tableRenamed'
  | 'tableKeys'
  | 'billing'
  | 'tableClass'
  | 'indexAdded'
  | 'indexRemoved'
  | 'indexChanged'
  | 'entityAdded'
  | 'entityRemoved'
  | 'entityRenamed'
  | 'entityKeys'
  | 'patternAdded'
  | 'patternRemoved';

/** One difference in structure between the first design and a later one. */
export interface StructuralChange {
  kind: ChangeKind;
  /** The table it is in: its name on the later side (the first side's for what was removed). */
  table: string;
  /** A few words for the one-line summary: `GSI2 added`, `GSI1 projection changed`. */
  short: string;
  /** The whole change: `GSI1: projection KEYS_ONLY → ALL`. */
  detail: string;
  /**
   * Whether the one-line summary names it. An entity's key templates change with every index
   * added or removed, so they are listed with the details but not headlined.
   */
  isHeadline: boolean;
}

/** One access pattern on both sides, by its on-demand dollars per month. */
export interface PatternDelta {
  /** The pattern's key in the report (`pattern:<id>`). */
  key: string;
  name: string;
  kind: 'read' | 'write';
  /** On-demand $/month on the first side and on this side, and this − first. */
  before: number;
  after: number;
  delta: number;
  /** The plan on each side in words: `Scan`, `Query on GSI GSI2`, `PutItem on the table`. */
  planBefore: string;
  planAfter: string;
}

/** One later side (B, C…) against the first (A). */
export interface SideSummary {
  side: number;
  /** `B`. */
  letter: string;
  changes: StructuralChange[];
  /** Patterns on both sides that cost less on this side, the largest saving first. */
  cheaper: PatternDelta[];
  /** Patterns on both sides that cost more on this side, the largest increase first. */
  costlier: PatternDelta[];
  /** How many patterns on both sides cost the same. */
  unchanged: number;
  /** Patterns that cost the same but are served by another plan. */
  replanned: PatternDelta[];
  /** Names of the patterns on both sides that one side gives no cost for (no key design yet). */
  notCosted: string[];
  /** This side's total − the first side's, in USD per month, with both totals' derivations. */
  net: { onDemand: Figure; provisioned: Figure };
}

/** Each later design against the first; empty with fewer than two sides. */
export interface ComparisonSummary {
  sides: SideSummary[];
}

/** One side's plan for a pattern, as the planner chose it. */
export interface PlanSummary {
  operation: string;
  badge: string;
  /** `table`, or the index's name. */
  index: string;
  indexKind: 'table' | 'gsi' | 'lsi';
  /** Absent for a Scan. */
  keyCondition?: string;
  isServed: boolean;
  requests: number;
}

/** One access pattern across the designs. `sides[i]` is null where design i has no such pattern. */
export interface PatternComparison {
  /** `pattern:<first side's id>`; stable within the report. */
  key: string;
  /** The name on the first side that has the pattern. */
  name: string;
  table: string;
  kind: 'read' | 'write';
  match: Exclude<MatchKind, 'position'>;
  sides: ({ patternId: string; name: string; table: string; plan: PlanSummary } | null)[];
  rows: ComparisonRow[];
}

/** A table, a GSI or an LSI across the designs. */
export interface SchemaComparison {
  key: string;
  /** `table` for the table itself; else the index name. */
  name: string;
  kind: 'table' | 'gsi' | 'lsi';
  /** The name on each side (null where it has none). */
  names: (string | null)[];
  match: MatchKind;
  rows: ComparisonRow[];
}

export interface TableComparison {
  key: string;
  name: string;
  names: (string | null)[];
  match: Exclude<MatchKind, 'id'>;
  /** The table itself first, then each index. */
  parts: SchemaComparison[];
}

/** Partition risk of one table or GSI (`target`) across the designs. */
export interface TargetRiskComparison {
  key: string;
  table: string;
  /** `table` or the GSI's name. */
  target: string;
  rows: ComparisonRow[];
}

export interface PartitionRiskComparison {
  seed: number;
  workload: Workload;
  targets: TargetRiskComparison[];
  /** Throttled fraction per access pattern (one row per pattern, keyed like the pattern). */
  patterns: ComparisonRow[];
}

/** A warning some designs have and others do not; `cells[i].value` is its message on side i, or null. */
export interface WarningComparison extends ComparisonRow {
  code: CostWarning['code'];
  severity: CostWarning['severity'];
  table: string;
  /** The matched pattern's key, when the warning is about one. */
  patternKey?: string;
}

/** One side of the comparison: its letter (A, B, C…), which heads its column, and its labels. */
export interface ComparisonSide {
  letter: string;
  label: string;
  description: string;
  designName: string;
  designId: string;
}

export interface ComparisonReport {
  sides: ComparisonSide[];
  /** Each later side against the first, in words and numbers (structure, patterns, net dollars). */
  summary: ComparisonSummary;
  /** The rules that decide `best`, in words. */
  rules: Record<BetterRule, string>;
  patterns: PatternComparison[];
  /** Patterns only one design has, per side (also in `patterns`, with `match: 'unmatched'`). */
  unmatchedPatterns: { side: number; table: string; patternId: string; name: string }[];
  tables: TableComparison[];
  /** Reads, writes, storage; storage, on-demand and provisioned dollars per month. */
  totals: ComparisonRow[];
  /** Null when the simulation was not run. */
  partitionRisk: PartitionRiskComparison | null;
  /** Warnings that not every design has. */
  warnings: WarningComparison[];
}
