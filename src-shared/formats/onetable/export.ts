/**
 * OneTable schemas (sensedeep/dynamodb-onetable, `format: "onetable:1.1.0"`, specified in the
 * library's doc/schema-1.1.0.md), both directions: `toOneTable` writes a design's first table as a
 * schema in JSON; `fromOneTable` (`import.ts`) reads one back.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/onetable/export.ts".
 */
import {
  formatProblemCount,
  parseCondition,
  type ConditionClause,
  isMultiAttributeKey,
  keyPartLabel,
  partitionKeysOf,
  sortKeysOf,
  bindingOf,
  gsiKeySourceOf,
  parseKeyTemplate,
  renderKeyTemplate,
  type KeyTemplatePart,
  kindOf,
} from '../../model/index.ts';
import type {
  AccessPattern,
  Attribute,
  AttributeType,
  Design,
  Entity,
  KeyAttributeType,
  Projection,
  RangeOperator,
  Table,
} from '../../model/index.ts';
import { planTable } from '../../planner/index.ts';
import type { Plan } from '../../planner/index.ts';
import { previewSamples } from '../../sample/index.ts';
import { ONETABLE_DEFAULT_TYPE_FIELD, ONETABLE_EXTENSION, ULID_LENGTH } from './defaults.ts';
import { onDemandMaximumText, warmThroughputText } from '../common/throughput-text.ts';
import { uniqueName } from '../common/table-spec.ts';
import { setOwn } from '../common/values.ts';

/** The schema format `toOneTable` writes. */
export const ONETABLE_EXPORT_FORMAT = 'onetable:1.1.0';
/** The schema version written (OneTable's own default when it saves a schema). */
export const ONETABLE_EXPORT_VERSION = '0.0.1';
/** A saved query's `limit` for a query pattern without a result size (the specification requires one). */
export const ONETABLE_EXPORT_QUERY_LIMIT = 100;

type Json = Record<string, unknown>;

/** A key attribute type as a OneTable field type. */
const KEY_FIELD_TYPES: Record<KeyAttributeType, string> = { S: 'string', N: 'number', B: 'binary' };

/** An attribute type as a OneTable field type (NULL has none). */
const FIELD_TYPES: Record<AttributeType, string | undefined> = {
  S: 'string',
  N: 'number',
  B: 'binary',
  BOOL: 'boolean',
  NULL: undefined,
  SS: 'set',
  NS: 'set',
  BS: 'set',
  L: 'array',
  M: 'object',
};

/** A range operator as a saved query's operation. */
const OPERATIONS: Record<RangeOperator, string> = {
  '=': 'Equal',
  '<': 'Less than',
  '<=': 'Less than or equal',
  '>': 'Greater than',
  '>=': 'Greater than or equal',
  begins_with: 'Begins with',
  between: 'Between',
};

/** A filter comparison as a saved query's filter operation. */
const FILTER_OPERATIONS: Record<string, string> = {
  '=': 'Equal',
  '<>': 'Not equal',
  '<': 'Less than',
  '<=': 'Less than or equal',
  '>': 'Greater than',
  '>=': 'Greater than or equal',
};

/** `Order item` → `Order_item`: a model name the specification allows (`/^[a-zA-Z_]+[\w]*$/`). */
function modelNameOf(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]+/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/** Keyplan template parts as a OneTable value template: `USER#{userId}` → `USER#${userId}`, `{rank:08}` → `${rank:8:0}`. */
function valueTemplateOf(parts: readonly KeyTemplatePart[]): string {
  return parts.map((p) => (p.kind === 'literal' ? p.text : p.pad === undefined ? `\${${p.name}}` : `\${${p.name}:${p.pad}:0}`)).join('');
}

function projectOf(p: Projection): string | string[] {
  return p.type === 'ALL' ? 'all' : p.type === 'KEYS_ONLY' ? 'keys' : [...p.nonKeyAttributes];
}

