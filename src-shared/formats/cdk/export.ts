/**
 * AWS CDK (TypeScript, aws-cdk-lib v2): a stack with one `dynamodb.TableV2` per table of the design.
 * Export only. API per aws-cdk-lib's `aws-dynamodb/lib/table-v2.ts` (TablePropsV2,
 * GlobalSecondaryIndexPropsV2), `billing.ts` and `capacity.ts`.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/cdk/export.ts".
 */
import type {
  AutoScalingRange,
  Design,
  KeyAttribute,
  KeyAttributeType,
  OnDemandThroughput,
  Projection,
  WarmThroughput,
} from '../../model/index.ts';
import { nonKeyAttributesOf, pascalCase, tableSpecsOf, wellFormed, type TableSpec, type Throughput } from '../common/table-spec.ts';

/** A TypeScript single-quoted string literal. */
export function tsString(text: string): string {
  let out = "'";
  for (const ch of wellFormed(text)) {
    const code = ch.codePointAt(0)!;
    if (ch === "'") out += "\\'";
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

const ATTRIBUTE_TYPE: Record<KeyAttributeType, string> = { S: 'STRING', N: 'NUMBER', B: 'BINARY' };

const attribute = (name: string, types: ReadonlyMap<string, KeyAttributeType>): string =>
  `{ name: ${tsString(name)}, type: dynamodb.AttributeType.${ATTRIBUTE_TYPE[types.get(name) ?? 'S']} }`;

/** `partitionKey: {…}` for one attribute, `partitionKeys: [ … ]` (one per line) for a multi-attribute key. */
function keyProps(prop: 'partitionKey' | 'sortKey', names: readonly string[], types: ReadonlyMap<string, KeyAttributeType>, indent: string): string[] {
  if (names.length === 0) return [];
  if (names.length === 1) return [`${indent}${prop}: ${attribute(names[0]!, types)},`];
  return [`${indent}${prop}s: [`, ...names.map((n) => `${indent}  ${attribute(n, types)},`), `${indent}],`];
}

/** `{ readUnitsPerSecond: 24000, writeUnitsPerSecond: 8000 }`: the directions the design sets. */
function warmThroughput(w: WarmThroughput): string {
  const parts: string[] = [];
  if (w.readUnitsPerSecond !== undefined) parts.push(`readUnitsPerSecond: ${w.readUnitsPerSecond}`);
  if (w.writeUnitsPerSecond !== undefined) parts.push(`writeUnitsPerSecond: ${w.writeUnitsPerSecond}`);
  return `{ ${parts.join(', ')} }`;
}

/** `maxReadRequestUnits: 5000, maxWriteRequestUnits: 1000`: the maximums the design sets. */
function maxRequestUnits(o: OnDemandThroughput): string[] {
  const parts: string[] = [];
  if (o.maxReadRequestUnits !== undefined) parts.push(`maxReadRequestUnits: ${o.maxReadRequestUnits}`);
  if (o.maxWriteRequestUnits !== undefined) parts.push(`maxWriteRequestUnits: ${o.maxWriteRequestUnits}`);
  return parts;
}

function projectionProps(projection: Projection, indent: string): string[] {
  const lines = [`${indent}projectionType: dynamodb.ProjectionType.${projection.type},`];
  const nonKey = nonKeyAttributesOf(projection);
  if (nonKey) lines.push(`${indent}nonKeyAttributes: [${nonKey.map(tsString).join(', ')}],`);
  return lines;
}

const autoscaled = (r: AutoScalingRange): string =>
  `dynamodb.Capacity.autoscaled({ minCapacity: ${r.minCapacity}, maxCapacity: ${r.maxCapacity}, targetUtilizationPercent: ${r.targetUtilizationPercent} })`;
const readCapacity = (t: Throughput): string => (t.autoScaling?.read ? autoscaled(t.autoScaling.read) : `dynamodb.Capacity.fixed(${t.read})`);
const writeCapacity = (t: Throughput): string =>
  t.autoScaling?.write ? autoscaled(t.autoScaling.write) : `dynamodb.Capacity.autoscaled({ minCapacity: ${t.write}, maxCapacity: ${t.write} })`;

function encryptionExpression(spec: TableSpec): string | undefined {
  const e = spec.encryption;
  if (!e) return undefined;
  if (e.type === 'AWS_OWNED') return 'dynamodb.TableEncryptionV2.dynamoOwnedKey()';
  const keyId = e.kmsKeyId?.trim();
  if (!keyId) return 'dynamodb.TableEncryptionV2.awsManagedKey()';
  const id = tsString(`${spec.logicalId}Key`);
  const key = keyId.startsWith('arn:')
    ? `kms.Key.fromKeyArn(this, ${id}, ${tsString(keyId)})`
    : keyId.startsWith('alias/')
      ? `kms.Alias.fromAliasName(this, ${id}, ${tsString(keyId)})`
      : `kms.Key.fromKeyArn(this, ${id}, this.formatArn({ service: 'kms', resource: 'key', resourceName: ${tsString(keyId)} }))`;
  return `dynamodb.TableEncryptionV2.customerManagedKey(${key})`;
}

function tableStatement(spec: TableSpec): string[] {
  const types = new Map(spec.attributeDefinitions.map((a: KeyAttribute) => [a.name, a.type]));
  const i = '      ';
  const lines = [`    new dynamodb.TableV2(this, ${tsString(spec.logicalId)}, {`, `${i}tableName: ${tsString(spec.name)},`, `${i}partitionKey: ${attribute(spec.partitionKey, types)},`];
  if (spec.sortKey !== undefined) lines.push(`${i}sortKey: ${attribute(spec.sortKey, types)},`);
  if (spec.throughput) {
    lines.push(`${i}billing: dynamodb.Billing.provisioned({`, `${i}  readCapacity: ${readCapacity(spec.throughput)},`, `${i}  writeCapacity: ${writeCapacity(spec.throughput)},`, `${i}}),`);
  } else {
    lines.push(`${i}billing: dynamodb.Billing.onDemand(${spec.onDemandThroughput ? `{ ${maxRequestUnits(spec.onDemandThroughput).join(', ')} }` : ''}),`);
  }
  if (spec.warmThroughput) lines.push(`${i}warmThroughput: ${warmThroughput(spec.warmThroughput)},`);
  lines.push(`${i}tableClass: dynamodb.TableClass.${spec.tableClass},`);
  if (spec.ttlAttribute !== undefined) lines.push(`${i}timeToLiveAttribute: ${tsString(spec.ttlAttribute)},`);
  if (spec.stream) lines.push(`${i}dynamoStream: dynamodb.StreamViewType.${spec.stream},`);
  if (spec.pointInTimeRecovery) {
    const { enabled, recoveryPeriodInDays } = spec.pointInTimeRecovery;
    const period = enabled && recoveryPeriodInDays !== undefined ? `, recoveryPeriodInDays: ${recoveryPeriodInDays}` : '';
    lines.push(`${i}pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: ${enabled}${period} },`);
  }
  const encryption = encryptionExpression(spec);
  if (encryption) lines.push(`${i}encryption: ${encryption},`);
  if (spec.deletionProtection !== undefined) lines.push(`${i}deletionProtection: ${spec.deletionProtection},`);
  if (spec.contributorInsights) {
    const { enabled, mode } = spec.contributorInsights;
    const modeProp = enabled && mode !== undefined ? `, mode: dynamodb.ContributorInsightsMode.${mode}` : '';
    // TableV2 has no per-index switch on its own Region's table: its GSIs inherit the table's setting.
    if (enabled && spec.gsis.length > 0) lines.push(`${i}// TableV2 turns Contributor Insights on for every GSI as well (the GSIs inherit the table's setting).`);
    lines.push(`${i}contributorInsightsSpecification: { enabled: ${enabled}${modeProp} },`);
  }
  if (spec.gsis.length > 0) {
    lines.push(`${i}globalSecondaryIndexes: [`);
    for (const g of spec.gsis) {
      const j = `${i}    `;
      lines.push(`${i}  {`, `${j}indexName: ${tsString(g.name)},`, ...keyProps('partitionKey', g.partitionKeys, types, j), ...keyProps('sortKey', g.sortKeys, types, j));
      lines.push(...projectionProps(g.projection, j));
      if (g.throughput) lines.push(`${j}readCapacity: ${readCapacity(g.throughput)},`, `${j}writeCapacity: ${writeCapacity(g.throughput)},`);
      if (g.onDemandThroughput) lines.push(...maxRequestUnits(g.onDemandThroughput).map((p) => `${j}${p},`));
      if (g.warmThroughput) lines.push(`${j}warmThroughput: ${warmThroughput(g.warmThroughput)},`);
      lines.push(`${i}  },`);
    }
    lines.push(`${i}],`);
  }
  if (spec.lsis.length > 0) {
    lines.push(`${i}localSecondaryIndexes: [`);
    for (const l of spec.lsis) {
      const j = `${i}    `;
      lines.push(`${i}  {`, `${j}indexName: ${tsString(l.name)},`, `${j}sortKey: ${attribute(l.sortKey, types)},`, ...projectionProps(l.projection, j), `${i}  },`);
    }
    lines.push(`${i}],`);
  }
  if (spec.tags.length > 0) {
    lines.push(`${i}tags: [`, ...spec.tags.map(([k, v]) => `${i}  { key: ${tsString(k)}, value: ${tsString(v)} },`), `${i}],`);
  }
  lines.push('    });');
  return lines;
}

/** The stack class's name: the design's name in PascalCase + `Stack` (`KeyplanStack` when it has no letters). */
export function cdkStackName(design: Design): string {
  const base = pascalCase(design.name);
  return `${/^[A-Za-z]/.test(base) ? base : `Keyplan${base}`}Stack`;
}

/**
 * The design's tables as an AWS CDK v2 stack in TypeScript (a module exporting one Stack class).
 * Deterministic; assumes a design that passes `validateDesign`.
 */
export function toCdk(design: Design): string {
  const specs = tableSpecsOf(design.tables);
  const usesKms = specs.some((s) => s.encryption?.type === 'KMS' && (s.encryption.kmsKeyId ?? '').trim() !== '');
  // The note is for fixed write capacity written as min = max.
  const usesWriteCapacity = specs.some((s) => (s.throughput && !s.throughput.autoScaling?.write) || s.gsis.some((g) => g.throughput && !g.throughput.autoScaling?.write));
  const lines = [
    `// Generated by Keyplan from the design ${tsString(design.name).replace(/\*\//g, '*\\/')}.`,
    "import { Stack, type StackProps } from 'aws-cdk-lib';",
    "import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';",
    ...(usesKms ? ["import * as kms from 'aws-cdk-lib/aws-kms';"] : []),
    "import type { Construct } from 'constructs';",
    '',
    ...(usesWriteCapacity
      ? [
          "// TableV2 accepts only autoscaled write capacity; min = max holds it at the design's value.",
        ]
      : []),
    `export class ${cdkStackName(design)} extends Stack {`,
    '  constructor(scope: Construct, id: string, props?: StackProps) {',
    '    super(scope, id, props);',
  ];
  specs.forEach((spec) => lines.push('', ...tableStatement(spec)));
  lines.push('  }', '}');
  return `${lines.join('\n')}\n`;
}
