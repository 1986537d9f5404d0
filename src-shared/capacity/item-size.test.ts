import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_ITEM_BYTES,
  attributeValueBytes,
  base64DecodedLength,
  checkItemSize,
  itemSizeBytes,
  itemSizeFigure,
  numberValueBytes,
  parseDecimal,
  parseDynamoDbItem,
  type AttributeValue,
  type Item,
} from './item-size.ts';
import { batchGetReadUnits, getItemReadUnits, writeUnits } from './units.ts';

/** dynalite's `randomString()` is always 10 ASCII characters; the vectors use it as the key `a`. */
const K = 'k123456789';
const s = (S: string): AttributeValue => ({ S });
const n = (N: string): AttributeValue => ({ N });
const b = (count: number): string => 'b'.repeat(count);

/** V-15 with `bb` of the given length (3,999 → 4,096 B; 4,000 → 4,097 B). */
const v15 = (bb: number): Item => ({
  a: s(K),
  bb: s(b(bb)),
  ccc: n('12.3456'),
  dddd: { B: 'AQI=' },
  eeeee: { BS: ['AQI=', 'Ag==', 'AQ=='] },
  ffffff: { NULL: true },
  ggggggg: { BOOL: true },
  hhhhhhhh: { L: [s('a'), s('aa'), s('bb'), s('ccc')] },
  iiiiiiiii: { M: { aa: s('aa'), bbb: s('bbb') } },
});

/** docs/dynamodb-rules.md §9.1: the item-size vectors. */
const vectors: Array<{ id: string; item: Item; bytes: number }> = [
  { id: 'V-1', item: { 'shirt-color': s('R'), 'shirt-size': s('M') }, bytes: 23 },
  { id: 'V-2', item: { id: s('abc') }, bytes: 5 },
  { id: 'V-3', item: { name: s('José') }, bytes: 9 },
  { id: 'V-4', item: { n: n('0') }, bytes: 2 },
  { id: 'V-5', item: { n: n('12345') }, bytes: 5 },
  { id: 'V-6', item: { n: n('1.5') }, bytes: 4 },
  { id: 'V-7', item: { n: n('-12.3456') }, bytes: 6 },
  { id: 'V-8', item: { flag: { BOOL: true }, x: { NULL: true } }, bytes: 7 },
  { id: 'V-9', item: { l: { L: [] }, m: { M: {} } }, bytes: 8 },
  { id: 'V-10', item: { tags: { SS: ['a', 'bc'] } }, bytes: 7 },
  { id: 'V-11', item: { b: { B: 'AQI=' } }, bytes: 3 },
  { id: 'V-12', item: { m: { M: { k: { L: [n('1'), s('xy')] } } } }, bytes: 15 },
  {
    id: 'V-13',
    item: { a: s(K), b: s(b(999)), c: n('12.3456'), d: { B: 'AQI=' }, e: { BS: ['AQI=', 'Ag==', 'AQ=='] } },
    bytes: 1024,
  },
  { id: 'V-14', item: { a: s(K), b: s(b(1001)), c: n('12.3456'), d: { B: 'AQI=' }, e: { BS: ['AQI=', 'Ag=='] } }, bytes: 1025 },
  { id: 'V-15', item: v15(3999), bytes: 4096 },
  {
    id: 'V-16',
    item: {
      a: s(K),
      ab: s(b(4026)),
      abc: { NULL: true },
      abcd: { BOOL: true },
      abcde: { L: [s('aa'), n('12.3456'), { B: 'AQI=' }] },
      abcdef: { M: { aa: s('aa'), bbb: n('12.3456'), cccc: { B: 'AQI=' } } },
    },
    bytes: 4096,
  },
  { id: 'V-17', item: v15(4000), bytes: 4097 },
  { id: 'V-18', item: { a: s(K), b: s(b(409_588)) }, bytes: 409_600 },
  { id: 'V-19', item: { a: s(K), b: s(b(409_589)) }, bytes: 409_601 },
  { id: 'V-20', item: { a: s(K), b: s(b(409_568)), c: n('1'.repeat(38) + '0'.repeat(88)) }, bytes: 409_601 },
];

