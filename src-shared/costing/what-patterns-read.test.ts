/**
 * What a pattern reads against what an index projects, index writes of sparse indexes, rendered key
 * sizes, fan-out reads and the advice built on them. Every expected number is worked out by hand from
 * the AWS rules (docs/dynamodb-rules.md §1–docs/dynamodb-rules.md §3, §5), in the comments beside it, never copied from output.
 */
import { describe, expect, it } from 'vitest';
import { estimateItemBytes, DEFAULT_PRICING } from '../capacity/index.ts';
import { compareDesigns } from '../compare/index.ts';
import type { AccessPattern, Design, Entity, GlobalSecondaryIndex, Projection, Table } from '../model/index.ts';
import { validateDesign } from '../model/index.ts';
import { applyIndexSuggestion, planPattern } from '../planner/index.ts';
import { costTable } from './design-cost.ts';

/**
 * Ticket, 1,000 items, 3,087 B each:
 *   PK = T#{ticketId}      "PK" 2 + "T#" 2 + 10 = 14
 *   SK = T                 "SK" 2 + 1            = 3
 *   GSI1PK = C#{customerId} "GSI1PK" 6 + 2 + 10  = 18
 *   ticketId 8 + 10 = 18, customerId 10 + 10 = 20, body 4 + 3,000 = 3,004, status 6 + 4 = 10
 *   = 14 + 3 + 18 + 18 + 20 + 3,004 + 10 = 3,087 B.
 * GSI1 KEYS_ONLY entry: PK + SK + GSI1PK = 14 + 3 + 18 = 35 B. 100 customers: 10 tickets each.
 */
function ticket(): Entity {
  return {
    id: 'ent-ticket',
    name: 'Ticket',
    itemCount: 1000,
    attributes: [
      { name: 'ticketId', type: 'S', averageSizeBytes: 10 },
      { name: 'customerId', type: 'S', averageSizeBytes: 10, cardinality: 100 },
      { name: 'body', type: 'S', averageSizeBytes: 3000 },
      { name: 'status', type: 'S', averageSizeBytes: 4, generator: { kind: 'enum', values: ['OPEN', 'DONE'], weights: [1, 3] } },
    ],
    keys: { PK: { template: 'T#{ticketId}' }, SK: { template: 'T' }, GSI1PK: { template: 'C#{customerId}' } },
  };
}

/**
 * Comment, 400 items under the ticket's partition key (4 per ticket), 324 B each:
 *   PK 14, SK = C#{commentId} 2 + 2 + 10 = 14, LSI1SK = {createdAt} 6 + 20 = 26,
 *   commentId 9 + 10 = 19, ticketId 18, createdAt 9 + 20 = 29, text 4 + 200 = 204 → 324 B.
 * LSI1 KEYS_ONLY entry: PK + SK + LSI1SK = 14 + 14 + 26 = 54 B.
 */
function comment(): Entity {
  return {
    id: 'ent-comment',
    name: 'Comment',
    itemCount: 400,
    attributes: [
      { name: 'commentId', type: 'S', averageSizeBytes: 10 },
      { name: 'ticketId', type: 'S', averageSizeBytes: 10, cardinality: 100 },
      { name: 'createdAt', type: 'S', averageSizeBytes: 20 },
      { name: 'text', type: 'S', averageSizeBytes: 200 },
    ],
    keys: { PK: { template: 'T#{ticketId}' }, SK: { template: 'C#{commentId}' }, LSI1SK: { template: '{createdAt}' } },
  };
}

