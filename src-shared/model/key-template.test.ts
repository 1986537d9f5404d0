import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  estimateRenderedBytes,
  formatKeyTemplate,
  isConstant,
  literalPrefix,
  parseKeyTemplate,
  renderKeyTemplate,
  templateAttributes,
  utf8ByteLength,
  type KeyTemplate,
  type KeyTemplatePart,
} from './key-template.ts';

function parsed(source: string): KeyTemplate {
  const r = parseKeyTemplate(source);
  if (!r.ok) throw new Error(`expected ${source} to parse: ${r.errors[0]?.message}`);
  return r.value;
}

describe('parseKeyTemplate', () => {
  it.each<[string, KeyTemplatePart[]]>([
    ['PROFILE', [{ kind: 'literal', text: 'PROFILE' }]],
    ['USER#{userId}', [{ kind: 'literal', text: 'USER#' }, { kind: 'attribute', name: 'userId' }]],
    [
      'ORDER#{orderDate}#{orderId}',
      [
        { kind: 'literal', text: 'ORDER#' },
        { kind: 'attribute', name: 'orderDate' },
        { kind: 'literal', text: '#' },
        { kind: 'attribute', name: 'orderId' },
      ],
    ],
    ['{userId}', [{ kind: 'attribute', name: 'userId' }]],
    ['RANK#{rank:08}', [{ kind: 'literal', text: 'RANK#' }, { kind: 'attribute', name: 'rank', pad: 8 }]],
    ['{n:010}', [{ kind: 'attribute', name: 'n', pad: 10 }]],
    ['{{literal}}', [{ kind: 'literal', text: '{literal}' }]],
    ['A{{{x}}}B', [{ kind: 'literal', text: 'A{' }, { kind: 'attribute', name: 'x' }, { kind: 'literal', text: '}B' }]],
    ['{a}{b}', [{ kind: 'attribute', name: 'a' }, { kind: 'attribute', name: 'b' }]],
    ['{_a.b-c9}', [{ kind: 'attribute', name: '_a.b-c9' }]],
    ['Ü#{x}', [{ kind: 'literal', text: 'Ü#' }, { kind: 'attribute', name: 'x' }]],
  ])('parses %s', (source, parts) => {
    expect(parseKeyTemplate(source)).toEqual({ ok: true, value: { source, parts } });
  });

  it.each<[string, string, number]>([
    ['', 'keyTemplate.empty', -1],
    ['USER#{userId', 'keyTemplate.unclosedBrace', 5],
    ['USER#{', 'keyTemplate.unclosedBrace', 5],
    ['{x:08', 'keyTemplate.unclosedBrace', 0],
    ['{x:', 'keyTemplate.unclosedBrace', 0],
    ['A}B', 'keyTemplate.unmatchedBrace', 1],
    ['USER#{}', 'keyTemplate.emptyPlaceholder', 5],
    ['{ userId}', 'keyTemplate.badPlaceholder', 1],
    ['{1abc}', 'keyTemplate.badPlaceholder', 1],
    ['{user id}', 'keyTemplate.badPlaceholder', 5],
    ['{a{b}}', 'keyTemplate.badPlaceholder', 2],
    ['{x:08x}', 'keyTemplate.badPadding', 3],
    ['{seq:abc}', 'keyTemplate.badPadding', 5],
    ['{x:08{y}}', 'keyTemplate.badPlaceholder', 5],
    ['{x:ab', 'keyTemplate.unclosedBrace', 0],
    ['{x:}', 'keyTemplate.badPadding', 2],
    ['{x:8}', 'keyTemplate.badPadding', 3],
    ['{x:0}', 'keyTemplate.badPadding', 3],
    ['{x:00}', 'keyTemplate.badPadding', 3],
    ['{x:039}', 'keyTemplate.badPadding', 3],
  ])('rejects %j with %s at position %i', (source, code, position) => {
    const r = parseKeyTemplate(source, 'tables[0].entities[1].keys.PK.template');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ code, path: 'tables[0].entities[1].keys.PK.template' });
    if (position >= 0) expect(r.errors[0]?.details).toEqual({ position });
  });

  it('names the template, the position and what is expected in the message', () => {
    const r = parseKeyTemplate('USER#{userId');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]?.message).toContain('"USER#{userId"');
    expect(r.errors[0]?.message).toContain('character 6'); // counted from 1; details.position is 5
    expect(r.errors[0]?.expected).toContain('"}"');
  });

  it('quotes the whole bad padding spec and says the form it takes', () => {
    const r = parseKeyTemplate('SEQ#{seq:abc}');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatchObject({ code: 'keyTemplate.badPadding', found: '":abc"' });
    expect(r.errors[0]?.message).toContain('":abc"');
    expect(r.errors[0]?.expected).toContain('{seq:0W}');
    expect(r.errors[0]?.expected).toContain('1 to 38');
  });
});

