/**
 * OneTable schema import: a schema of the DynamoDB OneTable library (sensedeep/dynamodb-onetable,
 * `format: "onetable:1.0.0"` or `"onetable:1.1.0"`, the JSON its `saveSchema` writes and the SenseDeep
 * app exports) read as a Keyplan design of one table. The format is specified in the library's
 * doc/schema-1.1.0.md; where the specification is silent this module follows what the library's
 * code does (src/Schema.js, src/Model.js, src/Table.js).
 *
 * More on its rules: docs/modules.md, "src-shared/formats/onetable/import.ts".
 */
import { fail, ok } from '../../errors.ts';
import {
  FORMAT_VERSION,
  type Design,
  type GlobalSecondaryIndex,
  type KeyAttribute,
  type KeyAttributeType,
  type LocalSecondaryIndex,
  type Table,
  describeValue,
  joinPath,
  parseDesign,
} from '../../model/index.ts';
import { slug } from '../common/ids.ts';
import type { ImportResult } from '../common/import-types.ts';
import { pathMapper, type PathMap } from '../common/source-paths.ts';
import { uniqueName } from '../common/table-spec.ts';
import { ONETABLE_DEFAULT_DESIGN_NAME, ONETABLE_DEFAULT_TABLE_NAME, ONETABLE_EXTENSION } from './defaults.ts';
import { buildEntity } from './entities.ts';
import { isRecord, Log, own, quote, type Json } from './import-log.ts';
import { readQuery, type QueryContext } from './saved-queries.ts';
import { readIndexes, readKeyTypes, readModels, readParams, type IndexRead, type ModelRead, type Params } from './schema-shape.ts';

export type { OneTableErrorCode } from './import-log.ts';

/** The format this module reads: `onetable:1.<minor>.<patch>` (SemVer: any 1.x is compatible). */
const FORMAT_PATTERN = /^onetable:1\.\d+\.\d+$/;

/** The top-level properties `fromOneTable` reads or knowingly skips. */
const TOP_LEVEL_KEYS = ['format', 'version', 'indexes', 'models', 'params', 'queries', 'extensions', 'name', 'description'];

/** Checks `format` (any onetable:1.x) and `version` (SemVer text, not read). */
function readFormat(schema: Json, log: Log): void {
  const format = own(schema, 'format');
  if (format !== undefined && (typeof format !== 'string' || !FORMAT_PATTERN.test(format))) {
    const found = describeValue(format);
    log.problem('onetable.unsupportedFormat', 'format', `format is ${found}; expected "onetable:1.0.0" or "onetable:1.1.0" (any onetable:1.x).`, found, 'onetable:1.x.y');
  } else if (format === undefined) {
    log.infer('format', 'The schema has no "format"; it is read as onetable:1.1.0.');
  }
  const version = own(schema, 'version');
  if (version !== undefined && typeof version !== 'string') log.warn('version', `version is ${describeValue(version)}; expected the schema's SemVer version as text. It is not read.`);
}

/** Notes on the top-level properties not read: sample items, the SenseDeep app's record, unknown ones. */
function noteOtherTopLevel(schema: Json, log: Log): void {
  for (const key of Object.keys(schema)) {
    if (TOP_LEVEL_KEYS.includes(key)) continue;
    const value = schema[key];
    if (key === 'items') {
      if (Array.isArray(value) && value.length > 0) log.drop('items', `The ${value.length} sample ${value.length === 1 ? 'item is' : 'items are'} not read: Keyplan generates sample data from the entities.`);
    } else if (key === 'process') log.drop('process', 'process is the SenseDeep app\'s own record; Keyplan does not read it.');
    else log.warn(key, `${key} is not a top-level property the OneTable schema specification defines; it is ignored.`);
  }
}

