/**
 * What a read pattern (get, query, count) knows and needs, sanitized once before any target is
 * tried: designs being edited can hold anything, so an unknown range operator or a filter that does
 * not parse is dropped with a note instead of failing the plan.
 */
import {
  parseCondition,
  type Condition,
  RANGE_OPERATORS,
  type AccessPattern,
  isCountPattern,
  kindOf,
} from '../model/index.ts';
import type { NeededRange } from './sort-key.ts';
import type { EntityView, TableView } from './table-view.ts';

/** What a read pattern knows and needs, sanitized once. */
export interface ReadRequest {
  pattern: AccessPattern;
  view: TableView;
  entity: EntityView;
  /** Attributes known by equality (a range with `=` counts as known). */
  known: Set<string>;
  range?: NeededRange;
  resultSize?: number;
  filter?: Condition;
  /** What the caller needs back: `item`, a list of the entity's attributes, or undefined for a count. */
  returns?: 'item' | string[];
  notes: string[];
}

/** Sanitizes a read pattern's inputs (designs being edited can hold anything). */
export function readRequestOf(view: TableView, entity: EntityView, pattern: AccessPattern): ReadRequest {
  const notes: string[] = [];
  const known = new Set((Array.isArray(pattern.known) ? pattern.known : []).filter((k): k is string => typeof k === 'string'));
  let range: NeededRange | undefined;
  const r = pattern.range;
  if (r && typeof r.attribute === 'string' && r.attribute !== '') {
    if (!(RANGE_OPERATORS as readonly string[]).includes(r.operator)) notes.push(`The range operator ${JSON.stringify(r.operator)} is unknown: the range is ignored.`);
    else if (r.operator === '=') known.add(r.attribute);
    else {
      range = { attribute: r.attribute, operator: r.operator };
      known.delete(r.attribute);
    }
  }
  const request: ReadRequest = { pattern, view, entity, known, notes };
  if (range) request.range = range;
  if (typeof pattern.resultSize === 'number' && Number.isFinite(pattern.resultSize) && pattern.resultSize >= 0) request.resultSize = Math.floor(pattern.resultSize);
  if (typeof pattern.filter === 'string' && pattern.filter.trim() !== '') {
    const parsed = parseCondition(pattern.filter);
    if (parsed.ok) request.filter = parsed.value;
    else notes.push(`The filter ${JSON.stringify(pattern.filter)} does not parse: it is ignored.`);
  }
  if (!isCountPattern(pattern)) {
    const r = pattern.returns;
    request.returns = Array.isArray(r) ? [...new Set(r.filter((a): a is string => typeof a === 'string' && entity.attributeNames.has(a)))] : 'item';
  }
  return request;
}

/** The items the caller wants back: its resultSize, else 1 for a get; undefined: every match. */
export function wantedItems(request: ReadRequest): number | undefined {
  return request.resultSize ?? (kindOf(request.pattern.action).single ? 1 : undefined);
}