/** The attribute every entity carries with its own name as a constant: OneTable's type field. */
function typeFieldOf(table: Table): string | undefined {
  if (table.entities.length === 0) return undefined;
  const candidates = (e: Entity): string[] => e.attributes.filter((a) => a.type === 'S' && a.generator?.kind === 'constant' && a.generator.value === e.name).map((a) => a.name);
  let shared = candidates(table.entities[0] as Entity);
  for (const e of table.entities.slice(1)) {
    const own = candidates(e);
    shared = shared.filter((n) => own.includes(n));
  }
  if (shared.includes(ONETABLE_DEFAULT_TYPE_FIELD)) return ONETABLE_DEFAULT_TYPE_FIELD;
  return [...shared].sort()[0];
}

const isTimestamp = (a: Attribute, ttl: string | undefined): boolean => a.generator?.kind === 'timestamp' && a.name !== ttl && (a.type === 'S' || a.type === 'N');

/** One export's key fields: each key attribute the table (and each exported index) has, in order. */
interface KeySlot {
  name: string;
  type: KeyAttributeType;
  /** The index, or '' for the table. */
  index: string;
  isPartition: boolean;
}

interface Built {
  schema: Json;
  notes: string[];
}

/** The saved query of one read pattern, or the reason it has none. */
function queryOf(
  table: Table,
  pattern: AccessPattern,
  plan: Plan | undefined,
  indexNames: ReadonlyMap<string, { hash: string; sort?: string }>,
  modelNames: ReadonlyMap<string, string>,
): { query: Json; unkeyed: string[] } | { reason: string } {
  const kind = kindOf(pattern.action);
  if (kind.family === 'write') return { reason: `is a write (${kind.verb}); saved queries only read` };
  if (kind.counts) return { reason: 'is a count; a saved query returns items' };
  const entity = table.entities.find((e) => e.id === pattern.entityId);
  if (!entity) return { reason: 'has no entity' };
  if (!plan || !plan.isServed || plan.requests !== 1 || (plan.operation !== 'GetItem' && plan.operation !== 'Query' && plan.operation !== 'BatchGetItem')) {
    return { reason: plan && plan.requests > 1 ? 'fans out over write shards, several queries where a saved query is one' : 'is not served by one key-based request' };
  }
  const indexName = plan.target.kind === 'table' ? 'primary' : plan.target.name;
  const index = indexNames.get(indexName);
  if (!index) return { reason: `is served by ${indexName}, an index the schema leaves out` };
  const source = (key: string): KeyTemplatePart[] | undefined => {
    const natural = plan.target.kind === 'gsi' ? gsiKeySourceOf(entity, key)?.template : (bindingOf(entity, key)?.template ?? (entity.attributes.some((a) => a.name === key) ? `{${key}}` : undefined));
    if (natural === undefined) return undefined;
    const parsed = parseKeyTemplate(natural);
    return parsed.ok ? parsed.value.parts : undefined;
  };
  const [sample = {}] = previewSamples(entity, 1);
  const render = (parts: readonly KeyTemplatePart[]): string | undefined => {
    if (parts.length === 0) return '';
    const rendered = renderKeyTemplate({ source: '', parts: [...parts] }, sample);
    return rendered.ok ? rendered.value : undefined;
  };
  const hashParts = source(index.hash);
  const hash = hashParts ? render(hashParts) : undefined;
  if (hashParts === undefined || hash === undefined) return { reason: `has no sample value for the partition key ${index.hash}` };
  const query: Json = { index: indexName, model: modelNames.get(entity.id) ?? entity.name, type: 'Entity', hash };
  const keyed = new Set(hashParts.flatMap((p) => (p.kind === 'attribute' ? [p.name] : [])));
  let operation = 'Begins with';
  if (index.sort !== undefined) {
    const sortParts = source(index.sort);
    if (!sortParts) return { reason: `has no template for the sort key ${index.sort}` };
    // The sort key's prefix the caller knows, then the range's attribute: how the planner reads a sort key.
    const known = new Set([...pattern.known, ...(pattern.range?.operator === '=' ? [pattern.range.attribute] : [])]);
    const prefix: KeyTemplatePart[] = [];
    let next: KeyTemplatePart | undefined;
    for (const part of sortParts) {
      if (part.kind === 'literal' || known.has(part.name)) prefix.push(part);
      else {
        next = part;
        break;
      }
    }
    for (const p of prefix) if (p.kind === 'attribute') keyed.add(p.name);
    let sort: string | undefined = '';
    if (!next) {
      operation = 'Equal';
      sort = render(prefix);
    } else if (next.kind === 'attribute' && pattern.range && pattern.range.operator !== '=' && next.name === pattern.range.attribute) {
      operation = OPERATIONS[pattern.range.operator];
      sort = render([...prefix, next]);
    } else if (prefix.length > 0) sort = render(prefix);
    if (sort === undefined) return { reason: `has no sample value for the sort key ${index.sort}` };
    if (sort !== '') query.sort = sort;
  } else operation = 'Equal';
  query.operation = operation;
  query.limit = kind.single ? 1 : (pattern.resultSize !== undefined && pattern.resultSize > 0 ? pattern.resultSize : ONETABLE_EXPORT_QUERY_LIMIT);
  if (pattern.filter !== undefined && pattern.filter.trim() !== '') {
    const filters = filtersOf(pattern.filter, entity);
    if (filters === undefined) return { reason: `has the filter ${JSON.stringify(pattern.filter)}, which saved-query filters cannot say` };
    query.filters = filters;
  }
  query.schema = 'Current';
  return { query, unkeyed: pattern.known.filter((k) => !keyed.has(k) && k !== pattern.range?.attribute) };
}

