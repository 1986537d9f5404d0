/**
 * The describe-table importer against the CLI v2 fixtures in tests/fixtures/describe-table: every
 * field mapped, the notes, the refusals with their paths, the companions, the round trip through
 * the create-table input, and mutated fixtures (fast-check). Expected values are worked out by hand
 * from the fixtures and the DynamoDB API Reference pages the importer cites.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateItemBytes } from '../../capacity/index.ts';
import type { Problem, Table } from '../../model/index.ts';
import { parseDesign } from '../../model/index.ts';
import { toCliInputs } from '../cli-input/export.ts';
import { ENTITY_NAME, OTHER_ATTRIBUTES_NAME } from './entity.ts';
import { fromDescribeTable } from './import.ts';
import type { ImportResult, Imported } from '../common/import-types.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../tests/fixtures/describe-table');
type Json = Record<string, any>;
const load = (name: string): Json => JSON.parse(readFileSync(resolve(FIXTURES, name), 'utf8')) as Json;

const shop = () => load('shop-orders.describe-table.json');
const ttl = () => load('shop-orders.describe-time-to-live.json');
const backups = () => load('shop-orders.describe-continuous-backups.json');
const matches = () => load('tournament-matches.describe-table.json');

function imported(result: ImportResult): Imported {
  if (!result.ok) throw new Error(`expected an import, got ${JSON.stringify(result.errors, null, 2)}`);
  return result.value;
}
function problems(result: ImportResult): Problem[] {
  if (result.ok) throw new Error('expected problems, got a design');
  return result.errors;
}
const tableOf = (result: ImportResult): Table => imported(result).design.tables[0]!;
const where = (ps: readonly Problem[]) => ps.map((p) => ({ code: p.code, path: p.path }));
const kinds = (result: ImportResult) => imported(result).notes.map((n) => ({ kind: n.kind, path: n.path }));

/** A copy of the shop fixture's TableDescription changed by `edit`, wrapped as the CLI prints it. */
function shopWith(edit: (t: Json) => void): Json {
  const json = shop();
  edit(json.Table as Json);
  return json;
}
function matchesWith(edit: (t: Json) => void): Json {
  const json = matches();
  edit(json.Table as Json);
  return json;
}

const S = (name: string) => ({ name, type: 'S' as const });
const N = (name: string) => ({ name, type: 'N' as const });
const KMS_KEY = 'arn:aws:kms:eu-west-1:111122223333:key/8d2f6b1a-3c4e-4f7a-9b0c-5e6d7f8a9b0c';
const SHOP_ARN = 'arn:aws:dynamodb:eu-west-1:111122223333:table/ShopOrders';

