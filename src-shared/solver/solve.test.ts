/**
 * The solver's rules, one small design each, with the key design expected written by hand from the
 * rule (docs/dynamodb-rules.md §13), and what every proposal must be: complete, valid, serving its
 * patterns, the same for the same seed.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { costDesign } from '../costing/index.ts';
import type { AccessPattern, Attribute, Design, Entity } from '../model/index.ts';
import { validateDesign } from '../model/index.ts';
import { planTable } from '../planner/index.ts';
import { createSolver, identityOf, inputCost, layoutsOf, solve, stripKeyDesign, type Proposal } from './index.ts';

const id = (name: string): Attribute => ({ name, type: 'S', generator: { kind: 'id' } });
const ref = (name: string, entity: string): Attribute => ({ name, type: 'S', generator: { kind: 'ref', entity } });
const text = (name: string, extra: Partial<Attribute> = {}): Attribute => ({ name, type: 'S', ...extra });
const entity = (eid: string, name: string, itemCount: number, attributes: Attribute[]): Entity => ({ id: eid, name, itemCount, attributes, keys: {} });
const pattern = (pid: string, entityId: string, action: AccessPattern['action'], known: string[], rate: number, extra: Partial<AccessPattern> = {}): AccessPattern => ({
  id: pid,
  name: pid,
  entityId,
  action,
  known,
  ratePerSecond: rate,
  consistency: 'eventual',
  ...extra,
});

function design(entities: Entity[], accessPatterns: AccessPattern[]): Design {
  return {
    formatVersion: 1,
    id: 'd',
    name: 'Solver test',
    tables: [{ id: 't', name: 'App', partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' }, billing: { mode: 'ON_DEMAND' }, tableClass: 'STANDARD', globalSecondaryIndexes: [], localSecondaryIndexes: [], entities, accessPatterns }],
  };
}

const templates = (p: Proposal, entityId: string): Record<string, string> => {
  const e = p.design.tables[0]!.entities.find((x) => x.id === entityId)!;
  return Object.fromEntries(Object.entries(e.keys).map(([k, b]) => [k, b.when ? `${b.template} | ${b.when}` : b.template]));
};
const served = (p: Proposal, patternId: string) => p.patterns.find((c) => c.patternId === patternId)!;

/** What `keyplan check` asks of a design: no problem of its rules, and every pattern served without needing a key design. */
function passesCheck(d: Design): void {
  expect(validateDesign(d)).toEqual([]);
  for (const table of d.tables) for (const plan of planTable(table)) expect(plan.isServed && plan.needsKeyDesign === undefined, plan.explanation).toBe(true);
}

const QUICK = { timeBudgetMs: 20_000 };

describe('identity and layouts', () => {
  it('names an item by its id, else <entity>Id, else its references', () => {
    expect(identityOf(entity('e', 'User', 1, [text('email'), id('userId')]))).toEqual(['userId']);
    expect(identityOf(entity('e', 'Order Line', 1, [text('sku'), text('orderLineId')]))).toEqual(['orderLineId']);
    expect(identityOf(entity('e', 'OrderItem', 1, [ref('orderId', 'o'), ref('productId', 'p'), text('qty')]))).toEqual(['orderId', 'productId']);
  });

  it('offers an own partition, and an item collection under each parent a pattern lists it by, ordered by its range', () => {
    const d = design(
      [entity('u', 'User', 10, [id('userId')]), entity('o', 'Order', 100, [id('orderId'), ref('userId', 'u'), text('orderDate')])],
      [pattern('list', 'o', 'query', ['userId'], 10, { range: { attribute: 'orderDate', operator: '>=' } })],
    );
    const layouts = layoutsOf(d.tables[0]!, d.tables[0]!.entities[1]!, false);
    expect(layouts.map((l) => [l.kind, l.keys.partition, l.keys.sort])).toEqual([
      ['own', 'ORDER#{orderId}', 'ORDER'],
      ['child', 'USER#{userId}', 'ORDER#{orderDate}#{orderId}'],
    ]);
  });
});