describe('itemSizeBytes: docs/dynamodb-rules.md §9.1 vectors', () => {
  it.each(vectors)('$id is $bytes bytes', ({ item, bytes }) => {
    expect(itemSizeBytes(item)).toBe(bytes);
    expect(itemSizeFigure(item).value).toBe(bytes);
  });

  it('V-18 is accepted at exactly 409,600 bytes; V-19 and V-20 are rejected as item.tooLarge', () => {
    const [v18, v19, v20] = ['V-18', 'V-19', 'V-20'].map((id) => vectors.find((v) => v.id === id)?.item as Item);
    expect(checkItemSize(v18 as Item)).toEqual({ ok: true, value: MAX_ITEM_BYTES });
    for (const item of [v19, v20]) {
      const r = checkItemSize(item as Item, 'items[3]');
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors.map((e) => [e.code, e.path])).toEqual([['item.tooLarge', 'items[3]']]);
    }
  });

  it('V-20 carries a number of exactly 20 bytes (38 digits, odd exponent 125)', () => {
    expect(numberValueBytes('1'.repeat(38) + '0'.repeat(88))).toBe(20);
  });

  it('V-21: three 409,597 B items and one of 229,381 B read strongly consistent in one BatchGetItem cost 357 RCU', () => {
    const big: Item = { a: s('00'), b: s(b(409_593)) };
    const fourth: Item = {
      a: s('03'),
      b: s(b(229_353)),
      c: n('12.3456'),
      d: { B: 'AQI=' },
      e: { SS: ['a', 'bc'] },
      f: { NS: ['1.23', '12.3'] },
      g: { BS: ['AQI=', 'Ag==', 'AQ=='] },
    };
    expect(itemSizeBytes(big)).toBe(409_597);
    expect(itemSizeBytes(fourth)).toBe(229_381);
    const sizes = [big, big, big, fourth].map(itemSizeBytes);
    expect(batchGetReadUnits(sizes, 'strong').value).toBe(357);
  });

  it('V-13 and V-14 put as 1 and 2 WCU (E-17); V-15 and V-17 read strongly consistent as 1 and 2 RCU', () => {
    const size = (id: string) => itemSizeBytes(vectors.find((v) => v.id === id)?.item as Item);
    const put = (bytes: number) => writeUnits({ kind: 'put', newItemBytes: bytes, transactional: false, indexes: [] }).total.value;
    expect([put(size('V-13')), put(size('V-14'))]).toEqual([1, 2]);
    expect([getItemReadUnits(size('V-15'), 'strong').value, getItemReadUnits(size('V-17'), 'strong').value]).toEqual([1, 2]);
  });
});

describe('attributeValueBytes: component sizes of V-15 and V-16', () => {
  it.each([
    { what: 'L[a, aa, bb, ccc]', name: 'hhhhhhhh', value: { L: [s('a'), s('aa'), s('bb'), s('ccc')] } as AttributeValue, bytes: 23 },
    { what: 'M{aa, bbb}', name: 'iiiiiiiii', value: { M: { aa: s('aa'), bbb: s('bbb') } } as AttributeValue, bytes: 24 },
    { what: 'L[S, N, B]', name: 'abcde', value: { L: [s('aa'), n('12.3456'), { B: 'AQI=' }] } as AttributeValue, bytes: 19 },
    { what: 'M{S, N, B}', name: 'abcdef', value: { M: { aa: s('aa'), bbb: n('12.3456'), cccc: { B: 'AQI=' } } } as AttributeValue, bytes: 29 },
  ])('$what with its name is $bytes bytes', ({ name, value, bytes }) => {
    expect(itemSizeBytes({ [name]: value })).toBe(bytes);
  });

  it.each([
    { value: { NS: ['1.23', '12.3'] } as AttributeValue, bytes: 6 },
    { value: { SS: ['a', 'bc'] } as AttributeValue, bytes: 3 },
    { value: { S: '€😀' } as AttributeValue, bytes: 7 },
    { value: { S: '' } as AttributeValue, bytes: 0 },
    { value: { B: '' } as AttributeValue, bytes: 0 },
    { value: { BS: ['AQI=', 'Ag==', 'AQ=='] } as AttributeValue, bytes: 4 },
    { value: { L: [{ L: [] }] } as AttributeValue, bytes: 7 },
    { value: { M: { é: { NULL: true } } } as AttributeValue, bytes: 7 },
  ])('$value is $bytes bytes', ({ value, bytes }) => {
    expect(attributeValueBytes(value)).toBe(bytes);
  });
});

