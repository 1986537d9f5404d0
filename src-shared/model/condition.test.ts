import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  conditionAttributes,
  conditionValuesFor,
  evaluateCondition,
  formatCondition,
  parseCondition,
  type Condition,
  type ConditionClause,
} from './condition.ts';

function parsed(source: string): Condition {
  const r = parseCondition(source);
  if (!r.ok) throw new Error(`expected ${source} to parse: ${r.errors[0]?.message}`);
  return r.value;
}

describe('parseCondition', () => {
  it.each<[string, ConditionClause[]]>([
    ['status = "PENDING"', [{ kind: 'compare', attribute: 'status', operator: '=', value: 'PENDING' }]],
    ['status<>"X"', [{ kind: 'compare', attribute: 'status', operator: '<>', value: 'X' }]],
    ['priority = 1', [{ kind: 'compare', attribute: 'priority', operator: '=', value: 1 }]],
    ['priority >= -2.5', [{ kind: 'compare', attribute: 'priority', operator: '>=', value: -2.5 }]],
    ['n < 1e3', [{ kind: 'compare', attribute: 'n', operator: '<', value: 1000 }]],
    ['isActive = true', [{ kind: 'compare', attribute: 'isActive', operator: '=', value: true }]],
    ['status IN ("A", "B")', [{ kind: 'in', attribute: 'status', values: ['A', 'B'] }]],
    ['status in ("A")', [{ kind: 'in', attribute: 'status', values: ['A'] }]],
    ['attribute_exists(shippedAt)', [{ kind: 'exists', attribute: 'shippedAt' }]],
    ['attribute_not_exists( deletedAt )', [{ kind: 'notExists', attribute: 'deletedAt' }]],
    ['note = "say \\"hi\\" \\\\ bye"', [{ kind: 'compare', attribute: 'note', operator: '=', value: 'say "hi" \\ bye' }]],
    [
      'status = "OPEN" AND priority > 2 and attribute_exists(ownerId)',
      [
        { kind: 'compare', attribute: 'status', operator: '=', value: 'OPEN' },
        { kind: 'compare', attribute: 'priority', operator: '>', value: 2 },
        { kind: 'exists', attribute: 'ownerId' },
      ],
    ],
  ])('parses %s', (source, clauses) => {
    expect(parseCondition(source)).toEqual({ ok: true, value: { source, clauses } });
  });

  it.each<[string, string, number]>([
    ['', 'condition.empty', -1],
    ['   ', 'condition.empty', -1],
    ['status = PENDING', 'condition.syntax', 9],
    ["status = 'PENDING'", 'condition.syntax', 9],
    ['status = "PENDING', 'condition.syntax', 9],
    ['status != "X"', 'condition.syntax', 7],
    ['status', 'condition.syntax', 6],
    ['= "X"', 'condition.syntax', 0],
    ['status = "A" OR status = "B"', 'condition.syntax', 13],
    ['status = "A" status = "B"', 'condition.syntax', 13],
    ['status IN "A"', 'condition.syntax', 10],
    ['status IN ("A" "B")', 'condition.syntax', 15],
    ['status IN ()', 'condition.syntax', 11],
    ['attribute_exists(x', 'condition.syntax', 18],
    ['attribute_exists()', 'condition.syntax', 17],
    ['a = "\\n"', 'condition.syntax', 5],
    ['a = "x" AND', 'condition.syntax', 11],
    [`a IN (${Array.from({ length: 101 }, (_, i) => i).join(', ')})`, 'condition.syntax', 0],
  ])('rejects %j with %s at position %i', (source, code, position) => {
    const r = parseCondition(source, 'tables[0].entities[0].keys.GSI1PK.when');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ code, path: 'tables[0].entities[0].keys.GSI1PK.when' });
    if (position >= 0) expect(r.errors[0]?.details).toEqual({ position });
  });

  it('counts the character in the message from 1 (details.position stays 0-based)', () => {
    const r = parseCondition('status = PENDING');
    expect(r.ok ? undefined : r.errors[0]?.details).toEqual({ position: 9 });
    expect(r.ok ? '' : r.errors[0]?.message).toContain('at character 10');
  });

  it('tells the user a bare word needs quotes', () => {
    const r = parseCondition('status = PENDING');
    expect(r.ok ? '' : r.errors[0]?.message).toContain('"PENDING"');
  });
});

