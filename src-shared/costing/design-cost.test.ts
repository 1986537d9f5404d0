import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICING } from '../capacity/index.ts';
import type { AccessPattern, AutoScaling, Design, Entity, GlobalSecondaryIndex, Table } from '../model/index.ts';
import { parseDesign } from '../model/index.ts';
import { costDesign, type DesignCost } from './design-cost.ts';
import type { PatternCost } from './pattern-cost.ts';

const STANDARD = DEFAULT_PRICING.tableClasses.STANDARD;

/**
 * An Order entity of exactly 1,024 bytes under the table keys `PK = ORDERS` (one partition key for
 * every order) and `SK = ORDER#{orderId}`: PK 2 + 6, SK 2 + 16, orderId 7 + 10, body 4 + 977.
 */
function order(itemCount = 10_000, overrides: Partial<Entity> = {}): Entity {
  return {
    id: 'ent-order',
    name: 'Order',
    itemCount,
    attributes: [
      { name: 'orderId', type: 'S', averageSizeBytes: 10 },
      { name: 'body', type: 'S', averageSizeBytes: 977 },
    ],
    keys: { PK: { template: 'ORDERS' }, SK: { template: 'ORDER#{orderId}' } },
    ...overrides,
  };
}

/** The same 1,024-byte Order keyed by its id: PK 2 + 16 (`ORDER#{orderId}`), SK 2 + 5 (`ORDER`), orderId 7 + 10, body 4 + 978. */
function orderById(itemCount = 10_000, overrides: Partial<Entity> = {}): Entity {
  return order(itemCount, {
    attributes: [
      { name: 'orderId', type: 'S', averageSizeBytes: 10 },
      { name: 'body', type: 'S', averageSizeBytes: 978 },
    ],
    keys: { PK: { template: 'ORDER#{orderId}' }, SK: { template: 'ORDER' } },
    ...overrides,
  });
}

function pattern(p: Partial<AccessPattern> & Pick<AccessPattern, 'id' | 'action'>): AccessPattern {
  return { name: p.id, entityId: 'ent-order', known: [], ratePerSecond: 1, consistency: 'eventual', ...p };
}

