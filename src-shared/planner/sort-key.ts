/**
 * What a target's sort key can do for a pattern: the sort-key part of a key condition, built from
 * the entity's sort-key template, the attributes the caller knows and the range the pattern needs.
 *
 * More on its rules: docs/modules.md, "src-shared/planner/sort-key.ts".
 */
import { formatKeyTemplate, type KeyTemplatePart } from '../model/index.ts';
import type { AttributeType, KeyAttribute, RangeOperator } from '../model/index.ts';
import type { BoundKey } from './table-view.ts';

/** Which sort-key values a condition can match: used to tell which entities of an item collection it reads. */
export type SortShape = { kind: 'any' } | { kind: 'prefix' | 'equal'; parts: KeyTemplatePart[] };

/** The sort-key half of a key condition. */
export interface SortKeyMatch {
  /** `SK = :sk`, `begins_with(SK, :sk)`, `SK BETWEEN :sk AND :skEnd` …; absent: the whole item collection. */
  condition?: string;
  values: Record<string, string>;
  /** Attributes the condition fixes by equality (known placeholders of the prefix). */
  fixed: string[];
  /** The caller knows the whole sort key (or the target has none). */
  isComplete: boolean;
  /** The pattern's range is applied (without a resultSize, half of the matches are assumed). */
  hasRange: boolean;
  scanIndexForward?: boolean;
  shape: SortShape;
  /** For explanations: `begins_with(SK, ORDER#)`, `SK BETWEEN …`. */
  description: string;
  notes: string[];
}

/** A sort-key condition, or why this sort key cannot serve the pattern. */
export type SortKeyResult = { ok: true; match: SortKeyMatch } | { ok: false; reason: string };

/** A range other than `=` (a range with `=` is a known attribute). */
export interface NeededRange {
  attribute: string;
  operator: Exclude<RangeOperator, '='>;
}

/** A placeholder of a key template. */
type AttributePart = Extract<KeyTemplatePart, { kind: 'attribute' }>;

/** A target's sort key and the entity's template for it, with what the pattern knows and needs. */
export interface SortKeyInput {
  key?: KeyAttribute;
  bound?: BoundKey;
  known: ReadonlySet<string>;
  range?: NeededRange;
  order?: 'asc' | 'desc';
  attributeType: (name: string) => AttributeType | undefined;
}

/** The first string after every string that starts with `prefix`, if the prefix ends in literal text. */
function successorOf(parts: readonly KeyTemplatePart[]): KeyTemplatePart[] | undefined {
  const last = parts[parts.length - 1];
  if (last?.kind !== 'literal' || last.text === '') return undefined;
  const code = last.text.charCodeAt(last.text.length - 1);
  if (code >= 0xffff) return undefined;
  return [...parts.slice(0, -1), { kind: 'literal', text: last.text.slice(0, -1) + String.fromCharCode(code + 1) }];
}

/**
 * Walks a template from the left: literal text and known placeholders make the prefix (`fixed`: the
 * known placeholders); `next` is the first placeholder the caller does not know, or the range's.
 */
function knownPrefixOf(
  parts: readonly KeyTemplatePart[],
  known: ReadonlySet<string>,
  range: NeededRange | undefined,
): { prefix: KeyTemplatePart[]; fixed: string[]; next?: AttributePart } {
  const prefix: KeyTemplatePart[] = [];
  const fixed: string[] = [];
  for (const part of parts) {
    if (part.kind === 'literal') prefix.push(part);
    else if (known.has(part.name) && part.name !== range?.attribute) {
      prefix.push(part);
      if (!fixed.includes(part.name)) fixed.push(part.name);
    } else return { prefix, fixed, next: part };
  }
  return { prefix, fixed };
}

/**
 * The condition for a range on `next` after the known `prefix` (written `prefixText`) of sort key
 * `sk`, bounded to the prefix where it can be (module comment).
 */
