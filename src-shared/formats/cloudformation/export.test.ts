import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design } from '../../model/index.ts';
import { cloudFormationTemplate, toCloudFormation, toCloudFormationJson } from './export.ts';

const load = (path: string): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '..', path), 'utf8')) as Design;
const ecommerce = (): Design => load('../../examples/ecommerce.keyplan.json');
const allSettings = (): Design => load('__fixtures__/all-settings.keyplan.json');

type Props = Record<string, any>;
const propsOf = (design: Design, logicalId: string): Props => (cloudFormationTemplate(design).Resources as Props)[logicalId].Properties as Props;

describe('toCloudFormation', () => {
  it('defines exactly the key attributes of the table and every index, each once', () => {
    const props = propsOf(allSettings(), 'OrdersTable');
    expect(props.AttributeDefinitions.map((a: Props) => `${a.AttributeName}:${a.AttributeType}`)).toEqual(['PK:S', 'SK:S', 'status:S', 'total:N', 'customerId:S', 'placedAt:S']);
  });

  it('puts provisioned throughput on the table and every GSI, and none on an on-demand table', () => {
    const orders = propsOf(allSettings(), 'OrdersTable');
    expect(orders.BillingMode).toBe('PROVISIONED');
    expect(orders.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 10, WriteCapacityUnits: 5 });
    expect(orders.GlobalSecondaryIndexes.map((g: Props) => g.ProvisionedThroughput)).toEqual([
      { ReadCapacityUnits: 4, WriteCapacityUnits: 2 },
      { ReadCapacityUnits: 3, WriteCapacityUnits: 1 },
    ]);
    const shop = propsOf(ecommerce(), 'ShopTable');
    expect(shop.BillingMode).toBe('PAY_PER_REQUEST');
    expect(JSON.stringify(shop)).not.toContain('ProvisionedThroughput');
  });

  it("gives a provisioned table's GSI without its own throughput the table's", () => {
    const design = allSettings();
    delete design.tables[0]!.globalSecondaryIndexes[1]!.provisioned;
    expect(propsOf(design, 'OrdersTable').GlobalSecondaryIndexes[1].ProvisionedThroughput).toEqual({ ReadCapacityUnits: 10, WriteCapacityUnits: 5 });
  });

  it('lists NonKeyAttributes only for INCLUDE projections', () => {
    const props = propsOf(allSettings(), 'OrdersTable');
    expect(props.GlobalSecondaryIndexes.map((g: Props) => g.Projection)).toEqual([{ ProjectionType: 'INCLUDE', NonKeyAttributes: ['customerId', 'placedAt'] }, { ProjectionType: 'KEYS_ONLY' }]);
    expect(props.LocalSecondaryIndexes).toEqual([
      { IndexName: 'ByPlacedAt', KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'placedAt', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } },
    ]);
  });

  it('writes TTL, stream, point-in-time recovery, encryption, table class, deletion protection and tags sorted by key', () => {
    const props = propsOf(allSettings(), 'OrdersTable');
    expect(props).toMatchObject({
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 14 },
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: expect.stringMatching(/^arn:aws:kms:/) },
      TableClass: 'STANDARD_INFREQUENT_ACCESS',
      DeletionProtectionEnabled: true,
    });
    expect(props.Tags.map((t: Props) => t.Key)).toEqual(['N', 'cost-center', 'note', 'team']);
    const blobs = propsOf(allSettings(), 'BlobStoreV2Table');
    expect(blobs).toMatchObject({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false }, SSESpecification: { SSEEnabled: false }, DeletionProtectionEnabled: false });
    expect(blobs.AttributeDefinitions).toEqual([{ AttributeName: 'hash', AttributeType: 'B' }, { AttributeName: 'version', AttributeType: 'N' }]);
  });

  it('leaves out a recovery period when recovery is off (RecoveryPeriodInDays requires it on)', () => {
    const design = ecommerce();
    design.tables[0]!.pointInTimeRecovery = { enabled: false, recoveryPeriodInDays: 7 };
    expect(propsOf(design, 'ShopTable').PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: false });
  });

  it('names resources after their tables, letters and digits only, unique in the template', () => {
    const design = ecommerce();
    const copy = structuredClone(design.tables[0]!);
    design.tables.push({ ...copy, id: 't2', name: 'shop' }, { ...copy, id: 't3', name: 'Shop-' });
    expect(Object.keys(cloudFormationTemplate(design).Resources as Props)).toEqual(['ShopTable', 'ShopTable2', 'ShopTable3']);
    expect(Object.keys(cloudFormationTemplate(allSettings()).Resources as Props)).toEqual(['OrdersTable', 'BlobStoreV2Table']);
  });

  it('keeps the table when the stack is deleted and outputs its name and ARN', () => {
    const template = cloudFormationTemplate(ecommerce());
    expect((template.Resources as Props).ShopTable).toMatchObject({ Type: 'AWS::DynamoDB::Table', DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(template.Outputs).toMatchObject({ ShopTableName: { Value: { Ref: 'ShopTable' } }, ShopTableArn: { Value: { 'Fn::GetAtt': ['ShopTable', 'Arn'] } } });
  });

  it('cuts a long description to CloudFormation’s 1,024 bytes', () => {
    const design = ecommerce();
    design.description = 'é'.repeat(2000);
    const description = cloudFormationTemplate(design).Description as string;
    expect(new TextEncoder().encode(description).length).toBeLessThanOrEqual(1024);
    expect(description.endsWith('...')).toBe(true);
  });

  it('writes the same template as YAML and as JSON', () => {
    const design = allSettings();
    expect(JSON.parse(toCloudFormationJson(design))).toEqual(cloudFormationTemplate(design));
    expect(toCloudFormation(design)).toMatch(/^# Generated by Keyplan from the design "All table settings"\.\nAWSTemplateFormatVersion: "2010-09-09"\n/);
  });

  it('auto scaling: a scalable target and a target tracking policy per scaled direction of the table and its GSIs', () => {
    const template = cloudFormationTemplate(load('__fixtures__/auto-scaling.keyplan.json'));
    const resources = template.Resources as Props;
    expect(Object.entries(resources).map(([id, r]) => `${id} ${r.Type}`)).toEqual([
      'MetricsTable AWS::DynamoDB::Table',
      'MetricsTableReadScalableTarget AWS::ApplicationAutoScaling::ScalableTarget',
      'MetricsTableReadScalingPolicy AWS::ApplicationAutoScaling::ScalingPolicy',
      'MetricsTableByHostReadScalableTarget AWS::ApplicationAutoScaling::ScalableTarget',
      'MetricsTableByHostReadScalingPolicy AWS::ApplicationAutoScaling::ScalingPolicy',
      'MetricsTableByHostWriteScalableTarget AWS::ApplicationAutoScaling::ScalableTarget',
      'MetricsTableByHostWriteScalingPolicy AWS::ApplicationAutoScaling::ScalingPolicy',
      'MetricsTableByDayV2WriteScalableTarget AWS::ApplicationAutoScaling::ScalableTarget',
      'MetricsTableByDayV2WriteScalingPolicy AWS::ApplicationAutoScaling::ScalingPolicy',
    ]);
    // The fixed figures stay as the initial capacity.
    expect(resources.MetricsTable.Properties.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 10, WriteCapacityUnits: 20 });
    expect(resources.MetricsTableReadScalableTarget.Properties).toEqual({
      MaxCapacity: 500,
      MinCapacity: 5,
      ResourceId: { 'Fn::Sub': 'table/${MetricsTable}' },
      ScalableDimension: 'dynamodb:table:ReadCapacityUnits',
      ServiceNamespace: 'dynamodb',
    });
    expect(resources.MetricsTableByDayV2WriteScalableTarget.Properties).toMatchObject({
      ResourceId: { 'Fn::Sub': 'table/${MetricsTable}/index/by-day.v2' },
      ScalableDimension: 'dynamodb:index:WriteCapacityUnits',
    });
    expect(resources.MetricsTableByHostWriteScalingPolicy.Properties).toEqual({
      PolicyName: 'MetricsTableByHostWriteScalingPolicy',
      PolicyType: 'TargetTrackingScaling',
      ScalingTargetId: { Ref: 'MetricsTableByHostWriteScalableTarget' },
      TargetTrackingScalingPolicyConfiguration: { TargetValue: 72.5, PredefinedMetricSpecification: { PredefinedMetricType: 'DynamoDBWriteCapacityUtilization' } },
    });
    expect(Object.keys(cloudFormationTemplate(allSettings()).Resources as Props)).toEqual(['OrdersTable', 'BlobStoreV2Table']);
  });
});

