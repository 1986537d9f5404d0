/**
 * What is particular to an `AWS::DynamoDB::GlobalTable`: its replicas (the first stands for the
 * table; each other one is a `dropped` note naming its Region and how its settings differ) and its
 * throughput. Provisioned, the write capacity is the resource's (or a GSI's)
 * `WriteProvisionedThroughputSettings` auto scaling, its `SeedCapacity` (or minimum) the initial
 * capacity; the read capacity is the first replica's `ReadProvisionedThroughputSettings` (fixed or auto
 * scaled), else the resource's (or GSI's) own. On-demand, the read maximum is the first replica's,
 * else the resource's; the write maximum the resource's. A GSI without either takes the table's.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-globaltable.html
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-globaltable-replicaspecification.html
 */
import type { Billing, OnDemandThroughput } from '../../model/index.ts';
import { joinPath, listOf, quote } from '../../model/index.ts';
import type { PathMap } from '../common/source-paths.ts';
import type { GsiRead } from './keys.ts';
import type { Reader } from './reader.ts';
import type { Located } from './settings.ts';
import { intrinsicOf, isRecord, type Json } from './template.ts';
import { maximumsOf, provisionedOf, readBillingMode, readCapacityAutoScaling, readMaximum, type Capacity } from './throughput.ts';

/** https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-globaltable-replicaspecification.html */
const REPLICA_PROPERTIES = [
  'ContributorInsightsSpecification',
  'DeletionProtectionEnabled',
  'GlobalSecondaryIndexes',
  'GlobalTableSettingsReplicationMode',
  'KinesisStreamSpecification',
  'PointInTimeRecoverySpecification',
  'ReadOnDemandThroughputSettings',
  'ReadProvisionedThroughputSettings',
  'Region',
  'ReplicaStreamSpecification',
  'ResourcePolicy',
  'SSESpecification',
  'TableClass',
  'Tags',
];

/** The replicas as read: the first, which stands for the table, and how to name a replica's Region. */
export interface Replicas {
  first?: Located;
  regionOf: (replica: Json | undefined) => string;
}

/** Whether two template values are equal as data (bounded depth: YAML aliases may make cycles). */
function isSameValue(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (depth > 64) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, k) => isSameValue(x, b[k], depth + 1));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && isSameValue(a[k], b[k], depth + 1));
  }
  return false;
}

/** `Replicas`: at least one ReplicaSpecification; the first stands for the table, the others are dropped. */
export function readReplicas(r: Reader, props: Json, pp: string): Replicas {
  const rlp = joinPath(pp, 'Replicas');
  const items = r.list(props, 'Replicas', pp, 'required', 'a list of ReplicaSpecification') ?? [];
  const replicas = items.flatMap((item) => {
    const value = r.object(item, 'a ReplicaSpecification', 'the replica was dropped');
    return value ? [{ value, path: item.path }] : [];
  });
  const regionOf = (replica: Json | undefined): string => {
    const ref = intrinsicOf(replica?.Region);
    if (ref?.name === 'Ref' && ref.arg === 'AWS::Region') return "the stack's Region";
    const got = replica ? r.template.evaluate(replica.Region) : undefined;
    return got?.ok && typeof got.value === 'string' ? got.value : got && !got.ok ? got.what : '(no Region)';
  };
  const [first, ...others] = replicas;
  if (Object.hasOwn(props, 'Replicas') && !first) {
    const found = items.length === 0 ? 'an empty list' : 'no replica object';
    r.problem('cloudformation.schema', rlp, `${rlp} ${items.length === 0 ? 'is an empty list' : 'has no replica object'}; expected at least one ReplicaSpecification with a Region.`, found, 'a ReplicaSpecification');
  }
  if (first) r.unknownProperties(first.value, first.path, REPLICA_PROPERTIES, 'a ReplicaSpecification');
  for (const replica of others) {
    const differing = [...new Set([...Object.keys(replica.value), ...Object.keys(first?.value ?? {})])].filter((k) => k !== 'Region' && !isSameValue(replica.value[k], first?.value[k]));
    const differs = differing.length > 0 ? `; it differs from the first replica in ${listOf(differing)}, which ${differing.length === 1 ? 'was' : 'were'} dropped too` : '';
    r.note('dropped', replica.path, `The replica in ${regionOf(replica.value)} was dropped: a design is one table in one Region, with the settings of the first replica (${regionOf(first?.value)})${differs}.`);
  }
  return first ? { first, regionOf } : { regionOf };
}

/** What the throughput of a global table read into; `replicaGsis[k]` is the first replica's entry for the k-th GSI. */
export interface GlobalThroughput {
  billing?: Billing;
  onDemand?: OnDemandThroughput;
  replicaGsis: Array<Located | undefined>;
}

