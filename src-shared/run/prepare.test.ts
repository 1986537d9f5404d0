import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Item } from '../capacity/index.ts';
import type { Design } from '../model/index.ts';
import { prepareRun, RUN_TABLE_PREFIX, runTableName, sendOrder, type PrepareOptions } from './prepare.ts';
import { EMBEDDED_CAPABILITIES, FULL_CAPABILITIES, NEEDS_FULL_ENGINE, type PatternRun } from './types.ts';

const example = (name: string): Design => JSON.parse(readFileSync(new URL(`../../examples/${name}.keyplan.json`, import.meta.url), 'utf8')) as Design;
const ecommerce = example('ecommerce');
const esports = example('esports');

const options = (design: Design, extra: Partial<PrepareOptions> = {}): PrepareOptions => ({
  runId: 'run-1',
  tableId: design.tables[0]!.id,
  itemsPerEntity: 20,
  repeat: 3,
  seed: 7,
  capabilities: EMBEDDED_CAPABILITIES,
  ...extra,
});

const byName = (patterns: readonly PatternRun[], name: string): PatternRun => {
  const found = patterns.find((p) => p.name === name);
  if (!found) throw new Error(`no pattern ${name}`);
  return found;
};

const s = (item: Item, name: string): string | undefined => (item[name] as { S?: string } | undefined)?.S;

describe('runTableName', () => {
  it('prefixes the design table name with keyplan-run- and a short id of the run', () => {
    const name = runTableName('run-1', 'Shop');
    expect(name).toMatch(/^keyplan-run-[0-9a-z]{8}-Shop$/);
    expect(runTableName('run-1', 'Shop')).toBe(name);
    expect(runTableName('run-2', 'Shop')).not.toBe(name);
  });

  it('stays within DynamoDB’s 255 characters for the longest table name', () => {
    expect(runTableName('r', 'x'.repeat(255))).toHaveLength(255);
    expect(runTableName('r', 'x'.repeat(255)).startsWith(RUN_TABLE_PREFIX)).toBe(true);
  });
});

