/**
 * A number shown to a user, with its derivation as data: each step names what it computes, the
 * expression with the numbers filled in, and its result. The UI renders the steps when a number is
 * clicked; the CLI prints them with `--explain`; tests assert on them.
 *
 * Example, a Query reading 10,000 items of 1 KB, eventually consistent:
 *   Bytes read        10,000 items × 1,024 B            = 10,240,000 B
 *   Pages             ceil(10,240,000 B / 1,048,576 B)   = 10 pages
 *   Read units        Σ per page ceil(page bytes / 4 KB) = 2,500 units
 *   Eventual          2,500 × 0.5                        = 1,250 RCU
 */

import type { DocSource } from './sources.ts';
import { formatNumber } from '../numbers/index.ts';

export type Unit =
  | 'B'
  | 'B/s'
  | 'items'
  | 'pages'
  | 'requests'
  | 'units'
  | 'RCU'
  | 'WCU'
  | 'RRU'
  | 'WRU'
  | 'requests/s'
  | 'RCU/s'
  | 'WCU/s'
  | 'GB'
  | 'USD'
  | 'USD/month'
  | 'hours'
  | 'partitions'
  | 'writes'
  | 'ratio'
  | '';

export interface Step {
  /** What this step computes, in DynamoDB's words ("Read units, rounded up to 4 KB per page"). */
  label: string;
  /** The arithmetic with the numbers filled in ("ceil(10,240,000 B / 4,096 B)"). */
  expression: string;
  value: number;
  unit: Unit;
  /** The AWS documentation page the rule comes from. */
  source?: DocSource;
}

export interface Figure {
  value: number;
  unit: Unit;
  /**
   * The derivation. A figure made by `lazyFigure` builds it (and formats its text) on first read and
   * keeps it; to every reader, `JSON.stringify` and deep equality included, it is a plain array.
   */
  steps: Step[];
  /** Modeling assumptions the number rests on (docs/dynamodb-rules.md §10), shown beside it. */
  assumptions: string[];
}

/** A figure with no derivation beyond its value (an input the user gave). */
export function given(value: number, unit: Unit, label: string): Figure {
  return { value, unit, steps: [{ label, expression: formatNumber(value), value, unit }], assumptions: [] };
}

/** A figure whose value is its last step's. */
export function figure(steps: Step[], assumptions: string[] = []): Figure {
  const last = steps.at(-1);
  if (!last) throw new Error('A figure needs at least one step.');
  return { value: last.value, unit: last.unit, steps, assumptions };
}

/**
 * A figure whose steps are built when first read: its value and unit are known now, the text of its
 * derivation only when someone opens it (the costs of a large design format tens of thousands of
 * numbers that nobody reads). `build` must return the steps `figure(build())` would show, the last
 * one carrying `value` and `unit`; it runs at most once, and reads only values fixed when it was made.
 */
export function lazyFigure(value: number, unit: Unit, build: () => Step[], assumptions: string[] = []): Figure {
  let steps: Step[] | undefined;
  return {
    value,
    unit,
    get steps(): Step[] {
      return (steps ??= build());
    },
    set steps(next: Step[]) {
      steps = next;
    },
    assumptions,
  };
}

// Numbers are written by the one format module (cached formatters); re-exported for the figures' users.
export { formatNumber, formatUnits } from '../numbers/index.ts';

const SINGULAR: Partial<Record<Unit, string>> = { items: 'item', pages: 'page', units: 'unit', requests: 'request', partitions: 'partition', writes: 'write', hours: 'hour' };

/** A step's unit as shown beside its value: singular for exactly 1 (`1 page`, `2 pages`). */
export function unitLabel(value: number, unit: Unit): string {
  return value === 1 ? (SINGULAR[unit] ?? unit) : unit;
}
