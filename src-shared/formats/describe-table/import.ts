/**
 * Import of `aws dynamodb describe-table` output: the DescribeTable response
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTable.html), `{ "Table":
 * TableDescription }`, read as a design of one table. Also read: a bare TableDescription, the output
 * of `create-table` or `update-table` (`{ "TableDescription": … }`), and one object merging the
 * outputs (`jq -s add describe-table.json ttl.json backups.json`), whose `TimeToLiveDescription` and
 * `ContinuousBackupsDescription` are read as companions.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/describe-table/import.ts".
 */
import { fail, ok } from '../../errors.ts';
import { keySlotsOf, FORMAT_VERSION, type Design, type Table, parseDesign, quote } from '../../model/index.ts';
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
