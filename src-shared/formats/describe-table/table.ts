/**
 * The TableDescription read as a design table without entities: name, keys and attribute
 * definitions, billing and capacity, GSIs and LSIs, table class, stream, encryption, deletion
 * protection, on-demand maximums and warm throughput; and the `dropped` notes for the global-table,
 * restore, archival and vector-index parts a design does not hold. See `import.ts` for what each
 * field becomes.
 */
import {
  keySlotsOf,
  STREAM_VIEW_TYPES,
  TABLE_CLASSES,
  type Billing,
  type Encryption,
  type GlobalSecondaryIndex,
  type LocalSecondaryIndex,
  type ProvisionedThroughput,
  type StreamViewType,
  type Table,
  type TableClass,
  describeValue,
  joinPath,
  isRecord,
  listOf,
  quote,
} from '../../model/index.ts';
import { indexId, isBillingMode, newTable } from '../common/dynamodb-table.ts';
import { slug } from '../common/ids.ts';
import type { PathMap } from '../common/source-paths.ts';
import { has, own, type Collector, type Json } from './collector.ts';
import { keyPart, mapKeyPart, readAttributeDefinitions, readKeySchema, readOnDemand, readProjection, readThroughput, readWarm, type Definitions } from './fields.ts';
import type { Located } from './input.ts';

/** TableDescription fields read or deliberately skipped; any other field gets a `warning` note. */
export const KNOWN_TABLE_FIELDS = new Set([
  'AttributeDefinitions', 'TableName', 'KeySchema', 'TableStatus', 'CreationDateTime', 'ProvisionedThroughput', 'TableSizeBytes', 'ItemCount', 'TableArn',
  'TableId', 'BillingModeSummary', 'LocalSecondaryIndexes', 'GlobalSecondaryIndexes', 'StreamSpecification', 'LatestStreamLabel', 'LatestStreamArn',
  'GlobalTableVersion', 'Replicas', 'GlobalTableWitnesses', 'GlobalTableSettingsReplicationMode', 'RestoreSummary', 'SSEDescription', 'ArchivalSummary',
  'TableClassSummary', 'DeletionProtectionEnabled', 'DisassociationProtectionEnabled', 'OnDemandThroughput', 'WarmThroughput', 'MultiRegionConsistency',
  'VectorIndexes',
]);
const KNOWN_GSI_FIELDS = new Set(['IndexName', 'KeySchema', 'Projection', 'IndexStatus', 'Backfilling', 'ProvisionedThroughput', 'IndexSizeBytes', 'ItemCount', 'IndexArn', 'OnDemandThroughput', 'WarmThroughput']);
const KNOWN_LSI_FIELDS = new Set(['IndexName', 'KeySchema', 'Projection', 'IndexSizeBytes', 'ItemCount', 'IndexArn']);

const STATUS_WORDS: Record<string, string> = {
  CREATING: 'being created',
  UPDATING: 'being updated',
  DELETING: 'being deleted',
  ARCHIVING: 'being archived',
  ARCHIVED: 'archived',
  INACCESSIBLE_ENCRYPTION_CREDENTIALS: 'without access to its KMS key',
  REPLICATION_NOT_AUTHORIZED: 'not authorized to replicate',
};

/** The table read, with the design → input paths of its parts and its ARN. */
export interface TableRead {
  table: Table;
  map: PathMap;
  arn?: string;
}

/** What reading the table's indexes needs: where the table is, what it has read so far, and where paths go. */
interface Scope {
  base: string;
  defs: Definitions | undefined;
  isOnDemand: boolean;
  tableSlug: string;
  ids: Set<string>;
  map: PathMap;
  c: Collector;
}

/**
 * The billing mode: BillingModeSummary appears only once the table has been on-demand, so absent is
 * PROVISIONED. A provisioned table's capacity is read too (undefined, with a problem, when unusable).
 */
