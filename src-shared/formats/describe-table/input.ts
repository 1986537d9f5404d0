/**
 * What the input is: the TableDescription (under `Table`, under `TableDescription`, or bare) and the
 * companions' parts (`TimeToLiveDescription`, `ContinuousBackupsDescription`), given as companions
 * or merged into the output; then the two companions read. See `import.ts` for what is accepted.
 */
import {
  MAX_RECOVERY_PERIOD_DAYS,
  type PointInTimeRecovery,
  describeValue,
  joinPath,
  isRecord,
  ordinal,
  quote,
} from '../../model/index.ts';
import { has, own, type Collector, type Json } from './collector.ts';

/** What the input should be, for `describeTable.notOutput`. */
const EXPECTED_OUTPUT = 'the JSON `aws dynamodb describe-table --table-name <name>` prints: an object with "Table"';
const EXPECTED_COMPANION = 'the JSON `aws dynamodb describe-time-to-live` or `aws dynamodb describe-continuous-backups` prints';

/** Fields of a TableDescription that only DynamoDB fills in: their presence tells an output from a CreateTable input. */
const DESCRIPTION_ONLY_FIELDS = ['TableStatus', 'TableArn', 'TableId', 'CreationDateTime', 'ItemCount', 'TableSizeBytes', 'BillingModeSummary', 'TableClassSummary', 'SSEDescription', 'LatestStreamArn'];

/** The key of describe-time-to-live's output, alone or merged into the describe-table output. */
export const TTL_KEY = 'TimeToLiveDescription';
/** The key of describe-continuous-backups' output, alone or merged into the describe-table output. */
export const BACKUPS_KEY = 'ContinuousBackupsDescription';
/** The AWS SDK's response metadata, on an output serialized from the SDK: not part of the API's answer. */
export const SDK_METADATA_KEY = '$metadata';

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

/** A companion's description (TTL or backups) and its path in the input. */
export interface CompanionPart {
  value: unknown;
  path: string;
}

/** Where the input holds the TableDescription and the companions' parts. */
export interface Located {
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
export function locate(json: unknown, companions: readonly unknown[], c: Collector): Located | undefined {
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

/** describe-time-to-live read: the status, and the TTL attribute when it is on (or being turned on). */
export interface TtlRead {
  attribute?: string;
  status: string;
  path: string;
}

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TimeToLiveDescription.html */
export function readTtl(part: CompanionPart, c: Collector): TtlRead | undefined {
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
export function readBackups(part: CompanionPart, c: Collector): { pitr: PointInTimeRecovery; path: string } | undefined {
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
