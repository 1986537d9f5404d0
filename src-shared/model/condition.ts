/**
 * Sparse-by-predicate conditions: the `when` of a key binding, e.g. `status = "PENDING"`. An item
 * carries the key attribute only when the condition holds, so only those items appear in the index.
 *
 * More on its rules: docs/modules.md, "src-shared/model/condition.ts".
 */
import { ok, fail, type Result } from '../errors.ts';
import { utf8ByteLength } from './key-template.ts';
import type { Problem } from './problems.ts';
import { clipText, excerptAround, formatProblemCount } from './quoted-text.ts';

/** Codes of the problems conditions raise (here and in `validate.ts`). */
export type ConditionErrorCode =
  | 'condition.empty'
  | 'condition.tooLong'
  | 'condition.syntax'
  | 'condition.unknownAttribute'
  | 'condition.typeMismatch'
  | 'condition.onTableKey';

/** A literal value in a condition. */
export type ConditionValue = string | number | boolean;

/** The comparison operators a condition accepts. */
export type ComparisonOperator = '=' | '<>' | '<' | '<=' | '>' | '>=';

/** One clause; a condition holds when all of its clauses hold. */
export type ConditionClause =
  | { kind: 'compare'; attribute: string; operator: ComparisonOperator; value: ConditionValue }
  | { kind: 'in'; attribute: string; values: ConditionValue[] }
  | { kind: 'exists'; attribute: string }
  | { kind: 'notExists'; attribute: string };

/** A parsed condition: the clauses joined with AND. */
export interface Condition {
  source: string;
  clauses: ConditionClause[];
}

/** DynamoDB accepts at most 100 operands for `IN`. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html */
export const MAX_IN_OPERANDS = 100;

/**
 * The longest condition accepted, in UTF-8 bytes: DynamoDB's limit for any expression string, 4 KB
 * = 4,096 bytes ("the size of the ConditionExpression a=b is 3 bytes"; docs/dynamodb-rules.md §7).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
 * A pattern's filter becomes a FilterExpression; a `when` is never sent, but a predicate longer than
 * any expression DynamoDB takes is not one a design needs. Checked before parsing.
 */
export const MAX_CONDITION_BYTES = 4096;

type Token =
  | { kind: 'name'; text: string; at: number }
  | { kind: 'string'; value: string; at: number; text: string }
  | { kind: 'number'; value: number; at: number; text: string }
  | { kind: 'punct'; text: '=' | '<>' | '<' | '<=' | '>' | '>=' | '(' | ')' | ','; at: number }
  | { kind: 'end'; at: number };

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_.-]/;
// Sticky: matched at `lastIndex` in the source itself, without slicing the rest of it off per token.
const NUMBER = /-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

class ConditionSyntaxError {
  constructor(
    readonly at: number,
    readonly what: string,
    readonly expected: string,
    readonly found: string,
  ) {}
}

function tokenize(s: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i] ?? '';
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (NAME_START.test(c)) {
      const start = i;
      while (i < s.length && NAME_CHAR.test(s[i] ?? '')) i += 1;
      tokens.push({ kind: 'name', text: s.slice(start, i), at: start });
      continue;
    }
    if (c === '"') {
      const start = i;
      let value = '';
      i += 1;
      for (;;) {
        if (i >= s.length) {
          throw new ConditionSyntaxError(start, 'unterminated string', 'a closing "', 'the end of the condition');
        }
        const d = s[i];
        if (d === '"') break;
        if (d === '\\') {
          const e = s[i + 1];
          if (e !== '"' && e !== '\\') {
            throw new ConditionSyntaxError(i, 'unknown escape in a string', '\\" or \\\\', JSON.stringify('\\' + (e ?? '')));
          }
          value += e;
          i += 2;
          continue;
        }
        value += d;
        i += 1;
      }
      i += 1;
      tokens.push({ kind: 'string', value, at: start, text: s.slice(start, i) });
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(s);
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0]), at: i, text: number[0] });
      i += number[0].length;
      continue;
    }
    const two = s.slice(i, i + 2);
    if (two === '<>' || two === '<=' || two === '>=') {
      tokens.push({ kind: 'punct', text: two, at: i });
      i += 2;
      continue;
    }
    if (c === '=' || c === '<' || c === '>' || c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: 'punct', text: c, at: i });
      i += 1;
      continue;
    }
    const hint = c === '!' && s[i + 1] === '=' ? ' (write <> for "not equal")' : c === "'" ? ' (strings take double quotes)' : '';
    throw new ConditionSyntaxError(i, `unexpected ${JSON.stringify(c)}${hint}`, 'a name, a value or an operator', JSON.stringify(c));
  }
  tokens.push({ kind: 'end', at: s.length });
  return tokens;
}

