import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design } from '../../model/index.ts';
import { hclString, TERRAFORM_AWS_PROVIDER_VERSION, toTerraform } from './export.ts';

const load = (path: string): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '..', path), 'utf8')) as Design;

describe('toTerraform', () => {
  it.each([
    ['Shop', '"Shop"'],
    ['say "hi"\n', '"say \\"hi\\"\\n"'],
    ['${var.x} and %{if}', '"$${var.x} and %%{if}"'],
    ['back\\slash\t', '"back\\\\slash\\t"'],
  ])('quotes %j as %s', (text, expected) => {
    expect(hclString(text)).toBe(expected);
  });

  it('writes one aws_dynamodb_table per table, labels unique and made of identifier characters', () => {
    const design = load('__fixtures__/all-settings.keyplan.json');
    const hcl = toTerraform(design);
    expect([...hcl.matchAll(/^resource "aws_dynamodb_table" "([^"]+)" \{$/gm)].map((m) => m[1])).toEqual(['orders', 'blob_store_v2']);
    design.tables[1]!.name = 'Orders';
    expect([...toTerraform(design).matchAll(/^resource "aws_dynamodb_table" "([^"]+)"/gm)].map((m) => m[1])).toEqual(['orders', 'orders_2']);
  });

  it('declares only key attributes, and GSIs with projection_type and throughput when provisioned', () => {
    const hcl = toTerraform(load('__fixtures__/all-settings.keyplan.json'));
    const orders = hcl.slice(0, hcl.indexOf('resource "aws_dynamodb_table" "blob_store_v2"'));
    expect([...orders.matchAll(/attribute \{\n\s+name = "([^"]+)"/g)].map((m) => m[1])).toEqual(['PK', 'SK', 'status', 'total', 'customerId', 'placedAt']);
    expect(orders).toContain('    projection_type    = "INCLUDE"\n    non_key_attributes = ["customerId", "placedAt"]\n    read_capacity      = 4\n    write_capacity     = 2\n');
    expect(orders).toContain('  billing_mode                = "PROVISIONED"\n  read_capacity               = 10\n');
    expect(orders).toContain('  point_in_time_recovery {\n    enabled                 = true\n    recovery_period_in_days = 14\n  }');
    expect(orders).toContain('    "cost-center" = "42"\n');
    const shop = toTerraform(load('../../examples/ecommerce.keyplan.json'));
    expect(shop).toContain('billing_mode     = "PAY_PER_REQUEST"');
    expect(shop).not.toContain('read_capacity');
  });

  it('auto scaling: a target and a target tracking policy per scaled direction, and the table ignores the capacity they own', () => {
    const hcl = toTerraform(load('__fixtures__/auto-scaling.keyplan.json'));
    expect([...hcl.matchAll(/^resource "(aws_appautoscaling_\w+)" "([^"]+)" \{$/gm)].map((m) => `${m[1]}.${m[2]}`)).toEqual([
      'aws_appautoscaling_target.metrics_read',
      'aws_appautoscaling_policy.metrics_read',
      'aws_appautoscaling_target.metrics_byhost_read',
      'aws_appautoscaling_policy.metrics_byhost_read',
      'aws_appautoscaling_target.metrics_byhost_write',
      'aws_appautoscaling_policy.metrics_byhost_write',
      'aws_appautoscaling_target.metrics_by_day_v2_write',
      'aws_appautoscaling_policy.metrics_by_day_v2_write',
    ]);
    expect(hcl).toContain('  resource_id        = "table/${aws_dynamodb_table.metrics.name}/index/by-day.v2"\n  scalable_dimension = "dynamodb:index:WriteCapacityUnits"');
    expect(hcl).toContain('    target_value = 72.5\n\n    predefined_metric_specification {\n      predefined_metric_type = "DynamoDBWriteCapacityUtilization"');
    expect(hcl).toContain('  lifecycle {\n    ignore_changes = [read_capacity]\n  }');
    expect(toTerraform(load('__fixtures__/all-settings.keyplan.json'))).not.toMatch(/appautoscaling|lifecycle/);
  });

  it("writes every GSI's keys as key_schema blocks, HASH then RANGE in key order, and pins the provider that reads them", () => {
    const hcl = toTerraform(load('__fixtures__/multi-attribute.keyplan.json'));
    const gsi = hcl.slice(hcl.indexOf('name = "ByTournamentRegion"'), hcl.indexOf('name = "ByPlayer"'));
    expect([...gsi.matchAll(/key_schema \{\n\s+attribute_name = "([^"]+)"\n\s+key_type\s+= "(HASH|RANGE)"/g)].map((m) => `${m[1]}:${m[2]}`)).toEqual([
      'tournamentId:HASH',
      'region:HASH',
      'round:RANGE',
      'bracket:RANGE',
    ]);
    // A one-attribute GSI too: the provider deprecates a GSI's hash_key/range_key for key_schema.
    const shop = toTerraform(load('../../examples/ecommerce.keyplan.json'));
    expect(shop).toContain('    name = "GSI1"\n    key_schema {\n      attribute_name = "GSI1PK"\n      key_type       = "HASH"\n    }\n    key_schema {\n      attribute_name = "GSI1SK"\n      key_type       = "RANGE"\n    }\n');
    expect(shop).not.toMatch(/^\s{4}(hash_key|range_key)\b/m);
    expect(shop).toMatch(/^  hash_key\s+= "PK"$/m);
    for (const text of [hcl, shop]) {
      expect(text).toContain(`terraform {\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n      version = "${TERRAFORM_AWS_PROVIDER_VERSION}"\n    }\n  }\n}`);
    }
    expect(TERRAFORM_AWS_PROVIDER_VERSION).toBe('>= 6.29.0');
  });

  it('writes warm_throughput and on_demand_throughput on the table and on the GSIs that set them', () => {
    const hcl = toTerraform(load('__fixtures__/multi-attribute.keyplan.json'));
    expect(hcl).toContain('  on_demand_throughput {\n    max_read_request_units  = 30000\n    max_write_request_units = 10000\n  }');
    expect(hcl).toContain('  warm_throughput {\n    read_units_per_second  = 24000\n    write_units_per_second = 8000\n  }');
    expect(hcl).toContain('    projection_type = "ALL"\n    warm_throughput {\n      read_units_per_second  = 15000\n      write_units_per_second = 5000\n    }\n  }');
    expect(hcl).toContain('    non_key_attributes = ["score"]\n    on_demand_throughput {\n      max_read_request_units  = 2000\n      max_write_request_units = 800\n    }\n  }');
  });

  it('turns Contributor Insights on with an aws_dynamodb_contributor_insights resource and its mode, and writes none when off', () => {
    const design = load('__fixtures__/multi-attribute.keyplan.json');
    expect(toTerraform(design)).toContain(
      'resource "aws_dynamodb_contributor_insights" "tournamentmatches" {\n  table_name = aws_dynamodb_table.tournamentmatches.name\n  mode       = "THROTTLED_KEYS"\n}',
    );
    design.tables[0]!.contributorInsights = { enabled: false };
    expect(toTerraform(design)).not.toContain('aws_dynamodb_contributor_insights');
  });
});