const indexOfQuery = (query: Json): string => (query.index === 'primary' ? 'the table' : `index ${String(query.index)}`);

/** A Keyplan filter as saved-query filters (each combined with And); undefined when they cannot say it. */
function filtersOf(filter: string, entity: Entity): Json[] | undefined {
  const parsed = parseCondition(filter);
  if (!parsed.ok) return undefined;
  const typeOf = (name: string): string => {
    const t = entity.attributes.find((a) => a.name === name)?.type;
    return t === 'N' ? 'number' : t === 'BOOL' ? 'boolean' : 'string';
  };
  const one = (c: ConditionClause, combine: string): Json[] | undefined => {
    if (c.kind === 'exists' || c.kind === 'notExists') return [{ field: c.attribute, operation: c.kind === 'exists' ? 'Existing' : 'Not Existing', type: typeOf(c.attribute), value: '', combine }];
    if (c.kind === 'compare') return [{ field: c.attribute, operation: FILTER_OPERATIONS[c.operator], type: typeOf(c.attribute), value: c.value, combine }];
    return undefined;
  };
  const clauses = parsed.value.clauses;
  // IN alone is a run of Equal filters joined by Or; with other clauses, And and Or would need grouping.
  if (clauses.length === 1 && clauses[0]?.kind === 'in') {
    const c = clauses[0];
    return c.values.map((value, i) => ({ field: c.attribute, operation: 'Equal', type: typeOf(c.attribute), value, combine: i === 0 ? 'And' : 'Or' }));
  }
  const out: Json[] = [];
  for (const c of clauses) {
    const filters = one(c, 'And');
    if (!filters) return undefined;
    out.push(...filters);
  }
  return out;
}

/** The schema's indexes, and what the models and saved queries need of them: each index's keys, and each key attribute with its type. */
interface Indexes {
  indexes: Json;
  /** Index name (`primary` for the table) → its key attributes. */
  indexKeys: Map<string, { hash: string; sort?: string }>;
  /** Every key attribute of the table and its exported indexes, in order. */
  keyNames: string[];
  keyTypeOf: Map<string, KeyAttributeType>;
}