function rangeConditionOf(
  sk: string,
  range: NeededRange,
  prefix: KeyTemplatePart[],
  prefixText: string,
  next: AttributePart,
): { condition: string; values: Record<string, string>; shape: SortShape; notes: string[] } {
  const valueText = formatKeyTemplate([...prefix, next]);
  const notes: string[] = [];
  let condition: string;
  let values: Record<string, string>;
  let shape: SortShape = prefix.length > 0 ? { kind: 'prefix', parts: prefix } : { kind: 'any' };
  switch (range.operator) {
    case 'begins_with':
      condition = `begins_with(${sk}, :sk)`;
      values = { ':sk': valueText };
      shape = { kind: 'prefix', parts: [...prefix, next] };
      break;
    case 'between':
      condition = `${sk} BETWEEN :from AND :to`;
      values = { ':from': valueText, ':to': valueText };
      break;
    case '>':
    case '>=': {
      const end = prefix.length > 0 ? successorOf(prefix) : undefined;
      if (end) {
        condition = `${sk} BETWEEN :sk AND :skEnd`;
        values = { ':sk': valueText, ':skEnd': formatKeyTemplate(end) };
        notes.push(`${range.operator} ${range.attribute} is sent as ${sk} BETWEEN :sk AND :skEnd, bounded to the ${prefixText} prefix so it stays among these items${range.operator === '>' ? ' (BETWEEN is inclusive: the caller skips an equal value)' : ''}`);
      } else {
        condition = `${sk} ${range.operator} :sk`;
        values = { ':sk': valueText };
        if (prefix.length > 0) notes.push(`the ${prefixText} prefix ends with a placeholder, so the range is not bounded above and may read past these items`);
      }
      break;
    }
    case '<':
    case '<=':
      if (prefix.length > 0) {
        condition = `${sk} BETWEEN :skStart AND :sk`;
        values = { ':skStart': prefixText, ':sk': valueText };
        notes.push(`${range.operator} ${range.attribute} is sent as ${sk} BETWEEN :skStart AND :sk, bounded to the ${prefixText} prefix so it stays among these items${range.operator === '<' ? ' (BETWEEN is inclusive: the caller skips an equal value)' : ''}`);
      } else {
        condition = `${sk} ${range.operator} :sk`;
        values = { ':sk': valueText };
      }
      break;
  }
  return { condition, values, shape, notes };
}

