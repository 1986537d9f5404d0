/**
 * NoSQL Workbench export: `toNoSqlWorkbench` writes a design as a version 3.0 data model, one facet
 * per entity with a few deterministic sample items; `fromNoSqlWorkbench` (`import.ts`) reads one back.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/nosql-workbench/export.ts".
 */
import { formatNumber } from '../../numbers/index.ts';
import {
  isMultiAttributeKey,
  keyPartLabel,
  partitionKeysOf,
  sortKeysOf,
  bindingOf,
  gsiKeySourceOf,
  keySlotsOf,
  parseKeyTemplate,
} from '../../model/index.ts';
import type {
  AttributeType,
  AutoScalingRange,
  Design,
  Entity,
  GlobalSecondaryIndex,
  KeyAttribute,
  Table,
} from '../../model/index.ts';
import { onDemandMaximumText, warmThroughputText } from '../common/throughput-text.ts';
import { sampleItemsOf } from './sample-items.ts';
import { wellFormed } from '../common/table-spec.ts';
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
    // Index keys the entity's items hold: a template, or (a GSI's) the attribute itself.
    const indexKeys = slots
      .filter((s) => !tableKeys.has(s.attribute.name))
      .filter((s) => bindingOf(entity, s.attribute.name) !== undefined || (s.uses.some((u) => u.kind === 'gsi') && gsiKeySourceOf(entity, s.attribute.name) !== undefined))
      .map((s) => s.attribute.name);
    return {
      FacetName: name,
      KeyAttributeAlias: keyAlias,
      TableData: sampleItemsOf(table, entity, Math.min(entity.itemCount, maxItems), true),
      NonKeyAttributes: [...attributeNames, ...indexKeys.filter((n) => !attributeNames.includes(n))],
      DataAccess: { MySql: {} },
    };
  });

  const out: Json = { TableName: table.name, KeyAttributes: keyAttributes(table.partitionKey, table.sortKey), NonKeyAttributes: nonKey, TableFacets: tableFacets };
  // A model's index key is one attribute per part: a multi-attribute GSI is left out (see the module comment).
  out.GlobalSecondaryIndexes = table.globalSecondaryIndexes.filter((g) => !isMultiAttributeKey(g)).map((g) => ({
    IndexName: g.name,
    KeyAttributes: keyAttributes(partitionKeysOf(g)[0]!, sortKeysOf(g)[0]),
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

const TABLE_CLASS_TEXT: Record<Table['tableClass'], string> = { STANDARD: 'Standard', STANDARD_INFREQUENT_ACCESS: 'Standard-IA' };

/** What `<GSI>`'s key is, for a note: `partition key tournamentId + region, sort key round + bracket`. */
function gsiKeyText(g: GlobalSecondaryIndex): string {
  const sort = sortKeysOf(g);
  return `partition key ${keyPartLabel(partitionKeysOf(g))}${sort.length > 0 ? `, sort key ${keyPartLabel(sort)}` : ''}`;
}

/** One table's settings that `toNoSqlWorkbench` does not write, one line each (see `noSqlWorkbenchNotes`). */
function tableNotes(table: Table): string[] {
  const t = table.name;
  const notes: string[] = [];
  for (const g of table.globalSecondaryIndexes) {
    if (!isMultiAttributeKey(g)) continue;
    // The index's own settings go with it; each is named, as every other lost setting is.
    const own = [
      g.warmThroughput && (g.warmThroughput.readUnitsPerSecond !== undefined || g.warmThroughput.writeUnitsPerSecond !== undefined) ? `warm throughput ${warmThroughputText(g.warmThroughput)}` : undefined,
      table.billing.mode === 'ON_DEMAND' && g.onDemandThroughput && (g.onDemandThroughput.maxReadRequestUnits !== undefined || g.onDemandThroughput.maxWriteRequestUnits !== undefined)
        ? `on-demand maximum ${onDemandMaximumText(g.onDemandThroughput)}`
        : undefined,
    ].filter((x) => x !== undefined);
    notes.push(`${t}: GSI ${g.name} (${gsiKeyText(g)}) is left out, a model's index key has one attribute per part${own.length > 0 ? `; with it, its ${own.join(' and its ')}` : ''}`);
  }
  const isOnDemand = table.billing.mode === 'ON_DEMAND';
  const max = table.onDemandThroughput;
  if (isOnDemand && max && (max.maxReadRequestUnits !== undefined || max.maxWriteRequestUnits !== undefined)) notes.push(`${t}: on-demand maximum, ${onDemandMaximumText(max)}`);
  const warm = table.warmThroughput;
  if (warm && (warm.readUnitsPerSecond !== undefined || warm.writeUnitsPerSecond !== undefined)) notes.push(`${t}: warm throughput, ${warmThroughputText(warm)}`);
  for (const g of table.globalSecondaryIndexes) {
    if (isMultiAttributeKey(g)) continue;
    const gmax = g.onDemandThroughput;
    if (isOnDemand && gmax && (gmax.maxReadRequestUnits !== undefined || gmax.maxWriteRequestUnits !== undefined)) notes.push(`${t}, GSI ${g.name}: on-demand maximum, ${onDemandMaximumText(gmax)}`);
    const gwarm = g.warmThroughput;
    if (gwarm && (gwarm.readUnitsPerSecond !== undefined || gwarm.writeUnitsPerSecond !== undefined)) notes.push(`${t}, GSI ${g.name}: warm throughput, ${warmThroughputText(gwarm)}`);
    if (table.billing.mode === 'PROVISIONED' && g.provisioned) {
      const own = g.provisioned;
      notes.push(`${t}, GSI ${g.name}: its own capacity, ${formatNumber(own.readCapacityUnits)} RCU / ${formatNumber(own.writeCapacityUnits)} WCU (the model gives it the table's)`);
    }
  }
  for (const l of table.localSecondaryIndexes) notes.push(`${t}: LSI ${l.name} (sort key ${l.sortKey.name})`);
  if (table.ttlAttribute?.trim()) notes.push(`${t}: time to live on attribute ${table.ttlAttribute.trim()}`);
  if (table.stream) notes.push(`${t}: stream, ${table.stream}`);
  if (table.tableClass !== 'STANDARD') notes.push(`${t}: table class ${TABLE_CLASS_TEXT[table.tableClass] ?? table.tableClass}`);
  const pitr = table.pointInTimeRecovery;
  if (pitr?.enabled) notes.push(`${t}: point-in-time recovery, ${pitr.recoveryPeriodInDays ?? 35} days`);
  const sse = table.encryption;
  if (sse?.type === 'KMS') notes.push(`${t}: encryption with ${sse.kmsKeyId?.trim() ? `the customer managed KMS key ${sse.kmsKeyId.trim()}` : 'the AWS managed KMS key aws/dynamodb'}`);
  if (table.deletionProtection) notes.push(`${t}: deletion protection on`);
  const insights = table.contributorInsights;
  if (insights?.enabled) notes.push(`${t}: Contributor Insights, ${insights.mode ?? 'ACCESSED_AND_THROTTLED_KEYS'}`);
  const tags = Object.entries(table.tags ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (tags.length > 0) notes.push(`${t}: tags ${tags.map(([k, v]) => `${k}=${v}`).join(', ')}`);
  const patterns = table.accessPatterns.length;
  if (patterns > 0) notes.push(`${t}: ${patterns} access ${patterns === 1 ? 'pattern' : 'patterns'}`);
  return notes;
}

/**
 * What `toNoSqlWorkbench` leaves out of the model because a model has no place for it, one line per
 * setting, naming the table (and index) and the value: a GSI with a multi-attribute key, warm
 * throughput, on-demand maximums, a GSI's own capacity, LSIs, TTL, the stream, the table class,
 * point-in-time recovery, KMS encryption, deletion protection, Contributor Insights, tags and access
 * patterns. Settings at DynamoDB's default (recovery off, the AWS owned key, protection off, the
 * Standard class) are not listed: the table a model creates has them too. Empty when nothing is lost.
 */
export function noSqlWorkbenchNotes(design: Design): string[] {
  return design.tables.flatMap(tableNotes);
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
