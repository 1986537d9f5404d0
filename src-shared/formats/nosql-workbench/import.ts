/**
 * NoSQL Workbench for DynamoDB data models (the JSON its data modeler imports and exports), both
 * directions: `fromNoSqlWorkbench` reads model versions 1.0, 2.0 and 3.0; `toNoSqlWorkbench` writes
 * version 3.0.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/nosql-workbench/import.ts".
 */
import { fail, ok } from '../../errors.ts';
import {
  keySlotsOf,
  FORMAT_VERSION,
  type Design,
  type Entity,
  type GlobalSecondaryIndex,
  type KeyAttributeType,
  type LocalSecondaryIndex,
  type Table,
  describeValue,
  joinPath,
  parseDesign,
} from '../../model/index.ts';
import type { ImportNote, ImportResult } from '../common/import-types.ts';
import { uniqueName } from '../common/table-spec.ts';
import { entityDrafts, inferEntity } from './infer-entities.ts';
import { isRecord, quote, Reader, readTable, WORKBENCH_VERSIONS, type TableRead } from './model-shape.ts';
import { pathMapper, type PathMap } from '../common/source-paths.ts';
import { slug } from '../common/ids.ts';

/** The design's name when the model has none. */
export const DEFAULT_DESIGN_NAME = 'Imported model';

function keyAttributePaths(map: PathMap, designPath: string, modelPath: string): void {
  map.push([designPath, modelPath], [joinPath(designPath, 'name'), joinPath(modelPath, 'AttributeName')], [joinPath(designPath, 'type'), joinPath(modelPath, 'AttributeType')]);
}

