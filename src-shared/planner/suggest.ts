/**
 * Suggests an index for a pattern no key serves, in the model's terms (index name, key attributes,
 * the entity's key templates), and applies a suggestion to a table as a pure edit.
 *
 * - An LSI when the caller knows the table's partition key, the pattern needs a range, and asks for a
 *   strong (or transactional) read, which a GSI cannot give. Its sort key holds the other known
 *   attributes (`STATUS#{status}#`) and then the range attribute.
 * - Otherwise a GSI: its partition key is built from the known attributes, each as
 *   `NAME#{name}` (`STATUS#{status}`), or the entity's name upper-cased when nothing is known (one
 *   partition: a hot key at scale); its sort key is the range attribute, typed like it (so numbers
 *   sort as numbers), when the pattern needs a range.
 */
import { templateAttributes } from '../model/key-template.ts';
import type { Attribute, GlobalSecondaryIndex, KeyAttribute, KeyAttributeType, LocalSecondaryIndex, Table } from '../model/schema.ts';
import { MAX_LSIS_PER_TABLE } from '../model/validate.ts';
import type { ReadRequest } from './read.ts';
import type { EntityView, TableView } from './table-view.ts';
import type { IndexSuggestion } from './types.ts';

/** Width used to zero-pad a number that shares a string sort key with other parts. */
export const SUGGESTED_NUMBER_PAD = 20;

const keyTypeOf = (a: Attribute | undefined): KeyAttributeType => (a?.type === 'N' || a?.type === 'B' ? a.type : 'S');

function freeIndexName(table: Table, prefix: 'GSI' | 'LSI'): string {
  const names = new Set([...table.globalSecondaryIndexes, ...table.localSecondaryIndexes].map((i) => i.name));
  const keys = new Set([
    table.partitionKey.name,
    ...(table.sortKey ? [table.sortKey.name] : []),
    ...table.globalSecondaryIndexes.flatMap((g) => [g.partitionKey.name, ...(g.sortKey ? [g.sortKey.name] : [])]),
    ...table.localSecondaryIndexes.map((l) => l.sortKey.name),
  ]);
  for (let n = 1; ; n += 1) {
    const name = `${prefix}${n}`;
    if (!names.has(name) && !keys.has(`${name}PK`) && !keys.has(`${name}SK`)) return name;
  }
}

/** `STATUS#{status}` for each attribute, joined with `#`. */
const segments = (names: readonly string[]): string => names.map((n) => `${n.toUpperCase()}#{${n}}`).join('#');

