import { describe, expect, test } from 'vitest';
import { findJsonErrorOffset, lineAndColumn } from './json-error-position.ts';

describe('findJsonErrorOffset', () => {
  test.each([
    ['a missing value', '{"a": }', 6],
    ['a trailing comma', '{"a": 1,}', 8],
    ['a missing comma', '[1 2]', 3],
    ['an unquoted key', '{a: 1}', 1],
    ['an unterminated string', '"abc', 4],
    ['a bad escape', '"a\\x"', 3],
    ['a leading zero', '01', 1],
    ['text after the value', '{} x', 3],
    ['an empty text', '', 0],
    ['a truncated document', '{"a": [1, 2', 11],
    ['a bare word', 'nope', 0],
  ])('finds %s', (_what, text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonErrorOffset(text)).toBe(offset);
  });

  test.each(['{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]}', ' [] ', '"\\"quoted\\""'])('accepts valid JSON %s', (text) => {
    expect(findJsonErrorOffset(text)).toBeUndefined();
  });

  test('converts an offset to a line and column from 1', () => {
    expect(lineAndColumn('{\n  "a": }', 9)).toEqual({ line: 2, column: 8 });
    expect(lineAndColumn('x', 0)).toEqual({ line: 1, column: 1 });
  });
});
