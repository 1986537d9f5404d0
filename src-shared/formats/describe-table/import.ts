/**
 * Import of `aws dynamodb describe-table` output: the DescribeTable response
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTable.html), `{ "Table":
 * TableDescription }`, read as a design of one table. Also read: a bare TableDescription, the output
 * of `create-table` or `update-table` (`{ "TableDescription": … }`), and one object merging the
 * outputs (`jq -s add describe-table.json ttl.json backups.json`), whose `TimeToLiveDescription` and
 * `ContinuousBackupsDescription` are read as companions.
 *
 * Companions (`companions`, or keys of the merged object) fill in what DescribeTable does not return:
 * `aws dynamodb describe-time-to-live` (TTL attribute, when its status is ENABLED or ENABLING:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTimeToLive.html) and
 * `aws dynamodb describe-continuous-backups` (point-in-time recovery and its recovery period:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeContinuousBackups.html).
 *
 * What each field of the TableDescription becomes
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableDescription.html):
 * - `TableName`, `KeySchema` + `AttributeDefinitions`: the table's name and keys. A GSI's KeySchema
 *   may list up to four HASH and four RANGE elements (a multi-attribute key,
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html):
 *   several become a list, in key order. LSIs keep their sort key; every index keeps its projection.
 * - `BillingModeSummary.BillingMode`: PAY_PER_REQUEST is on-demand. Absent means PROVISIONED: the
 *   summary appears only once a table has been switched to on-demand
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BillingModeSummary.html).
 *   A provisioned table takes the RCU and WCU of its `ProvisionedThroughput` and of each GSI's; the
 *   rest of ProvisionedThroughputDescription (`NumberOfDecreasesToday`, `LastIncreaseDateTime`,
 *   `LastDecreaseDateTime`) is state, not a setting, and is skipped without a note. An on-demand table
 *   reports 0 units (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ProvisionedThroughputDescription.html),
 *   which are skipped too.
 * - `OnDemandThroughput` (table and GSIs): the maximums; -1 means none
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html).
 * - `WarmThroughput` (table and GSIs): the read and write units per second, not `Status`. DynamoDB
 *   reports the current warm throughput, which it also raises by itself as usage grows
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html); an
 *   `inferred` note says it is taken as the design's setting. On an on-demand table a value below
 *   what a new table serves (12,000 reads, 4,000 writes a second) asks for nothing and is dropped.
 * - `TableClassSummary.TableClass` (absent: STANDARD), `StreamSpecification` (enabled: its view type),
 *   `DeletionProtectionEnabled`.
 * - `SSEDescription`: ENABLED (or ENABLING, UPDATING) with SSEType KMS is KMS encryption with the key
 *   ARN; absent means the AWS owned key ("In the absence of the encryption type, your data is
 *   encrypted using the AWS owned key":
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/encryption.usagenotes.html).
 * - `ItemCount` and `TableSizeBytes` (table-wide, approximate, updated about every six hours) seed one
 *   entity, {@link ENTITY_NAME}: the design has no entity information, so every item is one entity
 *   with `itemCount` = ItemCount, the key attributes as its attributes, and each key's template the
 *   plain attribute (`{PK}`). Its average item size (`estimateItemBytes`: Σ name UTF-8 bytes + value
 *   bytes over the key attributes and the other attributes) comes out at TableSizeBytes ÷ ItemCount:
 *   the key attributes take Keyplan's default value sizes (`DEFAULT_VALUE_BYTES`: S 16, N 5, B 16)
 *   and one S attribute, {@link OTHER_ATTRIBUTES_NAME}, stands for the non-key attributes with the
 *   bytes left over. When the average is too small for that, the key values shrink to fit (1 byte
 *   each at least). ItemCount 0 (a new table, or one DynamoDB has not counted yet) gives no size.
 * - Notes: `inferred` for the entity and its figures; `dropped` for what DescribeTable does not return
 *   and no companion gave (TTL, point-in-time recovery, tags, Contributor Insights, resource policy,
 *   auto scaling, each with the command that returns it), for global-table replicas, restore and
 *   archival summaries, vector indexes, and a table or GSI whose status is not ACTIVE; `warning` for a
 *   field Keyplan does not know, skipped.
 * - Skipped without a note, as identity or state: `TableArn`, `TableId`, `CreationDateTime`,
 *   `LatestStreamArn`, `LatestStreamLabel`, each index's `IndexArn`, `IndexSizeBytes`, `ItemCount` and
 *   `Backfilling`, the warm throughput's `Status`, `ContinuousBackupsStatus` and the restorable times,
 *   and the AWS SDK's `$metadata`.
 *
 * Paths of notes and problems are JSON paths into the input (`Table.KeySchema[1].KeyType`); a
 * companion's start with `companions[i]` (the i-th companion, from 0).
 */
import { DEFAULT_VALUE_BYTES } from '../../capacity/estimate.ts';
import { fail, ok } from '../../errors.ts';
import { formatNumber } from '../../format/index.ts';
import { utf8ByteLength, PLACEHOLDER_NAME } from '../../model/key-template.ts';
import { keySlotsOf } from '../../model/key-slots.ts';
import type { Problem } from '../../model/problems.ts';
import {
  FORMAT_VERSION,
  MAX_KEY_ATTRIBUTES_PER_PART,
  MAX_RECOVERY_PERIOD_DAYS,
  STREAM_VIEW_TYPES,
  TABLE_CLASSES,
  type Attribute,
  type Billing,
  type Design,
  type Encryption,
  type Entity,
  type GlobalSecondaryIndex,
  type KeyAttribute,
  type KeyAttributeType,
  type KeyBinding,
  type LocalSecondaryIndex,
  type OnDemandThroughput,
  type PointInTimeRecovery,
  type Projection,
  type ProvisionedThroughput,
  type StreamViewType,
  type Table,
  type TableClass,
  type WarmThroughput,
} from '../../model/schema.ts';
import { describeValue, joinPath, parseDesign } from '../../model/validate.ts';
import { isRecord, listOf, ordinal, quote } from '../../model/validate/wording.ts';
import { storedKeyPart } from '../../model/gsi-keys.ts';
import { uniqueName } from '../common/table-spec.ts';
import { setOwn } from '../common/values.ts';
import type { ImportNote, ImportNoteKind, ImportResult } from '../common/import-types.ts';
import { mapPath, type PathMap } from '../common/source-paths.ts';
import { slug } from '../common/ids.ts';
import { indexId, isBillingMode, isKeyAttributeType, newTable, NO_MAXIMUM } from '../common/dynamodb-table.ts';

/**
 * Codes of the problems `fromDescribeTable` raises, besides the `model.*` and `keyTemplate.*`
 * problems of the design's rules: `describeTable.notOutput` (the input is not a DescribeTable
 * output), `describeTable.schema` (a field of the wrong shape, or missing), `describeTable.companion`
 * (a companion that is neither describe-time-to-live nor describe-continuous-backups output, or one
 * given twice).
 */
