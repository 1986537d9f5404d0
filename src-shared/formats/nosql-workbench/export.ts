/**
 * NoSQL Workbench export: `toNoSqlWorkbench` writes a design as a version 3.0 data model, one facet
 * per entity with a few deterministic sample items. See `../nosql-workbench.ts` for what a model
 * cannot hold.
 */
import { keySlotsOf } from '../../model/key-slots.ts';
import { parseKeyTemplate } from '../../model/key-template.ts';
import type { AttributeType, AutoScalingRange, Design, Entity, KeyAttribute, Table } from '../../model/schema.ts';
import { sampleItemsOf } from '../sample-items.ts';
import { wellFormed } from '../table-spec.ts';
import type { Json } from './model-shape.ts';

/** The version `toNoSqlWorkbench` writes. */
export const WORKBENCH_EXPORT_VERSION = '3.0';
/** Sample items written per facet unless told otherwise. */
export const DEFAULT_EXPORT_ITEMS_PER_ENTITY = 25;

/** Options of `toNoSqlWorkbench`. */
export interface NoSqlWorkbenchOptions {
  /** Sample items written per facet: the entity's item count, up to this (default 25; 0 writes none). */
  maxItemsPerEntity?: number;
  /** When the model was made, in ms since the epoch (UTC); written as Workbench writes dates. Default: none (empty). */
  dateMs?: number;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Dec 23, 2019, 7:12 PM` (UTC), the way Workbench writes ModelMetadata dates. */
export function workbenchDate(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  const hours = d.getUTCHours();
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}, ${h12}:${String(d.getUTCMinutes()).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
}

interface FacetOut {
  entity: Entity;
  name: string;
}

function exportTable(table: Table, facets: FacetOut[], maxItems: number): Json {
  const slots = keySlotsOf(table);
  const keyNames = new Set(slots.map((s) => s.attribute.name));
  const tableKeys = new Set([table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])]);

  const nonKey: Array<{ AttributeName: string; AttributeType: AttributeType }> = [];
  const declared = new Set<string>();
  for (const e of table.entities) {
    for (const a of e.attributes) {
      if (keyNames.has(a.name) || declared.has(a.name)) continue;
      declared.add(a.name);
      nonKey.push({ AttributeName: a.name, AttributeType: a.type });
    }
  }
  for (const slot of slots) {
    if (tableKeys.has(slot.attribute.name) || declared.has(slot.attribute.name)) continue;
    declared.add(slot.attribute.name);
    nonKey.push({ AttributeName: slot.attribute.name, AttributeType: slot.attribute.type });
  }

  const keyAttribute = (k: KeyAttribute): Json => ({ AttributeName: k.name, AttributeType: k.type });
  const keyAttributes = (pk: KeyAttribute, sk: KeyAttribute | undefined): Json => (sk ? { PartitionKey: keyAttribute(pk), SortKey: keyAttribute(sk) } : { PartitionKey: keyAttribute(pk) });

  const tableFacets = facets.map(({ entity, name }) => {
    const alias = (key: KeyAttribute): string => {
      const template = Object.hasOwn(entity.keys, key.name) ? entity.keys[key.name]?.template : undefined;
      const parsed = template === undefined ? undefined : parseKeyTemplate(template);
      const placeholders = parsed?.ok ? parsed.value.parts.filter((p) => p.kind === 'attribute') : [];
      return placeholders.length === 1 && placeholders[0]!.kind === 'attribute' ? placeholders[0]!.name : key.name;
    };
    const keyAlias: Json = { PartitionKeyAlias: alias(table.partitionKey) };
    if (table.sortKey) keyAlias.SortKeyAlias = alias(table.sortKey);
    const attributeNames = entity.attributes.filter((a) => !keyNames.has(a.name)).map((a) => a.name);
    const indexKeys = slots.map((s) => s.attribute.name).filter((n) => !tableKeys.has(n) && Object.hasOwn(entity.keys, n));
    return {
      FacetName: name,
      KeyAttributeAlias: keyAlias,
      TableData: sampleItemsOf(table, entity, Math.min(entity.itemCount, maxItems), true),
      NonKeyAttributes: [...attributeNames, ...indexKeys.filter((n) => !attributeNames.includes(n))],
      DataAccess: { MySql: {} },
    };
  });

  const out: Json = { TableName: table.name, KeyAttributes: keyAttributes(table.partitionKey, table.sortKey), NonKeyAttributes: nonKey, TableFacets: tableFacets };
  out.GlobalSecondaryIndexes = table.globalSecondaryIndexes.map((g) => ({
    IndexName: g.name,
    KeyAttributes: keyAttributes(g.partitionKey, g.sortKey),
    Projection: g.projection.type === 'INCLUDE' ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...g.projection.nonKeyAttributes] } : { ProjectionType: g.projection.type },
  }));
  out.DataAccess = { MySql: {} };
  if (table.billing.mode === 'PROVISIONED') {
    // The design's auto scaling; a direction without it is held at the design's capacity (min = max),
    // so committing the model changes nothing.
    const scaling = (units: number, range: AutoScalingRange | undefined): Json => ({
      ScalableTargetRequest: {
        MinCapacity: range?.minCapacity ?? units,
        MaxCapacity: range?.maxCapacity ?? units,
        ServiceRole: 'AWSServiceRoleForApplicationAutoScaling_DynamoDBTable',
      },
      ScalingPolicyConfiguration: { TargetValue: range?.targetUtilizationPercent ?? 70 },
    });
    out.BillingMode = 'PROVISIONED';
    out.ProvisionedCapacitySettings = {
      ProvisionedThroughput: { ReadCapacityUnits: table.billing.readCapacityUnits, WriteCapacityUnits: table.billing.writeCapacityUnits },
      AutoScalingRead: scaling(table.billing.readCapacityUnits, table.billing.autoScaling?.read),
      AutoScalingWrite: scaling(table.billing.writeCapacityUnits, table.billing.autoScaling?.write),
    };
  } else {
    out.BillingMode = 'PAY_PER_REQUEST';
  }
  return out;
}

/**
 * A design as a NoSQL Workbench data model, version 3.0 (JSON text, two-space indents, final
 * newline); see the module comment for what is written and what a model cannot hold. Facet names are
 * the entity names, as `<table>.<entity>` where two tables have entities of one name (Workbench wants
 * them unique in the model). Deterministic.
 */
export function toNoSqlWorkbench(design: Design, options: NoSqlWorkbenchOptions = {}): string {
  const maxItems = Math.max(0, Math.floor(options.maxItemsPerEntity ?? DEFAULT_EXPORT_ITEMS_PER_ENTITY));
  const date = options.dateMs === undefined ? '' : workbenchDate(options.dateMs);
  const useCount = new Map<string, number>();
  for (const t of design.tables) for (const e of new Set(t.entities.map((x) => x.name))) useCount.set(e, (useCount.get(e) ?? 0) + 1);
  const model = {
    ModelName: wellFormed(design.name),
    ModelMetadata: {
      Author: 'Keyplan',
      DateCreated: date,
      DateLastModified: date,
      Description: design.description ?? '',
      AWSService: 'Amazon DynamoDB',
      Version: WORKBENCH_EXPORT_VERSION,
    },
    DataModel: design.tables.map((t) =>
      exportTable(
        t,
        t.entities.map((entity) => ({ entity, name: (useCount.get(entity.name) ?? 0) > 1 ? `${t.name}.${entity.name}` : entity.name })),
        maxItems,
      ),
    ),
  };
  return `${JSON.stringify(model, null, 2)}\n`;
}