describe('numberValueBytes: the exact rule of docs/dynamodb-rules.md §1.2', () => {
  it.each([
    ['0', 1],
    ['-0', 1],
    ['0.000', 1],
    ['1', 2],
    ['10', 2],
    ['100', 2],
    ['1000000', 2],
    ['1e125', 2],
    ['12', 2],
    ['15', 2],
    ['1.5', 3],
    ['123', 3],
    ['1.23', 3],
    ['12.3', 3],
    ['1234', 3],
    ['12.3456', 4],
    ['3.14159', 5],
    ['12345', 4],
    ['99999', 4],
    ['123456789', 6],
    ['0.001', 2],
    ['-1', 3],
    ['-12.3456', 5],
    ['1'.repeat(38), 20],
    ['1'.repeat(38) + '0', 21],
    ['-' + '1'.repeat(38) + '0', 22],
    // Negative exponents: -1 is odd (0.15: no extra byte), -2 even (0.015: one more).
    ['0.15', 2],
    ['0.015', 3],
    ['1.5e-3', 2],
    ['+42', 2],
    ['.5', 2],
    ['5.', 2],
    ['1.50E+1', 2],
  ])('%s takes %i bytes', (value, bytes) => {
    expect(numberValueBytes(value)).toBe(bytes);
  });

  it('matches the doc approximation ceil(digits / 2) + 1 within one byte, plus one for the sign', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 37n), max: 10n ** 37n }), fc.integer({ min: -40, max: 40 }), (mantissa, exp) => {
        const text = `${mantissa}e${exp}`;
        const p = parseDecimal(text);
        if (!p || p.digits === '') return true;
        const approx = Math.ceil(p.digits.length / 2) + 1 + (p.isNegative ? 1 : 0);
        const exact = numberValueBytes(text);
        return exact === approx || exact === approx + 1;
      }),
    );
  });

  it('throws for a string that is not a number (a programming error: parse first)', () => {
    expect(() => numberValueBytes('abc')).toThrow(/not a decimal number/);
  });
});

describe('base64DecodedLength', () => {
  it.each([
    ['', 0],
    ['AQ==', 1],
    ['AQI=', 2],
    ['AQID', 3],
    ['AQIDBA==', 4],
    ['++//', 3],
  ])('%j decodes to %i bytes', (text, bytes) => {
    expect(base64DecodedLength(text)).toBe(bytes);
  });

  it.each(['A', 'AQI', 'AQ=I', 'A===', 'AR==', 'AQJ=', 'AQ-_', 'AQ I', '===='])('%j is not canonical base64', (text) => {
    expect(base64DecodedLength(text)).toBeUndefined();
  });

  it('agrees with a real encoder for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        let binary = '';
        for (const x of bytes) binary += String.fromCharCode(x);
        return base64DecodedLength(btoa(binary)) === bytes.length;
      }),
    );
  });
});