export type DescribeTableErrorCode = 'describeTable.notOutput' | 'describeTable.schema' | 'describeTable.companion';

/** The name of the one entity an imported table gets: every item of the table. */
export const ENTITY_NAME = 'Item';
/** The S attribute of that entity that stands for all the non-key attributes, sized to the rest of the average item. */
export const OTHER_ATTRIBUTES_NAME = 'otherAttributes';

/**
 * The warm throughput a new on-demand table or GSI serves without pre-warming: a lower value asks
 * for nothing (the design's rules refuse it). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html
 */
const ON_DEMAND_WARM_FLOOR = { read: 12_000, write: 4_000 } as const;

/** What the input should be, for `describeTable.notOutput`. */
const EXPECTED_OUTPUT = 'the JSON `aws dynamodb describe-table --table-name <name>` prints: an object with "Table"';
const EXPECTED_COMPANION = 'the JSON `aws dynamodb describe-time-to-live` or `aws dynamodb describe-continuous-backups` prints';

/** Fields of a TableDescription that only DynamoDB fills in: their presence tells an output from a CreateTable input. */
const DESCRIPTION_ONLY_FIELDS = ['TableStatus', 'TableArn', 'TableId', 'CreationDateTime', 'ItemCount', 'TableSizeBytes', 'BillingModeSummary', 'TableClassSummary', 'SSEDescription', 'LatestStreamArn'];

/** TableDescription fields read or deliberately skipped; any other field gets a `warning` note. */
const KNOWN_TABLE_FIELDS = new Set([
  'AttributeDefinitions', 'TableName', 'KeySchema', 'TableStatus', 'CreationDateTime', 'ProvisionedThroughput', 'TableSizeBytes', 'ItemCount', 'TableArn',
  'TableId', 'BillingModeSummary', 'LocalSecondaryIndexes', 'GlobalSecondaryIndexes', 'StreamSpecification', 'LatestStreamLabel', 'LatestStreamArn',
  'GlobalTableVersion', 'Replicas', 'GlobalTableWitnesses', 'GlobalTableSettingsReplicationMode', 'RestoreSummary', 'SSEDescription', 'ArchivalSummary',
  'TableClassSummary', 'DeletionProtectionEnabled', 'DisassociationProtectionEnabled', 'OnDemandThroughput', 'WarmThroughput', 'MultiRegionConsistency',
  'VectorIndexes',
]);
const KNOWN_GSI_FIELDS = new Set(['IndexName', 'KeySchema', 'Projection', 'IndexStatus', 'Backfilling', 'ProvisionedThroughput', 'IndexSizeBytes', 'ItemCount', 'IndexArn', 'OnDemandThroughput', 'WarmThroughput']);
const KNOWN_LSI_FIELDS = new Set(['IndexName', 'KeySchema', 'Projection', 'IndexSizeBytes', 'ItemCount', 'IndexArn']);

const TTL_KEY = 'TimeToLiveDescription';
const BACKUPS_KEY = 'ContinuousBackupsDescription';
/** The AWS SDK's response metadata, on an output serialized from the SDK: not part of the API's answer. */
const SDK_METADATA_KEY = '$metadata';

type Json = Record<string, unknown>;

/** A field the object holds itself (never one of Object.prototype's). */
const own = (obj: Json, key: string): unknown => (Object.hasOwn(obj, key) ? obj[key] : undefined);
const has = (obj: Json, key: string): boolean => Object.hasOwn(obj, key);
const bytes = (n: number): string => `${formatNumber(n)} B`;

/** Collects the problems that stop the import and the notes on what it skipped, inferred and dropped. */
class Collector {
  readonly problems: Problem[] = [];
  readonly notes: ImportNote[] = [];

  problem(path: string, message: string, found: string, expected: string, code: DescribeTableErrorCode = 'describeTable.schema'): void {
    this.problems.push({ code, path, message, found, expected });
  }

  /** A field of the wrong shape: `<path> is <found>; expected <expected>.` */
  wrong(path: string, value: unknown, expected: string, why = ''): void {
    const found = describeValue(value);
    this.problem(path, `${path || 'The input'} is ${found}; expected ${expected}${why}.`, found, expected);
  }

  note(kind: ImportNoteKind, path: string, message: string): void {
    this.notes.push({ kind, path, message });
  }

