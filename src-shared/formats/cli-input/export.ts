/**
 * The AWS CLI's `aws dynamodb create-table --cli-input-json file://<file>` input: one JSON document
 * per table, the CreateTable request
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html). Export only.
 *
 * A GSI's `KeySchema` lists its partition-key attributes (HASH) and then its sort-key attributes
 * (RANGE) in key order (a multi-attribute key has up to four of each). `WarmThroughput` and, on an
 * on-demand table, `OnDemandThroughput` go on the table and on each GSI that sets them.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/cli-input/export.ts".
 */
import type { AutoScaling, Design, OnDemandThroughput, Projection, WarmThroughput } from '../../model/index.ts';
import { keySchemaElements, nonKeyAttributesOf, tableSpecsOf, type TableSpec, type Throughput } from '../common/table-spec.ts';

/** One table's CreateTable input, and a file name for it (`Shop.create-table.json`). */
export interface CliInputFile {
  tableName: string;
  fileName: string;
  /** The JSON text (two-space indents, final newline). */
  content: string;
}

type Json = string | number | boolean | Json[] | { [key: string]: Json };

/** HASH elements, then RANGE elements, in key order. */
const keySchema = (partitionKeys: readonly string[], sortKeys: readonly string[]): Json[] =>
  keySchemaElements(partitionKeys, sortKeys).map((e) => ({ AttributeName: e.name, KeyType: e.keyType }));

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_WarmThroughput.html */
function warmThroughput(w: WarmThroughput): Json {
  const out: Record<string, Json> = {};
  if (w.readUnitsPerSecond !== undefined) out.ReadUnitsPerSecond = w.readUnitsPerSecond;
  if (w.writeUnitsPerSecond !== undefined) out.WriteUnitsPerSecond = w.writeUnitsPerSecond;
  return out;
}

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html */
function onDemandThroughput(o: OnDemandThroughput): Json {
  const out: Record<string, Json> = {};
  if (o.maxReadRequestUnits !== undefined) out.MaxReadRequestUnits = o.maxReadRequestUnits;
  if (o.maxWriteRequestUnits !== undefined) out.MaxWriteRequestUnits = o.maxWriteRequestUnits;
  return out;
}

function projection(p: Projection): Json {
  const nonKey = nonKeyAttributesOf(p);
  return nonKey ? { ProjectionType: p.type, NonKeyAttributes: [...nonKey] } : { ProjectionType: p.type };
}

const throughput = (t: Throughput): Json => ({ ReadCapacityUnits: t.read, WriteCapacityUnits: t.write });

/** The CreateTable request of one table, as data (what `--cli-input-json` reads; also what the SDK's CreateTableCommand takes). */
export function createTableInput(spec: TableSpec): Record<string, Json> {
  const input: Record<string, Json> = {
    TableName: spec.name,
    AttributeDefinitions: spec.attributeDefinitions.map((a) => ({ AttributeName: a.name, AttributeType: a.type })),
    KeySchema: keySchema([spec.partitionKey], spec.sortKey === undefined ? [] : [spec.sortKey]),
    BillingMode: spec.throughput ? 'PROVISIONED' : 'PAY_PER_REQUEST',
  };
  if (spec.throughput) input.ProvisionedThroughput = throughput(spec.throughput);
  if (spec.onDemandThroughput) input.OnDemandThroughput = onDemandThroughput(spec.onDemandThroughput);
  if (spec.warmThroughput) input.WarmThroughput = warmThroughput(spec.warmThroughput);
  if (spec.gsis.length > 0) {
    input.GlobalSecondaryIndexes = spec.gsis.map((g) => {
      const index: Record<string, Json> = { IndexName: g.name, KeySchema: keySchema(g.partitionKeys, g.sortKeys), Projection: projection(g.projection) };
      if (g.throughput) index.ProvisionedThroughput = throughput(g.throughput);
      if (g.onDemandThroughput) index.OnDemandThroughput = onDemandThroughput(g.onDemandThroughput);
      if (g.warmThroughput) index.WarmThroughput = warmThroughput(g.warmThroughput);
      return index;
    });
  }
  if (spec.lsis.length > 0) {
    input.LocalSecondaryIndexes = spec.lsis.map((l) => ({ IndexName: l.name, KeySchema: keySchema([l.partitionKey], [l.sortKey]), Projection: projection(l.projection) }));
  }
  if (spec.stream) input.StreamSpecification = { StreamEnabled: true, StreamViewType: spec.stream };
  if (spec.encryption) {
    const sse: Record<string, Json> = { Enabled: spec.encryption.type === 'KMS' };
    if (spec.encryption.type === 'KMS') {
      sse.SSEType = 'KMS';
      if (spec.encryption.kmsKeyId !== undefined && spec.encryption.kmsKeyId.trim() !== '') sse.KMSMasterKeyId = spec.encryption.kmsKeyId;
    }
    input.SSESpecification = sse;
  }
  input.TableClass = spec.tableClass;
  if (spec.deletionProtection !== undefined) input.DeletionProtectionEnabled = spec.deletionProtection;
  if (spec.tags.length > 0) input.Tags = spec.tags.map(([Key, Value]) => ({ Key, Value }));
  return input;
}

