import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design } from '../model/schema.ts';
import { toCliInput, toCliInputs } from './cli-input.ts';

const load = (path: string): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, path), 'utf8')) as Design;

describe('toCliInputs', () => {
  it('writes one CreateTable input per table, named after the table', () => {
    const files = toCliInputs(load('__fixtures__/all-settings.keyplan.json'));
    expect(files.map((f) => f.fileName)).toEqual(['Orders.create-table.json', 'blob-store.v2.create-table.json']);
    const orders = JSON.parse(files[0]!.content);
    expect(Object.keys(orders)).toEqual([
      'TableName',
      'AttributeDefinitions',
      'KeySchema',
      'BillingMode',
      'ProvisionedThroughput',
      'GlobalSecondaryIndexes',
      'LocalSecondaryIndexes',
      'StreamSpecification',
      'SSESpecification',
      'TableClass',
      'DeletionProtectionEnabled',
      'Tags',
    ]);
    expect(orders.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_IMAGE' });
    expect(orders.SSESpecification).toMatchObject({ Enabled: true, SSEType: 'KMS' });
  });

  it('leaves out TTL and point-in-time recovery, which CreateTable does not take', () => {
    const text = toCliInput(load('__fixtures__/all-settings.keyplan.json'));
    expect(text).not.toMatch(/TimeToLive|PointInTime/);
  });

  it('picks a table by id', () => {
    expect(JSON.parse(toCliInput(load('__fixtures__/all-settings.keyplan.json'), 'tbl-blobs')).TableName).toBe('blob-store.v2');
  });
});
