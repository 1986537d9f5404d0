/**
 * The key-design solver: proposes complete single-table key designs for a table's entities and
 * access patterns (docs/dynamodb-rules.md §13). Pure and deterministic for a seed; the host runs it
 * in its worker pool, stepping `createSolver` for progress and cancel.
 */
export * from './types.ts';
export { createSolver, solve, type Solver } from './solve.ts';
export { EXHAUSTIVE_LIMIT } from './search.ts';
export { identityOf, layoutsOf, prefixOf, type Layout } from './layouts.ts';
export { stripKeyDesign } from './strip.ts';
export { inputCost, type InputCost } from './evaluate.ts';