function readBilling(t: Json, base: string, c: Collector): { isOnDemand: boolean; billingPath: string; throughput?: ProvisionedThroughput } {
  const at = (field: string) => joinPath(base, field);
  const summary = own(t, 'BillingModeSummary');
  let mode: 'PROVISIONED' | 'PAY_PER_REQUEST' = 'PROVISIONED';
  let billingPath = at('ProvisionedThroughput');
  if (summary !== undefined) {
    const bm = isRecord(summary) ? own(summary, 'BillingMode') : undefined;
    const bp = joinPath(at('BillingModeSummary'), 'BillingMode');
    if (!isRecord(summary)) c.wrong(at('BillingModeSummary'), summary, 'an object with BillingMode');
    else if (bm !== undefined && !isBillingMode(bm)) c.wrong(bp, bm, 'PROVISIONED or PAY_PER_REQUEST');
    else if (bm === 'PAY_PER_REQUEST') {
      mode = 'PAY_PER_REQUEST';
      billingPath = bp;
    }
  }
  if (mode === 'PAY_PER_REQUEST') return { isOnDemand: true, billingPath };
  const provisionedWhy = summary === undefined ? ' (BillingModeSummary is absent, which means PROVISIONED)' : ' (the table is PROVISIONED)';
  const throughput = readThroughput(own(t, 'ProvisionedThroughput'), at('ProvisionedThroughput'), c, provisionedWhy);
  return { isOnDemand: false, billingPath, ...(throughput ? { throughput } : {}) };
}

/** One GlobalSecondaryIndexDescription as a GSI, or undefined (with problems) when it is unusable. */
function readGsi(g: unknown, gp: string, position: number, scope: Scope): GlobalSecondaryIndex | undefined {
  const { defs, isOnDemand, tableSlug, ids, map, c } = scope;
  if (!isRecord(g)) {
    c.wrong(gp, g, 'an object with IndexName, KeySchema and Projection');
    return undefined;
  }
  c.unknownFields(g, gp, KNOWN_GSI_FIELDS, 'a GlobalSecondaryIndexDescription');
  const indexName = own(g, 'IndexName');
  if (typeof indexName !== 'string' || indexName === '') c.wrong(joinPath(gp, 'IndexName'), indexName, 'the index name');
  const label = `GSI ${quote(typeof indexName === 'string' ? indexName : '')}`;
  const gKeys = readKeySchema(own(g, 'KeySchema'), joinPath(gp, 'KeySchema'), 'gsi', defs, c);
  const projection = readProjection(own(g, 'Projection'), joinPath(gp, 'Projection'), c);
  const throughput = isOnDemand ? undefined : readThroughput(own(g, 'ProvisionedThroughput'), joinPath(gp, 'ProvisionedThroughput'), c, ` (a GSI of a provisioned table has its own capacity)`);
  const onDemand = readOnDemand(own(g, 'OnDemandThroughput'), joinPath(gp, 'OnDemandThroughput'), c);
  const warm = readWarm(own(g, 'WarmThroughput'), joinPath(gp, 'WarmThroughput'), isOnDemand, label, c);
  const status = own(g, 'IndexStatus');
  if (typeof status === 'string' && status !== 'ACTIVE') {
    c.note('dropped', joinPath(gp, 'IndexStatus'), `${label} is ${STATUS_WORDS[status] ?? status} (IndexStatus ${status}); it was imported as defined, but its status is not.`);
  }
  if (typeof indexName !== 'string' || indexName === '' || !gKeys || !projection || !onDemand.isValid || !warm.isValid || (!isOnDemand && !throughput)) return undefined;
  const sortKey = keyPart(gKeys.range);
  const gsi: GlobalSecondaryIndex = {
    id: indexId('gsi', tableSlug, slug(indexName), ids),
    name: indexName,
    partitionKey: keyPart(gKeys.hash) as GlobalSecondaryIndex['partitionKey'],
    ...(sortKey ? { sortKey } : {}),
    projection,
  };
  if (throughput) gsi.provisioned = throughput;
  if (onDemand.max) {
    if (isOnDemand) gsi.onDemandThroughput = onDemand.max;
    else c.note('dropped', joinPath(gp, 'OnDemandThroughput'), `${label}: an on-demand maximum throughput applies to an on-demand table only, and this table is provisioned; it was not imported.`);
  }
  if (warm.warm) gsi.warmThroughput = warm.warm;
  const dp = joinPath('tables[0].globalSecondaryIndexes', position);
  map.push([dp, gp], [joinPath(dp, 'name'), joinPath(gp, 'IndexName')], [joinPath(dp, 'projection'), joinPath(gp, 'Projection')]);
  map.push([joinPath(joinPath(dp, 'projection'), 'nonKeyAttributes'), joinPath(joinPath(gp, 'Projection'), 'NonKeyAttributes')]);
  map.push([joinPath(dp, 'provisioned'), joinPath(gp, 'ProvisionedThroughput')], [joinPath(dp, 'onDemandThroughput'), joinPath(gp, 'OnDemandThroughput')]);
  map.push([joinPath(dp, 'warmThroughput'), joinPath(gp, 'WarmThroughput')]);
  if (defs) {
    mapKeyPart(map, joinPath(dp, 'partitionKey'), gKeys.hash, defs);
    mapKeyPart(map, joinPath(dp, 'sortKey'), gKeys.range, defs);
  }
  return gsi;
}

