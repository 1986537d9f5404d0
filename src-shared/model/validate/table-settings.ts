/**
 * A table's optional settings that only the exported table definitions use: point-in-time recovery,
 * encryption at rest and tags. Deletion protection is a plain flag with nothing to check.
 */
import { MAX_RECOVERY_PERIOD_DAYS, type Table } from '../schema.ts';
import type { Collector } from './collector.ts';
import { describeValue, joinPath, quote } from './wording.ts';

/** Tags per resource. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Tagging.html */
export const MAX_TAGS_PER_TABLE = 50;
/** Longest tag key, in Unicode characters. Same page. */
export const MAX_TAG_KEY_LENGTH = 128;
/** Longest tag value, in Unicode characters. Same page. */
export const MAX_TAG_VALUE_LENGTH = 256;
/** What tag keys and values may hold: letters, digits, spaces and _ . : / = + - @ (same page). */
const TAG_TEXT = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;
const TAG_TEXT_RULE = 'letters, digits, spaces and _ . : / = + - @';

/** Checks point-in-time recovery, encryption and tags of one table, adding every problem to `c`. */
export function checkTableSettings(table: Table, tp: string, c: Collector): void {
  const label = `Table ${quote(table.name)}`;
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