  /** A `warning` for each field of `obj` that Keyplan does not read. */
  unknownFields(obj: Json, path: string, known: ReadonlySet<string>, what: string): void {
    for (const key of Object.keys(obj)) {
      if (!known.has(key)) this.note('warning', joinPath(path, key), `${joinPath(path, key)} is not a field of ${what} that Keyplan reads; it was skipped.`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// What the input is
// ---------------------------------------------------------------------------------------------

/** What a JSON value that is not a DescribeTable output looks like, for the one problem about it. */
function describeOther(json: unknown): string {
  if (Array.isArray(json)) return `${describeValue(json)} (to merge several outputs into one object, use jq -s add, not jq -s .)`;
  if (!isRecord(json)) return describeValue(json);
  if (has(json, 'AWSTemplateFormatVersion') || has(json, 'Resources')) return 'a CloudFormation template';
  if (has(json, 'formatVersion') && (has(json, 'tables') || has(json, 'table'))) return 'a Keyplan design';
  if (has(json, 'DataModel') || has(json, 'ModelName')) return 'a NoSQL Workbench model';
  if (has(json, 'RequestItems')) return 'a BatchWriteItem request';
  if (has(json, 'TableNames')) return 'the output of aws dynamodb list-tables';
  if (has(json, 'GlobalTableDescription')) return 'the output of aws dynamodb describe-global-table';
  if (has(json, TTL_KEY)) return 'the output of aws dynamodb describe-time-to-live (pass it as a companion of the describe-table output)';
  if (has(json, BACKUPS_KEY)) return 'the output of aws dynamodb describe-continuous-backups (pass it as a companion of the describe-table output)';
  if (has(json, 'Tags') && Array.isArray(json.Tags)) return 'the output of aws dynamodb list-tags-of-resource';
  if (has(json, 'KeySchema')) return 'a CreateTable input (what create-table --cli-input-json reads), not the description DynamoDB returns';
  const keys = Object.keys(json);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 6).map(quote).join(', ')}${keys.length > 6 ? ', …' : ''}`;
}

/** Whether `json` is a TableDescription itself: key schema and at least one field only DynamoDB fills in. */
const isBareDescription = (json: Json): boolean => has(json, 'KeySchema') && DESCRIPTION_ONLY_FIELDS.some((f) => has(json, f));

interface CompanionPart {
  value: unknown;
  path: string;
}

interface Located {
  table: Json;
  /** Path of the TableDescription in the input: `Table`, `TableDescription`, or '' for a bare one. */
  base: string;
  ttl?: CompanionPart;
  backups?: CompanionPart;
}

/** Records a companion part, or a problem when the same kind was already given. */
function addPart(located: Located, kind: 'ttl' | 'backups', part: CompanionPart, c: Collector): void {
  const first = located[kind];
  if (first) {
    const what = kind === 'ttl' ? 'describe-time-to-live' : 'describe-continuous-backups';
    c.problem(
      part.path,
      `${part.path} is a second ${what} output (the first is ${first.path}); expected one per import.`,
      `a second ${what} output`,
      `one ${what} output`,
      'describeTable.companion',
    );
    return;
  }
  located[kind] = part;
}

/** Finds the TableDescription and the companions' parts, or adds the problems that stop the import. */
function locate(json: unknown, companions: readonly unknown[], c: Collector): Located | undefined {
  if (!isRecord(json)) {
    const found = describeOther(json);
    c.problem('', `This is not the output of aws dynamodb describe-table: expected ${EXPECTED_OUTPUT}; found ${found}.`, found, EXPECTED_OUTPUT, 'describeTable.notOutput');
    return undefined;
  }
  let located: Located | undefined;
  const wrapper = has(json, 'Table') ? 'Table' : has(json, 'TableDescription') ? 'TableDescription' : undefined;
  if (wrapper !== undefined) {
    const table = own(json, wrapper);
    if (!isRecord(table)) {
      c.wrong(wrapper, table, 'a TableDescription object');
      return undefined;
    }
    located = { table, base: wrapper };
    for (const key of Object.keys(json)) {
      if (key === wrapper || key === SDK_METADATA_KEY || key === TTL_KEY || key === BACKUPS_KEY) continue;
      c.note('warning', key, `${key} is not part of a describe-table, describe-time-to-live or describe-continuous-backups output; it was skipped.`);
    }
  } else if (isBareDescription(json)) {
    located = { table: json, base: '' };
  } else {
    const found = describeOther(json);
    c.problem('', `This is not the output of aws dynamodb describe-table: expected ${EXPECTED_OUTPUT}; found ${found}.`, found, EXPECTED_OUTPUT, 'describeTable.notOutput');
    return undefined;
  }
  if (has(json, TTL_KEY)) addPart(located, 'ttl', { value: json[TTL_KEY], path: TTL_KEY }, c);
  if (has(json, BACKUPS_KEY)) addPart(located, 'backups', { value: json[BACKUPS_KEY], path: BACKUPS_KEY }, c);

  companions.forEach((companion, i) => {
    const path = joinPath('companions', i);
    const nth = `The ${ordinal(i + 1)} companion`;
    if (!isRecord(companion) || (!has(companion, TTL_KEY) && !has(companion, BACKUPS_KEY))) {
      const found = isRecord(companion) && (has(companion, 'Table') || isBareDescription(companion)) ? 'a describe-table output (one table per import)' : describeOther(companion);
      c.problem(path, `${nth} is ${found}; expected ${EXPECTED_COMPANION}.`, found, EXPECTED_COMPANION, 'describeTable.companion');
      return;
    }
    if (has(companion, TTL_KEY)) addPart(located, 'ttl', { value: companion[TTL_KEY], path: joinPath(path, TTL_KEY) }, c);
    if (has(companion, BACKUPS_KEY)) addPart(located, 'backups', { value: companion[BACKUPS_KEY], path: joinPath(path, BACKUPS_KEY) }, c);
    for (const key of Object.keys(companion)) {
      if (key === TTL_KEY || key === BACKUPS_KEY || key === SDK_METADATA_KEY) continue;
      c.note('warning', joinPath(path, key), `${joinPath(path, key)} is not part of a describe-time-to-live or describe-continuous-backups output; it was skipped.`);
    }
  });
  return located;
}

// ---------------------------------------------------------------------------------------------
// Companions
// ---------------------------------------------------------------------------------------------

interface TtlRead {
  attribute?: string;
  status: string;
  path: string;
}

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TimeToLiveDescription.html */
function readTtl(part: CompanionPart, c: Collector): TtlRead | undefined {
  const { value, path } = part;
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with TimeToLiveStatus and AttributeName');
    return undefined;
  }
  const statuses = ['ENABLED', 'ENABLING', 'DISABLED', 'DISABLING'];
  const status = own(value, 'TimeToLiveStatus');
  const sp = joinPath(path, 'TimeToLiveStatus');
  if (typeof status !== 'string' || !statuses.includes(status)) {
    c.wrong(sp, status, `one of ${statuses.join(', ')}`);
    return undefined;
  }
  if (status === 'DISABLED' || status === 'DISABLING') return { status, path: sp };
  const name = own(value, 'AttributeName');
  const np = joinPath(path, 'AttributeName');
  if (typeof name !== 'string' || name === '') {
    c.wrong(np, name, 'the name of the TTL attribute', ` (TimeToLiveStatus is ${status})`);
    return undefined;
  }
  return { attribute: name, status, path: np };
}

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PointInTimeRecoveryDescription.html */
function readBackups(part: CompanionPart, c: Collector): { pitr: PointInTimeRecovery; path: string } | undefined {
  const { value, path } = part;
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with PointInTimeRecoveryDescription');
    return undefined;
  }
  const pp = joinPath(path, 'PointInTimeRecoveryDescription');
  const description = own(value, 'PointInTimeRecoveryDescription');
  if (!isRecord(description)) {
    c.wrong(pp, description, 'an object with PointInTimeRecoveryStatus');
    return undefined;
  }
  const status = own(description, 'PointInTimeRecoveryStatus');
  const sp = joinPath(pp, 'PointInTimeRecoveryStatus');
  if (status !== 'ENABLED' && status !== 'DISABLED') {
    c.wrong(sp, status, 'ENABLED or DISABLED');
    return undefined;
  }
  if (status === 'DISABLED') return { pitr: { enabled: false }, path: sp };
  const pitr: PointInTimeRecovery = { enabled: true };
  if (has(description, 'RecoveryPeriodInDays')) {
    const days = description.RecoveryPeriodInDays;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_RECOVERY_PERIOD_DAYS) {
      c.wrong(joinPath(pp, 'RecoveryPeriodInDays'), days, `a whole number of days from 1 to ${MAX_RECOVERY_PERIOD_DAYS}`);
      return undefined;
    }
    pitr.recoveryPeriodInDays = days;
  }
  return { pitr, path: sp };
}

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

interface KeyElement {
  attribute: KeyAttribute;
  /** Path of the KeySchema element. */
  path: string;
}

interface KeySchemaRead {
  hash: KeyElement[];
  range: KeyElement[];
}

type KeyOwner = 'table' | 'gsi' | 'lsi';

const KEY_SCHEMA_RULE: Record<KeyOwner, string> = {
  table: "a table's key schema is one HASH element, then at most one RANGE element",
  lsi: "an LSI's key schema is the table's HASH element, then one RANGE element",
  gsi: `a GSI's key schema is 1–${MAX_KEY_ATTRIBUTES_PER_PART} HASH elements, then 0–${MAX_KEY_ATTRIBUTES_PER_PART} RANGE elements`,
};

/** The attribute definitions by name, or undefined (with a problem) when they are unusable. */
function readAttributeDefinitions(table: Json, base: string, c: Collector): Map<string, { type: KeyAttributeType; path: string }> | undefined {
  const path = joinPath(base, 'AttributeDefinitions');
  const value = own(table, 'AttributeDefinitions');
  if (!Array.isArray(value) || value.length === 0) {
    c.wrong(path, value, 'a list of the key attributes, each with AttributeName and AttributeType (S, N or B)');
    return undefined;
  }
  const defs = new Map<string, { type: KeyAttributeType; path: string }>();
  let isUsable = true;
  value.forEach((d, i) => {
    const dp = joinPath(path, i);
    if (!isRecord(d)) {
      c.wrong(dp, d, 'an object with AttributeName and AttributeType');
      isUsable = false;
      return;
    }
    const name = own(d, 'AttributeName');
    const type = own(d, 'AttributeType');
    if (typeof name !== 'string' || name === '') {
      c.wrong(joinPath(dp, 'AttributeName'), name, 'an attribute name');
      isUsable = false;
    }
    if (!isKeyAttributeType(type)) {
      c.wrong(joinPath(dp, 'AttributeType'), type, 'S, N or B', ' (a key attribute is a string, a number or a binary)');
      isUsable = false;
    }
    if (typeof name !== 'string' || name === '' || !isKeyAttributeType(type)) return;
    const first = defs.get(name);
    if (first) {
      c.problem(joinPath(dp, 'AttributeName'), `${joinPath(dp, 'AttributeName')} is ${quote(name)}, which ${first.path} defines already; expected each attribute defined once.`, quote(name), 'each attribute defined once');
      isUsable = false;
      return;
    }
    defs.set(name, { type, path: joinPath(dp, 'AttributeType') });
  });
  return isUsable ? defs : undefined;
}

/**
 * A key schema's HASH and RANGE elements in order, each with its type from the attribute
 * definitions; undefined (with problems at `path[i].KeyType` or `.AttributeName`) when it breaks
 * the owner's rule.
 */
function readKeySchema(
  value: unknown,
  path: string,
  owner: KeyOwner,
  defs: Map<string, { type: KeyAttributeType; path: string }> | undefined,
  c: Collector,
  tableHash?: string,
): KeySchemaRead | undefined {
  const rule = KEY_SCHEMA_RULE[owner];
  if (!Array.isArray(value) || value.length === 0) {
    c.wrong(path, value, 'a list of key schema elements, each with AttributeName and KeyType', `: ${rule}`);
    return undefined;
  }
  const read: KeySchemaRead = { hash: [], range: [] };
  // Elements seen of each key type, typed or not: the order rule counts them all.
  let hashCount = 0;
  let rangeCount = 0;
  const maxHash = owner === 'gsi' ? MAX_KEY_ATTRIBUTES_PER_PART : 1;
  const maxRange = owner === 'gsi' ? MAX_KEY_ATTRIBUTES_PER_PART : 1;
  const seen = new Map<string, string>();
  let isValid = true;
  value.forEach((element, i) => {
    const ep = joinPath(path, i);
    if (!isRecord(element)) {
      c.wrong(ep, element, 'an object with AttributeName and KeyType');
      isValid = false;
      return;
    }
    const name = own(element, 'AttributeName');
    const keyType = own(element, 'KeyType');
    const np = joinPath(ep, 'AttributeName');
    const kp = joinPath(ep, 'KeyType');
    let isElementValid = true;
    if (typeof name !== 'string' || name === '') {
      c.wrong(np, name, 'an attribute name');
      isElementValid = false;
    }
    if (keyType !== 'HASH' && keyType !== 'RANGE') {
      c.wrong(kp, keyType, 'HASH or RANGE');
      isElementValid = false;
    } else if (keyType === 'HASH' && (rangeCount > 0 || hashCount >= maxHash)) {
      const expected = hashCount >= maxHash && rangeCount < maxRange ? 'RANGE' : 'no further element';
      c.problem(kp, `${kp} is "HASH"; expected ${expected}: ${rule}.`, '"HASH"', expected);
      isElementValid = false;
    } else if (keyType === 'RANGE' && (hashCount === 0 || rangeCount >= maxRange)) {
      const expected = hashCount === 0 ? 'HASH (the partition key comes first)' : 'no further element';
      c.problem(kp, `${kp} is "RANGE"; expected ${expected}: ${rule}.`, '"RANGE"', expected);
      isElementValid = false;
    }
    if (keyType === 'HASH') hashCount += 1;
    else if (keyType === 'RANGE') rangeCount += 1;
    if (typeof name === 'string' && name !== '') {
      const first = seen.get(name);
      if (first !== undefined) {
        c.problem(np, `${np} is ${quote(name)}, which ${first} names already; expected each attribute once in a key schema.`, quote(name), 'each attribute once');
        isElementValid = false;
      } else seen.set(name, np);
    }
    if (!isElementValid) {
      isValid = false;
      return;
    }
    const attributeName = name as string;
    const def = defs?.get(attributeName);
    if (!def) {
      if (defs) {
        const expected = `one of the attributes AttributeDefinitions defines: ${listOf([...defs.keys()])}`;
        c.problem(np, `${np} is ${quote(attributeName)}, which AttributeDefinitions does not define; expected ${expected}.`, quote(attributeName), expected);
      }
      isValid = false;
      return;
    }
    const entry = { attribute: { name: attributeName, type: def.type }, path: ep };
    if (keyType === 'HASH') read.hash.push(entry);
    else read.range.push(entry);
  });
  if (!isValid) return undefined;
  if (owner === 'lsi' && read.range.length === 0) {
    c.problem(path, `${path} has no RANGE element; expected one: ${rule}.`, 'no RANGE element', 'one RANGE element');
    return undefined;
  }
  const [hash] = read.hash;
  if (owner === 'lsi' && tableHash !== undefined && hash && hash.attribute.name !== tableHash) {
    const np = joinPath(hash.path, 'AttributeName');
    c.problem(np, `${np} is ${quote(hash.attribute.name)}; expected ${quote(tableHash)}, the table's partition key: ${rule}.`, quote(hash.attribute.name), quote(tableHash));
    return undefined;
  }
  return read;
}

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Projection.html */
function readProjection(value: unknown, path: string, c: Collector): Projection | undefined {
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with ProjectionType (ALL, KEYS_ONLY or INCLUDE)');
    return undefined;
  }
  const type = own(value, 'ProjectionType');
  const tp = joinPath(path, 'ProjectionType');
  if (type === 'ALL' || type === 'KEYS_ONLY') return { type };
  if (type !== 'INCLUDE') {
    c.wrong(tp, type, 'ALL, KEYS_ONLY or INCLUDE');
    return undefined;
  }
  const names = own(value, 'NonKeyAttributes');
  const np = joinPath(path, 'NonKeyAttributes');
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || n === '')) {
    c.wrong(np, names, 'a list of attribute names (ProjectionType is INCLUDE)');
    return undefined;
  }
  return { type: 'INCLUDE', nonKeyAttributes: [...(names as string[])] };
}