/** One LocalSecondaryIndexDescription as an LSI, or undefined (with problems) when it is unusable. */
function readLsi(l: unknown, lp: string, position: number, tableHash: string | undefined, scope: Scope): LocalSecondaryIndex | undefined {
  const { defs, tableSlug, ids, map, c } = scope;
  if (!isRecord(l)) {
    c.wrong(lp, l, 'an object with IndexName, KeySchema and Projection');
    return undefined;
  }
  c.unknownFields(l, lp, KNOWN_LSI_FIELDS, 'a LocalSecondaryIndexDescription');
  const indexName = own(l, 'IndexName');
  if (typeof indexName !== 'string' || indexName === '') c.wrong(joinPath(lp, 'IndexName'), indexName, 'the index name');
  const lKeys = readKeySchema(own(l, 'KeySchema'), joinPath(lp, 'KeySchema'), 'lsi', defs, c, tableHash);
  const projection = readProjection(own(l, 'Projection'), joinPath(lp, 'Projection'), c);
  const range = lKeys?.range[0];
  if (typeof indexName !== 'string' || indexName === '' || !range || !projection) return undefined;
  const dp = joinPath('tables[0].localSecondaryIndexes', position);
  map.push([dp, lp], [joinPath(dp, 'name'), joinPath(lp, 'IndexName')], [joinPath(dp, 'projection'), joinPath(lp, 'Projection')]);
  map.push([joinPath(joinPath(dp, 'projection'), 'nonKeyAttributes'), joinPath(joinPath(lp, 'Projection'), 'NonKeyAttributes')]);
  if (defs) mapKeyPart(map, joinPath(dp, 'sortKey'), [range], defs);
  return { id: indexId('lsi', tableSlug, slug(indexName), ids), name: indexName, sortKey: range.attribute, projection };
}

/** The elements of the list at `field`, or none (with a problem when it is not a list). */
function listAt(t: Json, base: string, field: string, what: string, c: Collector): unknown[] {
  const value = own(t, field);
  if (value !== undefined && !Array.isArray(value)) c.wrong(joinPath(base, field), value, what);
  return Array.isArray(value) ? value : [];
}

/** GlobalSecondaryIndexes, in order; an unusable one is left out, with its problems. */
function readGsis(t: Json, scope: Scope): GlobalSecondaryIndex[] {
  const gsis: GlobalSecondaryIndex[] = [];
  const path = joinPath(scope.base, 'GlobalSecondaryIndexes');
  listAt(t, scope.base, 'GlobalSecondaryIndexes', 'a list of global secondary indexes', scope.c).forEach((g, k) => {
    const gsi = readGsi(g, joinPath(path, k), gsis.length, scope);
    if (gsi) gsis.push(gsi);
  });
  return gsis;
}

/** LocalSecondaryIndexes, in order; an unusable one is left out, with its problems. */
function readLsis(t: Json, tableHash: string | undefined, scope: Scope): LocalSecondaryIndex[] {
  const lsis: LocalSecondaryIndex[] = [];
  const path = joinPath(scope.base, 'LocalSecondaryIndexes');
  listAt(t, scope.base, 'LocalSecondaryIndexes', 'a list of local secondary indexes', scope.c).forEach((l, k) => {
    const lsi = readLsi(l, joinPath(path, k), lsis.length, tableHash, scope);
    if (lsi) lsis.push(lsi);
  });
  return lsis;
}

