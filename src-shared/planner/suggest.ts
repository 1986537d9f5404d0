/**
 * Suggests an index for a pattern no key serves, in the model's terms (index name, key attributes,
 * the entity's key templates), and applies a suggestion to a table as a pure edit.
 *
 * More on its rules: docs/modules.md, "src-shared/planner/suggest.ts".
 */
import {
  conditionAttributes,
  isCountPattern,
  kindOf,
  templateAttributes,
  MAX_KEY_ATTRIBUTES_PER_PART,
  type Attribute,
  type GlobalSecondaryIndex,
  type KeyAttribute,
  type KeyAttributeType,
  type LocalSecondaryIndex,
  type Projection,
  type Table,
  MAX_LSIS_PER_TABLE,
  gsiKeyAttributes,
  isMultiAttributeKey,
  partitionKeysOf,
  sortKeysOf,
  storedKeyPart,
  utf8ByteLength,
} from '../model/index.ts';
import { formatList } from './count-estimate.ts';
import type { ReadRequest } from './read-request.ts';
import type { EntityView, TableView } from './table-view.ts';
import type { IndexSuggestion } from './types.ts';
import { formatNumber } from '../numbers/index.ts';

/** Width used to zero-pad a number that shares a string sort key with other parts. */
export const SUGGESTED_NUMBER_PAD = 20;

const keyTypeOf = (a: Attribute | undefined): KeyAttributeType => (a?.type === 'N' || a?.type === 'B' ? a.type : 'S');

