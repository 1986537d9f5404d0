import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design } from '../model/schema.ts';
import { hclString, toTerraform } from './terraform.ts';

const load = (path: string): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, path), 'utf8')) as Design;

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
});
