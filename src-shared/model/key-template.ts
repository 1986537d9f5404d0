/**
 * Key templates: how an entity builds the value of a key attribute from its own attributes, e.g.
 * `USER#{userId}`, `ORDER#{orderDate}#{orderId}` or the constant `PROFILE`.
 *
 * More on its rules: docs/modules.md, "src-shared/model/key-template.ts".
 */
import { ok, fail, type Result } from '../errors.ts';
import type { Problem } from './problems.ts';
import { clipText, excerptAround, formatProblemCount, quoteClipped } from './quoted-text.ts';

/** Codes of the problems key templates raise (here and in `validate.ts`). */
export type KeyTemplateErrorCode =
  | 'keyTemplate.empty'
  | 'keyTemplate.tooLong'
  | 'keyTemplate.unclosedBrace'
  | 'keyTemplate.unmatchedBrace'
  | 'keyTemplate.emptyPlaceholder'
  | 'keyTemplate.badPlaceholder'
  | 'keyTemplate.badPadding'
  | 'keyTemplate.paddingType'
  | 'keyTemplate.unknownAttribute'
  | 'keyTemplate.attributeType'
  | 'keyTemplate.keyType'
  | 'keyTemplate.missingValue'
  | 'keyTemplate.badPaddedValue'
  | 'keyTemplate.emptyKey';

/** A run of literal text (braces already unescaped). */
export interface LiteralPart {
  kind: 'literal';
  text: string;
}

/** A placeholder for an attribute's value; `pad` is the zero-padded width in digits, if any. */
export interface AttributePart {
  kind: 'attribute';
  name: string;
  pad?: number;
}

/** One piece of a parsed template. */
export type KeyTemplatePart = LiteralPart | AttributePart;

/**
 * A parsed key template. `parts` is normalized: no empty literal, never two literals in a row, so two
 * templates that mean the same thing have equal parts.
 */
export interface KeyTemplate {
  source: string;
  parts: KeyTemplatePart[];
}

/** The values a template is rendered with, by attribute name. */
export type TemplateValues = Record<string, string | number | boolean | undefined>;

/** The widest zero padding accepted: DynamoDB numbers have 38 digits of precision. */
export const MAX_PAD_DIGITS = 38;

/**
 * The longest key template accepted, in UTF-8 bytes: 2,048, DynamoDB's largest key value (a
 * partition key; a sort key takes 1,024; docs/dynamodb-rules.md §7). A template renders at least its
 * literal text, so a longer template that is mostly text can render no valid key; one that is mostly
 * placeholders names hundreds of attributes (`{a}` is 3 bytes), which no real key is built from. The
 * cap is checked before parsing, so the parser, the validator and every message work on at most this
 * much text per template.
 */
export const MAX_KEY_TEMPLATE_BYTES = 2048;

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_.-]/;
/** An attribute name a placeholder (or a condition) can refer to. */
export const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const problem = (code: KeyTemplateErrorCode, path: string, message: string, extra: Partial<Problem> = {}): Problem => ({
  code,
  path,
  message,
  ...extra,
});

/** `"…"` with the quote and backslash escaped and at most 80 characters of `s`, for messages. */
const quote = (s: string): string => quoteClipped(s);

/**
 * Parses a key template. Errors (one at a time, the first found; `details.position` is the 0-based
 * index of the offending character, the message counts characters from 1 and quotes about 80
 * characters around it): `keyTemplate.empty`, `keyTemplate.tooLong` (over `MAX_KEY_TEMPLATE_BYTES`
 * bytes; refused before parsing, `details.bytes` is its size), `keyTemplate.unclosedBrace`, `keyTemplate.unmatchedBrace` (a lone `}`), `keyTemplate.emptyPlaceholder`
 * (`{}`), `keyTemplate.badPlaceholder` (a character a name cannot hold), `keyTemplate.badPadding` (`{n:}`,
 * `{n:8}`, `{n:0}`, `{n:abc}`, a width over 38; the message quotes the whole spec). Never throws.
 */