describe('conditionAttributes / conditionValuesFor', () => {
  it('lists each attribute once in order of use, and the values compared with one', () => {
    const c = parsed('b = 1 AND a IN ("x", "y") AND attribute_exists(b) AND b <> 2');
    expect(conditionAttributes(c)).toEqual(['b', 'a']);
    expect(conditionValuesFor(c, 'b')).toEqual([1, 2]);
    expect(conditionValuesFor(c, 'a')).toEqual(['x', 'y']);
  });
});

describe('evaluateCondition', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['status = "PENDING"', { status: 'PENDING' }, true],
    ['status = "PENDING"', { status: 'SHIPPED' }, false],
    ['status = "PENDING"', {}, false],
    ['status <> "PENDING"', { status: 'SHIPPED' }, true],
    ['status <> "PENDING"', {}, true],
    ['priority = 1', { priority: '1' }, false],
    ['priority <> 1', { priority: '1' }, true],
    ['priority > 1', { priority: 2 }, true],
    ['priority > 1', { priority: '2' }, false],
    ['priority <= 1', { priority: 1 }, true],
    ['priority < 1', {}, false],
    ['name < "b"', { name: 'a' }, true],
    ['name >= "b"', { name: 'ba' }, true],
    ['name > "\uffff"', { name: '😀' }, true],
    ['flag > true', { flag: true }, false],
    ['flag = true', { flag: true }, true],
    ['status IN ("A", "B")', { status: 'B' }, true],
    ['status IN ("A", "B")', { status: 'C' }, false],
    ['status IN ("A", 1)', { status: 1 }, true],
    ['attribute_exists(x)', { x: null }, true],
    ['attribute_exists(x)', {}, false],
    ['attribute_not_exists(x)', {}, true],
    ['attribute_not_exists(toString)', {}, true],
    ['a = 1 AND b = 2', { a: 1, b: 2 }, true],
    ['a = 1 AND b = 2', { a: 1, b: 3 }, false],
  ])('%s on %j is %s', (source, item, expected) => {
    expect(evaluateCondition(parsed(source), item)).toBe(expected);
  });
});

const nameArb = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,8}$/).filter((n) => !/^(in|and|or)$/i.test(n));
// -0 is left out: a condition's text writes it as 0, the same number to DynamoDB, which compares
// numbers by value (Object.is would tell them apart).
const valueArb = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)), fc.boolean());
const clauseArb: fc.Arbitrary<ConditionClause> = fc.oneof(
  fc.record({
    kind: fc.constant('compare' as const),
    attribute: nameArb,
    operator: fc.constantFrom('=' as const, '<>' as const, '<' as const, '<=' as const, '>' as const, '>=' as const),
    value: valueArb,
  }),
  fc.record({ kind: fc.constant('in' as const), attribute: nameArb, values: fc.array(valueArb, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('exists' as const), attribute: nameArb }),
  fc.record({ kind: fc.constant('notExists' as const), attribute: nameArb }),
);

describe('condition properties', () => {
  it('parse(format(clauses)) gives back the clauses', () => {
    fc.assert(
      fc.property(fc.array(clauseArb, { minLength: 1, maxLength: 4 }), (clauses) => {
        const source = formatCondition(clauses);
        const r = parseCondition(source);
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.value.clauses).toEqual(clauses.map((c) => (c.kind === 'compare' && Object.is(c.value, -0) ? { ...c, value: 0 } : c)));
      }),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => void parseCondition(s)));
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '=', '<', '>', '"', '(', ')', ',', '1', 'AND ', 'IN ', '\\'), maxLength: 16 }), (s) => {
        const r = parseCondition(s);
        if (!r.ok) expect(r.errors).toHaveLength(1);
      }),
      { numRuns: 2000 },
    );
  });
});
