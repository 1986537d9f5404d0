import { describe, expect, it } from 'vitest';
import type { AccessPattern, Design, Table } from '../model/index.ts';
import { parseDesign } from '../model/index.ts';
import { costDesign } from './design-cost.ts';

/**
 * Orders of 1,615 B under `PK = ORDER#{orderId}`, each with a GSI1 entry projecting ALL: a put is
 * 2 WCU on the table and 2 on GSI1, an eventually consistent GetItem 0.5 RCU.
 */
function orders(patterns: { gets?: number; puts?: number }, table: Partial<Table> = {}): Design {
  const accessPatterns: AccessPattern[] = [];
  if (patterns.gets) accessPatterns.push({ id: 'ap-get', name: 'Get order', entityId: 'ent-order', action: 'get', known: ['orderId'], ratePerSecond: patterns.gets, consistency: 'eventual' });
  if (patterns.puts) accessPatterns.push({ id: 'ap-put', name: 'Place order', entityId: 'ent-order', action: 'put', known: ['orderId'], ratePerSecond: patterns.puts, consistency: 'eventual' });
  const design: Design = {
    formatVersion: 1,
    id: 'design-throughput',
    name: 'Throughput',
    tables: [
      {
        id: 'tbl-orders',
        name: 'Orders',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [{ id: 'gsi-1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'ALL' } }],
        localSecondaryIndexes: [],
        entities: [
          {
            id: 'ent-order',
            name: 'Order',
            itemCount: 10_000,
            attributes: [
              { name: 'orderId', type: 'S', averageSizeBytes: 10 },
              { name: 'status', type: 'S', averageSizeBytes: 7, generator: { kind: 'enum', values: ['OPEN', 'SHIPPED', 'DONE', 'CANCELLED'], weights: [1, 1, 1, 1] } },
              { name: 'body', type: 'S', averageSizeBytes: 1500 },
            ],
            keys: { PK: { template: 'ORDER#{orderId}' }, SK: { template: 'ORDER' }, GSI1PK: { template: 'STATUS#{status}' }, GSI1SK: { template: '{orderId}' } },
          },
        ],
        accessPatterns,
        ...table,
      },
    ],
  };
  const parsed = parseDesign(design);
  if (!parsed.ok) throw new Error(`test design does not validate: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return parsed.value;
}

const warningsOf = (design: Design, code: string) => costDesign(design).warnings.filter((w) => w.code === code);

describe('on-demand maximums: a peak above the maximum throttles, as DynamoDB names it', () => {
  it('30,000 GetItem/s of 0.5 RCU (15,000 RRU/s) against a table maximum of 10,000 read request units', () => {
    const [warning, ...rest] = warningsOf(orders({ gets: 30_000 }, { onDemandThroughput: { maxReadRequestUnits: 10_000 } }), 'cost.onDemandMaximum');
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ severity: 'error' });
    expect(warning!.message).toContain('Table Orders: its patterns peak at 15,000 read request units/s, above its on-demand maximum of 10,000 (maxReadRequestUnits)');
    expect(warning!.message).toContain('ThrottlingException, reason TableReadMaxOnDemandThroughputExceeded');
    expect(warning!.message).toContain('Patterns: "Get order" 15,000.');
  });

  it('a maximum equal to the peak does not throttle', () => {
    expect(warningsOf(orders({ gets: 30_000 }, { onDemandThroughput: { maxReadRequestUnits: 15_000 } }), 'cost.onDemandMaximum')).toEqual([]);
  });

  it("a GSI's write maximum below its 20 WRU/s throttles the table's writes too (back-pressure)", () => {
    const design = orders({ puts: 10 });
    design.tables[0]!.globalSecondaryIndexes[0]!.onDemandThroughput = { maxWriteRequestUnits: 15 };
    design.tables[0]!.onDemandThroughput = { maxWriteRequestUnits: 100 };
    const [warning, ...rest] = warningsOf(design, 'cost.onDemandMaximum');
    expect(rest).toEqual([]);
    expect(warning!.message).toMatch(/^GSI GSI1: its patterns peak at 20 write request units\/s, above its on-demand maximum of 15 \(maxWriteRequestUnits\)/);
    expect(warning!.message).toContain('reason IndexWriteMaxOnDemandThroughputExceeded');
    expect(warning!.message).toContain("The table's writes that update GSI1 throttle too (GSI back-pressure");
    expect(warning!.message).toContain('Patterns: "Place order" 20.');
  });

  it('the costs carry each target’s maximum', () => {
    const design = orders({ puts: 10 }, { onDemandThroughput: { maxWriteRequestUnits: 100 } });
    expect(costDesign(design).tables[0]!.targets.map((t) => t.onDemandMaximum)).toEqual([{ maxWriteRequestUnits: 100 }, undefined]);
  });
});

describe('warm throughput against the load', () => {
  it('15,000 read units/s on a new on-demand table (12,000 at once) may throttle until it scales, and says what pre-warming costs', () => {
    const [warning, ...rest] = warningsOf(orders({ gets: 30_000 }), 'cost.warmThroughput');
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ severity: 'warning' });
    expect(warning!.message).toContain('Table Orders: its patterns peak at 15,000 read units/s, above the 12,000 it serves at once (the default of a new on-demand table, no warm throughput set)');
    expect(warning!.message).toContain('Reads may throttle until DynamoDB scales');
    expect(warning!.message).toContain('2× its previous peak');
    // (15,000 − 12,000) × $0.00013 = $0.39
    expect(warning!.message).toContain('Pre-warm by setting warm throughput to 15,000 read units/s (about $0.39 once, an estimate');
  });

  it('a warm throughput at the peak leaves nothing to warn', () => {
    expect(warningsOf(orders({ gets: 30_000 }, { warmThroughput: { readUnitsPerSecond: 15_000 } }), 'cost.warmThroughput')).toEqual([]);
  });

  it("2,500 puts/s write 5,000 units/s on the table and on GSI1, above a new table's 4,000: both warned, the GSI with back-pressure", () => {
    const warnings = warningsOf(orders({ puts: 2_500 }), 'cost.warmThroughput');
    expect(warnings.map((w) => w.message.split(':')[0])).toEqual(['Table Orders', 'GSI GSI1']);
    expect(warnings[1]!.message).toContain("Writes may throttle until DynamoDB scales, and the table's writes with them (GSI back-pressure)");
    // (5,000 − 4,000) × $0.00065 = $0.65
    expect(warnings[1]!.message).toContain('warm throughput to 5,000 write units/s (about $0.65 once');
  });

  it('a provisioned table is not warned: its capacity is what it serves at once', () => {
    const gsi = { id: 'gsi-1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'ALL' }, provisioned: { readCapacityUnits: 1, writeCapacityUnits: 1 } } as const;
    const design = orders({ gets: 30_000 }, { billing: { mode: 'PROVISIONED', readCapacityUnits: 20_000, writeCapacityUnits: 10 }, globalSecondaryIndexes: [gsi] });
    expect(costDesign(design).tables[0]!.targets[0]!.readUnitsPerSecond.value).toBe(15_000);
    expect(warningsOf(design, 'cost.warmThroughput')).toEqual([]);
  });

  it('each target shows its warm throughput, implied partitions and one-time pre-warming cost; the totals add them', () => {
    const design = orders({ puts: 1 }, { warmThroughput: { readUnitsPerSecond: 30_000, writeUnitsPerSecond: 10_000 } });
    design.tables[0]!.globalSecondaryIndexes[0]!.warmThroughput = { writeUnitsPerSecond: 5_000 };
    const cost = costDesign(design);
    const [table, gsi] = cost.tables[0]!.targets;
    // ceil(max(30,000 / 3,000, 10,000 / 1,000)) = 10; (30,000 − 12,000) × $0.00013 + (10,000 − 4,000) × $0.00065 = $6.24
    expect([table!.warmThroughput.partitions.value, table!.warmThroughput.preWarmUsd.value, table!.warmThroughput.isSet]).toEqual([10, 6.24, true]);
    // ceil(max(12,000 / 3,000, 5,000 / 1,000)) = 5; (5,000 − 4,000) × $0.00065 = $0.65
    expect([gsi!.warmThroughput.partitions.value, gsi!.warmThroughput.preWarmUsd.value]).toEqual([5, 0.65]);
    expect(cost.tables[0]!.preWarmUsd.value).toBeCloseTo(6.89, 10);
    expect(cost.preWarmUsd.value).toBeCloseTo(6.89, 10);
    expect(cost.preWarmUsd.assumptions.join(' ')).toContain('publishes no price');
  });

  it('a table without warm throughput shows the default, 4 partitions (as the simulator starts a new on-demand table) and nothing to pay', () => {
    const [table] = costDesign(orders({ puts: 1 })).tables[0]!.targets;
    expect([table!.warmThroughput.isSet, table!.warmThroughput.partitions.value, table!.warmThroughput.preWarmUsd.value]).toEqual([false, 4, 0]);
  });
});

describe('warm throughput and Scans', () => {
  it('leaves out the load of a pattern served by a Scan: its fix is a key, not pre-warming', () => {
    const design = orders({ gets: 1 });
    // A query by body has no key or index on it: a Scan of all 10,000 orders, 100 times a second.
    design.tables[0]!.accessPatterns.push({ id: 'ap-scan', name: 'Orders by body', entityId: 'ent-order', action: 'query', known: ['body'], ratePerSecond: 100, consistency: 'eventual' });
    const cost = costDesign(design);
    expect(cost.tables[0]!.patterns.find((p) => p.patternId === 'ap-scan')?.plan.operation).toBe('Scan');
    expect(cost.tables[0]!.targets[0]!.readUnitsPerSecond.value).toBeGreaterThan(12_000);
    expect(cost.warnings.filter((w) => w.code === 'cost.warmThroughput')).toEqual([]);
  });
});
