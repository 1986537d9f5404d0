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
 *   entity, `ENTITY_NAME` (Item): the design has no entity information, so every item is one entity
 *   with `itemCount` = ItemCount, the key attributes as its attributes, and each key's template the
 *   plain attribute (`{PK}`). Its average item size (`estimateItemBytes`: Σ name UTF-8 bytes + value
 *   bytes over the key attributes and the other attributes) comes out at TableSizeBytes ÷ ItemCount:
 *   the key attributes take Keyplan's default value sizes (`DEFAULT_VALUE_BYTES`: S 16, N 5, B 16)
 *   and one S attribute, `OTHER_ATTRIBUTES_NAME`, stands for the non-key attributes with the
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
 *
 * The steps are beside this module: `input.ts` (what the input is, and the companions),
 * `table.ts` and `fields.ts` (the table and its indexes), `entity.ts` (the one entity and the notes
 * on settings DescribeTable does not return); `collector.ts` holds the error codes and the
 * collector of problems and notes.
 */
import { fail, ok } from '../../errors.ts';
import { keySlotsOf } from '../../model/key-slots.ts';
import { FORMAT_VERSION, type Design, type Table } from '../../model/schema.ts';
import { parseDesign } from '../../model/validate.ts';
import { quote } from '../../model/validate/wording.ts';
import { slug } from '../common/ids.ts';
import type { ImportResult } from '../common/import-types.ts';
import { pathMapper, type PathMap } from '../common/source-paths.ts';
import { uniqueName } from '../common/table-spec.ts';
import { Collector } from './collector.ts';
import { buildEntity, noteMissingSettings } from './entity.ts';
import { BACKUPS_KEY, locate, readBackups, readTtl, SDK_METADATA_KEY, TTL_KEY, type TtlRead } from './input.ts';
import { KNOWN_TABLE_FIELDS, noteDroppedParts, readTable } from './table.ts';

export type { DescribeTableErrorCode } from './collector.ts';

/**
 * The TTL attribute describe-time-to-live gives, unless it is a key attribute of another type than
 * Number (DynamoDB expires only items whose TTL attribute is a Number); a warning while TTL is being
 * enabled or disabled.
 */
function applyTtl(table: Table, ttl: TtlRead | undefined, map: PathMap, c: Collector): void {
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

  applyTtl(table, ttl, map, c);
  if (backups) {
    table.pointInTimeRecovery = backups.pitr;
    map.push(['tables[0].pointInTimeRecovery', backups.path.replace(/\.PointInTimeRecoveryStatus$/, '')]);
  }

  noteDroppedParts(t, base, c);
  table.entities = [buildEntity(table, t, base, table.ttlAttribute, ids, c)];
  noteMissingSettings(table, read.arn, ttl !== undefined, backups !== undefined, c);
  map.push(['tables[0].entities', base]);

  const design: Design = { formatVersion: FORMAT_VERSION, id: uniqueName(`design-${slug(table.name)}`, ids), name: table.name, tables: [table] };
  if (read.arn) design.description = `Imported from the describe-table output of ${read.arn}.`;
  const parsed = parseDesign(JSON.parse(JSON.stringify(design)));
  if (!parsed.ok) {
    const sourcePath = pathMapper(map);
    return fail(parsed.errors.map((p) => ({ ...p, path: sourcePath(p.path), details: { designPath: p.path } })));
  }
  return ok({ design: parsed.value, notes: c.notes });
}