/** Table class: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableClassSummary.html */
function readTableClass(t: Json, base: string, c: Collector): TableClass {
  const classSummary = own(t, 'TableClassSummary');
  if (classSummary === undefined) return 'STANDARD';
  const path = joinPath(base, 'TableClassSummary');
  const cls = isRecord(classSummary) ? own(classSummary, 'TableClass') : undefined;
  if (!isRecord(classSummary)) c.wrong(path, classSummary, 'an object with TableClass');
  else if (cls !== undefined && !(TABLE_CLASSES as readonly unknown[]).includes(cls)) c.wrong(joinPath(path, 'TableClass'), cls, TABLE_CLASSES.join(' or '));
  else if (cls !== undefined) return cls as TableClass;
  return 'STANDARD';
}

/** Stream: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_StreamSpecification.html */
function readStream(t: Json, base: string, c: Collector): StreamViewType | undefined {
  const streamSpec = own(t, 'StreamSpecification');
  const streamPath = joinPath(base, 'StreamSpecification');
  if (streamSpec === undefined) return undefined;
  if (!isRecord(streamSpec)) {
    c.wrong(streamPath, streamSpec, 'an object with StreamEnabled and StreamViewType');
    return undefined;
  }
  const enabled = own(streamSpec, 'StreamEnabled');
  const view = own(streamSpec, 'StreamViewType');
  if (typeof enabled !== 'boolean') c.wrong(joinPath(streamPath, 'StreamEnabled'), enabled, 'true or false');
  else if (enabled && !(STREAM_VIEW_TYPES as readonly unknown[]).includes(view)) c.wrong(joinPath(streamPath, 'StreamViewType'), view, STREAM_VIEW_TYPES.join(', '), ' (the stream is enabled)');
  else if (enabled) return view as StreamViewType;
  return undefined;
}

/** DeletionProtectionEnabled, when the description holds it. */
function readDeletionProtection(t: Json, base: string, c: Collector): boolean | undefined {
  const value = own(t, 'DeletionProtectionEnabled');
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  c.wrong(joinPath(base, 'DeletionProtectionEnabled'), value, 'true or false');
  return undefined;
}

/** Reads the TableDescription into a table without entities, or adds the problems that stop it. */
export function readTable(located: Located, ids: Set<string>, c: Collector): TableRead | undefined {
  const { table: t, base } = located;
  const at = (field: string) => joinPath(base, field);
  const before = c.problems.length;
  const map: PathMap = [];

  const name = own(t, 'TableName');
  if (typeof name !== 'string' || name === '') c.wrong(at('TableName'), name, 'the table name');
  const defs = readAttributeDefinitions(t, base, c);
  const keys = readKeySchema(own(t, 'KeySchema'), at('KeySchema'), 'table', defs, c);
  const { isOnDemand, billingPath, throughput: tableThroughput } = readBilling(t, base, c);

  const tableName = typeof name === 'string' ? name : '';
  const tableSlug = slug(tableName);
  const tableLabel = `Table ${quote(tableName)}`;
  const scope: Scope = { base, defs, isOnDemand, tableSlug, ids, map, c };
  const gsis = readGsis(t, scope);
  const lsis = readLsis(t, keys?.hash[0]?.attribute.name, scope);
  const tableClass = readTableClass(t, base, c);
  const stream = readStream(t, base, c);
  const encryption = readEncryption(own(t, 'SSEDescription'), at('SSEDescription'), tableLabel, c);
  const deletionProtection = readDeletionProtection(t, base, c);
  const onDemand = readOnDemand(own(t, 'OnDemandThroughput'), at('OnDemandThroughput'), c);
  const warm = readWarm(own(t, 'WarmThroughput'), at('WarmThroughput'), isOnDemand, tableLabel, c);

  if (c.problems.length > before || !keys || !defs || typeof name !== 'string' || (!isOnDemand && !tableThroughput)) return undefined;

  const [hash] = keys.hash;
  if (!hash) return undefined;
  const billing: Billing = tableThroughput ? { mode: 'PROVISIONED', ...tableThroughput } : { mode: 'ON_DEMAND' };
  const [range] = keys.range;
  if (onDemand.max && !isOnDemand) {
    c.note('dropped', at('OnDemandThroughput'), `${tableLabel}: an on-demand maximum throughput applies to an on-demand table only, and this table is provisioned; it was not imported.`);
  }
  const table = newTable(
    {
      name,
      partitionKey: hash.attribute,
      sortKey: range?.attribute,
      billing,
      tableClass,
      stream,
      globalSecondaryIndexes: gsis,
      localSecondaryIndexes: lsis,
      encryption,
      deletionProtection,
      onDemandThroughput: isOnDemand ? onDemand.max : undefined,
      warmThroughput: warm.warm,
    },
    tableSlug,
    ids,
  );
  noteWarmThroughput(table, base, c);

  map.push(['tables[0]', base], ['tables[0].name', at('TableName')], ['name', at('TableName')], ['tables[0].billing', billingPath]);
  map.push(['tables[0].globalSecondaryIndexes', at('GlobalSecondaryIndexes')], ['tables[0].localSecondaryIndexes', at('LocalSecondaryIndexes')]);
  map.push(['tables[0].tableClass', at('TableClassSummary')], ['tables[0].stream', at('StreamSpecification')], ['tables[0].encryption', at('SSEDescription')]);
  map.push(['tables[0].deletionProtection', at('DeletionProtectionEnabled')], ['tables[0].onDemandThroughput', at('OnDemandThroughput')], ['tables[0].warmThroughput', at('WarmThroughput')]);
  mapKeyPart(map, 'tables[0].partitionKey', [hash], defs);
  if (range) mapKeyPart(map, 'tables[0].sortKey', [range], defs);
  noteUnusedDefinitions(table, defs, c);

  const arn = own(t, 'TableArn');
  return { table, map, ...(typeof arn === 'string' && arn !== '' ? { arn } : {}) };
}