/** Notes on what `params` adds to every entity: the type field, the timestamps, how dates are stored. */
function noteParams(schema: Json, params: Params, models: readonly ModelRead[], keyTypes: ReadonlyMap<string, KeyAttributeType>, log: Log): void {
  if (models.length === 0) return;
  if (!keyTypes.has(params.typeField)) log.infer(own(schema, 'params') === undefined ? '' : 'params.typeField', `Every entity has the type field ${quote(params.typeField)}, an S attribute holding its model's name, as OneTable writes it on every item.`);
  if (params.timestampFields.length > 0) log.infer('params.timestamps', `params.timestamps adds ${params.timestampFields.map(quote).join(' and ')} to every model: each entity has ${params.timestampFields.length === 1 ? 'it' : 'them'} as a date.`);
  if (models.some((m) => m.fields.some((f) => f.type === 'date' && !f.isTtl)) || params.timestampFields.length > 0) {
    log.infer(
      own(schema, 'params') === undefined ? '' : 'params.isoDates',
      params.isoDates
        ? 'Dates are stored as ISO 8601 text (params.isoDates is true): date fields are S attributes.'
        : 'Dates are stored as numbers of milliseconds since 1970 (params.isoDates is not true): date fields are N attributes.',
    );
  }
}

/** The design's and the table's names: from `extensions.keyplan`, else the schema's `name` and the defaults. */
function readNames(schema: Json, log: Log): { designName: string; tableName: string } {
  const names = readExtension(schema, log);
  const schemaName = own(schema, 'name');
  const designName = names.designName ?? (typeof schemaName === 'string' && schemaName.trim() !== '' && schemaName !== 'Current' ? schemaName : ONETABLE_DEFAULT_DESIGN_NAME);
  const tableName = names.tableName ?? ONETABLE_DEFAULT_TABLE_NAME;
  if (names.tableName === undefined) log.infer('', `A OneTable schema does not name its table (OneTable takes the name from new Table({ name })); the table is called ${tableName}.`);
  return { designName, tableName };
}

/** What the table's parts share while they are built: the ids taken, the table's slug, and the design → schema path map. */
interface Build {
  ids: Set<string>;
  tableSlug: string;
  map: PathMap;
  log: Log;
}

/** The table: its keys and indexes from `indexes`, on-demand and Standard class, without entities or patterns yet. */
function buildTable(tableName: string, indexes: readonly IndexRead[], keyTypes: ReadonlyMap<string, KeyAttributeType>, build: Build): Table {
  const { ids, tableSlug, map, log } = build;
  log.infer('', 'A OneTable schema holds no billing mode or table class: the table is on-demand, Standard class, as OneTable\'s createTable makes it.');
  const keyAttribute = (name: string): KeyAttribute => ({ name, type: keyTypes.get(name) ?? 'S' });
  const primary = indexes[0] as IndexRead;
  map.push(['tables[0].partitionKey', 'indexes.primary.hash']);
  if (primary.sort !== undefined) map.push(['tables[0].sortKey', 'indexes.primary.sort']);
  const gsis: GlobalSecondaryIndex[] = [];
  const lsis: LocalSecondaryIndex[] = [];
  for (const i of indexes) {
    if (i.kind === 'gsi') {
      const gp = joinPath('tables[0].globalSecondaryIndexes', gsis.length);
      map.push([gp, i.path], [joinPath(gp, 'partitionKey'), joinPath(i.path, 'hash')], [joinPath(gp, 'sortKey'), joinPath(i.path, 'sort')], [joinPath(gp, 'projection'), joinPath(i.path, 'project')]);
      gsis.push({ id: uniqueName(`gsi-${tableSlug}-${slug(i.name)}`, ids), name: i.name, partitionKey: keyAttribute(i.hash), ...(i.sort !== undefined ? { sortKey: keyAttribute(i.sort) } : {}), projection: i.projection });
    } else if (i.kind === 'lsi') {
      const lp = joinPath('tables[0].localSecondaryIndexes', lsis.length);
      map.push([lp, i.path], [joinPath(lp, 'sortKey'), joinPath(i.path, 'sort')], [joinPath(lp, 'projection'), joinPath(i.path, 'project')]);
      lsis.push({ id: uniqueName(`lsi-${tableSlug}-${slug(i.name)}`, ids), name: i.name, sortKey: keyAttribute(i.sort as string), projection: i.projection });
    }
  }
  return {
    id: uniqueName(`tbl-${tableSlug}`, ids),
    name: tableName,
    partitionKey: keyAttribute(primary.hash),
    ...(primary.sort !== undefined ? { sortKey: keyAttribute(primary.sort) } : {}),
    billing: { mode: 'ON_DEMAND' },
    tableClass: 'STANDARD',
    globalSecondaryIndexes: gsis,
    localSecondaryIndexes: lsis,
    entities: [],
    accessPatterns: [],
  };
}

