import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Design } from '../../model/index.ts';
import { cdkStackName, toCdk, tsString } from './export.ts';

const load = (path: string): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '..', path), 'utf8')) as Design;

/** TypeScript's syntax errors in a module (aws-cdk-lib is not installed here, so types are not checked). */
function syntaxErrors(source: string): string[] {
  const out = ts.transpileModule(source, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('toCdk', () => {
  it.each(['../../examples/ecommerce.keyplan.json', '__fixtures__/all-settings.keyplan.json', '__fixtures__/auto-scaling.keyplan.json', '__fixtures__/multi-attribute.keyplan.json', '../../e2e/data/activity-log.keyplan.json'])('writes a TypeScript module without syntax errors for %s', (path) => {
    expect(syntaxErrors(toCdk(load(path)))).toEqual([]);
  });

  it('stays valid TypeScript whatever the names hold', () => {
    const design = load('../../examples/ecommerce.keyplan.json');
    design.name = "9 lives */ 'quoted' \\ \u2028";
    design.tables[0]!.tags = { "it's": 'a\nb' };
    expect(syntaxErrors(toCdk(design))).toEqual([]);
    expect(cdkStackName(design)).toBe('Keyplan9LivesQuotedStack');
  });

  it.each([
    ["it's", "'it\\'s'"],
    ['a\\b\n', "'a\\\\b\\n'"],
  ])('quotes %j as %s', (text, expected) => {
    expect(tsString(text)).toBe(expected);
  });

  it('holds provisioned write capacity with autoscaling min = max (TableV2 rejects fixed write capacity)', () => {
    const cdk = toCdk(load('__fixtures__/all-settings.keyplan.json'));
    expect(cdk).toContain('billing: dynamodb.Billing.provisioned({\n        readCapacity: dynamodb.Capacity.fixed(10),\n        writeCapacity: dynamodb.Capacity.autoscaled({ minCapacity: 5, maxCapacity: 5 }),');
    expect(cdk).not.toMatch(/writeCapacity: dynamodb\.Capacity\.fixed/);
  });

  it('writes auto scaled capacity as Capacity.autoscaled with its minimum, maximum and target', () => {
    const cdk = toCdk(load('__fixtures__/auto-scaling.keyplan.json'));
    expect(cdk).toContain('readCapacity: dynamodb.Capacity.autoscaled({ minCapacity: 5, maxCapacity: 500, targetUtilizationPercent: 70 }),\n        writeCapacity: dynamodb.Capacity.autoscaled({ minCapacity: 20, maxCapacity: 20 }),');
    expect(cdk).toContain('writeCapacity: dynamodb.Capacity.autoscaled({ minCapacity: 10, maxCapacity: 1000, targetUtilizationPercent: 72.5 }),');
    expect(cdk).toContain('readCapacity: dynamodb.Capacity.fixed(2),');
  });

  it('looks up a KMS key by ARN, alias or id', () => {
    const design = load('__fixtures__/all-settings.keyplan.json');
    const table = design.tables[0]!;
    expect(toCdk(design)).toContain("kms.Key.fromKeyArn(this, 'OrdersTableKey', 'arn:aws:kms:");
    table.encryption = { type: 'KMS', kmsKeyId: 'alias/orders' };
    expect(toCdk(design)).toContain("kms.Alias.fromAliasName(this, 'OrdersTableKey', 'alias/orders')");
    table.encryption = { type: 'KMS', kmsKeyId: '1234abcd' };
    expect(toCdk(design)).toContain("this.formatArn({ service: 'kms', resource: 'key', resourceName: '1234abcd' })");
    table.encryption = { type: 'KMS' };
    expect(toCdk(design)).toContain('encryption: dynamodb.TableEncryptionV2.awsManagedKey(),');
    expect(toCdk(design)).not.toContain("from 'aws-cdk-lib/aws-kms'");
  });

  it('writes a multi-attribute GSI key as partitionKeys/sortKeys in key order, a one-attribute part as partitionKey/sortKey', () => {
    const cdk = toCdk(load('__fixtures__/multi-attribute.keyplan.json'));
    expect(cdk).toContain(
      "          partitionKeys: [\n            { name: 'tournamentId', type: dynamodb.AttributeType.STRING },\n            { name: 'region', type: dynamodb.AttributeType.STRING },\n          ],\n" +
        "          sortKeys: [\n            { name: 'round', type: dynamodb.AttributeType.NUMBER },\n            { name: 'bracket', type: dynamodb.AttributeType.STRING },\n          ],\n",
    );
    expect(cdk).toContain("          partitionKey: { name: 'playerId', type: dynamodb.AttributeType.STRING },\n          sortKey: { name: 'matchDate', type: dynamodb.AttributeType.STRING },\n");
  });

  it('puts on-demand maximums in Billing.onDemand and on the GSI, warm throughput and Contributor Insights on the table', () => {
    const cdk = toCdk(load('__fixtures__/multi-attribute.keyplan.json'));
    expect(cdk).toContain('billing: dynamodb.Billing.onDemand({ maxReadRequestUnits: 30000, maxWriteRequestUnits: 10000 }),');
    expect(cdk).toContain('      warmThroughput: { readUnitsPerSecond: 24000, writeUnitsPerSecond: 8000 },');
    expect(cdk).toContain('          warmThroughput: { readUnitsPerSecond: 15000, writeUnitsPerSecond: 5000 },');
    expect(cdk).toContain("          nonKeyAttributes: ['score'],\n          maxReadRequestUnits: 2000,\n          maxWriteRequestUnits: 800,\n");
    expect(cdk).toContain('contributorInsightsSpecification: { enabled: true, mode: dynamodb.ContributorInsightsMode.THROTTLED_KEYS },');
    expect(cdk).toContain('// TableV2 turns Contributor Insights on for every GSI as well');
    expect(toCdk(load('../../examples/ecommerce.keyplan.json'))).toContain('billing: dynamodb.Billing.onDemand(),');
  });
});

