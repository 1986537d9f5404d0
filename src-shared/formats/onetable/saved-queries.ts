/**
 * OneTable import, step three: saved queries as access patterns. A query that names an index and a
 * partition key value reads the entity whose templates its values fit; its comparison is the range,
 * its `limit` the result size, its filters the filter. See `import.ts` for the mapping in full.
 */
import {
  formatCondition,
  type ComparisonOperator,
  type ConditionClause,
  type ConditionValue,
  formatProblemCount,
  parseKeyTemplate,
  type KeyTemplatePart,
  describeValue,
  joinPath,
} from '../../model/index.ts';
import type { AccessPattern, Entity, RangeOperator, Table } from '../../model/index.ts';
import { slug } from '../common/ids.ts';
import { uniqueName } from '../common/table-spec.ts';
import { ONETABLE_DEFAULT_RATE_PER_SECOND } from './defaults.ts';
import { isRecord, lookup, own, quote, shownValue, type Log } from './import-log.ts';
import type { IndexRead, ModelRead } from './schema-shape.ts';

/** Saved-query operations (the SenseDeep app's words) and the range operator each is. */
const OPERATIONS: Record<string, RangeOperator> = {
  equal: '=',
  'less than': '<',
  'less than or equal': '<=',
  'greater than or equal': '>=',
  'greater than': '>',
  'begins with': 'begins_with',
  between: 'between',
};

/** Filter operations Keyplan's filter conditions can say: a comparison operator, or an existence test. */
const FILTER_OPERATORS: Record<string, ComparisonOperator | 'exists' | 'notExists'> = {
  equal: '=',
  'not equal': '<>',
  'less than': '<',
  'less than or equal': '<=',
  'greater than': '>',
  'greater than or equal': '>=',
  existing: 'exists',
  'not existing': 'notExists',
};

interface KeyMatch {
  /** Placeholders the value fixes. */
  known: string[];
  /** The placeholder a comparison (not equality) applies to. */
  rangeOn?: string;
  /** Whether the value is the whole template (every placeholder fixed). */
  isComplete: boolean;
}

/**
 * Which placeholders of a template a key value fixes. `operator` '=' needs the whole value to fit the
 * template; any other operator takes the value as the start of a key: the placeholders it covers up
 * to the next literal are fixed, and the one it ends in (or, when it covers them all, the last) is
 * the one the comparison is on. Undefined when the value does not fit.
 */
function matchKey(parts: readonly KeyTemplatePart[], value: string, operator: RangeOperator): KeyMatch | undefined {
  const known: string[] = [];
  let pos = 0;
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as KeyTemplatePart;
    const rest = value.slice(pos);
    if (part.kind === 'literal') {
      if (rest.startsWith(part.text)) {
        pos += part.text.length;
        continue;
      }
      // The value stops inside the literal: a prefix of the key, with nothing to compare on.
      if (operator !== '=' && part.text.startsWith(rest)) return { known, isComplete: false };
      return undefined;
    }
    if (rest === '') return operator === '=' ? undefined : { known, isComplete: false };
    const next = parts[i + 1];
    if (next?.kind === 'literal') {
      const end = value.indexOf(next.text, pos + 1);
      if (end > pos) {
        if (!known.includes(part.name)) known.push(part.name);
        pos = end;
        continue;
      }
      // The value ends inside this placeholder.
      return operator === '=' ? undefined : { known, rangeOn: part.name, isComplete: false };
    }
    // The last placeholder (or one followed by another) takes the rest of the value.
    if (operator !== '=') return { known, rangeOn: part.name, isComplete: false };
    if (!known.includes(part.name)) known.push(part.name);
    pos = value.length;
  }
  if (pos !== value.length) return undefined;
  return { known, isComplete: true };
}

/** What reading a saved query needs of the design read so far. */
export interface QueryContext {
  table: Table;
  indexes: readonly IndexRead[];
  models: readonly ModelRead[];
  entities: readonly Entity[];
  ids: Set<string>;
  tableSlug: string;
  log: Log;
}

/** The template an entity writes into a key attribute: its binding, or the attribute itself (a natural key). */
function keyTemplateOf(entity: Entity, attribute: string): KeyTemplatePart[] | undefined {
  const binding = Object.hasOwn(entity.keys, attribute) ? entity.keys[attribute] : undefined;
  if (binding) {
    const parsed = parseKeyTemplate(binding.template);
    return parsed.ok ? parsed.value.parts : undefined;
  }
  return entity.attributes.some((a) => a.name === attribute) ? [{ kind: 'attribute', name: attribute }] : undefined;
}