/** An `inferred` note when the table or a GSI took DescribeTable's warm throughput as its setting. */
function noteWarmThroughput(table: Table, base: string, c: Collector): void {
  const warmOwners = [...(table.warmThroughput ? ['the table'] : []), ...table.globalSecondaryIndexes.filter((g) => g.warmThroughput).map((g) => `GSI ${quote(g.name)}`)];
  if (warmOwners.length === 0) return;
  c.note(
    'inferred',
    joinPath(base, table.warmThroughput ? 'WarmThroughput' : 'GlobalSecondaryIndexes'),
    `The warm throughput of ${warmOwners.join(', ')} is DescribeTable's current value, which DynamoDB also raises by itself as usage grows; it was taken as the design's setting, so an export asks to pre-warm to it (a one-time charge when it is above what the table has).`,
  );
}

/**
 * A `warning` for each attribute definition no key schema names: DynamoDB refuses them at creation,
 * so an output should have none; one that does is skipped.
 */
function noteUnusedDefinitions(table: Table, defs: Definitions, c: Collector): void {
  const used = new Set(keySlotsOf(table).map((s) => s.attribute.name));
  for (const [defName, def] of defs) {
    if (!used.has(defName)) {
      c.note('warning', def.path.replace(/\.AttributeType$/, ''), `AttributeDefinitions defines ${quote(defName)}, which no key schema of the table or its imported indexes names; it was skipped.`);
    }
  }
}

/**
 * SSEDescription → the design's encryption: KMS with the key ARN when enabled (or being enabled or
 * updated) with SSEType KMS, the AWS owned key otherwise and when absent.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SSEDescription.html
 */
function readEncryption(value: unknown, path: string, tableLabel: string, c: Collector): Encryption {
  if (value === undefined) return { type: 'AWS_OWNED' };
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with Status, SSEType and KMSMasterKeyArn');
    return { type: 'AWS_OWNED' };
  }
  const statuses = ['ENABLED', 'ENABLING', 'UPDATING', 'DISABLED', 'DISABLING'];
  const status = own(value, 'Status');
  const sseType = own(value, 'SSEType');
  const arn = own(value, 'KMSMasterKeyArn');
  if (status !== undefined && (typeof status !== 'string' || !statuses.includes(status))) {
    c.wrong(joinPath(path, 'Status'), status, `one of ${statuses.join(', ')}`);
    return { type: 'AWS_OWNED' };
  }
  if (arn !== undefined && typeof arn !== 'string') {
    c.wrong(joinPath(path, 'KMSMasterKeyArn'), arn, 'the ARN of a KMS key');
    return { type: 'AWS_OWNED' };
  }
  if (has(value, 'InaccessibleEncryptionDateTime')) {
    c.note('warning', joinPath(path, 'InaccessibleEncryptionDateTime'), `${tableLabel}: DynamoDB reports its KMS key inaccessible since ${String(value.InaccessibleEncryptionDateTime)}; the key was imported as it is named.`);
  }
  if (status === 'DISABLED' || status === 'DISABLING') {
    if (status === 'DISABLING') c.note('warning', joinPath(path, 'Status'), `${tableLabel}: encryption with a KMS key is being turned off (Status DISABLING); the table was imported with the AWS owned key it is moving to.`);
    return { type: 'AWS_OWNED' };
  }
  if (sseType !== 'KMS') {
    c.note('warning', joinPath(path, 'SSEType'), `${tableLabel}: SSEType is ${describeValue(sseType)}, not KMS; the table was imported with the AWS owned key.`);
    return { type: 'AWS_OWNED' };
  }
  if (status === 'ENABLING' || status === 'UPDATING') {
    c.note('warning', joinPath(path, 'Status'), `${tableLabel}: its encryption is ${status === 'ENABLING' ? 'being enabled' : 'being updated'} (Status ${status}); the KMS key named now was imported.`);
  }
  return typeof arn === 'string' && arn !== '' ? { type: 'KMS', kmsKeyId: arn } : { type: 'KMS' };
}

