import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design } from '../../model/index.ts';
import { cliInputNotes, toCliInput, toCliInputs } from './export.ts';

const load = (path: string): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '..', path), 'utf8')) as Design;

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

describe('toCliInputs: multi-attribute GSI keys and capacity settings', () => {
  const multi = (): Design => load('__fixtures__/multi-attribute.keyplan.json');

  it("lists a multi-attribute GSI's KeySchema HASH then RANGE in key order, each attribute defined once", () => {
    const input = JSON.parse(toCliInput(multi()));
    expect(input.GlobalSecondaryIndexes[0].KeySchema).toEqual([
      { AttributeName: 'tournamentId', KeyType: 'HASH' },
      { AttributeName: 'region', KeyType: 'HASH' },
      { AttributeName: 'round', KeyType: 'RANGE' },
      { AttributeName: 'bracket', KeyType: 'RANGE' },
    ]);
    expect(input.AttributeDefinitions.map((a: { AttributeName: string }) => a.AttributeName)).toEqual(['matchId', 'tournamentId', 'region', 'round', 'bracket', 'playerId', 'matchDate']);
  });

  it('carries WarmThroughput and OnDemandThroughput (table and GSI), which CreateTable takes', () => {
    const input = JSON.parse(toCliInput(multi()));
    expect(input.WarmThroughput).toEqual({ ReadUnitsPerSecond: 24000, WriteUnitsPerSecond: 8000 });
    expect(input.OnDemandThroughput).toEqual({ MaxReadRequestUnits: 30000, MaxWriteRequestUnits: 10000 });
    expect(input.GlobalSecondaryIndexes[0].WarmThroughput).toEqual({ ReadUnitsPerSecond: 15000, WriteUnitsPerSecond: 5000 });
    expect(input.GlobalSecondaryIndexes[1].OnDemandThroughput).toEqual({ MaxReadRequestUnits: 2000, MaxWriteRequestUnits: 800 });
  });

  it('names each setting CreateTable cannot take, with its value and the call that sets it', () => {
    expect(cliInputNotes(multi())).toEqual([
      'TournamentMatches: point-in-time recovery, 7 days — aws dynamodb update-continuous-backups',
      'TournamentMatches: Contributor Insights, THROTTLED_KEYS — aws dynamodb update-contributor-insights',
    ]);
    expect(cliInputNotes(load('__fixtures__/all-settings.keyplan.json'))).toEqual([
      'Orders: time to live on attribute expiresAt — aws dynamodb update-time-to-live',
      'Orders: point-in-time recovery, 14 days — aws dynamodb update-continuous-backups',
    ]);
    expect(JSON.stringify(toCliInputs(multi()))).not.toMatch(/ContributorInsights|PointInTime/);
  });

  it('names auto scaling, which is Application Auto Scaling\'s and not create-table\'s, per direction', () => {
    const notes = cliInputNotes(load('__fixtures__/auto-scaling.keyplan.json'));
    expect(notes).toEqual(expect.arrayContaining([expect.stringMatching(/: read auto scaling, 5–500 at 70 % — aws application-autoscaling register-scalable-target and put-scaling-policy$/)]));
    expect(notes.filter((n) => n.includes('auto scaling'))).toHaveLength(4);
    expect(JSON.stringify(toCliInputs(load('__fixtures__/auto-scaling.keyplan.json')))).not.toMatch(/AutoScaling|TargetValue/);
  });
});