/** `indexes`: primary, then each GSI a OneTable index can hold, then each LSI; a note for each left out. */
function indexesOf(table: Table, notes: string[]): Indexes {
  const t = table.name;
  const indexes: Json = {};
  const indexKeys = new Map<string, { hash: string; sort?: string }>();
  const primary: Json = { hash: table.partitionKey.name };
  if (table.sortKey) primary.sort = table.sortKey.name;
  setOwn<unknown>(indexes, 'primary', primary);
  indexKeys.set('primary', { hash: table.partitionKey.name, ...(table.sortKey ? { sort: table.sortKey.name } : {}) });
  const slots: KeySlot[] = [{ name: table.partitionKey.name, type: table.partitionKey.type, index: '', isPartition: true }];
  if (table.sortKey) slots.push({ name: table.sortKey.name, type: table.sortKey.type, index: '', isPartition: false });
  for (const g of table.globalSecondaryIndexes) {
    if (isMultiAttributeKey(g)) {
      const sort = sortKeysOf(g);
      notes.push(`${t}: GSI ${g.name} (partition key ${keyPartLabel(partitionKeysOf(g))}${sort.length > 0 ? `, sort key ${keyPartLabel(sort)}` : ''}) is left out: a OneTable index key is one attribute per part`);
      continue;
    }
    if (g.name === 'primary' || Object.hasOwn(indexes, g.name)) {
      notes.push(`${t}: GSI ${g.name} is left out: "${g.name}" names another index in a OneTable schema`);
      continue;
    }
    const [hash] = partitionKeysOf(g);
    const [sort] = sortKeysOf(g);
    if (!hash) continue;
    const index: Json = { hash: hash.name };
    if (sort) index.sort = sort.name;
    index.project = projectOf(g.projection);
    setOwn<unknown>(indexes, g.name, index);
    indexKeys.set(g.name, { hash: hash.name, ...(sort ? { sort: sort.name } : {}) });
    slots.push({ name: hash.name, type: hash.type, index: g.name, isPartition: true });
    if (sort) slots.push({ name: sort.name, type: sort.type, index: g.name, isPartition: false });
  }
  for (const l of table.localSecondaryIndexes) {
    if (l.name === 'primary' || Object.hasOwn(indexes, l.name)) {
      notes.push(`${t}: LSI ${l.name} is left out: "${l.name}" names another index in a OneTable schema`);
      continue;
    }
    setOwn<unknown>(indexes, l.name, { type: 'local', hash: table.partitionKey.name, sort: l.sortKey.name, project: projectOf(l.projection) });
    indexKeys.set(l.name, { hash: table.partitionKey.name, sort: l.sortKey.name });
    slots.push({ name: l.sortKey.name, type: l.sortKey.type, index: l.name, isPartition: false });
  }
  const keyTypeOf = new Map<string, KeyAttributeType>();
  for (const s of slots) if (!keyTypeOf.has(s.name)) keyTypeOf.set(s.name, s.type);
  return { indexes, indexKeys, keyNames: [...new Set(slots.map((s) => s.name))], keyTypeOf };
}

/** What the models are written by, and `params` says: the type field, the TTL attribute, and whether dates are ISO text. */
interface ModelParams {
  typeField: string | undefined;
  ttl: string | undefined;
  /** Most timestamp attributes are S (ISO 8601 text) rather than N. */
  isoDates: boolean;
}

/** The table's type field, TTL attribute and date storage (ISO dates when most timestamps are S). */
function paramsOf(table: Table): ModelParams {
  const ttl = table.ttlAttribute?.trim() || undefined;
  let sDates = 0;
  let nDates = 0;
  for (const e of table.entities) for (const a of e.attributes) if (isTimestamp(a, ttl)) (a.type === 'S' ? (sDates += 1) : (nDates += 1));
  return { typeField: typeFieldOf(table), ttl, isoDates: sDates >= nDates && sDates > 0 };
}

/**
 * The fields of an entity's model: each key attribute it has a template for, as a value template (a
 * natural key stays an attribute), then each attribute with its type, `required`, `enum` and
 * `generate`; and whether the attributes hold sizes or distributions a schema cannot say.
 */