/** A file name for a table: its name (table names hold only a-z A-Z 0-9 _ . -) + `.create-table.json`. */
const fileNameOf = (tableName: string): string => `${tableName.replace(/[^A-Za-z0-9_.-]/g, '_') || 'table'}.create-table.json`;

/** Every table's CreateTable input, in the design's order. Deterministic. */
export function toCliInputs(design: Design): CliInputFile[] {
  const taken = new Set<string>();
  return tableSpecsOf(design.tables).map((spec) => {
    let fileName = fileNameOf(spec.name);
    for (let n = 2; taken.has(fileName); n += 1) fileName = fileNameOf(`${spec.name}-${n}`);
    taken.add(fileName);
    return { tableName: spec.name, fileName, content: `${JSON.stringify(createTableInput(spec), null, 2)}\n` };
  });
}

/**
 * The settings of the design that the create-table input leaves out because CreateTable has no
 * parameter for them, one line each with the table, the value and the call that sets it once the
 * table is ACTIVE. Empty when the input holds everything.
 */
export function cliInputNotes(design: Design): string[] {
  const notes: string[] = [];
  for (const table of design.tables) {
    const ttl = table.ttlAttribute?.trim();
    if (ttl) notes.push(`${table.name}: time to live on attribute ${ttl} — aws dynamodb update-time-to-live`);
    const pitr = table.pointInTimeRecovery;
    if (pitr?.enabled) notes.push(`${table.name}: point-in-time recovery, ${pitr.recoveryPeriodInDays ?? 35} days — aws dynamodb update-continuous-backups`);
    const insights = table.contributorInsights;
    if (insights?.enabled) notes.push(`${table.name}: Contributor Insights, ${insights.mode ?? 'ACCESSED_AND_THROTTLED_KEYS'} — aws dynamodb update-contributor-insights`);
    // Auto scaling is Application Auto Scaling's, not DynamoDB's: a scalable target and a policy per direction.
    const scaling = (owner: string, autoScaling: AutoScaling | undefined) => {
      for (const direction of ['read', 'write'] as const) {
        const range = autoScaling?.[direction];
        if (!range) continue;
        notes.push(
          `${owner}: ${direction} auto scaling, ${range.minCapacity}–${range.maxCapacity} at ${range.targetUtilizationPercent} % — aws application-autoscaling register-scalable-target and put-scaling-policy`,
        );
      }
    };
    if (table.billing.mode === 'PROVISIONED') {
      scaling(table.name, table.billing.autoScaling);
      for (const g of table.globalSecondaryIndexes) scaling(`${table.name} GSI ${g.name}`, g.provisioned?.autoScaling);
    }
  }
  return notes;
}

/** The CreateTable input of one table (by id; the first table when `tableId` is absent). */
export function toCliInput(design: Design, tableId?: string): string {
  const index = tableId === undefined ? 0 : Math.max(0, design.tables.findIndex((t) => t.id === tableId));
  return toCliInputs(design)[index]?.content ?? '';
}