/** Matches a target's sort key against what the pattern knows and needs. */
export function matchSortKey(input: SortKeyInput): SortKeyResult {
  const { key, bound, known, range, order } = input;
  const forward = order === undefined ? undefined : order === 'asc';
  if (!key) {
    if (range) return { ok: false, reason: `has no sort key, so it cannot serve the range on ${range.attribute}` };
    const notes = order ? ['it has no sort key, so items come back in no particular order'] : [];
    return { ok: true, match: { values: {}, fixed: [], isComplete: true, hasRange: false, shape: { kind: 'any' }, description: 'no sort key', notes } };
  }
  const template = bound?.template;
  if (!template) return { ok: false, reason: `has no usable template for its sort key ${key.name}` };
  const sk = key.name;
  const written = `${sk} = ${template.source}`;

  const { prefix, fixed, next } = knownPrefixOf(template.parts, known, range);
  const prefixText = formatKeyTemplate(prefix);

  if (!next) {
    if (range) return { ok: false, reason: `sort key ${written} does not hold ${range.attribute}, so it cannot serve the range on it` };
    const match: SortKeyMatch = {
      condition: `${sk} = :sk`,
      values: { ':sk': prefixText },
      fixed,
      isComplete: true,
      hasRange: false,
      shape: { kind: 'equal', parts: prefix },
      description: `${sk} = ${prefixText}`,
      notes: [],
    };
    if (forward !== undefined) match.scanIndexForward = forward;
    return { ok: true, match };
  }

  if (!range) {
    const match: SortKeyMatch =
      prefix.length > 0
        ? {
            condition: `begins_with(${sk}, :sk)`,
            values: { ':sk': prefixText },
            fixed,
            isComplete: false,
            hasRange: false,
            shape: { kind: 'prefix', parts: prefix },
            description: `begins_with(${sk}, ${prefixText})`,
            notes: [],
          }
        : { values: {}, fixed, isComplete: false, hasRange: false, shape: { kind: 'any' }, description: `every ${sk} of the item collection`, notes: [] };
    if (forward !== undefined) match.scanIndexForward = forward;
    return { ok: true, match };
  }

  if (next.name !== range.attribute) {
    const later = template.parts.some((p) => p.kind === 'attribute' && p.name === range.attribute);
    return {
      ok: false,
      reason: later
        ? `sort key ${written} needs ${next.name} before ${range.attribute}, which the caller does not know, so it cannot serve the range on ${range.attribute}`
        : `sort key ${written} does not hold ${range.attribute}, so it cannot serve the range on it`,
    };
  }
  const type = input.attributeType(next.name);
  if (key.type === 'S' && type === 'N' && next.pad === undefined && range.operator !== 'begins_with') {
    return {
      ok: false,
      reason: `sort key ${written} holds the number ${next.name} as unpadded text, which sorts 10 before 9, so it cannot serve the range on ${next.name}; pad it, e.g. {${next.name}:012}`,
    };
  }

  const { condition, values, shape, notes } = rangeConditionOf(sk, range, prefix, prefixText, next);
  const match: SortKeyMatch = {
    condition,
    values,
    fixed,
    isComplete: false,
    hasRange: true,
    shape,
    description: `${range.operator} on ${range.attribute} through ${written}`,
    notes,
  };
  if (forward !== undefined) match.scanIndexForward = forward;
  return { ok: true, match };
}

/**
 * Whether a sort-key condition of this shape can match items written with `template` (another entity
 * of the same item collection). Literal text decides; where a placeholder makes it undecidable, the
 * answer is yes (the estimate then counts those items as read).
 */
export function mayMatchSortKey(shape: SortShape, template: readonly KeyTemplatePart[]): boolean {
  if (shape.kind === 'any') return true;
  const literalRun = (parts: readonly KeyTemplatePart[]): { text: string; isWhole: boolean } => {
    let text = '';
    for (const p of parts) {
      if (p.kind === 'attribute') return { text, isWhole: false };
      text += p.text;
    }
    return { text, isWhole: true };
  };
  const a = literalRun(shape.parts);
  const b = literalRun(template);
  const n = Math.min(a.text.length, b.text.length);
  if (a.text.slice(0, n) !== b.text.slice(0, n)) return false;
  if (shape.kind === 'equal') {
    if (a.isWhole && b.isWhole) return a.text === b.text;
    if (a.isWhole) return b.text.length <= a.text.length;
    if (b.isWhole) return a.text.length <= b.text.length;
    return true;
  }
  // A prefix: the other value must start with it.
  if (b.isWhole && b.text.length < a.text.length) return false;
  return true;
}

/** A multi-attribute sort key's parts and what the entity writes into each. */
export interface SortKeyPartsInput {
  keys: readonly KeyAttribute[];
  bound: readonly BoundKey[];
  known: ReadonlySet<string>;
  range?: NeededRange;
  order?: 'asc' | 'desc';
  attributeType: (name: string) => AttributeType | undefined;
}

/** `:sk` → `:sk2`: one part's placeholders made distinct from the other parts'. */
function numbered(text: string, n: number): string {
  return text.replace(/:(\w+)/g, (_, name: string) => `:${name}${n}`);
}