function freeIndexName(table: Table, prefix: 'GSI' | 'LSI'): string {
  const names = new Set([...table.globalSecondaryIndexes, ...table.localSecondaryIndexes].map((i) => i.name));
  const keys = new Set([
    table.partitionKey.name,
    ...(table.sortKey ? [table.sortKey.name] : []),
    ...table.globalSecondaryIndexes.flatMap((g) => gsiKeyAttributes(g).map((k) => k.name)),
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

  // A partition key built only from constants puts every item in one partition: no index to suggest.
  if (keyedOn(known, entity).length === 0) return undefined;
  const projection = projectionFor(request, ev, table);
  const partitionKeyTemplate = segments(known);
  const reuse = reusableGsi(table, ev, range, attribute, projection);
  const reused = reuse?.gsi;
  // A filter cannot name the key attributes of what it queries: an index keyed on an attribute the
  // pattern filters on could not serve it, so that one gets a synthetic key.
  const filtered = request.filter ? conditionAttributes(request.filter) : [];
  const natural = [...known, ...(range ? [range.attribute] : [])].some((a) => filtered.includes(a)) ? undefined : naturalKeyFor(known, range, attribute);
  if (!reused && natural) return naturalSuggestion(view, ev, request, natural, projection, partitionKeyTemplate);
  const name = reused?.name ?? freeIndexName(table, 'GSI');
  const partitionKey: KeyAttribute = (reused && partitionKeysOf(reused)[0]) || { name: `${name}PK`, type: 'S' };
  const suggestion: IndexSuggestion = {
    kind: 'gsi',
    partitionKeyTemplate,
    reason: '',
    entityId: entity.id,
    indexName: name,
    partitionKey,
    projection: reuse?.projection ?? projection,
  };
  if (reused) suggestion.reuses = true;
  const sortKey = reused ? sortKeysOf(reused)[0] : range ? { name: `${name}SK`, type: keyTypeOf(attribute(range.attribute)) } : undefined;
  if (sortKey) {
    suggestion.sortKey = sortKey;
    suggestion.sortKeyTemplate = range ? `{${range.attribute}}` : entity.name.toUpperCase().replace(/[{}]/g, '') || 'ITEM';
  }
  const projectionNote = reused ? '' : projectionText(suggestion.projection ?? projection, request);
  suggestion.reason =
    (reused
      ? `GSI ${name} already exists: giving ${entity.name} the templates ${partitionKey.name} = ${partitionKeyTemplate}` +
        (sortKey ? ` and ${sortKey.name} = ${suggestion.sortKeyTemplate ?? ''}` : '') +
        ` would serve it with a Query, without a new index (the index is overloaded).` +
        (reuse?.changes
          ? ` Its projection becomes ${reuse.projection.type === 'INCLUDE' ? `INCLUDE ${reuse.projection.nonKeyAttributes.join(', ')}` : reuse.projection.type} to hold what the pattern needs` +
            (() => {
              const others = table.entities.filter((e) => e.id !== entity.id && Object.hasOwn(e.keys, partitionKey.name)).map((e) => e.name);
              return others.length > 0 ? `, which also enlarges the entries of ${others.join(', ')} already in it (more storage and index writes)` : '';
            })() +
            ` (DynamoDB cannot change a GSI's projection in place: the index is deleted and created again). A new GSI instead leaves ${name} as it is.`
          : '')
      : `a GSI ${name} with partition key ${partitionKey.name} = ${partitionKeyTemplate}` +
        (sortKey ? ` and sort key ${sortKey.name} = ${suggestion.sortKeyTemplate ?? ''}` : '') +
        ` on ${entity.name} would serve it with a Query.`) +
    (reused && natural
      ? ` Or a new GSI keyed on ${entity.name}'s own ${formatList(natural.partitionKeys.map((k) => k.name))}${natural.sortKeys.length > 0 ? ` and ${natural.sortKeys.map((k) => k.name).join(', ')}` : ''}, with no template to maintain, at the cost of one more index.`
      : '') +
    projectionNote +
    (isCountPattern(request.pattern) ? ` ${counterNote(view, ev)}` : '') +
    (wantsStrong ? ` A GSI reads eventually consistent only, not ${request.pattern.consistency} as the pattern asks.` : '');
  return suggestion;
}

/** The sizes a synthetic key's value is estimated at where the attribute states none (bytes rendered). */
const RENDERED_DEFAULT: Readonly<Record<string, number>> = { S: 16, N: 8, B: 16 };

/**
 * The entity's own attributes as a GSI key (docs/dynamodb-rules.md §11): the known attributes as
 * the partition key (1–4, hashed together) and the range attribute as the sort key, each with its
 * own type. Undefined where that cannot serve: more than 4 known attributes, an attribute that is
 * not a string, number or binary, or begins_with on a number.
 */
function naturalKeyFor(
  known: readonly string[],
  range: ReadRequest['range'],
  attribute: (name: string) => Attribute | undefined,
): { partitionKeys: KeyAttribute[]; sortKeys: KeyAttribute[] } | undefined {
  if (known.length === 0 || known.length > MAX_KEY_ATTRIBUTES_PER_PART) return undefined;
  const keyOf = (name: string): KeyAttribute | undefined => {
    const type = attribute(name)?.type;
    return type === 'S' || type === 'N' || type === 'B' ? { name, type } : undefined;
  };
  const partitionKeys = known.map(keyOf);
  if (partitionKeys.some((k) => k === undefined)) return undefined;
  const sortKey = range ? keyOf(range.attribute) : undefined;
  if (range && (!sortKey || (range.operator === 'begins_with' && sortKey.type === 'N'))) return undefined;
  return { partitionKeys: partitionKeys as KeyAttribute[], sortKeys: sortKey ? [sortKey] : [] };
}

/** About how many bytes a synthetic key attribute adds to each item: its name, its literal text and its attributes rendered. */
function syntheticKeyBytes(name: string, template: string, attribute: (name: string) => Attribute | undefined): number {
  let bytes = utf8ByteLength(name);
  for (const part of template.split(/(\{[^}]*\})/)) {
    if (part.startsWith('{') && part.endsWith('}')) {
      const a = attribute(part.slice(1, -1).split(':')[0] ?? '');
      bytes += a?.averageSizeBytes ?? RENDERED_DEFAULT[a?.type ?? 'S'] ?? 16;
    } else bytes += utf8ByteLength(part);
  }
  return bytes;
}

/**
 * A new GSI on the entity's own attributes, and what it saves against the synthetic key the
 * suggestion would otherwise add (no attribute to write and keep in sync, smaller items, no backfill).
 */
function naturalSuggestion(
  view: TableView,
  ev: EntityView,
  request: ReadRequest,
  natural: { partitionKeys: KeyAttribute[]; sortKeys: KeyAttribute[] },
  projection: Projection,
  syntheticPk: string,
): IndexSuggestion {
  const { table } = view;
  const entity = ev.entity;
  const attribute = (name: string): Attribute | undefined => entity.attributes.find((a) => a.name === name);
  const name = freeIndexName(table, 'GSI');
  const pk = natural.partitionKeys.map((k) => k.name);
  const sk = natural.sortKeys.map((k) => k.name);
  const isMulti = pk.length > 1 || sk.length > 1;
  const syntheticSk = request.range ? `{${request.range.attribute}}` : undefined;
  const saved = syntheticKeyBytes(`${name}PK`, syntheticPk, attribute) + (syntheticSk ? syntheticKeyBytes(`${name}SK`, syntheticSk, attribute) : 0);
  const others = table.entities.filter((e) => e.id !== entity.id && [...pk, ...sk].every((n) => e.attributes.some((a) => a.name === n))).map((e) => e.name);
  const suggestion: IndexSuggestion = {
    kind: 'gsi',
    reason:
      `a GSI ${name} keyed on ${entity.name}'s own attributes, partition key ${pk.join(' + ')}${sk.length > 0 ? ` and sort key ${sk.join(' + ')}` : ''}` +
      `${isMulti ? ' (a multi-attribute key)' : ''}, would serve it with a Query. ` +
      `Against a synthetic key ${name}PK = ${syntheticPk}${syntheticSk ? ` and ${name}SK = ${syntheticSk}` : ''}, it saves: no key attribute to write and keep in sync, ` +
      `about ${saved} B less per ${entity.name} item (the synthetic attributes' names and values), and no backfill of existing items when the index is added.` +
      (others.length > 0 ? ` ${formatList(others)} items also carry ${formatList([...pk, ...sk])}, so they are in it too (more index writes and storage).` : '') +
      projectionText(projection, request) +
      (isCountPattern(request.pattern) ? ` ${counterNote(view, ev)}` : '') +
      (request.pattern.consistency !== 'eventual' ? ` A GSI reads eventually consistent only, not ${request.pattern.consistency} as the pattern asks.` : ''),
    entityId: entity.id,
    indexName: name,
    partitionKey: natural.partitionKeys[0] as KeyAttribute,
    projection,
    natural,
  };
  if (natural.sortKeys[0]) suggestion.sortKey = natural.sortKeys[0];
  return suggestion;
}

/** Known attributes that vary (a constant generator or a cardinality of 1 makes a constant key). */
function keyedOn(known: readonly string[], entity: EntityView['entity']): string[] {
  return known.filter((k) => {
    const a = entity.attributes.find((x) => x.name === k);
    return a !== undefined && a.generator?.kind !== 'constant' && a.cardinality !== 1;
  });
}

/**
 * The projection a new index needs for the pattern: KEYS_ONLY for a count, INCLUDE of the returned
 * and filtered non-key attributes for a list, ALL for the whole item.
 */
function projectionFor(request: ReadRequest, ev: EntityView, table: Table): Projection {
  if (isCountPattern(request.pattern) && !request.filter) return { type: 'KEYS_ONLY' };
  const filtered = request.filter ? conditionAttributes(request.filter) : [];
  if (request.returns === 'item' && !isCountPattern(request.pattern)) return { type: 'ALL' };
  const keyNames = new Set([table.partitionKey.name, table.sortKey?.name]);
  const wanted = [...new Set([...(Array.isArray(request.returns) ? request.returns : []), ...filtered])].filter((a) => ev.attributeNames.has(a) && !keyNames.has(a));
  return wanted.length === 0 ? { type: 'KEYS_ONLY' } : { type: 'INCLUDE', nonKeyAttributes: wanted };
}

function projectionText(p: Projection, request: ReadRequest): string {
  if (p.type === 'KEYS_ONLY') return isCountPattern(request.pattern) ? ' A count needs only the keys: KEYS_ONLY keeps the index small and its writes at 1 WCU.' : ' KEYS_ONLY: the pattern needs only key attributes.';
  if (p.type === 'INCLUDE') return ` Projection INCLUDE ${p.nonKeyAttributes.join(', ')}: what the pattern returns and filters on, and no more.`;
  return '';
}

/** The counter-item alternative for a count: its write cost, from the entity's put and delete patterns. */
export function counterNote(view: TableView, ev: EntityView): string {
  const writes = (view.table.accessPatterns ?? []).filter((p) => p.entityId === ev.entity.id && kindOf(p.action).changesItemCount);
  const rate = writes.reduce((s, p) => s + (Number.isFinite(p.ratePerSecond) ? p.ratePerSecond : 0), 0);
  return `Or keep a counter item that each put and delete of ${ev.entity.name} updates (ADD count 1 / -1): a GetItem of 0.5 RCU per count, for ${rate > 0 ? `${formatNumber(rate, 3)} extra WCU/s (1 WCU per write, from the put and delete patterns)` : '1 extra WCU per put or delete'}.`;
}

/**
 * An existing GSI the entity is not in (it has no templates for its keys) whose key shape fits: a
 * string partition key, and a sort key exactly when a range is needed (typed like the range).
 */
function reusableGsi(
  table: Table,
  ev: EntityView,
  range: ReadRequest['range'],
  attribute: (name: string) => Attribute | undefined,
  needed: Projection,
): { gsi: GlobalSecondaryIndex; projection: Projection; changes: boolean } | undefined {
  const fitting = table.globalSecondaryIndexes.filter((g) => {
    // Overloading takes a one-attribute string key the entity writes a template into; a
    // multi-attribute index holds the items that carry its attributes, and no template changes that.
    if (isMultiAttributeKey(g)) return false;
    const [pk] = partitionKeysOf(g);
    const [sk] = sortKeysOf(g);
    if (!pk || pk.type !== 'S' || Object.hasOwn(ev.entity.keys, pk.name) || ev.attributeNames.has(pk.name)) return false;
    if (sk && (Object.hasOwn(ev.entity.keys, sk.name) || ev.attributeNames.has(sk.name))) return false;
    // An index keyed on an entity's own attribute (a natural key) is not overloaded: a template
    // written into that attribute would put another entity's key text where the first keeps its data.
    const isOwnAttribute = (name: string): boolean => table.entities.some((e) => e.attributes.some((a) => a.name === name));
    if (isOwnAttribute(pk.name) || (sk !== undefined && isOwnAttribute(sk.name))) return false;
    if (!range) return !sk || sk.type === 'S';
    return sk !== undefined && sk.type === keyTypeOf(attribute(range.attribute));
  });
  const options = fitting.map((gsi) => {
    const projection = mergeProjections(gsi.projection, needed);
    return { gsi, projection, changes: projectionKey(projection) !== projectionKey(gsi.projection) };
  });
  return options.find((o) => !o.changes) ?? options[0];
}

const projectionKey = (p: Projection): string => (p.type === 'INCLUDE' ? `INCLUDE:${[...p.nonKeyAttributes].sort().join(',')}` : p.type);

/** The smallest projection holding both. */
function mergeProjections(a: Projection, b: Projection): Projection {
  if (a.type === 'ALL' || b.type === 'ALL') return { type: 'ALL' };
  const names = [...new Set([...(a.type === 'INCLUDE' ? a.nonKeyAttributes : []), ...(b.type === 'INCLUDE' ? b.nonKeyAttributes : [])])];
  return names.length === 0 ? { type: 'KEYS_ONLY' } : { type: 'INCLUDE', nonKeyAttributes: names };
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
  if (suggestion.kind === 'gsi' && suggestion.reuses) {
    if (!suggestion.partitionKey || suggestion.partitionKeyTemplate === undefined) return table;
    if (!table.globalSecondaryIndexes.some((g) => g.name === indexName)) return table;
    next.globalSecondaryIndexes = table.globalSecondaryIndexes.map((g) => (g.name === indexName && suggestion.projection ? { ...g, projection: suggestion.projection } : g));
    keys[suggestion.partitionKey.name] = { template: suggestion.partitionKeyTemplate };
    if (suggestion.sortKey && suggestion.sortKeyTemplate !== undefined) keys[suggestion.sortKey.name] = { template: suggestion.sortKeyTemplate };
  } else if (suggestion.kind === 'gsi' && suggestion.natural) {
    const partitionKey = storedKeyPart(suggestion.natural.partitionKeys);
    if (!partitionKey) return table;
    const gsi: GlobalSecondaryIndex = { id, name: indexName, partitionKey, projection };
    const sortKey = storedKeyPart(suggestion.natural.sortKeys);
    if (sortKey) gsi.sortKey = sortKey;
    if (table.billing.mode === 'PROVISIONED') {
      gsi.provisioned = { readCapacityUnits: table.billing.readCapacityUnits, writeCapacityUnits: table.billing.writeCapacityUnits };
    }
    next.globalSecondaryIndexes = [...table.globalSecondaryIndexes, gsi];
  } else if (suggestion.kind === 'gsi') {
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