describe('the provisioned multi-GSI table, with its TTL and continuous-backups companions', () => {
  const result = fromDescribeTable(shop(), [ttl(), backups()]);

  it('maps every setting of the table and its indexes', () => {
    const { design } = imported(result);
    expect(design.name).toBe('ShopOrders');
    expect(design.id).toBe('design-shoporders');
    expect(design.description).toBe(`Imported from the describe-table output of ${SHOP_ARN}.`);
    expect(design.tables).toHaveLength(1);
    const { entities, ...table } = tableOf(result);
    expect(entities).toHaveLength(1);
    expect(table).toEqual({
      id: 'tbl-shoporders',
      name: 'ShopOrders',
      partitionKey: S('PK'),
      sortKey: S('SK'),
      // BillingModeSummary PROVISIONED; ProvisionedThroughput's RCU/WCU, its decrease count and times left out.
      billing: { mode: 'PROVISIONED', readCapacityUnits: 50, writeCapacityUnits: 25 },
      tableClass: 'STANDARD_INFREQUENT_ACCESS',
      globalSecondaryIndexes: [
        {
          id: 'gsi-shoporders-gsi1',
          name: 'GSI1',
          partitionKey: S('GSI1PK'),
          sortKey: S('GSI1SK'),
          projection: { type: 'ALL' },
          provisioned: { readCapacityUnits: 20, writeCapacityUnits: 10 },
          warmThroughput: { readUnitsPerSecond: 1200, writeUnitsPerSecond: 400 },
        },
        {
          id: 'gsi-shoporders-gsi2',
          name: 'GSI2',
          partitionKey: S('GSI2PK'),
          sortKey: N('GSI2SK'),
          projection: { type: 'INCLUDE', nonKeyAttributes: ['status', 'total'] },
          provisioned: { readCapacityUnits: 10, writeCapacityUnits: 5 },
          warmThroughput: { readUnitsPerSecond: 600, writeUnitsPerSecond: 200 },
        },
        {
          id: 'gsi-shoporders-byemail',
          name: 'ByEmail',
          partitionKey: S('email'),
          projection: { type: 'KEYS_ONLY' },
          provisioned: { readCapacityUnits: 5, writeCapacityUnits: 5 },
          warmThroughput: { readUnitsPerSecond: 300, writeUnitsPerSecond: 100 },
        },
      ],
      localSecondaryIndexes: [{ id: 'lsi-shoporders-bycreatedat', name: 'ByCreatedAt', sortKey: S('createdAt'), projection: { type: 'KEYS_ONLY' } }],
      accessPatterns: [],
      stream: 'NEW_AND_OLD_IMAGES',
      encryption: { type: 'KMS', kmsKeyId: KMS_KEY },
      deletionProtection: true,
      warmThroughput: { readUnitsPerSecond: 3000, writeUnitsPerSecond: 1000 },
      ttlAttribute: 'expiresAt',
      pointInTimeRecovery: { enabled: true, recoveryPeriodInDays: 14 },
    });
  });

  it('makes one entity of every item, keyed by the plain key attributes, with ItemCount as its count', () => {
    const [entity] = tableOf(result).entities;
    expect(entity?.id).toBe('ent-shoporders-item');
    expect(entity?.name).toBe(ENTITY_NAME);
    expect(entity?.itemCount).toBe(1_250_000);
    expect(entity?.keys).toEqual({
      PK: { template: '{PK}' },
      SK: { template: '{SK}' },
      GSI1PK: { template: '{GSI1PK}' },
      GSI1SK: { template: '{GSI1SK}' },
      GSI2PK: { template: '{GSI2PK}' },
      GSI2SK: { template: '{GSI2SK}' },
      email: { template: '{email}' },
      createdAt: { template: '{createdAt}' },
    });
    // Key values at the default sizes (S 16, N 5); the stand-in takes the rest of 612 B:
    // names 2+2+6+6+6+6+5+9 = 42, values 7 × 16 + 5 = 117, "otherAttributes" 15, so 612 − 42 − 117 − 15 = 438.
    expect(entity?.attributes).toEqual([
      { ...S('PK'), averageSizeBytes: 16 },
      { ...S('SK'), averageSizeBytes: 16 },
      { ...S('GSI1PK'), averageSizeBytes: 16 },
      { ...S('GSI1SK'), averageSizeBytes: 16 },
      { ...S('GSI2PK'), averageSizeBytes: 16 },
      { ...N('GSI2SK'), averageSizeBytes: 5 },
      { ...S('email'), averageSizeBytes: 16 },
      { ...S('createdAt'), averageSizeBytes: 16 },
      { ...S(OTHER_ATTRIBUTES_NAME), averageSizeBytes: 438 },
    ]);
  });

  it("gives the entity an estimated item size of TableSizeBytes ÷ ItemCount = 765,000,000 ÷ 1,250,000 = 612 B", () => {
    const table = tableOf(result);
    expect(estimateItemBytes(table, table.entities[0]!).value).toBe(612);
  });

  it('notes the inferred entity and figures, the warm throughput taken as a setting, and each setting DescribeTable does not return', () => {
    expect(kinds(result)).toEqual([
      { kind: 'inferred', path: 'Table.WarmThroughput' },
      { kind: 'inferred', path: 'Table.ItemCount' },
      { kind: 'inferred', path: 'Table.TableSizeBytes' },
      { kind: 'dropped', path: '' },
      { kind: 'dropped', path: '' },
      { kind: 'dropped', path: '' },
      { kind: 'dropped', path: '' },
    ]);
    const messages = imported(result).notes.map((n) => n.message);
    expect(messages[1]).toContain('1,250,000');
    expect(messages[1]).toContain('six hours');
    expect(messages[2]).toContain('612 B');
    expect(messages[2]).toContain('438 B');
    // TTL and point-in-time recovery came from the companions: only the other four are dropped.
    expect(messages.slice(3)).toEqual([
      expect.stringContaining(`aws dynamodb list-tags-of-resource --resource-arn ${SHOP_ARN}`),
      expect.stringContaining('aws dynamodb describe-contributor-insights --table-name ShopOrders'),
      expect.stringContaining(`aws dynamodb get-resource-policy --resource-arn ${SHOP_ARN}`),
      expect.stringContaining('aws application-autoscaling describe-scalable-targets --service-namespace dynamodb --resource-ids table/ShopOrders'),
    ]);
  });

  it('reads the same from one object that merges the three outputs (jq -s add)', () => {
    const merged = { ...shop(), ...ttl(), ...backups() };
    expect(fromDescribeTable(merged)).toEqual(result);
  });

  it('reads the same from a bare TableDescription, with paths that start at its fields', () => {
    const bare = fromDescribeTable(shop().Table, [ttl(), backups()]);
    expect(tableOf(bare)).toEqual(tableOf(result));
    expect(kinds(bare).map((k) => k.path)).toEqual(['WarmThroughput', 'ItemCount', 'TableSizeBytes', '', '', '', '']);
  });

  it('reads the AWS SDK output serialized to JSON: $metadata is skipped without a note', () => {
    const sdk = { $metadata: { httpStatusCode: 200, requestId: 'R', attempts: 1, totalRetryDelay: 0 }, ...shop() };
    expect(fromDescribeTable(sdk, [ttl(), backups()])).toEqual(result);
  });

  it('reads a create-table or update-table output ({ "TableDescription": … }) as the same table', () => {
    const other = fromDescribeTable({ TableDescription: shop().Table }, [ttl(), backups()]);
    expect(tableOf(other)).toEqual(tableOf(result));
    expect(kinds(other)[0]).toEqual({ kind: 'inferred', path: 'TableDescription.WarmThroughput' });
  });

  it('is deterministic', () => {
    expect(JSON.stringify(fromDescribeTable(shop(), [ttl(), backups()]))).toBe(JSON.stringify(result));
  });
});

