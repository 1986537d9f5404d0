/**
 * A table's settings besides keys and throughput: table class, TTL, stream, point-in-time recovery,
 * encryption, deletion protection, tags and Contributor Insights; the resource attributes
 * (`Condition`, `DeletionPolicy`, `UpdateReplacePolicy`); and the `dropped` notes for what a design
 * does not hold. An `AWS::DynamoDB::Table` sets them all in its properties; an
 * `AWS::DynamoDB::GlobalTable` sets TTL, stream and encryption on the resource and the rest on each
 * replica, of which the first stands for the table.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-globaltable-replicaspecification.html
 */
import {
  CONTRIBUTOR_INSIGHTS_MODES,
  STREAM_VIEW_TYPES,
  TABLE_CLASSES,
  type ContributorInsights,
  type Encryption,
  type PointInTimeRecovery,
  type StreamViewType,
  type Table,
  type TableClass,
  describeValue,
  joinPath,
  quote,
} from '../../model/index.ts';
import type { PathMap } from '../common/source-paths.ts';
import type { Reader } from './reader.ts';
import { NO_VALUE, type Json } from './template.ts';

/** An object of the template with its path. */
export interface Located {
  value: Json;
  path: string;
}

/** Settings of a table or replica a design does not hold, each with what it is. */
const DROPPED_TABLE_SETTINGS: Record<string, string> = {
  KinesisStreamSpecification: 'streaming to Kinesis Data Streams',
  ImportSourceSpecification: 'an import of its first items from Amazon S3',
  ResourcePolicy: 'a resource-based policy',
  MultiRegionConsistency: 'the multi-Region consistency of a global table',
  GlobalTableWitnesses: 'a witness Region of a global table',
  GlobalTableSourceArn: 'the table a global table is made from',
  ReplicaStreamSpecification: "a resource-based policy on the replica's stream",
  GlobalTableSettingsReplicationMode: 'how settings replicate between replicas',
};

/** The settings of one table as the design keeps them. */
export type Settings = Pick<Table, 'tableClass' | 'ttlAttribute' | 'stream' | 'pointInTimeRecovery' | 'encryption' | 'deletionProtection' | 'tags' | 'contributorInsights'>;

/**
 * The settings of a table resource (`props` at `pp`). `regional` holds the settings each replica may
 * set (table class, recovery, deletion protection, tags, Contributor Insights, the KMS key): the
 * properties themselves for an `AWS::DynamoDB::Table`, the first replica for a GlobalTable (none when
 * it has no replica: those settings are then not read).
 */
export function readSettings(r: Reader, props: Json, pp: string, regional: Located | undefined, isGlobal: boolean, tp: string, map: PathMap): Settings {
  const settings: Settings = { tableClass: regional ? readTableClass(r, regional, tp, map) : 'STANDARD' };
  settings.ttlAttribute = readTimeToLive(r, props, pp, tp, map);
  settings.stream = readStream(r, props, pp, tp, map);
  if (regional) settings.pointInTimeRecovery = readPointInTimeRecovery(r, regional, tp, map);
  settings.encryption = readEncryption(r, { value: props, path: pp }, isGlobal ? regional : undefined, isGlobal, tp, map);
  if (regional) {
    settings.deletionProtection = r.optionalBoolean(regional.value, 'DeletionProtectionEnabled', regional.path, 'deletion protection was taken as off');
    settings.tags = readTags(r, regional, tp, map);
    settings.contributorInsights = readContributorInsights(r, regional, tp, map);
  }
  return settings;
}

function readTableClass(r: Reader, owner: Located, tp: string, map: PathMap): TableClass {
  const c = r.optionalString(owner.value, 'TableClass', owner.path, TABLE_CLASSES.join(' or '), 'STANDARD, the default, was taken', TABLE_CLASSES);
  if (c !== undefined) map.push([joinPath(tp, 'tableClass'), joinPath(owner.path, 'TableClass')]);
  return (c as TableClass | undefined) ?? 'STANDARD';
}

function readTimeToLive(r: Reader, props: Json, pp: string, tp: string, map: PathMap): string | undefined {
  const ttl = r.record(props, 'TimeToLiveSpecification', pp, true);
  if (!ttl) return undefined;
  const ttp = joinPath(pp, 'TimeToLiveSpecification');
  const enabled = r.optionalBoolean(ttl, 'Enabled', ttp, 'TTL was taken as off');
  if (!enabled) return undefined;
  const name = r.optionalString(ttl, 'AttributeName', ttp, 'an attribute name', 'TTL was taken as off');
  if (name === undefined) {
    if (!Object.hasOwn(ttl, 'AttributeName')) r.note('warning', ttp, `TimeToLiveSpecification enables TTL without an AttributeName; TTL was taken as off.`);
    return undefined;
  }
  map.push([joinPath(tp, 'ttlAttribute'), joinPath(ttp, 'AttributeName')]);
  return name;
}