function fieldsOf(t: string, entity: Entity, keys: Indexes, params: ModelParams, notes: string[]): { fields: Json; hasDistributions: boolean } {
  const fields: Json = {};
  const attributeNames = new Set(entity.attributes.map((a) => a.name));
  for (const name of keys.keyNames) {
    const binding = bindingOf(entity, name);
    if (!binding) continue;
    const parsed = parseKeyTemplate(binding.template);
    const isNatural = parsed.ok && parsed.value.parts.length === 1 && parsed.value.parts[0]?.kind === 'attribute' && parsed.value.parts[0].name === name && attributeNames.has(name);
    if (binding.when?.trim()) notes.push(`${t}: ${entity.name}'s key ${name} is sparse by the condition ${binding.when.trim()}; OneTable writes the key whenever its template's properties have values`);
    if (binding.shards) notes.push(`${t}: ${entity.name}'s key ${name} is written in ${binding.shards.count} ${binding.shards.method} shards; a value template has no shard suffix`);
    if (isNatural) continue;
    if (attributeNames.has(name)) notes.push(`${t}: ${entity.name}'s attribute ${name} is left out: the key ${name} of the same name is written from its template`);
    const value = parsed.ok ? valueTemplateOf(parsed.value.parts) : binding.template;
    if (parsed.ok && parsed.value.parts.some((p) => p.kind === 'literal' && p.text.includes('${'))) {
      notes.push(`${t}: ${entity.name}'s key ${name} has "\${" in its literal text, which OneTable reads as the start of a placeholder`);
    }
    setOwn<unknown>(fields, name, { type: KEY_FIELD_TYPES[keys.keyTypeOf.get(name) ?? 'S'], value });
  }
  const { typeField, ttl, isoDates } = params;
  let hasDistributions = false;
  for (const a of entity.attributes) {
    if (a.name === typeField) continue;
    if (Object.hasOwn(fields, a.name)) continue;
    const type = FIELD_TYPES[a.type];
    if (type === undefined) {
      notes.push(`${t}: ${entity.name}'s attribute ${a.name} (NULL) is left out: OneTable has no null type`);
      continue;
    }
    if (a.type === 'NS' || a.type === 'BS') notes.push(`${t}: ${entity.name}'s attribute ${a.name} is a ${a.type === 'NS' ? 'number' : 'binary'} set; a OneTable set does not say what its elements are`);
    const field: Json = { type };
    const isKey = keys.keyNames.includes(a.name);
    if (a.name === ttl && a.type === 'N') {
      field.type = 'date';
      field.ttl = true;
    } else if (!isKey && isTimestamp(a, ttl) && (a.type === 'S') === isoDates) field.type = 'date';
    if (a.presence === undefined || !(a.presence < 1)) field.required = true;
    const g = a.generator;
    if (g?.kind === 'enum' && g.values && g.values.length > 0) field.enum = [...g.values];
    if (g?.kind === 'uuid') field.generate = 'uuid';
    if (g?.kind === 'id' && g.prefix === '' && g.width === ULID_LENGTH) field.generate = 'ulid';
    if ((g?.kind === 'enum' && g.weights) || g?.distribution || a.cardinality !== undefined || a.averageSizeBytes !== undefined || (a.presence !== undefined && a.presence < 1)) hasDistributions = true;
    setOwn<unknown>(fields, a.name, field);
  }
  return { fields, hasDistributions };
}

/** `models`: a model per entity (named as the specification allows), and each entity's model name by its id. */
function modelsOf(table: Table, keys: Indexes, params: ModelParams, notes: string[]): { models: Json; modelNames: Map<string, string> } {
  const t = table.name;
  const models: Json = {};
  const modelNames = new Map<string, string>();
  const taken = new Set<string>();
  let hasDistributions = false;
  for (const entity of table.entities) {
    const modelName = uniqueName(modelNameOf(entity.name), taken, '_');
    modelNames.set(entity.id, modelName);
    if (modelName !== entity.name) notes.push(`${t}: entity ${entity.name} is the model ${modelName} (a model name is a letter or _, then letters, digits and _)`);
    const model = fieldsOf(t, entity, keys, params, notes);
    if (model.hasDistributions) hasDistributions = true;
    setOwn<unknown>(models, modelName, model.fields);
  }
  if (table.entities.length > 0) {
    notes.push(
      `${t}: the entities' item counts${hasDistributions ? ', attribute sizes and value distributions (weights, cardinalities, presence shares)' : ''}: a schema holds types, enums and generated ids, not volumes`,
    );
  }
  return { models, modelNames };
}