/** A saved query's filters as a Keyplan filter, when they are comparisons of the entity's attributes joined by And. */
function filterOf(raw: unknown, path: string, entity: Entity, log: Log): string | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    log.warn(path, `${path} is ${describeValue(raw)}; expected a list of filters, so the query has no filter.`);
    return undefined;
  }
  if (raw.length === 0) return undefined;
  const clauses: ConditionClause[] = [];
  const skip = (message: string): undefined => {
    log.drop(path, `The filters are not kept: ${message}`);
    return undefined;
  };
  const lower = (v: unknown): string => (typeof v === 'string' ? v.toLowerCase() : '');
  // Equal filters on one field joined by Or (how toOneTable writes IN): one IN clause.
  const first = raw[0];
  const isOneOf =
    raw.length > 1 &&
    isRecord(first) &&
    raw.every((f, i) => isRecord(f) && own(f, 'field') === own(first, 'field') && lower(own(f, 'operation')) === 'equal' && (i === 0 || lower(own(f, 'combine')) === 'or'));
  if (isOneOf) {
    const field = own(first, 'field');
    const attribute = entity.attributes.find((a) => a.name === field);
    const values = raw.map((f) => (isRecord(f) ? own(f, 'value') : undefined));
    const isTyped = (v: unknown): v is ConditionValue =>
      attribute?.type === 'N' ? typeof v === 'number' && Number.isFinite(v) : attribute?.type === 'BOOL' ? typeof v === 'boolean' : attribute?.type === 'S' && typeof v === 'string';
    if (typeof field !== 'string' || !attribute || !values.every(isTyped)) return skip(`the Or filters on ${describeValue(field)} do not compare an attribute of ${entity.name} with values of its type.`);
    return formatCondition([{ kind: 'in', attribute: field, values }]);
  }
  for (let i = 0; i < raw.length; i += 1) {
    const f: unknown = raw[i];
    if (!isRecord(f)) return skip(`filter ${i + 1} is ${describeValue(f)}, not a filter object.`);
    const field = own(f, 'field');
    const operation = own(f, 'operation');
    const combine = own(f, 'combine');
    if (typeof field !== 'string' || typeof operation !== 'string') return skip(`filter ${i + 1} has no "field" or no "operation".`);
    if (i > 0 && typeof combine === 'string' && combine.toLowerCase() !== 'and') return skip(`filter ${i + 1} is combined with ${quote(combine)}; Keyplan's filters join comparisons with AND only.`);
    const attribute = entity.attributes.find((a) => a.name === field);
    if (!attribute) return skip(`filter ${i + 1} tests ${quote(field)}, which is not an attribute of ${entity.name}.`);
    const op = lookup(FILTER_OPERATORS, operation.toLowerCase());
    if (op === undefined) return skip(`filter ${i + 1} uses ${quote(operation)}; Keyplan's filters compare (=, <>, <, <=, >, >=) or test existence.`);
    if (op === 'exists' || op === 'notExists') {
      clauses.push({ kind: op, attribute: field });
      continue;
    }
    const rawValue = own(f, 'value');
    let value: ConditionValue | undefined;
    if (attribute.type === 'N') value = typeof rawValue === 'number' ? rawValue : typeof rawValue === 'string' && rawValue.trim() !== '' && Number.isFinite(Number(rawValue)) ? Number(rawValue) : undefined;
    else if (attribute.type === 'BOOL') value = rawValue === true || rawValue === 'true' ? true : rawValue === false || rawValue === 'false' ? false : undefined;
    else if (attribute.type === 'S') value = typeof rawValue === 'string' ? rawValue : typeof rawValue === 'number' || typeof rawValue === 'boolean' ? String(rawValue) : undefined;
    if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) return skip(`filter ${i + 1} compares ${quote(field)}, ${attribute.type === 'S' ? 'a string' : `an ${attribute.type} attribute`}, with ${describeValue(rawValue)}.`);
    clauses.push({ kind: 'compare', attribute: field, operator: op, value });
  }
  return formatCondition(clauses);
}