/** The table's TTL attribute: the first field marked ttl (a date or number); a warning for each other one. */
function readTtl(table: Table, models: readonly ModelRead[], keyTypes: ReadonlyMap<string, KeyAttributeType>, build: Build): void {
  const ttlFields = models.flatMap((m) => m.fields.filter((f) => f.isTtl && (f.type === 'date' || f.type === 'number') && !keyTypes.has(f.attribute)));
  const [ttl] = ttlFields;
  if (!ttl) return;
  table.ttlAttribute = ttl.name;
  build.map.push(['tables[0].ttlAttribute', joinPath(ttl.path, 'ttl')]);
  for (const other of ttlFields.slice(1)) {
    if (other.name !== ttl.name) build.log.warn(joinPath(other.path, 'ttl'), `A table has one TTL attribute, ${quote(ttl.name)} (${ttl.path}); ${quote(other.name)} is not it.`);
  }
}

/** The saved queries as the table's access patterns; returns each pattern's path in the schema, in order. */
function readQueries(schema: Json, table: Table, indexes: readonly IndexRead[], models: readonly ModelRead[], build: Build): string[] {
  const { ids, tableSlug, log } = build;
  const queries = own(schema, 'queries');
  const patternPaths: string[] = [];
  if (queries !== undefined && !isRecord(queries)) log.warn('queries', `queries is ${describeValue(queries)}, not an object of saved queries; it is skipped.`);
  else if (queries !== undefined) {
    const ctx: QueryContext = { table, indexes, models, entities: table.entities, ids, tableSlug, log };
    for (const [name, q] of Object.entries(queries)) {
      const read = readQuery(name, q, ctx);
      if (!read) continue;
      table.accessPatterns.push(read.pattern);
      patternPaths.push(read.path);
    }
  }
  return patternPaths;
}

/**
 * The design checked by the design's rules. Saved queries that alone break them are skipped with a
 * warning (not a reason to refuse the schema); any other problem is reported at its schema path.
 */
function checkDesign(design: Design, table: Table, patternPaths: string[], build: Build): ImportResult {
  const { map, log } = build;
  let parsed = parseDesign(JSON.parse(JSON.stringify(design)));
  const prefix = 'tables[0].accessPatterns[';
  const patternOf = (path: string): number | undefined => (path.startsWith(prefix) ? Number(path.slice(prefix.length, path.indexOf(']', prefix.length))) : undefined);
  if (!parsed.ok && parsed.errors.every((p) => patternOf(p.path) !== undefined)) {
    const refused = new Set<number>();
    for (const p of parsed.errors) {
      const k = patternOf(p.path) as number;
      refused.add(k);
      log.warn(patternPaths[k] ?? 'queries', `The saved query is skipped: ${p.message}`);
    }
    table.accessPatterns = table.accessPatterns.filter((_, k) => !refused.has(k));
    patternPaths.splice(0, patternPaths.length, ...patternPaths.filter((_, k) => !refused.has(k)));
    parsed = parseDesign(JSON.parse(JSON.stringify(design)));
  }
  patternPaths.forEach((path, k) => map.push([joinPath('tables[0].accessPatterns', k), path]));
  if (!parsed.ok) {
    const sourcePath = pathMapper(map);
    return fail(parsed.errors.map((p) => ({ ...p, path: sourcePath(p.path), details: { designPath: p.path } })));
  }
  return ok({ design, notes: log.notes });
}