/**
 * Matches a sort key of one or more attributes (docs/dynamodb-rules.md §11): conditions go left to
 * right without gaps; every attribute used but the last takes an equality; the last one used may take
 * a range or `begins_with`; trailing attributes may be left out (the Query reads the prefix). Each
 * part is matched as a sort key of its own (`matchSortKey`), so a part written from a template keeps
 * the template rules (literal prefix, zero padding). A one-attribute key is `matchSortKey` itself.
 */
export function matchSortKeyParts(input: SortKeyPartsInput): SortKeyResult {
  const { keys, bound, known, range, order, attributeType } = input;
  const key = keys[0];
  if (keys.length <= 1) {
    return matchSortKey({ ...(key ? { key } : {}), ...(bound[0] ? { bound: bound[0] } : {}), known, ...(range ? { range } : {}), ...(order ? { order } : {}), attributeType });
  }
  const label = keys.map((k) => k.name).join(' + ');
  const conditions: string[] = [];
  const descriptions: string[] = [];
  const values: Record<string, string> = {};
  const fixed: string[] = [];
  const notes: string[] = [];
  const shapeParts: KeyTemplatePart[] = [];
  let isComplete = true;
  let hasRange = false;
  let stoppedAt: number | undefined;
  for (let i = 0; i < keys.length; i += 1) {
    const part = keys[i] as KeyAttribute;
    const b = bound[i];
    const holdsRange = range !== undefined && (b?.template?.parts ?? []).some((p) => p.kind === 'attribute' && p.name === range.attribute);
    if (holdsRange && range?.operator === 'begins_with' && part.type === 'N') {
      return { ok: false, reason: `sort key ${label} holds ${range.attribute} as the number ${part.name}, and begins_with takes only a string or binary sort key attribute` };
    }
    const r = matchSortKey({ key: part, ...(b ? { bound: b } : {}), known, ...(holdsRange && range ? { range } : {}), attributeType });
    if (!r.ok) return { ok: false, reason: r.reason.replace(/^sort key /, `sort key attribute ${i + 1} of ${label}, `) };
    const m = r.match;
    if (m.condition) conditions.push(numbered(m.condition, i + 1));
    for (const [k, v] of Object.entries(m.values)) values[numbered(k, i + 1)] = v;
    for (const f of m.fixed) if (!fixed.includes(f)) fixed.push(f);
    notes.push(...m.notes);
    if (m.isComplete) {
      descriptions.push(m.description);
      if (m.shape.kind !== 'any') shapeParts.push(...m.shape.parts);
      continue;
    }
    // This part is the last one used: a range, a begins_with on its known prefix, or nothing.
    isComplete = false;
    hasRange = m.hasRange;
    if (m.condition) descriptions.push(m.description);
    if (m.shape.kind !== 'any') shapeParts.push(...m.shape.parts);
    stoppedAt = i;
    break;
  }
  if (range && !hasRange) {
    const later = keys.findIndex((_, i) => (bound[i]?.template?.parts ?? []).some((p) => p.kind === 'attribute' && p.name === range.attribute));
    const gap = stoppedAt !== undefined ? keys[stoppedAt] : undefined;
    return {
      ok: false,
      reason:
        later >= 0 && gap
          ? `sort key ${label} takes its conditions left to right without gaps, and the caller does not know ${gap.name}, so it cannot serve the range on ${range.attribute} (attribute ${later + 1} of the key)`
          : `sort key ${label} does not hold ${range.attribute}, so it cannot serve the range on it`,
    };
  }
  const match: SortKeyMatch = {
    ...(conditions.length > 0 ? { condition: conditions.join(' AND ') } : {}),
    values,
    fixed,
    isComplete,
    hasRange,
    shape: shapeParts.length > 0 ? { kind: isComplete ? 'equal' : 'prefix', parts: shapeParts } : { kind: 'any' },
    description: descriptions.length > 0 ? descriptions.join(' AND ') : `every ${label} of the item collection`,
    notes,
  };
  if (order) match.scanIndexForward = order === 'asc';
  return { ok: true, match };
}
