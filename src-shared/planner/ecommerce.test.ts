import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyIndexSuggestion, planPattern, planTable, type Plan } from './index.ts';
import { RANGE_OPERATORS, type AccessPattern, type Design, type Table, validateDesign } from '../model/index.ts';
import { cpuNowMs } from '../../tests/support/cpu-time.ts';

const example = JSON.parse(readFileSync(new URL('../../examples/ecommerce.keyplan.json', import.meta.url), 'utf8')) as Design;
const shop = (): Table => structuredClone(example.tables[0]!);
const patternOf = (t: Table, id: string): AccessPattern => {
  const p = t.accessPatterns.find((x) => x.id === id);
  if (!p) throw new Error(`no pattern ${id}`);
  return p;
};

type Expected = Partial<Pick<Plan, 'operation' | 'badge' | 'target' | 'keyCondition' | 'values' | 'scanIndexForward' | 'itemsRead' | 'itemsReturned' | 'consistency' | 'isServed'>>;

describe('examples/ecommerce.keyplan.json', () => {
  it('has the 11 patterns planned here', () => {
    expect(shop().accessPatterns).toHaveLength(11);
  });

  it.each<[string, Expected]>([
    ['ap-get-user', { operation: 'GetItem', badge: 'GetItem', target: { kind: 'table' }, keyCondition: 'PK = :pk AND SK = :sk', values: { ':pk': 'USER#{userId}', ':sk': 'PROFILE' }, itemsRead: 1 }],
    [
      'ap-get-user-by-email',
      { operation: 'Query', badge: 'GSI Query', target: { kind: 'gsi', name: 'GSI1' }, keyCondition: 'GSI1PK = :pk AND GSI1SK = :sk', values: { ':pk': 'EMAIL#{email}', ':sk': 'PROFILE' }, itemsRead: 1, itemsReturned: 1 },
    ],
    ['ap-get-product', { operation: 'GetItem', target: { kind: 'table' }, keyCondition: 'PK = :pk AND SK = :sk', values: { ':pk': 'PRODUCT#{productId}', ':sk': 'METADATA' }, itemsRead: 1 }],
    [
      'ap-list-products-in-category',
      { operation: 'Query', badge: 'GSI Query', target: { kind: 'gsi', name: 'GSI1' }, keyCondition: 'GSI1PK = :pk AND begins_with(GSI1SK, :sk)', values: { ':pk': 'CATEGORY#{category}', ':sk': 'PRODUCT#' }, itemsRead: 24, itemsReturned: 24 },
    ],
    [
      'ap-list-orders-for-user',
      {
        operation: 'Query',
        badge: 'Query',
        target: { kind: 'table' },
        keyCondition: 'PK = :pk AND SK BETWEEN :sk AND :skEnd',
        values: { ':pk': 'USER#{userId}', ':sk': 'ORDER#{orderDate}', ':skEnd': 'ORDER$' },
        scanIndexForward: false,
        // 5,000,000 orders over 1,000,000 users: 5 per user, fewer than the 20 asked for.
        itemsRead: 5,
        itemsReturned: 5,
      },
    ],
    [
      'ap-get-order',
      { operation: 'Query', badge: 'GSI Query', target: { kind: 'gsi', name: 'GSI1' }, keyCondition: 'GSI1PK = :pk AND GSI1SK = :sk', values: { ':pk': 'ORDER#{orderId}', ':sk': 'ORDER' }, itemsRead: 1 },
    ],
    [
      'ap-list-order-items',
      // 12,000,000 order items over 5,000,000 orders: 2.4 per order.
      { operation: 'Query', badge: 'Query', target: { kind: 'table' }, keyCondition: 'PK = :pk AND begins_with(SK, :sk)', values: { ':pk': 'ORDER#{orderId}', ':sk': 'ITEM#' }, itemsRead: 2.4, itemsReturned: 2.4 },
    ],
    [
      'ap-list-open-orders',
      {
        operation: 'Query',
        badge: 'GSI Query',
        target: { kind: 'gsi', name: 'GSI2' },
        keyCondition: 'GSI2PK = :pk AND GSI2SK <= :sk',
        values: { ':pk': 'STATUS#{status}', ':sk': '{orderDate}' },
        scanIndexForward: true,
        itemsRead: 50,
      },
    ],
    [
      'ap-list-reviews-for-product',
      {
        operation: 'Query',
        target: { kind: 'table' },
        keyCondition: 'PK = :pk AND SK BETWEEN :sk AND :skEnd',
        values: { ':pk': 'PRODUCT#{productId}', ':sk': 'REVIEW#{createdAt}', ':skEnd': 'REVIEW$' },
        scanIndexForward: false,
        itemsRead: 10,
      },
    ],
    ['ap-put-order', { operation: 'PutItem', badge: 'PutItem', target: { kind: 'table' }, keyCondition: 'PK = :pk, SK = :sk', values: { ':pk': 'USER#{userId}', ':sk': 'ORDER#{orderDate}#{orderId}' }, consistency: 'transactional', itemsRead: 0 }],
    ['ap-update-order-status', { operation: 'UpdateItem', badge: 'UpdateItem', target: { kind: 'table' }, keyCondition: 'PK = :pk, SK = :sk', values: { ':pk': 'USER#{userId}', ':sk': 'ORDER#{orderDate}#{orderId}' }, isServed: true }],
  ])('plans %s', (id, expected) => {
    const t = shop();
    expect(planPattern(t, patternOf(t, id))).toMatchObject({ patternId: id, isServed: true, ...expected });
  });

  it('states the cardinality assumptions behind the counts', () => {
    const t = shop();
    const plan = planPattern(t, patternOf(t, 'ap-list-orders-for-user'));
    expect(plan.assumptions).toContain('Order.userId has 1,000,000 distinct values (its cardinality)');
    expect(plan.assumptions).toContain('5 Order items per userId value (5,000,000 in Table / 1,000,000)');
    expect(plan.assumptions).toContain('resultSize 20 is more than the 5 items the key condition matches: reads 5');
  });

  it('serves the open-orders pattern from the sparse GSI2, which holds 5% of orders, and warns only when the pattern does not ask for just those', () => {
    const t = shop();
    const plan = planPattern(t, patternOf(t, 'ap-list-open-orders'));
    expect(plan.assumptions).toContain('GSI2 holds only the Order items where status IN ("PENDING", "PROCESSING"): 5% of them (the generator\'s weights)');
    expect(plan.assumptions).toContain('125,000 Order items per status value (250,000 in GSI2 / 2)');
    // The example's filter repeats GSI2's condition: every item GSI2 holds passes it, nothing is wasted.
    expect(plan.warnings).toEqual([]);
    expect(plan.itemsRead).toBe(50);

    delete patternOf(t, 'ap-list-open-orders').filter;
    expect(planPattern(t, patternOf(t, 'ap-list-open-orders')).warnings).toHaveLength(1);
  });

  it('writes GSI2 for the share of orders it holds', () => {
    const t = shop();
    const plan = planPattern(t, patternOf(t, 'ap-put-order'));
    expect(plan.indexWrites.map((w) => [w.target, w.effect, w.fraction])).toEqual([
      [{ kind: 'gsi', name: 'GSI1' }, 'put', 1],
      [{ kind: 'gsi', name: 'GSI2' }, 'put', 0.05],
    ]);
    expect(plan.explanation).toContain('TransactWriteItems');
  });

  it.each<[string[], string, string]>([
    [['status'], 'put', 'move'],
    [['total'], 'put', 'put'],
    [['shippingAddress'], 'put', 'none'],
  ])('an update of %j writes GSI1 as %s and GSI2 as %s', (updates, gsi1, gsi2) => {
    const t = shop();
    patternOf(t, 'ap-update-order-status').updates = updates;
    const plan = planPattern(t, patternOf(t, 'ap-update-order-status'));
    expect(plan.indexWrites.map((w) => w.effect)).toEqual([gsi1, gsi2]);
  });

  it('scans for reviews by rating, suggests a GSI, and queries it once the GSI is added', () => {
    const t = shop();
    const p: AccessPattern = { id: 'ap-reviews-by-rating', name: 'Reviews by rating', entityId: 'ent-review', action: 'query', known: ['rating'], range: { attribute: 'createdAt', operator: '>=' }, order: 'desc', resultSize: 20, ratePerSecond: 1, consistency: 'eventual' };
    const scan = planPattern(t, p);
    expect(scan).toMatchObject({
      operation: 'Scan',
      badge: 'Scan',
      isServed: false,
      filter: '#rating = :rating AND #createdAt >= :createdAt',
      // Every item of the table: 1,000,000 users + 50,000 products + 5,000,000 orders + 12,000,000 order items + 2,000,000 reviews.
      itemsRead: 20_050_000,
    });
    expect(scan.rejected.map((r) => r.target)).toEqual([{ kind: 'table' }, { kind: 'gsi', name: 'GSI1' }, { kind: 'gsi', name: 'GSI2' }]);
    // Reviews are not in GSI2, whose string sort key fits createdAt: overloading it beats a new GSI,
    // and its projection grows to ALL since the pattern returns whole reviews.
    expect(scan.suggestion).toMatchObject({ kind: 'gsi', indexName: 'GSI2', reuses: true, partitionKeyTemplate: 'RATING#{rating}', sortKeyTemplate: '{createdAt}', projection: { type: 'ALL' } });
    expect(scan.suggestion?.reason).toContain('GSI2 already exists');

    const next = applyIndexSuggestion(t, scan.suggestion!);
    expect(next.globalSecondaryIndexes).toHaveLength(2);
    expect(next.globalSecondaryIndexes[1]?.projection).toEqual({ type: 'ALL' });
    expect(validateDesign({ ...example, tables: [next] })).toEqual([]);
    expect(planPattern(next, p)).toMatchObject({
      operation: 'Query',
      badge: 'GSI Query',
      target: { kind: 'gsi', name: 'GSI2' },
      keyCondition: 'GSI2PK = :pk AND GSI2SK >= :sk',
      values: { ':pk': 'RATING#{rating}', ':sk': '{createdAt}' },
      scanIndexForward: false,
      isServed: true,
    });
  });

  it('plans the whole table, 55 patterns, in a few milliseconds', () => {
    const t = shop();
    t.accessPatterns = Array.from({ length: 5 }, (_, k) => t.accessPatterns.map((p) => ({ ...p, id: `${p.id}-${k}`, name: `${p.name} ${k}` }))).flat();
    planTable(t);
    const runs = 20;
    const start = cpuNowMs();
    for (let i = 0; i < runs; i += 1) planTable(t);
    expect((cpuNowMs() - start) / runs).toBeLessThan(25);
  });
});

