/**
 * The list of problems the DynamoDB-rule checks fill, one pass over the design. Repeats of one kind of
 * problem in one field (same code, same path: a template naming the same unknown attribute 4,000
 * times) collapse into the first, which says how many more there were, so the list grows with the
 * number of fields at fault, never with the square of the input.
 */
import type { ConditionErrorCode } from '../condition.ts';
import type { KeyTemplateErrorCode } from '../key-template.ts';
import type { ModelErrorCode, Problem } from '../problems.ts';
import { clipText, formatProblemCount } from '../quoted-text.ts';
import { describeValue, isRecord } from './wording.ts';

/** The codes the DynamoDB-rule checks raise. */
export type Code = ModelErrorCode | ConditionErrorCode | KeyTemplateErrorCode;

/**
 * The longest message a problem keeps: a backstop, since every check already quotes at most 80
 * characters of user text and lists at most 12 names.
 */
export const MAX_MESSAGE_CHARS = 2000;
/** The longest `found` or `expected` a problem keeps (same backstop). */
export const MAX_FIELD_CHARS = 400;
/** Other `found` values a collapsed problem shows beside its own. */
const MAX_EXAMPLES = 3;
/**
 * The most problems listed; the rest are counted in one last problem (`model.moreProblems`). Nobody
 * reads a thousand problems, and a hostile design must not make the list grow with its size.
 */
export const MAX_PROBLEMS = 1000;
/** Each part of a path keeps at most this many characters: more than any name DynamoDB limits to 255, less than a hostile 64 KB attribute name. */
const MAX_PATH_PART_CHARS = 300;

interface Entry {
  problem: Problem;
  more: number;
  examples: string[];
}

/** Collects problems: `add` one with its code, path and message; `number` checks a numeric field. */
export class Collector {
  readonly #entries = new Map<string, Entry>();

  add(code: Code, path: string, message: string, found?: string, expected?: string, details?: unknown): void {
    const problem: Problem = { code, path, message };
    if (found !== undefined) problem.found = found;
    if (expected !== undefined) problem.expected = expected;
    if (details !== undefined) problem.details = details;
    this.push(problem);
  }

  /** Adds a problem made elsewhere (a template's or a condition's parse error). */
  push(problem: Problem): void {
    const key = `${problem.code}\u0000${problem.path}`;
    const entry = this.#entries.get(key);
    if (!entry) {
      this.#entries.set(key, { problem, more: 0, examples: [] });
      return;
    }
    entry.more += 1;
    const found = problem.found;
    if (found !== undefined && found !== entry.problem.found && entry.examples.length < MAX_EXAMPLES && !entry.examples.includes(found)) {
      entry.examples.push(clipText(found, 90));
    }
  }

  /** Every problem, in the order first found; repeats collapsed into their first (`details.more` counts them). */
  get problems(): Problem[] {
    const entries = [...this.#entries.values()];
    const listed = entries.slice(0, MAX_PROBLEMS).map(finish);
    if (entries.length <= MAX_PROBLEMS) return listed;
    const rest = entries.length - MAX_PROBLEMS;
    return [
      ...listed,
      {
        code: 'model.moreProblems',
        path: '',
        message: `… and ${formatProblemCount(rest)} more problem${rest === 1 ? '' : 's'} not listed. Fix the ones above first; the list shows at most ${formatProblemCount(MAX_PROBLEMS)}.`,
        details: { more: rest },
      },
    ];
  }

  /** Reports `value` unless it is a whole number ≥ `min` (or any finite number ≥ min when `isInteger` is false). */
  number(value: number, path: string, min: number, what: string, isInteger = true): void {
    const isValid = Number.isFinite(value) && value >= min && (!isInteger || Number.isInteger(value));
    if (isValid) return;
    const expected = `${isInteger ? 'a whole number' : 'a number'} ≥ ${min}`;
    this.add('model.invalidNumber', path, `${what} is ${describeValue(value)}; expected ${expected}.`, describeValue(value), expected);
  }
}

/** `… and 4,211 more like it ("b", "c", …).` appended to a repeated problem; every text field capped. */
function finish({ problem, more, examples }: Entry): Problem {
  const out: Problem = { ...problem, path: clipPath(problem.path), message: clipText(problem.message, MAX_MESSAGE_CHARS) };
  if (problem.found !== undefined) out.found = clipText(problem.found, MAX_FIELD_CHARS);
  if (problem.expected !== undefined) out.expected = clipText(problem.expected, MAX_FIELD_CHARS);
  if (more === 0) return out;
  const others = examples.length === 0 ? '' : ` (${examples.join(', ')}${more > examples.length ? ', …' : ''})`;
  out.message = `${out.message} … and ${formatProblemCount(more)} more like it${others}.`;
  out.details = isRecord(problem.details) ? { ...problem.details, more } : problem.details === undefined ? { more } : problem.details;
  return out;
}

/** A path whose parts are user-chosen names (`keys.<attribute>`), each part clipped to 300 characters. */
function clipPath(path: string): string {
  if (path.length <= MAX_PATH_PART_CHARS) return path;
  return path
    .split('.')
    .map((part) => clipText(part, MAX_PATH_PART_CHARS))
    .join('.');
}