/** The access pattern of saved query `name`, with its path in the schema; undefined (with a note) when it is skipped. */
export function readQuery(name: string, q: unknown, ctx: QueryContext): { pattern: AccessPattern; path: string } | undefined {
  const { log } = ctx;
  const path = joinPath('queries', name);
  if (!isRecord(q)) {
    log.warn(path, `${path} is ${describeValue(q)}, not a saved query; it is skipped.`);
    return undefined;
  }
  const type = own(q, 'type');
  if (typeof type === 'string' && type.toLowerCase() === 'scan') {
    log.drop(path, 'The saved query is a Scan; Keyplan\'s access patterns read by key (a Scan is what the planner falls back to), so it is skipped.');
    return undefined;
  }
  const indexName = own(q, 'index') ?? 'primary';
  if (own(q, 'index') === undefined) log.infer(path, 'The saved query names no index; it is read as a query of the primary index.');
  const index = ctx.indexes.find((i) => i.name === indexName);
  if (!index) {
    log.warn(joinPath(path, 'index'), `The saved query names the index ${shownValue(indexName)}, which is not in "indexes"; it is skipped.`);
    return undefined;
  }
  const hash = own(q, 'hash');
  if ((typeof hash !== 'string' || hash === '') && typeof hash !== 'number') {
    log.warn(joinPath(path, 'hash'), `The saved query's partition key value is ${describeValue(hash)}; expected the value to query, so it is skipped.`);
    return undefined;
  }
  const sortRaw = own(q, 'sort');
  const sort = typeof sortRaw === 'string' || typeof sortRaw === 'number' ? String(sortRaw) : '';
  const operationRaw = own(q, 'operation');
  let operator: RangeOperator = '=';
  if (sort !== '') {
    const op = typeof operationRaw === 'string' ? lookup(OPERATIONS, operationRaw.toLowerCase()) : undefined;
    if (op === undefined) {
      log.warn(joinPath(path, 'operation'), `The saved query's operation is ${shownValue(operationRaw)}; expected one of Equal, Less than, Less than or equal, Greater than or equal, Greater than, Begins with, Between. The sort key value is read as a prefix.`);
      operator = 'begins_with';
    } else operator = op;
  }
  const modelName = own(q, 'model');
  let candidates = ctx.entities;
  if (modelName !== undefined) {
    candidates = ctx.entities.filter((e) => e.name === modelName);
    if (candidates.length === 0) {
      log.warn(joinPath(path, 'model'), `The saved query names the model ${shownValue(modelName)}, which is not in "models"; it is skipped.`);
      return undefined;
    }
  }
  const matches: Array<{ entity: Entity; known: string[]; range?: { attribute: string; operator: RangeOperator }; isWholeKey: boolean }> = [];
  for (const entity of candidates) {
    const hashParts = keyTemplateOf(entity, index.hash);
    const hashMatch = hashParts ? matchKey(hashParts, String(hash), '=') : undefined;
    if (!hashMatch) continue;
    const known = [...hashMatch.known];
    let range: { attribute: string; operator: RangeOperator } | undefined;
    let isWholeKey = index.sort === undefined;
    if (index.sort !== undefined && sort !== '') {
      const sortParts = keyTemplateOf(entity, index.sort);
      const sortMatch = sortParts ? matchKey(sortParts, sort, operator) : undefined;
      if (!sortMatch) continue;
      for (const k of sortMatch.known) if (!known.includes(k) && k !== sortMatch.rangeOn) known.push(k);
      if (operator === '=') isWholeKey = sortMatch.isComplete;
      else if (sortMatch.rangeOn !== undefined) range = { attribute: sortMatch.rangeOn, operator };
    }
    matches.push({ entity, known, ...(range ? { range } : {}), isWholeKey });
  }
  const chosen = matches[0];
  if (!chosen) {
    const which = modelName !== undefined ? `the templates of ${quote(String(modelName))}` : 'the templates of any model';
    log.warn(path, `The saved query's key values (${quote(String(hash))}${sort !== '' ? `, ${quote(sort)}` : ''}) do not fit ${which} on index ${quote(index.name)}; it is skipped.`);
    return undefined;
  }
  if (matches.length > 1) {
    log.infer(path, `The key values fit ${matches.map((m) => quote(m.entity.name)).join(', ')}; a Keyplan pattern reads one entity, so it reads ${quote(chosen.entity.name)} (name the model in the query to choose).`);
  }
  const isGet = index.kind === 'primary' && chosen.isWholeKey && chosen.range === undefined;
  const pattern: AccessPattern = {
    id: uniqueName(`ap-${ctx.tableSlug}-${slug(name)}`, ctx.ids),
    name: name.trim() === '' ? `Saved query ${ctx.table.accessPatterns.length + 1}` : name,
    entityId: chosen.entity.id,
    action: isGet ? 'get' : 'query',
    known: chosen.known,
    ratePerSecond: ONETABLE_DEFAULT_RATE_PER_SECOND,
    consistency: 'eventual',
  };
  if (chosen.range) pattern.range = chosen.range;
  const limit = own(q, 'limit');
  if (!isGet && typeof limit === 'number' && Number.isInteger(limit) && limit > 0) {
    pattern.resultSize = limit;
    log.infer(joinPath(path, 'limit'), `limit ${limit} is read as the result size: at most ${formatProblemCount(limit)} ${limit === 1 ? 'item' : 'items'} per request.`);
  }
  const filter = filterOf(own(q, 'filters'), joinPath(path, 'filters'), chosen.entity, log);
  if (filter !== undefined) pattern.filter = filter;
  log.infer(path, `A saved query holds no rate or consistency: ${ONETABLE_DEFAULT_RATE_PER_SECOND} request per second, eventually consistent.`);
  for (const key of Object.keys(q)) {
    if (['hash', 'sort', 'index', 'limit', 'operation', 'model', 'type', 'filters', 'schema', 'name'].includes(key)) continue;
    log.warn(joinPath(path, key), `${key} is not a saved-query property the OneTable schema specification defines; it is ignored.`);
  }
  return { pattern, path };
}