function designOf(table: Partial<Table>, pricing?: Design['pricing']): Design {
  const design: Design = {
    formatVersion: 1,
    id: 'design-costing',
    name: 'Costing',
    tables: [
      {
        id: 'tbl-orders',
        name: 'Orders',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [],
        localSecondaryIndexes: [],
        entities: [order()],
        accessPatterns: [],
        ...table,
      },
    ],
    ...(pricing ? { pricing } : {}),
  };
  // Every design here must be valid: the costs of an invalid one mean nothing.
  const parsed = parseDesign(design);
  if (!parsed.ok) throw new Error(`test design does not validate: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return parsed.value;
}

const costOf = (cost: DesignCost, id: string): PatternCost => {
  const found = cost.tables[0]!.patterns.find((p) => p.patternId === id);
  if (!found) throw new Error(`no pattern ${id}`);
  return found;
};

const gsi = (name: string, projection: GlobalSecondaryIndex['projection'] = { type: 'ALL' }): GlobalSecondaryIndex => ({
  id: `gsi-${name}`,
  name,
  partitionKey: { name: `${name}PK`, type: 'S' },
  sortKey: { name: `${name}SK`, type: 'S' },
  projection,
});

describe('costDesign: reads', () => {
  it.each([
    ['eventual', 1250],
    ['strong', 2500],
  ] as const)('queries 10,000 Order items of 1 KB under one partition key, %s: %i RCU per request (reference E-3)', (consistency, rcu) => {
    const design = designOf({ accessPatterns: [pattern({ id: 'ap-all', action: 'query', consistency })] });
    const cost = costOf(costDesign(design), 'ap-all');
    expect(cost.plan).toMatchObject({ operation: 'Query', target: { kind: 'table' }, itemsRead: 10_000 });
    // 1,024 items fill a 1 MB page: 9 full pages of 256 blocks + 784 items in 196 blocks = 2,500 blocks.
    expect(cost.perRequest.steps.find((s) => s.label === 'Bytes read')?.value).toBe(10_240_000);
    expect(cost.perRequest.steps.find((s) => s.unit === 'units')?.value).toBe(2500);
    expect(cost.perRequest).toMatchObject({ value: rcu, unit: 'RCU' });
    expect(cost.perSecond.value).toBe(rcu);
  });

  it('a GetItem of a 1 KB item is half a unit eventually consistent, one strongly consistent', () => {
    const design = designOf({
      entities: [orderById()],
      accessPatterns: [
        pattern({ id: 'ap-get', action: 'get', known: ['orderId'] }),
        pattern({ id: 'ap-get-strong', action: 'get', known: ['orderId'], consistency: 'strong' }),
      ],
    });
    const cost = costDesign(design);
    expect(costOf(cost, 'ap-get')).toMatchObject({ plan: { operation: 'GetItem' }, perRequest: { value: 0.5, unit: 'RCU' } });
    expect(costOf(cost, 'ap-get-strong').perRequest.value).toBe(1);
  });

  it('a Scan-served pattern gets a cost.scan warning naming the index to add, and no Scan alternative', () => {
    const design = designOf({
      entities: [
        order(10_000, {
          attributes: [...order().attributes, { name: 'customerId', type: 'S', averageSizeBytes: 10 }],
          keys: { PK: { template: 'ORDER#{orderId}' }, SK: { template: 'ORDER' } },
        }),
      ],
      accessPatterns: [pattern({ id: 'ap-by-customer', name: 'Orders of a customer', action: 'query', known: ['customerId'] })],
    });
    const cost = costDesign(design);
    const p = costOf(cost, 'ap-by-customer');
    expect(p.plan).toMatchObject({ operation: 'Scan', isServed: false });
    expect(p.scan).toBeUndefined();
    expect(p.perRequest.value).toBeGreaterThan(0);
    const scanWarnings = cost.warnings.filter((w) => w.code === 'cost.scan');
    expect(scanWarnings).toEqual([expect.objectContaining({ severity: 'error', patternId: 'ap-by-customer' })]);
    expect(scanWarnings[0]!.message).toContain('A GSI keyed on customerId (the entity\'s own attributes) would serve it.');
  });

  it('a served read carries the Scan that would do the same job, and how many times dearer it is', () => {
    const design = designOf({
      entities: [orderById()],
      accessPatterns: [pattern({ id: 'ap-get', action: 'get', known: ['orderId'] })],
    });
    const p = costOf(costDesign(design), 'ap-get');
    // The Scan reads all 10,000 items of 1,024 B: 2,500 blocks, eventually consistent 1,250 RCU.
    expect(p.scan?.perRequest.value).toBe(1250);
    expect(p.scan?.ratio).toBe(1250 / 0.5);
    expect(p.scan?.perSecond.value).toBe(1250);
    expect(costDesign(design).warnings).toEqual([]);
  });

  it('reads on a GSI are charged to the GSI, reads on the table to the table', () => {
    const design = designOf({
      globalSecondaryIndexes: [gsi('GSI1')],
      entities: [
        order(10_000, {
          attributes: [...order().attributes, { name: 'customerId', type: 'S', averageSizeBytes: 10 }],
          keys: { PK: { template: 'ORDER#{orderId}' }, SK: { template: 'ORDER' }, GSI1PK: { template: 'CUSTOMER#{customerId}' }, GSI1SK: { template: '{orderId}' } },
        }),
      ],
      accessPatterns: [
        pattern({ id: 'ap-get', action: 'get', known: ['orderId'], ratePerSecond: 10 }),
        pattern({ id: 'ap-by-customer', action: 'query', known: ['customerId'], ratePerSecond: 4 }),
      ],
    });
    const cost = costDesign(design);
    const byCustomer = costOf(cost, 'ap-by-customer');
    expect(byCustomer.plan.target).toEqual({ kind: 'gsi', name: 'GSI1' });
    const [table, gsi1] = cost.tables[0]!.targets;
    expect(table!.readUnitsPerSecond.value).toBe(10 * 0.5);
    expect(gsi1!.readUnitsPerSecond.value).toBe(byCustomer.perSecond.value);
  });
});

describe('costDesign: writes', () => {
  /** Orders of 1,615 B (2 WCU) with a GSI1 entry for every order, or (sparse) only for open ones. */
  function ordersWithGsi(when?: string): Design {
    return designOf({
      globalSecondaryIndexes: [gsi('GSI1')],
      entities: [
        order(10_000, {
          attributes: [
            { name: 'orderId', type: 'S', averageSizeBytes: 10 },
            { name: 'status', type: 'S', averageSizeBytes: 7, generator: { kind: 'enum', values: ['OPEN', 'SHIPPED', 'DONE', 'CANCELLED'], weights: [1, 1, 1, 1] } },
            { name: 'body', type: 'S', averageSizeBytes: 1500 },
          ],
          keys: {
            PK: { template: 'ORDER#{orderId}' },
            SK: { template: 'ORDER' },
            GSI1PK: when ? { template: 'STATUS#{status}', when } : { template: 'STATUS#{status}' },
            GSI1SK: { template: '{orderId}' },
          },
        }),
      ],
      accessPatterns: [pattern({ id: 'ap-put', action: 'put', known: ['orderId'], ratePerSecond: 10 })],
    });
  }

  it('a put into a table with a GSI that projects ALL pays the table write and the GSI write', () => {
    const cost = costDesign(ordersWithGsi());
    const put = costOf(cost, 'ap-put');
    expect(put.kind).toBe('write');
    // The item and its ALL entry are 1,615 B each: 2 WCU for the table + 2 for GSI1.
    expect(put.perRequest).toMatchObject({ value: 4, unit: 'WCU' });
    expect(put.consumption).toEqual([
      { target: 'table', readUnitsPerSecond: 0, writeUnitsPerSecond: 20 },
      { target: { gsi: 'GSI1' }, readUnitsPerSecond: 0, writeUnitsPerSecond: 20 },
    ]);
    expect(cost.tables[0]!.targets.map((t) => [t.name, t.writeUnitsPerSecond.value])).toEqual([
      ['table', 20],
      ['GSI1', 20],
    ]);
  });

  it('a sparse GSI is weighted by the share of items it holds', () => {
    const cost = costDesign(ordersWithGsi('status = "OPEN"'));
    const put = costOf(cost, 'ap-put');
    expect(put.plan.indexWrites[0]).toMatchObject({ target: { kind: 'gsi', name: 'GSI1' }, effect: 'put', fraction: 0.25 });
    // 2 WCU for the table + 2 WCU × 25% of the orders in GSI1.
    expect(put.perRequest.value).toBe(2.5);
    expect(put.perSecond.value).toBe(25);
    expect(cost.tables[0]!.targets.map((t) => [t.name, t.writeUnitsPerSecond.value])).toEqual([
      ['table', 20],
      ['GSI1', 5],
    ]);
  });

  it('a transactional put doubles the table write, not the index writes', () => {
    const design = ordersWithGsi();
    design.tables[0]!.accessPatterns[0]!.consistency = 'transactional';
    const put = costOf(costDesign(design), 'ap-put');
    expect(put.perRequest.value).toBe(2 * 2 + 2);
  });
});

describe('costDesign: dollars', () => {
  it.each([
    // [GetItems per second, RCU per request, RCU per second]
    [100, 0.5, 50],
    [3, 0.5, 1.5],
  ] as const)('on-demand monthly = RCU/s × 3,600 × 730 / 1e6 × $0.125 (%i GetItems/s)', (rate, perRequest, perSecond) => {
    const design = designOf({
      entities: [orderById()],
      accessPatterns: [pattern({ id: 'ap', action: 'get', known: ['orderId'], ratePerSecond: rate })],
    });
    const p = costOf(costDesign(design), 'ap');
    expect(p.perRequest.value).toBe(perRequest);
    expect(p.perSecond.value).toBe(perSecond);
    expect(p.monthly.onDemand.value).toBeCloseTo(((perSecond * 3600 * 730) / 1e6) * STANDARD.readRequestUnitUsdPerMillion, 9);
    expect(p.monthly.provisioned.value).toBeCloseTo(perSecond * 730 * STANDARD.readCapacityUnitUsdPerHour, 9);
  });

  it('on-demand monthly for writes = WCU/s × 3,600 × 730 / 1e6 × $0.625', () => {
    const design = designOf({ accessPatterns: [pattern({ id: 'ap-put', action: 'put', known: ['orderId'], ratePerSecond: 10 })] });
    const p = costOf(costDesign(design), 'ap-put');
    expect(p.perRequest.value).toBe(1);
    expect(p.monthly.onDemand.value).toBeCloseTo(((10 * 3600 * 730) / 1e6) * 0.625, 9);
  });

  it('provisioned totals round up per table and per GSI, at least 1 unit each, and are then added', () => {
    const design = designOf({
      globalSecondaryIndexes: [gsi('GSI1')],
      entities: [
        order(10_000, {
          keys: { PK: { template: 'ORDER#{orderId}' }, SK: { template: 'ORDER' }, GSI1PK: { template: 'ORDERS' }, GSI1SK: { template: '{orderId}' } },
        }),
      ],
      // 3 GetItems/s at 0.5 RCU: 1.5 RCU/s on the table; nothing reads GSI1 and nothing writes.
      accessPatterns: [pattern({ id: 'ap-get', action: 'get', known: ['orderId'], ratePerSecond: 3 })],
    });
    const table = costDesign(design).tables[0]!;
    const [onTable, onGsi] = table.targets;
    const hourly = (rcu: number, wcu: number) => rcu * 730 * STANDARD.readCapacityUnitUsdPerHour + wcu * 730 * STANDARD.writeCapacityUnitUsdPerHour;
    expect(onTable!.readUnitsPerSecond.value).toBe(1.5);
    expect(onTable!.provisionedMonthly.value).toBeCloseTo(hourly(2, 1), 9);
    expect(onGsi!.provisionedMonthly.value).toBeCloseTo(hourly(1, 1), 9);
    expect(table.provisionedMonthly.value).toBeCloseTo(hourly(3, 2), 9);
    // The pattern's own provisioned figure is its unrounded share.
    expect(table.patterns[0]!.monthly.provisioned.value).toBeCloseTo(1.5 * 730 * STANDARD.readCapacityUnitUsdPerHour, 9);
  });

  it('uses the design\'s own prices', () => {
    const pricing = structuredClone(DEFAULT_PRICING);
    pricing.tableClasses.STANDARD.readRequestUnitUsdPerMillion = 0.25;
    const patterns = [pattern({ id: 'ap-all', action: 'query', ratePerSecond: 1 })];
    const base = costOf(costDesign(designOf({ accessPatterns: patterns })), 'ap-all');
    const priced = costOf(costDesign(designOf({ accessPatterns: patterns }, pricing)), 'ap-all');
    expect(priced.monthly.onDemand.value).toBeCloseTo(base.monthly.onDemand.value * 2, 9);
  });

  it('storage is billed from the first byte at the default prices (the free tier is the account\'s, not this design\'s); the totals add requests or capacity to it', () => {
    const design = designOf({ accessPatterns: [pattern({ id: 'ap-all', action: 'query', ratePerSecond: 1 })] });
    const cost = costDesign(design);
    // 10,000 items × (1,024 + 100) B = 11,240,000 B = 0.010468 GB (÷ 1,073,741,824); × $0.25 = $0.0026170164.
    expect(cost.tables[0]!.storageBytes.value).toBe(10_000 * 1124);
    expect(cost.storageMonthly.value).toBe(0.0026170164);
    expect(cost.onDemandMonthly.value).toBeCloseTo(cost.tables[0]!.onDemandMonthly.value + 0.0026170164, 9);
    expect(cost.provisionedMonthly.value).toBeCloseTo(cost.tables[0]!.provisionedMonthly.value + 0.0026170164, 9);
  });
});

describe('costDesign: figures', () => {
  it('the rate assumption belongs to the per-second figure, not the per-request one', () => {
    const design = designOf({ accessPatterns: [pattern({ id: 'ap-put', action: 'put', known: ['orderId'], ratePerSecond: 10 })] });
    const p = costOf(costDesign(design), 'ap-put');
    const rate = p.perSecond.assumptions.find((a) => a.startsWith('Capacity is sized from the peak 10/s'));
    expect(rate).toBeDefined();
    expect(p.perRequest.assumptions).not.toContain(rate);
  });
});

describe('examples/ecommerce.keyplan.json', () => {
  const parsed = parseDesign(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json'), 'utf8')));
  if (!parsed.ok) throw new Error('the example does not validate');
  const cost = costDesign(parsed.value);
  const shop = cost.tables[0]!;

  it('costs every pattern without warnings', () => {
    expect(shop.patterns).toHaveLength(11);
    expect(shop.patterns.every((p) => p.plan.isServed && p.perRequest.value > 0)).toBe(true);
    expect(cost.warnings).toEqual([]);
  });

  it('totals are the sums of the patterns (on-demand) and of the table and GSIs (provisioned)', () => {
    const requests = shop.patterns.reduce((s, p) => s + p.monthly.onDemand.value, 0);
    expect(shop.onDemandMonthly.value).toBeCloseTo(requests, 6);
    expect(shop.provisionedMonthly.value).toBeCloseTo(shop.targets.reduce((s, t) => s + t.provisionedMonthly.value, 0), 6);
    expect(cost.onDemandMonthly.value).toBeCloseTo(requests + cost.storageMonthly.value, 6);
    expect(shop.targets.map((t) => t.name)).toEqual(['table', 'GSI1', 'GSI2']);
  });

  it('prices the sign-in lookup on GSI1 at half a unit per request', () => {
    const p = shop.patterns.find((x) => x.patternId === 'ap-get-user-by-email')!;
    expect(p.plan.target).toEqual({ kind: 'gsi', name: 'GSI1' });
    expect(p.perRequest.value).toBe(0.5);
    expect(p.consumption).toEqual([{ target: { gsi: 'GSI1' }, readUnitsPerSecond: 25, writeUnitsPerSecond: 0 }]);
  });
});

describe('costDesign: provisioned tables are billed for the capacity they hold', () => {
  // Prices: $0.00013 per RCU-hour and $0.00065 per WCU-hour (us-east-1 Standard), 730 hours a month.
  // https://aws.amazon.com/dynamodb/pricing/provisioned/
  const provisioned = (read: number, write: number, autoScaling?: AutoScaling): Table['billing'] => ({
    mode: 'PROVISIONED',
    readCapacityUnits: read,
    writeCapacityUnits: write,
    ...(autoScaling ? { autoScaling } : {}),
  });
  /** 1,024-byte Orders put at `rate` per second: `rate` WCU/s on the table, nothing read. */
  const puts = (rate: number) => [pattern({ id: 'ap-put', action: 'put', known: ['orderId'], ratePerSecond: rate })];
  const codes = (cost: DesignCost) => cost.warnings.map((w) => w.code);

  it('fixed 100 RCU / 100 WCU for 730 h cost $9.49 + $47.45 = $56.94, whatever the load', () => {
    const cost = costDesign(designOf({ billing: provisioned(100, 100) }));
    const table = cost.tables[0]!;
    const target = table.targets[0]!;
    expect(target.billed).toEqual({ readCapacityUnits: 100, writeCapacityUnits: 100 });
    expect(target.loadNeeds).toEqual({ readCapacityUnits: 1, writeCapacityUnits: 1 });
    expect(target.provisionedMonthly.value).toBe(56.94);
    expect(target.provisionedMonthly.steps.map((s) => [s.expression, s.value])).toEqual([
      ['100 RCU as configured', 100],
      ['100 WCU as configured', 100],
      ['100 RCU × 730 h × $0.00013', 9.49],
      ['100 WCU × 730 h × $0.00065', 47.45],
      ['$9.49 + $47.45', 56.94],
    ]);
    expect(target.provisionedMonthly.steps.every((s) => s.source === undefined || s.source.url.startsWith('https://'))).toBe(true);
    // The load alone (nothing) would need 1 RCU + 1 WCU: $0.0949 + $0.4745.
    expect(target.loadOnlyMonthly.value).toBe(0.5694);
    expect(table.provisionedMonthly.value).toBe(56.94);
    expect(table.loadOnlyMonthly.value).toBe(0.5694);
    // The design total is the configured capacity plus storage: 10,000 × 1,124 B = 0.010468 GB × $0.25 = $0.0026170164.
    expect(cost.storageMonthly.value).toBe(0.0026170164);
    expect(cost.provisionedMonthly.value).toBe(56.9426170164);
  });

  it('auto scaling holds ceil(150 WCU/s ÷ 70 %) = 215 WCU: 215 × 730 × $0.00065 = $102.0175', () => {
    const cost = costDesign(designOf({ billing: provisioned(1, 100, { write: { minCapacity: 5, maxCapacity: 1000, targetUtilizationPercent: 70 } }), accessPatterns: puts(150) }));
    const target = cost.tables[0]!.targets[0]!;
    expect(target.writeUnitsPerSecond.value).toBe(150);
    expect(target.billed).toEqual({ readCapacityUnits: 1, writeCapacityUnits: 215 });
    expect(target.loadNeeds).toEqual({ readCapacityUnits: 1, writeCapacityUnits: 150 });
    const steps = target.provisionedMonthly.steps;
    expect(steps.filter((s) => s.unit === 'WCU').map((s) => [s.expression, s.value])).toEqual([
      ['ceil(150 WCU/s ÷ 70 %)', 215],
      ['clamp(215, min 5, max 1,000)', 215],
    ]);
    expect(steps.find((s) => s.label.startsWith('Write capacity ('))?.value).toBe(102.0175);
    // 1 RCU × 730 × $0.00013 = $0.0949, + $102.0175.
    expect(target.provisionedMonthly.value).toBe(102.1124);
    expect(target.provisionedMonthly.assumptions.some((a) => a.startsWith('Auto scaling is taken as settled'))).toBe(true);
    // The load alone: 1 RCU + 150 WCU = $0.0949 + $71.175.
    expect(target.loadOnlyMonthly.value).toBe(71.2699);
    // The design adds its storage: 10,000 × 1,124 B = 0.010468 GB × $0.25 = $0.0026170164.
    expect(cost.provisionedMonthly.value).toBe(102.1150170164);
    expect(cost.warnings).toEqual([]);
  });

  it('the minimum is a floor: min 400 WCU for a load that needs 215 holds 400 (400 × 730 × $0.00065 = $189.80), and says the floor is wasted', () => {
    const cost = costDesign(designOf({ billing: provisioned(1, 100, { write: { minCapacity: 400, maxCapacity: 1000, targetUtilizationPercent: 70 } }), accessPatterns: puts(150) }));
    const target = cost.tables[0]!.targets[0]!;
    expect(target.billed.writeCapacityUnits).toBe(400);
    expect(target.provisionedMonthly.value).toBe(189.8949); // + 1 RCU, $0.0949
    // 400 > 2 × 150, and the 250 unused WCU cost 250 × 730 × $0.00065 = $118.63 a month.
    expect(cost.warnings).toEqual([expect.objectContaining({ code: 'cost.overProvisioned', severity: 'warning' })]);
    expect(cost.warnings[0]!.message).toContain('minimum of 400 WCU');
    expect(cost.warnings[0]!.message).toContain('$118.63 a month');
  });

  it('a floor at most twice the need is not flagged: min 250 WCU for 150 WCU/s', () => {
    const cost = costDesign(designOf({ billing: provisioned(1, 100, { write: { minCapacity: 250, maxCapacity: 1000, targetUtilizationPercent: 70 } }), accessPatterns: puts(150) }));
    expect(cost.tables[0]!.targets[0]!.billed.writeCapacityUnits).toBe(250);
    expect(cost.warnings).toEqual([]);
  });

  it('the maximum caps what is held: max 100 WCU for 150 WCU/s holds 100 ($47.45) and writes throttle', () => {
    const cost = costDesign(designOf({ billing: provisioned(1, 100, { write: { minCapacity: 5, maxCapacity: 100, targetUtilizationPercent: 70 } }), accessPatterns: puts(150) }));
    const target = cost.tables[0]!.targets[0]!;
    expect(target.billed.writeCapacityUnits).toBe(100);
    expect(target.provisionedMonthly.steps.find((s) => s.expression.startsWith('clamp('))?.expression).toBe('clamp(215, min 5, max 100)');
    expect(target.provisionedMonthly.value).toBe(47.5449); // + 1 RCU, $0.0949
    expect(cost.warnings).toEqual([expect.objectContaining({ code: 'cost.underProvisioned', severity: 'error' })]);
    expect(cost.warnings[0]!.message).toContain('up to at most 100 WCU');
  });

  it('a maximum between the load and load ÷ target holds the maximum without throttling: max 180 for 150 WCU/s', () => {
    const cost = costDesign(designOf({ billing: provisioned(1, 100, { write: { minCapacity: 5, maxCapacity: 180, targetUtilizationPercent: 70 } }), accessPatterns: puts(150) }));
    expect(cost.tables[0]!.targets[0]!.billed.writeCapacityUnits).toBe(180);
    expect(cost.warnings).toEqual([]);
  });

  it.each([
    // [fixed RCU, fixed WCU, WCU/s of load, warnings]
    [5, 1, 0, []], // 5 RCU for a need of 1: 5×, but the 4 unused RCU cost $0.38 a month
    [1, 5, 0, ['cost.overProvisioned']], // 4 unused WCU cost 4 × 730 × $0.00065 = $1.90 a month
    [1, 300, 150, []], // exactly 2× the need
    [1, 301, 150, ['cost.overProvisioned']],
    [1, 149, 150, ['cost.underProvisioned']],
  ] as const)('fixed %i RCU / %i WCU for %i WCU/s: %j', (rcu, wcu, rate, expected) => {
    const cost = costDesign(designOf({ billing: provisioned(rcu, wcu), accessPatterns: rate > 0 ? puts(rate) : [] }));
    expect(codes(cost)).toEqual(expected);
  });

  it('a GSI is billed for what its own auto scaling holds: ceil(20 WCU/s ÷ 50 %) = 40 WCU', () => {
    const design = designOf({
      billing: provisioned(1, 20),
      globalSecondaryIndexes: [{ ...gsi('GSI1'), provisioned: { readCapacityUnits: 1, writeCapacityUnits: 5, autoScaling: { write: { minCapacity: 1, maxCapacity: 100, targetUtilizationPercent: 50 } } } }],
      entities: [
        order(10_000, {
          attributes: [
            { name: 'orderId', type: 'S', averageSizeBytes: 10 },
            { name: 'body', type: 'S', averageSizeBytes: 1500 },
          ],
          keys: { PK: { template: 'ORDER#{orderId}' }, SK: { template: 'ORDER' }, GSI1PK: { template: 'ORDER#{orderId}' }, GSI1SK: { template: 'ORDER' } },
        }),
      ],
      // Orders of about 1.5 KB: 2 WCU on the table and 2 on GSI1 per put, 10 puts/s.
      accessPatterns: puts(10),
    });
    const table = costDesign(design).tables[0]!;
    const [onTable, onGsi] = table.targets;
    expect([onTable!.writeUnitsPerSecond.value, onGsi!.writeUnitsPerSecond.value]).toEqual([20, 20]);
    expect(onGsi!.billed).toEqual({ readCapacityUnits: 1, writeCapacityUnits: 40 });
    // Table: 1 RCU ($0.0949) + 20 WCU ($9.49); GSI1: 1 RCU ($0.0949) + 40 WCU (40 × 730 × $0.00065 = $18.98).
    expect(onTable!.provisionedMonthly.value).toBe(9.5849);
    expect(onGsi!.provisionedMonthly.value).toBe(19.0749);
    expect(table.provisionedMonthly.value).toBe(28.6598);
  });

  it('an on-demand table keeps the what-if: exactly the load in whole units', () => {
    const target = costDesign(designOf({ accessPatterns: puts(150) })).tables[0]!.targets[0]!;
    expect(target.configured).toBeUndefined();
    expect(target.billed).toEqual({ readCapacityUnits: 1, writeCapacityUnits: 150 });
    expect(target.provisionedMonthly).toBe(target.loadOnlyMonthly);
    expect(target.provisionedMonthly.value).toBe(71.2699);
  });
});

describe('examples/ecommerce.keyplan.json, provisioned', () => {
  it('totals equal the configured capacity × 730 h × price, plus storage', () => {
    const design = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json'), 'utf8')) as Design;
    const shop = design.tables[0]!;
    shop.billing = { mode: 'PROVISIONED', readCapacityUnits: 1000, writeCapacityUnits: 200 };
    const [gsi1, gsi2] = shop.globalSecondaryIndexes;
    gsi1!.provisioned = { readCapacityUnits: 800, writeCapacityUnits: 200 };
    gsi2!.provisioned = { readCapacityUnits: 100, writeCapacityUnits: 100 };
    const parsed = parseDesign(design);
    if (!parsed.ok) throw new Error('the provisioned example does not validate');
    const cost = costDesign(parsed.value);
    // 1,900 RCU × 730 × $0.00013 = $180.31; 500 WCU × 730 × $0.00065 = $237.25.
    expect(cost.tables[0]!.provisionedMonthly.value).toBe(417.56);
    expect(cost.tables[0]!.targets.map((t) => t.provisionedMonthly.value)).toEqual([189.8, 170.82, 56.94]); // 94.90 + 94.90; 75.92 + 94.90; 9.49 + 47.45
    // Storage is billed from the first GB at the default prices: bytes ÷ 1,073,741,824 × $0.25.
    const bytes = cost.tables[0]!.storageBytes.value;
    expect(bytes).toBeGreaterThan(1_073_741_824);
    expect(cost.storageMonthly.value).toBeCloseTo((bytes / 1_073_741_824) * 0.25, 9);
    expect(cost.provisionedMonthly.value).toBeCloseTo(417.56 + cost.storageMonthly.value, 9);
  });
});