function readStream(r: Reader, props: Json, pp: string, tp: string, map: PathMap): StreamViewType | undefined {
  const s = r.record(props, 'StreamSpecification', pp, true);
  if (!s) return undefined;
  const sp = joinPath(pp, 'StreamSpecification');
  if (Object.hasOwn(s, 'ResourcePolicy')) r.note('dropped', joinPath(sp, 'ResourcePolicy'), 'StreamSpecification sets a resource-based policy on the stream (ResourcePolicy), which a design does not keep; it was dropped.');
  const stream = r.optionalString(s, 'StreamViewType', sp, STREAM_VIEW_TYPES.join(', '), 'the stream was taken as off', STREAM_VIEW_TYPES) as StreamViewType | undefined;
  if (stream) map.push([joinPath(tp, 'stream'), joinPath(sp, 'StreamViewType')]);
  return stream;
}

function readPointInTimeRecovery(r: Reader, owner: Located, tp: string, map: PathMap): PointInTimeRecovery | undefined {
  const p = r.record(owner.value, 'PointInTimeRecoverySpecification', owner.path, true);
  if (!p) return undefined;
  const pp = joinPath(owner.path, 'PointInTimeRecoverySpecification');
  const enabled = r.optionalBoolean(p, 'PointInTimeRecoveryEnabled', pp, 'point-in-time recovery was taken as off') ?? false;
  const days = r.optionalInteger(p, 'RecoveryPeriodInDays', pp, 'a whole number of days from 1 to 35', 'the default period (35 days) was taken');
  const out: PointInTimeRecovery = { enabled };
  if (days !== undefined) out.recoveryPeriodInDays = days;
  map.push([joinPath(tp, 'pointInTimeRecovery'), pp], [joinPath(joinPath(tp, 'pointInTimeRecovery'), 'recoveryPeriodInDays'), joinPath(pp, 'RecoveryPeriodInDays')]);
  return out;
}

/**
 * `SSESpecification` → encryption: SSEEnabled false is the key DynamoDB owns; true is a KMS key (the
 * AWS managed one unless `KMSMasterKeyId` names one). A GlobalTable names the key in each replica's
 * SSESpecification (`keyOwner`), and its schema also allows SSEType AES256, the key DynamoDB owns.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-table-ssespecification.html
 */
function readEncryption(r: Reader, props: Located, keyOwner: Located | undefined, isGlobal: boolean, tp: string, map: PathMap): Encryption | undefined {
  const sse = r.record(props.value, 'SSESpecification', props.path, true);
  const sp = joinPath(props.path, 'SSESpecification');
  const keyPath = keyOwner ? joinPath(keyOwner.path, 'SSESpecification') : sp;
  const keySse = keyOwner ? r.record(keyOwner.value, 'SSESpecification', keyOwner.path, true) : sse;
  const kmsKeyId = keySse ? r.optionalString(keySse, 'KMSMasterKeyId', keyPath, 'a KMS key id, ARN or alias', 'no key id was taken, which is the AWS managed key aws/dynamodb') : undefined;
  if (kmsKeyId !== undefined) map.push([joinPath(joinPath(tp, 'encryption'), 'kmsKeyId'), joinPath(keyPath, 'KMSMasterKeyId')]);
  if (!sse) {
    if (kmsKeyId !== undefined) r.note('warning', keyPath, `The first replica's SSESpecification names a KMS key, but the global table has no SSESpecification turning KMS encryption on; the key was skipped.`);
    return undefined;
  }
  const enabled = r.optionalBoolean(sse, 'SSEEnabled', sp, 'the key DynamoDB owns was taken');
  const type = r.optionalString(sse, 'SSEType', sp, 'KMS', 'KMS was taken');
  map.push([joinPath(tp, 'encryption'), sp]);
  if (isGlobal && type === 'AES256') return { type: 'AWS_OWNED' };
  if (!enabled) {
    if (kmsKeyId !== undefined) r.note('warning', sp, `SSESpecification names a KMS key but has SSEEnabled off; the key DynamoDB owns was taken, as SSEEnabled says.`);
    return { type: 'AWS_OWNED' };
  }
  if (type !== undefined && type !== 'KMS') r.note('warning', joinPath(sp, 'SSEType'), `SSEType is ${quote(type)}; DynamoDB encrypts with AWS KMS when SSEEnabled is on, so KMS was taken.`);
  return kmsKeyId !== undefined && kmsKeyId.trim() !== '' ? { type: 'KMS', kmsKeyId } : { type: 'KMS' };
}