/** `queries`: a saved query per read pattern one key-based request serves; a note for each other pattern. */
function queriesOf(table: Table, keys: Indexes, modelNames: ReadonlyMap<string, string>, notes: string[]): Json {
  const t = table.name;
  const queries: Json = {};
  const plans = table.accessPatterns.length > 0 ? planTable(table) : [];
  let saved = 0;
  table.accessPatterns.forEach((pattern, k) => {
    const made = queryOf(table, pattern, plans[k], keys.indexKeys, modelNames);
    if ('reason' in made) notes.push(`${t}: access pattern "${pattern.name}" is not a saved query: it ${made.reason}`);
    else {
      setOwn<unknown>(queries, pattern.name, made.query);
      saved += 1;
      if (made.unkeyed.length > 0) {
        notes.push(`${t}: access pattern "${pattern.name}" knows ${made.unkeyed.join(', ')}, which the key of the index it is served by (${indexOfQuery(made.query)}) does not hold; the saved query names only its key values`);
      }
    }
  });
  if (saved > 0) notes.push(`${t}: the rates, consistency, order and returned attributes of ${formatProblemCount(saved)} read ${saved === 1 ? 'pattern' : 'patterns'} (a saved query holds its key values, limit and filters)`);
  return queries;
}

/** The schema of the design's first table, and the notes on what it cannot hold (`oneTableNotes`). */
function buildOneTable(design: Design): Built {
  const notes: string[] = [];
  const [table] = design.tables;
  if (!table) return { schema: { version: ONETABLE_EXPORT_VERSION, format: ONETABLE_EXPORT_FORMAT, indexes: {}, params: {}, models: {}, queries: {} }, notes };
  const t = table.name;
  for (const other of design.tables.slice(1)) notes.push(`${other.name}: not in the schema, which describes one table (${t}); export it from a design of its own`);

  const keys = indexesOf(table, notes);
  const modelParams = paramsOf(table);
  const { models, modelNames } = modelsOf(table, keys, modelParams, notes);
  const queries = queriesOf(table, keys, modelNames, notes);
  tableNotes(table, modelParams.ttl, notes);

  const params: Json = {};
  if (modelParams.typeField !== undefined) params.typeField = modelParams.typeField;
  params.isoDates = modelParams.isoDates;
  params.timestamps = false;
  const schema: Json = { version: ONETABLE_EXPORT_VERSION, format: ONETABLE_EXPORT_FORMAT };
  if (design.description?.trim()) schema.description = design.description;
  Object.assign(schema, { indexes: keys.indexes, params, models, queries, extensions: { [ONETABLE_EXTENSION]: { designName: design.name, tableName: t } } });
  return { schema, notes };
}