describe('the on-demand table with a multi-attribute GSI key', () => {
  const result = fromDescribeTable(matches());

  it('maps the multi-attribute key as lists, the on-demand maximums (-1: none), warm throughput and the defaults', () => {
    const { entities, ...table } = tableOf(result);
    expect(table).toEqual({
      id: 'tbl-tournamentmatches',
      name: 'TournamentMatches',
      partitionKey: S('matchId'),
      // PAY_PER_REQUEST; the 0-unit ProvisionedThroughput of an on-demand table is not a setting.
      billing: { mode: 'ON_DEMAND' },
      // No TableClassSummary: STANDARD. No SSEDescription: the AWS owned key. No StreamSpecification: no stream.
      tableClass: 'STANDARD',
      encryption: { type: 'AWS_OWNED' },
      deletionProtection: false,
      onDemandThroughput: { maxReadRequestUnits: 40_000, maxWriteRequestUnits: 10_000 },
      warmThroughput: { readUnitsPerSecond: 15_000, writeUnitsPerSecond: 5_000 },
      globalSecondaryIndexes: [
        {
          id: 'gsi-tournamentmatches-bytournamentregion',
          name: 'ByTournamentRegion',
          partitionKey: [S('tournamentId'), S('region')],
          sortKey: [N('round'), S('matchTime')],
          projection: { type: 'ALL' },
          onDemandThroughput: { maxReadRequestUnits: 2_000 },
          warmThroughput: { readUnitsPerSecond: 12_000, writeUnitsPerSecond: 4_000 },
        },
        {
          id: 'gsi-tournamentmatches-byplayer',
          name: 'ByPlayer',
          partitionKey: S('playerId'),
          projection: { type: 'INCLUDE', nonKeyAttributes: ['score', 'status'] },
          warmThroughput: { readUnitsPerSecond: 12_000, writeUnitsPerSecond: 4_000 },
        },
      ],
      localSecondaryIndexes: [],
      accessPatterns: [],
    });
    // names 7+12+6+5+9+8 = 47, values 5 × 16 + 5 = 85, "otherAttributes" 15: 250 − 147 = 103.
    expect(entities[0]?.attributes.at(-1)).toEqual({ ...S(OTHER_ATTRIBUTES_NAME), averageSizeBytes: 103 });
    expect(entities[0]?.itemCount).toBe(48_000);
    expect(estimateItemBytes(tableOf(result), entities[0]!).value).toBe(250);
  });

  it('notes the GSI being created, and TTL and point-in-time recovery, which no companion gave; no auto scaling on an on-demand table', () => {
    expect(kinds(result)).toEqual([
      { kind: 'dropped', path: 'Table.GlobalSecondaryIndexes[1].IndexStatus' },
      { kind: 'inferred', path: 'Table.WarmThroughput' },
      { kind: 'inferred', path: 'Table.ItemCount' },
      { kind: 'inferred', path: 'Table.TableSizeBytes' },
      { kind: 'dropped', path: '' },
      { kind: 'dropped', path: '' },
      { kind: 'dropped', path: '' },
      { kind: 'dropped', path: '' },
      { kind: 'dropped', path: '' },
    ]);
    const messages = imported(result).notes.map((n) => n.message);
    expect(messages[0]).toContain('CREATING');
    expect(messages.slice(4)).toEqual([
      expect.stringContaining('aws dynamodb describe-time-to-live --table-name TournamentMatches'),
      expect.stringContaining('aws dynamodb describe-continuous-backups --table-name TournamentMatches'),
      expect.stringContaining('list-tags-of-resource'),
      expect.stringContaining('describe-contributor-insights'),
      expect.stringContaining('get-resource-policy'),
    ]);
  });
});

describe('billing, encryption, stream and capacity settings', () => {
  it('reads a table without BillingModeSummary as PROVISIONED (the summary appears once a table has been on-demand)', () => {
    const table = tableOf(fromDescribeTable(shopWith((t) => delete t.BillingModeSummary), [ttl(), backups()]));
    expect(table.billing).toEqual({ mode: 'PROVISIONED', readCapacityUnits: 50, writeCapacityUnits: 25 });
  });

  it('refuses a table without BillingModeSummary whose capacity is 0, as on-demand tables report it', () => {
    const result = fromDescribeTable(matchesWith((t) => delete t.BillingModeSummary));
    expect(where(problems(result))).toEqual([
      { code: 'describeTable.schema', path: 'Table.ProvisionedThroughput.ReadCapacityUnits' },
      { code: 'describeTable.schema', path: 'Table.ProvisionedThroughput.WriteCapacityUnits' },
      { code: 'describeTable.schema', path: 'Table.GlobalSecondaryIndexes[0].ProvisionedThroughput.ReadCapacityUnits' },
      { code: 'describeTable.schema', path: 'Table.GlobalSecondaryIndexes[0].ProvisionedThroughput.WriteCapacityUnits' },
      { code: 'describeTable.schema', path: 'Table.GlobalSecondaryIndexes[1].ProvisionedThroughput.ReadCapacityUnits' },
      { code: 'describeTable.schema', path: 'Table.GlobalSecondaryIndexes[1].ProvisionedThroughput.WriteCapacityUnits' },
    ]);
    expect(problems(result)[0]).toMatchObject({ found: 'the number 0', expected: 'a whole number ≥ 1' });
  });

  it.each([
    ['ENABLED with SSEType KMS: KMS with the key ARN', { Status: 'ENABLED', SSEType: 'KMS', KMSMasterKeyArn: KMS_KEY }, { type: 'KMS', kmsKeyId: KMS_KEY }, []],
    ['UPDATING with SSEType KMS: KMS, with a warning', { Status: 'UPDATING', SSEType: 'KMS', KMSMasterKeyArn: KMS_KEY }, { type: 'KMS', kmsKeyId: KMS_KEY }, ['Table.SSEDescription.Status']],
    ['DISABLED: the AWS owned key', { Status: 'DISABLED' }, { type: 'AWS_OWNED' }, []],
    ['an SSEType other than KMS: the AWS owned key, with a warning', { Status: 'ENABLED', SSEType: 'AES256' }, { type: 'AWS_OWNED' }, ['Table.SSEDescription.SSEType']],
  ])('SSEDescription %s', (_, sse, encryption, warnings) => {
    const result = fromDescribeTable(matchesWith((t) => (t.SSEDescription = sse)));
    expect(tableOf(result).encryption).toEqual(encryption);
    expect(imported(result).notes.filter((n) => n.kind === 'warning').map((n) => n.path)).toEqual(warnings);
  });

  it('reads a disabled stream as no stream', () => {
    const table = tableOf(fromDescribeTable(shopWith((t) => (t.StreamSpecification = { StreamEnabled: false })), [ttl(), backups()]));
    expect(table.stream).toBeUndefined();
  });

  it('drops an on-demand warm throughput below what a new table serves (12,000 reads, 4,000 writes), with a note', () => {
    const result = fromDescribeTable(matchesWith((t) => (t.WarmThroughput = { ReadUnitsPerSecond: 5000, WriteUnitsPerSecond: 6000, Status: 'ACTIVE' })));
    expect(tableOf(result).warmThroughput).toEqual({ writeUnitsPerSecond: 6000 });
    expect(imported(result).notes).toContainEqual(expect.objectContaining({ kind: 'dropped', path: 'Table.WarmThroughput.ReadUnitsPerSecond' }));
  });

  it('drops on-demand maximums on a provisioned table, with a note', () => {
    const result = fromDescribeTable(shopWith((t) => (t.OnDemandThroughput = { MaxReadRequestUnits: 100, MaxWriteRequestUnits: -1 })), [ttl(), backups()]);
    expect(tableOf(result).onDemandThroughput).toBeUndefined();
    expect(imported(result).notes).toContainEqual(expect.objectContaining({ kind: 'dropped', path: 'Table.OnDemandThroughput' }));
  });

  it('leaves out on-demand maximums that are -1 in both directions', () => {
    const table = tableOf(fromDescribeTable(matchesWith((t) => (t.OnDemandThroughput = { MaxReadRequestUnits: -1, MaxWriteRequestUnits: -1 }))));
    expect(table.onDemandThroughput).toBeUndefined();
  });
});

