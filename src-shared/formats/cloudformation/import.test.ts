/**
 * The CloudFormation importer against the fixtures in tests/fixtures/cloudformation (every table,
 * key, index, billing and auto scaling figure, setting and note), against small templates for each
 * rule (intrinsic functions, auto scaling resources, global tables, refusals with line and column),
 * and round trips through the exporter's goldens. Expected values are worked out by hand from the
 * templates and the CloudFormation and DynamoDB pages the importer cites.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { Problem, Table } from '../../model/index.ts';
import { parseDesign } from '../../model/index.ts';
import { toCloudFormation, toCloudFormationJson } from './export.ts';
import { DEFAULT_TEMPLATE_DESIGN_NAME, fromCloudFormation } from './import.ts';
import { detectImportFormat, detectJsonFormat, importText } from '../import.ts';
import type { ImportNote, ImportResult, Imported } from '../common/import-types.ts';
import { aliasBomb } from '../__fixtures__/hostile-imports.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../tests/fixtures/cloudformation');
const GOLDENS = resolve(import.meta.dirname, '__fixtures__');
const fixture = (name: string): string => readFileSync(resolve(FIXTURES, name), 'utf8');

type Json = Record<string, any>;

function imported(result: ImportResult): Imported {
  if (!result.ok) throw new Error(`expected an import, got ${JSON.stringify(result.errors, null, 2)}`);
  return result.value;
}
function problems(result: ImportResult): Problem[] {
  if (!result.ok) return result.errors;
  throw new Error(`expected problems, got a design with notes ${JSON.stringify(result.value.notes, null, 2)}`);
}
const where = (ps: readonly Problem[]) => ps.map((p) => ({ code: p.code, path: p.path }));
const notesOf = (result: ImportResult): ImportNote[] => imported(result).notes;
const noteAt = (result: ImportResult, path: string): ImportNote[] => notesOf(result).filter((n) => n.path === path);
const tableOf = (result: ImportResult, i = 0): Table => imported(result).design.tables[i]!;

const S = (name: string) => ({ name, type: 'S' as const });
const N = (name: string) => ({ name, type: 'N' as const });

/** A minimal on-demand table resource `Orders` (PK, SK), as a template object to change. */
function minimal(): Json {
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Resources: {
      Orders: {
        Type: 'AWS::DynamoDB::Table',
        Properties: {
          TableName: 'Orders',
          AttributeDefinitions: [
            { AttributeName: 'PK', AttributeType: 'S' },
            { AttributeName: 'SK', AttributeType: 'S' },
          ],
          KeySchema: [
            { AttributeName: 'PK', KeyType: 'HASH' },
            { AttributeName: 'SK', KeyType: 'RANGE' },
          ],
          BillingMode: 'PAY_PER_REQUEST',
        },
      },
    },
  };
}
const fromJson = (template: Json): ImportResult => fromCloudFormation(JSON.stringify(template, null, 2));
function withProps(edit: (p: Json) => void): ImportResult {
  const t = minimal();
  edit(t.Resources.Orders.Properties);
  return fromJson(t);
}

/** A provisioned table `Orders` (PK only, GSI ByStatus) and `extra` resources, in YAML. */
const provisionedYaml = (extra: string): string => `
Resources:
  OrdersTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: Orders
      AttributeDefinitions:
        - { AttributeName: PK, AttributeType: S }
        - { AttributeName: status, AttributeType: S }
      KeySchema:
        - { AttributeName: PK, KeyType: HASH }
      ProvisionedThroughput: { ReadCapacityUnits: 10, WriteCapacityUnits: 5 }
      GlobalSecondaryIndexes:
        - IndexName: ByStatus
          KeySchema: [{ AttributeName: status, KeyType: HASH }]
          Projection: { ProjectionType: KEYS_ONLY }
          ProvisionedThroughput: { ReadCapacityUnits: 4, WriteCapacityUnits: 2 }
${extra}`;

const target = (id: string, resourceId: string, dimension: string, min: number, max: number): string => `
  ${id}:
    Type: AWS::ApplicationAutoScaling::ScalableTarget
    Properties:
      MinCapacity: ${min}
      MaxCapacity: ${max}
      ResourceId: ${resourceId}
      ScalableDimension: ${dimension}
      ServiceNamespace: dynamodb`;

const policy = (id: string, targetId: string, value: number, metric: string, type = 'TargetTrackingScaling'): string => `
  ${id}:
    Type: AWS::ApplicationAutoScaling::ScalingPolicy
    Properties:
      PolicyName: ${id}
      PolicyType: ${type}
      ScalingTargetId: !Ref ${targetId}
      TargetTrackingScalingPolicyConfiguration:
        TargetValue: ${value}
        PredefinedMetricSpecification:
          PredefinedMetricType: ${metric}`;

// ---------------------------------------------------------------------------------------------
// The fixtures
// ---------------------------------------------------------------------------------------------

