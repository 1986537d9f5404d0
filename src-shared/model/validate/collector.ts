/** The list of problems the DynamoDB-rule checks fill, one pass over the design. */
import type { KeyTemplateErrorCode } from '../key-template.ts';
import type { ModelErrorCode, Problem } from '../problems.ts';
import { describeValue } from './wording.ts';

/** The codes the DynamoDB-rule checks raise. */
export type Code = ModelErrorCode | KeyTemplateErrorCode;

/** Collects problems: `add` one with its code, path and message; `number` checks a numeric field. */
export class Collector {
  readonly problems: Problem[] = [];

  add(code: Code, path: string, message: string, found?: string, expected?: string): void {
    const problem: Problem = { code, path, message };
    if (found !== undefined) problem.found = found;
    if (expected !== undefined) problem.expected = expected;
    this.problems.push(problem);
  }

  /** Reports `value` unless it is a whole number ≥ `min` (or any finite number ≥ min when `isInteger` is false). */
  number(value: number, path: string, min: number, what: string, isInteger = true): void {
    const isValid = Number.isFinite(value) && value >= min && (!isInteger || Number.isInteger(value));
    if (isValid) return;
    const expected = `${isInteger ? 'a whole number' : 'a number'} ≥ ${min}`;
    this.add('model.invalidNumber', path, `${what} is ${describeValue(value)}; expected ${expected}.`, describeValue(value), expected);
  }
}
