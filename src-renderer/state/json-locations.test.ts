import { describe, expect, test } from 'vitest';
import { locateJsonValues, rangeOfPath } from './json-locations.ts';

const text = JSON.stringify(
  {
    name: 'Shop',
    tables: [{ entities: [{ name: 'User', keys: { PK: { template: 'USER#{id}' }, 'GSI 1': { template: 'x' } } }] }],
    flags: [true, null, -1.5e3],
  },
  null,
  2,
);

const marked = (path: string) => {
  const { start, end } = rangeOfPath(text, locateJsonValues(text), path);
  return text.slice(start, end);
};

describe('locating design paths in JSON text', () => {
  test('a scalar value is marked itself', () => {
    expect(marked('name')).toBe('"Shop"');
    expect(marked('tables[0].entities[0].keys.PK.template')).toBe('"USER#{id}"');
    expect(marked('flags[2]')).toBe('-1500');
    expect(marked('flags[1]')).toBe('null');
  });

  test('an object property is marked by its name, a list item by its first line', () => {
    expect(marked('tables[0].entities[0].keys')).toBe('"keys"');
    expect(marked('tables[0]')).toBe('{');
  });

  test('a key that is not an identifier uses the bracketed notation of joinPath', () => {
    expect(marked('tables[0].entities[0].keys["GSI 1"].template')).toBe('"x"');
  });

  test('a missing value marks its nearest ancestor', () => {
    expect(marked('tables[0].entities[0].keys.GSI1PK')).toBe('"keys"');
    expect(marked('tables[0].entities[3].name')).toBe('"entities"');
    expect(marked('nothing.here')).toBe('{');
  });

  test('strings with escapes and brackets do not confuse the scanner', () => {
    const tricky = '{"a\\"b[0]": {"c": "}\\\\"}, "d": [1]}';
    const locations = locateJsonValues(tricky);
    const range = rangeOfPath(tricky, locations, '["a\\"b[0]"].c');
    expect(tricky.slice(range.start, range.end)).toBe('"}\\\\"');
    expect(locations.get('d[0]')).toMatchObject({ valueStart: tricky.indexOf('1') });
  });

  test('text that is not JSON yields what was read before the fault, and never throws', () => {
    expect(() => locateJsonValues('{"a": [1, 2,')).not.toThrow();
    expect(locateJsonValues('{"a": 1, "b": }').get('a')).toBeDefined();
    expect(rangeOfPath('', locateJsonValues(''), 'a')).toEqual({ start: 0, end: 0 });
  });
});