/** Provisioned RCU and WCU (whole numbers ≥ 1), or undefined with a problem. */
function readThroughput(value: unknown, path: string, c: Collector, why: string): ProvisionedThroughput | undefined {
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with ReadCapacityUnits and WriteCapacityUnits', why);
    return undefined;
  }
  let isValid = true;
  const units = (field: string): number => {
    const v = own(value, field);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      c.wrong(joinPath(path, field), v, 'a whole number ≥ 1', why);
      isValid = false;
      return 0;
    }
    return v;
  };
  const readCapacityUnits = units('ReadCapacityUnits');
  const writeCapacityUnits = units('WriteCapacityUnits');
  return isValid ? { readCapacityUnits, writeCapacityUnits } : undefined;
}

/** On-demand maximums: -1 (none) or a whole number ≥ 1 per direction; undefined when neither is set. */
function readOnDemand(value: unknown, path: string, c: Collector): { max?: OnDemandThroughput; isValid: boolean } {
  if (value === undefined) return { isValid: true };
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with MaxReadRequestUnits and MaxWriteRequestUnits');
    return { isValid: false };
  }
  const max: OnDemandThroughput = {};
  let isValid = true;
  for (const [field, key] of [['MaxReadRequestUnits', 'maxReadRequestUnits'], ['MaxWriteRequestUnits', 'maxWriteRequestUnits']] as const) {
    if (!has(value, field)) continue;
    const v = value[field];
    if (v === NO_MAXIMUM) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      c.wrong(joinPath(path, field), v, 'a whole number ≥ 1, or -1 for no maximum');
      isValid = false;
      continue;
    }
    max[key] = v;
  }
  return max.maxReadRequestUnits === undefined && max.maxWriteRequestUnits === undefined ? { isValid } : { max, isValid };
}