describe('the rules, each on a small design', () => {
  it('own partition: an entity read by its id gets PK = ENTITY#{id}, SK = ENTITY, and a GetItem', () => {
    const d = design([entity('u', 'User', 1000, [id('userId'), text('name')])], [pattern('get', 'u', 'get', ['userId'], 100)]);
    const [best] = solve(d, 't', QUICK).proposals;
    expect(templates(best!, 'u')).toEqual({ PK: 'USER#{userId}', SK: 'USER' });
    expect(best!.gsiCount).toBe(0);
    expect(served(best!, 'get')).toMatchObject({ badge: 'GetItem', target: 'table' });
    expect(best!.rules.map((r) => r.rule)).toContain('own-partition');
  });

  it('item collection: orders listed by user and date live in the user\'s partition, sorted by date; one Query, no index', () => {
    const d = design(
      [entity('u', 'User', 1000, [id('userId'), text('name')]), entity('o', 'Order', 50_000, [id('orderId'), ref('userId', 'u'), text('orderDate'), text('total')])],
      [pattern('get-user', 'u', 'get', ['userId'], 50), pattern('orders', 'o', 'query', ['userId'], 200, { range: { attribute: 'orderDate', operator: '>=' }, order: 'desc', resultSize: 10 })],
    );
    const [best] = solve(d, 't', QUICK).proposals;
    expect(templates(best!, 'u')).toEqual({ PK: 'USER#{userId}', SK: 'USER' });
    expect(templates(best!, 'o')).toEqual({ PK: 'USER#{userId}', SK: 'ORDER#{orderDate}#{orderId}' });
    expect(best!.gsiCount).toBe(0);
    expect(served(best!, 'orders')).toMatchObject({ badge: 'Query', target: 'table' });
    // The same read units either way for this pattern; the GSI's storage decides.
    expect(served(best!, 'orders').why).toMatch(/^Query on the table .* at \$[\d.,]+\/month; GSI Query on GSI GSI1 .* costs the same for this pattern, and the design as a whole decided/);
    expect(best!.rules.find((r) => r.rule === 'item-collection')?.text).toBe('Order in the item collection of its User: PK = USER#{userId}, SK = ORDER#{orderDate}#{orderId} (ordered by orderDate).');
  });

  it('overloaded GSI: with one GSI allowed, two entities\' lookups share it, each with its own template', () => {
    const d = design(
      [entity('u', 'User', 1000, [id('userId'), text('email')]), entity('p', 'Product', 500, [id('productId'), text('category', { generator: { kind: 'enum', values: ['a', 'b', 'c'] } })])],
      [pattern('by-email', 'u', 'query', ['email'], 20, { resultSize: 1 }), pattern('by-category', 'p', 'query', ['category'], 10, { resultSize: 20 })],
    );
    const [best] = solve(d, 't', { ...QUICK, maxGsis: 1 }).proposals;
    expect(best!.feasible).toBe(true);
    expect(best!.gsiCount).toBe(1);
    const gsi = best!.design.tables[0]!.globalSecondaryIndexes[0]!;
    expect(gsi.partitionKey).toEqual({ name: 'GSI1PK', type: 'S' });
    // Each entity's templates start with its prefix: sharing the index, they share no partition.
    expect(templates(best!, 'u').GSI1PK).toBe('USER#EMAIL#{email}');
    expect(templates(best!, 'p').GSI1PK).toBe('PRODUCT#CATEGORY#{category}');
    expect(best!.rules.map((r) => r.rule)).toContain('overloaded-gsi');
  });

  it('inverted index: order lines in their order\'s collection; the orders of a product through the table key inverted', () => {
    const d = design(
      [
        entity('o', 'Order', 10_000, [id('orderId')]),
        entity('p', 'Product', 1000, [id('productId')]),
        entity('l', 'OrderItem', 40_000, [ref('orderId', 'o'), ref('productId', 'p'), { name: 'quantity', type: 'N' }]),
      ],
      [pattern('lines', 'l', 'query', ['orderId'], 50, { resultSize: 4 }), pattern('orders-of-product', 'l', 'query', ['productId'], 5, { resultSize: 40 })],
    );
    const proposals = solve(d, 't', QUICK).proposals;
    const inverted = proposals.find((p) => p.rules.some((r) => r.rule === 'inverted-index'));
    expect(inverted, JSON.stringify(proposals.map((p) => p.rules))).toBeDefined();
    expect(templates(inverted!, 'l')).toEqual({ PK: 'ORDER#{orderId}', SK: 'ORDERITEM#{productId}', GSI1PK: 'ORDERITEM#{productId}', GSI1SK: 'ORDER#{orderId}' });
    expect(served(inverted!, 'orders-of-product')).toMatchObject({ badge: 'GSI Query', target: 'GSI1' });
    passesCheck(inverted!.design);
  });

  it('sparse index and projection: open orders by status get an index that holds only open orders, projecting what the pattern returns', () => {
    const status = text('status', { generator: { kind: 'enum', values: ['PENDING', 'SHIPPED', 'DELIVERED'], weights: [1, 4, 15] } });
    const d = design(
      [entity('o', 'Order', 100_000, [id('orderId'), status, text('orderDate'), { name: 'total', type: 'N' }, text('notes')])],
      [
        pattern('get', 'o', 'get', ['orderId'], 100),
        pattern('open', 'o', 'query', ['status'], 5, { range: { attribute: 'orderDate', operator: '<=' }, filter: 'status = "PENDING"', returns: ['orderId', 'orderDate', 'total'], resultSize: 50 }),
      ],
    );
    const [best] = solve(d, 't', QUICK).proposals;
    const keys = templates(best!, 'o');
    const gsi = best!.design.tables[0]!.globalSecondaryIndexes[0]!;
    expect(keys[(gsi.partitionKey as { name: string }).name]).toBe('ORDER#STATUS#{status} | status = "PENDING"');
    expect(gsi.projection).toEqual({ type: 'INCLUDE', nonKeyAttributes: ['orderId', 'orderDate', 'total', 'status'] });
    expect(best!.rules.map((r) => r.rule)).toEqual(expect.arrayContaining(['sparse-index', 'projection']));
  });

  it('multi-attribute key: a lookup by two attributes and a range can key a GSI on the items\' own attributes', () => {
    const d = design(
      [entity('m', 'Match', 200_000, [id('matchId'), text('tournamentId'), text('region', { generator: { kind: 'enum', values: ['EU', 'NA', 'APAC'] } }), { name: 'round', type: 'N' }])],
      [pattern('get', 'm', 'get', ['matchId'], 50), pattern('bracket', 'm', 'query', ['tournamentId', 'region'], 30, { range: { attribute: 'round', operator: '>=' }, resultSize: 20 })],
    );
    const proposals = solve(d, 't', QUICK).proposals;
    const natural = proposals.find((p) => Array.isArray(p.design.tables[0]!.globalSecondaryIndexes[0]?.partitionKey));
    expect(natural, 'a proposal keys the GSI on tournamentId + region').toBeDefined();
    expect(natural!.design.tables[0]!.globalSecondaryIndexes[0]).toMatchObject({ partitionKey: [{ name: 'tournamentId', type: 'S' }, { name: 'region', type: 'S' }], sortKey: { name: 'round', type: 'N' } });
    expect(natural!.rules.map((r) => r.rule)).toContain('multi-attribute-key');
  });

  it('write sharding: a device\'s readings written past one partition\'s 1,000 WCU/s are split over shards, calculated from the reading\'s id', () => {
    // 3,000 readings/s of a small item, 60% from one device: about 1,800 WCU/s on one device's partition key.
    const d = design(
      [
        entity('dev', 'Device', 1000, [id('deviceId')]),
        entity('r', 'Reading', 1_000_000, [ref('deviceId', 'dev'), id('readingId'), text('at', { generator: { kind: 'timestamp' } }), { name: 'value', type: 'N' }]),
      ],
      [
        pattern('get-device', 'dev', 'get', ['deviceId'], 5),
        pattern('put', 'r', 'put', ['deviceId', 'readingId', 'at'], 3000, { traffic: { kind: 'hotKey', share: 0.6 } }),
        pattern('list', 'r', 'query', ['deviceId'], 10, { range: { attribute: 'at', operator: '>=' }, resultSize: 50 }),
      ],
    );
    const [best] = solve(d, 't', QUICK).proposals;
    const binding = best!.design.tables[0]!.entities[1]!.keys.PK!;
    expect(binding.template).toBe('DEVICE#{deviceId}');
    expect(binding.shards).toMatchObject({ method: 'calculated', from: 'readingId' });
    expect(binding.shards!.count).toBeGreaterThanOrEqual(2);
    expect(best!.rules.map((r) => r.rule)).toContain('write-sharding');
    expect(best!.partitionRisk?.throttles).toBe(false);
  });

  it('throttling no key causes (capacity sized to the rates, under a spike) is reported, not held against the proposal, and shards nothing', () => {
    // 300 puts/s of a small item spread over a million items, provisioned at the 300 WCU the rate
    // needs; a 3× spike for 10 minutes offers 900 WCU/s: 600 over, the 300 s burst bucket (90,000
    // WCU) gone in 150 s, then throttled. No key is anywhere near one partition's 1,000 WCU/s.
    const d = design([entity('i', 'Item', 1_000_000, [id('itemId'), text('body', { averageSizeBytes: 200 })])], [pattern('put', 'i', 'put', ['itemId'], 300), pattern('get', 'i', 'get', ['itemId'], 300)]);
    d.workload = { durationSeconds: 1800, stepSeconds: 1, seed: 3, events: [{ kind: 'spike', startSecond: 600, durationSeconds: 600, multiplier: 3 }] };
    const [best] = solve(d, 't', { ...QUICK, billing: 'provisioned' }).proposals;
    expect(best!.partitionRisk?.throttles).toBe(true);
    expect(best!.partitionRisk?.summary).toMatch(/^No key of this design is over a partition's limit on its own/);
    expect(best!.partitionRisk?.summary).toContain('provisioned capacity sized to the patterns\' rates is below the workload\'s peaks');
    expect(best!.feasible).toBe(true);
    expect(best!.design.tables[0]!.entities[0]!.keys.PK!.shards).toBeUndefined();
    expect(best!.rules.map((r) => r.rule)).not.toContain('write-sharding');
  });

  it('a single item throttled only by capacity sized to its rate is not "a hot item": 420 updates/s, doubled for 15 minutes, is under one partition\'s 1,000 WCU/s', () => {
    // A one-item counter updated 420 times a second (one < 1 KB item: 1 WCU each), provisioned at
    // the 420 WCU its rate needs; 840 WCU/s at the spike's mean (a little more with arrival noise)
    // is over the capacity once the burst bucket is spent, but under a partition's 1,000: no shard
    // would help, and none is needed.
    const d = design(
      [
        entity('u', 'User', 100_000, [id('userId'), text('bio', { averageSizeBytes: 200 })]),
        entity('c', 'Counter', 1, [text('counterId', { generator: { kind: 'constant', value: 'GLOBAL' } }), { name: 'n', type: 'N' }]),
      ],
      [pattern('get-user', 'u', 'get', ['userId'], 50), pattern('bump', 'c', 'update', ['counterId'], 420, { updates: ['n'] })],
    );
    d.workload = { durationSeconds: 3600, stepSeconds: 1, seed: 1, events: [{ kind: 'spike', startSecond: 600, durationSeconds: 900, multiplier: 2 }] };
    const [best] = solve(d, 't', { ...QUICK, billing: 'provisioned' }).proposals;
    expect(best!.partitionRisk?.throttles).toBe(true);
    expect(best!.partitionRisk?.summary).toMatch(/^No key of this design is over a partition's limit on its own/);
    expect(best!.feasible).toBe(true);
    expect(best!.problems.join(' ')).not.toContain('Sharding cannot spread a single hot item');
  });

  it('does not shard one hot item (sharding cannot spread it): the proposal says so and is not feasible', () => {
    const d = design([entity('p', 'Product', 1000, [id('productId')])], [pattern('get', 'p', 'get', ['productId'], 20_000, { traffic: { kind: 'hotKey', share: 0.9 } })]);
    const [best] = solve(d, 't', QUICK).proposals;
    expect(best!.design.tables[0]!.entities[0]!.keys.PK!.shards).toBeUndefined();
    expect(best!.feasible).toBe(false);
    expect(best!.problems.join(' ')).toContain('Sharding cannot spread a single hot item');
  });
});

describe('the input priced as the proposals are', () => {
  /** 1,000 items of 339 B stored (itemId, body, the keys and the 100 B overhead), at $0.25 per GB-month. */
  const STORAGE_USD = (1000 * 339 / 1_073_741_824) * 0.25;
  // Items of well under 1 KB: 200 gets/s eventually consistent = 100 RCU/s, 100 puts/s = 100 WCU/s.
  const keyed = (): Design => {
    const d = design([{ ...entity('i', 'Item', 1000, [id('itemId'), text('body', { averageSizeBytes: 200 })]), keys: { PK: { template: 'ITEM#{itemId}' }, SK: { template: 'ITEM' } } }], [pattern('get', 'i', 'get', ['itemId'], 200), pattern('put', 'i', 'put', ['itemId'], 100)]);
    d.tables[0]!.billing = { mode: 'PROVISIONED', readCapacityUnits: 1000, writeCapacityUnits: 1000 };
    return d;
  };

  it('provisioned at the capacity its load needs, what it configures kept beside: 100 RCU + 100 WCU, not 1,000 + 1,000', () => {
    const d = keyed();
    const cost = inputCost(d, d.tables[0]!, {});
    // 100 RCU × 730 h × $0.00013 + 100 WCU × 730 h × $0.00065 = $9.49 + $47.45, plus storage billed from
    // the first byte: 1,000 items of 339 B (100 B overhead included) = 339,000 B ÷ 2^30 × $0.25 = $0.0000789.
    expect(cost.onDemand).toBe(false);
    expect(cost.leftOut).toBe(0);
    expect(cost.monthlyUsd).toBeCloseTo(56.94 + STORAGE_USD, 9);
    // As configured: 1,000 × 730 × $0.00013 + 1,000 × 730 × $0.00065 = $94.90 + $474.50.
    expect(cost.asConfiguredUsd).toBeCloseTo(569.4 + STORAGE_USD, 9);
  });

  it('on-demand when the proposals are, whatever the table configures: 200 × 0.5 RRU and 100 WRU a second for a month', () => {
    const d = keyed();
    const cost = inputCost(d, d.tables[0]!, { billing: 'onDemand' });
    // 100 RRU/s × 3,600 × 730 = 262,800,000 RRU × $0.125/M = $32.85; 100 WRU/s → 262,800,000 × $0.625/M = $164.25; and storage.
    expect(cost).toEqual({ monthlyUsd: expect.closeTo(197.1 + STORAGE_USD, 9) as number, onDemand: true, leftOut: 0 });
  });
});

describe('constraints and search', () => {
  const shop = (): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json'), 'utf8')) as Design;

  it('no Scan: a pattern no key can serve (a constant key) makes every proposal infeasible, and says which', () => {
    const d = design([entity('u', 'User', 1000, [id('userId'), text('kind', { generator: { kind: 'constant', value: 'x' } })])], [pattern('all', 'u', 'query', ['kind'], 1)]);
    const [best] = solve(d, 't', { ...QUICK, noScan: true }).proposals;
    expect(best!.feasible).toBe(false);
    expect(best!.problems).toContain('"all" needs a Scan.');
  });

  it('a budget below every design makes the proposals infeasible, naming the cost', () => {
    const d = design([entity('u', 'User', 1000, [id('userId')])], [pattern('get', 'u', 'get', ['userId'], 1000)]);
    const [best] = solve(d, 't', { ...QUICK, monthlyBudgetUsd: 0.01 }).proposals;
    expect(best!.feasible).toBe(false);
    expect(best!.problems.at(-1)).toMatch(/^It costs \$[\d.]+ a month, over the budget of \$0\.01\.$/);
  });

  it('keeps the table key when asked: only indexes are proposed', () => {
    const d = shop();
    const table = d.tables[0]!;
    table.globalSecondaryIndexes = [];
    for (const e of table.entities) e.keys = { PK: e.keys.PK!, SK: e.keys.SK! };
    const [best] = solve(d, table.id, { ...QUICK, keepTableKey: true }).proposals;
    for (const e of best!.design.tables[0]!.entities) {
      const before = table.entities.find((x) => x.id === e.id)!;
      expect([e.keys.PK?.template, e.keys.SK?.template]).toEqual([before.keys.PK!.template, before.keys.SK!.template]);
    }
    // Each entity's rule says it kept its key (an Order under USER#{userId} is no partition of its own).
    const kept = best!.rules.filter((r) => r.rule === 'kept-table-key').map((r) => r.text);
    expect(kept).toContain('Order keeps its table key USER#{userId}.');
    expect(best!.rules.filter((r) => r.rule === 'own-partition' || r.rule === 'item-collection')).toEqual([]);
    passesCheck(best!.design);
  });

  it('is deterministic: the same design and seed give the same proposals', () => {
    const d = stripKeyDesign(shop());
    const a = solve(d, d.tables[0]!.id, { ...QUICK, seed: 7 });
    const b = solve(d, d.tables[0]!.id, { ...QUICK, seed: 7 });
    expect(b.proposals).toEqual(a.proposals);
  });

  it('is anytime: after its first step a complete design is there, and progress counts up to the total', () => {
    const d = stripKeyDesign(shop());
    const solver = createSolver(d, d.tables[0]!.id, QUICK);
    solver.step();
    expect(solver.result().proposals.length).toBeGreaterThan(0);
    expect(solver.progress()).toMatchObject({ phase: 'layouts', total: 16 });
    expect(solver.progress().exhaustive).toBe(true);
    // The finalists are simulated one per step, so a host can stop between them.
    let finalistSteps = 0;
    while (solver.step()) if (solver.progress().phase === 'finalists') finalistSteps += 1;
    expect(finalistSteps).toBeGreaterThanOrEqual(3);
    expect(solver.progress()).toMatchObject({ phase: 'done', evaluated: 16 });
  });
});

describe('the bundled e-commerce example with its key design removed', () => {
  it('the best proposal serves every pattern without a Scan, costs no more than the hand-made example, and passes check', () => {
    const original = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json'), 'utf8')) as Design;
    const hand = costDesign(original).onDemandMonthly.value;
    const stripped = stripKeyDesign(original);
    const [best] = solve(stripped, stripped.tables[0]!.id, { ...QUICK, noScan: true }).proposals;
    expect(best!.feasible).toBe(true);
    expect(best!.patterns.every((p) => p.badge !== 'Scan')).toBe(true);
    expect(best!.monthlyUsd).toBeLessThanOrEqual(hand);
    expect(costDesign(best!.design).onDemandMonthly.value).toBeCloseTo(best!.monthlyUsd, 6);
    passesCheck(best!.design);
  });
});