const describeToken = (t: Token): string => (t.kind === 'end' ? 'the end of the condition' : JSON.stringify(clipText(t.text)));

const VALUE_EXPECTED = 'a value: a "double-quoted string", a number, true or false';

function parseTokens(tokens: Token[]): ConditionClause[] {
  let k = 0;
  const peek = (): Token => tokens[k] ?? { kind: 'end', at: 0 };
  const next = (): Token => {
    const t = peek();
    k += 1;
    return t;
  };
  const expectPunct = (text: string, expected: string): void => {
    const t = next();
    if (t.kind !== 'punct' || t.text !== text) {
      throw new ConditionSyntaxError(t.at, `missing ${expected}`, expected, describeToken(t));
    }
  };
  const parseValue = (): ConditionValue => {
    const t = next();
    if (t.kind === 'string' || t.kind === 'number') return t.value;
    if (t.kind === 'name' && (t.text === 'true' || t.text === 'false')) return t.text === 'true';
    const hint = t.kind === 'name' ? ` (a string needs double quotes: ${JSON.stringify(clipText(t.text))})` : '';
    throw new ConditionSyntaxError(t.at, `missing value${hint}`, VALUE_EXPECTED, describeToken(t));
  };

  const clauses: ConditionClause[] = [];
  for (;;) {
    const first = next();
    if (first.kind !== 'name') {
      throw new ConditionSyntaxError(
        first.at,
        'missing attribute name',
        'an attribute name, attribute_exists(name) or attribute_not_exists(name)',
        describeToken(first),
      );
    }
    const after = peek();
    if ((first.text === 'attribute_exists' || first.text === 'attribute_not_exists') && after.kind === 'punct' && after.text === '(') {
      next();
      const name = next();
      if (name.kind !== 'name') {
        throw new ConditionSyntaxError(name.at, 'missing attribute name', `an attribute name inside ${first.text}(...)`, describeToken(name));
      }
      expectPunct(')', `")" to close ${first.text}(`);
      clauses.push({ kind: first.text === 'attribute_exists' ? 'exists' : 'notExists', attribute: name.text });
    } else if (after.kind === 'name' && after.text.toUpperCase() === 'IN') {
      next();
      expectPunct('(', '"(" after IN');
      const values: ConditionValue[] = [parseValue()];
      for (;;) {
        const sep = next();
        if (sep.kind === 'punct' && sep.text === ')') break;
        if (sep.kind !== 'punct' || sep.text !== ',') {
          throw new ConditionSyntaxError(sep.at, 'missing "," or ")" in the IN list', '"," and another value, or ")"', describeToken(sep));
        }
        values.push(parseValue());
      }
      if (values.length > MAX_IN_OPERANDS) {
        throw new ConditionSyntaxError(first.at, `IN has ${values.length} values`, `at most ${MAX_IN_OPERANDS} values`, `${values.length} values`);
      }
      clauses.push({ kind: 'in', attribute: first.text, values });
    } else if (after.kind === 'punct' && after.text !== '(' && after.text !== ')' && after.text !== ',') {
      next();
      clauses.push({ kind: 'compare', attribute: first.text, operator: after.text, value: parseValue() });
    } else {
      throw new ConditionSyntaxError(
        after.at,
        `missing operator after ${JSON.stringify(clipText(first.text))}`,
        'one of =, <>, <, <=, >, >=, IN',
        describeToken(after),
      );
    }

    const joiner = next();
    if (joiner.kind === 'end') return clauses;
    if (joiner.kind !== 'name' || joiner.text.toUpperCase() !== 'AND') {
      const hint = joiner.kind === 'name' && joiner.text.toUpperCase() === 'OR' ? ' (OR is not supported; only AND)' : '';
      throw new ConditionSyntaxError(joiner.at, `unexpected ${describeToken(joiner)}${hint}`, '"AND" or the end of the condition', describeToken(joiner));
    }
  }
}

/**
 * Parses a condition. Errors: `condition.empty` (blank), `condition.tooLong` (over
 * `MAX_CONDITION_BYTES` bytes of UTF-8, refused before parsing; `details.bytes` is its size),
 * `condition.syntax` with the 0-based index of the offending character in `details.position` (the
 * message counts characters from 1, as people do, and quotes about 80 characters around it). Never
 * throws; linear in the condition's length.
 */
