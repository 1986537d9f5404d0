import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICING } from '../capacity/index.ts';
import type { AccessPattern, Design, Entity, GlobalSecondaryIndex, Table } from '../model/schema.ts';
import { parseDesign } from '../model/validate.ts';
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
    expect(scanWarnings[0]!.message).toContain('CUSTOMERID#{customerId}');
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

  it('storage under the free 25 GB costs nothing; the totals add requests or capacity to it', () => {
    const design = designOf({ accessPatterns: [pattern({ id: 'ap-all', action: 'query', ratePerSecond: 1 })] });
    const cost = costDesign(design);
    // 10,000 items × (1,024 + 100) B.
    expect(cost.tables[0]!.storageBytes.value).toBe(10_000 * 1124);
    expect(cost.storageMonthly.value).toBe(0);
    expect(cost.onDemandMonthly.value).toBeCloseTo(cost.tables[0]!.onDemandMonthly.value, 9);
    expect(cost.provisionedMonthly.value).toBeCloseTo(cost.tables[0]!.provisionedMonthly.value, 9);
  });
});

describe('costDesign: figures', () => {
  it('the rate assumption belongs to the per-second figure, not the per-request one', () => {
    const design = designOf({ accessPatterns: [pattern({ id: 'ap-put', action: 'put', known: ['orderId'], ratePerSecond: 10 })] });
    const p = costOf(costDesign(design), 'ap-put');
    const rate = p.perSecond.assumptions.find((a) => a.startsWith('The rate is taken as sustained'));
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
