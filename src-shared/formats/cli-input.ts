/**
 * The AWS CLI's `aws dynamodb create-table --cli-input-json file://<file>` input: one JSON document
 * per table, the CreateTable request
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html). Export only.
 *
 * CreateTable takes no TTL or point-in-time recovery settings: those are separate calls
 * (`update-time-to-live`, `update-continuous-backups`) after the table is active, so they are not in
 * this input; the CloudFormation, Terraform and CDK exports carry them.
 */
import type { Design, Projection } from '../model/schema.ts';
import { nonKeyAttributesOf, tableSpecsOf, type TableSpec, type Throughput } from './table-spec.ts';

/** One table's CreateTable input, and a file name for it (`Shop.create-table.json`). */
export interface CliInputFile {
  tableName: string;
  fileName: string;
  /** The JSON text (two-space indents, final newline). */
  content: string;
}

type Json = string | number | boolean | Json[] | { [key: string]: Json };

const keySchema = (partitionKey: string, sortKey: string | undefined): Json[] => [
  { AttributeName: partitionKey, KeyType: 'HASH' },
  ...(sortKey !== undefined ? [{ AttributeName: sortKey, KeyType: 'RANGE' }] : []),
];

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
    KeySchema: keySchema(spec.partitionKey, spec.sortKey),
    BillingMode: spec.throughput ? 'PROVISIONED' : 'PAY_PER_REQUEST',
  };
  if (spec.throughput) input.ProvisionedThroughput = throughput(spec.throughput);
  if (spec.gsis.length > 0) {
    input.GlobalSecondaryIndexes = spec.gsis.map((g) => {
      const index: Record<string, Json> = { IndexName: g.name, KeySchema: keySchema(g.partitionKey, g.sortKey), Projection: projection(g.projection) };
      if (g.throughput) index.ProvisionedThroughput = throughput(g.throughput);
      return index;
    });
  }
  if (spec.lsis.length > 0) {
    input.LocalSecondaryIndexes = spec.lsis.map((l) => ({ IndexName: l.name, KeySchema: keySchema(l.partitionKey, l.sortKey), Projection: projection(l.projection) }));
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

/** The CreateTable input of one table (by id; the first table when `tableId` is absent). */
export function toCliInput(design: Design, tableId?: string): string {
  const index = tableId === undefined ? 0 : Math.max(0, design.tables.findIndex((t) => t.id === tableId));
  return toCliInputs(design)[index]?.content ?? '';
}
