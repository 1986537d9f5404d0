/**
 * A table's optional settings: point-in-time recovery, encryption at rest, tags, Contributor
 * Insights, and the capacity settings beside billing, warm throughput and on-demand maximums (of the
 * table and of each GSI). Deletion protection is a plain flag with nothing to check.
 */
import { MAX_RECOVERY_PERIOD_DAYS, type OnDemandThroughput, type Table, type WarmThroughput } from '../schema.ts';
import type { Collector } from './collector.ts';
import { describeValue, joinPath, quote } from './wording.ts';
import { formatProblemCount } from '../quoted-text.ts';

/** Tags per resource. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Tagging.html */
export const MAX_TAGS_PER_TABLE = 50;
/** Longest tag key, in Unicode characters. Same page. */
export const MAX_TAG_KEY_LENGTH = 128;
/** Longest tag value, in Unicode characters. Same page. */
export const MAX_TAG_VALUE_LENGTH = 256;
/** What tag keys and values may hold: letters, digits, spaces and _ . : / = + - @ (same page). */
const TAG_TEXT = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;
const TAG_TEXT_RULE = 'letters, digits, spaces and _ . : / = + - @';

/**
 * Checks point-in-time recovery, encryption, tags, Contributor Insights, warm throughput and
 * on-demand maximums of one table and its GSIs, adding every problem to `c` at the field's path.
 * Codes: `model.pointInTimeRecovery`, `model.encryption`, `model.tags`, `model.invalidNumber` (a
 * count that is not a whole number ≥ 1), `model.billing` (a warm throughput or on-demand maximum with
 * no value, an on-demand maximum on a provisioned table), `model.schema` (a Contributor Insights mode
 * with Contributor Insights off).
 */
export function checkTableSettings(table: Table, tp: string, c: Collector): void {
  const label = `Table ${quote(table.name)}`;
  checkCapacitySettings(table, tp, c);
  checkContributorInsights(table, tp, label, c);
  const pitr = table.pointInTimeRecovery;
  if (pitr?.recoveryPeriodInDays !== undefined) {
    const pp = joinPath(joinPath(tp, 'pointInTimeRecovery'), 'recoveryPeriodInDays');
    const days = pitr.recoveryPeriodInDays;
    if (!pitr.enabled) {
      c.add(
        'model.pointInTimeRecovery',
        pp,
        `${label} sets a recovery period of ${describeValue(days)} days with point-in-time recovery off; expected recovery on, or no recovery period (CloudFormation's RecoveryPeriodInDays requires PointInTimeRecoveryEnabled).`,
        'a recovery period with recovery off',
        'point-in-time recovery enabled',
      );
    } else if (!Number.isInteger(days) || days < 1 || days > MAX_RECOVERY_PERIOD_DAYS) {
      const expected = `a whole number of days from 1 to ${MAX_RECOVERY_PERIOD_DAYS}`;
      c.add('model.invalidNumber', pp, `${label}: the point-in-time recovery period is ${describeValue(days)}; expected ${expected}.`, describeValue(days), expected);
    }
  }

  const encryption = table.encryption;
  if (encryption?.kmsKeyId !== undefined) {
    const kp = joinPath(joinPath(tp, 'encryption'), 'kmsKeyId');
    if (encryption.type !== 'KMS') {
      c.add(
        'model.encryption',
        kp,
        `${label} names KMS key ${quote(encryption.kmsKeyId)} but is encrypted with a key DynamoDB owns (AWS_OWNED); expected type KMS with a key, or no key.`,
        `a key with ${encryption.type}`,
        'type KMS, or no kmsKeyId',
      );
    } else if (encryption.kmsKeyId.trim() === '') {
      c.add(
        'model.encryption',
        kp,
        `${label} has an empty KMS key id; expected a key id, ARN or alias, or no kmsKeyId for the AWS managed key aws/dynamodb.`,
        'an empty key id',
        'a key id, ARN or alias',
      );
    }
  }

  if (table.tags !== undefined) checkTags(table.tags, joinPath(tp, 'tags'), label, c);
}

function checkTags(tags: Record<string, string>, path: string, label: string, c: Collector): void {
  const entries = Object.entries(tags);
  if (entries.length > MAX_TAGS_PER_TABLE) {
    c.add('model.tags', path, `${label} has ${entries.length} tags; expected at most ${MAX_TAGS_PER_TABLE}.`, `${entries.length} tags`, `at most ${MAX_TAGS_PER_TABLE}`);
  }
  for (const [key, value] of entries) {
    const kp = joinPath(path, key);
    const keyLength = [...key].length;
    if (keyLength === 0 || keyLength > MAX_TAG_KEY_LENGTH) {
      const expected = `a key of 1–${MAX_TAG_KEY_LENGTH} characters`;
      c.add('model.tags', kp, `${label} has a tag key of ${keyLength} characters; expected ${expected}.`, `${keyLength} characters`, expected);
    } else if (key.toLowerCase().startsWith('aws:')) {
      c.add('model.tags', kp, `${label} has the tag key ${quote(key)}; the "aws:" prefix is reserved for AWS, expected another key.`, quote(key), 'a key not starting with "aws:"');
    } else if (!TAG_TEXT.test(key)) {
      c.add('model.tags', kp, `${label} has the tag key ${quote(key)}; expected ${TAG_TEXT_RULE}.`, quote(key), TAG_TEXT_RULE);
    }
    if (typeof value !== 'string') continue;
    const valueLength = [...value].length;
    if (valueLength > MAX_TAG_VALUE_LENGTH) {
      const expected = `at most ${MAX_TAG_VALUE_LENGTH} characters`;
      c.add('model.tags', kp, `${label}: the value of tag ${quote(key)} has ${valueLength} characters; expected ${expected}.`, `${valueLength} characters`, expected);
    } else if (!TAG_TEXT.test(value)) {
      c.add('model.tags', kp, `${label}: the value of tag ${quote(key)} is ${quote(value)}; expected ${TAG_TEXT_RULE}.`, quote(value), TAG_TEXT_RULE);
    }
  }
}