/** What a JSON value that is not a OneTable schema looks like, for the one problem about it. */
function describeOther(json: unknown): string {
  if (!isRecord(json)) return describeValue(json);
  if ('formatVersion' in json && ('tables' in json || 'table' in json)) return 'a Keyplan design';
  if ('DataModel' in json || 'ModelName' in json) return 'a NoSQL Workbench model';
  if ('AWSTemplateFormatVersion' in json || 'Resources' in json) return 'a CloudFormation template';
  if ('Table' in json && isRecord(json.Table)) return 'describe-table output';
  if ('TableName' in json && 'KeySchema' in json) return 'a CreateTable input';
  const keys = Object.keys(json);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 6).map(quote).join(', ')}${keys.length > 6 ? ', …' : ''}`;
}

/** The design's and the table's names that `toOneTable` keeps under `extensions.keyplan`. */
function readExtension(schema: Json, log: Log): { designName?: string; tableName?: string } {
  const extensions = own(schema, 'extensions');
  if (extensions === undefined) return {};
  if (!isRecord(extensions)) {
    log.warn('extensions', `extensions is ${describeValue(extensions)}, not an object; it is ignored.`);
    return {};
  }
  const out: { designName?: string; tableName?: string } = {};
  for (const [key, value] of Object.entries(extensions)) {
    if (key !== ONETABLE_EXTENSION) {
      log.drop(joinPath('extensions', key), `The extension ${quote(key)} belongs to another tool; Keyplan does not read it.`);
      continue;
    }
    if (!isRecord(value)) continue;
    const designName = own(value, 'designName');
    const tableName = own(value, 'tableName');
    if (typeof designName === 'string' && designName.trim() !== '') out.designName = designName;
    if (typeof tableName === 'string' && tableName.trim() !== '') out.tableName = tableName;
  }
  return out;
}

/**
 * Reads a OneTable schema (a parsed JSON value) as a Keyplan design of one table;
 * see the module comment for the mapping. Returns the design with notes (each with its path in the
 * schema: what was inferred, dropped or skipped), or every problem that stops the import, with its
 * path in the schema: `onetable.notSchema`, `onetable.unsupportedFormat`,
 * `onetable.schema` (`indexes`, `indexes.primary`, a model or field that is not an object …),
 * `onetable.keyType`, and the `model.*` / `keyTemplate.*` rules of the design it builds, mapped to
 * the schema's paths (`details.designPath` keeps the design's). A saved query the design's rules
 * refuse is skipped with a warning instead. Deterministic; never throws.
 */
export function fromOneTable(json: unknown): ImportResult {
  const expected = 'an object with "indexes" and "models", as a OneTable schema has';
  if (!isRecord(json) || (!Object.hasOwn(json, 'indexes') && !Object.hasOwn(json, 'models'))) {
    const found = describeOther(json);
    return fail([{ code: 'onetable.notSchema', path: '', message: `This is not a OneTable schema: expected ${expected}; found ${found}.`, found, expected }]);
  }
  const schema = json;
  const log = new Log();
  readFormat(schema, log);
  const params = readParams(schema, log);
  const indexes = readIndexes(schema, log);
  const models = readModels(schema, params, log);
  const keyTypes = indexes.length > 0 ? readKeyTypes(indexes, models, log) : new Map<string, KeyAttributeType>();
  if (log.problems.length > 0) return fail(log.problems);
  noteOtherTopLevel(schema, log);
  noteParams(schema, params, models, keyTypes, log);
  const { designName, tableName } = readNames(schema, log);

  const ids = new Set<string>();
  const build: Build = { ids, tableSlug: slug(tableName), map: [['name', ''], ['tables[0]', ''], ['tables[0].name', '']], log };
  const table = buildTable(tableName, indexes, keyTypes, build);
  for (const m of models) {
    const ep = joinPath('tables[0].entities', table.entities.length);
    const { entity, paths } = buildEntity(m, indexes, keyTypes, params, ids, build.tableSlug, log);
    build.map.push([ep, m.path], [joinPath(ep, 'name'), m.path]);
    for (const [d, s] of paths) build.map.push([`${ep}.${d}`, s]);
    table.entities.push(entity);
  }
  readTtl(table, models, keyTypes, build);
  const patternPaths = readQueries(schema, table, indexes, models, build);

  const design: Design = { formatVersion: FORMAT_VERSION, id: uniqueName(`design-${slug(designName)}`, ids), name: designName, tables: [table] };
  const description = own(schema, 'description');
  if (typeof description === 'string' && description.trim() !== '') design.description = description;
  return checkDesign(design, table, patternPaths, build);
}