/** The table's settings a schema has no place for, each a line (settings at DynamoDB's defaults are not listed). */
function tableNotes(table: Table, ttl: string | undefined, notes: string[]): void {
  const t = table.name;
  const b = table.billing;
  if (b.mode === 'PROVISIONED') {
    const scaling = b.autoScaling && (b.autoScaling.read || b.autoScaling.write) ? ', auto scaled' : '';
    notes.push(`${t}: provisioned billing, ${formatProblemCount(b.readCapacityUnits)} RCU / ${formatProblemCount(b.writeCapacityUnits)} WCU${scaling} (OneTable's createTable makes an on-demand table unless given capacity)`);
    for (const g of table.globalSecondaryIndexes) {
      if (g.provisioned) notes.push(`${t}, GSI ${g.name}: its own capacity, ${formatProblemCount(g.provisioned.readCapacityUnits)} RCU / ${formatProblemCount(g.provisioned.writeCapacityUnits)} WCU`);
    }
  }
  const max = table.onDemandThroughput;
  if (b.mode === 'ON_DEMAND' && max && (max.maxReadRequestUnits !== undefined || max.maxWriteRequestUnits !== undefined)) notes.push(`${t}: on-demand maximum, ${onDemandMaximumText(max)}`);
  const warm = table.warmThroughput;
  if (warm && (warm.readUnitsPerSecond !== undefined || warm.writeUnitsPerSecond !== undefined)) notes.push(`${t}: warm throughput, ${warmThroughputText(warm)}`);
  for (const g of table.globalSecondaryIndexes) {
    const gmax = g.onDemandThroughput;
    if (b.mode === 'ON_DEMAND' && gmax && (gmax.maxReadRequestUnits !== undefined || gmax.maxWriteRequestUnits !== undefined)) notes.push(`${t}, GSI ${g.name}: on-demand maximum, ${onDemandMaximumText(gmax)}`);
    const gwarm = g.warmThroughput;
    if (gwarm && (gwarm.readUnitsPerSecond !== undefined || gwarm.writeUnitsPerSecond !== undefined)) notes.push(`${t}, GSI ${g.name}: warm throughput, ${warmThroughputText(gwarm)}`);
  }
  if (ttl) {
    const isCarried = table.entities.some((e) => e.attributes.some((a) => a.name === ttl && a.type === 'N'));
    notes.push(
      `${t}: time to live on attribute ${ttl}${isCarried ? ' (its field is marked ttl: true, but OneTable does not turn TTL on: enable it with aws dynamodb update-time-to-live)' : ', which no entity carries as a number'}`,
    );
  }
  if (table.stream) notes.push(`${t}: stream, ${table.stream}`);
  if (table.tableClass !== 'STANDARD') notes.push(`${t}: table class ${table.tableClass === 'STANDARD_INFREQUENT_ACCESS' ? 'Standard-IA' : table.tableClass}`);
  const pitr = table.pointInTimeRecovery;
  if (pitr?.enabled) notes.push(`${t}: point-in-time recovery, ${pitr.recoveryPeriodInDays ?? 35} days`);
  const sse = table.encryption;
  if (sse?.type === 'KMS') notes.push(`${t}: encryption with ${sse.kmsKeyId?.trim() ? `the customer managed KMS key ${sse.kmsKeyId.trim()}` : 'the AWS managed KMS key aws/dynamodb'}`);
  if (table.deletionProtection) notes.push(`${t}: deletion protection on`);
  const insights = table.contributorInsights;
  if (insights?.enabled) notes.push(`${t}: Contributor Insights, ${insights.mode ?? 'ACCESSED_AND_THROTTLED_KEYS'}`);
  const tags = Object.entries(table.tags ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  if (tags.length > 0) notes.push(`${t}: tags ${tags.map(([k, v]) => `${k}=${v}`).join(', ')}`);
}

/**
 * A design's first table as a OneTable schema (JSON text, four-space indents as the specification's
 * examples, final newline); see the module comment for what is written. Deterministic; does not
 * change `design`. What the schema cannot hold is `oneTableNotes(design)`.
 */
export function toOneTable(design: Design): string {
  return `${JSON.stringify(buildOneTable(design).schema, null, 4)}\n`;
}

/**
 * What `toOneTable` leaves out because a OneTable schema has no place for it, one line per setting,
 * naming the table (and index, entity or pattern) and the value: tables after the first, GSIs with
 * multi-attribute keys, provisioned billing and GSI capacity, on-demand maximums, warm throughput,
 * TTL (a field can be marked ttl, but OneTable does not turn TTL on), the stream, the table class,
 * point-in-time recovery, KMS encryption, deletion protection, Contributor Insights, tags, sparse
 * `when` conditions, write sharding, NULL attributes, the element type of number and binary sets,
 * renamed entities, item counts and value distributions, access patterns that are no saved query
 * (writes, counts, fan-outs, unserved reads, filters saved queries cannot say) and the rates of
 * those that are. Empty only for a design with nothing to lose. Deterministic.
 */
export function oneTableNotes(design: Design): string[] {
  return buildOneTable(design).notes;
}