export function parseCondition(source: string, path = ''): Result<Condition, Problem> {
  if (source.trim() === '') {
    return fail([
      {
        code: 'condition.empty',
        path,
        message: 'Condition is empty; expected a predicate such as status = "PENDING", or no condition at all.',
        found: 'an empty condition',
        expected: 'a predicate such as status = "PENDING"',
      },
    ]);
  }
  // Every UTF-16 code unit is at least one UTF-8 byte: a longer source is over without counting.
  if (source.length > MAX_CONDITION_BYTES || utf8ByteLength(source) > MAX_CONDITION_BYTES) {
    const bytes = utf8ByteLength(source);
    return fail([
      {
        code: 'condition.tooLong',
        path,
        message: `Condition ${JSON.stringify(clipText(source))} is ${formatProblemCount(bytes)} bytes of UTF-8; expected at most ${formatProblemCount(MAX_CONDITION_BYTES)} bytes, DynamoDB's limit for an expression (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html). It was not parsed.`,
        found: `${formatProblemCount(bytes)} bytes`,
        expected: `at most ${formatProblemCount(MAX_CONDITION_BYTES)} bytes`,
        details: { bytes },
      },
    ]);
  }
  try {
    return ok({ source, clauses: parseTokens(tokenize(source)) });
  } catch (error) {
    if (!(error instanceof ConditionSyntaxError)) throw error;
    return fail([
      {
        code: 'condition.syntax',
        path,
        message: `Condition ${JSON.stringify(excerptAround(source, error.at))}: ${error.what} at character ${error.at + 1}; expected ${error.expected}, found ${error.found}.`,
        found: error.found,
        expected: error.expected,
        details: { position: error.at },
      },
    ]);
  }
}

/** Writes a value as condition source. */
export function formatConditionValue(v: ConditionValue): string {
  return typeof v === 'string' ? `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"` : String(v);
}

/** Writes a condition's clauses back as source, in a normal form that `parseCondition` reads back. */
export function formatCondition(clauses: readonly ConditionClause[]): string {
  return clauses
    .map((c) => {
      switch (c.kind) {
        case 'compare':
          return `${c.attribute} ${c.operator} ${formatConditionValue(c.value)}`;
        case 'in':
          return `${c.attribute} IN (${c.values.map(formatConditionValue).join(', ')})`;
        case 'exists':
          return `attribute_exists(${c.attribute})`;
        case 'notExists':
          return `attribute_not_exists(${c.attribute})`;
      }
    })
    .join(' AND ');
}

/** The attribute names a condition reads, in order of first use, without repeats. */
export function conditionAttributes(c: Condition): string[] {
  const names = new Set<string>();
  for (const clause of c.clauses) names.add(clause.attribute);
  return [...names];
}

/**
 * The literal values a condition compares each attribute with, by attribute in order of first use
 * (an attribute only tested with `attribute_exists` has an empty list): one pass over the clauses.
 */
export function conditionValuesByAttribute(c: Condition): Map<string, ConditionValue[]> {
  const values = new Map<string, ConditionValue[]>();
  for (const clause of c.clauses) {
    let list = values.get(clause.attribute);
    if (!list) {
      list = [];
      values.set(clause.attribute, list);
    }
    if (clause.kind === 'compare') list.push(clause.value);
    else if (clause.kind === 'in') for (const v of clause.values) list.push(v);
  }
  return values;
}

/** The literal values a condition compares an attribute with (to check their types against it). */
export function conditionValuesFor(c: Condition, attribute: string): ConditionValue[] {
  const values: ConditionValue[] = [];
  for (const clause of c.clauses) {
    if (clause.attribute !== attribute) continue;
    if (clause.kind === 'compare') values.push(clause.value);
    else if (clause.kind === 'in') values.push(...clause.values);
  }
  return values;
}

/** Compares two strings by code point: -1, 0 or 1. */
function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
}

function compare(actual: unknown, operator: ComparisonOperator, expected: ConditionValue): boolean {
  const sameType = actual !== undefined && actual !== null && typeof actual === typeof expected;
  if (operator === '=') return sameType && actual === expected;
  if (operator === '<>') return !(sameType && actual === expected);
  if (!sameType || typeof expected === 'boolean') return false;
  const order = typeof expected === 'number' ? Math.sign((actual as number) - expected) : compareCodePoints(actual as string, expected);
  switch (operator) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
  }
}

/** Whether an item (attribute name to value) satisfies the condition: every clause holds. */
export function evaluateCondition(c: Condition, item: Readonly<Record<string, unknown>>): boolean {
  return c.clauses.every((clause) => {
    const value = Object.hasOwn(item, clause.attribute) ? item[clause.attribute] : undefined;
    switch (clause.kind) {
      case 'exists':
        return value !== undefined;
      case 'notExists':
        return value === undefined;
      case 'compare':
        return compare(value, clause.operator, clause.value);
      case 'in':
        return clause.values.some((v) => compare(value, '=', v));
    }
  });
}
