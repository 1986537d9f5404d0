/**
 * CloudFormation: one `AWS::DynamoDB::Table` per table of the design, as YAML or JSON
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-table.html).
 * Templates are read back by `import.ts`.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/cloudformation/export.ts".
 */
import type {
  Design,
  KeyAttribute,
  Projection,
  AutoScalingRange,
  ContributorInsights,
  OnDemandThroughput,
  WarmThroughput,
} from '../../model/index.ts';
import { keySchemaElements, nonKeyAttributesOf, pascalCase, tableSpecsOf, uniqueName, wellFormed, type TableSpec, type Throughput } from '../common/table-spec.ts';
import { toYaml, type YamlValue } from './yaml.ts';

/** CloudFormation's limit on a template's Description, in bytes. https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/template-description-structure.html */
const MAX_DESCRIPTION_BYTES = 1024;

type Json = YamlValue;

/** HASH elements, then RANGE elements, in key order. */
const keySchema = (partitionKeys: readonly string[], sortKeys: readonly string[]): Json[] =>
  keySchemaElements(partitionKeys, sortKeys).map((e) => ({ AttributeName: e.name, KeyType: e.keyType }));

/** The table's one partition key and optional sort key as lists. */
const parts = (partitionKey: string, sortKey: string | undefined): [string[], string[]] => [[partitionKey], sortKey === undefined ? [] : [sortKey]];

/** `WarmThroughput`: the directions the design sets. https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-table-warmthroughput.html */
function warmThroughput(w: WarmThroughput): Json {
  const out: Record<string, Json> = {};
  if (w.readUnitsPerSecond !== undefined) out.ReadUnitsPerSecond = w.readUnitsPerSecond;
  if (w.writeUnitsPerSecond !== undefined) out.WriteUnitsPerSecond = w.writeUnitsPerSecond;
  return out;
}

/** `OnDemandThroughput`: the maximums the design sets. https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-table-ondemandthroughput.html */
function onDemandThroughput(o: OnDemandThroughput): Json {
  const out: Record<string, Json> = {};
  if (o.maxReadRequestUnits !== undefined) out.MaxReadRequestUnits = o.maxReadRequestUnits;
  if (o.maxWriteRequestUnits !== undefined) out.MaxWriteRequestUnits = o.maxWriteRequestUnits;
  return out;
}

/** `ContributorInsightsSpecification`. https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-table-contributorinsightsspecification.html */
function contributorInsights(c: ContributorInsights): Json {
  return c.enabled && c.mode !== undefined ? { Enabled: true, Mode: c.mode } : { Enabled: c.enabled };
}

function projection(p: Projection): Json {
  const nonKey = nonKeyAttributesOf(p);
  return nonKey ? { ProjectionType: p.type, NonKeyAttributes: [...nonKey] } : { ProjectionType: p.type };
}

const throughput = (t: Throughput): Json => ({ ReadCapacityUnits: t.read, WriteCapacityUnits: t.write });