describe('orders-service.yaml: three tables, auto scaling resources, a global table, other resources', () => {
  const result = fromCloudFormation(fixture('orders-service.yaml'));

  it('imports the three table resources in template order, with no entities or access patterns', () => {
    const { design } = imported(result);
    expect(design.tables.map((t) => t.name)).toEqual(['prod-orders', 'SessionsTable', 'catalog']);
    for (const t of design.tables) {
      expect(t.entities).toEqual([]);
      expect(t.accessPatterns).toEqual([]);
    }
    expect(design.name).toBe(DEFAULT_TEMPLATE_DESIGN_NAME);
    expect(design.description).toBe(
      'Orders service: order, session and catalog tables with their auto scaling, a stream consumer, its role and a dead-letter queue.',
    );
  });

  it('reads the provisioned table: keys, a multi-attribute GSI, an LSI and every setting', () => {
    const orders = tableOf(result, 0);
    expect(orders.partitionKey).toEqual(S('PK'));
    expect(orders.sortKey).toEqual(S('SK'));
    // ReadCapacityUnits is !Ref OrdersReadCapacity (Default 20); the table's reads scale 10–200 at 70 %.
    expect(orders.billing).toEqual({
      mode: 'PROVISIONED',
      readCapacityUnits: 20,
      writeCapacityUnits: 10,
      autoScaling: { read: { minCapacity: 10, maxCapacity: 200, targetUtilizationPercent: 70 } },
    });
    const [gsi1, byCustomer] = orders.globalSecondaryIndexes;
    expect(gsi1).toMatchObject({
      name: 'GSI1',
      partitionKey: S('GSI1PK'),
      sortKey: S('GSI1SK'),
      projection: { type: 'ALL' },
      // GSI1's writes scale 5–50 at 60 % through the !Join ResourceId.
      provisioned: { readCapacityUnits: 10, writeCapacityUnits: 5, autoScaling: { write: { minCapacity: 5, maxCapacity: 50, targetUtilizationPercent: 60 } } },
    });
    expect(byCustomer).toMatchObject({
      name: 'ByCustomerRegion',
      partitionKey: [S('customerId'), S('region')],
      sortKey: [S('status'), N('placedAt')],
      projection: { type: 'INCLUDE', nonKeyAttributes: ['total', 'currency'] },
      provisioned: { readCapacityUnits: 4, writeCapacityUnits: 2 },
    });
    expect(byCustomer!.provisioned!.autoScaling).toBeUndefined();
    expect(orders.localSecondaryIndexes).toMatchObject([{ name: 'ByPlacedAt', sortKey: N('placedAt'), projection: { type: 'KEYS_ONLY' } }]);
    expect(orders.ttlAttribute).toBe('expiresAt');
    expect(orders.stream).toBe('NEW_AND_OLD_IMAGES');
    expect(orders.pointInTimeRecovery).toEqual({ enabled: true, recoveryPeriodInDays: 14 });
    expect(orders.encryption).toEqual({ type: 'KMS', kmsKeyId: 'alias/orders-service' });
    expect(orders.contributorInsights).toEqual({ enabled: true, mode: 'ACCESSED_AND_THROTTLED_KEYS' });
    expect(orders.deletionProtection).toBe(true);
    expect(orders.tags).toEqual({ service: 'orders', stage: 'prod' });
    expect(orders.tableClass).toBe('STANDARD');
  });

  it('reads the on-demand table: maximums and warm throughput on the table and its GSI', () => {
    const sessions = tableOf(result, 1);
    expect(sessions.partitionKey).toEqual(S('sessionId'));
    expect(sessions.sortKey).toBeUndefined();
    expect(sessions.billing).toEqual({ mode: 'ON_DEMAND' });
    expect(sessions.onDemandThroughput).toEqual({ maxReadRequestUnits: 5000, maxWriteRequestUnits: 1000 });
    expect(sessions.warmThroughput).toEqual({ readUnitsPerSecond: 15000, writeUnitsPerSecond: 5000 });
    expect(sessions.globalSecondaryIndexes).toMatchObject([
      {
        name: 'ByUser',
        partitionKey: S('userId'),
        sortKey: N('startedAt'),
        projection: { type: 'KEYS_ONLY' },
        onDemandThroughput: { maxReadRequestUnits: 2000 },
        warmThroughput: { readUnitsPerSecond: 12000 },
      },
    ]);
    expect(sessions.globalSecondaryIndexes[0]!.provisioned).toBeUndefined();
    expect(sessions.ttlAttribute).toBe('ttl');
    expect(sessions.encryption).toEqual({ type: 'AWS_OWNED' });
    expect(sessions.tableClass).toBe('STANDARD_INFREQUENT_ACCESS');
    expect(sessions.tags).toEqual({ service: 'sessions' });
    expect(sessions.pointInTimeRecovery).toBeUndefined();
    expect(sessions.deletionProtection).toBeUndefined();
  });

  it('reads the global table from its first replica, with write auto scaling from the resource', () => {
    const catalog = tableOf(result, 2);
    expect(catalog.partitionKey).toEqual(S('sku'));
    // Reads: the first replica's SeedCapacity 10, scaling 5–100 at 75 %; writes: SeedCapacity 10, 5–200 at 70 %.
    expect(catalog.billing).toEqual({
      mode: 'PROVISIONED',
      readCapacityUnits: 10,
      writeCapacityUnits: 10,
      autoScaling: {
        read: { minCapacity: 5, maxCapacity: 100, targetUtilizationPercent: 75 },
        write: { minCapacity: 5, maxCapacity: 200, targetUtilizationPercent: 70 },
      },
    });
    // The GSI reads 5 RCU fixed (the first replica's entry); its writes have no SeedCapacity: the minimum, 2.
    expect(catalog.globalSecondaryIndexes).toMatchObject([
      {
        name: 'ByCategory',
        partitionKey: S('category'),
        sortKey: N('price'),
        projection: { type: 'ALL' },
        provisioned: { readCapacityUnits: 5, writeCapacityUnits: 2, autoScaling: { write: { minCapacity: 2, maxCapacity: 50, targetUtilizationPercent: 60 } } },
      },
    ]);
    expect(catalog.tableClass).toBe('STANDARD_INFREQUENT_ACCESS');
    expect(catalog.encryption).toEqual({ type: 'KMS', kmsKeyId: 'alias/catalog-primary' });
    expect(catalog.pointInTimeRecovery).toEqual({ enabled: true });
    expect(catalog.deletionProtection).toBe(true);
    expect(catalog.contributorInsights).toEqual({ enabled: true });
    expect(catalog.tags).toEqual({ service: 'catalog' });
    expect(catalog.ttlAttribute).toBe('expiresAt');
    expect(catalog.stream).toBe('NEW_AND_OLD_IMAGES');
  });

  it('notes every value taken from a parameter or a branch, every setting dropped, and nothing about the other resources', () => {
    const P = 'Resources.OrdersTable.Properties';
    const C = 'Resources.CatalogGlobalTable.Properties';
    expect(notesOf(result).map((n) => ({ kind: n.kind, path: n.path }))).toEqual([
      { kind: 'inferred', path: `${P}.TableName` },
      { kind: 'inferred', path: `${P}.ProvisionedThroughput.ReadCapacityUnits` },
      { kind: 'dropped', path: `${P}.KinesisStreamSpecification` },
      { kind: 'inferred', path: `${P}.SSESpecification.KMSMasterKeyId` },
      { kind: 'inferred', path: `${P}.DeletionProtectionEnabled` },
      { kind: 'inferred', path: `${P}.Tags[1].Value` },
      { kind: 'dropped', path: 'Resources.OrdersTable' },
      { kind: 'dropped', path: 'Resources.SessionsTable.DeletionPolicy' },
      { kind: 'dropped', path: 'Resources.SessionsTable.UpdateReplacePolicy' },
      { kind: 'inferred', path: 'Resources.SessionsTable.Properties.TableName' },
      { kind: 'dropped', path: 'Resources.SessionsTable' },
      { kind: 'inferred', path: `${C}.TableName` },
      { kind: 'dropped', path: `${C}.Replicas[1]` },
      { kind: 'inferred', path: `${C}.GlobalSecondaryIndexes[0].WriteProvisionedThroughputSettings.WriteCapacityAutoScalingSettings` },
      { kind: 'dropped', path: 'Resources.CatalogGlobalTable' },
      { kind: 'dropped', path: 'Resources.OrdersGsi1WriteScalingPolicy.Properties.TargetTrackingScalingPolicyConfiguration' },
      { kind: 'inferred', path: '' },
    ]);
  });

  it('names in each note what it is about', () => {
    const message = (path: string) => noteAt(result, path)[0]!.message;
    expect(message('Resources.OrdersTable.Properties.TableName')).toMatch(/!Sub "\$\{Environment\}-orders".*"prod-orders".*parameter "Environment"/);
    expect(message('Resources.OrdersTable.Properties.ProvisionedThroughput.ReadCapacityUnits')).toMatch(/!Ref OrdersReadCapacity.*20/);
    expect(message('Resources.OrdersTable.Properties.KinesisStreamSpecification')).toContain('Kinesis');
    expect(message('Resources.OrdersTable.Properties.DeletionProtectionEnabled')).toMatch(/first branch.*"IsProd"/);
    expect(message('Resources.SessionsTable.Properties.TableName')).toMatch(/AWS::StackName.*"SessionsTable"/);
    expect(message('Resources.SessionsTable.DeletionPolicy')).toContain('Delete');
    const replica = message('Resources.CatalogGlobalTable.Properties.Replicas[1]');
    expect(replica).toContain('eu-west-1');
    expect(replica).toContain('TableClass, SSESpecification');
    expect(message('Resources.CatalogGlobalTable.Properties.GlobalSecondaryIndexes[0].WriteProvisionedThroughputSettings.WriteCapacityAutoScalingSettings')).toMatch(/SeedCapacity.*minimum, 2/);
    expect(message('Resources.OrdersGsi1WriteScalingPolicy.Properties.TargetTrackingScalingPolicyConfiguration')).toMatch(/ScaleInCooldown, ScaleOutCooldown/);
    expect(message('Resources.OrdersTable')).toMatch(/no entity information.*add them after import/);
  });

  it('is the same answer on every call', () => {
    expect(fromCloudFormation(fixture('orders-service.yaml'))).toEqual(result);
  });

  it('exports to a template that imports back to the same tables', () => {
    const again = imported(fromCloudFormation(toCloudFormation(imported(result).design)));
    expect(again.design.tables).toEqual(imported(result).design.tables);
  });
});