describe('notes on state and on parts a design does not hold', () => {
  it('imports a table that is not ACTIVE, noting its status', () => {
    const result = fromDescribeTable(shopWith((t) => (t.TableStatus = 'UPDATING')), [ttl(), backups()]);
    expect(imported(result).notes).toContainEqual(expect.objectContaining({ kind: 'dropped', path: 'Table.TableStatus' }));
  });

  it('drops global-table replicas, restore and archival summaries and vector indexes, each with a note', () => {
    const result = fromDescribeTable(
      shopWith((t) => {
        t.GlobalTableVersion = '2019.11.21';
        t.Replicas = [{ RegionName: 'eu-west-1', ReplicaStatus: 'ACTIVE' }, { RegionName: 'us-east-1', ReplicaStatus: 'ACTIVE' }];
        t.RestoreSummary = { SourceBackupArn: `${SHOP_ARN}/backup/01700000000000-abcdef12`, RestoreDateTime: '2025-01-01T00:00:00+00:00', RestoreInProgress: false };
        t.ArchivalSummary = { ArchivalDateTime: '2025-01-01T00:00:00+00:00', ArchivalReason: 'INACCESSIBLE_ENCRYPTION_CREDENTIALS' };
        t.VectorIndexes = [{ IndexName: 'Embeddings' }];
      }),
      [ttl(), backups()],
    );
    const dropped = imported(result).notes.filter((n) => n.kind === 'dropped' && n.path !== '');
    expect(dropped.map((n) => n.path)).toEqual(['Table.Replicas', 'Table.RestoreSummary', 'Table.ArchivalSummary', 'Table.VectorIndexes']);
    expect(dropped[0]?.message).toContain('eu-west-1, us-east-1');
  });

  it('skips a field Keyplan does not know, with a warning naming it', () => {
    const result = fromDescribeTable(shopWith((t) => (t.SomeFutureSetting = { Enabled: true })), [ttl(), backups()]);
    expect(imported(result).notes).toContainEqual(expect.objectContaining({ kind: 'warning', path: 'Table.SomeFutureSetting' }));
  });

  it('names every setting DescribeTable does not return when no companion is given, with the command that returns it', () => {
    const dropped = imported(fromDescribeTable(shop())).notes.filter((n) => n.kind === 'dropped' && n.path === '');
    expect(dropped.map((n) => n.message)).toEqual([
      expect.stringContaining('aws dynamodb describe-time-to-live --table-name ShopOrders'),
      expect.stringContaining('aws dynamodb describe-continuous-backups --table-name ShopOrders'),
      expect.stringContaining('aws dynamodb list-tags-of-resource'),
      expect.stringContaining('aws dynamodb describe-contributor-insights'),
      expect.stringContaining('aws dynamodb get-resource-policy'),
      expect.stringContaining('aws application-autoscaling describe-scalable-targets'),
    ]);
    expect(dropped.map((n) => n.message.split(';')[0])).toEqual([
      "DescribeTable does not return the table's time to live (TTL) setting",
      "DescribeTable does not return the table's point-in-time recovery setting",
      "DescribeTable does not return the table's tags",
      "DescribeTable does not return the table's Contributor Insights setting",
      "DescribeTable does not return the table's resource policy",
      "DescribeTable does not return the table's auto scaling settings",
    ]);
  });
});