describe('parseDynamoDbItem', () => {
  it('accepts every type and returns the item', () => {
    const json = {
      s: { S: 'x' },
      n: { N: '-1.5e3' },
      b: { B: 'AQI=' },
      t: { BOOL: false },
      z: { NULL: true },
      ss: { SS: ['a', 'b'] },
      ns: { NS: ['1', '2'] },
      bs: { BS: ['AQ==', 'Ag=='] },
      l: { L: [{ S: 'a' }, { M: { k: { N: '1' } } }] },
      m: { M: { '': { S: 'empty keys are fine inside a map' } } },
    };
    const r = parseDynamoDbItem(json);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value).toEqual(json);
  });

  it('keeps an attribute named __proto__ as an attribute', () => {
    const r = parseDynamoDbItem(JSON.parse('{"__proto__": {"S": "x"}}'));
    expect(r.ok).toBe(true);
    if (r.ok) expect(itemSizeBytes(r.value)).toBe(10);
  });

  const deep = (levels: number): unknown => {
    let v: unknown = { S: 'leaf' };
    for (let i = 0; i < levels; i += 1) v = { L: [v] };
    return v;
  };

  it.each([
    { what: 'an array', json: [], code: 'item.notObject', path: 'item' },
    { what: 'null', json: null, code: 'item.notObject', path: 'item' },
    { what: 'an empty attribute name', json: { '': { S: 'x' } }, code: 'item.emptyAttributeName', path: 'item[""]' },
    { what: 'a bare string value', json: { a: 'x' }, code: 'item.badAttributeValue', path: 'item.a' },
    { what: 'two descriptors', json: { a: { S: 'x', N: '1' } }, code: 'item.badAttributeValue', path: 'item.a' },
    { what: 'no descriptor', json: { a: {} }, code: 'item.badAttributeValue', path: 'item.a' },
    { what: 'an unknown descriptor', json: { a: { STR: 'x' } }, code: 'item.unknownType', path: 'item.a.STR' },
    { what: 'S holding a number', json: { a: { S: 1 } }, code: 'item.badValue', path: 'item.a.S' },
    { what: 'N holding a number', json: { a: { N: 1 } }, code: 'item.badValue', path: 'item.a.N' },
    { what: 'BOOL holding a string', json: { a: { BOOL: 'true' } }, code: 'item.badValue', path: 'item.a.BOOL' },
    { what: 'NULL false', json: { a: { NULL: false } }, code: 'item.badValue', path: 'item.a.NULL' },
    { what: 'L holding an object', json: { a: { L: {} } }, code: 'item.badValue', path: 'item.a.L' },
    { what: 'M holding a list', json: { a: { M: [] } }, code: 'item.badValue', path: 'item.a.M' },
    { what: 'N not a number', json: { a: { N: '1,5' } }, code: 'item.badNumber', path: 'item.a.N' },
    { what: 'N empty', json: { a: { N: '' } }, code: 'item.badNumber', path: 'item.a.N' },
    { what: 'N Infinity', json: { a: { N: 'Infinity' } }, code: 'item.badNumber', path: 'item.a.N' },
    { what: 'N with 39 digits', json: { a: { N: '1'.repeat(39) } }, code: 'item.numberPrecision', path: 'item.a.N' },
    { what: 'N of 39 digits after the point', json: { a: { N: '-1.' + '2'.repeat(38) } }, code: 'item.numberPrecision', path: 'item.a.N' },
    { what: 'N over 1e125', json: { a: { N: '1e126' } }, code: 'item.numberRange', path: 'item.a.N' },
    { what: 'N under 1e-130', json: { a: { N: '-1e-131' } }, code: 'item.numberRange', path: 'item.a.N' },
    { what: 'B not base64', json: { a: { B: 'abc' } }, code: 'item.badBase64', path: 'item.a.B' },
    { what: 'an empty SS', json: { tags: { SS: [] } }, code: 'item.emptySet', path: 'item.tags.SS' },
    { what: 'an empty NS', json: { a: { NS: [] } }, code: 'item.emptySet', path: 'item.a.NS' },
    { what: 'a duplicate in SS', json: { tags: { SS: ['a', 'b', 'a'] } }, code: 'item.duplicateSetValue', path: 'item.tags.SS[2]' },
    { what: 'equal numbers in NS', json: { a: { NS: ['1', '1.0'] } }, code: 'item.duplicateSetValue', path: 'item.a.NS[1]' },
    { what: 'a bad number in NS', json: { a: { NS: ['1', 'x'] } }, code: 'item.badNumber', path: 'item.a.NS[1]' },
    { what: 'a number in SS', json: { tags: { SS: ['a', 'b', 3] } }, code: 'item.badValue', path: 'item.tags.SS[2]' },
    { what: 'bad base64 in BS', json: { a: { BS: ['AQ==', 'A'] } }, code: 'item.badBase64', path: 'item.a.BS[1]' },
    { what: 'a bad value in a map', json: { m: { M: { 'a b': { N: 'x' } } } }, code: 'item.badNumber', path: 'item.m.M["a b"].N' },
    { what: 'a bad value in a list', json: { l: { L: [{ S: 'a' }, { X: 1 }] } }, code: 'item.unknownType', path: 'item.l.L[1].X' },
    { what: 'lists nested 33 deep', json: { d: deep(33) }, code: 'item.tooDeep', path: 'item.d' + '.L[0]'.repeat(32) },
  ])('rejects $what with $code at $path', ({ json, code, path }) => {
    const r = parseDynamoDbItem(json);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => [e.code, e.path])).toEqual([[code, path]]);
  });

  it('accepts lists nested 32 deep', () => {
    expect(parseDynamoDbItem({ d: deep(32) }).ok).toBe(true);
  });

  it('collects every problem of the item', () => {
    const r = parseDynamoDbItem({ a: { S: 1 }, b: { SS: [] }, c: { N: 'x' } }, 'items[0]');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.map((e) => [e.code, e.path])).toEqual([
        ['item.badValue', 'items[0].a.S'],
        ['item.emptySet', 'items[0].b.SS'],
        ['item.badNumber', 'items[0].c.N'],
      ]);
    }
  });
});