/**
 * Warm throughput units (`Status` is state and skipped); a direction below the on-demand floor of an
 * on-demand table or GSI is dropped with a note. Undefined when no direction is kept.
 */
function readWarm(value: unknown, path: string, isOnDemand: boolean, owner: string, c: Collector): { warm?: WarmThroughput; isValid: boolean } {
  if (value === undefined) return { isValid: true };
  if (!isRecord(value)) {
    c.wrong(path, value, 'an object with ReadUnitsPerSecond and WriteUnitsPerSecond');
    return { isValid: false };
  }
  const warm: WarmThroughput = {};
  let isValid = true;
  for (const [field, key, direction] of [['ReadUnitsPerSecond', 'readUnitsPerSecond', 'read'], ['WriteUnitsPerSecond', 'writeUnitsPerSecond', 'write']] as const) {
    if (!has(value, field)) continue;
    const v = value[field];
    const fp = joinPath(path, field);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      c.wrong(fp, v, 'a whole number ≥ 1');
      isValid = false;
      continue;
    }
    const floor = ON_DEMAND_WARM_FLOOR[direction];
    if (isOnDemand && v < floor) {
      c.note(
        'dropped',
        fp,
        `${owner}: a warm throughput of ${formatNumber(v)} ${direction} units per second is below the ${formatNumber(floor)} a new on-demand table or GSI serves at once, so it asks for nothing; it was not imported.`,
      );
      continue;
    }
    warm[key] = v;
  }
  return warm.readUnitsPerSecond === undefined && warm.writeUnitsPerSecond === undefined ? { isValid } : { warm, isValid };
}

/** The design's key part from a key schema's elements: one attribute plainly, several as a list. */
const keyPart = (elements: readonly KeyElement[]) => storedKeyPart(elements.map((e) => e.attribute));

/** Maps a key part's design path to the key schema elements (and their definitions) it came from. */
function mapKeyPart(map: PathMap, designPath: string, elements: readonly KeyElement[], defs: Map<string, { type: KeyAttributeType; path: string }>): void {
  const [only] = elements;
  if (!only) return;
  const entries: Array<[string, KeyElement]> = elements.length === 1 ? [[designPath, only]] : elements.map((e, i) => [joinPath(designPath, i), e]);
  for (const [dp, e] of entries) {
    map.push([dp, e.path], [joinPath(dp, 'name'), joinPath(e.path, 'AttributeName')]);
    const def = defs.get(e.attribute.name);
    if (def) map.push([joinPath(dp, 'type'), def.path]);
  }
}

const STATUS_WORDS: Record<string, string> = {
  CREATING: 'being created',
  UPDATING: 'being updated',
  DELETING: 'being deleted',
  ARCHIVING: 'being archived',
  ARCHIVED: 'archived',
  INACCESSIBLE_ENCRYPTION_CREDENTIALS: 'without access to its KMS key',
  REPLICATION_NOT_AUTHORIZED: 'not authorized to replicate',
};

interface TableRead {
  table: Table;
  map: PathMap;
  arn?: string;
}

