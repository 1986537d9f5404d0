/**
 * The key-design solver: given a table's entities and access patterns, proposes the best complete
 * single-table key designs (docs/dynamodb-rules.md §13).
 *
 * More on its rules: docs/modules.md, "src-shared/solver/solve.ts".
 */
import type { Design } from '../model/index.ts';
import { createContext } from './context.ts';
import { FinalistCheck } from './finalists.ts';
import { proposalOf, RequestLedger } from './proposals.ts';
import { LayoutSearch } from './search.ts';
import type { Proposal, SolveOptions, SolveProgress, SolveResult } from './types.ts';

/** Candidates priced per `step` of the search. */
const CANDIDATES_PER_STEP = 4;

/** A solver to step: the host steps it in a worker, reporting progress and stopping on cancel. */
export interface Solver {
  /** Prices a few more candidates (or runs the finalists); false when the search is over. */
  step(): boolean;
  progress(): SolveProgress;
  /** The best proposals so far (complete designs at every moment after the first step). */
  result(): SolveResult;
}

/**
 * A solver of table `tableId` of `design`. Throws when the design has no such table (callers check
 * that first).
 */
export function createSolver(design: Design, tableId: string, options: SolveOptions = {}): Solver {
  const context = createContext(design, tableId, options);
  const { now, started, budget, top } = context;
  const ledger = new RequestLedger();
  const search = new LayoutSearch(context, ledger);
  let phase: SolveProgress['phase'] = 'layouts';
  let stoppedEarly = false;
  // The finalists are checked one per step, so that a cancel between steps stops the simulations too.
  let finalists: FinalistCheck | undefined;
  let proposals: Proposal[] | undefined;

  /** Checks the next finalist; once every one is checked, the proposals are ranked and the solve is done. */
  const checkFinalist = (): boolean => {
    finalists ??= new FinalistCheck(context, search.ranked);
    if (finalists.next()) return true;
    proposals = finalists.checked.map((o, i) => proposalOf(o.c, i + 1, tableId, ledger, o.risk, o.rules));
    phase = 'done';
    return false;
  };

  return {
    step() {
      if (phase === 'done') return false;
      if (phase === 'finalists') return checkFinalist();
      for (let n = 0; n < CANDIDATES_PER_STEP; n += 1) {
        if (search.evaluated > 0 && now() - started >= budget) {
          stoppedEarly = search.hasMore;
          phase = 'finalists';
          return true;
        }
        if (!search.next()) {
          phase = 'finalists';
          return true;
        }
      }
      return true;
    },
    progress() {
      const best = search.ranked.find((c) => c.feasible);
      const { evaluated, exhaustive } = search;
      return { evaluated, total: exhaustive ? search.total : Math.max(evaluated + search.queued, evaluated), exhaustive, ...(best ? { bestMonthlyUsd: best.monthlyUsd } : {}), phase };
    },
    result() {
      return {
        tableId,
        proposals: proposals ?? search.ranked.slice(0, top).map((c, i) => proposalOf(c, i + 1, tableId, ledger)),
        evaluated: search.evaluated,
        elapsedMs: now() - started,
        firstDesignMs: Math.max(0, search.firstDesignMs),
        stoppedEarly,
      };
    },
  };
}

/** Runs the solver to the end. */
export function solve(design: Design, tableId: string, options: SolveOptions = {}): SolveResult {
  const solver = createSolver(design, tableId, options);
  while (solver.step());
  return solver.result();
}