describe('inventory.json: a JSON template with mappings and a policy found by its resource id', () => {
  const result = fromCloudFormation(fixture('inventory.json'));

  it('reads the table, its capacity from the mapping, and its text-written numbers and Boolean', () => {
    const inventory = tableOf(result);
    expect(inventory.name).toBe('inventory');
    expect(inventory.partitionKey).toEqual(S('warehouseId'));
    expect(inventory.sortKey).toEqual(S('sku'));
    // BillingMode is absent: PROVISIONED. Capacity: CapacityByStage.prod (Stage's Default) = 25 / 10.
    // The policy names the table as table/inventory (its name from InventoryTableName's Default).
    expect(inventory.billing).toEqual({
      mode: 'PROVISIONED',
      readCapacityUnits: 25,
      writeCapacityUnits: 10,
      autoScaling: { write: { minCapacity: 10, maxCapacity: 40, targetUtilizationPercent: 50 } },
    });
    expect(inventory.globalSecondaryIndexes).toMatchObject([
      { name: 'BySkuStock', partitionKey: S('sku'), sortKey: N('stockLevel'), projection: { type: 'KEYS_ONLY' }, provisioned: { readCapacityUnits: 5, writeCapacityUnits: 5 } },
    ]);
    expect(inventory.pointInTimeRecovery).toEqual({ enabled: true });
    expect(inventory.tags).toEqual({ service: 'inventory', stage: 'prod' });
    expect(imported(result).design.tables).toHaveLength(1);
  });

  it('names the mapping a value came from, in the JSON form of the function', () => {
    const [note] = noteAt(result, 'Resources.InventoryTable.Properties.ProvisionedThroughput.ReadCapacityUnits');
    expect(note!.kind).toBe('inferred');
    expect(note!.message).toContain('{"Fn::FindInMap"');
    expect(note!.message).toContain('Mappings.CapacityByStage.prod.Read');
    expect(notesOf(result).some((n) => n.path.startsWith('Resources.LowStockTopic'))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Round trips through the exporter's goldens
// ---------------------------------------------------------------------------------------------

describe('round trips: every CloudFormation golden imports and exports to the same resources', () => {
  const goldens = readdirSync(GOLDENS).filter((f) => /\.cloudformation\.golden\.(yaml|json)$/.test(f)).sort();
  const resourcesOf = (template: Json) =>
    Object.fromEntries(Object.entries(template.Resources as Json).map(([id, r]) => [id, { Type: (r as Json).Type, Properties: (r as Json).Properties }]));

  it('finds the goldens', () => {
    expect(goldens.length).toBeGreaterThanOrEqual(8);
  });

  it.each(goldens)('%s', (file) => {
    const text = readFileSync(resolve(GOLDENS, file), 'utf8');
    const isJson = file.endsWith('.json');
    const { design } = imported(fromCloudFormation(text));
    const exported = isJson ? JSON.parse(toCloudFormationJson(design)) : parseYaml(toCloudFormation(design));
    const golden = isJson ? JSON.parse(text) : parseYaml(text);
    expect(resourcesOf(exported)).toEqual(resourcesOf(golden));
  });

  it("takes the design's name and description back from the Description Keyplan writes", () => {
    const { design, notes } = imported(fromCloudFormation(readFileSync(resolve(GOLDENS, 'multi-attribute.cloudformation.golden.yaml'), 'utf8')));
    expect(design.name).toBe('Tournament matches');
    expect(design.description).toMatch(/^A multi-attribute GSI/);
    expect(notes.filter((n) => n.path === '')).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------------------------

describe('refusals', () => {
  it('refuses YAML with a repeated key, at the repeat', () => {
    const text = 'Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n  Orders:\n    Type: AWS::SQS::Queue\n';
    const [p] = problems(fromCloudFormation(text));
    expect(p).toMatchObject({ code: 'cloudformation.syntax', path: '', details: { line: 4, column: 3 } });
    expect(p!.message).toContain('line 4, column 3');
  });

  it('refuses YAML indented with a tab, at the tab', () => {
    const [p] = problems(fromCloudFormation('Resources:\n\tOrders: {}\n'));
    expect(p).toMatchObject({ code: 'cloudformation.syntax', details: { line: 2, column: 1 } });
  });

  it('refuses JSON with a trailing comma, where a property name should be', () => {
    const [p] = problems(fromCloudFormation('{\n  "Resources": {\n    "Orders": {},\n  }\n}'));
    expect(p).toMatchObject({ code: 'cloudformation.syntax', path: '', details: { line: 4, column: 3 }, found: '"}"', expected: 'a property name in double quotes' });
  });

  it('refuses JSON missing a comma, at the next property', () => {
    const [p] = problems(fromCloudFormation('{"Resources": {"A": 1 "B": 2}}'));
    expect(p).toMatchObject({ code: 'cloudformation.syntax', details: { line: 1, column: 23 }, found: '"\\""' });
    expect(p!.expected).toBe('"," or "}" after a property value');
  });

  it('refuses JSON with an unterminated string, at its end', () => {
    const [p] = problems(fromCloudFormation('{"Resources": "abc'));
    expect(p).toMatchObject({ code: 'cloudformation.syntax', details: { line: 1, column: 19 }, found: 'the end of the text', expected: 'a closing double quote' });
  });

  it('refuses two YAML documents in one file', () => {
    const [p] = problems(fromCloudFormation('Resources: {}\n---\nResources: {}\n'));
    expect(p).toMatchObject({ code: 'cloudformation.syntax', details: { line: 2, column: 1 } });
  });

  it.each([
    ['plain text', 'hello world', 'the text "hello world"'],
    ['an empty file', '', 'an empty document'],
    ['a YAML list', '- Resources\n', 'a list of 1 item'],
    ['a template without Resources', '{"AWSTemplateFormatVersion": "2010-09-09"}', 'an object with "AWSTemplateFormatVersion"'],
    ['a Keyplan design', '{"formatVersion": 1, "tables": []}', 'a Keyplan design'],
  ])('refuses %s as not a template', (_, text, found) => {
    const [p] = problems(fromCloudFormation(text));
    expect(p).toMatchObject({ code: 'cloudformation.notTemplate', path: '', found });
  });

  it('refuses Resources that is not a mapping', () => {
    expect(where(problems(fromCloudFormation('Resources: 5\n')))).toEqual([{ code: 'cloudformation.notTemplate', path: 'Resources' }]);
  });

  it('refuses a template with no table, naming the resource types it has', () => {
    const text = `
Resources:
  Handler:
    Type: AWS::Lambda::Function
    Properties: {}
  Queue:
    Type: AWS::SQS::Queue
  OtherHandler:
    Type: AWS::Lambda::Function
`;
    const [p] = problems(fromCloudFormation(text));
    expect(p).toMatchObject({ code: 'cloudformation.noTable', path: 'Resources', details: { resourceTypes: ['AWS::Lambda::Function', 'AWS::SQS::Queue'] } });
    expect(p!.message).toContain('AWS::Lambda::Function, AWS::SQS::Queue');
  });

  it('refuses a table without a KeySchema', () => {
    expect(where(problems(withProps((p) => delete p.KeySchema)))).toEqual([{ code: 'cloudformation.schema', path: 'Resources.Orders.Properties.KeySchema' }]);
  });

  it('refuses a key attribute that AttributeDefinitions does not define, at the key element', () => {
    const ps = problems(withProps((p) => p.AttributeDefinitions.pop()));
    expect(where(ps)).toEqual([{ code: 'cloudformation.attributeDefinition', path: 'Resources.Orders.Properties.KeySchema[1].AttributeName' }]);
    expect(ps[0]!.message).toContain('"SK"');
  });

  it('refuses an attribute type other than S, N or B', () => {
    const ps = problems(withProps((p) => (p.AttributeDefinitions[0].AttributeType = 'BOOL')));
    expect(ps[0]).toMatchObject({ code: 'cloudformation.schema', path: 'Resources.Orders.Properties.AttributeDefinitions[0].AttributeType', found: 'the text "BOOL"', expected: 'S, N or B' });
  });

  it('refuses a table key of two HASH elements (only a GSI key has several)', () => {
    const ps = problems(withProps((p) => (p.KeySchema[1].KeyType = 'HASH')));
    expect(where(ps)).toEqual([{ code: 'cloudformation.schema', path: 'Resources.Orders.Properties.KeySchema' }]);
  });

  it('refuses a provisioned table (BillingMode absent) without ProvisionedThroughput', () => {
    const ps = problems(withProps((p) => delete p.BillingMode));
    expect(where(ps)).toEqual([{ code: 'cloudformation.schema', path: 'Resources.Orders.Properties.ProvisionedThroughput' }]);
    expect(ps[0]!.message).toContain('absent, which means PROVISIONED');
  });

  it('refuses provisioned capacity known only at deployment, naming the function', () => {
    const ps = problems(
      withProps((p) => {
        p.BillingMode = 'PROVISIONED';
        p.ProvisionedThroughput = { 'Fn::ImportValue': 'shared-capacity' };
      }),
    );
    expect(where(ps)).toEqual([{ code: 'cloudformation.unresolved', path: 'Resources.Orders.Properties.ProvisionedThroughput' }]);
    expect(ps[0]!.message).toContain('{"Fn::ImportValue": "shared-capacity"}');
  });

  it('refuses provisioned capacity of the wrong shape', () => {
    const ps = problems(
      withProps((p) => {
        p.BillingMode = 'PROVISIONED';
        p.ProvisionedThroughput = { ReadCapacityUnits: 'many', WriteCapacityUnits: 5 };
      }),
    );
    expect(ps).toEqual([expect.objectContaining({ code: 'cloudformation.schema', path: 'Resources.Orders.Properties.ProvisionedThroughput.ReadCapacityUnits', found: 'the text "many"' })]);
  });

  it('refuses indexes that are not a list, rather than importing the table without them', () => {
    expect(where(problems(withProps((p) => (p.GlobalSecondaryIndexes = { IndexName: 'ByStatus' }))))).toEqual([
      { code: 'cloudformation.schema', path: 'Resources.Orders.Properties.GlobalSecondaryIndexes' },
    ]);
  });

  it("refuses an LSI whose partition key is not the table's", () => {
    const ps = problems(
      withProps((p) => {
        p.AttributeDefinitions.push({ AttributeName: 'placedAt', AttributeType: 'N' });
        p.LocalSecondaryIndexes = [
          {
            IndexName: 'ByPlacedAt',
            KeySchema: [
              { AttributeName: 'SK', KeyType: 'HASH' },
              { AttributeName: 'placedAt', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ];
      }),
    );
    expect(ps[0]).toMatchObject({ code: 'cloudformation.schema', path: 'Resources.Orders.Properties.LocalSecondaryIndexes[0].KeySchema[0].AttributeName', found: '"SK"', expected: '"PK"' });
  });

  it('refuses a key attribute name known only at deployment', () => {
    const text = `
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      AttributeDefinitions:
        - AttributeName: !ImportValue shared-key-name
          AttributeType: S
      KeySchema:
        - AttributeName: !ImportValue shared-key-name
          KeyType: HASH
      BillingMode: PAY_PER_REQUEST
`;
    const ps = problems(fromCloudFormation(text));
    expect(where(ps)).toEqual([
      { code: 'cloudformation.unresolved', path: 'Resources.Orders.Properties.AttributeDefinitions[0].AttributeName' },
      { code: 'cloudformation.unresolved', path: 'Resources.Orders.Properties.KeySchema[0].AttributeName' },
    ]);
    expect(ps[0]!.message).toContain('!ImportValue shared-key-name');
  });

  it("reports the design's rules at the template's paths", () => {
    const ps = problems(withProps((p) => (p.TableName = 'ab')));
    expect(ps).toEqual([expect.objectContaining({ code: 'model.invalidName', path: 'Resources.Orders.Properties.TableName', details: { designPath: 'tables[0].name' } })]);
  });

  it('reports an auto scaling target utilization outside 20–90 % at the policy', () => {
    const text = provisionedYaml(`${target('ReadTarget', '!Sub table/${OrdersTable}', 'dynamodb:table:ReadCapacityUnits', 5, 50)}${policy('ReadPolicy', 'ReadTarget', 95, 'DynamoDBReadCapacityUtilization')}`);
    expect(where(problems(fromCloudFormation(text)))).toEqual([{ code: 'model.schema', path: 'Resources.ReadPolicy.Properties.TargetTrackingScalingPolicyConfiguration.TargetValue' }]);
  });

  it('reports an auto scaling maximum below the minimum at the target', () => {
    const text = provisionedYaml(`${target('ReadTarget', '!Sub table/${OrdersTable}', 'dynamodb:table:ReadCapacityUnits', 50, 20)}${policy('ReadPolicy', 'ReadTarget', 70, 'DynamoDBReadCapacityUtilization')}`);
    expect(where(problems(fromCloudFormation(text)))).toEqual([{ code: 'model.billing', path: 'Resources.ReadTarget.Properties.MaxCapacity' }]);
  });

  it('reports a tag the rules refuse at its Tags entry, with a ${!…} escape read as literal text', () => {
    const text = `
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: Orders
      AttributeDefinitions: [{ AttributeName: PK, AttributeType: S }]
      KeySchema: [{ AttributeName: PK, KeyType: HASH }]
      BillingMode: PAY_PER_REQUEST
      Tags:
        - Key: team
          Value: checkout
        - Key: cost
          Value: !Sub "center-\${!Code}"
`;
    const ps = problems(fromCloudFormation(text));
    expect(ps).toEqual([expect.objectContaining({ code: 'model.tags', path: 'Resources.Orders.Properties.Tags[1]', found: '"center-${Code}"' })]);
  });
});

// ---------------------------------------------------------------------------------------------
// Intrinsic functions
// ---------------------------------------------------------------------------------------------

describe('intrinsic functions', () => {
  const yamlTable = (name: string, extra = '', parameters = ''): string => `
${parameters}
Conditions:
  IsProd: !Equals [!Ref AWS::Region, us-east-1]
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: ${name}
      AttributeDefinitions: [{ AttributeName: PK, AttributeType: S }]
      KeySchema: [{ AttributeName: PK, KeyType: HASH }]
      BillingMode: PAY_PER_REQUEST
${extra}`;

  it('computes !Join, !Select and !Split over parameter defaults', () => {
    const parameters = 'Parameters:\n  Env: { Type: String, Default: staging }\n  Names: { Type: CommaDelimitedList, Default: "a,b-table,c" }';
    expect(tableOf(fromCloudFormation(yamlTable('!Join ["-", [!Ref Env, orders]]', '', parameters))).name).toBe('staging-orders');
    expect(tableOf(fromCloudFormation(yamlTable("!Select [1, !Split [',', 'a,b-table,c']]"))).name).toBe('b-table');
    expect(tableOf(fromCloudFormation(yamlTable('!Select [1, !Ref Names]', '', parameters))).name).toBe('b-table');
  });

  it('computes !Sub with its own variables', () => {
    const parameters = 'Parameters:\n  Env: { Type: String, Default: dev }';
    const result = fromCloudFormation(yamlTable('!Sub ["${Prefix}-orders", { Prefix: !Ref Env }]', '', parameters));
    expect(tableOf(result).name).toBe('dev-orders');
    expect(noteAt(result, 'Resources.Orders.Properties.TableName')[0]).toMatchObject({ kind: 'inferred' });
  });

  it('names the table after its logical id when TableName is a parameter without a Default', () => {
    const result = fromCloudFormation(yamlTable('!Ref TableNameParameter', '', 'Parameters:\n  TableNameParameter: { Type: String }'));
    expect(tableOf(result).name).toBe('Orders');
    const [note] = noteAt(result, 'Resources.Orders.Properties.TableName');
    expect(note).toMatchObject({ kind: 'inferred' });
    expect(note!.message).toContain('parameter "TableNameParameter" has no Default');
  });

  it('names the table after its logical id when TableName is absent', () => {
    const result = withProps((p) => delete p.TableName);
    expect(tableOf(result).name).toBe('Orders');
    expect(noteAt(result, 'Resources.Orders.Properties')[0]).toMatchObject({ kind: 'inferred' });
  });

  it('takes the documented default for a setting known only at deployment, naming the function', () => {
    const result = fromCloudFormation(yamlTable('Orders', '      TableClass: !ImportValue shared-table-class'));
    expect(tableOf(result).tableClass).toBe('STANDARD');
    const [note] = noteAt(result, 'Resources.Orders.Properties.TableClass');
    expect(note!.kind).toBe('inferred');
    expect(note!.message).toMatch(/!ImportValue shared-table-class.*STANDARD, the default/);
  });

  it('takes the first branch of !If', () => {
    const result = fromCloudFormation(yamlTable('Orders', '      TableClass: !If [IsProd, STANDARD_INFREQUENT_ACCESS, STANDARD]'));
    expect(tableOf(result).tableClass).toBe('STANDARD_INFREQUENT_ACCESS');
    expect(noteAt(result, 'Resources.Orders.Properties.TableClass')[0]!.message).toContain('"IsProd"');
  });

  it('leaves out a property whose !If branch is AWS::NoValue', () => {
    const result = fromCloudFormation(yamlTable('Orders', '      DeletionProtectionEnabled: !If [IsProd, !Ref AWS::NoValue, true]\n      KinesisStreamSpecification: !If [IsProd, !Ref AWS::NoValue, { StreamArn: arn }]'));
    expect(tableOf(result).deletionProtection).toBeUndefined();
    expect(noteAt(result, 'Resources.Orders.Properties.DeletionProtectionEnabled')[0]!.message).toContain('left out');
    expect(noteAt(result, 'Resources.Orders.Properties.KinesisStreamSpecification')).toEqual([]);
  });

  it('reads a !GetAtt table name as unknown, and names the logical id instead', () => {
    const result = fromCloudFormation(yamlTable('!GetAtt Naming.Name'));
    expect(tableOf(result).name).toBe('Orders');
    expect(noteAt(result, 'Resources.Orders.Properties.TableName')[0]!.message).toContain('!GetAtt Naming.Name');
  });

  it('warns about a tag that is no intrinsic function and reads its value as untagged', () => {
    const result = fromCloudFormation(yamlTable('!Custom Orders'));
    expect(tableOf(result).name).toBe('Orders');
    const warnings = notesOf(result).filter((n) => n.kind === 'warning' && n.path === '');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('"!Custom"');
  });

  it('accepts the long forms in YAML, as in JSON', () => {
    const parameters = 'Parameters:\n  Env: { Type: String, Default: qa }';
    expect(tableOf(fromCloudFormation(yamlTable('\n        Fn::Sub: "${Env}-orders"', '', parameters))).name).toBe('qa-orders');
  });
});

// ---------------------------------------------------------------------------------------------
// Table settings
// ---------------------------------------------------------------------------------------------

describe('table settings and what a design does not hold', () => {
  it('gives a provisioned GSI without ProvisionedThroughput the table capacity, with a note', () => {
    const result = withProps((p) => {
      p.BillingMode = 'PROVISIONED';
      p.ProvisionedThroughput = { ReadCapacityUnits: 8, WriteCapacityUnits: 3 };
      p.AttributeDefinitions.push({ AttributeName: 'status', AttributeType: 'S' });
      p.GlobalSecondaryIndexes = [{ IndexName: 'ByStatus', KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }];
    });
    expect(tableOf(result).globalSecondaryIndexes[0]!.provisioned).toEqual({ readCapacityUnits: 8, writeCapacityUnits: 3 });
    expect(noteAt(result, 'Resources.Orders.Properties.GlobalSecondaryIndexes[0]')[0]).toMatchObject({ kind: 'inferred' });
  });

  it('drops a condition, an S3 import, a resource policy, GSI Contributor Insights and stream policies, each at its path', () => {
    const t = minimal();
    const orders = t.Resources.Orders;
    orders.Condition = 'IsProd';
    orders.DeletionPolicy = 'Snapshot';
    const p = orders.Properties;
    p.ImportSourceSpecification = { InputFormat: 'CSV', S3BucketSource: { S3Bucket: 'seed' } };
    p.ResourcePolicy = { PolicyDocument: {} };
    p.StreamSpecification = { StreamViewType: 'KEYS_ONLY', ResourcePolicy: { PolicyDocument: {} } };
    p.AttributeDefinitions.push({ AttributeName: 'status', AttributeType: 'S' });
    p.GlobalSecondaryIndexes = [{ IndexName: 'ByStatus', KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' }, ContributorInsightsSpecification: { Enabled: true } }];
    const result = fromJson(t);
    const dropped = notesOf(result).filter((n) => n.kind === 'dropped').map((n) => n.path);
    expect(dropped).toEqual([
      'Resources.Orders.Condition',
      'Resources.Orders.DeletionPolicy',
      'Resources.Orders.Properties.GlobalSecondaryIndexes[0].ContributorInsightsSpecification',
      'Resources.Orders.Properties.ImportSourceSpecification',
      'Resources.Orders.Properties.ResourcePolicy',
      'Resources.Orders.Properties.StreamSpecification.ResourcePolicy',
      'Resources.Orders',
    ]);
    expect(tableOf(result).stream).toBe('KEYS_ONLY');
  });

  it('warns about an unknown property and skips it', () => {
    const result = withProps((p) => (p.BillingMod = 'PROVISIONED'));
    expect(noteAt(result, 'Resources.Orders.Properties.BillingMod')).toEqual([expect.objectContaining({ kind: 'warning' })]);
    expect(tableOf(result).billing).toEqual({ mode: 'ON_DEMAND' });
  });

  it('warns about an attribute definition no key uses', () => {
    const result = withProps((p) => p.AttributeDefinitions.push({ AttributeName: 'email', AttributeType: 'S' }));
    expect(noteAt(result, 'Resources.Orders.Properties.AttributeDefinitions[2]')).toEqual([expect.objectContaining({ kind: 'warning' })]);
  });

  it('reads -1 as no on-demand maximum', () => {
    const table = tableOf(withProps((p) => (p.OnDemandThroughput = { MaxReadRequestUnits: -1, MaxWriteRequestUnits: 300 })));
    expect(table.onDemandThroughput).toEqual({ maxWriteRequestUnits: 300 });
  });

  it('reads SSEEnabled true without a key as the AWS managed KMS key', () => {
    expect(tableOf(withProps((p) => (p.SSESpecification = { SSEEnabled: true }))).encryption).toEqual({ type: 'KMS' });
  });

  it('drops a Contributor Insights mode while it is off', () => {
    const result = withProps((p) => (p.ContributorInsightsSpecification = { Enabled: false, Mode: 'THROTTLED_KEYS' }));
    expect(tableOf(result).contributorInsights).toEqual({ enabled: false });
    expect(noteAt(result, 'Resources.Orders.Properties.ContributorInsightsSpecification.Mode')[0]!.kind).toBe('dropped');
  });

  it('keeps no TTL when it is disabled', () => {
    expect(tableOf(withProps((p) => (p.TimeToLiveSpecification = { AttributeName: 'expiresAt', Enabled: false }))).ttlAttribute).toBeUndefined();
  });

  it('drops on-demand maximums on a provisioned table', () => {
    const result = withProps((p) => {
      p.BillingMode = 'PROVISIONED';
      p.ProvisionedThroughput = { ReadCapacityUnits: 1, WriteCapacityUnits: 1 };
      p.OnDemandThroughput = { MaxReadRequestUnits: 100 };
    });
    expect(tableOf(result).onDemandThroughput).toBeUndefined();
    expect(noteAt(result, 'Resources.Orders.Properties.OnDemandThroughput')[0]!.kind).toBe('dropped');
  });

  it('names a table after its logical id without clashing with a name the template writes', () => {
    const t = minimal();
    t.Resources.Orders.Properties.TableName = 'Sessions';
    t.Resources.Sessions = structuredClone(t.Resources.Orders);
    delete t.Resources.Sessions.Properties.TableName;
    expect(imported(fromJson(t)).design.tables.map((x) => x.name)).toEqual(['Sessions', 'Sessions-2']);
  });
});

// ---------------------------------------------------------------------------------------------
// Auto scaling resources
// ---------------------------------------------------------------------------------------------

describe('auto scaling resources', () => {
  it('reads a table target named by its literal table name', () => {
    const text = provisionedYaml(`${target('WriteTarget', 'table/Orders', 'dynamodb:table:WriteCapacityUnits', 5, 25)}${policy('WritePolicy', 'WriteTarget', 40, 'DynamoDBWriteCapacityUtilization')}`);
    expect(tableOf(fromCloudFormation(text)).billing).toEqual({
      mode: 'PROVISIONED',
      readCapacityUnits: 10,
      writeCapacityUnits: 5,
      autoScaling: { write: { minCapacity: 5, maxCapacity: 25, targetUtilizationPercent: 40 } },
    });
  });

  it('reads a GSI target named through !Sub', () => {
    const text = provisionedYaml(`${target('GsiRead', '!Sub table/${OrdersTable}/index/ByStatus', 'dynamodb:index:ReadCapacityUnits', 2, 30)}${policy('GsiReadPolicy', 'GsiRead', 55.5, 'DynamoDBReadCapacityUtilization')}`);
    expect(tableOf(fromCloudFormation(text)).globalSecondaryIndexes[0]!.provisioned).toEqual({
      readCapacityUnits: 4,
      writeCapacityUnits: 2,
      autoScaling: { read: { minCapacity: 2, maxCapacity: 30, targetUtilizationPercent: 55.5 } },
    });
  });

  it('drops a target without a policy, with a note at the target', () => {
    const result = fromCloudFormation(provisionedYaml(target('Lonely', 'table/Orders', 'dynamodb:table:ReadCapacityUnits', 1, 9)));
    expect(tableOf(result).billing).toEqual({ mode: 'PROVISIONED', readCapacityUnits: 10, writeCapacityUnits: 5 });
    const [note] = noteAt(result, 'Resources.Lonely');
    expect(note!.kind).toBe('dropped');
    expect(note!.message).toMatch(/between 1 and 9.*no target tracking scaling policy/);
  });

  it('drops a step scaling policy', () => {
    const text = provisionedYaml(`${target('ReadTarget', 'table/Orders', 'dynamodb:table:ReadCapacityUnits', 1, 9)}
  StepPolicy:
    Type: AWS::ApplicationAutoScaling::ScalingPolicy
    Properties:
      PolicyName: step
      PolicyType: StepScaling
      ScalingTargetId: !Ref ReadTarget
      StepScalingPolicyConfiguration:
        AdjustmentType: ChangeInCapacity
        StepAdjustments: [{ MetricIntervalLowerBound: 0, ScalingAdjustment: 2 }]`);
    const result = fromCloudFormation(text);
    expect(tableOf(result).billing.mode === 'PROVISIONED' && tableOf(result).billing).not.toHaveProperty('autoScaling');
    expect(noteAt(result, 'Resources.StepPolicy.Properties.PolicyType')[0]).toMatchObject({ kind: 'dropped' });
  });

  it('skips a target that names no table of the template, with a note at its ResourceId', () => {
    const text = provisionedYaml(`${target('Elsewhere', 'table/Invoices', 'dynamodb:table:ReadCapacityUnits', 1, 9)}${policy('ElsewherePolicy', 'Elsewhere', 70, 'DynamoDBReadCapacityUtilization')}`);
    const result = fromCloudFormation(text);
    const [note] = noteAt(result, 'Resources.Elsewhere.Properties.ResourceId');
    expect(note!.kind).toBe('warning');
    expect(note!.message).toContain('"table/Invoices"');
    expect(tableOf(result).billing).not.toHaveProperty('autoScaling');
  });

  it('skips a target that names an index the table does not have', () => {
    const text = provisionedYaml(`${target('NoIndex', 'table/Orders/index/ByDate', 'dynamodb:index:ReadCapacityUnits', 1, 9)}${policy('NoIndexPolicy', 'NoIndex', 70, 'DynamoDBReadCapacityUtilization')}`);
    expect(noteAt(fromCloudFormation(text), 'Resources.NoIndex.Properties.ResourceId')[0]!.message).toContain('"ByDate"');
  });

  it('skips a policy that tracks the other direction', () => {
    const text = provisionedYaml(`${target('ReadTarget', 'table/Orders', 'dynamodb:table:ReadCapacityUnits', 1, 9)}${policy('WrongMetric', 'ReadTarget', 70, 'DynamoDBWriteCapacityUtilization')}`);
    const result = fromCloudFormation(text);
    expect(noteAt(result, 'Resources.WrongMetric.Properties.TargetTrackingScalingPolicyConfiguration.PredefinedMetricSpecification.PredefinedMetricType')[0]!.kind).toBe('warning');
    expect(tableOf(result).billing).not.toHaveProperty('autoScaling');
  });

  it('drops auto scaling of an on-demand table', () => {
    const text = `
Resources:
  OrdersTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: Orders
      AttributeDefinitions: [{ AttributeName: PK, AttributeType: S }]
      KeySchema: [{ AttributeName: PK, KeyType: HASH }]
      BillingMode: PAY_PER_REQUEST
${target('ReadTarget', 'table/Orders', 'dynamodb:table:ReadCapacityUnits', 1, 9)}${policy('ReadPolicy', 'ReadTarget', 70, 'DynamoDBReadCapacityUtilization')}`;
    const result = fromCloudFormation(text);
    expect(tableOf(result).billing).toEqual({ mode: 'ON_DEMAND' });
    expect(noteAt(result, 'Resources.ReadTarget')[0]).toMatchObject({ kind: 'dropped' });
  });

  it('ignores scalable targets of other services', () => {
    const text = provisionedYaml(`
  EcsTarget:
    Type: AWS::ApplicationAutoScaling::ScalableTarget
    Properties:
      MinCapacity: 1
      MaxCapacity: 4
      ResourceId: service/cluster/web
      ScalableDimension: ecs:service:DesiredCount
      ServiceNamespace: ecs`);
    expect(notesOf(fromCloudFormation(text)).some((n) => n.path.startsWith('Resources.EcsTarget'))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Global tables
// ---------------------------------------------------------------------------------------------

describe('global tables', () => {
  const global = (billing: string, replicas: string, gsi = ''): string => `
Resources:
  Catalog:
    Type: AWS::DynamoDB::GlobalTable
    Properties:
      TableName: catalog
      AttributeDefinitions: [{ AttributeName: sku, AttributeType: S }${gsi ? ', { AttributeName: category, AttributeType: S }' : ''}]
      KeySchema: [{ AttributeName: sku, KeyType: HASH }]
${billing}${gsi}
      Replicas:
${replicas}`;

  it('reads on-demand maximums from the resource (writes) and the first replica (reads)', () => {
    const text = global(
      '      BillingMode: PAY_PER_REQUEST\n      WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: 800 }',
      '        - Region: us-east-1\n          ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 3000 }',
    );
    const table = tableOf(fromCloudFormation(text));
    expect(table.billing).toEqual({ mode: 'ON_DEMAND' });
    expect(table.onDemandThroughput).toEqual({ maxReadRequestUnits: 3000, maxWriteRequestUnits: 800 });
  });

  it('refuses a provisioned global table without WriteProvisionedThroughputSettings', () => {
    const text = global('      BillingMode: PROVISIONED', '        - Region: us-east-1\n          ReadProvisionedThroughputSettings: { ReadCapacityUnits: 5 }');
    expect(where(problems(fromCloudFormation(text)))).toEqual([{ code: 'cloudformation.schema', path: 'Resources.Catalog.Properties.WriteProvisionedThroughputSettings' }]);
  });

  it('reads a fixed replica read capacity and takes the minimum as the initial write capacity without SeedCapacity', () => {
    const text = global(
      '      WriteProvisionedThroughputSettings:\n        WriteCapacityAutoScalingSettings: { MinCapacity: 3, MaxCapacity: 30, TargetTrackingScalingPolicyConfiguration: { TargetValue: 50 } }',
      '        - Region: us-east-1\n          ReadProvisionedThroughputSettings: { ReadCapacityUnits: 7 }\n          KinesisStreamSpecification: { StreamArn: arn }',
    );
    const result = fromCloudFormation(text);
    expect(tableOf(result).billing).toEqual({
      mode: 'PROVISIONED',
      readCapacityUnits: 7,
      writeCapacityUnits: 3,
      autoScaling: { write: { minCapacity: 3, maxCapacity: 30, targetUtilizationPercent: 50 } },
    });
    expect(noteAt(result, 'Resources.Catalog.Properties.Replicas[0].KinesisStreamSpecification')[0]).toMatchObject({ kind: 'dropped' });
  });

  it("gives a GSI without replica read settings the table's read capacity, with a note", () => {
    const gsi = `
      GlobalSecondaryIndexes:
        - IndexName: ByCategory
          KeySchema: [{ AttributeName: category, KeyType: HASH }]
          Projection: { ProjectionType: ALL }
          WriteProvisionedThroughputSettings:
            WriteCapacityAutoScalingSettings: { MinCapacity: 1, MaxCapacity: 10, SeedCapacity: 4, TargetTrackingScalingPolicyConfiguration: { TargetValue: 70 } }`;
    const text = global(
      '      WriteProvisionedThroughputSettings:\n        WriteCapacityAutoScalingSettings: { MinCapacity: 3, MaxCapacity: 30, SeedCapacity: 6, TargetTrackingScalingPolicyConfiguration: { TargetValue: 50 } }',
      '        - Region: us-east-1\n          ReadProvisionedThroughputSettings: { ReadCapacityUnits: 7 }',
      gsi,
    );
    const result = fromCloudFormation(text);
    expect(tableOf(result).globalSecondaryIndexes[0]!.provisioned).toEqual({
      readCapacityUnits: 7,
      writeCapacityUnits: 4,
      autoScaling: { write: { minCapacity: 1, maxCapacity: 10, targetUtilizationPercent: 70 } },
    });
    expect(noteAt(result, 'Resources.Catalog.Properties.GlobalSecondaryIndexes[0]')[0]).toMatchObject({ kind: 'inferred' });
  });

  it('says nothing of replicas that differ from the first only in Region', () => {
    const replica = (region: string) => `        - Region: ${region}\n          ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 100 }`;
    const result = fromCloudFormation(global('      BillingMode: PAY_PER_REQUEST\n      StreamSpecification: { StreamViewType: NEW_AND_OLD_IMAGES }', `${replica('us-east-1')}\n${replica('us-west-2')}`));
    const [note] = noteAt(result, 'Resources.Catalog.Properties.Replicas[1]');
    expect(note!.message).toContain('us-west-2');
    expect(note!.message).not.toContain('differs');
  });
});

// ---------------------------------------------------------------------------------------------
// Throughput and settings the table and global table readers share
// ---------------------------------------------------------------------------------------------

describe('global table throughput and settings', () => {
  /** A global table `Catalog` (sku; GSIs ByCategory and ByBrand) with `body` under its Properties. */
  const catalog = (body: string): string => `
Parameters:
  WriteTarget: { Type: Number, Default: 65 }
Resources:
  Catalog:
    Type: AWS::DynamoDB::GlobalTable
    Properties:
      TableName: catalog
      AttributeDefinitions:
        - { AttributeName: sku, AttributeType: S }
        - { AttributeName: category, AttributeType: S }
        - { AttributeName: brand, AttributeType: S }
      KeySchema: [{ AttributeName: sku, KeyType: HASH }]
${body}`;
  const P = 'Resources.Catalog.Properties';

  it("reads a GSI's on-demand maximums from the first replica's entry for it (reads) or its own settings", () => {
    const text = catalog(`      BillingMode: PAY_PER_REQUEST
      GlobalSecondaryIndexes:
        - IndexName: ByCategory
          KeySchema: [{ AttributeName: category, KeyType: HASH }]
          Projection: { ProjectionType: ALL }
          WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: 300 }
        - IndexName: ByBrand
          KeySchema: [{ AttributeName: brand, KeyType: HASH }]
          Projection: { ProjectionType: KEYS_ONLY }
          ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 700 }
      Replicas:
        - Region: us-east-1
          GlobalSecondaryIndexes:
            - IndexName: ByCategory
              ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 900 }`);
    const [byCategory, byBrand] = tableOf(fromCloudFormation(text)).globalSecondaryIndexes;
    expect(byCategory!.onDemandThroughput).toEqual({ maxReadRequestUnits: 900, maxWriteRequestUnits: 300 });
    expect(byBrand!.onDemandThroughput).toEqual({ maxReadRequestUnits: 700 });
  });

  it("reads read capacity from the resource when the first replica sets none, and gives a GSI without write settings the table's initial WCU", () => {
    const text = catalog(`      BillingMode: PROVISIONED
      WriteProvisionedThroughputSettings:
        WriteCapacityAutoScalingSettings: { MinCapacity: 4, MaxCapacity: 40, SeedCapacity: 8, TargetTrackingScalingPolicyConfiguration: { TargetValue: !Ref WriteTarget } }
      ReadProvisionedThroughputSettings: { ReadCapacityUnits: 12 }
      GlobalSecondaryIndexes:
        - IndexName: ByCategory
          KeySchema: [{ AttributeName: category, KeyType: HASH }]
          Projection: { ProjectionType: ALL }
          ReadProvisionedThroughputSettings: { ReadCapacityUnits: 6 }
      Replicas:
        - Region: us-east-1`);
    const result = fromCloudFormation(text);
    const table = tableOf(result);
    // Reads: the resource's 12 RCU; writes: SeedCapacity 8, scaling 4–40 at the Default of WriteTarget, 65 %.
    expect(table.billing).toEqual({ mode: 'PROVISIONED', readCapacityUnits: 12, writeCapacityUnits: 8, autoScaling: { write: { minCapacity: 4, maxCapacity: 40, targetUtilizationPercent: 65 } } });
    // The GSI reads its own 6 RCU and writes the table's initial 8 WCU, without auto scaling.
    expect(table.globalSecondaryIndexes[0]!.provisioned).toEqual({ readCapacityUnits: 6, writeCapacityUnits: 8 });
    const [note] = noteAt(result, `${P}.GlobalSecondaryIndexes[0]`);
    expect(note).toMatchObject({ kind: 'inferred', message: expect.stringContaining('8 WCU') });
  });

  it('refuses a write target utilization known only at deployment', () => {
    const text = catalog(`      WriteProvisionedThroughputSettings:
        WriteCapacityAutoScalingSettings: { MinCapacity: 4, MaxCapacity: 40, TargetTrackingScalingPolicyConfiguration: { TargetValue: !ImportValue shared-target } }
      Replicas:
        - Region: us-east-1
          ReadProvisionedThroughputSettings: { ReadCapacityUnits: 5 }`);
    expect(where(problems(fromCloudFormation(text)))).toEqual([
      { code: 'cloudformation.unresolved', path: `${P}.WriteProvisionedThroughputSettings.WriteCapacityAutoScalingSettings.TargetTrackingScalingPolicyConfiguration.TargetValue` },
    ]);
  });

  it('skips the throughput settings of the other billing mode, on the resource, the first replica and a GSI', () => {
    const provisioned = catalog(`      WriteProvisionedThroughputSettings:
        WriteCapacityAutoScalingSettings: { MinCapacity: 4, MaxCapacity: 40, TargetTrackingScalingPolicyConfiguration: { TargetValue: 50 } }
      ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 100 }
      GlobalSecondaryIndexes:
        - IndexName: ByCategory
          KeySchema: [{ AttributeName: category, KeyType: HASH }]
          Projection: { ProjectionType: ALL }
          WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: 100 }
      Replicas:
        - Region: us-east-1
          ReadProvisionedThroughputSettings: { ReadCapacityUnits: 5 }
          ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 100 }`);
    const result = fromCloudFormation(provisioned);
    const skipped = (r: ImportResult) => notesOf(r).filter((n) => n.kind === 'warning' && n.path.endsWith('ThroughputSettings')).map((n) => n.path);
    expect(skipped(result)).toEqual([
      `${P}.ReadOnDemandThroughputSettings`,
      `${P}.Replicas[0].ReadOnDemandThroughputSettings`,
      `${P}.GlobalSecondaryIndexes[0].WriteOnDemandThroughputSettings`,
    ]);
    expect(tableOf(result).onDemandThroughput).toBeUndefined();
    const onDemand = catalog(`      BillingMode: PAY_PER_REQUEST
      WriteProvisionedThroughputSettings:
        WriteCapacityAutoScalingSettings: { MinCapacity: 4, MaxCapacity: 40, TargetTrackingScalingPolicyConfiguration: { TargetValue: 50 } }
      Replicas:
        - Region: us-east-1`);
    const again = fromCloudFormation(onDemand);
    expect(skipped(again)).toEqual([`${P}.WriteProvisionedThroughputSettings`]);
    expect(tableOf(again).billing).toEqual({ mode: 'ON_DEMAND' });
  });

  it("drops a replica GSI's Contributor Insights and skips replica settings for a GSI the table does not define", () => {
    const text = catalog(`      BillingMode: PAY_PER_REQUEST
      GlobalSecondaryIndexes:
        - IndexName: ByCategory
          KeySchema: [{ AttributeName: category, KeyType: HASH }]
          Projection: { ProjectionType: ALL }
      Replicas:
        - Region: us-east-1
          GlobalSecondaryIndexes:
            - IndexName: ByCategory
              ContributorInsightsSpecification: { Enabled: true }
            - IndexName: ByColour
              ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 10 }`);
    const result = fromCloudFormation(text);
    expect(noteAt(result, `${P}.Replicas[0].GlobalSecondaryIndexes[0].ContributorInsightsSpecification`)).toEqual([expect.objectContaining({ kind: 'dropped', message: expect.stringContaining('"ByCategory"') })]);
    expect(noteAt(result, `${P}.Replicas[0].GlobalSecondaryIndexes[1]`)).toEqual([expect.objectContaining({ kind: 'warning', message: expect.stringContaining('"ByColour"') })]);
  });

  it('reads SSEType AES256 as the key DynamoDB owns, and skips a replica key without SSESpecification on the resource', () => {
    const replicas = `      BillingMode: PAY_PER_REQUEST
      Replicas:
        - Region: us-east-1
          SSESpecification: { KMSMasterKeyId: alias/catalog }`;
    expect(tableOf(fromCloudFormation(catalog(`      SSESpecification: { SSEEnabled: true, SSEType: AES256 }\n${replicas}`))).encryption).toEqual({ type: 'AWS_OWNED' });
    const without = fromCloudFormation(catalog(replicas));
    expect(tableOf(without).encryption).toBeUndefined();
    expect(noteAt(without, `${P}.Replicas[0].SSESpecification`)).toEqual([expect.objectContaining({ kind: 'warning' })]);
    // With SSEEnabled on, the replica's key is the table's.
    expect(tableOf(fromCloudFormation(catalog(`      SSESpecification: { SSEEnabled: true, SSEType: KMS }\n${replicas}`))).encryption).toEqual({ type: 'KMS', kmsKeyId: 'alias/catalog' });
  });

  it("reads the first replica's table class, recovery, deletion protection, tags and Contributor Insights", () => {
    const text = catalog(`      BillingMode: PAY_PER_REQUEST
      Replicas:
        - Region: us-east-1
          TableClass: STANDARD_INFREQUENT_ACCESS
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7 }
          DeletionProtectionEnabled: "true"
          Tags: [{ Key: team, Value: catalog }]
          ContributorInsightsSpecification: { Enabled: true, Mode: THROTTLED_KEYS }`);
    expect(tableOf(fromCloudFormation(text))).toMatchObject({
      tableClass: 'STANDARD_INFREQUENT_ACCESS',
      pointInTimeRecovery: { enabled: true, recoveryPeriodInDays: 7 },
      deletionProtection: true,
      tags: { team: 'catalog' },
      contributorInsights: { enabled: true, mode: 'THROTTLED_KEYS' },
    });
  });
});

describe('table throughput and settings', () => {
  const P = 'Resources.Orders.Properties';
  const withGsi = (p: Json, gsi: Json = {}): void => {
    p.AttributeDefinitions.push({ AttributeName: 'status', AttributeType: 'S' });
    p.GlobalSecondaryIndexes = [{ IndexName: 'ByStatus', KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' }, ...gsi }];
  };

  it('skips capacity on an on-demand table and its GSI, unless it is zero', () => {
    const result = withProps((p) => {
      p.ProvisionedThroughput = { ReadCapacityUnits: 5, WriteCapacityUnits: 5 };
      withGsi(p, { ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 0 } });
    });
    expect(notesOf(result).filter((n) => n.kind === 'warning').map((n) => n.path)).toEqual([`${P}.ProvisionedThroughput`, `${P}.GlobalSecondaryIndexes[0].ProvisionedThroughput`]);
    expect(tableOf(result).globalSecondaryIndexes[0]!.provisioned).toBeUndefined();
    const zero = withProps((p) => {
      p.ProvisionedThroughput = { ReadCapacityUnits: 0, WriteCapacityUnits: 0 };
      withGsi(p, { ProvisionedThroughput: { ReadCapacityUnits: 0, WriteCapacityUnits: 0 } });
    });
    expect(notesOf(zero).filter((n) => n.kind === 'warning')).toEqual([]);
  });

  it("reads a provisioned GSI's own capacity, and drops on-demand maximums on it", () => {
    const result = withProps((p) => {
      p.BillingMode = 'PROVISIONED';
      p.ProvisionedThroughput = { ReadCapacityUnits: 8, WriteCapacityUnits: 3 };
      withGsi(p, { ProvisionedThroughput: { ReadCapacityUnits: 2, WriteCapacityUnits: 1 }, OnDemandThroughput: { MaxReadRequestUnits: 50 } });
    });
    const gsi = tableOf(result).globalSecondaryIndexes[0]!;
    expect(gsi.provisioned).toEqual({ readCapacityUnits: 2, writeCapacityUnits: 1 });
    expect(gsi.onDemandThroughput).toBeUndefined();
    expect(noteAt(result, `${P}.GlobalSecondaryIndexes[0].OnDemandThroughput`)).toEqual([expect.objectContaining({ kind: 'dropped' })]);
  });

  it('reads on-demand maximums and warm throughput on a GSI of an on-demand table', () => {
    const gsi = tableOf(withProps((p) => withGsi(p, { OnDemandThroughput: { MaxWriteRequestUnits: 40 }, WarmThroughput: { WriteUnitsPerSecond: 4500 } }))).globalSecondaryIndexes[0]!;
    expect(gsi.onDemandThroughput).toEqual({ maxWriteRequestUnits: 40 });
    expect(gsi.warmThroughput).toEqual({ writeUnitsPerSecond: 4500 });
  });

  it('keeps the first of two tags with the same key, and skips a tag without a value', () => {
    const result = withProps((p) => (p.Tags = [{ Key: 'team', Value: 'a' }, { Key: 'team', Value: 'b' }, { Key: 'cost' }]));
    expect(tableOf(result).tags).toEqual({ team: 'a' });
    expect(notesOf(result).filter((n) => n.kind === 'warning').map((n) => n.path)).toEqual([`${P}.Tags[1]`, `${P}.Tags[2]`]);
  });

  it('keeps no TTL when it is enabled without an attribute name', () => {
    const result = withProps((p) => (p.TimeToLiveSpecification = { Enabled: true }));
    expect(tableOf(result).ttlAttribute).toBeUndefined();
    expect(noteAt(result, `${P}.TimeToLiveSpecification`)).toEqual([expect.objectContaining({ kind: 'warning' })]);
  });

  it('skips NonKeyAttributes on a projection that is not INCLUDE', () => {
    const result = withProps((p) => withGsi(p, { Projection: { ProjectionType: 'KEYS_ONLY', NonKeyAttributes: ['total'] } }));
    expect(tableOf(result).globalSecondaryIndexes[0]!.projection).toEqual({ type: 'KEYS_ONLY' });
    expect(noteAt(result, `${P}.GlobalSecondaryIndexes[0].Projection.NonKeyAttributes`)).toEqual([expect.objectContaining({ kind: 'warning' })]);
  });

  it('reads the key DynamoDB owns when SSEEnabled is off, with a warning about a KMS key named anyway', () => {
    const result = withProps((p) => (p.SSESpecification = { SSEEnabled: false, KMSMasterKeyId: 'alias/orders' }));
    expect(tableOf(result).encryption).toEqual({ type: 'AWS_OWNED' });
    expect(noteAt(result, `${P}.SSESpecification`)).toEqual([expect.objectContaining({ kind: 'warning' })]);
  });
});

describe('refusals of list items that are not what a table needs', () => {
  const P = 'Resources.Orders.Properties';

  it.each([
    ['an attribute definition that is text', (p: Json) => (p.AttributeDefinitions[1] = 'SK'), [{ code: 'cloudformation.schema', path: `${P}.AttributeDefinitions[1]` }, { code: 'cloudformation.attributeDefinition', path: `${P}.KeySchema[1].AttributeName` }]],
    ['a key schema element that is a number', (p: Json) => (p.KeySchema[0] = 5), [{ code: 'cloudformation.schema', path: `${P}.KeySchema[0]` }]],
    ['a GSI that is text', (p: Json) => (p.GlobalSecondaryIndexes = ['ByStatus']), [{ code: 'cloudformation.schema', path: `${P}.GlobalSecondaryIndexes[0]` }]],
    ['an LSI known only at deployment', (p: Json) => (p.LocalSecondaryIndexes = [{ 'Fn::ImportValue': 'shared-lsi' }]), [{ code: 'cloudformation.unresolved', path: `${P}.LocalSecondaryIndexes[0]` }]],
    [
      'an INCLUDE attribute that is an object',
      (p: Json) => {
        p.AttributeDefinitions.push({ AttributeName: 'status', AttributeType: 'S' });
        p.GlobalSecondaryIndexes = [{ IndexName: 'ByStatus', KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }], Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['total', { name: 'x' }] } }];
      },
      [{ code: 'cloudformation.schema', path: `${P}.GlobalSecondaryIndexes[0].Projection.NonKeyAttributes[1]` }],
    ],
  ])('refuses %s, at the item', (_, edit, expected) => {
    expect(where(problems(withProps(edit)))).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// Recognizing a template (../import.ts)
// ---------------------------------------------------------------------------------------------

describe('recognizing a CloudFormation template among the formats Keyplan imports', () => {
  const otherFixture = (path: string): string => readFileSync(resolve(FIXTURES, '..', path), 'utf8');

  it('recognizes the fixtures, in YAML and JSON', () => {
    expect(detectImportFormat(fixture('orders-service.yaml'))).toBe('cloudformation');
    expect(detectImportFormat(fixture('inventory.json'))).toBe('cloudformation');
  });

  it.each([
    ['a YAML list of links', 'Resources:\n  - name: handbook\n    url: https://example.com/handbook\n'],
    ['YAML container limits', 'Resources:\n  cpu: 2\n  memory: 4Gi\n'],
    ['a YAML map of entries without a Type', 'Resources:\n  Orders:\n    owner: sales\n'],
    ['YAML whose resources have a Type that is no resource type', 'Resources:\n  Orders:\n    Type: table\n'],
  ])('does not take %s, with Resources at column 0, for a template', (_, text) => {
    expect(detectImportFormat(text)).toBeUndefined();
  });

  it('does not take a JSON object with a Resources key that holds no resource for a template', () => {
    expect(detectJsonFormat({ Resources: { cpu: 2 } })).toBeUndefined();
    expect(detectImportFormat('{"Resources": []}')).toBeUndefined();
  });

  it('recognizes a template by AWSTemplateFormatVersion, or by a resource with a resource type', () => {
    expect(detectImportFormat('AWSTemplateFormatVersion: "2010-09-09"\nDescription: nothing yet\n')).toBe('cloudformation');
    expect(detectImportFormat('Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n')).toBe('cloudformation');
    expect(detectImportFormat('Transform: AWS::Serverless-2016-10-31\nResources:\n  Handler:\n    Type: AWS::Serverless::Function\n')).toBe('cloudformation');
    expect(detectImportFormat('Resources:\n  Seed:\n    Type: Custom::SeedItems\n    Properties: { ServiceToken: arn }\n')).toBe('cloudformation');
    expect(detectJsonFormat({ Resources: { Queue: { Type: 'AWS::SQS::Queue' } } })).toBe('cloudformation');
  });

  it('says that a template without a DynamoDB table has none', () => {
    const text = 'Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n';
    const result = importText('cloudformation', text);
    expect(problems(result)).toEqual([expect.objectContaining({ code: 'cloudformation.noTable', path: 'Resources' })]);
    expect(problems(result)[0]!.message).toMatch(/^The template has no DynamoDB table to import/);
  });

  it('takes a YAML template that does not parse for a template, so its syntax error is said with its line', () => {
    const text = 'Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties: {\n';
    expect(detectImportFormat(text)).toBe('cloudformation');
    expect(problems(importText('cloudformation', text))[0]!.code).toBe('cloudformation.syntax');
  });

  it('still tells the other formats apart', () => {
    expect(detectImportFormat(otherFixture('onetable/project-tracker.json'))).toBe('onetable');
    expect(detectImportFormat(otherFixture('nosql-workbench/FlightFares.json'))).toBe('nosql-workbench');
    expect(detectImportFormat(otherFixture('describe-table/shop-orders.describe-table.json'))).toBe('describe-table');
    expect(detectImportFormat('{"formatVersion": 1, "tables": []}')).toBe('keyplan');
    // OneTable schemas are read as JSON only: the same schema in YAML is no format Keyplan reads.
    expect(detectImportFormat('format: onetable:1.1.0\nindexes: {}\nmodels: {}\n')).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// How notes are worded
// ---------------------------------------------------------------------------------------------

describe('note wording', () => {
  /** Templates that between them give a note of every kind the importer writes at a path. */
  const noteRich = (): ImportResult[] => [
    fromCloudFormation(fixture('orders-service.yaml')),
    fromCloudFormation(fixture('inventory.json')),
    withProps((p) => {
      p.BillingMod = 'PROVISIONED';
      p.TableClass = { 'Fn::ImportValue': 'shared-class' };
      p.DeletionProtectionEnabled = 'maybe';
      p.Tags = [{ Key: 'team', Value: 'a' }, { Key: 'team', Value: 'b' }, { Key: 'cost' }, 'x', { 'Fn::ImportValue': 'tag' }];
      p.TimeToLiveSpecification = { Enabled: true };
      p.SSESpecification = { SSEEnabled: false, KMSMasterKeyId: 'alias/orders' };
      p.ContributorInsightsSpecification = { Enabled: false, Mode: 'THROTTLED_KEYS' };
      p.StreamSpecification = { StreamViewType: 'KEYS_ONLY', ResourcePolicy: {} };
      p.PointInTimeRecoverySpecification = 'on';
      p.ProvisionedThroughput = { ReadCapacityUnits: 5, WriteCapacityUnits: 5 };
      p.AttributeDefinitions.push({ AttributeName: 'status', AttributeType: 'S' }, { AttributeName: 'PK', AttributeType: 'S' }, { AttributeName: 'email', AttributeType: 'S' });
      p.KeySchema.reverse();
      p.GlobalSecondaryIndexes = [
        {
          IndexName: 'ByStatus',
          KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL', NonKeyAttributes: ['total'] },
          ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
          ContributorInsightsSpecification: { Enabled: true },
        },
      ];
      p.OnDemandThroughput = { MaxReadRequestUnits: 'lots' };
    }),
    withProps((p) => {
      p.TableName = 5.5;
      p.SSESpecification = { SSEEnabled: true, SSEType: 'AES256' };
      p.BillingMode = 'PROVISIONED';
      p.ProvisionedThroughput = { ReadCapacityUnits: 1, WriteCapacityUnits: 1 };
      p.OnDemandThroughput = { MaxReadRequestUnits: 5 };
      p.DeletionProtectionEnabled = { 'Fn::If': ['IsProd', { Ref: 'AWS::NoValue' }, true] };
    }),
    fromCloudFormation(
      provisionedYaml(
        [
          target('BadDimension', 'table/Orders', 'dynamodb:table:Bogus', 1, 9),
          target('Unknown', '!ImportValue shared-id', 'dynamodb:table:ReadCapacityUnits', 1, 9),
          target('Elsewhere', 'table/Invoices', 'dynamodb:table:ReadCapacityUnits', 1, 9),
          target('Mismatch', 'table/Orders', 'dynamodb:index:ReadCapacityUnits', 1, 9),
          target('NoIndex', 'table/Orders/index/ByDate', 'dynamodb:index:ReadCapacityUnits', 1, 9),
          target('Joined', '!Join ["/", [table, !Ref OrdersTable]]', 'dynamodb:table:WriteCapacityUnits', 1, 9),
          policy('NoValue', 'Joined', 70, 'DynamoDBWriteCapacityUtilization').replace('        TargetValue: 70\n', ''),
        ].join(''),
      ),
    ),
    fromCloudFormation(`
Resources:
  Catalog:
    Type: AWS::DynamoDB::GlobalTable
    Properties:
      TableName: catalog
      AttributeDefinitions: [{ AttributeName: sku, AttributeType: S }, { AttributeName: category, AttributeType: S }]
      KeySchema: [{ AttributeName: sku, KeyType: HASH }]
      ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 100 }
      WriteProvisionedThroughputSettings:
        WriteCapacityAutoScalingSettings: { MinCapacity: 4, MaxCapacity: 40, TargetTrackingScalingPolicyConfiguration: { TargetValue: 50, ScaleInCooldown: 60 } }
      GlobalSecondaryIndexes:
        - IndexName: ByCategory
          KeySchema: [{ AttributeName: category, KeyType: HASH }]
          Projection: { ProjectionType: ALL }
      Replicas:
        - Region: us-east-1
          SSESpecification: { KMSMasterKeyId: alias/catalog }
          ReadProvisionedThroughputSettings: { ReadCapacityUnits: 5 }
          GlobalSecondaryIndexes:
            - IndexName: ByCategory
              ContributorInsightsSpecification: { Enabled: true }
            - IndexName: ByColour
              ReadProvisionedThroughputSettings: { ReadCapacityUnits: 1 }
        - 5
`),
  ];

  it('does not repeat in its text the path it carries (the CLI and the import dialog show the path beside it)', () => {
    const notes = noteRich().flatMap((result) => notesOf(result));
    // Every path-carrying kind of note the importer writes is here: 30 and more of them.
    expect(notes.filter((n) => n.path !== '').length).toBeGreaterThan(30);
    for (const note of notes) {
      if (note.path !== '') expect(note.message, `${note.kind} at ${note.path}`).not.toContain(note.path);
    }
  });

  it('names the field it is about, as its template key', () => {
    const result = withProps((p) => {
      p.BillingMod = 'PROVISIONED';
      p.TableClass = { 'Fn::ImportValue': 'shared-class' };
    });
    expect(noteAt(result, 'Resources.Orders.Properties.BillingMod')[0]!.message).toBe('BillingMod is not a property of AWS::DynamoDB::Table; it was skipped.');
    expect(noteAt(result, 'Resources.Orders.Properties.TableClass')[0]!.message).toMatch(/^TableClass is \{"Fn::ImportValue": "shared-class"\}, which the template does not decide/);
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile input
// ---------------------------------------------------------------------------------------------

describe('hostile input', () => {
  it('refuses YAML nested more than 100 deep, at the 101st level, instead of overflowing the stack', () => {
    // "Resources: " is 11 characters: the 101st "[" is at column 112.
    for (const text of [`Resources: ${'['.repeat(2000)}${']'.repeat(2000)}`, `Resources: ${'['.repeat(2000)}`]) {
      expect(problems(fromCloudFormation(text))[0]).toMatchObject({ code: 'cloudformation.syntax', details: { line: 1, column: 112 } });
    }
    expect(problems(fromCloudFormation(`Resources:\n${'- '.repeat(150)}x\n`))[0]!.code).toBe('cloudformation.syntax');
  });

  it('refuses JSON nested more than 100 deep at the path of its 101st level, as YAML is', () => {
    const [p] = problems(fromCloudFormation(`{"Resources": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`));
    // The root is level 1, Resources' list level 2: the 101st level is the 99th list inside it.
    expect(p).toMatchObject({ code: 'import.tooDeep', path: `Resources${'[0]'.repeat(99)}` });
    expect(p!.message).toMatch(/is nested deeper than 100 levels here/);
  });

  it('refuses a table property nested 100,000 deep (it overflowed the stack in Fn::If) with the path', () => {
    const depth = 100_000;
    const text = `{"AWSTemplateFormatVersion":"2010-09-09","Resources":{"T":{"Type":"AWS::DynamoDB::Table","Properties":{"TableName":${'{"Fn::If":'.repeat(depth / 2)}1${'}'.repeat(depth / 2)}}}}}`;
    expect(text.length).toBeLessThan(1024 * 1024);
    const [p] = problems(fromCloudFormation(text));
    // Levels: root, Resources, T, Properties, TableName's value (5), then 96 more "Fn::If" values.
    expect(p).toMatchObject({ code: 'import.tooDeep', path: `Resources.T.Properties.TableName${'["Fn::If"]'.repeat(96)}` });
  });

  it('refuses a YAML alias bomb before expanding it', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i += 1) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    lines.push('Resources: *j');
    expect(problems(fromCloudFormation(lines.join('\n')))[0]!.code).toBe('import.aliasExpansion');
  });

  it('refuses 99 aliases to a 1,000-index block (under the alias count) at the alias that goes past double the text', () => {
    const text = aliasBomb(99, 1000);
    const [p] = problems(fromCloudFormation(text));
    // Each alias repeats the block's values, less the alias itself: its list and 1,000 indexes of 14
    // values each (the index's map; IndexName's key and value; KeySchema's key, list, map and two
    // pairs' keys and values; Projection's key, map and its pair's key and value).
    const block = 1 + 1000 * 14;
    expect(p).toMatchObject({ code: 'import.aliasExpansion', path: '' });
    expect(p!.details).toMatchObject({ added: 99 * (block - 1) });
    const { written, allowed, line } = p!.details as { written: number; allowed: number; line: number };
    expect(allowed).toBe(written);
    // The n-th alias goes past when n × (block − 1) > written: the alias of table T<n − 1>.
    const n = Math.floor(written / (block - 1)) + 1;
    expect(text.split('\n')[line - 1]).toBe('      GlobalSecondaryIndexes: *blk');
    expect(text.split('\n').slice(0, line).filter((l) => l.endsWith('*blk'))).toHaveLength(n);
  });

  it('reads a template that reuses an index block through aliases (less than double its text)', () => {
    const result = fromCloudFormation(aliasBomb(3, 2));
    expect(result.ok).toBe(true);
    expect(imported(result).design.tables.map((t) => t.globalSecondaryIndexes.length)).toEqual([2, 2, 2]);
  });

  it('refuses a template larger than CloudFormation accepts (1 MB in Amazon S3) before parsing it', () => {
    const text = `AWSTemplateFormatVersion: "2010-09-09"\nDescription: "${'x'.repeat(1024 * 1024)}"\nResources: {}\n`;
    expect(problems(fromCloudFormation(text))[0]).toMatchObject({ code: 'import.tooLarge', path: '', details: { maxBytes: 1024 * 1024 } });
    // Characters of two UTF-8 bytes count twice: 600,000 of them are 1.2 MB.
    expect(problems(fromCloudFormation(`Description: "${'é'.repeat(600_000)}"\n`))[0]!.code).toBe('import.tooLarge');
  });

  it('reads a template whose YAML aliases make a cycle', () => {
    const text = `${provisionedYaml('')}
Metadata: &loop
  self: *loop`;
    expect(fromCloudFormation(text).ok).toBe(true);
  });

  it('keeps notes and problems short whatever the size of the keys they name', () => {
    const key = `Unknown${'x'.repeat(100_000)}`;
    const [note] = notesOf(withProps((p) => (p[key] = 1)));
    expect(note!.kind).toBe('warning');
    expect(note!.message.length).toBeLessThanOrEqual(2000);
    expect(note!.path.length).toBeLessThanOrEqual(1000);
    const [problem] = problems(withProps((p) => (p.KeySchema[0].AttributeName = key)));
    expect(problem!.message.length).toBeLessThanOrEqual(2000);
  });

  it('does not let __proto__ keys reach the prototype', () => {
    const result = withProps((p) => {
      p.Tags = [{ Key: '__proto__', Value: 'x' }];
    });
    expect(({} as Json).x).toBeUndefined();
    const table = tableOf(result);
    expect(Object.keys(table.tags!)).toEqual(['__proto__']);
    expect(parseDesign(JSON.parse(JSON.stringify(imported(result).design))).ok).toBe(true);
  });
});
