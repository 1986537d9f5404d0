import { describe, expect, it } from 'vitest';
import { applyIndexSuggestion, planPattern, planTable, type Plan } from './index.ts';
import type { AccessPattern, Entity, Table } from '../model/index.ts';
import { validateDesign } from '../model/index.ts';

/**
 * A small table: User and Order share the item collection USER#{userId}; GSI1 is overloaded (user by
 * email, open orders by status, sparse by predicate); GSI2 and LSI1 both order a user's orders by
 * total; GSI3 holds orders by id with a KEYS_ONLY projection.
 */
function smallTable(): Table {
  return {
    id: 't-1',
    name: 'App',
    partitionKey: { name: 'PK', type: 'S' },
    sortKey: { name: 'SK', type: 'S' },
    billing: { mode: 'ON_DEMAND' },
    tableClass: 'STANDARD',
    globalSecondaryIndexes: [
      { id: 'g-1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'ALL' } },
      { id: 'g-2', name: 'GSI2', partitionKey: { name: 'GSI2PK', type: 'S' }, sortKey: { name: 'GSI2SK', type: 'N' }, projection: { type: 'INCLUDE', nonKeyAttributes: ['status'] } },
      { id: 'g-3', name: 'GSI3', partitionKey: { name: 'GSI3PK', type: 'S' }, projection: { type: 'KEYS_ONLY' } },
    ],
    localSecondaryIndexes: [{ id: 'l-1', name: 'LSI1', sortKey: { name: 'LSI1SK', type: 'S' }, projection: { type: 'ALL' } }],
    entities: [
      {
        id: 'e-user',
        name: 'User',
        itemCount: 100,
        attributes: [
          { name: 'userId', type: 'S' },
          { name: 'email', type: 'S' },
          { name: 'country', type: 'S', generator: { kind: 'enum', values: ['US', 'DE', 'PT', 'JP', 'BR'] } },
        ],
        keys: { PK: { template: 'USER#{userId}' }, SK: { template: 'PROFILE' }, GSI1PK: { template: 'EMAIL#{email}' }, GSI1SK: { template: 'PROFILE' } },
      },
      {
        id: 'e-order',
        name: 'Order',
        itemCount: 1000,
        attributes: [
          { name: 'userId', type: 'S', cardinality: 100 },
          { name: 'orderId', type: 'S' },
          { name: 'orderDate', type: 'S' },
          { name: 'status', type: 'S', cardinality: 5 },
          { name: 'total', type: 'N' },
          { name: 'note', type: 'S' },
        ],
        keys: {
          PK: { template: 'USER#{userId}' },
          SK: { template: 'ORDER#{orderDate}#{orderId}' },
          GSI1PK: { template: 'STATUS#{status}', when: 'status IN ("PENDING", "PROCESSING")' },
          GSI1SK: { template: '{orderDate}', when: 'status IN ("PENDING", "PROCESSING")' },
          GSI2PK: { template: 'USER#{userId}' },
          GSI2SK: { template: '{total}' },
          GSI3PK: { template: 'ORDER#{orderId}' },
          LSI1SK: { template: 'TOTAL#{total:012}' },
        },
      },
    ],
    accessPatterns: [],
  };
}

let nextId = 0;
const pattern = (p: Partial<AccessPattern> & Pick<AccessPattern, 'entityId' | 'action' | 'known'>): AccessPattern => ({
  id: `ap-${(nextId += 1)}`,
  name: `Pattern ${nextId}`,
  ratePerSecond: 1,
  consistency: 'eventual',
  ...p,
});
const user = (p: Partial<AccessPattern> & Pick<AccessPattern, 'action' | 'known'>) => pattern({ entityId: 'e-user', ...p });
const order = (p: Partial<AccessPattern> & Pick<AccessPattern, 'action' | 'known'>) => pattern({ entityId: 'e-order', ...p });
const orderEntity = (t: Table): Entity => t.entities[1]!;

/** The parts of a plan a row of the table below checks. */
type Expected = Partial<Pick<Plan, 'operation' | 'badge' | 'target' | 'keyCondition' | 'values' | 'requests' | 'consistency' | 'itemsRead' | 'itemsReturned' | 'scanIndexForward' | 'filter' | 'limit' | 'isServed'>>;

describe('planPattern: reads on a small table', () => {
  it.each<[string, AccessPattern, Expected]>([
    [
      'a get whose known attribute builds the whole primary key is a GetItem',
      user({ action: 'get', known: ['userId'] }),
      { operation: 'GetItem', badge: 'GetItem', target: { kind: 'table' }, keyCondition: 'PK = :pk AND SK = :sk', values: { ':pk': 'USER#{userId}', ':sk': 'PROFILE' }, itemsRead: 1, itemsReturned: 1, requests: 1 },
    ],
    [
      'a query that knows the whole primary key is a GetItem too',
      order({ action: 'query', known: ['userId', 'orderDate', 'orderId'] }),
      { operation: 'GetItem', keyCondition: 'PK = :pk AND SK = :sk', values: { ':pk': 'USER#{userId}', ':sk': 'ORDER#{orderDate}#{orderId}' }, itemsRead: 1 },
    ],
    [
      'a get served only by a GSI is a Query with Limit 1',
      user({ action: 'get', known: ['email'] }),
      { operation: 'Query', badge: 'GSI Query', target: { kind: 'gsi', name: 'GSI1' }, keyCondition: 'GSI1PK = :pk AND GSI1SK = :sk', values: { ':pk': 'EMAIL#{email}', ':sk': 'PROFILE' }, limit: 1, itemsRead: 1, itemsReturned: 1 },
    ],
    [
      'a get that knows the partition key but not the whole sort key is a Query on the literal prefix',
      order({ action: 'get', known: ['userId'] }),
      { operation: 'Query', badge: 'Query', keyCondition: 'PK = :pk AND begins_with(SK, :sk)', values: { ':pk': 'USER#{userId}', ':sk': 'ORDER#' }, limit: 1, itemsRead: 1 },
    ],
    [
      'a query on the known start of the sort key uses begins_with up to the first unknown placeholder',
      order({ action: 'query', known: ['userId', 'orderDate'] }),
      { operation: 'Query', keyCondition: 'PK = :pk AND begins_with(SK, :sk)', values: { ':pk': 'USER#{userId}', ':sk': 'ORDER#{orderDate}#' }, itemsRead: 1 },
    ],
    [
      "a user's orders: 1,000 orders over 100 users is 10 per user",
      order({ action: 'query', known: ['userId'] }),
      { operation: 'Query', keyCondition: 'PK = :pk AND begins_with(SK, :sk)', values: { ':pk': 'USER#{userId}', ':sk': 'ORDER#' }, itemsRead: 10, itemsReturned: 10 },
    ],
    [
      'resultSize is the Limit and caps the items read',
      order({ action: 'query', known: ['userId'], resultSize: 4 }),
      { limit: 4, itemsRead: 4, itemsReturned: 4 },
    ],
    [
      'a range without resultSize reads half of the matches, bounded to the prefix',
      order({ action: 'query', known: ['userId'], range: { attribute: 'orderDate', operator: '>=' }, order: 'desc' }),
      { keyCondition: 'PK = :pk AND SK BETWEEN :sk AND :skEnd', values: { ':pk': 'USER#{userId}', ':sk': 'ORDER#{orderDate}', ':skEnd': 'ORDER$' }, scanIndexForward: false, itemsRead: 5 },
    ],
    [
      'a <= range starts at the prefix',
      order({ action: 'query', known: ['userId'], range: { attribute: 'orderDate', operator: '<=' }, order: 'asc' }),
      { keyCondition: 'PK = :pk AND SK BETWEEN :skStart AND :sk', values: { ':pk': 'USER#{userId}', ':skStart': 'ORDER#', ':sk': 'ORDER#{orderDate}' }, scanIndexForward: true },
    ],
    [
      'between on the first unknown placeholder',
      order({ action: 'query', known: ['userId'], range: { attribute: 'orderDate', operator: 'between' } }),
      { keyCondition: 'PK = :pk AND SK BETWEEN :from AND :to', values: { ':pk': 'USER#{userId}', ':from': 'ORDER#{orderDate}', ':to': 'ORDER#{orderDate}' }, itemsRead: 5 },
    ],
    [
      'begins_with on the first unknown placeholder',
      order({ action: 'query', known: ['userId'], range: { attribute: 'orderDate', operator: 'begins_with' } }),
      { keyCondition: 'PK = :pk AND begins_with(SK, :sk)', values: { ':pk': 'USER#{userId}', ':sk': 'ORDER#{orderDate}' } },
    ],
    [
      'a range on an N sort key that is a bare placeholder needs no bound',
      order({ action: 'query', known: ['userId'], range: { attribute: 'total', operator: '>' }, consistency: 'eventual' }),
      { operation: 'Query', target: { kind: 'lsi', name: 'LSI1' }, keyCondition: 'PK = :pk AND LSI1SK BETWEEN :sk AND :skEnd', values: { ':pk': 'USER#{userId}', ':sk': 'TOTAL#{total:012}', ':skEnd': 'TOTAL$' } },
    ],
    [
      'a known attribute the key does not hold becomes a filter, which does not lower the items read',
      order({ action: 'query', known: ['userId', 'status'] }),
      { keyCondition: 'PK = :pk AND begins_with(SK, :sk)', filter: '#status = :status', itemsRead: 10, itemsReturned: 2 },
    ],
    [
      "the pattern's filter is sent as a FilterExpression and keeps its share of the items",
      order({ action: 'query', known: ['userId'], filter: 'status = "SHIPPED"', resultSize: 20 }),
      { filter: '#status = :status', itemsRead: 10, itemsReturned: 2 },
    ],
    [
      'with a filter, the caller reads until resultSize items pass it: half pass, so 6 read for 3',
      order({ action: 'query', known: ['userId'], filter: 'total > 100', resultSize: 3 }),
      { itemsRead: 6, itemsReturned: 3 },
    ],
    [
      'with a filter and no resultSize, every match is read',
      order({ action: 'query', known: ['userId'], filter: 'total > 100' }),
      { itemsRead: 10, itemsReturned: 5 },
    ],
    [
      'a count reads every matching item and returns none',
      order({ action: 'count', known: ['userId'] }),
      { operation: 'Query', keyCondition: 'PK = :pk AND begins_with(SK, :sk)', itemsRead: 10, itemsReturned: 0 },
    ],
    [
      'a count that knows the whole key is a Query, not a GetItem',
      order({ action: 'count', known: ['userId', 'orderDate', 'orderId'] }),
      { operation: 'Query', keyCondition: 'PK = :pk AND SK = :sk', itemsRead: 1, itemsReturned: 0 },
    ],
    [
      'a get of several known keys is a BatchGetItem',
      user({ action: 'get', known: ['userId'], resultSize: 5 }),
      { operation: 'BatchGetItem', badge: 'BatchGetItem', requests: 1, itemsRead: 5, itemsReturned: 5 },
    ],
    [
      'a get of 150 keys takes two BatchGetItem requests',
      user({ action: 'get', known: ['userId'], resultSize: 150 }),
      { operation: 'BatchGetItem', requests: 2, itemsRead: 150 },
    ],
    [
      'a GSI without a sort key: the partition key alone',
      order({ action: 'query', known: ['orderId'] }),
      { operation: 'Query', badge: 'GSI Query', target: { kind: 'gsi', name: 'GSI3' }, keyCondition: 'GSI3PK = :pk', values: { ':pk': 'ORDER#{orderId}' }, itemsRead: 1 },
    ],
  ])('%s', (_name, p, expected) => {
    expect(planPattern(smallTable(), p)).toMatchObject(expected);
  });

  it('names the reason for every target it did not choose', () => {
    const plan = planPattern(smallTable(), user({ action: 'get', known: ['email'] }));
    expect(plan.rejected.map((r) => r.reason)).toEqual([
      'Table: partition key PK = USER#{userId} needs userId, which the caller does not know',
      'GSI2: User has no template for GSI2PK, so its items are not in GSI2 (sparse)',
      'GSI3: User has no template for GSI3PK, so its items are not in GSI3 (sparse)',
      'LSI1: User has no template for LSI1SK, so its items are not in LSI1 (sparse)',
    ]);
  });

  it('says why a target that could serve the pattern lost', () => {
    const plan = planPattern(smallTable(), order({ action: 'query', known: ['userId'], range: { attribute: 'total', operator: '>=' } }));
    expect(plan.target).toEqual({ kind: 'lsi', name: 'LSI1' });
    const gsi2 = plan.rejected.find((r) => r.target.kind === 'gsi' && r.target.name === 'GSI2');
    expect(gsi2?.reason).toContain("could serve it with a GSI Query");
    expect(gsi2?.reason).toContain("LSI1's LSI Query is preferred");
    const table = plan.rejected.find((r) => r.target.kind === 'table');
    expect(table?.reason).toBe('Table: sort key SK = ORDER#{orderDate}#{orderId} does not hold total, so it cannot serve the range on it');
  });

  it('says when a range attribute comes after a placeholder the caller does not know', () => {
    const plan = planPattern(smallTable(), order({ action: 'query', known: ['userId'], range: { attribute: 'orderId', operator: '>=' } }));
    expect(plan.rejected.find((r) => r.target.kind === 'table')?.reason).toBe(
      'Table: sort key SK = ORDER#{orderDate}#{orderId} needs orderDate before orderId, which the caller does not know, so it cannot serve the range on orderId',
    );
  });

  it('rejects a range on a number written into a string sort key without padding', () => {
    const t = smallTable();
    orderEntity(t).keys.LSI1SK = { template: 'TOTAL#{total}' };
    const plan = planPattern(t, order({ action: 'query', known: ['userId'], range: { attribute: 'total', operator: '>=' } }));
    expect(plan.target).toEqual({ kind: 'gsi', name: 'GSI2' });
    expect(plan.rejected.find((r) => r.target.kind === 'lsi')?.reason).toContain('unpadded text');
  });

  it('rejects a range on an attribute in the partition key, which takes equality only', () => {
    const plan = planPattern(smallTable(), order({ action: 'query', known: [], range: { attribute: 'status', operator: '>=' } }));
    expect(plan.operation).toBe('Scan');
    expect(plan.rejected.find((r) => r.target.kind === 'gsi' && r.target.name === 'GSI1')?.reason).toContain('a partition key takes equality only');
  });
});

describe('planPattern: consistency', () => {
  it('plans a strong read on a GSI as eventual, and says so', () => {
    const plan = planPattern(smallTable(), user({ action: 'get', known: ['email'], consistency: 'strong' }));
    expect(plan.target).toEqual({ kind: 'gsi', name: 'GSI1' });
    expect(plan.consistency).toBe('eventual');
    expect(plan.explanation).toContain('eventually consistent only');
    expect(plan.warnings?.join(' ')).toContain('strong read');
  });

  it('chooses an LSI over a GSI that serves the same range, keeping the strong read', () => {
    const plan = planPattern(smallTable(), order({ action: 'query', known: ['userId'], range: { attribute: 'total', operator: '>=' }, consistency: 'strong' }));
    expect(plan).toMatchObject({ operation: 'Query', badge: 'LSI Query', target: { kind: 'lsi', name: 'LSI1' }, consistency: 'strong' });
  });

  it('keeps a strong read on the table', () => {
    expect(planPattern(smallTable(), user({ action: 'get', known: ['userId'], consistency: 'strong' })).consistency).toBe('strong');
  });

  it('sends a transactional get as TransactGetItems and a transactional query as a strong Query', () => {
    const get = planPattern(smallTable(), user({ action: 'get', known: ['userId'], consistency: 'transactional' }));
    expect(get).toMatchObject({ operation: 'GetItem', consistency: 'transactional' });
    expect(get.explanation).toContain('TransactGetItems');
    const query = planPattern(smallTable(), order({ action: 'query', known: ['userId'], consistency: 'transactional' }));
    expect(query).toMatchObject({ operation: 'Query', consistency: 'strong' });
  });
});

describe('planPattern: item collections', () => {
  /** Orders sort by date with no ORDER# prefix, so a query on USER#{userId} also reaches the User item. */
  const collectionTable = (): Table => {
    const t = smallTable();
    orderEntity(t).keys.SK = { template: '{orderDate}#{orderId}' };
    delete orderEntity(t).keys.LSI1SK;
    return t;
  };

  it('lists the other entities of the item collection that a query without a sort-key condition reads', () => {
    const t = collectionTable();
    const plan = planPattern(t, order({ action: 'query', known: ['userId'] }));
    expect(plan.keyCondition).toBe('PK = :pk');
    expect(plan.entitiesRead).toEqual([
      { entityId: 'e-order', name: 'Order', items: 10 },
      { entityId: 'e-user', name: 'User', items: 1 },
    ]);
    expect(plan.itemsRead).toBe(11);
    expect(plan.assumptions.join('\n')).toContain('User items share the item collection PK = USER#{userId}');
  });

  it('does not count entities the sort-key prefix excludes', () => {
    const plan = planPattern(smallTable(), order({ action: 'query', known: ['userId'] }));
    expect(plan.entitiesRead.map((e) => e.name)).toEqual(['Order']);
  });

  it('spreads a Limit over the entities read', () => {
    const t = collectionTable();
    const plan = planPattern(t, order({ action: 'query', known: ['userId'], resultSize: 5.5 }));
    expect(plan.itemsRead).toBe(5);
    expect(plan.entitiesRead.reduce((s, e) => s + e.items, 0)).toBeCloseTo(5);
  });

  it('reads the neighbours a range without a prefix can reach', () => {
    const t = collectionTable();
    const plan = planPattern(t, order({ action: 'query', known: ['userId'], range: { attribute: 'orderDate', operator: '>=' } }));
    expect(plan.keyCondition).toBe('PK = :pk AND SK >= :sk');
    expect(plan.entitiesRead).toEqual([
      { entityId: 'e-order', name: 'Order', items: 5 },
      { entityId: 'e-user', name: 'User', items: 0.5 },
    ]);
  });
});

describe('planPattern: sparse indexes', () => {
  it('serves a pattern from a sparse index and warns that it sees only the items the condition keeps', () => {
    const plan = planPattern(smallTable(), order({ action: 'query', known: ['status'], range: { attribute: 'orderDate', operator: '<=' }, order: 'asc', resultSize: 10 }));
    expect(plan).toMatchObject({ operation: 'Query', target: { kind: 'gsi', name: 'GSI1' }, keyCondition: 'GSI1PK = :pk AND GSI1SK <= :sk', isServed: true });
    expect(plan.warnings?.join(' ')).toContain('holds Order items only when status IN ("PENDING", "PROCESSING")');
    // 1,000 orders, status IN two of five values (cardinality 5) → 400 in GSI1, 2 status values → 200 per key.
    expect(plan.assumptions).toContain('200 Order items per status value (400 in GSI1 / 2)');
  });

  it('does not warn when the pattern filter asks for the items the index holds', () => {
    const plan = planPattern(smallTable(), order({ action: 'query', known: ['status'], filter: 'status = "PENDING"' }));
    expect(plan.target).toEqual({ kind: 'gsi', name: 'GSI1' });
    expect(plan.warnings).toEqual([]);
  });
});

describe('planPattern: write sharding', () => {
  const sharded = (method: 'random' | 'calculated'): Table => {
    const t = smallTable();
    orderEntity(t).keys.GSI3PK = { template: 'ORDER#{orderId}', shards: method === 'random' ? { count: 10, method } : { count: 10, method, from: 'orderId' } };
    return t;
  };

  it('fans a Query out over random shards: one request per shard', () => {
    const plan = planPattern(sharded('random'), order({ action: 'query', known: ['orderId'] }));
    expect(plan).toMatchObject({ operation: 'Query', badge: 'Fan-out Query', target: { kind: 'gsi', name: 'GSI3' }, requests: 10, values: { ':pk': 'ORDER#{orderId}.{shard}' } });
    expect(plan.explanation).toContain('10 Queries, one per shard');
  });

  it('goes to one shard when the caller knows the attribute a calculated suffix is hashed from', () => {
    const plan = planPattern(sharded('calculated'), order({ action: 'query', known: ['orderId'] }));
    expect(plan).toMatchObject({ badge: 'GSI Query', requests: 1 });
  });

  it('asks for the key in every shard when the table partition key has random shards', () => {
    const t = smallTable();
    t.entities[0]!.keys.PK = { template: 'USER#{userId}', shards: { count: 4, method: 'random' } };
    const plan = planPattern(t, user({ action: 'get', known: ['userId'] }));
    expect(plan).toMatchObject({ operation: 'BatchGetItem', requests: 1, itemsRead: 4, itemsReturned: 1 });
  });

  it('prefers an unsharded GSI over a fan-out', () => {
    const t = sharded('random');
    t.globalSecondaryIndexes.push({ id: 'g-4', name: 'GSI4', partitionKey: { name: 'GSI4PK', type: 'S' }, projection: { type: 'ALL' } });
    orderEntity(t).keys.GSI4PK = { template: 'O#{orderId}' };
    const plan = planPattern(t, order({ action: 'query', known: ['orderId'] }));
    expect(plan.target).toEqual({ kind: 'gsi', name: 'GSI4' });
  });
});

describe('planPattern: Scan and suggestions', () => {
  it('falls back to a Scan with a filter when no key serves the pattern, and suggests a GSI', () => {
    const t = smallTable();
    const p = user({ action: 'query', known: ['country'] });
    const plan = planPattern(t, p);
    expect(plan).toMatchObject({
      operation: 'Scan',
      badge: 'Scan',
      isServed: false,
      filter: '#country = :country',
      names: { '#country': 'country' },
      values: { ':country': '{country}' },
      itemsRead: 1100,
      itemsReturned: 20,
    });
    // Users are not in GSI3 (a partition key only, like the pattern needs): reuse it, projecting ALL
    // since the pattern returns whole users.
    expect(plan.suggestion).toMatchObject({ kind: 'gsi', indexName: 'GSI3', reuses: true, partitionKeyTemplate: 'COUNTRY#{country}', partitionKey: { name: 'GSI3PK', type: 'S' }, projection: { type: 'ALL' } });
    expect(plan.rejected).toHaveLength(5);

    const served = planPattern(applyIndexSuggestion(t, plan.suggestion!), p);
    expect(served).toMatchObject({ operation: 'Query', badge: 'GSI Query', target: { kind: 'gsi', name: 'GSI3' }, keyCondition: 'GSI3PK = :pk', isServed: true });
    expect(served.fetch).toBeUndefined();
  });

  it('suggests a GSI on the entity\'s own attributes, its sort key typed like the range attribute', () => {
    const t = smallTable();
    const p = order({ action: 'query', known: ['note'], range: { attribute: 'total', operator: 'between' }, order: 'desc' });
    const plan = planPattern(t, p);
    expect(plan.suggestion).toMatchObject({ kind: 'gsi', indexName: 'GSI4', natural: { partitionKeys: [{ name: 'note', type: 'S' }], sortKeys: [{ name: 'total', type: 'N' }] } });
    expect(plan.suggestion?.reason).toMatch(/Against a synthetic key GSI4PK = NOTE#\{note\} and GSI4SK = \{total\}, it saves: no key attribute to write and keep in sync, about 41 B less per Order item/);
    const next = applyIndexSuggestion(t, plan.suggestion!);
    expect(next.entities.find((e) => e.id === 'e-order')!.keys).toEqual(orderEntity(t).keys);
    const served = planPattern(next, p);
    expect(served).toMatchObject({ badge: 'GSI Query', keyCondition: 'note = :pk AND total BETWEEN :from AND :to', scanIndexForward: false });
    expect(validateDesign({ formatVersion: 1, id: 'd', name: 'd', tables: [next] })).toEqual([]);
  });

  it('suggests an LSI for a strong read of a range under a known table partition key', () => {
    const t = smallTable();
    t.localSecondaryIndexes = [];
    delete orderEntity(t).keys.LSI1SK;
    t.globalSecondaryIndexes = t.globalSecondaryIndexes.filter((g) => g.name !== 'GSI2');
    delete orderEntity(t).keys.GSI2PK;
    delete orderEntity(t).keys.GSI2SK;
    const p = order({ action: 'query', known: ['userId', 'status'], range: { attribute: 'total', operator: '>=' }, consistency: 'strong' });
    const plan = planPattern(t, p);
    expect(plan.operation).toBe('Scan');
    expect(plan.suggestion).toMatchObject({ kind: 'lsi', indexName: 'LSI1', sortKeyTemplate: 'STATUS#{status}#{total:020}', sortKey: { name: 'LSI1SK', type: 'S' } });
    const served = planPattern(applyIndexSuggestion(t, plan.suggestion!), p);
    expect(served).toMatchObject({ badge: 'LSI Query', consistency: 'strong', keyCondition: 'PK = :pk AND LSI1SK BETWEEN :sk AND :skEnd', values: { ':sk': 'STATUS#{status}#{total:020}' } });
  });

  it('scans for a pattern whose entity is not in the table, without throwing', () => {
    const plan = planPattern(smallTable(), pattern({ entityId: 'e-nope', action: 'query', known: [] }));
    expect(plan).toMatchObject({ operation: 'Scan', isServed: false, itemsReturned: 0 });
  });
});

describe('planPattern: writes', () => {
  const effects = (plan: Plan) => Object.fromEntries(plan.indexWrites.map((w) => [w.target.kind === 'table' ? 'table' : w.target.name, [w.effect, w.fraction]]));

  it.each<[string, AccessPattern, Record<string, [string, number]>]>([
    [
      'a put writes every index that holds the entity, sparse ones for their share',
      order({ action: 'put', known: ['userId', 'orderDate', 'orderId'] }),
      { GSI1: ['put', 0.4], GSI2: ['put', 1], GSI3: ['put', 1], LSI1: ['put', 1] },
    ],
    ['a delete deletes from them', order({ action: 'delete', known: ['userId', 'orderDate', 'orderId'] }), { GSI1: ['delete', 0.4], GSI2: ['delete', 1], GSI3: ['delete', 1], LSI1: ['delete', 1] }],
    [
      'an update without "updates" rewrites every entry',
      order({ action: 'update', known: ['userId', 'orderDate', 'orderId'] }),
      { GSI1: ['put', 0.4], GSI2: ['put', 1], GSI3: ['put', 1], LSI1: ['put', 1] },
    ],
    [
      "an update of a key attribute moves the entry; of the condition's attribute, may move it in or out",
      order({ action: 'update', known: ['userId', 'orderDate', 'orderId'], updates: ['total'] }),
      { GSI1: ['put', 0.4], GSI2: ['move', 1], GSI3: ['none', 1], LSI1: ['move', 1] },
    ],
    [
      'an update of the attribute a when condition reads is a move',
      order({ action: 'update', known: ['userId', 'orderDate', 'orderId'], updates: ['status'] }),
      { GSI1: ['move', 0.4], GSI2: ['put', 1], GSI3: ['none', 1], LSI1: ['put', 1] },
    ],
    [
      'an update of nothing projected writes no KEYS_ONLY or INCLUDE index',
      order({ action: 'update', known: ['userId', 'orderDate', 'orderId'], updates: ['note'] }),
      { GSI1: ['put', 0.4], GSI2: ['none', 1], GSI3: ['none', 1], LSI1: ['put', 1] },
    ],
    ['an entity not in an index writes nothing there', user({ action: 'put', known: ['userId'] }), { GSI1: ['put', 1], GSI2: ['none', 0], GSI3: ['none', 0], LSI1: ['none', 0] }],
  ])('%s', (_name, p, expected) => {
    const plan = planPattern(smallTable(), p);
    expect(plan).toMatchObject({ target: { kind: 'table' }, keyCondition: 'PK = :pk, SK = :sk', itemsRead: 0, isServed: true });
    expect(effects(plan)).toEqual(expected);
  });

  it('names the operation and the key', () => {
    const plan = planPattern(smallTable(), order({ action: 'update', known: ['userId', 'orderDate', 'orderId'] }));
    expect(plan).toMatchObject({ operation: 'UpdateItem', badge: 'UpdateItem', values: { ':pk': 'USER#{userId}', ':sk': 'ORDER#{orderDate}#{orderId}' } });
  });

  it('says what is missing when the known attributes do not give the key', () => {
    const plan = planPattern(smallTable(), order({ action: 'delete', known: ['orderId'] }));
    expect(plan.isServed).toBe(false);
    expect(plan.warnings?.join(' ')).toContain('built from userId and orderDate');
  });

  it('notes a TransactWriteItems for a transactional write', () => {
    const plan = planPattern(smallTable(), order({ action: 'put', known: ['userId', 'orderDate', 'orderId'], consistency: 'transactional' }));
    expect(plan).toMatchObject({ operation: 'PutItem', badge: 'PutItem', consistency: 'transactional' });
    expect(plan.explanation).toContain('TransactWriteItems');
  });

  it('uses the generator weights for the share a condition keeps', () => {
    const t = smallTable();
    orderEntity(t).attributes[3] = { name: 'status', type: 'S', generator: { kind: 'enum', values: ['PENDING', 'PROCESSING', 'SHIPPED'], weights: [1, 1, 8] } };
    const plan = planPattern(t, order({ action: 'put', known: ['userId', 'orderDate', 'orderId'] }));
    expect(plan.indexWrites[0]).toMatchObject({ effect: 'put', fraction: 0.2 });
  });
});

describe('planTable', () => {
  it('plans every pattern in order', () => {
    const t = smallTable();
    t.accessPatterns = [user({ action: 'get', known: ['userId'] }), order({ action: 'query', known: ['userId'] }), order({ action: 'put', known: ['userId', 'orderDate', 'orderId'] })];
    const plans = planTable(t);
    expect(plans.map((p) => p.patternId)).toEqual(t.accessPatterns.map((p) => p.id));
    expect(plans).toEqual(t.accessPatterns.map((p) => planPattern(t, p)));
  });
});