/**
 * Warm throughput and on-demand maximums of the table and each GSI. Warm throughput takes either
 * billing mode; an on-demand maximum only an on-demand table and its GSIs. AWS sets no rule between a
 * GSI's maximum and its table's (each throttles on its own), so none is checked.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html
 */
function checkCapacitySettings(table: Table, tp: string, c: Collector): void {
  const isOnDemand = table.billing.mode === 'ON_DEMAND';
  const owners = [
    { what: `Table ${quote(table.name)}`, path: tp, warm: table.warmThroughput, max: table.onDemandThroughput },
    ...table.globalSecondaryIndexes.map((g, k) => ({
      what: `GSI ${quote(g.name)}`,
      path: joinPath(joinPath(tp, 'globalSecondaryIndexes'), k),
      warm: g.warmThroughput,
      max: g.onDemandThroughput,
    })),
  ];
  for (const owner of owners) {
    if (owner.warm !== undefined) checkWarmThroughput(owner.warm, joinPath(owner.path, 'warmThroughput'), owner.what, c, isOnDemand);
    if (owner.max === undefined) continue;
    const mp = joinPath(owner.path, 'onDemandThroughput');
    if (!isOnDemand) {
      c.add(
        'model.onDemandThroughput',
        mp,
        `${owner.what} sets an on-demand maximum throughput (onDemandThroughput), but table ${quote(table.name)} uses provisioned billing; expected no on-demand maximum, or on-demand billing (a provisioned table's capacity is its maximum).`,
        'an on-demand maximum on a provisioned table',
        'on-demand billing, or no onDemandThroughput',
      );
      continue;
    }
    checkOnDemandMaximum(owner.max, mp, owner.what, c);
  }
}

/**
 * What a new on-demand table or GSI serves at once without pre-warming (12,000 reads, 4,000 writes a
 * second): warm throughput only ever rises, so a value below it asks for nothing. The Terraform
 * provider documents these as the minimums.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html
 */
const ON_DEMAND_WARM_FLOOR = { readUnitsPerSecond: 12_000, writeUnitsPerSecond: 4_000 } as const;

function checkWarmThroughput(warm: WarmThroughput, path: string, what: string, c: Collector, isOnDemand: boolean): void {
  if (warm.readUnitsPerSecond === undefined && warm.writeUnitsPerSecond === undefined) {
    c.add(
      'model.warmThroughput',
      path,
      `${what} has a warm throughput with neither read nor write units per second; expected readUnitsPerSecond, writeUnitsPerSecond or both (whole numbers ≥ 1), or no warm throughput.`,
      'no units',
      'readUnitsPerSecond and/or writeUnitsPerSecond',
    );
    return;
  }
  for (const [field, direction] of [['readUnitsPerSecond', 'read'], ['writeUnitsPerSecond', 'write']] as const) {
    const value = warm[field];
    if (value === undefined) continue;
    c.number(value, joinPath(path, field), 1, `${what}: warm throughput, ${direction} units per second`);
    const floor = ON_DEMAND_WARM_FLOOR[field];
    if (Number.isInteger(value) && value >= 1 && isOnDemand && value < floor) {
      c.add(
        'model.warmThroughput',
        joinPath(path, field),
        `${what}: a warm throughput of ${formatProblemCount(value)} ${direction} units per second is below the ${formatProblemCount(floor)} a new on-demand table or GSI serves at once, and warm throughput only rises; expected at least ${formatProblemCount(floor)}, or none.`,
        formatProblemCount(value),
        `at least ${formatProblemCount(floor)}`,
      );
    }
  }
}

function checkOnDemandMaximum(max: OnDemandThroughput, path: string, what: string, c: Collector): void {
  if (max.maxReadRequestUnits === undefined && max.maxWriteRequestUnits === undefined) {
    c.add(
      'model.onDemandThroughput',
      path,
      `${what} has an on-demand maximum throughput with neither a read nor a write maximum; expected maxReadRequestUnits, maxWriteRequestUnits or both (whole numbers ≥ 1), or no maximum.`,
      'no maximum',
      'maxReadRequestUnits and/or maxWriteRequestUnits',
    );
    return;
  }
  if (max.maxReadRequestUnits !== undefined) c.number(max.maxReadRequestUnits, joinPath(path, 'maxReadRequestUnits'), 1, `${what}: on-demand maximum read request units per second`);
  if (max.maxWriteRequestUnits !== undefined) c.number(max.maxWriteRequestUnits, joinPath(path, 'maxWriteRequestUnits'), 1, `${what}: on-demand maximum write request units per second`);
}

/** A Contributor Insights mode only with Contributor Insights on (CloudFormation's ContributorInsightsSpecification). */
function checkContributorInsights(table: Table, tp: string, label: string, c: Collector): void {
  const insights = table.contributorInsights;
  if (insights === undefined || insights.enabled || insights.mode === undefined) return;
  c.add(
    'model.contributorInsights',
    joinPath(joinPath(tp, 'contributorInsights'), 'mode'),
    `${label} sets the Contributor Insights mode ${insights.mode} with Contributor Insights off; expected Contributor Insights on, or no mode.`,
    'a mode with Contributor Insights off',
    'enabled: true, or no mode',
  );
}