describe('the entity and its size', () => {
  it('with ItemCount 0, gives the entity no size figure and says so', () => {
    const result = fromDescribeTable(matchesWith((t) => ((t.ItemCount = 0), (t.TableSizeBytes = 0))));
    const [entity] = tableOf(result).entities;
    expect(entity?.itemCount).toBe(0);
    expect(entity?.attributes).toEqual([S('matchId'), S('tournamentId'), S('region'), N('round'), S('matchTime'), S('playerId')]);
    const notes = imported(result).notes.filter((n) => n.path === 'Table.ItemCount');
    expect(notes.map((n) => n.kind)).toEqual(['inferred', 'inferred']);
    expect(notes[1]?.message).toContain('ItemCount is 0');
  });

  it('scales the key values down when the average leaves no room for other attributes (100 B)', () => {
    // 1,000 items in 100,000 B: 100 B each. Names take 47 B, so the six values share 53 B: each is
    // 1 + (default − 1) × g with 5 × 15 g + 4 g = 53 − 6, so g = 47 / 79: S 1 + 705/79 = 784/79, N 1 + 188/79 = 267/79.
    const result = fromDescribeTable(matchesWith((t) => ((t.ItemCount = 1000), (t.TableSizeBytes = 100_000))));
    const table = tableOf(result);
    const entity = table.entities[0]!;
    expect(entity.attributes.map((a) => a.name)).not.toContain(OTHER_ATTRIBUTES_NAME);
    expect(entity.attributes.find((a) => a.name === 'matchId')?.averageSizeBytes).toBeCloseTo(784 / 79, 10);
    expect(entity.attributes.find((a) => a.name === 'round')?.averageSizeBytes).toBeCloseTo(267 / 79, 10);
    expect(estimateItemBytes(table, entity).value).toBeCloseTo(100, 10);
  });

  it('sets each key value to 1 byte, with a warning, when the average is less than the key names and 1 byte each', () => {
    // 40 B an item, less than 47 B of names + 6 B of values.
    const result = fromDescribeTable(matchesWith((t) => ((t.ItemCount = 1000), (t.TableSizeBytes = 40_000))));
    expect(tableOf(result).entities[0]?.attributes.map((a) => a.averageSizeBytes)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(imported(result).notes).toContainEqual(expect.objectContaining({ kind: 'warning', path: 'Table.TableSizeBytes' }));
  });

  it('keeps a fractional average: 1,000,001 B over 3 items', () => {
    const result = fromDescribeTable(matchesWith((t) => ((t.ItemCount = 3), (t.TableSizeBytes = 1_000_001))));
    const table = tableOf(result);
    expect(estimateItemBytes(table, table.entities[0]!).value).toBeCloseTo(1_000_001 / 3, 6);
  });

  it('carries a key whose name a template cannot hold in a placeholder-safe attribute, and still comes to the average', () => {
    // "order id": the key part counts its name (8 B) and value (16 B), the carrying attribute "order_id"
    // the same again; "otherAttributes" 15 B + 37 B makes 24 + 24 + 52 = 100 B.
    const bare = { TableName: 'Orders', TableStatus: 'ACTIVE', KeySchema: [{ AttributeName: 'order id', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'order id', AttributeType: 'S' }], BillingModeSummary: { BillingMode: 'PAY_PER_REQUEST' }, ItemCount: 10, TableSizeBytes: 1000 };
    const result = fromDescribeTable(bare);
    const table = tableOf(result);
    const entity = table.entities[0]!;
    expect(entity.keys).toEqual({ 'order id': { template: '{order_id}' } });
    expect(entity.attributes).toEqual([{ ...S('order_id'), averageSizeBytes: 16 }, { ...S(OTHER_ATTRIBUTES_NAME), averageSizeBytes: 37 }]);
    expect(estimateItemBytes(table, entity).value).toBe(100);
    expect(imported(result).notes).toContainEqual(expect.objectContaining({ kind: 'inferred', path: '', message: expect.stringContaining('order_id') }));
  });
});

describe('refusals', () => {
  it.each([
    ['a number', 42, 'the number 42'],
    ['a list (jq -s . instead of jq -s add)', [{}, {}], 'jq -s add'],
    ['a CloudFormation template', { AWSTemplateFormatVersion: '2010-09-09', Resources: {} }, 'a CloudFormation template'],
    ['a CreateTable input', { TableName: 'T', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], BillingMode: 'PAY_PER_REQUEST' }, 'a CreateTable input'],
    ['a describe-time-to-live output alone', { TimeToLiveDescription: { TimeToLiveStatus: 'ENABLED', AttributeName: 'ttl' } }, 'describe-time-to-live'],
    ['a Keyplan design', { formatVersion: 1, tables: [] }, 'a Keyplan design'],
    ['an empty object', {}, 'an empty object'],
  ])('refuses %s as not a describe-table output, saying what it looks like', (_, input, found) => {
    const ps = problems(fromDescribeTable(input));
    expect(where(ps)).toEqual([{ code: 'describeTable.notOutput', path: '' }]);
    expect(ps[0]?.found).toContain(found);
  });

  it('refuses a second HASH element in a table key schema, at Table.KeySchema[1].KeyType', () => {
    const ps = problems(fromDescribeTable(shopWith((t) => (t.KeySchema[1].KeyType = 'HASH'))));
    expect(where(ps)).toEqual([{ code: 'describeTable.schema', path: 'Table.KeySchema[1].KeyType' }]);
    expect(ps[0]).toMatchObject({ found: '"HASH"', expected: 'RANGE' });
  });

  it('refuses a key schema whose RANGE element comes first', () => {
    const ps = problems(fromDescribeTable(shopWith((t) => t.KeySchema.reverse())));
    expect(where(ps)[0]).toEqual({ code: 'describeTable.schema', path: 'Table.KeySchema[0].KeyType' });
  });

  it('refuses a key attribute that AttributeDefinitions does not define, and one of a type keys cannot have', () => {
    const ps = problems(
      fromDescribeTable(
        shopWith((t) => {
          t.AttributeDefinitions = t.AttributeDefinitions.filter((d: Json) => d.AttributeName !== 'SK');
          t.AttributeDefinitions[0].AttributeType = 'BOOL';
        }),
      ),
    );
    expect(where(ps)).toEqual([
      { code: 'describeTable.schema', path: 'Table.AttributeDefinitions[0].AttributeType' },
    ]);
    expect(ps[0]).toMatchObject({ found: 'the text "BOOL"', expected: 'S, N or B' });
    const missing = problems(fromDescribeTable(shopWith((t) => (t.AttributeDefinitions = t.AttributeDefinitions.filter((d: Json) => d.AttributeName !== 'SK')))));
    expect(where(missing)).toEqual([{ code: 'describeTable.schema', path: 'Table.KeySchema[1].AttributeName' }]);
    expect(missing[0]?.found).toBe('"SK"');
  });

  it('refuses a description without KeySchema or AttributeDefinitions, naming each', () => {
    const ps = problems(
      fromDescribeTable(
        shopWith((t) => {
          delete t.KeySchema;
          delete t.AttributeDefinitions;
        }),
      ),
    );
    expect(where(ps).slice(0, 2)).toEqual([
      { code: 'describeTable.schema', path: 'Table.AttributeDefinitions' },
      { code: 'describeTable.schema', path: 'Table.KeySchema' },
    ]);
    expect(ps[0]?.found).toBe('missing');
  });

  it('refuses a GSI key of five HASH elements at the fifth, and an LSI whose HASH is not the table partition key', () => {
    const ps = problems(
      fromDescribeTable(
        matchesWith((t) => {
          t.GlobalSecondaryIndexes[0].KeySchema = ['tournamentId', 'region', 'matchId', 'playerId', 'matchTime'].map((name) => ({ AttributeName: name, KeyType: 'HASH' }));
        }),
      ),
    );
    expect(where(ps)).toEqual([{ code: 'describeTable.schema', path: 'Table.GlobalSecondaryIndexes[0].KeySchema[4].KeyType' }]);
    const lsi = problems(fromDescribeTable(shopWith((t) => (t.LocalSecondaryIndexes[0].KeySchema[0].AttributeName = 'GSI1PK'))));
    expect(where(lsi)).toEqual([{ code: 'describeTable.schema', path: 'Table.LocalSecondaryIndexes[0].KeySchema[0].AttributeName' }]);
  });

  it('collects every problem at once', () => {
    const ps = problems(
      fromDescribeTable(
        shopWith((t) => {
          t.GlobalSecondaryIndexes[0].Projection = { ProjectionType: 'SOME' };
          t.GlobalSecondaryIndexes[2].ProvisionedThroughput = undefined;
          t.StreamSpecification = { StreamEnabled: true };
        }),
      ),
    );
    expect(where(ps)).toEqual([
      { code: 'describeTable.schema', path: 'Table.GlobalSecondaryIndexes[0].Projection.ProjectionType' },
      { code: 'describeTable.schema', path: 'Table.GlobalSecondaryIndexes[2].ProvisionedThroughput' },
      { code: 'describeTable.schema', path: 'Table.StreamSpecification.StreamViewType' },
    ]);
  });

  it("maps the design rules' problems to the description's paths", () => {
    const ps = problems(
      fromDescribeTable(
        shopWith((t) => {
          t.TableName = 'ab';
          t.GlobalSecondaryIndexes[1].Projection.NonKeyAttributes = [];
        }),
      ),
    );
    expect(where(ps)).toContainEqual({ code: 'model.invalidName', path: 'Table.TableName' });
    expect(where(ps)).toContainEqual({ code: 'model.projection', path: 'Table.GlobalSecondaryIndexes[1].Projection.NonKeyAttributes' });
    expect(ps.find((p) => p.code === 'model.projection')?.details).toEqual({ designPath: 'tables[0].globalSecondaryIndexes[1].projection.nonKeyAttributes' });
  });
});

