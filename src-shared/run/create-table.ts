/**
 * The run's table as DynamoDB creates it: the CreateTable input (on-demand, every key attribute
 * defined once, the design's GSIs and LSIs with their projections), less the GSIs the engine cannot
 * create, and the type of every attribute a request fills in.
 */
import { gsiKeyAttributes, isMultiAttributeKey, partitionKeysOf, sortKeysOf } from '../model/index.ts';
import type { KeyAttributeType, Projection, Table } from '../model/index.ts';
import { NEEDS_FULL_ENGINE, type EngineCapabilities, type RunIndex, type RunTable } from './types.ts';

/** The table's primary key attributes: the partition key, then the sort key when it has one. */
export function tableKeyNames(table: Table): string[] {
  return [table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])];
}

/** An index's projection as a run reports it. */
function projectionOf(p: Projection): RunIndex['projection'] {
  return p.type === 'INCLUDE' ? { type: 'INCLUDE', nonKeyAttributes: [...p.nonKeyAttributes] } : { type: p.type };
}

/** An index's projection as CreateTable takes it. */
function projectionInput(p: Projection): Record<string, unknown> {
  return p.type === 'INCLUDE' ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...p.nonKeyAttributes] } : { ProjectionType: p.type };
}

/** The CreateTable input for the run's table, and which GSIs the engine cannot create. */
export function tableFor(table: Table, name: string, capabilities: EngineCapabilities): RunTable {
  const definitions = new Map<string, KeyAttributeType>();
  const define = (a: { name: string; type: KeyAttributeType }): void => {
    if (!definitions.has(a.name)) definitions.set(a.name, a.type);
  };
  define(table.partitionKey);
  if (table.sortKey) define(table.sortKey);
  const tableKeys = tableKeyNames(table);
  const keySchema = [{ AttributeName: table.partitionKey.name, KeyType: 'HASH' }, ...(table.sortKey ? [{ AttributeName: table.sortKey.name, KeyType: 'RANGE' }] : [])];
  const omittedIndexes: RunTable['omittedIndexes'] = [];
  const indexes: RunIndex[] = [];
  const gsis: Record<string, unknown>[] = [];
  for (const gsi of table.globalSecondaryIndexes) {
    if (isMultiAttributeKey(gsi) && !capabilities.multiAttributeKeys) {
      omittedIndexes.push({ name: gsi.name, reason: `its key has several attributes per part, which this engine cannot create: ${NEEDS_FULL_ENGINE}` });
      continue;
    }
    gsiKeyAttributes(gsi).forEach(define);
    indexes.push({ name: gsi.name, kind: 'gsi', keyAttributes: gsiKeyAttributes(gsi).map((a) => a.name), projection: projectionOf(gsi.projection) });
    gsis.push({
      IndexName: gsi.name,
      KeySchema: [
        ...partitionKeysOf(gsi).map((a) => ({ AttributeName: a.name, KeyType: 'HASH' })),
        ...sortKeysOf(gsi).map((a) => ({ AttributeName: a.name, KeyType: 'RANGE' })),
      ],
      Projection: projectionInput(gsi.projection),
    });
  }
  const lsis: Record<string, unknown>[] = [];
  for (const lsi of table.localSecondaryIndexes) {
    define(lsi.sortKey);
    indexes.push({ name: lsi.name, kind: 'lsi', keyAttributes: [table.partitionKey.name, lsi.sortKey.name], projection: projectionOf(lsi.projection) });
    lsis.push({
      IndexName: lsi.name,
      KeySchema: [
        { AttributeName: table.partitionKey.name, KeyType: 'HASH' },
        { AttributeName: lsi.sortKey.name, KeyType: 'RANGE' },
      ],
      Projection: projectionInput(lsi.projection),
    });
  }
  const createInput: Record<string, unknown> = {
    TableName: name,
    AttributeDefinitions: [...definitions].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
    KeySchema: keySchema,
    BillingMode: 'PAY_PER_REQUEST',
    ...(gsis.length > 0 ? { GlobalSecondaryIndexes: gsis } : {}),
    ...(lsis.length > 0 ? { LocalSecondaryIndexes: lsis } : {}),
  };
  return { tableId: table.id, name, createInput, keyAttributes: tableKeys, indexes, omittedIndexes };
}

/** The types of every key attribute of the table and its indexes, then of the entities' attributes. */
export function attributeTypes(table: Table): Map<string, string> {
  const types = new Map<string, string>();
  const keys = [
    table.partitionKey,
    ...(table.sortKey ? [table.sortKey] : []),
    ...table.globalSecondaryIndexes.flatMap((g) => gsiKeyAttributes(g)),
    ...table.localSecondaryIndexes.map((l) => l.sortKey),
  ];
  for (const k of keys) if (!types.has(k.name)) types.set(k.name, k.type);
  for (const e of table.entities) for (const a of e.attributes) if (!types.has(a.name)) types.set(a.name, a.type);
  return types;
}