function buildTable(read: TableRead, ti: number, ids: Set<string>, map: PathMap, notes: ImportNote[]): Table {
  const tp = joinPath('tables', ti);
  const tableSlug = slug(read.name);
  map.push([tp, read.path], [joinPath(tp, 'name'), joinPath(read.path, 'TableName')], [joinPath(tp, 'billing'), read.billingPath]);
  map.push([joinPath(tp, 'entities'), read.path], [joinPath(tp, 'globalSecondaryIndexes'), joinPath(read.path, 'GlobalSecondaryIndexes')]);
  map.push([joinPath(tp, 'localSecondaryIndexes'), joinPath(read.path, 'LocalSecondaryIndexes')]);
  keyAttributePaths(map, joinPath(tp, 'partitionKey'), joinPath(joinPath(read.path, 'KeyAttributes'), 'PartitionKey'));
  if (read.keys.sortKey) keyAttributePaths(map, joinPath(tp, 'sortKey'), joinPath(joinPath(read.path, 'KeyAttributes'), 'SortKey'));

  const tableThroughput = read.billing.mode === 'PROVISIONED' ? { readCapacityUnits: read.billing.readCapacityUnits, writeCapacityUnits: read.billing.writeCapacityUnits } : undefined;
  const gsis: GlobalSecondaryIndex[] = read.gsis.map((g, k) => {
    const gp = joinPath(joinPath(tp, 'globalSecondaryIndexes'), k);
    map.push([gp, g.path], [joinPath(gp, 'name'), joinPath(g.path, 'IndexName')], [joinPath(gp, 'projection'), joinPath(g.path, 'Projection')]);
    map.push([joinPath(joinPath(gp, 'projection'), 'nonKeyAttributes'), joinPath(joinPath(g.path, 'Projection'), 'NonKeyAttributes')]);
    if (g.projection.type === 'INCLUDE') {
      g.projection.nonKeyAttributes.forEach((_, m) => map.push([joinPath(joinPath(joinPath(gp, 'projection'), 'nonKeyAttributes'), m), joinPath(joinPath(joinPath(g.path, 'Projection'), 'NonKeyAttributes'), m)]));
    }
    map.push([joinPath(gp, 'provisioned'), g.throughput ? joinPath(g.path, 'ProvisionedThroughput') : read.billingPath]);
    keyAttributePaths(map, joinPath(gp, 'partitionKey'), joinPath(joinPath(g.path, 'KeyAttributes'), 'PartitionKey'));
    if (g.keys.sortKey) keyAttributePaths(map, joinPath(gp, 'sortKey'), joinPath(joinPath(g.path, 'KeyAttributes'), 'SortKey'));
    const gsi: GlobalSecondaryIndex = { id: uniqueName(`gsi-${tableSlug}-${slug(g.name)}`, ids), name: g.name, partitionKey: g.keys.partitionKey, projection: g.projection };
    if (g.keys.sortKey) gsi.sortKey = g.keys.sortKey;
    const provisioned = g.throughput ?? tableThroughput;
    if (provisioned) gsi.provisioned = provisioned;
    return gsi;
  });
  const lsis: LocalSecondaryIndex[] = read.lsis.map((l, k) => {
    const lp = joinPath(joinPath(tp, 'localSecondaryIndexes'), k);
    map.push([lp, l.path], [joinPath(lp, 'name'), joinPath(l.path, 'IndexName')], [joinPath(lp, 'projection'), joinPath(l.path, 'Projection')]);
    const sortKey = l.keys.sortKey ?? l.keys.partitionKey;
    keyAttributePaths(map, joinPath(lp, 'sortKey'), joinPath(joinPath(l.path, 'KeyAttributes'), l.keys.sortKey ? 'SortKey' : 'PartitionKey'));
    return { id: uniqueName(`lsi-${tableSlug}-${slug(l.name)}`, ids), name: l.name, sortKey, projection: l.projection };
  });

  const table: Table = {
    id: uniqueName(`tbl-${tableSlug}`, ids),
    name: read.name,
    partitionKey: read.keys.partitionKey,
    billing: read.billing,
    tableClass: 'STANDARD',
    globalSecondaryIndexes: gsis,
    localSecondaryIndexes: lsis,
    entities: [],
    accessPatterns: [],
  };
  if (read.keys.sortKey) table.sortKey = read.keys.sortKey;

  const keyTypes = new Map<string, KeyAttributeType>(keySlotsOf(table).map((s) => [s.attribute.name, s.attribute.type]));
  const keyNames = new Set(keyTypes.keys());
  table.entities = entityDrafts(read, keyNames).map((draft, j): Entity => {
    const ep = joinPath(joinPath(tp, 'entities'), j);
    map.push([ep, draft.path]);
    if (draft.path.includes('TableFacets')) map.push([joinPath(ep, 'name'), joinPath(draft.path, 'FacetName')]);
    const { attributes, keys } = inferEntity(draft, read, keyNames, keyTypes);
    const count = draft.rows.length;
    notes.push({
      kind: 'inferred',
      path: draft.path,
      message: `Entity ${quote(draft.name)} of table ${quote(read.name)}: ${count === 0 ? 'no sample items, so an item count of 0 and key templates from the key attributes alone' : `an item count of ${count}, its number of sample items, and key templates read from their key values`}; set the real item count after import.`,
    });
    return { id: uniqueName(`ent-${tableSlug}-${slug(draft.name)}`, ids), name: draft.name, itemCount: draft.rows.length, attributes, keys };
  });
  return table;
}