export function parseKeyTemplate(template: string, path = ''): Result<KeyTemplate, Problem> {
  const at = (code: KeyTemplateErrorCode, position: number, what: string, expected: string): Result<never, Problem> =>
    fail([
      problem(code, path, `Key template ${JSON.stringify(excerptAround(template, position))}: ${what} at character ${position + 1}; expected ${expected}.`, {
        found: position < template.length ? quote(charAt(template, position)) : 'the end of the template',
        expected,
        details: { position },
      }),
    ]);

  if (template.length === 0) {
    return fail([
      problem('keyTemplate.empty', path, 'Key template is empty; expected literal text such as PROFILE, or placeholders such as USER#{userId}.', {
        found: 'an empty template',
        expected: 'literal text or {attribute} placeholders',
      }),
    ]);
  }

  const tooLong = templateTooLong(template, path);
  if (tooLong) return fail([tooLong]);

  const parts: KeyTemplatePart[] = [];
  let literal = '';
  const flushLiteral = (): void => {
    if (literal !== '') parts.push({ kind: 'literal', text: literal });
    literal = '';
  };

  let i = 0;
  while (i < template.length) {
    const c = template[i];
    if (c === '}') {
      if (template[i + 1] === '}') {
        literal += '}';
        i += 2;
        continue;
      }
      return at('keyTemplate.unmatchedBrace', i, 'unmatched "}"', '"}}" for a literal "}", or a "{" before it to open a placeholder');
    }
    if (c !== '{') {
      literal += c;
      i += 1;
      continue;
    }
    if (template[i + 1] === '{') {
      literal += '{';
      i += 2;
      continue;
    }
    const open = i;
    i += 1;
    if (i >= template.length) {
      return at('keyTemplate.unclosedBrace', open, 'unclosed "{"', 'an attribute name and "}" after it, or "{{" for a literal "{"');
    }
    if (template[i] === '}') {
      return at('keyTemplate.emptyPlaceholder', open, 'empty placeholder "{}"', 'an attribute name between the braces, e.g. {userId}');
    }
    const nameStart = i;
    if (!NAME_START.test(template[i] ?? '')) {
      return at('keyTemplate.badPlaceholder', i, `${quote(charAt(template, i))} cannot start an attribute name`, 'a letter or "_"');
    }
    while (i < template.length && NAME_CHAR.test(template[i] ?? '')) i += 1;
    const name = template.slice(nameStart, i);
    // The name as messages show it: at most 80 characters.
    const shown = clipText(name);
    let pad: number | undefined;
    if (template[i] === ':') {
      // The padding spec runs from the colon to the closing brace: quote all of it when it is bad.
      const colon = i;
      let end = colon + 1;
      while (end < template.length && template[end] !== '}' && template[end] !== '{') end += 1;
      if (end >= template.length) {
        return at('keyTemplate.unclosedBrace', open, 'unclosed "{"', `"}" to close the placeholder, e.g. {${shown}:08}`);
      }
      const spec = template.slice(colon, end);
      const width = /^:0[0-9]+$/.test(spec) ? Number(spec.slice(1)) : NaN;
      if (!(width >= 1 && width <= MAX_PAD_DIGITS)) {
        const position = spec.length > 1 ? colon + 1 : colon;
        const expected = `{${shown}:0W} with W from 1 to ${MAX_PAD_DIGITS} (the number of digits to pad to with zeros), e.g. {${shown}:08}`;
        return fail([
          problem(
            'keyTemplate.badPadding',
            path,
            `Key template ${JSON.stringify(excerptAround(template, position))}: bad padding ${quote(spec)} for ${quote(name)} at character ${position + 1}; expected ${expected}.`,
            { found: quote(spec), expected, details: { position } },
          ),
        ]);
      }
      pad = width;
      i = end;
    }
    if (i >= template.length) {
      return at('keyTemplate.unclosedBrace', open, 'unclosed "{"', `"}" after the attribute name ${quote(name)}`);
    }
    if (template[i] !== '}') {
      const expected = pad === undefined
        ? `"}" to close the placeholder {${shown}}, ":0W" to pad it, or only letters, digits, "_", "-" and "." in the name`
        : `"}" to close the placeholder {${shown}:0${pad}}`;
      return at('keyTemplate.badPlaceholder', i, `${quote(charAt(template, i))} in the placeholder`, expected);
    }
    i += 1;
    flushLiteral();
    parts.push(pad === undefined ? { kind: 'attribute', name } : { kind: 'attribute', name, pad });
  }
  flushLiteral();
  return ok({ source: template, parts });
}

/**
 * `keyTemplate.tooLong` when `template` is over `MAX_KEY_TEMPLATE_BYTES` bytes of UTF-8. Every UTF-16
 * code unit is at least one UTF-8 byte, so a template of more units is over without counting.
 */
function templateTooLong(template: string, path: string): Problem | undefined {
  if (template.length <= MAX_KEY_TEMPLATE_BYTES && utf8ByteLength(template) <= MAX_KEY_TEMPLATE_BYTES) return undefined;
  const bytes = utf8ByteLength(template);
  const expected = `at most ${formatProblemCount(MAX_KEY_TEMPLATE_BYTES)} bytes, the largest key value DynamoDB stores (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)`;
  return problem('keyTemplate.tooLong', path, `Key template ${quote(template)} is ${formatProblemCount(bytes)} bytes of UTF-8; expected ${expected}. It was not parsed.`, {
    found: `${formatProblemCount(bytes)} bytes`,
    expected: `at most ${formatProblemCount(MAX_KEY_TEMPLATE_BYTES)} bytes`,
    details: { bytes },
  });
}

