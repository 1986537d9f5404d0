/**
 * The key-design solver's options and answers: given a table's entities and access patterns, the
 * best complete key designs it found, each priced by the cost engine and checked by the partition
 * simulator, with per pattern the request that serves it and why it beat the alternatives.
 */
import type { Design } from '../model/index.ts';
import type { PlanBadge } from '../planner/index.ts';

/** The GSIs a proposal may use at most by default: a preference; DynamoDB allows 20 per table. */
export const DEFAULT_MAX_GSIS = 5;
/** How many proposals a solve returns by default. */
export const DEFAULT_TOP = 3;
/** How long the search runs at most by default, in milliseconds (it stops sooner when it has tried everything). */
export const DEFAULT_TIME_BUDGET_MS = 8_000;
/** A key's peak times this must stay under a partition's limit (as the simulator's shard advice). */
export const DEFAULT_HEADROOM = 1.25;

export interface SolveOptions {
  /** Proposals to return (default 3). */
  top?: number;
  /** GSIs a proposal may use at most (default 5; at most 20). */
  maxGsis?: number;
  /** A pattern served by a Scan makes a proposal infeasible. */
  noScan?: boolean;
  /** Seed of the search order (default 1): the same design, options and seed give the same proposals. */
  seed?: number;
  /** The billing the proposals are priced with: the table's own (default), on-demand, or provisioned. */
  billing?: 'asIs' | 'onDemand' | 'provisioned';
  /** Proposals costing more per month than this are infeasible. */
  monthlyBudgetUsd?: number;
  /** A key's peak × headroom must stay under a partition's limit (default 1.25); over it, the key is sharded. */
  headroom?: number;
  /** Keep the entities' table key templates as they are (only indexes are proposed). */
  keepTableKey?: boolean;
  /** A proposal whose finalist simulation throttles is still feasible (default: it is not). */
  allowThrottling?: boolean;
  /** Stop the search after this many milliseconds (default 8,000); the best so far is the answer. */
  timeBudgetMs?: number;
  /** The clock (default `performance.now`-like); tests pass a fake one. */
  now?: () => number;
}

/** How one pattern is served in a proposal, and why. */
export interface PatternChoice {
  patternId: string;
  name: string;
  badge: PlanBadge;
  /** `table`, or the index's name. */
  target: string;
  keyCondition?: string;
  /** What the pattern costs per month in this proposal (the proposal's billing). */
  monthlyUsd: number;
  /** Why this request: the cheapest alternative the search priced for the pattern, and its cost. */
  why: string;
}

/** One rule of single-table design the proposal applies (docs/dynamodb-rules.md §13). */
export interface AppliedRule {
  rule: 'item-collection' | 'own-partition' | 'kept-table-key' | 'gsi' | 'overloaded-gsi' | 'inverted-index' | 'sparse-index' | 'projection' | 'multi-attribute-key' | 'write-sharding' | 'provisioned-capacity';
  text: string;
}

export interface PartitionRisk {
  /** Whether the simulated hour throttled. */
  throttles: boolean;
  /** The simulator's one-line summary of the busiest partition or the throttled keys. */
  summary: string;
}

export interface Proposal {
  rank: number;
  /** The complete design: the original with this table's keys, indexes and templates replaced. */
  design: Design;
  tableId: string;
  /** Monthly cost of the table under the proposal's billing (requests or capacity, plus storage). */
  monthlyUsd: number;
  gsiCount: number;
  /** The finalist check: undefined when the proposal was not simulated. */
  partitionRisk?: PartitionRisk;
  feasible: boolean;
  /** Why it is not feasible (a Scan under noScan, an unserved pattern, over budget, throttling). */
  problems: string[];
  rules: AppliedRule[];
  patterns: PatternChoice[];
}

export interface SolveProgress {
  /** Candidate designs priced so far. */
  evaluated: number;
  /** Candidate layouts the search may price in all: every combination when `exhaustive`; else those queued so far. */
  total: number;
  /** Whether the search prices every combination (else a local search runs until its time budget). */
  exhaustive: boolean;
  /** The best feasible monthly cost so far. */
  bestMonthlyUsd?: number;
  /** What the search is doing: `layouts`, `finalists`, `done`. */
  phase: 'layouts' | 'finalists' | 'done';
}

export interface SolveResult {
  tableId: string;
  proposals: Proposal[];
  evaluated: number;
  elapsedMs: number;
  /** When the first complete design was found, in milliseconds from the start. */
  firstDesignMs: number;
  /** The search stopped at its time budget before trying every layout. */
  stoppedEarly: boolean;
}