/** What a JSON value that is not a Workbench model looks like, for the one problem about it. */
function describeOther(json: unknown): string {
  if (!isRecord(json)) return describeValue(json);
  if ('formatVersion' in json && ('tables' in json || 'table' in json)) return 'a Keyplan design';
  if ('AWSTemplateFormatVersion' in json || 'Resources' in json) return 'a CloudFormation template';
  if ('RequestItems' in json) return 'a BatchWriteItem request';
  if ('TableName' in json && 'KeySchema' in json) return 'a CreateTable input';
  const keys = Object.keys(json);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 6).map(quote).join(', ')}${keys.length > 6 ? ', …' : ''}`;
}

/**
 * Reads a NoSQL Workbench data model (versions 1.0, 2.0 and 3.0) as a Keyplan design; see the module
 * comment for how entities, templates, counts and billing are inferred. Tolerant where NoSQL
 * Workbench is: a problem confined to sample data or an optional part (a malformed sample value, an
 * unknown declared type, a sample key value of the wrong type, a facet naming an attribute nothing
 * declares) skips that part and is a note with its path; the rest imports. What makes the model
 * meaningless refuses it, every problem with its path in the model: `workbench.notModel` (not a
 * Workbench model: one problem), `workbench.unsupportedVersion`, `workbench.schema` (a table, key or
 * index field of the wrong shape or missing), `workbench.duplicateName`, `workbench.billing`, and the
 * `model.*` / `keyTemplate.*` problems of the design's rules, mapped to the model's paths
 * (`details.designPath` keeps the design's). Deterministic; never throws.
 */
export function fromNoSqlWorkbench(json: unknown): ImportResult {
  const expected = 'an object with "ModelName" and "DataModel", as NoSQL Workbench exports a model';
  if (!isRecord(json) || (!('DataModel' in json) && !('ModelName' in json))) {
    const found = describeOther(json);
    return fail([{ code: 'workbench.notModel', path: '', message: `This is not a NoSQL Workbench model: expected ${expected}; found ${found}.`, found, expected }]);
  }
  const r = new Reader();
  const metadata = r.object(json, 'ModelMetadata', '', true);
  if (metadata && metadata.Version !== undefined) {
    const v = metadata.Version;
    if (typeof v !== 'string' || !(WORKBENCH_VERSIONS as readonly string[]).includes(v)) {
      const ex = `model version ${WORKBENCH_VERSIONS.join(', ')}`;
      r.add('workbench.unsupportedVersion', 'ModelMetadata.Version', `ModelMetadata.Version is ${describeValue(v)}; expected ${ex}.`, describeValue(v), ex);
    }
  }
  const modelName = r.string(json, 'ModelName', '', true);
  const description = metadata ? r.string(metadata, 'Description', 'ModelMetadata', true) : undefined;
  const dataModel = json.DataModel;
  if (!Array.isArray(dataModel) || dataModel.length === 0) {
    const found = Array.isArray(dataModel) ? 'an empty list' : describeValue(dataModel);
    r.add('workbench.schema', 'DataModel', `DataModel is ${found}; expected a list of at least one table.`, found, 'a list of at least one table');
    return fail(r.problems);
  }
  const tables: TableRead[] = [];
  const names = new Map<string, string>();
  dataModel.forEach((raw, i) => {
    const path = joinPath('DataModel', i);
    const tableName = isRecord(raw) ? raw.TableName : undefined;
    if (typeof tableName === 'string') {
      const first = names.get(tableName);
      if (first !== undefined) {
        const np = joinPath(path, 'TableName');
        r.add('workbench.duplicateName', np, `${np} is ${quote(tableName)}, the name of ${first} too; expected unique table names.`, quote(tableName), 'a name no other table has');
        return;
      }
      names.set(tableName, path);
    }
    const table = readTable(r, raw, path);
    if (table) tables.push(table);
  });
  if (r.problems.length > 0) return fail(r.problems);

  const name = modelName?.trim() ? modelName : DEFAULT_DESIGN_NAME;
  const ids = new Set<string>();
  const map: PathMap = [['name', 'ModelName']];
  const design: Design = { formatVersion: FORMAT_VERSION, id: uniqueName(`design-${slug(name)}`, ids), name, tables: [] };
  if (description !== undefined && description.trim() !== '') design.description = description;
  const notes = [...r.notes];
  design.tables = tables.map((t, i) => buildTable(t, i, ids, map, notes));

  const parsed = parseDesign(JSON.parse(JSON.stringify(design)));
  if (parsed.ok) return ok({ design, notes });
  const sourcePath = pathMapper(map);
  return fail(parsed.errors.map((p) => ({ ...p, path: sourcePath(p.path), details: { designPath: p.path } })));
}