/** The whole code point at `i` (so a message never shows half of a surrogate pair). */
function charAt(s: string, i: number): string {
  const cp = s.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/**
 * Writes parts back as template source: the inverse of `parseKeyTemplate` (literal braces are
 * doubled). Adjacent literals are merged by the parse, so `parse(format(parts)).parts` equals the
 * normalized `parts`.
 */
export function formatKeyTemplate(parts: readonly KeyTemplatePart[]): string {
  return parts
    .map((p) =>
      p.kind === 'literal'
        ? p.text.replaceAll('{', '{{').replaceAll('}', '}}')
        : `{${p.name}${p.pad === undefined ? '' : `:0${p.pad}`}}`,
    )
    .join('');
}

/**
 * Renders a template with an item's values. Booleans render as `true`/`false`, numbers with
 * `String(n)`. Errors: `keyTemplate.missingValue` (a placeholder has no value, or null),
 * `keyTemplate.badPaddedValue` (a padded placeholder's value is not a non-negative integer that fits
 * the width: a wider number would silently break the string sort order the padding is for),
 * `keyTemplate.emptyKey` (the result is empty: DynamoDB key values are at least 1 byte). Collects every
 * problem.
 */
export function renderKeyTemplate(t: KeyTemplate, values: TemplateValues, path = ''): Result<string, Problem> {
  const problems: Problem[] = [];
  // Pieces joined once at the end: linear in the rendered length.
  const pieces: string[] = [];
  for (const part of t.parts) {
    if (part.kind === 'literal') {
      pieces.push(part.text);
      continue;
    }
    const value: unknown = Object.hasOwn(values, part.name) ? values[part.name] : undefined;
    if (value === undefined || value === null) {
      problems.push(
        problem('keyTemplate.missingValue', path, `Key template ${quote(t.source)}: no value for ${quote(part.name)}; expected the item to have ${quote(part.name)}.`, {
          found: 'no value',
          expected: `a value for ${part.name}`,
        }),
      );
      continue;
    }
    const text = String(value);
    if (part.pad === undefined) {
      pieces.push(text);
      continue;
    }
    const isInteger = typeof value === 'number' ? Number.isSafeInteger(value) && value >= 0 : typeof value === 'string' && /^[0-9]+$/.test(value);
    if (!isInteger || text.length > part.pad) {
      problems.push(
        problem(
          'keyTemplate.badPaddedValue',
          path,
          `Key template ${quote(t.source)}: {${clipText(part.name)}:0${part.pad}} got ${typeof value === 'string' ? quote(value) : text}; expected a non-negative integer of at most ${part.pad} digits.`,
          { found: typeof value === 'string' ? quote(value) : text, expected: `a non-negative integer of at most ${part.pad} digits` },
        ),
      );
      continue;
    }
    pieces.push(text.padStart(part.pad, '0'));
  }
  if (problems.length > 0) return fail(problems);
  const out = pieces.join('');
  if (out === '') {
    return fail([
      problem('keyTemplate.emptyKey', path, `Key template ${quote(t.source)} renders an empty string; expected at least 1 byte, DynamoDB rejects empty key values.`, {
        found: 'an empty string',
        expected: 'at least 1 byte',
      }),
    ]);
  }
  return ok(out);
}

/**
 * The literal text before the first placeholder: what a `begins_with` key condition can use when only
 * the template is known. The whole text for a constant; `''` when the template starts with a placeholder.
 */
export function literalPrefix(t: KeyTemplate): string {
  let prefix = '';
  for (const part of t.parts) {
    if (part.kind === 'attribute') break;
    prefix += part.text;
  }
  return prefix;
}

/** The attribute names the template's placeholders name, in order of first use, without repeats. */
export function templateAttributes(t: KeyTemplate): string[] {
  const names = new Set<string>();
  for (const part of t.parts) if (part.kind === 'attribute') names.add(part.name);
  return [...names];
}

/** Whether the template has no placeholder, so every item of the entity gets the same value. */
export function isConstant(t: KeyTemplate): boolean {
  return t.parts.every((p) => p.kind === 'literal');
}

/**
 * The number of bytes `s` takes in UTF-8, counted from its code points (lone surrogates count 3
 * bytes, as U+FFFD, which is what an encoder writes for them). DynamoDB sizes strings in UTF-8.
 */
export function utf8ByteLength(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i += 1) {
    const unit = s.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Estimates the size in bytes of a rendered key: the UTF-8 size of the literal text plus, per
 * placeholder, `attributeBytes[name]` (an average value size in bytes), or `fallbackBytes` when the
 * attribute has no size; a padded placeholder takes at least its width. Compare the result with
 * DynamoDB's limits (2,048 bytes for a partition key, 1,024 for a sort key).
 */
export function estimateRenderedBytes(t: KeyTemplate, attributeBytes: Readonly<Record<string, number>>, fallbackBytes: number): number {
  let bytes = 0;
  for (const part of t.parts) {
    if (part.kind === 'literal') bytes += utf8ByteLength(part.text);
    else {
      const size = Object.hasOwn(attributeBytes, part.name) ? (attributeBytes[part.name] ?? fallbackBytes) : fallbackBytes;
      bytes += Math.max(size, part.pad ?? 0);
    }
  }
  return bytes;
}