/**
 * The billing and capacity of a global table (`own`, its properties) and of its GSIs (whose
 * throughput it sets), from the resource and the first replica; see the module comment.
 */
export function readGlobalThroughput(r: Reader, own: Located, replica: Located | undefined, gsis: readonly GsiRead[], tp: string, map: PathMap): GlobalThroughput {
  const { mode, why } = readBillingMode(r, own.value, own.path, tp, map);
  const bp = joinPath(tp, 'billing');
  let billing: Billing | undefined;
  let onDemand: OnDemandThroughput | undefined;
  let tableRead: Capacity | undefined;
  let tableWrite: Capacity | undefined;
  if (mode === 'PROVISIONED') {
    const wpp = joinPath(own.path, 'WriteProvisionedThroughputSettings');
    if (Object.hasOwn(own.value, 'WriteProvisionedThroughputSettings')) tableWrite = readWriteCapacity(r, own, bp, map, false);
    else r.problem('cloudformation.schema', wpp, `${wpp} is missing, but ${why}; expected WriteCapacityAutoScalingSettings.`, 'missing', 'WriteProvisionedThroughputSettings with WriteCapacityAutoScalingSettings');
    tableRead = readReadCapacity(r, replica, own, bp, map);
    if (!tableRead && replica) {
      const rrp = joinPath(replica.path, 'ReadProvisionedThroughputSettings');
      r.problem('cloudformation.schema', rrp, `${rrp} is missing, and the global table sets no ReadProvisionedThroughputSettings either; expected the read capacity of a provisioned global table.`, 'missing', 'ReadProvisionedThroughputSettings');
    }
    if (tableWrite && tableRead) billing = { mode: 'PROVISIONED', ...provisionedOf(tableRead, tableWrite) };
  } else {
    billing = { mode: 'ON_DEMAND' };
    onDemand = readOnDemandSettings(r, replica, own, joinPath(tp, 'onDemandThroughput'), map);
  }

  // Throughput settings of the other billing mode do nothing.
  const otherModeKeys = mode === 'PROVISIONED' ? ['WriteOnDemandThroughputSettings', 'ReadOnDemandThroughputSettings'] : ['WriteProvisionedThroughputSettings', 'ReadProvisionedThroughputSettings'];
  for (const owner of [own, ...(replica ? [replica] : []), ...gsis.map((g) => ({ value: g.raw, path: g.path }))]) {
    for (const key of otherModeKeys) {
      if (!Object.hasOwn(owner.value, key)) continue;
      const p = joinPath(owner.path, key);
      r.note('warning', p, `${key} applies to ${mode === 'PROVISIONED' ? 'on-demand' : 'provisioned'} billing, but the global table is ${mode}; it was skipped.`);
    }
  }

  // GSIs: write settings on the GSI, read settings on the first replica's entry for it.
  const entries = replicaGsiEntries(r, replica);
  const replicaGsis = gsis.map(({ raw, path, designPath, gsi }) => {
    const entry = entries.get(gsi.name);
    entries.delete(gsi.name);
    const gsiOwn = { value: raw, path };
    if (mode === 'PROVISIONED') {
      const pp = joinPath(designPath, 'provisioned');
      const write = readWriteCapacity(r, gsiOwn, pp, map, true);
      let read = readReadCapacity(r, entry, gsiOwn, pp, map);
      if (!read && tableRead) {
        read = { units: tableRead.units };
        r.note('inferred', path, `GSI ${quote(gsi.name)} has no read capacity in the first replica's GlobalSecondaryIndexes nor its own ReadProvisionedThroughputSettings; the table's ${tableRead.units} RCU were taken.`);
      }
      let writeUnits = write;
      if (!write && tableWrite && !Object.hasOwn(raw, 'WriteProvisionedThroughputSettings')) {
        writeUnits = { units: tableWrite.units };
        r.note('inferred', path, `GSI ${quote(gsi.name)} has no WriteProvisionedThroughputSettings; the table's initial ${tableWrite.units} WCU were taken, without auto scaling.`);
      }
      if (read && writeUnits) {
        gsi.provisioned = provisionedOf(read, writeUnits);
        map.push([pp, path]);
      }
    } else {
      const max = readOnDemandSettings(r, entry, gsiOwn, joinPath(designPath, 'onDemandThroughput'), map);
      if (max) gsi.onDemandThroughput = max;
    }
    return entry;
  });
  for (const [indexName, entry] of entries) {
    r.note('warning', entry.path, `The first replica sets settings for GSI ${quote(indexName)}, which the global table does not define; they were skipped.`);
  }
  return { ...(billing ? { billing } : {}), ...(onDemand ? { onDemand } : {}), replicaGsis };
}