describe('planPattern robustness', () => {
  const base = shop();
  const attributeNames = [...new Set(base.entities.flatMap((e) => e.attributes.map((a) => a.name))), 'nope', ''];
  const edit = fc.record({
    index: fc.nat({ max: base.accessPatterns.length - 1 }),
    known: fc.subarray(attributeNames),
    range: fc.option(fc.record({ attribute: fc.constantFrom(...attributeNames), operator: fc.constantFrom<string>(...RANGE_OPERATORS, 'nope') }), { nil: undefined }),
    resultSize: fc.option(fc.oneof(fc.nat({ max: 500 }), fc.constantFrom(-1, 0.5, Number.NaN, 1e9)), { nil: undefined }),
    order: fc.option(fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), { nil: undefined }),
    action: fc.option(fc.constantFrom<AccessPattern['action']>('get', 'query', 'count', 'put', 'update', 'delete'), { nil: undefined }),
    consistency: fc.constantFrom<AccessPattern['consistency']>('eventual', 'strong', 'transactional'),
    filter: fc.option(fc.constantFrom('status = "PENDING"', 'total > 100 AND attribute_exists(userId)', 'rating IN (4, 5)', 'nope >', ''), { nil: undefined }),
    updates: fc.option(fc.subarray(attributeNames), { nil: undefined }),
    breakage: fc.constantFrom('none', 'template', 'itemCount', 'cardinality', 'shards', 'when', 'noEntity'),
  });

  const breakTable = (t: Table, breakage: string, entityIndex: number): void => {
    const e = t.entities[entityIndex % t.entities.length]!;
    switch (breakage) {
      case 'template':
        e.keys.PK = { template: 'USER#{userId' };
        break;
      case 'itemCount':
        e.itemCount = Number.NaN;
        break;
      case 'cardinality':
        for (const a of e.attributes) a.cardinality = 0;
        break;
      case 'shards':
        for (const b of Object.values(e.keys)) b.shards = { count: 7, method: 'calculated', from: 'orderId' };
        break;
      case 'when':
        for (const b of Object.values(e.keys)) b.when = 'status = ';
        break;
      case 'noEntity':
        t.entities = [];
        break;
    }
  };

  it('never throws, and returns finite counts with at most as many items returned as read', () => {
    fc.assert(
      fc.property(edit, (e) => {
        const t = shop();
        const p = t.accessPatterns[e.index]!;
        p.known = e.known;
        if (e.range) p.range = e.range as AccessPattern['range'];
        else delete p.range;
        if (e.resultSize === undefined) delete p.resultSize;
        else p.resultSize = e.resultSize;
        if (e.order) p.order = e.order;
        if (e.action) p.action = e.action;
        p.consistency = e.consistency;
        if (e.filter !== undefined) p.filter = e.filter;
        if (e.updates) p.updates = e.updates;
        breakTable(t, e.breakage, e.index);

        const plan = planPattern(t, p);
        expect(plan.patternId).toBe(p.id);
        for (const n of [plan.itemsRead, plan.itemsReturned, plan.requests, ...plan.entitiesRead.map((x) => x.items), ...plan.indexWrites.map((w) => w.fraction)]) {
          expect(Number.isFinite(n) && n >= 0).toBe(true);
        }
        expect(plan.requests).toBeGreaterThanOrEqual(1);
        expect(plan.itemsReturned).toBeLessThanOrEqual(plan.itemsRead + 1e-9);
        expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
        expect(planPattern(t, p)).toEqual(plan);
      }),
      { numRuns: 400 },
    );
  });
});
