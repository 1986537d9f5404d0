/**
 * Hostile texts to import (issue 27), each generated at any size: the unit tests, the CLI's tests and
 * the measurement of how cost grows with size all read the same shapes.
 */

/** The hostile shapes `hostileImport` makes. */
export const HOSTILE_IMPORT_SHAPES = ['alias-bomb', 'deep-json', 'deep-yaml', 'big-scalar', 'many-keys', 'deep-workbench'] as const;
export type HostileImportShape = (typeof HOSTILE_IMPORT_SHAPES)[number];

/** The import source each shape is read as: templates as CloudFormation, the rest as what they claim to be. */
export function hostileImportSource(shape: HostileImportShape): 'cloudformation' | 'nosql-workbench' {
  return shape === 'deep-workbench' ? 'nosql-workbench' : 'cloudformation';
}

/**
 * A template of `tables` tables whose GlobalSecondaryIndexes are each an alias to one anchored block
 * of `indexes` GSIs: 99 tables and 1,000 indexes is the 171 KB that took 21.7 s and 304 MB.
 */
export function aliasBomb(tables: number, indexes: number): string {
  const lines = ['AWSTemplateFormatVersion: "2010-09-09"', 'Mappings:', '  Block: &blk'];
  for (let i = 0; i < indexes; i += 1) lines.push(`    - IndexName: gsi${i}`, '      KeySchema: [{AttributeName: a, KeyType: HASH}]', '      Projection: {ProjectionType: ALL}');
  lines.push('Resources:');
  for (let i = 0; i < tables; i += 1) {
    lines.push(`  T${i}:`, '    Type: AWS::DynamoDB::Table', '    Properties:', '      BillingMode: PAY_PER_REQUEST', '      AttributeDefinitions: [{AttributeName: a, AttributeType: S}]');
    lines.push('      KeySchema: [{AttributeName: a, KeyType: HASH}]', '      GlobalSecondaryIndexes: *blk');
  }
  return `${lines.join('\n')}\n`;
}

/** A JSON template whose table's `TableName` is `depth` lists deep (`[[[…]]]`). */
export function deepJsonTemplate(depth: number): string {
  const head = '{"AWSTemplateFormatVersion":"2010-09-09","Resources":{"T":{"Type":"AWS::DynamoDB::Table","Properties":{"BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"}],"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],"TableName":';
  return `${head}${'{"Fn::If":['.repeat(depth)}"c"${']}'.repeat(depth)}}}}}`;
}

/** A YAML template whose `Metadata` is one map of `keys` keys (the yaml package checked each key against all before it). */
export function manyKeysTemplate(keys: number): string {
  const lines = ['AWSTemplateFormatVersion: "2010-09-09"', 'Metadata:'];
  for (let i = 0; i < keys; i += 1) lines.push(`  k${i}: 1`);
  lines.push('Resources: {}');
  return `${lines.join('\n')}\n`;
}

/** A NoSQL Workbench model whose first sample item is `depth` objects deep (`{"a":{"a":…}}`). */
export function deepWorkbenchModel(depth: number): string {
  const head = '{"ModelName":"m","ModelMetadata":{"Author":"a"},"DataModel":[{"TableName":"t","KeyAttributes":{"PartitionKey":{"AttributeName":"pk","AttributeType":"S"}},"TableData":[';
  return `${head}${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}]}]}`;
}

/** A YAML template whose `Metadata` is `depth` flow lists deep. */
export function deepYamlTemplate(depth: number): string {
  return `AWSTemplateFormatVersion: "2010-09-09"\nMetadata: ${'['.repeat(depth)}${']'.repeat(depth)}\nResources: {}\n`;
}

/**
 * A YAML template whose Description is one scalar of `chars` characters, plain or double-quoted. (A
 * double-quoted one is built character by character by the yaml package; its time varies from run
 * to run with V8's handling of such strings, 5 to 300 ms for 480 KB, so the growth test reads it
 * plain; both stop at the 1 MB template quota.)
 */
export function bigScalarTemplate(chars: number, quoted = true): string {
  const q = quoted ? '"' : '';
  return `AWSTemplateFormatVersion: "2010-09-09"\nDescription: ${q}${'x'.repeat(chars)}${q}\nResources: {}\n`;
}

/**
 * The hostile text of `shape` at about `bytes` bytes (the deep shapes nest in proportion).
 */
export function hostileImport(shape: HostileImportShape, bytes: number): string {
  switch (shape) {
    case 'alias-bomb': {
      // The block is about 120 bytes an index and each table about 250 bytes: half each.
      const indexes = Math.max(1, Math.round(bytes / 2 / 120));
      return aliasBomb(Math.max(1, Math.round(bytes / 2 / 250)), indexes);
    }
    case 'deep-json':
      return deepJsonTemplate(Math.round(bytes / 13));
    case 'deep-yaml':
      return deepYamlTemplate(Math.round(bytes / 2));
    case 'big-scalar':
      return bigScalarTemplate(bytes, false);
    case 'many-keys':
      // "  k12345: 1" and its newline: about 12 bytes a key.
      return manyKeysTemplate(Math.round(bytes / 12));
    case 'deep-workbench':
      return deepWorkbenchModel(Math.round(bytes / 6));
  }
}