describe('companions', () => {
  it('reads TTL DISABLED as no TTL, without a note about TTL', () => {
    const result = fromDescribeTable(shop(), [{ TimeToLiveDescription: { TimeToLiveStatus: 'DISABLED' } }]);
    expect(tableOf(result).ttlAttribute).toBeUndefined();
    expect(imported(result).notes.filter((n) => n.message.includes('describe-time-to-live'))).toEqual([]);
  });

  it('reads TTL ENABLING as on and DISABLING as off, each with a warning at its status', () => {
    const enabling = fromDescribeTable(shop(), [{ TimeToLiveDescription: { TimeToLiveStatus: 'ENABLING', AttributeName: 'expiresAt' } }]);
    expect(tableOf(enabling).ttlAttribute).toBe('expiresAt');
    expect(imported(enabling).notes).toContainEqual(expect.objectContaining({ kind: 'warning', path: 'companions[0].TimeToLiveDescription.TimeToLiveStatus' }));
    const disabling = fromDescribeTable(shop(), [{ TimeToLiveDescription: { TimeToLiveStatus: 'DISABLING', AttributeName: 'expiresAt' } }]);
    expect(tableOf(disabling).ttlAttribute).toBeUndefined();
    expect(imported(disabling).notes).toContainEqual(expect.objectContaining({ kind: 'warning', path: 'companions[0].TimeToLiveDescription.TimeToLiveStatus' }));
  });

  it('reads point-in-time recovery DISABLED as off, and ENABLED without a period as on', () => {
    const off = { ContinuousBackupsDescription: { ContinuousBackupsStatus: 'ENABLED', PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: 'DISABLED' } } };
    expect(tableOf(fromDescribeTable(shop(), [off])).pointInTimeRecovery).toEqual({ enabled: false });
    const on = { ContinuousBackupsDescription: { ContinuousBackupsStatus: 'ENABLED', PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: 'ENABLED' } } };
    expect(tableOf(fromDescribeTable(shop(), [on])).pointInTimeRecovery).toEqual({ enabled: true });
  });

  it('takes the companions in any order', () => {
    expect(fromDescribeTable(shop(), [backups(), ttl()])).toEqual(fromDescribeTable(shop(), [ttl(), backups()]));
  });

  it('refuses a companion that is neither output, naming what it is', () => {
    const tags = { Tags: [{ Key: 'team', Value: 'orders' }] };
    const ps = problems(fromDescribeTable(shop(), [ttl(), tags, shop()]));
    expect(where(ps)).toEqual([
      { code: 'describeTable.companion', path: 'companions[1]' },
      { code: 'describeTable.companion', path: 'companions[2]' },
    ]);
    expect(ps[0]?.found).toContain('list-tags-of-resource');
    expect(ps[1]?.found).toContain('describe-table output');
  });

  it('refuses the same kind of companion twice, at the second', () => {
    const ps = problems(fromDescribeTable({ ...shop(), ...ttl() }, [ttl()]));
    expect(where(ps)).toEqual([{ code: 'describeTable.companion', path: 'companions[0].TimeToLiveDescription' }]);
  });

  it('refuses a malformed TTL status and a recovery period over 35 days, at their paths', () => {
    const badTtl = { TimeToLiveDescription: { TimeToLiveStatus: 'ON', AttributeName: 'expiresAt' } };
    const badPitr = { ContinuousBackupsDescription: { PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: 'ENABLED', RecoveryPeriodInDays: 40 } } };
    const ps = problems(fromDescribeTable(shop(), [badTtl, badPitr]));
    expect(where(ps)).toEqual([
      { code: 'describeTable.schema', path: 'companions[0].TimeToLiveDescription.TimeToLiveStatus' },
      { code: 'describeTable.schema', path: 'companions[1].ContinuousBackupsDescription.PointInTimeRecoveryDescription.RecoveryPeriodInDays' },
    ]);
    expect(ps[1]).toMatchObject({ found: 'the number 40' });
  });

  it('drops TTL on a key attribute that is not a Number, with a note (DynamoDB expires only Number values)', () => {
    const result = fromDescribeTable(shop(), [{ TimeToLiveDescription: { TimeToLiveStatus: 'ENABLED', AttributeName: 'SK' } }]);
    expect(tableOf(result).ttlAttribute).toBeUndefined();
    expect(imported(result).notes).toContainEqual(expect.objectContaining({ kind: 'dropped', path: 'companions[0].TimeToLiveDescription.AttributeName' }));
  });
});

