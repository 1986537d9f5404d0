/**
 * One table resource, `AWS::DynamoDB::Table` or `AWS::DynamoDB::GlobalTable`, read as a design
 * table: the same steps for both (resource attributes, properties, name, keys and indexes,
 * throughput, settings, what is dropped), each resource type's throughput read by its own rules.
 * A table's name is its `TableName`, or, when it is absent or known only at deployment, its logical
 * id (an `inferred` note says so). A template holds no entities: a `dropped` note says so.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-globaltable.html
 */
import type { Billing, OnDemandThroughput, Table } from '../../model/index.ts';
import { describeValue, joinPath, quote } from '../../model/index.ts';
import type { PathMap } from '../common/source-paths.ts';
import { newTable } from '../common/dynamodb-table.ts';
import { readGlobalThroughput, readReplicas } from './global-table.ts';
import { slug, TableKeys, type GsiRead } from './keys.ts';
import type { Reader } from './reader.ts';
import { dropSettings, noteIndexContributorInsights, noteNoEntities, readResourceAttributes, readSettings, type Located } from './settings.ts';
import { GLOBAL_TABLE_TYPE, TABLE_TYPE, type Json } from './template.ts';
import { noteCapacityOnDemand, noteMaximumsProvisioned, readBillingMode, readOnDemandThroughput, readProvisionedThroughput, readWarmThroughput } from './throughput.ts';

/** https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html */
const TABLE_PROPERTIES = [
  'AttributeDefinitions',
  'BillingMode',
  'ContributorInsightsSpecification',
  'DeletionProtectionEnabled',
  'GlobalSecondaryIndexes',
  'ImportSourceSpecification',
  'KeySchema',
  'KinesisStreamSpecification',
  'LocalSecondaryIndexes',
  'OnDemandThroughput',
  'PointInTimeRecoverySpecification',
  'ProvisionedThroughput',
  'ResourcePolicy',
  'SSESpecification',
  'StreamSpecification',
  'TableClass',
  'TableName',
  'Tags',
  'TimeToLiveSpecification',
  'WarmThroughput',
];

/** https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-globaltable.html */
const GLOBAL_TABLE_PROPERTIES = [
  'AttributeDefinitions',
  'BillingMode',
  'GlobalSecondaryIndexes',
  'GlobalTableSourceArn',
  'GlobalTableWitnesses',
  'KeySchema',
  'LocalSecondaryIndexes',
  'MultiRegionConsistency',
  'ReadOnDemandThroughputSettings',
  'ReadProvisionedThroughputSettings',
  'Replicas',
  'SSESpecification',
  'StreamSpecification',
  'TableName',
  'TimeToLiveSpecification',
  'WarmThroughput',
  'WriteOnDemandThroughputSettings',
  'WriteProvisionedThroughputSettings',
];

const TABLE_GSI_PROPERTIES = ['ContributorInsightsSpecification', 'IndexName', 'KeySchema', 'OnDemandThroughput', 'Projection', 'ProvisionedThroughput', 'WarmThroughput'];
const GLOBAL_GSI_PROPERTIES = [
  'IndexName',
  'KeySchema',
  'Projection',
  'ReadOnDemandThroughputSettings',
  'ReadProvisionedThroughputSettings',
  'WarmThroughput',
  'WriteOnDemandThroughputSettings',
  'WriteProvisionedThroughputSettings',
];

/** What one table resource read into: the table, and facts the auto scaling and the names need. */
export interface TableRead {
  logicalId: string;
  path: string;
  isGlobal: boolean;
  table: Table;
  /** The table's name was written in the template (or a parameter's Default), not taken from its logical id. */
  isNameKnown: boolean;
}

/** One table resource to read, and what the reading shares with the others. */
export interface ResourceInput {
  r: Reader;
  map: PathMap;
  ids: Set<string>;
  logicalId: string;
  resource: Json;
  /** `tables[i]` */
  tp: string;
}

/** The name of a table when the template does not decide it: its logical id (a table name needs 3 characters). */
const nameFromLogicalId = (logicalId: string): string => (logicalId.length >= 3 ? logicalId : `${logicalId}Table`);