describe('prepareRun on the e-commerce example', () => {
  const plan = prepareRun(ecommerce, options(ecommerce));

  it('creates the table on demand with every key attribute defined once and both GSIs', () => {
    const input = plan.table.createInput as {
      TableName: string;
      BillingMode: string;
      AttributeDefinitions: Array<{ AttributeName: string }>;
      KeySchema: unknown[];
      GlobalSecondaryIndexes: Array<{ IndexName: string; KeySchema: unknown[]; Projection: { ProjectionType: string } }>;
    };
    expect(input.TableName).toBe(plan.table.name);
    expect(input.BillingMode).toBe('PAY_PER_REQUEST');
    expect(input.AttributeDefinitions.map((a) => a.AttributeName).sort()).toEqual(['GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'PK', 'SK']);
    expect(input.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    expect(input.GlobalSecondaryIndexes.map((g) => g.IndexName)).toEqual(['GSI1', 'GSI2']);
    expect(plan.table.indexes.map((i) => [i.name, i.keyAttributes])).toEqual([
      ['GSI1', ['GSI1PK', 'GSI1SK']],
      ['GSI2', ['GSI2PK', 'GSI2SK']],
    ]);
  });

  it('loads items with distinct primary keys, at most N per entity, none of them held back for puts', () => {
    const keys = plan.items.map((i) => `${s(i, 'PK')}|${s(i, 'SK')}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const count of Object.values(plan.itemsPerEntity)) {
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(20);
    }
    expect(plan.items).toHaveLength(Object.values(plan.itemsPerEntity).reduce((a, b) => a + b, 0));
  });

  it('marks the transactional put as needing a full engine on dynalite, and runs it as TransactWriteItems elsewhere', () => {
    const embedded = byName(plan.patterns, 'Place order');
    expect(embedded.skipped).toContain(NEEDS_FULL_ENGINE);
    expect(embedded.calls).toEqual([]);

    const full = prepareRun(ecommerce, options(ecommerce, { capabilities: FULL_CAPABILITIES }));
    const place = byName(full.patterns, 'Place order');
    expect(place.skipped).toBeUndefined();
    expect(place.operation).toBe('TransactWriteItems');
    expect(place.calls).toHaveLength(3);
    const loaded = new Set(full.items.map((i) => `${s(i, 'PK')}|${s(i, 'SK')}`));
    for (const call of place.calls) {
      const put = (call.requests[0]!.input['TransactItems'] as Array<{ Put: { Item: Item; TableName: string } }>)[0]!.Put;
      expect(put.TableName).toBe(full.table.name);
      // A put writes a new order: one the load did not hold.
      expect(loaded.has(`${s(put.Item, 'PK')}|${s(put.Item, 'SK')}`)).toBe(false);
    }
  });

  it('sends a GetItem with the sample item’s whole primary key, and predicts 0.5 RCU (one 4 KB block, eventual)', () => {
    const get = byName(plan.patterns, 'Get user profile');
    expect(get.calls).toHaveLength(3);
    const input = get.calls[0]!.requests[0]!.input as { Key: Item; TableName: string; ReturnConsumedCapacity: string };
    expect(input.TableName).toBe(plan.table.name);
    expect(input.ReturnConsumedCapacity).toBe('INDEXES');
    expect(s(input.Key, 'PK')).toMatch(/^USER#/);
    expect(s(input.Key, 'SK')).toBe('PROFILE');
    expect(plan.items.some((i) => s(i, 'PK') === s(input.Key, 'PK') && s(i, 'SK') === 'PROFILE')).toBe(true);
    // A user profile is far below 4,096 B: ceil(size / 4,096) = 1 block × 0.5 (eventually consistent).
    expect(get.prediction?.units).toEqual({ table: 0.5 });
    expect(get.prediction?.derivation.at(-1)).toContain('0.5 RCU');
  });

  it('bounds a range so that the whole sample partition is in it, and takes the filter-free witness beside it', () => {
    const open = byName(plan.patterns, 'List open orders by status, oldest first');
    for (const call of open.calls) {
      const request = call.requests[0]!;
      const input = request.input as { IndexName: string; Limit: number; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, { S: string }>; ProjectionExpression: string };
      expect(input.IndexName).toBe('GSI2');
      expect(input.Limit).toBe(50);
      expect(Object.values(input.ExpressionAttributeNames)).toEqual(expect.arrayContaining(['GSI2PK', 'GSI2SK', 'orderId', 'total']));
      const pk = input.ExpressionAttributeValues[':pk']!.S;
      const upper = input.ExpressionAttributeValues[':sk']!.S;
      const partition = plan.items.filter((i) => s(i, 'GSI2PK') === pk);
      expect(partition.length).toBeGreaterThan(0);
      for (const item of partition) expect(s(item, 'GSI2SK')! <= upper).toBe(true);
      expect(request.witness).toBeDefined();
      expect(request.witness!['ProjectionExpression']).toBeUndefined();
      expect(request.stopAfterItems).toBe(50);
    }
  });

  it('updates status and keeps the sparse GSI2 keys in step: removed when the new status leaves PENDING/PROCESSING, set when it stays', () => {
    const update = byName(plan.patterns, 'Update order status');
    expect(update.calls).toHaveLength(3);
    for (const call of update.calls) {
      const input = call.requests[0]!.input as { UpdateExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, { S: string }> };
      const statusName = Object.entries(input.ExpressionAttributeNames).find(([, a]) => a === 'status')![0];
      const statusValue = input.ExpressionAttributeValues[statusName.replace('#', ':')]!.S;
      const open = statusValue === 'PENDING' || statusValue === 'PROCESSING';
      const gsi2 = Object.entries(input.ExpressionAttributeNames).filter(([, a]) => a === 'GSI2PK' || a === 'GSI2SK').map(([n]) => n);
      expect(gsi2).toHaveLength(2);
      for (const n of gsi2) expect(input.UpdateExpression.includes(open ? `${n} = ` : n)).toBe(true);
      if (!open) expect(input.UpdateExpression).toMatch(/REMOVE/);
      // The table's own key never changes.
      expect(Object.values(input.ExpressionAttributeNames)).not.toContain('PK');
    }
  });

  it('is deterministic for a seed', () => {
    expect(prepareRun(ecommerce, options(ecommerce))).toEqual(plan);
    expect(prepareRun(ecommerce, options(ecommerce, { seed: 8 })).items).not.toEqual(plan.items);
  });

  it('sends reads first, then updates, puts and deletes', () => {
    const full = prepareRun(ecommerce, options(ecommerce, { capabilities: FULL_CAPABILITIES }));
    const kinds = sendOrder(full.patterns).map((p) => (p.kind === 'read' ? 'read' : p.name));
    expect(kinds.slice(-2)).toEqual(['Update order status', 'Place order']);
    expect(kinds.slice(0, -2).every((k) => k === 'read')).toBe(true);
  });
});

describe('prepareRun on the esports example (a multi-attribute GSI key)', () => {
  it('leaves the multi-attribute GSI out on dynalite and marks every pattern on it', () => {
    const plan = prepareRun(esports, options(esports));
    expect(plan.table.omittedIndexes.map((o) => o.name)).toEqual(['MatchesByTournamentRegion']);
    const onIt = plan.patterns.filter((p) => p.target === 'MatchesByTournamentRegion');
    expect(onIt).toHaveLength(3);
    for (const p of onIt) expect(p.skipped).toContain(NEEDS_FULL_ENGINE);
    const gsis = (plan.table.createInput as { GlobalSecondaryIndexes: Array<{ IndexName: string }> }).GlobalSecondaryIndexes;
    expect(gsis.map((g) => g.IndexName)).toEqual(['GSI1']);
  });

  it('creates it on a full engine with repeated HASH and RANGE elements and queries every key attribute by name', () => {
    const plan = prepareRun(esports, options(esports, { capabilities: FULL_CAPABILITIES }));
    const gsi = (plan.table.createInput as { GlobalSecondaryIndexes: Array<{ IndexName: string; KeySchema: unknown[] }> }).GlobalSecondaryIndexes.find(
      (g) => g.IndexName === 'MatchesByTournamentRegion',
    )!;
    expect(gsi.KeySchema).toEqual([
      { AttributeName: 'tournamentId', KeyType: 'HASH' },
      { AttributeName: 'region', KeyType: 'HASH' },
      { AttributeName: 'round', KeyType: 'RANGE' },
      { AttributeName: 'bracket', KeyType: 'RANGE' },
    ]);
    const fromRound = byName(plan.patterns, "List a region's matches from a round on");
    const input = fromRound.calls[0]!.requests[0]!.input as { KeyConditionExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, Record<string, string>> };
    expect(input.KeyConditionExpression).toBe('#k0 = :pk1 AND #k1 = :pk2 AND #k2 >= :sk1');
    expect(input.ExpressionAttributeNames).toEqual({ '#k0': 'tournamentId', '#k1': 'region', '#k2': 'round' });
    // round is a number attribute: the bound is sent as N.
    expect(Object.keys(input.ExpressionAttributeValues[':sk1']!)).toEqual(['N']);
  });
});

describe('prepareRun on a sample too small to reach a sparse index', () => {
  it('still sends every placeholder a Query names, from the sample item’s own values', () => {
    // Five orders: the seeded sample holds no PENDING or PROCESSING order, so GSI2 is empty.
    const plan = prepareRun(ecommerce, options(ecommerce, { itemsPerEntity: 5, repeat: 2, seed: 1 }));
    expect(plan.items.some((i) => i['GSI2PK'] !== undefined)).toBe(false);
    const open = byName(plan.patterns, 'List open orders by status, oldest first');
    for (const call of open.calls) {
      const input = call.requests[0]!.input as { KeyConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> };
      const named = input.KeyConditionExpression.match(/:\w+/g) ?? [];
      expect(named.length).toBe(2);
      for (const placeholder of named) expect(input.ExpressionAttributeValues[placeholder]).toBeDefined();
    }
  });
});