function readContributorInsights(r: Reader, owner: Located, tp: string, map: PathMap): ContributorInsights | undefined {
  const c = r.record(owner.value, 'ContributorInsightsSpecification', owner.path, true);
  if (!c) return undefined;
  const cp = joinPath(owner.path, 'ContributorInsightsSpecification');
  const enabled = r.optionalBoolean(c, 'Enabled', cp, 'Contributor Insights was taken as off') ?? false;
  const mode = r.optionalString(c, 'Mode', cp, CONTRIBUTOR_INSIGHTS_MODES.join(' or '), 'the default mode was taken', CONTRIBUTOR_INSIGHTS_MODES);
  map.push([joinPath(tp, 'contributorInsights'), cp], [joinPath(joinPath(tp, 'contributorInsights'), 'mode'), joinPath(cp, 'Mode')]);
  if (mode !== undefined && !enabled) {
    r.note('dropped', joinPath(cp, 'Mode'), `Mode is ${mode} with Contributor Insights off; a design keeps a mode only while it is on, so the mode was dropped.`);
    return { enabled };
  }
  return mode !== undefined ? { enabled, mode: mode as NonNullable<ContributorInsights['mode']> } : { enabled };
}

/** Contributor Insights on a GSI (of a table, or of a replica's entry for it): dropped, a design keeps it for the table only. */
export function noteIndexContributorInsights(r: Reader, owner: Located, indexName: string): void {
  if (!Object.hasOwn(owner.value, 'ContributorInsightsSpecification')) return;
  const cp = joinPath(owner.path, 'ContributorInsightsSpecification');
  r.note('dropped', cp, `ContributorInsightsSpecification sets Contributor Insights on GSI ${quote(indexName)}; a design keeps Contributor Insights for the table only, so it was dropped.`);
}

function readTags(r: Reader, owner: Located, tp: string, map: PathMap): Record<string, string> | undefined {
  const items = r.list(owner.value, 'Tags', owner.path, 'optional', 'a list of {Key, Value}');
  if (!items) return undefined;
  const entries: Array<[string, string]> = [];
  const seen = new Map<string, string>();
  for (const item of items) {
    const tag = r.object(item, '{Key, Value}', 'the tag was dropped');
    if (!tag) continue;
    const key = r.optionalString(tag, 'Key', item.path, 'a tag key', 'the tag was dropped');
    const value = r.optionalString(tag, 'Value', item.path, 'a tag value', 'the tag was dropped');
    if (key === undefined || value === undefined) {
      if (!Object.hasOwn(tag, 'Key') || !Object.hasOwn(tag, 'Value')) r.note('warning', item.path, 'The tag lacks a Key or a Value; it was skipped.');
      continue;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      r.note('warning', item.path, `The tag repeats the key ${quote(key)} (first at ${first}); the repeat was skipped.`);
      continue;
    }
    seen.set(key, item.path);
    map.push([joinPath(joinPath(tp, 'tags'), key), item.path]);
    entries.push([key, value]);
  }
  map.push([joinPath(tp, 'tags'), joinPath(owner.path, 'Tags')]);
  return Object.fromEntries(entries);
}

/** Settings the design does not hold: a `dropped` note each (none for a property left out by AWS::NoValue). */
export function dropSettings(r: Reader, owner: Located, who: string, keys: readonly string[]): void {
  for (const key of keys) {
    if (!Object.hasOwn(owner.value, key)) continue;
    const value = r.template.evaluate(owner.value[key]);
    if (value.ok && value.value === NO_VALUE) continue;
    const p = joinPath(owner.path, key);
    r.note('dropped', p, `${who} sets ${DROPPED_TABLE_SETTINGS[key] ?? key} (${key}), which a design does not keep; it was dropped.`);
  }
}

/** The resource's own attributes: `Condition`, and a `DeletionPolicy` or `UpdateReplacePolicy` other than the `Retain` Keyplan's export writes. */
export function readResourceAttributes(r: Reader, resource: Json, rp: string, logicalId: string): void {
  if (Object.hasOwn(resource, 'Condition')) {
    const c = resource.Condition;
    const p = joinPath(rp, 'Condition');
    r.note('dropped', p, `Resource ${quote(logicalId)} is created only when condition ${typeof c === 'string' ? quote(c) : describeValue(c)} holds; a design's tables always exist, so the condition was dropped.`);
  }
  for (const policy of ['DeletionPolicy', 'UpdateReplacePolicy']) {
    if (!Object.hasOwn(resource, policy)) continue;
    const value = resource[policy];
    if (value === 'Retain') continue;
    const p = joinPath(rp, policy);
    r.note('dropped', p, `Resource ${quote(logicalId)} has ${policy} ${typeof value === 'string' ? value : describeValue(value)}; a design does not keep it, and Keyplan's export writes Retain.`);
  }
}

/** Every table: no entities, which a template does not hold. */
export function noteNoEntities(r: Reader, rp: string, logicalId: string): void {
  r.note('dropped', rp, `A CloudFormation template holds no entity information: table resource ${quote(logicalId)} was imported with no entities and no access patterns; add them after import.`);
}
