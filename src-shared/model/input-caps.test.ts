/**
 * Caps on user-written text, checked before parsing: key templates at 2,048 bytes of UTF-8 (the
 * largest key value DynamoDB stores), conditions at 4,096 bytes (DynamoDB's expression limit); and
 * problems that quote at most about 80 characters of what the user wrote.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CONDITION_BYTES, parseCondition } from './condition.ts';
import { MAX_KEY_TEMPLATE_BYTES, parseKeyTemplate, utf8ByteLength } from './key-template.ts';
import { clipText, excerptAround, formatProblemCount, MAX_QUOTED_CHARS, quoteClipped } from './quoted-text.ts';

/** The longest quote a message may hold: 80 characters, the ellipsis, the JSON quotes. */
const LONGEST_QUOTE = MAX_QUOTED_CHARS + 4;
/** Every run of text between double quotes in a message. */
const quotesIn = (message: string): string[] => message.match(/"(?:[^"\\]|\\.)*"/g) ?? [];

describe('the key template cap', () => {
  it('is 2,048 bytes, the partition key limit', () => {
    expect(MAX_KEY_TEMPLATE_BYTES).toBe(2048);
  });

  // Byte counts by hand: "a" is 1 byte, "é" 2, "€" 3, "😀" 4 (docs/dynamodb-rules.md §1.1).
  it.each([
    ['2,048 ASCII bytes', 'a'.repeat(2048), 2048, true],
    ['2,049 ASCII bytes', 'a'.repeat(2049), 2049, false],
    ['1,024 × é = 2,048 bytes', 'é'.repeat(1024), 2048, true],
    ['1,024 × é and one a = 2,049 bytes', `${'é'.repeat(1024)}a`, 2049, false],
    ['682 × € = 2,046 bytes', '€'.repeat(682), 2046, true],
    ['683 × € = 2,049 bytes (683 characters, under the cap in characters)', '€'.repeat(683), 2049, false],
    ['512 × 😀 = 2,048 bytes', '😀'.repeat(512), 2048, true],
    ['{x} × 682 and "ab" = 2,048 bytes', `${'{x}'.repeat(682)}ab`, 2048, true],
  ])('%s', (_, template, bytes, isAccepted) => {
    expect(utf8ByteLength(template)).toBe(bytes);
    const result = parseKeyTemplate(template, 'p');
    expect(result.ok).toBe(isAccepted);
    if (!result.ok) expect(result.errors).toEqual([expect.objectContaining({ code: 'keyTemplate.tooLong', path: 'p', details: { bytes } })]);
  });

  it('refuses before parsing: a long template with a syntax error at its start reports only its size', () => {
    const result = parseKeyTemplate(`{${'x'.repeat(100_000)}`, 'p');
    expect(result.ok ? [] : result.errors.map((p) => p.code)).toEqual(['keyTemplate.tooLong']);
    const message = result.ok ? '' : (result.errors[0]?.message ?? '');
    expect(message).toContain('100,001 bytes');
    for (const q of quotesIn(message)) expect(q.length).toBeLessThanOrEqual(LONGEST_QUOTE);
  });

  it('quotes about 80 characters around a syntax error in a long template', () => {
    const template = `${'A'.repeat(1000)}{ x}${'B'.repeat(1000)}`;
    const result = parseKeyTemplate(template);
    expect(result.ok).toBe(false);
    const problem = result.ok ? undefined : result.errors[0];
    expect(problem).toMatchObject({ code: 'keyTemplate.badPlaceholder', details: { position: 1001 } });
    const [shown] = quotesIn(problem?.message ?? '');
    expect(shown).toMatch(/^"…A+\{ x\}B+…"$/);
    expect(shown!.length).toBeLessThanOrEqual(LONGEST_QUOTE);
  });
});

describe('the condition cap', () => {
  it("is 4,096 bytes, DynamoDB's expression limit", () => {
    expect(MAX_CONDITION_BYTES).toBe(4096);
  });

  // `s = "` is 5 bytes and the closing quote 1, so the value gets 4,090 bytes.
  it.each([
    ['4,096 ASCII bytes', `s = "${'a'.repeat(4090)}"`, 4096, true],
    ['4,097 ASCII bytes', `s = "${'a'.repeat(4091)}"`, 4097, false],
    ['2,045 × é = 4,096 bytes', `s = "${'é'.repeat(2045)}"`, 4096, true],
    ['2,046 × é = 4,098 bytes (2,052 characters)', `s = "${'é'.repeat(2046)}"`, 4098, false],
  ])('%s', (_, source, bytes, isAccepted) => {
    expect(utf8ByteLength(source)).toBe(bytes);
    const result = parseCondition(source, 'f');
    expect(result.ok).toBe(isAccepted);
    if (!result.ok) expect(result.errors).toEqual([expect.objectContaining({ code: 'condition.tooLong', path: 'f', details: { bytes } })]);
  });

  it('refuses before parsing: a megabyte of clauses reports only its size', () => {
    const source = Array.from({ length: 80_000 }, (_, i) => `a${i} = 1`).join(' AND ');
    const result = parseCondition(source, 'f');
    expect(result.ok ? [] : result.errors.map((p) => p.code)).toEqual(['condition.tooLong']);
    const message = result.ok ? '' : (result.errors[0]?.message ?? '');
    expect(message).toContain(`${formatProblemCount(utf8ByteLength(source))} bytes`);
    for (const q of quotesIn(message)) expect(q.length).toBeLessThanOrEqual(LONGEST_QUOTE);
  });

  it('quotes about 80 characters around a syntax error in a long condition', () => {
    const source = `${Array.from({ length: 200 }, (_, i) => `a${i} = 1`).join(' AND ')} AND b == 2`;
    const result = parseCondition(source);
    const problem = result.ok ? undefined : result.errors[0];
    expect(problem?.code).toBe('condition.syntax');
    for (const q of quotesIn(problem?.message ?? '')) expect(q.length).toBeLessThanOrEqual(LONGEST_QUOTE);
    expect(problem?.message).toMatch(/"….*b == 2"/);
  });
});

describe('quoting user text', () => {
  it('keeps short text and cuts long text to 80 characters with an ellipsis', () => {
    expect(clipText('USER#{userId}')).toBe('USER#{userId}');
    expect(clipText('x'.repeat(80))).toBe('x'.repeat(80));
    expect(clipText('x'.repeat(81))).toBe(`${'x'.repeat(79)}…`);
    expect(quoteClipped('a"b')).toBe('"a\\"b"');
  });

  it('never splits a surrogate pair', () => {
    const clipped = clipText(`${'x'.repeat(78)}😀😀`);
    expect(clipped).toBe(`${'x'.repeat(78)}…`);
    const excerpt = excerptAround('😀'.repeat(100), 101);
    expect(excerpt).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(excerpt.length).toBeLessThanOrEqual(MAX_QUOTED_CHARS);
  });

  it('shows the text around a position, cut on the sides that were cut', () => {
    const s = `${'a'.repeat(100)}X${'b'.repeat(100)}`;
    const excerpt = excerptAround(s, 100);
    expect(excerpt).toMatch(/^…a+Xb+…$/);
    expect(excerpt.length).toBe(MAX_QUOTED_CHARS);
    expect(excerptAround(s, 0)).toMatch(/^a+…$/);
    expect(excerptAround(s, 200)).toMatch(/^…b+$/);
  });

  it('writes counts with thousands separators', () => {
    expect(formatProblemCount(4211)).toBe('4,211');
    expect(formatProblemCount(1_048_576)).toBe('1,048,576');
  });
});
