import { describe, expect, it } from 'vitest';
import { toYaml, yamlString } from './yaml.ts';

describe('yaml', () => {
  it.each([
    ['Shop', 'Shop'],
    ['AWS::DynamoDB::Table', 'AWS::DynamoDB::Table'],
    ['alias/shop-key', 'alias/shop-key'],
    ['N', '"N"'],
    ['y', '"y"'],
    ['off', '"off"'],
    ['True', '"True"'],
    ['null', '"null"'],
    ['2010-09-09', '"2010-09-09"'],
    ['42', '"42"'],
    ['1e3', '"1e3"'],
    ['', '""'],
    ['a: b', '"a: b"'],
    ['key:', '"key:"'],
    ['#comment', '"#comment"'],
    ['- item', '"- item"'],
    ['line\nbreak', '"line\\nbreak"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['a\uD800b', '"a\uFFFDb"'],
  ])('writes %j as %s', (text, expected) => {
    expect(yamlString(text)).toBe(expected);
  });

  it('writes nested objects and lists in block style', () => {
    expect(toYaml({ a: [{ b: 1, c: [true, 'x'] }, [1, 2]], d: {}, e: [], f: null })).toBe(
      'a:\n  - b: 1\n    c:\n      - true\n      - x\n  - - 1\n    - 2\nd: {}\ne: []\nf: null\n',
    );
  });
});
