/**
 * One solve's settings and clock, resolved from its options once: the design and table it solves,
 * the options with their defaults and bounds, the seeded generator of the search order, and the
 * time budget the search and the finalists' checks run against.
 */
import type { Design, Table } from '../model/index.ts';
import { createRandom, type Random } from '../partition/index.ts';
import { DEFAULT_MAX_GSIS, DEFAULT_TIME_BUDGET_MS, DEFAULT_TOP, type SolveOptions } from './types.ts';

export interface SolveContext {
  design: Design;
  table: Table;
  tableId: string;
  /** The options, `maxGsis` set and bounded to 0–20. */
  settings: SolveOptions;
  /** Proposals to return, at least 1. */
  top: number;
  random: Random;
  /** The clock, in milliseconds; `started` its reading when the solve began. */
  now: () => number;
  started: number;
  /** The search's time budget in milliseconds. */
  budget: number;
}

const monotonicNow = (): number => (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

/** The context of a solve of table `tableId`. Throws when the design has no such table (callers check that first). */
export function createContext(design: Design, tableId: string, options: SolveOptions): SolveContext {
  const table = design.tables.find((t) => t.id === tableId);
  if (!table) throw new Error(`Design "${design.name}" has no table with id "${tableId}".`);
  const now = options.now ?? monotonicNow;
  return {
    design,
    table,
    tableId,
    started: now(),
    now,
    budget: options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS,
    top: Math.max(1, options.top ?? DEFAULT_TOP),
    settings: { ...options, maxGsis: Math.min(20, Math.max(0, options.maxGsis ?? DEFAULT_MAX_GSIS)) },
    random: createRandom(options.seed ?? 1),
  };
}