describe('round trip through the create-table input', () => {
  /** What CreateTable takes of a described key schema, projection and throughput: the settings, not the state. */
  const keySchemaOf = (ks: Json[]) => ks.map((k) => ({ AttributeName: k.AttributeName, KeyType: k.KeyType }));
  const sortByName = (defs: Json[]) => [...defs].sort((a, b) => (a.AttributeName < b.AttributeName ? -1 : 1));

  it.each([
    ['shop-orders', shop],
    ['tournament-matches', matches],
  ])('%s: describe-table → design → create-table input keeps the keys, attribute definitions, indexes and billing', (_, fixture) => {
    const described = fixture().Table as Json;
    const isProvisioned = described.BillingModeSummary?.BillingMode !== 'PAY_PER_REQUEST';
    const [file] = toCliInputs(imported(fromDescribeTable(fixture())).design);
    const input = JSON.parse(file!.content) as Json;
    expect(input.TableName).toBe(described.TableName);
    expect(input.KeySchema).toEqual(keySchemaOf(described.KeySchema));
    expect(sortByName(input.AttributeDefinitions)).toEqual(sortByName(described.AttributeDefinitions));
    expect(input.BillingMode).toBe(isProvisioned ? 'PROVISIONED' : 'PAY_PER_REQUEST');
    if (isProvisioned) {
      expect(input.ProvisionedThroughput).toEqual({ ReadCapacityUnits: described.ProvisionedThroughput.ReadCapacityUnits, WriteCapacityUnits: described.ProvisionedThroughput.WriteCapacityUnits });
    } else expect(input.ProvisionedThroughput).toBeUndefined();
    expect(input.GlobalSecondaryIndexes.map((g: Json) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection, ProvisionedThroughput: g.ProvisionedThroughput }))).toEqual(
      described.GlobalSecondaryIndexes.map((g: Json) => ({
        IndexName: g.IndexName,
        KeySchema: keySchemaOf(g.KeySchema),
        Projection: g.Projection,
        ProvisionedThroughput: isProvisioned ? { ReadCapacityUnits: g.ProvisionedThroughput.ReadCapacityUnits, WriteCapacityUnits: g.ProvisionedThroughput.WriteCapacityUnits } : undefined,
      })),
    );
    expect(input.LocalSecondaryIndexes?.map((l: Json) => ({ IndexName: l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection }))).toEqual(
      described.LocalSecondaryIndexes?.map((l: Json) => ({ IndexName: l.IndexName, KeySchema: keySchemaOf(l.KeySchema), Projection: l.Projection })),
    );
  });

  it('writes the on-demand maximums that are set, and none for -1', () => {
    const [file] = toCliInputs(imported(fromDescribeTable(matches())).design);
    const input = JSON.parse(file!.content) as Json;
    expect(input.OnDemandThroughput).toEqual({ MaxReadRequestUnits: 40_000, MaxWriteRequestUnits: 10_000 });
    expect(input.GlobalSecondaryIndexes.map((g: Json) => g.OnDemandThroughput)).toEqual([{ MaxReadRequestUnits: 2_000 }, undefined]);
  });
});

