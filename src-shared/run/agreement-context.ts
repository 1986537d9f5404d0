/**
 * What the parts of a comparison (`agreement.ts`, `agreement-rule.ts`, `agreement-checks.ts`)
 * share: the pattern's context (its operation, the table's keys and indexes, the engine), and the
 * arithmetic on units by target (`table`, or a GSI's name).
 */
import type { AgreementOptions, PatternRun, RunIndex, RunOperation } from './types.ts';

/** Two unit figures agree when they differ by at most a hundredth of a unit. */
export const UNIT_TOLERANCE = 0.01;

/** What every part of the comparison reads about the pattern and the table. */
export interface Context {
  pattern: PatternRun;
  operation: RunOperation;
  tableKeys: readonly string[];
  indexes: readonly RunIndex[];
  lsiNames: ReadonlySet<string>;
  isDynalite: boolean;
  /** Where the pattern's reads are charged: the queried target, an LSI folded into `table`. */
  readTarget: string;
}

/** The context of one pattern's comparison. */
export function contextOf(pattern: PatternRun, options: AgreementOptions): Context {
  const lsiNames = new Set(options.table.indexes.filter((i) => i.kind === 'lsi').map((i) => i.name));
  return {
    pattern,
    operation: pattern.operation,
    tableKeys: options.table.keyAttributes,
    indexes: options.table.indexes,
    lsiNames,
    isDynalite: options.capabilities.isDynalite,
    readTarget: lsiNames.has(pattern.target) ? 'table' : pattern.target,
  };
}

/** A paged read: its units are its pages'. */
export const isQueryOrScan = (op: RunOperation): boolean => op === 'Query' || op === 'Scan';
/** A write: its units are the item's and its index entries', before and after. */
export const isWrite = (op: RunOperation): boolean => op === 'PutItem' || op === 'UpdateItem' || op === 'DeleteItem' || op === 'TransactWriteItems';

/** An LSI's units count on the table (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html). */
export const foldTarget = (ctx: Context, target: string): string => (ctx.lsiNames.has(target) ? 'table' : target);

/** The sum of `values`. */
export const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** Rounds away floating-point noise (0.1 + 0.2) so a mean reads as the number it is. */
export const round = (n: number): number => Math.round(n * 1e6) / 1e6;

/** The mean of `values`, rounded (`round`); 0 for none. */
export const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : round(sum(values) / values.length));

/** Adds `value` to `record[key]` (0 when absent). */
export function add(record: Record<string, number>, key: string, value: number): void {
  record[key] = (record[key] ?? 0) + value;
}

/** The mean per key over `records`, a missing key counting 0. */
export function meanRecord(records: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const total: Record<string, number> = {};
  for (const r of records) for (const [k, v] of Object.entries(r)) add(total, k, v);
  return Object.fromEntries(Object.entries(total).map(([k, v]) => [k, round(v / Math.max(1, records.length))]));
}

/** The targets with units: a target reported at 0 (dynalite's table on a GSI query) is no target. */
export function positive(units: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(units).filter(([, v]) => v > 0));
}

/** Every target named in any of `records`. */
export const targetsOf = (...records: ReadonlyArray<Record<string, number>>): string[] => [...new Set(records.flatMap((r) => Object.keys(r)))];

/** Equal to a hundredth of a unit on every target (a missing target counts 0). */
export function sameUnits(a: Record<string, number>, b: Record<string, number>): boolean {
  return targetsOf(a, b).every((t) => Math.abs((a[t] ?? 0) - (b[t] ?? 0)) <= UNIT_TOLERANCE);
}