describe('itemSizeFigure', () => {
  it('has one step per attribute, then the total', () => {
    const f = itemSizeFigure({ 'shirt-color': s('R'), 'shirt-size': s('M') });
    expect(f.unit).toBe('B');
    expect(f.steps.map((x) => [x.label, x.value])).toEqual([
      ['Attribute "shirt-color"', 12],
      ['Attribute "shirt-size"', 11],
      ['Item size', 23],
    ]);
    expect(f.assumptions).toEqual([]);
  });

  it('groups attributes past the 40th and notes the number and set rules', () => {
    const item: Item = { set: { NS: ['1'] } };
    for (let i = 0; i < 50; i += 1) item[`a${i}`] = { N: String(i) };
    const f = itemSizeFigure(item);
    expect(f.steps).toHaveLength(42);
    expect(f.steps.at(-2)?.label).toBe('The other 11 attributes');
    expect(f.value).toBe(itemSizeBytes(item));
    expect(f.assumptions).toHaveLength(2);
  });
});

describe('item size properties', () => {
  const scalar = fc.oneof(
    fc.string().map((x): AttributeValue => ({ S: x })),
    fc.integer().map((x): AttributeValue => ({ N: String(x) })),
    fc.boolean().map((x): AttributeValue => ({ BOOL: x })),
    fc.constant<AttributeValue>({ NULL: true }),
  );
  const value: fc.Arbitrary<AttributeValue> = fc.letrec<{ v: AttributeValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('v'), { maxLength: 3 }).map((L): AttributeValue => ({ L })),
      fc.dictionary(fc.string({ maxLength: 4 }), tie('v'), { maxKeys: 3 }).map((M): AttributeValue => ({ M })),
    ),
  })).v;
  const item = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), value, { maxKeys: 5 });

  it('parses what it sizes, and the figure agrees with itemSizeBytes', () => {
    fc.assert(
      fc.property(item, (it) => {
        const r = parseDynamoDbItem(JSON.parse(JSON.stringify(it)));
        return r.ok && itemSizeBytes(r.value) === itemSizeBytes(it) && itemSizeFigure(it).value === itemSizeBytes(it);
      }),
    );
  });

  it('adding an attribute adds its name and value bytes', () => {
    fc.assert(
      fc.property(item, fc.string({ minLength: 1, maxLength: 6 }), value, (it, name, v) => {
        if (Object.hasOwn(it, name)) return true;
        return itemSizeBytes({ ...it, [name]: v }) === itemSizeBytes(it) + new TextEncoder().encode(name).length + attributeValueBytes(v);
      }),
    );
  });
});