describe('renderKeyTemplate', () => {
  it.each<[string, Record<string, string | number | boolean>, string]>([
    ['PROFILE', {}, 'PROFILE'],
    ['USER#{userId}', { userId: 'u-1001' }, 'USER#u-1001'],
    ['ORDER#{orderDate}#{orderId}', { orderDate: '2026-03-14', orderId: 'o-1' }, 'ORDER#2026-03-14#o-1'],
    ['RANK#{rank:08}', { rank: 42 }, 'RANK#00000042'],
    ['RANK#{rank:04}', { rank: '0042' }, 'RANK#0042'],
    ['RANK#{rank:04}', { rank: 1234 }, 'RANK#1234'],
    ['ACTIVE#{isActive}', { isActive: true }, 'ACTIVE#true'],
    ['P#{price}', { price: 19.5 }, 'P#19.5'],
    ['{{{x}}}', { x: 'v' }, '{v}'],
  ])('renders %s', (source, values, expected) => {
    expect(renderKeyTemplate(parsed(source), values)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, Record<string, string | number | boolean | undefined>, string[]]>([
    ['USER#{userId}', {}, ['keyTemplate.missingValue']],
    ['{constructor}#{toString}', {}, ['keyTemplate.missingValue', 'keyTemplate.missingValue']],
    ['{a}#{b}', { a: undefined }, ['keyTemplate.missingValue', 'keyTemplate.missingValue']],
    ['{r:04}', { r: -1 }, ['keyTemplate.badPaddedValue']],
    ['{r:04}', { r: 1.5 }, ['keyTemplate.badPaddedValue']],
    ['{r:04}', { r: '12a' }, ['keyTemplate.badPaddedValue']],
    ['{r:04}', { r: 12345 }, ['keyTemplate.badPaddedValue']],
    ['{r:04}', { r: true }, ['keyTemplate.badPaddedValue']],
    ['{x}', { x: '' }, ['keyTemplate.emptyKey']],
  ])('rejects %s with %j', (source, values, codes) => {
    const r = renderKeyTemplate(parsed(source), values, 'p');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.code)).toEqual(codes);
    expect(r.errors.every((e) => e.path === 'p')).toBe(true);
  });
});

describe('template queries', () => {
  it.each<[string, string, string[], boolean]>([
    ['PROFILE', 'PROFILE', [], true],
    ['USER#{userId}', 'USER#', ['userId'], false],
    ['{userId}#X', '', ['userId'], false],
    ['A{{#{x}#{y}#{x}', 'A{#', ['x', 'y'], false],
  ])('%s: prefix %j, attributes %j, constant %s', (source, prefix, attributes, constant) => {
    const t = parsed(source);
    expect(literalPrefix(t)).toBe(prefix);
    expect(templateAttributes(t)).toEqual(attributes);
    expect(isConstant(t)).toBe(constant);
  });
});

describe('utf8ByteLength', () => {
  it.each<[string, number]>([
    ['', 0],
    ['abc', 3],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['a😀b', 6],
    ['\ud800', 3],
    ['\udc00x', 4],
  ])('counts %j as %i bytes', (s, bytes) => {
    expect(utf8ByteLength(s)).toBe(bytes);
  });

  it('agrees with Node for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => utf8ByteLength(s) === Buffer.byteLength(s, 'utf8')),
    );
  });
});