// ---------------------------------------------------------------------------------------------
// Mutated fixtures
// ---------------------------------------------------------------------------------------------

type Value = null | boolean | number | string | Value[] | { [key: string]: Value };
type Path = Array<string | number>;

function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

type Mutation = { kind: 'delete' | 'truncate' | 'duplicate' } | { kind: 'replace'; value: Value };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom<Mutation>({ kind: 'delete' }, { kind: 'truncate' }, { kind: 'duplicate' }),
  fc.jsonValue({ maxDepth: 2 }).map((value): Mutation => ({ kind: 'replace', value: value as Value })),
  fc
    .constantFrom<Value>('', 0, -1, 1, 1.5, 40, true, null, [], {}, 'HASH', 'RANGE', 'PROVISIONED', 'PAY_PER_REQUEST', 'INCLUDE', 'KMS', 'DISABLED', 'N', 'B', 'BOOL', '__proto__', 'order id', 'x'.repeat(300))
    .map((value): Mutation => ({ kind: 'replace', value })),
);

/** A copy of `value` with `mutation` applied at `path`. */
function mutate(value: unknown, path: Path, mutation: Mutation): unknown {
  const copy = structuredClone(value) as Value;
  if (path.length === 0) return mutation.kind === 'replace' ? mutation.value : copy;
  let parent: any = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  const last = path.at(-1)!;
  const current = parent[last];
  if (mutation.kind === 'replace') parent[last] = mutation.value;
  else if (mutation.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (mutation.kind === 'truncate') {
    if (Array.isArray(current)) parent[last] = current.slice(0, Math.floor(current.length / 2));
    else if (typeof current === 'string') parent[last] = current.slice(0, Math.floor(current.length / 2));
  } else if (Array.isArray(parent)) parent.push(structuredClone(current));
  else parent[`${String(last)}Copy`] = structuredClone(current);
  return copy;
}

/** The answer's contract: a design `parseDesign` accepts, or a non-empty list of problems with code, path and message. */
function expectContract(result: ImportResult): void {
  if (result.ok) {
    expect(parseDesign(JSON.parse(JSON.stringify(result.value.design))).ok).toBe(true);
    for (const note of result.value.notes) expect(typeof note.message).toBe('string');
  } else {
    expect(result.errors.length).toBeGreaterThan(0);
    for (const p of result.errors) {
      expect(typeof p.code).toBe('string');
      expect(typeof p.path).toBe('string');
      expect(p.message.length).toBeGreaterThan(0);
    }
  }
}

describe('mutated fixtures (fast-check)', () => {
  const inputs: Array<[string, () => { main: unknown; companions: unknown[] }]> = [
    ['shop-orders with companions', () => ({ main: shop(), companions: [ttl(), backups()] })],
    ['tournament-matches', () => ({ main: matches(), companions: [] })],
    ['shop-orders merged with its companions', () => ({ main: { ...shop(), ...ttl(), ...backups() }, companions: [] })],
  ];

  it.each(inputs)('%s: never throws; answers with a valid design or problems', (_, make) => {
    const { main, companions } = make();
    const answers = { designs: 0, refusals: 0 };
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: companions.length }), fc.nat(), mutationArb), { minLength: 1, maxLength: 3 }),
        (mutations) => {
          let m: unknown = main;
          const cs: unknown[] = [...companions];
          // Each mutation picks a path of the value as the mutations before it left it.
          for (const [target, pick, mutation] of mutations) {
            if (target === 0) {
              const paths = pathsOf(m);
              m = mutate(m, paths[pick % paths.length]!, mutation);
            } else {
              const paths = pathsOf(cs[target - 1]);
              cs[target - 1] = mutate(cs[target - 1], paths[pick % paths.length]!, mutation);
            }
          }
          let result: ImportResult | undefined;
          expect(() => (result = fromDescribeTable(m, cs))).not.toThrow();
          expectContract(result!);
          answers[result!.ok ? 'designs' : 'refusals'] += 1;
        },
      ),
      { numRuns: 300, seed: 20260115 },
    );
    // Mutations that touch state or notes still import; those that break a setting are refused.
    expect(answers.designs).toBeGreaterThan(30);
    expect(answers.refusals).toBeGreaterThan(30);
  });

  it('never throws on any JSON value, as the input or as a companion', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 }), (json, companions) => {
        let result: ImportResult | undefined;
        expect(() => (result = fromDescribeTable(json, companions))).not.toThrow();
        expectContract(result!);
      }),
      { numRuns: 300, seed: 20260115 },
    );
  });
});