function readTableName(r: Reader, props: Json, pp: string, logicalId: string): { name: string; isKnown: boolean } {
  const p = joinPath(pp, 'TableName');
  const fallback = nameFromLogicalId(logicalId);
  const got = r.get(props, 'TableName', pp);
  if (got.kind === 'value' && (typeof got.value === 'string' || (typeof got.value === 'number' && Number.isFinite(got.value)))) return { name: String(got.value), isKnown: true };
  if (got.kind === 'absent') {
    r.note('inferred', pp, `Resource ${quote(logicalId)} has no TableName, so CloudFormation names the table at deployment; the table is named after its logical id, ${quote(fallback)}.`);
  } else if (got.kind === 'unresolved') {
    r.unresolvedNote(p, got, `the table is named after its logical id, ${quote(fallback)}`);
  } else r.note('warning', p, `TableName is ${describeValue(got.value)}; expected a table name, so the table is named after its logical id, ${quote(fallback)}.`);
  return { name: fallback, isKnown: false };
}

/** The table's properties object, or a problem. */
function propertiesOf(r: Reader, resource: Json, rp: string): Json | undefined {
  if (!Object.hasOwn(resource, 'Properties')) {
    const p = joinPath(rp, 'Properties');
    r.problem('cloudformation.schema', p, `${p} is missing; expected the table's properties, with at least KeySchema and AttributeDefinitions.`, 'missing', 'an object of properties');
    return undefined;
  }
  return r.record(resource, 'Properties', rp, false);
}

/**
 * The throughput of an `AWS::DynamoDB::Table` and of its GSIs. Provisioned (BillingMode absent or
 * PROVISIONED), the table's `ProvisionedThroughput` is required and a GSI without one takes the
 * table's (CloudFormation requires one; an `inferred` note); on-demand maximums are dropped.
 * On-demand, capacity other than 0 is skipped and `OnDemandThroughput` read.
 */
function readTableThroughput(r: Reader, own: Located, gsis: readonly GsiRead[], tp: string, map: PathMap): { billing?: Billing; onDemand?: OnDemandThroughput } {
  const { mode, why } = readBillingMode(r, own.value, own.path, tp, map);
  if (mode === 'PAY_PER_REQUEST') {
    noteCapacityOnDemand(r, own.value, own.path, 'an on-demand (PAY_PER_REQUEST) table');
    const onDemand = readOnDemandThroughput(r, own.value, own.path, joinPath(tp, 'onDemandThroughput'), map);
    for (const { raw, path, designPath, gsi } of gsis) {
      noteCapacityOnDemand(r, raw, path, 'a GSI of an on-demand table');
      const max = readOnDemandThroughput(r, raw, path, joinPath(designPath, 'onDemandThroughput'), map);
      if (max) gsi.onDemandThroughput = max;
    }
    return { billing: { mode: 'ON_DEMAND' }, ...(onDemand ? { onDemand } : {}) };
  }
  const ptp = joinPath(own.path, 'ProvisionedThroughput');
  const hasCapacity = Object.hasOwn(own.value, 'ProvisionedThroughput');
  if (!hasCapacity) r.problem('cloudformation.schema', ptp, `${ptp} is missing, but ${why}; expected ReadCapacityUnits and WriteCapacityUnits.`, 'missing', 'ProvisionedThroughput with ReadCapacityUnits and WriteCapacityUnits');
  const capacity = hasCapacity ? readProvisionedThroughput(r, own.value, own.path, joinPath(tp, 'billing'), map, false) : undefined;
  noteMaximumsProvisioned(r, own.value, own.path, 'a provisioned table');
  for (const { raw, path, designPath, gsi } of gsis) {
    const pp = joinPath(designPath, 'provisioned');
    const fixed = readProvisionedThroughput(r, raw, path, pp, map, true);
    if (fixed) {
      gsi.provisioned = fixed;
      map.push([pp, joinPath(path, 'ProvisionedThroughput')]);
    } else if (!Object.hasOwn(raw, 'ProvisionedThroughput') && capacity) {
      gsi.provisioned = { ...capacity };
      map.push([pp, ptp]);
      r.note('inferred', path, `GSI ${quote(gsi.name)} of a provisioned table has no ProvisionedThroughput (CloudFormation requires one); the table's ${capacity.readCapacityUnits} RCU and ${capacity.writeCapacityUnits} WCU were taken.`);
    }
    noteMaximumsProvisioned(r, raw, path, 'a GSI of a provisioned table');
  }
  return capacity ? { billing: { mode: 'PROVISIONED', ...capacity } } : {};
}