describe('estimateRenderedBytes', () => {
  it('adds literal bytes, attribute sizes, the fallback for unknown sizes and the padding width', () => {
    const t = parsed('ORDER#{orderDate}#{orderId}#{n:08}');
    expect(estimateRenderedBytes(t, { orderDate: 10 }, 4)).toBe(6 + 10 + 1 + 4 + 1 + 8);
    expect(estimateRenderedBytes(t, { orderDate: 10, n: 12 }, 4)).toBe(6 + 10 + 1 + 4 + 1 + 12);
  });
});

const nameArb = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,8}$/);
const partArb: fc.Arbitrary<KeyTemplatePart> = fc.oneof(
  fc.record({ kind: fc.constant('literal' as const), text: fc.string({ minLength: 1, maxLength: 6 }) }),
  fc.record({ kind: fc.constant('attribute' as const), name: nameArb }),
  fc.record({ kind: fc.constant('attribute' as const), name: nameArb, pad: fc.integer({ min: 1, max: 38 }) }),
);

/** Merges adjacent literals, as the parser does. */
function normalize(parts: KeyTemplatePart[]): KeyTemplatePart[] {
  const out: KeyTemplatePart[] = [];
  for (const p of parts) {
    const last = out.at(-1);
    if (p.kind === 'literal' && last?.kind === 'literal') out[out.length - 1] = { kind: 'literal', text: last.text + p.text };
    else out.push(p);
  }
  return out;
}

describe('key template properties', () => {
  it('parse(format(parts)) gives back the normalized parts', () => {
    fc.assert(
      fc.property(fc.array(partArb, { minLength: 1, maxLength: 6 }), (parts) => {
        const source = formatKeyTemplate(parts);
        const r = parseKeyTemplate(source);
        expect(r).toEqual({ ok: true, value: { source, parts: normalize(parts) } });
      }),
    );
  });

  it('format(parse(s)) gives back s for every template that parses', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (s) => {
        const r = parseKeyTemplate(s);
        if (r.ok) expect(formatKeyTemplate(r.value.parts)).toBe(s.replace(/\{(\w[\w.-]*):0+(\d+)\}/g, (_, n: string, w: string) => `{${n}:0${w}}`));
      }),
    );
  });

  it('the literal prefix begins every render', () => {
    const valuesArb = fc.dictionary(nameArb, fc.oneof(fc.string(), fc.nat(), fc.boolean()));
    fc.assert(
      fc.property(fc.array(partArb, { minLength: 1, maxLength: 6 }), valuesArb, (parts, values) => {
        const t = parsed(formatKeyTemplate(parts));
        const filled = Object.fromEntries(templateAttributes(t).map((n) => [n, values[n] ?? 7]));
        const r = renderKeyTemplate(t, filled);
        if (r.ok) expect(r.value.startsWith(literalPrefix(t))).toBe(true);
      }),
    );
  });

  it('renders literal text and unpadded string values verbatim', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (lit, value) => {
        const t = parsed(formatKeyTemplate([{ kind: 'literal', text: lit }, { kind: 'attribute', name: 'v' }]));
        expect(renderKeyTemplate(t, { v: value })).toEqual({ ok: true, value: lit + value });
      }),
    );
  });

  it('never throws, and every failure is one problem with a position inside the template', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('{', '}', ':', '0', '8', 'a', '#', ' ', 'é') , maxLength: 12 }), (s) => {
        const r = parseKeyTemplate(s);
        if (r.ok) return;
        expect(r.errors).toHaveLength(1);
        const position = (r.errors[0]?.details as { position?: number } | undefined)?.position;
        if (s !== '') expect(position).toBeGreaterThanOrEqual(0);
        if (s !== '') expect(position).toBeLessThanOrEqual(s.length);
      }),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => void parseKeyTemplate(s)));
  });
});