/** An index that would serve the request with a Query, or undefined when nothing sensible fits. */
export function suggestIndex(view: TableView, ev: EntityView, request: ReadRequest): IndexSuggestion | undefined {
  const { table } = view;
  const entity = ev.entity;
  if (!Array.isArray(table.globalSecondaryIndexes) || !Array.isArray(table.localSecondaryIndexes)) return undefined;
  const attribute = (name: string): Attribute | undefined => entity.attributes.find((a) => a.name === name);
  const known = [...request.known].filter((k) => ev.attributeNames.has(k));
  const range = request.range && ev.attributeNames.has(request.range.attribute) ? request.range : undefined;

  const tablePk = ev.membership[0]?.partitionKey?.template;
  const tablePkAttributes = tablePk ? templateAttributes(tablePk) : undefined;
  const isTablePkKnown = tablePkAttributes !== undefined && tablePkAttributes.every((a) => known.includes(a)) && !ev.membership[0]?.partitionKey?.shards;
  const wantsStrong = request.pattern.consistency !== 'eventual';
  if (range && isTablePkKnown && table.sortKey && wantsStrong && table.localSecondaryIndexes.length < MAX_LSIS_PER_TABLE) {
    const name = freeIndexName(table, 'LSI');
    const extra = known.filter((k) => !tablePkAttributes.includes(k));
    const rangeAttribute = attribute(range.attribute);
    const isSingle = extra.length === 0;
    const needsPad = !isSingle && rangeAttribute?.type === 'N';
    const rangePart = `{${range.attribute}${needsPad ? `:0${SUGGESTED_NUMBER_PAD}` : ''}}`;
    const sortKeyTemplate = isSingle ? rangePart : `${segments(extra)}#${rangePart}`;
    const sortKey: KeyAttribute = { name: `${name}SK`, type: isSingle ? keyTypeOf(rangeAttribute) : 'S' };
    return {
      kind: 'lsi',
      sortKeyTemplate,
      reason: `an LSI ${name} with sort key ${sortKey.name} = ${sortKeyTemplate} on ${entity.name} would serve it with a strongly consistent Query on the table's partition key (${ev.membership[0]?.partitionKey?.source ?? ''}); an LSI must be created with the table and limits each item collection to 10 GB.${needsPad ? ` ${range.attribute} is zero-padded to ${SUGGESTED_NUMBER_PAD} digits so it sorts as a number (non-negative integers only).` : ''}`,
      entityId: entity.id,
      indexName: name,
      sortKey,
      projection: { type: 'ALL' },
    };
  }

  const name = freeIndexName(table, 'GSI');
  const partitionKeyTemplate = known.length > 0 ? segments(known) : entity.name.toUpperCase().replace(/[{}]/g, '') || 'ITEM';
  const partitionKey: KeyAttribute = { name: `${name}PK`, type: 'S' };
  const suggestion: IndexSuggestion = {
    kind: 'gsi',
    partitionKeyTemplate,
    reason: '',
    entityId: entity.id,
    indexName: name,
    partitionKey,
    projection: { type: 'ALL' },
  };
  if (range) {
    suggestion.sortKeyTemplate = `{${range.attribute}}`;
    suggestion.sortKey = { name: `${name}SK`, type: keyTypeOf(attribute(range.attribute)) };
  }
  suggestion.reason =
    `a GSI ${name} with partition key ${partitionKey.name} = ${partitionKeyTemplate}` +
    (suggestion.sortKey ? ` and sort key ${suggestion.sortKey.name} = ${suggestion.sortKeyTemplate ?? ''}` : '') +
    ` on ${entity.name} would serve it with a Query.` +
    (known.length === 0 ? ` The caller knows no attribute, so every ${entity.name} item shares one partition key: a hot key at scale (consider shards).` : '') +
    (wantsStrong ? ` A GSI reads eventually consistent only, not ${request.pattern.consistency} as the pattern asks.` : '');
  return suggestion;
}

/**
 * Adds a suggested index to a table and the suggested key templates to its entity: a pure edit that
 * returns a new table. Returns the table unchanged when the suggestion lacks what it needs (no
 * index name or key attributes, an unknown entity).
 */
export function applyIndexSuggestion(table: Table, suggestion: IndexSuggestion): Table {
  const { indexName, entityId } = suggestion;
  const entityIndex = table.entities.findIndex((e) => e.id === entityId);
  if (indexName === undefined || entityIndex < 0) return table;
  const ids = new Set([...table.globalSecondaryIndexes, ...table.localSecondaryIndexes].map((i) => i.id));
  let id = `${suggestion.kind}-${indexName.toLowerCase()}`;
  for (let n = 2; ids.has(id); n += 1) id = `${suggestion.kind}-${indexName.toLowerCase()}-${n}`;
  const projection = suggestion.projection ?? { type: 'ALL' as const };
  const entity = table.entities[entityIndex];
  if (!entity) return table;
  const keys = { ...entity.keys };
  const next: Table = { ...table };
  if (suggestion.kind === 'gsi') {
    if (!suggestion.partitionKey || suggestion.partitionKeyTemplate === undefined) return table;
    const gsi: GlobalSecondaryIndex = { id, name: indexName, partitionKey: suggestion.partitionKey, projection };
    if (suggestion.sortKey) gsi.sortKey = suggestion.sortKey;
    if (table.billing.mode === 'PROVISIONED') {
      gsi.provisioned = { readCapacityUnits: table.billing.readCapacityUnits, writeCapacityUnits: table.billing.writeCapacityUnits };
    }
    next.globalSecondaryIndexes = [...table.globalSecondaryIndexes, gsi];
    keys[suggestion.partitionKey.name] = { template: suggestion.partitionKeyTemplate };
    if (suggestion.sortKey && suggestion.sortKeyTemplate !== undefined) keys[suggestion.sortKey.name] = { template: suggestion.sortKeyTemplate };
  } else {
    if (!suggestion.sortKey || suggestion.sortKeyTemplate === undefined) return table;
    const lsi: LocalSecondaryIndex = { id, name: indexName, sortKey: suggestion.sortKey, projection };
    next.localSecondaryIndexes = [...table.localSecondaryIndexes, lsi];
    keys[suggestion.sortKey.name] = { template: suggestion.sortKeyTemplate };
  }
  next.entities = table.entities.map((e, i) => (i === entityIndex ? { ...e, keys } : e));
  return next;
}