/** The first replica's `GlobalSecondaryIndexes` entries by index name (the first entry of a name counts). */
function replicaGsiEntries(r: Reader, replica: Located | undefined): Map<string, Located> {
  const entries = new Map<string, Located>();
  const items = replica ? (r.list(replica.value, 'GlobalSecondaryIndexes', replica.path, 'optional', 'a list of ReplicaGlobalSecondaryIndexSpecification') ?? []) : [];
  for (const item of items) {
    if (item.unresolved || !isRecord(item.value)) continue;
    const name = r.resolve(item.value.IndexName, joinPath(item.path, 'IndexName'));
    if (name.kind === 'value' && typeof name.value === 'string' && !entries.has(name.value)) entries.set(name.value, { value: item.value, path: item.path });
  }
  return entries;
}

/** `WriteProvisionedThroughputSettings.WriteCapacityAutoScalingSettings` of the table or a GSI (`isOptional`: a GSI may take the table's). */
function readWriteCapacity(r: Reader, owner: Located, designPath: string, map: PathMap, isOptional: boolean): Capacity | undefined {
  const settings = r.record(owner.value, 'WriteProvisionedThroughputSettings', owner.path, isOptional);
  const wpp = joinPath(owner.path, 'WriteProvisionedThroughputSettings');
  const scaling = settings ? r.record(settings, 'WriteCapacityAutoScalingSettings', wpp, false) : undefined;
  return scaling ? readCapacityAutoScaling(r, scaling, joinPath(wpp, 'WriteCapacityAutoScalingSettings'), 'write', joinPath(joinPath(designPath, 'autoScaling'), 'write'), map) : undefined;
}

/**
 * Read capacity of the table or a GSI: the first replica's `ReadProvisionedThroughputSettings` for it
 * (`replicaEntry`: fixed `ReadCapacityUnits`, or `ReadCapacityAutoScalingSettings`), else the
 * resource's or GSI's own fixed `ReadCapacityUnits`.
 */
function readReadCapacity(r: Reader, replicaEntry: Located | undefined, own: Located, designPath: string, map: PathMap): Capacity | undefined {
  const units = (settings: Json, path: string): Capacity | undefined => {
    const n = r.optionalInteger(settings, 'ReadCapacityUnits', path, 'a whole number of read capacity units', 'no read capacity was taken from it');
    if (n === undefined) return undefined;
    map.push([joinPath(designPath, 'readCapacityUnits'), joinPath(path, 'ReadCapacityUnits')]);
    return { units: n };
  };
  const replicaSettings = replicaEntry ? r.record(replicaEntry.value, 'ReadProvisionedThroughputSettings', replicaEntry.path, true) : undefined;
  if (replicaEntry && replicaSettings) {
    const rp = joinPath(replicaEntry.path, 'ReadProvisionedThroughputSettings');
    const scaling = r.record(replicaSettings, 'ReadCapacityAutoScalingSettings', rp, true);
    const read = scaling ? readCapacityAutoScaling(r, scaling, joinPath(rp, 'ReadCapacityAutoScalingSettings'), 'read', joinPath(joinPath(designPath, 'autoScaling'), 'read'), map) : units(replicaSettings, rp);
    if (read) return read;
  }
  const ownSettings = r.record(own.value, 'ReadProvisionedThroughputSettings', own.path, true);
  return ownSettings ? units(ownSettings, joinPath(own.path, 'ReadProvisionedThroughputSettings')) : undefined;
}

/** On-demand maximums of the table or a GSI: reads from the first replica's entry for it, else its own; writes its own. */
function readOnDemandSettings(r: Reader, replicaEntry: Located | undefined, own: Located, designPath: string, map: PathMap): OnDemandThroughput | undefined {
  const maximum = (owner: Located | undefined, key: string, field: string): number | undefined => {
    const settings = owner ? r.record(owner.value, key, owner.path, true) : undefined;
    return owner && settings ? readMaximum(r, settings, field, joinPath(owner.path, key)) : undefined;
  };
  const fromReplica = maximum(replicaEntry, 'ReadOnDemandThroughputSettings', 'MaxReadRequestUnits');
  const max = maximumsOf(fromReplica ?? maximum(own, 'ReadOnDemandThroughputSettings', 'MaxReadRequestUnits'), maximum(own, 'WriteOnDemandThroughputSettings', 'MaxWriteRequestUnits'));
  if (!max) return undefined;
  const readOwner = fromReplica !== undefined && replicaEntry ? replicaEntry.path : own.path;
  map.push(
    [designPath, own.path],
    [joinPath(designPath, 'maxReadRequestUnits'), joinPath(joinPath(readOwner, 'ReadOnDemandThroughputSettings'), 'MaxReadRequestUnits')],
    [joinPath(designPath, 'maxWriteRequestUnits'), joinPath(joinPath(own.path, 'WriteOnDemandThroughputSettings'), 'MaxWriteRequestUnits')],
  );
  return max;
}