/** An `AWS::DynamoDB::Table` or `AWS::DynamoDB::GlobalTable`; undefined when a problem stops it. */
export function readTableResource(input: ResourceInput): TableRead | undefined {
  const { r, map, logicalId, resource, tp } = input;
  const isGlobal = resource.Type === GLOBAL_TABLE_TYPE;
  const type = isGlobal ? GLOBAL_TABLE_TYPE : TABLE_TYPE;
  const rp = joinPath('Resources', logicalId);
  const pp = joinPath(rp, 'Properties');
  readResourceAttributes(r, resource, rp, logicalId);
  const props = propertiesOf(r, resource, rp);
  if (!props) return undefined;
  const own: Located = { value: props, path: pp };
  r.unknownProperties(props, pp, isGlobal ? GLOBAL_TABLE_PROPERTIES : TABLE_PROPERTIES, type);
  const { name, isKnown } = readTableName(r, props, pp, logicalId);
  map.push([tp, rp], [joinPath(tp, 'name'), Object.hasOwn(props, 'TableName') ? joinPath(pp, 'TableName') : rp]);
  const tableSlug = slug(name);

  const keyReader = new TableKeys(r, map, input.ids, tp, pp, tableSlug);
  keyReader.readDefinitions(props);
  const keys = keyReader.readTableKey(props);
  const gsis = keyReader.readGsis(props, isGlobal ? GLOBAL_GSI_PROPERTIES : TABLE_GSI_PROPERTIES, type);
  const lsis = keys ? keyReader.readLsis(props, keys.partitionKey.name) : [];
  keyReader.reportUnused();

  // A global table's first replica holds the settings each replica sets; a table's properties hold them all.
  const replicas = isGlobal ? readReplicas(r, props, pp) : undefined;
  const regional = replicas ? replicas.first : own;
  const global = isGlobal ? readGlobalThroughput(r, own, regional, gsis, tp, map) : undefined;
  const { billing, onDemand } = global ?? readTableThroughput(r, own, gsis, tp, map);
  gsis.forEach(({ raw, path, designPath, gsi }, k) => {
    const warm = readWarmThroughput(r, raw, path, joinPath(designPath, 'warmThroughput'), map);
    if (warm) gsi.warmThroughput = warm;
    const insightsOwner = global ? global.replicaGsis[k] : { value: raw, path };
    if (insightsOwner) noteIndexContributorInsights(r, insightsOwner, gsi.name);
  });

  if (isGlobal) dropSettings(r, own, `Global table resource ${quote(logicalId)}`, ['MultiRegionConsistency', 'GlobalTableWitnesses', 'GlobalTableSourceArn']);
  else dropSettings(r, own, `Table resource ${quote(logicalId)}`, ['KinesisStreamSpecification', 'ImportSourceSpecification', 'ResourcePolicy']);
  const settings = readSettings(r, props, pp, regional, isGlobal, tp, map);
  if (replicas?.first) {
    const first = replicas.first;
    dropSettings(r, first, `The first replica (${replicas.regionOf(first.value)})`, ['KinesisStreamSpecification', 'ResourcePolicy', 'ReplicaStreamSpecification', 'GlobalTableSettingsReplicationMode']);
  }
  const warm = readWarmThroughput(r, props, pp, joinPath(tp, 'warmThroughput'), map);
  noteNoEntities(r, rp, logicalId);

  if (!keys || !billing || !regional) return undefined;
  const table = newTable(
    {
      name,
      ...keys,
      billing,
      globalSecondaryIndexes: gsis.map((g) => g.gsi),
      localSecondaryIndexes: lsis,
      ...settings,
      onDemandThroughput: onDemand,
      warmThroughput: warm,
    },
    tableSlug,
    input.ids,
  );
  return { logicalId, path: rp, isGlobal, table, isNameKnown: isKnown };
}