/** The `Properties` of one table's `AWS::DynamoDB::Table` resource. */
function tableProperties(spec: TableSpec): Record<string, Json> {
  const p: Record<string, Json> = {
    TableName: spec.name,
    AttributeDefinitions: spec.attributeDefinitions.map((a: KeyAttribute) => ({ AttributeName: a.name, AttributeType: a.type })),
    KeySchema: keySchema(...parts(spec.partitionKey, spec.sortKey)),
    BillingMode: spec.throughput ? 'PROVISIONED' : 'PAY_PER_REQUEST',
  };
  if (spec.throughput) p.ProvisionedThroughput = throughput(spec.throughput);
  if (spec.onDemandThroughput) p.OnDemandThroughput = onDemandThroughput(spec.onDemandThroughput);
  if (spec.warmThroughput) p.WarmThroughput = warmThroughput(spec.warmThroughput);
  if (spec.gsis.length > 0) {
    p.GlobalSecondaryIndexes = spec.gsis.map((g) => {
      const index: Record<string, Json> = { IndexName: g.name, KeySchema: keySchema(g.partitionKeys, g.sortKeys), Projection: projection(g.projection) };
      if (g.throughput) index.ProvisionedThroughput = throughput(g.throughput);
      if (g.onDemandThroughput) index.OnDemandThroughput = onDemandThroughput(g.onDemandThroughput);
      if (g.warmThroughput) index.WarmThroughput = warmThroughput(g.warmThroughput);
      return index;
    });
  }
  if (spec.lsis.length > 0) {
    p.LocalSecondaryIndexes = spec.lsis.map((l) => ({ IndexName: l.name, KeySchema: keySchema(...parts(l.partitionKey, l.sortKey)), Projection: projection(l.projection) }));
  }
  if (spec.ttlAttribute !== undefined) p.TimeToLiveSpecification = { AttributeName: spec.ttlAttribute, Enabled: true };
  if (spec.stream) p.StreamSpecification = { StreamViewType: spec.stream };
  if (spec.pointInTimeRecovery) {
    const pitr: Record<string, Json> = { PointInTimeRecoveryEnabled: spec.pointInTimeRecovery.enabled };
    // RecoveryPeriodInDays requires PointInTimeRecoveryEnabled (the schema's dependentRequired).
    if (spec.pointInTimeRecovery.enabled && spec.pointInTimeRecovery.recoveryPeriodInDays !== undefined) {
      pitr.RecoveryPeriodInDays = spec.pointInTimeRecovery.recoveryPeriodInDays;
    }
    p.PointInTimeRecoverySpecification = pitr;
  }
  if (spec.encryption) {
    // SSEEnabled false is the key DynamoDB owns; true with SSEType KMS is a KMS key: the AWS managed
    // aws/dynamodb key, or the one KMSMasterKeyId names (which requires SSEType).
    const sse: Record<string, Json> = { SSEEnabled: spec.encryption.type === 'KMS' };
    if (spec.encryption.type === 'KMS') {
      sse.SSEType = 'KMS';
      if (spec.encryption.kmsKeyId !== undefined && spec.encryption.kmsKeyId.trim() !== '') sse.KMSMasterKeyId = spec.encryption.kmsKeyId;
    }
    p.SSESpecification = sse;
  }
  if (spec.contributorInsights) p.ContributorInsightsSpecification = contributorInsights(spec.contributorInsights);
  p.TableClass = spec.tableClass;
  if (spec.deletionProtection !== undefined) p.DeletionProtectionEnabled = spec.deletionProtection;
  if (spec.tags.length > 0) p.Tags = spec.tags.map(([Key, Value]) => ({ Key, Value }));
  return p;
}

function description(design: Design): string {
  const text = wellFormed(`DynamoDB tables of the Keyplan design "${design.name}".${design.description ? ` ${design.description}` : ''}`);
  // Cut at a character boundary under the byte limit.
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const n = ch.codePointAt(0)! < 0x80 ? 1 : ch.codePointAt(0)! < 0x800 ? 2 : ch.codePointAt(0)! < 0x10000 ? 3 : 4;
    if (bytes + n > MAX_DESCRIPTION_BYTES - 3) return `${out}...`;
    out += ch;
    bytes += n;
  }
  return out;
}

/** One direction of the table or a GSI that auto scales. */
interface Scaling {
  /** The GSI's name; undefined for the table. */
  indexName?: string;
  direction: 'read' | 'write';
  range: AutoScalingRange;
}

function scalingsOf(spec: TableSpec): Scaling[] {
  const out: Scaling[] = [];
  const add = (t: Throughput | undefined, indexName?: string): void => {
    for (const direction of ['read', 'write'] as const) {
      const range = t?.autoScaling?.[direction];
      if (range) out.push({ direction, range, ...(indexName !== undefined ? { indexName } : {}) });
    }
  };
  add(spec.throughput);
  for (const g of spec.gsis) add(g.throughput, g.name);
  return out;
}