/** `dropped` notes for the global-table, restore, archival and vector-index parts the design does not hold. */
export function noteDroppedParts(t: Json, base: string, c: Collector): void {
  const at = (field: string) => joinPath(base, field);
  const status = own(t, 'TableStatus');
  if (typeof status === 'string' && status !== 'ACTIVE') {
    c.note('dropped', at('TableStatus'), `The table is ${STATUS_WORDS[status] ?? status} (TableStatus ${status}); it was imported as described, but its status is not.`);
  }
  const replicas = own(t, 'Replicas');
  if (Array.isArray(replicas) && replicas.length > 0) {
    const regions = replicas.map((r) => (isRecord(r) && typeof r.RegionName === 'string' ? r.RegionName : '?'));
    const version = own(t, 'GlobalTableVersion');
    c.note(
      'dropped',
      at('Replicas'),
      `The table is a global table${typeof version === 'string' ? ` (version ${version})` : ''} with replicas in ${listOf(regions)}; a design describes one Region's table, so the replicas and their settings were not imported.`,
    );
  } else if (typeof own(t, 'GlobalTableVersion') === 'string') {
    c.note('dropped', at('GlobalTableVersion'), `The table belongs to a global table (version ${String(t.GlobalTableVersion)}); a design describes one Region's table, so this was not imported.`);
  }
  const witnesses = own(t, 'GlobalTableWitnesses');
  if (Array.isArray(witnesses) && witnesses.length > 0) c.note('dropped', at('GlobalTableWitnesses'), 'The global table has witness Regions; a design does not hold them, so they were not imported.');
  if (has(t, 'MultiRegionConsistency')) c.note('dropped', at('MultiRegionConsistency'), `The global table's multi-Region consistency (${describeValue(t.MultiRegionConsistency)}) is not held by a design; it was not imported.`);
  if (has(t, 'GlobalTableSettingsReplicationMode')) c.note('dropped', at('GlobalTableSettingsReplicationMode'), `The global table's settings replication mode (${describeValue(t.GlobalTableSettingsReplicationMode)}) is not held by a design; it was not imported.`);
  if (own(t, 'DisassociationProtectionEnabled') === true) c.note('dropped', at('DisassociationProtectionEnabled'), "The global table's disassociation protection is not held by a design; it was not imported.");
  const restore = own(t, 'RestoreSummary');
  if (isRecord(restore)) {
    const source = typeof restore.SourceBackupArn === 'string' ? `backup ${restore.SourceBackupArn}` : typeof restore.SourceTableArn === 'string' ? `table ${restore.SourceTableArn}` : 'a backup';
    c.note('dropped', at('RestoreSummary'), `The table was restored from ${source}; a design holds no restore history, so this was not imported.`);
  }
  if (isRecord(own(t, 'ArchivalSummary'))) c.note('dropped', at('ArchivalSummary'), 'The table has been archived (ArchivalSummary); a design holds no archival state, so this was not imported.');
  const vectors = own(t, 'VectorIndexes');
  if (Array.isArray(vectors) && vectors.length > 0) {
    c.note('dropped', at('VectorIndexes'), `The table has ${vectors.length === 1 ? 'a vector index' : `${vectors.length} vector indexes`}; a design does not hold vector indexes, so ${vectors.length === 1 ? 'it was' : 'they were'} not imported.`);
  }
}