function gsi1(projection: Projection): GlobalSecondaryIndex {
  return { id: 'g-1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, projection };
}

function table(projection: Projection = { type: 'KEYS_ONLY' }, patterns: AccessPattern[] = []): Table {
  return {
    id: 't-1',
    name: 'Support',
    partitionKey: { name: 'PK', type: 'S' },
    sortKey: { name: 'SK', type: 'S' },
    billing: { mode: 'ON_DEMAND' },
    tableClass: 'STANDARD',
    globalSecondaryIndexes: [gsi1(projection)],
    localSecondaryIndexes: [{ id: 'l-1', name: 'LSI1', sortKey: { name: 'LSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
    entities: [ticket(), comment()],
    accessPatterns: patterns,
  };
}

const byCustomer = (over: Partial<AccessPattern> = {}): AccessPattern => ({
  id: 'ap-by-customer',
  name: "A customer's tickets",
  entityId: 'ent-ticket',
  action: 'query',
  known: ['customerId'],
  ratePerSecond: 10,
  consistency: 'eventual',
  ...over,
});

const costOf = (t: Table, id: string) => costTable(t, DEFAULT_PRICING).patterns.find((p) => p.patternId === id)!;

describe('sizes the test tables as computed by hand', () => {
  it('a Ticket is 3,087 B and a Comment 324 B', () => {
    const t = table();
    expect(estimateItemBytes(t, ticket()).value).toBe(3087);
    expect(estimateItemBytes(t, comment()).value).toBe(324);
    expect(validateDesign({ formatVersion: 1, id: 'd', name: 'd', tables: [table({ type: 'KEYS_ONLY' }, [byCustomer()])] })).toEqual([]);
  });
});

describe('a GSI that lacks what the pattern returns', () => {
  it('is not served by the index alone: the GSI Query plus a BatchGetItem per returned item, both charged', () => {
    const t = table({ type: 'KEYS_ONLY' }, [byCustomer()]);
    const cost = costOf(t, 'ap-by-customer');
    expect(cost.plan.target).toEqual({ kind: 'gsi', name: 'GSI1' });
    expect(cost.plan.fetch).toMatchObject({ kind: 'gsi', index: 'GSI1', missing: ['body', 'status'], items: 10, operation: 'BatchGetItem', requests: 1 });
    expect(cost.plan.warnings?.join(' ')).toContain('Not served by GSI1 alone');
    // GSI Query: 10 entries × 35 B = 350 B → 1 block × 0.5 = 0.5 RCU on GSI1.
    // Fetch: 10 items × ceil(3,087 / 4,096) = 10 blocks × 0.5 = 5 RCU on the table. Total 5.5.
    expect(cost.perRequest.value).toBe(5.5);
    expect(cost.consumption).toEqual([
      { target: { gsi: 'GSI1' }, readUnitsPerSecond: 5, writeUnitsPerSecond: 0 },
      { target: 'table', readUnitsPerSecond: 50, writeUnitsPerSecond: 0 },
    ]);
    const labels = cost.perRequest.steps.map((s) => s.label).join('\n');
    expect(labels).toContain('BatchGetItem from the table for each item, each rounded up to 4 KB on its own');
  });

  it('offers the projection change with its read, storage and write costs', () => {
    const put: AccessPattern = { id: 'ap-put', name: 'Open a ticket', entityId: 'ent-ticket', action: 'put', known: ['ticketId'], ratePerSecond: 2, consistency: 'eventual' };
    const t = table({ type: 'KEYS_ONLY' }, [byCustomer(), put]);
    const cost = costOf(t, 'ap-by-customer');
    expect(cost.plan.projectionChange).toEqual({ kind: 'gsi', index: 'GSI1', projection: { type: 'ALL' }, adds: ['body', 'status'] });
    const option = cost.projectionOption!;
    // With ALL: 10 × 3,087 B = 30,870 B → ceil(7.54) = 8 blocks × 0.5 = 4 RCU per request.
    expect(option.perRequest.value).toBe(4);
    // Storage: 1,000 entries grow from 35 B to 3,087 B: + 3,052,000 B.
    expect(option.extraStorageBytes.value).toBe(3_052_000);
    // Each put writes a 3,087 B entry (4 WCU) instead of 35 B (1 WCU): + 3 WCU × 2 puts/s = 6 WCU/s on GSI1.
    expect(option.extraWriteUnitsPerSecond.value).toBe(6);
    // Per month: 3,052,000 B / 1,073,741,824 B per GB × $0.25 = $0.000710601…; 6 WRU/s × 3,600 × 730 / 1e6 × $0.625 = $9.855.
    expect(option.extraMonthlyUsd.value).toBeCloseTo(9.855 + (3_052_000 / 1_073_741_824) * 0.25, 8);
  });

  it('needs no fetch when the pattern returns only attributes the entry holds through its keys', () => {
    const t = table({ type: 'KEYS_ONLY' }, [byCustomer({ returns: ['ticketId', 'customerId'] })]);
    const cost = costOf(t, 'ap-by-customer');
    expect(cost.plan.fetch).toBeUndefined();
    // 10 × 35 B = 350 B → 0.5 RCU; a ProjectionExpression does not make it smaller.
    expect(cost.perRequest.value).toBe(0.5);
    expect(cost.perRequest.steps.some((s) => s.label.startsWith('Returns only ticketId, customerId (ProjectionExpression): charged on the full index entry size'))).toBe(true);
  });

  it('fetches every item read when the filter tests an attribute the GSI does not project, and sends no FilterExpression', () => {
    const t = table({ type: 'KEYS_ONLY' }, [byCustomer({ returns: ['ticketId'], filter: 'status = "OPEN"' })]);
    const cost = costOf(t, 'ap-by-customer');
    expect(cost.plan.fetch).toMatchObject({ missing: ['status'], missingForFilter: ['status'], items: 10 });
    expect(cost.plan.filter).toBeUndefined();
    expect(cost.perRequest.value).toBe(5.5);
  });

  it('a filter cannot test a value that is only inside a key: the GSI must hold the attribute itself', () => {
    // GSI1PK = C#{customerId}: the caller can read customerId back from the key, but a FilterExpression
    // on customerId sees no such attribute in the entry.
    const t = table({ type: 'KEYS_ONLY' }, [byCustomer({ returns: ['customerId'], filter: 'customerId <> "c-0"' })]);
    const cost = costOf(t, 'ap-by-customer');
    expect(cost.plan.fetch).toMatchObject({ missing: ['customerId'], missingForFilter: ['customerId'], items: 10 });
  });

  it('a filter that repeats a sparse index\'s own condition is not sent, and needs no fetch', () => {
    const t = table({ type: 'KEYS_ONLY' }, [byCustomer({ returns: ['ticketId'], filter: 'status = "OPEN"' })]);
    t.entities[0]!.keys.GSI1PK = { template: 'C#{customerId}', when: 'status = "OPEN"' };
    const cost = costOf(t, 'ap-by-customer');
    expect(cost.plan.fetch).toBeUndefined();
    expect(cost.plan.filter).toBeUndefined();
    expect(cost.plan.explanation).toContain(`The filter status = "OPEN" repeats GSI1's own condition`);
  });

  it('a transactional pattern fetches with TransactGetItems, 2 units per 4 KB', () => {
    const t = table({ type: 'KEYS_ONLY' }, [byCustomer({ consistency: 'transactional' })]);
    const cost = costOf(t, 'ap-by-customer');
    expect(cost.plan.fetch).toMatchObject({ operation: 'TransactGetItems', consistency: 'transactional' });
    // 0.5 (the GSI Query, eventual only) + 10 items × 1 block × 2 = 20.5.
    expect(cost.perRequest.value).toBe(20.5);
  });

  it('an INCLUDE of the returned attribute serves it alone', () => {
    const t = table({ type: 'INCLUDE', nonKeyAttributes: ['status'] }, [byCustomer({ returns: ['ticketId', 'status'] })]);
    const cost = costOf(t, 'ap-by-customer');
    expect(cost.plan.fetch).toBeUndefined();
    // entry 35 + 10 = 45 B; 10 × 45 = 450 B → 0.5 RCU.
    expect(cost.perRequest.value).toBe(0.5);
  });

  it('fetches strongly consistent from the table when the pattern asks for it, though the GSI read is eventual', () => {
    const t = table({ type: 'KEYS_ONLY' }, [byCustomer({ consistency: 'strong' })]);
    // 0.5 (GSI, eventual only) + 10 items × 1 block × 1 = 10.5.
    expect(costOf(t, 'ap-by-customer').perRequest.value).toBe(10.5);
  });

  it('Compare marks the KEYS_ONLY side worse, not better', () => {
    const design = (projection: Projection, id: string): Design => ({ formatVersion: 1, id, name: id, tables: [table(projection, [byCustomer()])] });
    const report = compareDesigns([
      { label: 'ALL', design: design({ type: 'ALL' }, 'all') },
      { label: 'KEYS_ONLY', design: design({ type: 'KEYS_ONLY' }, 'keys') },
    ]);
    const rows = report.patterns.find((p) => p.name === "A customer's tickets")!.rows;
    const perRequest = rows.find((r) => r.key.endsWith(':perRequest'))!;
    expect(perRequest.cells.map((c) => c.value)).toEqual([4, 5.5]);
    expect(perRequest.best).toBe(0);
    expect(rows.find((r) => r.key.endsWith(':fetch'))!.best).toBe(0);
    const operation = rows.find((r) => r.key.endsWith(':operation'))!;
    expect(operation.cells[1]!.value).toBe('Query + BatchGetItem from the table');
    expect(operation.best).toBe(0);
  });
});

describe('derivations say what happens', () => {
  const FILTER_STEP = 'Items returned: a FilterExpression runs after the read, so it does not lower the cost';
  it('has no filter step for a pattern without a filter, and one for a pattern with a filter', () => {
    const t = table({ type: 'ALL' }, [byCustomer(), byCustomer({ id: 'ap-open', name: 'Open ones', filter: 'status = "OPEN"' })]);
    expect(costOf(t, 'ap-by-customer').perRequest.steps.map((s) => s.label)).not.toContain(FILTER_STEP);
    expect(costOf(t, 'ap-open').perRequest.steps.map((s) => s.label)).toContain(FILTER_STEP);
  });

  it('cites every source as an AWS documentation page with a title', () => {
    const t = table({ type: 'KEYS_ONLY' }, [byCustomer()]);
    const steps = costOf(t, 'ap-by-customer').perRequest.steps.filter((s) => s.source !== undefined);
    expect(steps.length).toBeGreaterThan(0);
    for (const s of steps) {
      expect(s.source!.url).toMatch(/^https:\/\/(docs\.aws\.amazon\.com|aws\.amazon\.com)\//);
      expect(s.source!.title.length).toBeGreaterThan(5);
    }
  });
});

describe('an LSI that lacks what the pattern returns', () => {
  it('fetches each base item, rounded up to 4 KB on its own (the Developer Guide example, E-15)', () => {
    const p: AccessPattern = {
      id: 'ap-comments',
      name: 'Comments of a ticket by date',
      entityId: 'ent-comment',
      action: 'query',
      known: ['ticketId'],
      range: { attribute: 'createdAt', operator: '>=' },
      resultSize: 4,
      ratePerSecond: 1,
      consistency: 'strong',
    };
    const cost = costOf(table({ type: 'KEYS_ONLY' }, [p]), 'ap-comments');
    expect(cost.plan.target).toEqual({ kind: 'lsi', name: 'LSI1' });
    // commentId, ticketId and createdAt are read from the keys; text is not projected.
    expect(cost.plan.fetch).toMatchObject({ kind: 'lsi', items: 4, missing: ['text'] });
    // Index part: 4 × 54 B = 216 B → 1 block; fetches: 4 × ceil(324 / 4,096) = 4 blocks; 5 × 1 (strong) = 5 RCU.
    expect(cost.perRequest.value).toBe(5);
    expect(cost.perRequest.steps.some((s) => s.label === 'Fetched base item, rounded up to 4 KB on its own')).toBe(true);
    expect(cost.consumption).toEqual([{ target: 'table', readUnitsPerSecond: 5, writeUnitsPerSecond: 0 }]);
  });
});

describe('writes to sparse indexes', () => {
  /** GSI2 holds open tickets only: GSI2PK = OPEN#{customerId} when status = "OPEN", KEYS_ONLY. */
  function withOpenIndex(when: string, template = 'OPEN#{customerId}'): Table {
    const t = table({ type: 'ALL' });
    t.globalSecondaryIndexes.push({ id: 'g-2', name: 'GSI2', partitionKey: { name: 'GSI2PK', type: 'S' }, projection: { type: 'KEYS_ONLY' } });
    t.entities[0]!.keys.GSI2PK = { template, when };
    return t;
  }
  const closeTicket: AccessPattern = { id: 'ap-close', name: 'Close a ticket', entityId: 'ent-ticket', action: 'update', known: ['ticketId'], updates: ['status'], ratePerSecond: 1, consistency: 'eventual' };

  it('an update that takes the item out of (or into) the index by its condition is one write, not a delete plus a put', () => {
    const t = withOpenIndex('status = "OPEN"');
    t.accessPatterns = [closeTicket];
    const cost = costOf(t, 'ap-close');
    const gsi2 = cost.plan.indexWrites.find((w) => w.target.kind === 'gsi' && w.target.name === 'GSI2')!;
    expect(gsi2.effect).toBe('enterOrLeave');
    // Item: 3,087 + GSI2PK (6 + "OPEN#" 5 + 10 = 21) = 3,108 B → table ceil(3,108 / 1,024) = 4 WCU.
    // GSI1 (ALL) holds status: rewritten in place, 4 WCU. GSI2 entry 14 + 3 + 21 = 38 B → 1 WCU. Total 9.
    expect(cost.perRequest.value).toBe(9);
    const labels = cost.perRequest.steps.map((s) => s.label).join('\n');
    expect(labels).toContain('GSI "GSI2": the item enters (one put) or leaves (one delete) the index, rounded up to 1 KB');
    expect(labels).toContain('which decides whether the item is in GSI2');
  });

  it('an update that says it sets status = "DONE" deletes the entry of the open share only', () => {
    const t = withOpenIndex('status = "OPEN"');
    const close: AccessPattern = { ...closeTicket, sets: { status: 'DONE' } };
    t.accessPatterns = [close];
    expect(validateDesign({ formatVersion: 1, id: 'd', name: 'd', tables: [t] })).toEqual([]);
    const cost = costOf(t, 'ap-close');
    const gsi2 = cost.plan.indexWrites.find((w) => w.target.kind === 'gsi' && w.target.name === 'GSI2')!;
    // OPEN has weight 1 of 1 + 3: a quarter of tickets are in GSI2, and only those lose their entry.
    expect(gsi2).toMatchObject({ effect: 'delete', fraction: 0.25 });
    // Table 4 + GSI1 (ALL) 4 + GSI2 1 × 0.25 = 8.25 WCU.
    expect(cost.perRequest.value).toBe(8.25);
  });

  it('an update that sets status = "OPEN" puts an entry for the tickets not yet in the index', () => {
    const t = withOpenIndex('status = "OPEN"');
    const reopen: AccessPattern = { ...closeTicket, id: 'ap-reopen', sets: { status: 'OPEN' } };
    t.accessPatterns = [reopen];
    const gsi2 = planPattern(t, reopen).indexWrites.find((w) => w.target.kind === 'gsi' && w.target.name === 'GSI2')!;
    // GSI2 (KEYS_ONLY) does not project status: the open quarter is left alone, the other 3/4 enter.
    expect(gsi2).toMatchObject({ effect: 'put', fraction: 0.75 });
    // 4 + 4 + 1 × 0.75 = 8.75 WCU.
    expect(costOf(t, 'ap-reopen').perRequest.value).toBe(8.75);
  });

  it('an update that sets a key value inside the condition moves the entries already in and puts those entering', () => {
    const t = withOpenIndex('status IN ("OPEN", "PENDING")', 'STATUS#{status}');
    const pend: AccessPattern = { ...closeTicket, id: 'ap-pend', sets: { status: 'PENDING' } };
    t.accessPatterns = [pend];
    const gsi2 = planPattern(t, pend).indexWrites.find((w) => w.target.kind === 'gsi' && w.target.name === 'GSI2')!;
    // OPEN weighs 1 of 4 and PENDING is no enum value: a quarter is in GSI2 before the update.
    expect(gsi2).toMatchObject({ effect: 'move', fraction: 0.25, enterShare: 0.75 });
    // Item 3,087 + GSI2PK (6 + "STATUS#" 7 + 4) = 3,104 B → 4 WCU; GSI1 (ALL) 4; GSI2 entry 14 + 3 + 17 = 34 B:
    // 2 writes × 0.25 + 1 write × 0.75 = 1.25. Total 9.25 WCU.
    expect(costOf(t, 'ap-pend').perRequest.value).toBe(9.25);
  });

  it('"sets" must name an updated attribute and fit its type', () => {
    const t = withOpenIndex('status = "OPEN"');
    t.entities[0]!.attributes.push({ name: 'priority', type: 'N' });
    t.accessPatterns = [{ ...closeTicket, updates: ['status', 'priority'], sets: { body: 'x', priority: 'high' } }];
    const problems = validateDesign({ formatVersion: 1, id: 'd', name: 'd', tables: [t] });
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ['model.invalidUpdates', 'tables[0].accessPatterns[0].sets.body'],
      ['model.invalidNumber', 'tables[0].accessPatterns[0].sets.priority'],
    ]);
  });

  it('a key change while the item stays in the index is a delete plus a put', () => {
    const t = withOpenIndex('status IN ("OPEN", "PENDING")', 'STATUS#{status}');
    t.accessPatterns = [closeTicket];
    const gsi2 = planPattern(t, closeTicket).indexWrites.find((w) => w.target.kind === 'gsi' && w.target.name === 'GSI2')!;
    expect(gsi2.effect).toBe('move');
  });

  it('a key the condition pins to one value cannot move inside the index: changing it is one write', () => {
    const t = withOpenIndex('status = "OPEN"', 'STATUS#{status}');
    const gsi2 = planPattern(t, closeTicket).indexWrites.find((w) => w.target.kind === 'gsi' && w.target.name === 'GSI2')!;
    expect(gsi2.effect).toBe('enterOrLeave');
  });

  it('a write derivation says why an index is not written', () => {
    const t = table({ type: 'KEYS_ONLY' });
    const edit: AccessPattern = { id: 'ap-edit', name: 'Edit the body', entityId: 'ent-ticket', action: 'update', known: ['ticketId'], updates: ['body'], ratePerSecond: 1, consistency: 'eventual' };
    t.accessPatterns = [edit];
    const cost = costOf(t, 'ap-edit');
    // Table: 3,087 B → ceil(3.01) = 4 WCU; GSI1 KEYS_ONLY does not project body: 0.
    expect(cost.perRequest.value).toBe(4);
    const labels = cost.perRequest.steps.map((s) => s.label).join('\n');
    expect(labels).toMatch(/GSI "GSI1": The update changes body, none of it projected into GSI1/);
    expect(labels).toContain('Size charged: the larger of the item before and after the update');
  });
});

describe('rendered key sizes', () => {
  const seqEntity = (over: Partial<Entity['attributes'][number]>, template = 'SEQ#{seq}', shards?: number): Entity => ({
    id: 'ent-seq',
    name: 'Seq',
    itemCount: 1,
    attributes: [{ name: 'seq', type: 'N', ...over }],
    keys: { PK: { template, ...(shards ? { shards: { count: shards, method: 'random' as const } } : {}) }, SK: { template: 'X' } },
  });
  const pkBytes = (e: Entity): number => {
    const t = table();
    t.entities = [e];
    return estimateItemBytes(t, e).steps.find((s) => s.label.startsWith('Key "PK"'))!.value;
  };

  it('a number in a string key counts its digits, not its stored size', () => {
    // 0..99,999: 5 digits → "PK" 2 + "SEQ#" 4 + 5 = 11 (the stored N would be 4 B).
    expect(pkBytes(seqEntity({ generator: { kind: 'number', min: 0, max: 99_999 } }))).toBe(11);
    // A sign counts: -500..500 → "-500" 4 characters → 2 + 4 + 4 = 10.
    expect(pkBytes(seqEntity({ generator: { kind: 'number', min: -500, max: 500 } }))).toBe(10);
    // From a stored size of 4 B: about 2 × (4 − 1) = 6 digits → 2 + 4 + 6 = 12.
    expect(pkBytes(seqEntity({ averageSizeBytes: 4 }))).toBe(12);
    // Padding to 10 digits → 2 + 4 + 10 = 16.
    expect(pkBytes(seqEntity({ generator: { kind: 'number', min: 0, max: 99_999 } }, 'SEQ#{seq:010}'))).toBe(16);
  });

  it('a shard suffix counts: .1 … .10 average 2.1 characters', () => {
    // 11 + "." + (9 × 1 + 1 × 2) / 10 digits = 11 + 2.1 = 13.1.
    expect(pkBytes(seqEntity({ generator: { kind: 'number', min: 0, max: 99_999 } }, 'SEQ#{seq}', 10))).toBeCloseTo(13.1, 9);
  });
});

describe('reads over shards', () => {
  it('a get over N random shards charges the item once and the minimum for each shard that finds nothing', () => {
    // User of 5,000 B body: item = PK ("PK" 2 + "U#" 2 + 10 + ".1…4" 2) 16 + SK 3 + userId 6 + 10 + body 4 + 5,000 = 5,039 B.
    const user: Entity = {
      id: 'ent-user',
      name: 'User',
      itemCount: 100,
      attributes: [
        { name: 'userId', type: 'S', averageSizeBytes: 10 },
        { name: 'body', type: 'S', averageSizeBytes: 5000 },
      ],
      keys: { PK: { template: 'U#{userId}', shards: { count: 4, method: 'random' } }, SK: { template: 'U' } },
    };
    const t = table();
    t.globalSecondaryIndexes = [];
    t.localSecondaryIndexes = [];
    t.entities = [user];
    t.accessPatterns = [{ id: 'ap-get', name: 'Get user', entityId: 'ent-user', action: 'get', known: ['userId'], ratePerSecond: 1, consistency: 'eventual' }];
    const cost = costOf(t, 'ap-get');
    expect(cost.plan.operation).toBe('BatchGetItem');
    // Found: ceil(5,039 / 4,096) = 2 blocks; 3 misses × 1 block; 5 blocks × 0.5 = 2.5 RCU (not 4 × 2 × 0.5 = 4).
    expect(cost.perRequest.value).toBe(2.5);
    expect(cost.perRequest.steps.map((s) => s.label)).toContain('3 keys not found');
  });
});

describe('advice', () => {
  it('a count-only pattern gets a KEYS_ONLY index, and the counter-item alternative with its write cost', () => {
    const t = table({ type: 'ALL' });
    t.globalSecondaryIndexes = [];
    t.accessPatterns = [
      { id: 'ap-count', name: 'Count open tickets', entityId: 'ent-ticket', action: 'count', known: ['status'], ratePerSecond: 1, consistency: 'eventual' },
      { id: 'ap-put', name: 'Open a ticket', entityId: 'ent-ticket', action: 'put', known: ['ticketId'], ratePerSecond: 3, consistency: 'eventual' },
    ];
    const plan = planPattern(t, t.accessPatterns[0]!);
    expect(plan.suggestion).toMatchObject({ kind: 'gsi', projection: { type: 'KEYS_ONLY' }, natural: { partitionKeys: [{ name: 'status', type: 'S' }], sortKeys: [] } });
    expect(plan.suggestion?.reason).toContain('counter item');
    expect(plan.suggestion?.reason).toContain('3 extra WCU/s');
  });

  it('a count of everything, or of many items, is told about the counter item and its write cost', () => {
    const t = table({ type: 'ALL' });
    t.accessPatterns = [
      { id: 'ap-all', name: 'Count all tickets', entityId: 'ent-ticket', action: 'count', known: [], ratePerSecond: 1, consistency: 'eventual' },
      { id: 'ap-put', name: 'Open a ticket', entityId: 'ent-ticket', action: 'put', known: ['ticketId'], ratePerSecond: 2, consistency: 'eventual' },
    ];
    expect(planPattern(t, t.accessPatterns[0]!).warnings?.join(' ')).toContain('counter item that each put and delete of Ticket updates');
    // 10 tickets per customer is too few to bother; 1,000 comments of one ticket are not.
    const c = comment();
    c.itemCount = 100_000;
    t.entities[1] = c;
    const count: AccessPattern = { id: 'ap-count-comments', name: 'Count comments', entityId: 'ent-comment', action: 'count', known: ['ticketId'], ratePerSecond: 1, consistency: 'eventual' };
    expect(planPattern(t, count).warnings?.join(' ')).toContain('Each count reads 1,000 items');
    expect(planPattern(t, byCustomer({ action: 'count' })).warnings ?? []).toEqual([]);
  });

  it('a pattern that knows only a constant gets a hot-partition warning, not a GSI on a constant key', () => {
    const t = table({ type: 'ALL' });
    t.entities[0]!.attributes.push({ name: 'kind', type: 'S', generator: { kind: 'constant', value: 'TICKET' } });
    const p: AccessPattern = { id: 'ap-all', name: 'All tickets', entityId: 'ent-ticket', action: 'query', known: ['kind'], ratePerSecond: 1, consistency: 'eventual' };
    const plan = planPattern(t, p);
    expect(plan.operation).toBe('Scan');
    expect(plan.suggestion).toBeUndefined();
    expect(plan.warnings?.join(' ')).toContain('constant partition key');
  });

  it('a get where the caller knows no key is a design problem, not silently a Scan', () => {
    const t = table({ type: 'ALL' });
    const plan = planPattern(t, { id: 'ap-get', name: 'Get a ticket', entityId: 'ent-ticket', action: 'get', known: [], ratePerSecond: 1, consistency: 'eventual' });
    expect(plan.isServed).toBe(false);
    expect(plan.designProblem).toContain('A get must address one item by its key');
    const warnings = costTable({ ...t, accessPatterns: [{ id: 'ap-get', name: 'Get a ticket', entityId: 'ent-ticket', action: 'get', known: [], ratePerSecond: 1, consistency: 'eventual' }] }).warnings;
    expect(warnings.find((w) => w.code === 'cost.designProblem')).toMatchObject({ severity: 'error', patternId: 'ap-get' });
  });

  it('reuses an existing GSI whose keys fit before adding a new one', () => {
    const t = table({ type: 'ALL' });
    const p: AccessPattern = { id: 'ap-status', name: 'Comments by text', entityId: 'ent-comment', action: 'query', known: ['text'], ratePerSecond: 1, consistency: 'eventual' };
    const plan = planPattern(t, p);
    expect(plan.suggestion).toMatchObject({ kind: 'gsi', indexName: 'GSI1', reuses: true, partitionKeyTemplate: 'TEXT#{text}' });
    const next = applyIndexSuggestion(t, plan.suggestion!);
    expect(next.globalSecondaryIndexes).toHaveLength(1);
    expect(planPattern(next, p)).toMatchObject({ badge: 'GSI Query', target: { kind: 'gsi', name: 'GSI1' }, isServed: true });
  });
});