/** The scalable target and the target tracking policy of one auto scaled direction. */
function scalingResources(spec: TableSpec, scaling: Scaling, targetId: string): { target: Json; policy: Json } {
  const units = scaling.direction === 'read' ? 'Read' : 'Write';
  const resource = scaling.indexName === undefined ? 'table' : 'index';
  // ${Table} is the table's name (Ref); an index name holds only a-z A-Z 0-9 _ . - (nothing Fn::Sub reads).
  const resourceId = `table/\${${spec.logicalId}}${scaling.indexName === undefined ? '' : `/index/${scaling.indexName}`}`;
  return {
    target: {
      Type: 'AWS::ApplicationAutoScaling::ScalableTarget',
      Properties: {
        MaxCapacity: scaling.range.maxCapacity,
        MinCapacity: scaling.range.minCapacity,
        ResourceId: { 'Fn::Sub': resourceId },
        ScalableDimension: `dynamodb:${resource}:${units}CapacityUnits`,
        ServiceNamespace: 'dynamodb',
      },
    },
    policy: {
      Type: 'AWS::ApplicationAutoScaling::ScalingPolicy',
      Properties: {
        PolicyName: `${targetId.replace(/ScalableTarget$/, '')}ScalingPolicy`,
        PolicyType: 'TargetTrackingScaling',
        ScalingTargetId: { Ref: targetId },
        TargetTrackingScalingPolicyConfiguration: {
          TargetValue: scaling.range.targetUtilizationPercent,
          PredefinedMetricSpecification: { PredefinedMetricType: `DynamoDB${units}CapacityUtilization` },
        },
      },
    },
  };
}

/** Logical ids are at most 255 characters; room is left for a suffix and a number. */
const MAX_SCALING_ID_BASE = 200;

/** The template as data: what both the YAML and the JSON exports write. */
export function cloudFormationTemplate(design: Design): Record<string, Json> {
  const specs = tableSpecsOf(design.tables);
  const resources: Record<string, Json> = {};
  const outputs: Record<string, Json> = {};
  const taken = new Set(specs.map((s) => s.logicalId));
  for (const spec of specs) {
    resources[spec.logicalId] = {
      Type: 'AWS::DynamoDB::Table',
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: tableProperties(spec),
    };
    for (const scaling of scalingsOf(spec)) {
      const owner = scaling.indexName === undefined ? spec.logicalId : `${spec.logicalId}${pascalCase(scaling.indexName) || 'Index'}`;
      const base = `${owner.slice(0, MAX_SCALING_ID_BASE)}${scaling.direction === 'read' ? 'Read' : 'Write'}`;
      let id = uniqueName(base, taken);
      // The policy's id is the target's with another suffix: keep both free.
      while (taken.has(`${id}ScalableTarget`) || taken.has(`${id}ScalingPolicy`)) id = uniqueName(base, taken);
      taken.add(`${id}ScalableTarget`);
      taken.add(`${id}ScalingPolicy`);
      const { target, policy } = scalingResources(spec, scaling, `${id}ScalableTarget`);
      resources[`${id}ScalableTarget`] = target;
      resources[`${id}ScalingPolicy`] = policy;
    }
    outputs[`${spec.logicalId}Name`] = { Description: `Name of table ${spec.name}`, Value: { Ref: spec.logicalId } };
    outputs[`${spec.logicalId}Arn`] = { Description: `ARN of table ${spec.name}`, Value: { 'Fn::GetAtt': [spec.logicalId, 'Arn'] } };
    if (spec.stream) outputs[`${spec.logicalId}StreamArn`] = { Description: `Stream ARN of table ${spec.name}`, Value: { 'Fn::GetAtt': [spec.logicalId, 'StreamArn'] } };
  }
  return { AWSTemplateFormatVersion: '2010-09-09', Description: description(design), Resources: resources, Outputs: outputs };
}

/**
 * The design's tables as a CloudFormation template in YAML. Deterministic; assumes a design that
 * passes `validateDesign` (for another, the output is the closest template, which may not deploy).
 */
export function toCloudFormation(design: Design): string {
  return `# Generated by Keyplan from the design "${wellFormed(design.name).replace(/[\r\n]+/g, ' ')}".\n${toYaml(cloudFormationTemplate(design))}`;
}

/** The same template as `toCloudFormation`, in JSON (two-space indents, final newline). */
export function toCloudFormationJson(design: Design): string {
  return `${JSON.stringify(cloudFormationTemplate(design), null, 2)}\n`;
}