describe('toCloudFormation: multi-attribute GSI keys and capacity settings', () => {
  const multi = (): Design => load('__fixtures__/multi-attribute.keyplan.json');
  const keySchema = (index: Props): string[] => index.KeySchema.map((k: Props) => `${k.AttributeName}:${k.KeyType}`);

  it("writes a multi-attribute GSI's KeySchema as its HASH attributes, then its RANGE attributes, in key order", () => {
    const [byRegion, byPlayer] = propsOf(multi(), 'TournamentMatchesTable').GlobalSecondaryIndexes as Props[];
    expect(keySchema(byRegion!)).toEqual(['tournamentId:HASH', 'region:HASH', 'round:RANGE', 'bracket:RANGE']);
    expect(keySchema(byPlayer!)).toEqual(['playerId:HASH', 'matchDate:RANGE']);
  });

  it('keeps the key order of the design, not the alphabet, and a partition-only multi-attribute key has no RANGE', () => {
    const design = multi();
    const gsi = design.tables[0]!.globalSecondaryIndexes[0]!;
    gsi.partitionKey = [{ name: 'region', type: 'S' }, { name: 'tournamentId', type: 'S' }, { name: 'bracket', type: 'S' }];
    delete gsi.sortKey;
    expect(keySchema(propsOf(design, 'TournamentMatchesTable').GlobalSecondaryIndexes[0])).toEqual(['region:HASH', 'tournamentId:HASH', 'bracket:HASH']);
  });

  it('defines every key attribute of the table and its GSIs once, with its own type, and no other (E3039)', () => {
    const props = propsOf(multi(), 'TournamentMatchesTable');
    expect(props.AttributeDefinitions.map((a: Props) => `${a.AttributeName}:${a.AttributeType}`)).toEqual([
      'matchId:S',
      'tournamentId:S',
      'region:S',
      'round:N',
      'bracket:S',
      'playerId:S',
      'matchDate:S',
    ]);
    // An attribute in two indexes' keys is still defined once; a non-key attribute (score) never.
    const design = multi();
    design.tables[0]!.globalSecondaryIndexes[1]!.partitionKey = [{ name: 'tournamentId', type: 'S' }, { name: 'playerId', type: 'S' }];
    const names = propsOf(design, 'TournamentMatchesTable').AttributeDefinitions.map((a: Props) => a.AttributeName);
    expect(names.filter((n: string) => n === 'tournamentId')).toHaveLength(1);
    expect(names).not.toContain('score');
  });

  it('writes WarmThroughput and OnDemandThroughput on the table and on the GSIs that set them', () => {
    const props = propsOf(multi(), 'TournamentMatchesTable');
    expect(props.WarmThroughput).toEqual({ ReadUnitsPerSecond: 24000, WriteUnitsPerSecond: 8000 });
    expect(props.OnDemandThroughput).toEqual({ MaxReadRequestUnits: 30000, MaxWriteRequestUnits: 10000 });
    const [byRegion, byPlayer] = props.GlobalSecondaryIndexes as Props[];
    expect(byRegion).toMatchObject({ WarmThroughput: { ReadUnitsPerSecond: 15000, WriteUnitsPerSecond: 5000 } });
    expect(byRegion).not.toHaveProperty('OnDemandThroughput');
    expect(byPlayer).toMatchObject({ OnDemandThroughput: { MaxReadRequestUnits: 2000, MaxWriteRequestUnits: 800 } });
    expect(byPlayer).not.toHaveProperty('WarmThroughput');
  });

  it('writes only the directions the design sets, and no on-demand maximum on a provisioned table', () => {
    const design = multi();
    const table = design.tables[0]!;
    table.warmThroughput = { writeUnitsPerSecond: 9000 };
    table.onDemandThroughput = { maxReadRequestUnits: 500 };
    let props = propsOf(design, 'TournamentMatchesTable');
    expect(props.WarmThroughput).toEqual({ WriteUnitsPerSecond: 9000 });
    expect(props.OnDemandThroughput).toEqual({ MaxReadRequestUnits: 500 });
    table.billing = { mode: 'PROVISIONED', readCapacityUnits: 100, writeCapacityUnits: 50 };
    props = propsOf(design, 'TournamentMatchesTable');
    expect(JSON.stringify(props)).not.toContain('OnDemandThroughput');
    expect(props.WarmThroughput).toEqual({ WriteUnitsPerSecond: 9000 });
  });

  it('writes ContributorInsightsSpecification with its mode, and Enabled false alone when off', () => {
    const design = multi();
    expect(propsOf(design, 'TournamentMatchesTable').ContributorInsightsSpecification).toEqual({ Enabled: true, Mode: 'THROTTLED_KEYS' });
    design.tables[0]!.contributorInsights = { enabled: false, mode: 'THROTTLED_KEYS' };
    expect(propsOf(design, 'TournamentMatchesTable').ContributorInsightsSpecification).toEqual({ Enabled: false });
    delete design.tables[0]!.contributorInsights;
    expect(propsOf(design, 'TournamentMatchesTable')).not.toHaveProperty('ContributorInsightsSpecification');
  });
});