/** Reads the TableDescription into a table without entities, or adds the problems that stop it. */
function readTable(located: Located, ids: Set<string>, c: Collector): TableRead | undefined {
  const { table: t, base } = located;
  const at = (field: string) => joinPath(base, field);
  const before = c.problems.length;
  const map: PathMap = [];

  const name = own(t, 'TableName');
  if (typeof name !== 'string' || name === '') c.wrong(at('TableName'), name, 'the table name');
  const defs = readAttributeDefinitions(t, base, c);
  const keys = readKeySchema(own(t, 'KeySchema'), at('KeySchema'), 'table', defs, c);

  // Billing: BillingModeSummary appears only once the table has been on-demand; absent is PROVISIONED.
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
  const isOnDemand = mode === 'PAY_PER_REQUEST';
  const provisionedWhy = summary === undefined ? ' (BillingModeSummary is absent, which means PROVISIONED)' : ' (the table is PROVISIONED)';
  const tableThroughput = isOnDemand ? undefined : readThroughput(own(t, 'ProvisionedThroughput'), at('ProvisionedThroughput'), c, provisionedWhy);

  const tableName = typeof name === 'string' ? name : '';
  const tableSlug = slug(tableName);
  const tableLabel = `Table ${quote(tableName)}`;

  // Global secondary indexes.
  const gsis: GlobalSecondaryIndex[] = [];
  const gsiValue = own(t, 'GlobalSecondaryIndexes');
  const gsiPath = at('GlobalSecondaryIndexes');
  if (gsiValue !== undefined && !Array.isArray(gsiValue)) c.wrong(gsiPath, gsiValue, 'a list of global secondary indexes');
  (Array.isArray(gsiValue) ? gsiValue : []).forEach((g, k) => {
    const gp = joinPath(gsiPath, k);
    if (!isRecord(g)) {
      c.wrong(gp, g, 'an object with IndexName, KeySchema and Projection');
      return;
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
    if (typeof indexName !== 'string' || indexName === '' || !gKeys || !projection || !onDemand.isValid || !warm.isValid || (!isOnDemand && !throughput)) return;
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
    const dp = joinPath('tables[0].globalSecondaryIndexes', gsis.length);
    map.push([dp, gp], [joinPath(dp, 'name'), joinPath(gp, 'IndexName')], [joinPath(dp, 'projection'), joinPath(gp, 'Projection')]);
    map.push([joinPath(joinPath(dp, 'projection'), 'nonKeyAttributes'), joinPath(joinPath(gp, 'Projection'), 'NonKeyAttributes')]);
    map.push([joinPath(dp, 'provisioned'), joinPath(gp, 'ProvisionedThroughput')], [joinPath(dp, 'onDemandThroughput'), joinPath(gp, 'OnDemandThroughput')]);
    map.push([joinPath(dp, 'warmThroughput'), joinPath(gp, 'WarmThroughput')]);
    if (defs) {
      mapKeyPart(map, joinPath(dp, 'partitionKey'), gKeys.hash, defs);
      mapKeyPart(map, joinPath(dp, 'sortKey'), gKeys.range, defs);
    }
    gsis.push(gsi);
  });

  // Local secondary indexes.
  const lsis: LocalSecondaryIndex[] = [];
  const lsiValue = own(t, 'LocalSecondaryIndexes');
  const lsiPath = at('LocalSecondaryIndexes');
  if (lsiValue !== undefined && !Array.isArray(lsiValue)) c.wrong(lsiPath, lsiValue, 'a list of local secondary indexes');
  (Array.isArray(lsiValue) ? lsiValue : []).forEach((l, k) => {
    const lp = joinPath(lsiPath, k);
    if (!isRecord(l)) {
      c.wrong(lp, l, 'an object with IndexName, KeySchema and Projection');
      return;
    }
    c.unknownFields(l, lp, KNOWN_LSI_FIELDS, 'a LocalSecondaryIndexDescription');
    const indexName = own(l, 'IndexName');
    if (typeof indexName !== 'string' || indexName === '') c.wrong(joinPath(lp, 'IndexName'), indexName, 'the index name');
    const lKeys = readKeySchema(own(l, 'KeySchema'), joinPath(lp, 'KeySchema'), 'lsi', defs, c, keys?.hash[0]?.attribute.name);
    const projection = readProjection(own(l, 'Projection'), joinPath(lp, 'Projection'), c);
    const range = lKeys?.range[0];
    if (typeof indexName !== 'string' || indexName === '' || !range || !projection) return;
    const dp = joinPath('tables[0].localSecondaryIndexes', lsis.length);
    map.push([dp, lp], [joinPath(dp, 'name'), joinPath(lp, 'IndexName')], [joinPath(dp, 'projection'), joinPath(lp, 'Projection')]);
    map.push([joinPath(joinPath(dp, 'projection'), 'nonKeyAttributes'), joinPath(joinPath(lp, 'Projection'), 'NonKeyAttributes')]);
    if (defs) mapKeyPart(map, joinPath(dp, 'sortKey'), [range], defs);
    lsis.push({ id: indexId('lsi', tableSlug, slug(indexName), ids), name: indexName, sortKey: range.attribute, projection });
  });

  // Table class: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableClassSummary.html
  let tableClass: TableClass = 'STANDARD';
  const classSummary = own(t, 'TableClassSummary');
  if (classSummary !== undefined) {
    const cls = isRecord(classSummary) ? own(classSummary, 'TableClass') : undefined;
    if (!isRecord(classSummary)) c.wrong(at('TableClassSummary'), classSummary, 'an object with TableClass');
    else if (cls !== undefined && !(TABLE_CLASSES as readonly unknown[]).includes(cls)) c.wrong(joinPath(at('TableClassSummary'), 'TableClass'), cls, TABLE_CLASSES.join(' or '));
    else if (cls !== undefined) tableClass = cls as TableClass;
  }

  // Stream: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_StreamSpecification.html
  let stream: StreamViewType | undefined;
  const streamSpec = own(t, 'StreamSpecification');
  const streamPath = at('StreamSpecification');
  if (streamSpec !== undefined) {
    if (!isRecord(streamSpec)) c.wrong(streamPath, streamSpec, 'an object with StreamEnabled and StreamViewType');
    else {
      const enabled = own(streamSpec, 'StreamEnabled');
      const view = own(streamSpec, 'StreamViewType');
      if (typeof enabled !== 'boolean') c.wrong(joinPath(streamPath, 'StreamEnabled'), enabled, 'true or false');
      else if (enabled && !(STREAM_VIEW_TYPES as readonly unknown[]).includes(view)) c.wrong(joinPath(streamPath, 'StreamViewType'), view, STREAM_VIEW_TYPES.join(', '), ' (the stream is enabled)');
      else if (enabled) stream = view as StreamViewType;
    }
  }

  const encryption = readEncryption(own(t, 'SSEDescription'), at('SSEDescription'), tableLabel, c);

  let deletionProtection: boolean | undefined;
  const dpValue = own(t, 'DeletionProtectionEnabled');
  if (dpValue !== undefined) {
    if (typeof dpValue !== 'boolean') c.wrong(at('DeletionProtectionEnabled'), dpValue, 'true or false');
    else deletionProtection = dpValue;
  }

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

  const warmOwners = [...(table.warmThroughput ? ['the table'] : []), ...gsis.filter((g) => g.warmThroughput).map((g) => `GSI ${quote(g.name)}`)];
  if (warmOwners.length > 0) {
    c.note(
      'inferred',
      table.warmThroughput ? at('WarmThroughput') : gsiPath,
      `The warm throughput of ${warmOwners.join(', ')} is DescribeTable's current value, which DynamoDB also raises by itself as usage grows; it was taken as the design's setting, so an export asks to pre-warm to it (a one-time charge when it is above what the table has).`,
    );
  }

  map.push(['tables[0]', base], ['tables[0].name', at('TableName')], ['name', at('TableName')], ['tables[0].billing', billingPath]);
  map.push(['tables[0].globalSecondaryIndexes', gsiPath], ['tables[0].localSecondaryIndexes', lsiPath]);
  map.push(['tables[0].tableClass', at('TableClassSummary')], ['tables[0].stream', streamPath], ['tables[0].encryption', at('SSEDescription')]);
  map.push(['tables[0].deletionProtection', at('DeletionProtectionEnabled')], ['tables[0].onDemandThroughput', at('OnDemandThroughput')], ['tables[0].warmThroughput', at('WarmThroughput')]);
  mapKeyPart(map, 'tables[0].partitionKey', [hash], defs);
  if (range) mapKeyPart(map, 'tables[0].sortKey', [range], defs);

  // Attribute definitions no key schema names: DynamoDB refuses them at creation, so an output
  // should have none; one that does is skipped.
  const used = new Set(keySlotsOf(table).map((s) => s.attribute.name));
  for (const [defName, def] of defs) {
    if (!used.has(defName)) {
      c.note('warning', def.path.replace(/\.AttributeType$/, ''), `AttributeDefinitions defines ${quote(defName)}, which no key schema of the table or its imported indexes names; it was skipped.`);
    }
  }

  const arn = own(t, 'TableArn');
  return { table, map, ...(typeof arn === 'string' && arn !== '' ? { arn } : {}) };
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
function noteDroppedParts(t: Json, base: string, c: Collector): void {
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

// ---------------------------------------------------------------------------------------------
// The entity
// ---------------------------------------------------------------------------------------------

/** A whole number ≥ 0 read from ItemCount or TableSizeBytes, or undefined (with a warning) when it is something else. */
function readCount(t: Json, field: string, base: string, c: Collector): number | undefined {
  if (!has(t, field)) return undefined;
  const v = t[field];
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  c.note('warning', joinPath(base, field), `${joinPath(base, field)} is ${describeValue(v)}, not a whole number ≥ 0; it was skipped.`);
  return undefined;
}

interface EntityKey {
  /** The key attribute. */
  key: KeyAttribute;
  /** The entity attribute that carries its value: the key's own name, or a placeholder-safe name. */
  attributeName: string;
}

/**
 * Value sizes that make the entity's item come to `averageBytes`, as `estimateItemBytes` counts it:
 * Σ over the key attributes of (name bytes + value bytes), plus, for a key whose name a template
 * cannot hold, its carrying attribute (name bytes + the same value bytes), plus the stand-in's name
 * and value bytes. Keys take DEFAULT_VALUE_BYTES and the stand-in the rest; when the rest is not
 * positive there is no stand-in and the key values shrink or grow to fit, at least 1 byte each.
 */
function sizeEntity(keys: readonly EntityKey[], averageBytes: number, standInName: string): { values: number[]; standIn?: number; isTooSmall: boolean } {
  const defaults = keys.map((k) => DEFAULT_VALUE_BYTES[k.key.type]);
  const weights = keys.map((k) => (k.attributeName === k.key.name ? 1 : 2));
  const nameBytes = keys.reduce((sum, k) => sum + utf8ByteLength(k.key.name) + (k.attributeName === k.key.name ? 0 : utf8ByteLength(k.attributeName)), 0);
  const keyBytes = nameBytes + defaults.reduce((sum, d, i) => sum + d * (weights[i] ?? 1), 0);
  const rest = averageBytes - keyBytes - utf8ByteLength(standInName);
  if (rest > 0) return { values: defaults, standIn: rest, isTooSmall: false };
  const available = averageBytes - nameBytes;
  const minimum = weights.reduce((sum, w) => sum + w, 0);
  if (available < minimum) return { values: keys.map(() => 1), isTooSmall: true };
  // Each value is 1 + (default − 1) × g, with g chosen so the weighted values add up to `available`.
  const spread = defaults.reduce((sum, d, i) => sum + (d - 1) * (weights[i] ?? 1), 0);
  const g = (available - minimum) / spread;
  return { values: defaults.map((d) => 1 + (d - 1) * g), isTooSmall: false };
}

/** The one entity: every item of the table, keyed by the plain key attributes, with the counts DescribeTable gives. */
function buildEntity(read: TableRead, t: Json, base: string, ttlAttribute: string | undefined, ids: Set<string>, c: Collector): Entity {
  const { table } = read;
  const slots = keySlotsOf(table);
  const taken = new Set<string>(slots.map((s) => s.attribute.name));
  if (ttlAttribute !== undefined) taken.add(ttlAttribute);
  const keys: EntityKey[] = slots.map((s) => {
    const name = s.attribute.name;
    if (PLACEHOLDER_NAME.test(name)) return { key: s.attribute, attributeName: name };
    const safe = uniqueName(name.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^(?![A-Za-z_])/, '_'), taken, '_');
    c.note('inferred', base, `Key attribute ${quote(name)} has characters a key template cannot name; entity ${quote(ENTITY_NAME)} carries its value in attribute ${quote(safe)}, with the template {${safe}}.`);
    return { key: s.attribute, attributeName: safe };
  });
  const standInName = uniqueName(OTHER_ATTRIBUTES_NAME, taken);

  const itemCount = readCount(t, 'ItemCount', base, c);
  const sizeBytes = readCount(t, 'TableSizeBytes', base, c);
  const countPath = joinPath(base, 'ItemCount');
  const sizePath = joinPath(base, 'TableSizeBytes');
  const templates = keys.map((k) => `{${k.attributeName}}`).join(', ');
  const approximate = 'approximate: DynamoDB updates it about every six hours';

  const attributes: Attribute[] = keys.map((k) => ({ name: k.attributeName, type: k.key.type }));
  let standIn: Attribute | undefined;
  if (itemCount === undefined) {
    c.note('inferred', base, `Entity ${quote(ENTITY_NAME)} stands for every item of the table, keyed by the plain key attributes (${templates}); the description has no ItemCount, so its item count is 0 and it has no average item size.`);
  } else {
    c.note(
      'inferred',
      countPath,
      `Entity ${quote(ENTITY_NAME)} stands for every item of the table, keyed by the plain key attributes (${templates}): DescribeTable holds no entities. Its item count, ${formatNumber(itemCount)}, is ItemCount (${approximate}).`,
    );
    if (itemCount === 0) {
      c.note('inferred', countPath, `ItemCount is 0 (a new table reads 0 until DynamoDB next counts it), so there is no average item size; the key attributes keep Keyplan's default sizes.`);
    } else if (sizeBytes === undefined) {
      c.note('inferred', sizePath, `The description has no usable TableSizeBytes, so there is no average item size; the key attributes keep Keyplan's default sizes.`);
    } else {
      const average = sizeBytes / itemCount;
      const sized = sizeEntity(keys, average, standInName);
      sized.values.forEach((v, i) => {
        const a = attributes[i];
        if (a) a.averageSizeBytes = v;
      });
      const figure = `${bytes(average)}, is TableSizeBytes ÷ ItemCount (${bytes(sizeBytes)} ÷ ${formatNumber(itemCount)}), both approximate: DynamoDB updates them about every six hours`;
      if (sized.standIn !== undefined) {
        standIn = { name: standInName, type: 'S', averageSizeBytes: sized.standIn };
        c.note(
          'inferred',
          sizePath,
          `The average item size, ${figure}. The key attributes take Keyplan's default value sizes (S ${DEFAULT_VALUE_BYTES.S} B, N ${DEFAULT_VALUE_BYTES.N} B, B ${DEFAULT_VALUE_BYTES.B} B) and attribute ${quote(standInName)} (S) stands for the other attributes, with the remaining ${bytes(sized.standIn)}.`,
        );
      } else if (sized.isTooSmall) {
        c.note('warning', sizePath, `The average item size, ${figure}, is less than the key attributes' names and 1 byte per value take; each key value was set to 1 byte, so the entity's item is larger than the figure.`);
      } else {
        c.note('inferred', sizePath, `The average item size, ${figure}. It leaves no room for other attributes, so the key attributes' value sizes were scaled to make up the whole item.`);
      }
    }
  }
  if (standIn) attributes.push(standIn);

  const entityKeys: Record<string, KeyBinding> = {};
  for (const k of keys) setOwn(entityKeys, k.key.name, { template: `{${k.attributeName}}` });
  return { id: uniqueName(`ent-${slug(table.name)}-${slug(ENTITY_NAME)}`, ids), name: ENTITY_NAME, itemCount: itemCount ?? 0, attributes, keys: entityKeys };
}

/** `dropped` notes for the settings DescribeTable does not return and no companion gave, each with the command that returns it. */
function noteMissingSettings(table: Table, arn: string | undefined, hasTtl: boolean, hasBackups: boolean, c: Collector): void {
  const name = table.name;
  const resource = arn ?? `<the table's ARN>`;
  const missing: Array<[what: string, command: string, isCompanion: boolean]> = [];
  if (!hasTtl) missing.push(['time to live (TTL) setting', `aws dynamodb describe-time-to-live --table-name ${name}`, true]);
  if (!hasBackups) missing.push(['point-in-time recovery setting', `aws dynamodb describe-continuous-backups --table-name ${name}`, true]);
  missing.push(['tags', `aws dynamodb list-tags-of-resource --resource-arn ${resource}`, false]);
  missing.push(['Contributor Insights setting', `aws dynamodb describe-contributor-insights --table-name ${name}`, false]);
  missing.push(['resource policy', `aws dynamodb get-resource-policy --resource-arn ${resource}`, false]);
  // Auto scaling is Application Auto Scaling's, and only a provisioned table has it.
  if (table.billing.mode === 'PROVISIONED') {
    missing.push(['auto scaling settings', `aws application-autoscaling describe-scalable-targets --service-namespace dynamodb --resource-ids table/${name}`, false]);
  }
  for (const [what, command, isCompanion] of missing) {
    const companion = isCompanion ? ' (give its output as a companion to import it)' : '';
    c.note('dropped', '', `DescribeTable does not return the table's ${what}; \`${command}\` does${companion}. The design has none.`);
  }
}

/**
 * Reads `aws dynamodb describe-table` output (see the module comment for the inputs accepted and
 * what each field becomes) as a design of one table with one entity, and its notes. `companions`:
 * the JSON of `aws dynamodb describe-time-to-live` and `aws dynamodb describe-continuous-backups`
 * (each an object with `TimeToLiveDescription` or `ContinuousBackupsDescription`), in any order.
 *
 * Errors, every one collected with its path in the input: `describeTable.notOutput` (not a
 * DescribeTable output: one problem, saying what the input looks like instead),
 * `describeTable.schema` (a field missing or of the wrong shape, with found and expected, e.g.
 * `Table.KeySchema[1].KeyType`), `describeTable.companion` (a companion of another kind, or one
 * given twice), and the `model.*` / `keyTemplate.*` problems of the design's rules, mapped to the
 * input's paths (`details.designPath` keeps the design's). Deterministic; never throws.
 */
export function fromDescribeTable(json: unknown, companions: readonly unknown[] = []): ImportResult {
  const c = new Collector();
  const located = locate(json, Array.isArray(companions) ? companions : [], c);
  if (!located) return fail(c.problems);
  const ttl = located.ttl ? readTtl(located.ttl, c) : undefined;
  const backups = located.backups ? readBackups(located.backups, c) : undefined;
  const { table: t, base } = located;
  // A bare description merged with the companions holds their keys (and an SDK output its metadata) beside its own.
  c.unknownFields(t, base, base === '' ? new Set([...KNOWN_TABLE_FIELDS, TTL_KEY, BACKUPS_KEY, SDK_METADATA_KEY]) : KNOWN_TABLE_FIELDS, 'a TableDescription');
  const ids = new Set<string>();
  const read = readTable(located, ids, c);
  if (!read && c.problems.length === 0) c.wrong(base, t, 'a TableDescription with TableName, KeySchema and AttributeDefinitions');
  if (!read || c.problems.length > 0) return fail(c.problems);
  const { table, map } = read;

  if (ttl?.attribute !== undefined) {
    const keyUse = keySlotsOf(table).find((s) => s.attribute.name === ttl.attribute && s.attribute.type !== 'N');
    if (keyUse) {
      c.note(
        'dropped',
        ttl.path,
        `TTL is on attribute ${quote(ttl.attribute)}, a key attribute of type ${keyUse.attribute.type}; DynamoDB expires only items whose TTL attribute is a Number, so the design keeps no TTL.`,
      );
    } else {
      table.ttlAttribute = ttl.attribute;
      map.push(['tables[0].ttlAttribute', ttl.path]);
      if (ttl.status === 'ENABLING') c.note('warning', ttl.path.replace(/AttributeName$/, 'TimeToLiveStatus'), `TTL on ${quote(ttl.attribute)} is being enabled (ENABLING); it was imported as on.`);
    }
  } else if (ttl?.status === 'DISABLING') {
    c.note('warning', ttl.path, 'TTL is being disabled (DISABLING); the design has none.');
  }
  if (backups) {
    table.pointInTimeRecovery = backups.pitr;
    map.push(['tables[0].pointInTimeRecovery', backups.path.replace(/\.PointInTimeRecoveryStatus$/, '')]);
  }

  noteDroppedParts(t, base, c);
  table.entities = [buildEntity(read, t, base, table.ttlAttribute, ids, c)];
  noteMissingSettings(table, read.arn, ttl !== undefined, backups !== undefined, c);
  map.push(['tables[0].entities', base]);

  const design: Design = { formatVersion: FORMAT_VERSION, id: uniqueName(`design-${slug(table.name)}`, ids), name: table.name, tables: [table] };
  if (read.arn) design.description = `Imported from the describe-table output of ${read.arn}.`;
  const parsed = parseDesign(JSON.parse(JSON.stringify(design)));
  if (!parsed.ok) return fail(parsed.errors.map((p) => ({ ...p, path: mapPath(map, p.path), details: { designPath: p.path } })));
  return ok({ design: parsed.value, notes: c.notes });
}
