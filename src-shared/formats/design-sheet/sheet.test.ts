import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { costDesign } from '../../costing/index.ts';
import type { Design, GlobalSecondaryIndex, Table } from '../../model/index.ts';
import { MAX_KEY_COLUMNS_PER_CHART } from './entity-chart.ts';
import { expressionText } from './pattern-chart.ts';
import { designSheet } from './sheet.ts';
import { keyColumnRole, rowNotes, servedByText } from './text.ts';
import { toDesignSheetHtml } from './html.ts';
import { toDesignSheetMarkdown } from './markdown.ts';
import { formatUsd } from '../../numbers/index.ts';

const root = resolve(import.meta.dirname, '../../..');
const read = (path: string): Design => JSON.parse(readFileSync(resolve(root, path), 'utf8')) as Design;
const example = (): Design => read('examples/ecommerce.keyplan.json');
const withTable = (design: Design, change: (t: Table) => Table): Design => ({ ...design, tables: design.tables.map((t, i) => (i === 0 ? change(t) : t)) });

describe('the entity chart', () => {
  it('has a column per key attribute of the table and of each index, and a row per entity with its templates', () => {
    const table = designSheet(example()).tables[0]!;
    expect(table.entityChart).toHaveLength(1);
    const part = table.entityChart[0]!;
    expect(part.groups.map((g) => g.label)).toEqual(['Table', 'GSI GSI1', 'GSI GSI2']);
    expect(part.groups.flatMap((g) => g.columns.map((c) => `${c.attribute} ${c.role}`))).toEqual([
      'PK partition key',
      'SK sort key',
      'GSI1PK partition key',
      'GSI1SK sort key',
      'GSI2PK partition key',
      'GSI2SK sort key',
    ]);
    expect(part.rows.map((r) => r.name)).toEqual(['User', 'Product', 'Order', 'OrderItem', 'Review']);
    const order = part.rows.find((r) => r.name === 'Order')!;
    expect(order.cells[0]).toEqual({ template: 'USER#{userId}' });
    expect(order.cells[4]).toEqual({ template: 'STATUS#{status}', when: 'status IN ("PENDING", "PROCESSING")' });
    // A user has no GSI2 keys: not in that index.
    expect(part.rows.find((r) => r.name === 'User')!.cells.slice(4)).toEqual([undefined, undefined]);
    expect(table.hasEntitiesOutsideAnIndex).toBe(true);
  });

  it(`continues in parts of at most ${MAX_KEY_COLUMNS_PER_CHART} key columns, each with every entity, never splitting an index`, () => {
    const gsi = (n: number): GlobalSecondaryIndex => ({
      id: `gsi-x${n}`,
      name: `GSI${n}`,
      partitionKey: { name: `GSI${n}PK`, type: 'S' },
      sortKey: { name: `GSI${n}SK`, type: 'S' },
      projection: { type: 'ALL' },
    });
    const design = withTable(example(), (t) => ({ ...t, globalSecondaryIndexes: [...t.globalSecondaryIndexes, gsi(3), gsi(4), gsi(5), gsi(6)] }));
    const parts = designSheet(design).tables[0]!.entityChart;
    expect(parts.map((p) => p.groups.map((g) => g.name))).toEqual([['Shop', 'GSI1', 'GSI2'], ['GSI3', 'GSI4', 'GSI5'], ['GSI6']]);
    for (const part of parts) {
      const columns = part.groups.reduce((n, g) => n + g.columns.length, 0);
      expect(columns).toBeLessThanOrEqual(MAX_KEY_COLUMNS_PER_CHART);
      expect(part.rows.map((r) => r.cells.length)).toEqual([columns, columns, columns, columns, columns]);
    }
  });

  it("gives an LSI its sort key column and shows write sharding", () => {
    const design = withTable(example(), (t) => ({
      ...t,
      localSecondaryIndexes: [{ id: 'lsi-1', name: 'ByCreated', sortKey: { name: 'LSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
      entities: t.entities.map((e) =>
        e.name === 'Review'
          ? { ...e, keys: { ...e.keys, LSI1SK: { template: '{createdAt}' }, PK: { template: 'PRODUCT#{productId}', shards: { count: 10, method: 'random' as const } } } }
          : e,
      ),
    }));
    const table = designSheet(design).tables[0]!;
    const lsiPart = table.entityChart.at(-1)!;
    expect(lsiPart.groups.at(-1)).toMatchObject({ kind: 'lsi', label: 'LSI ByCreated', columns: [{ attribute: 'LSI1SK', role: 'sort key' }] });
    expect(lsiPart.rows.find((r) => r.name === 'Review')!.cells.at(-1)).toEqual({ template: '{createdAt}' });
    expect(table.entityChart[0]!.rows.find((r) => r.name === 'Review')!.cells[0]).toEqual({ template: 'PRODUCT#{productId}', shards: 'sharded: 10 suffixes, random' });
    expect(table.indexes.at(-1)).toEqual({ kind: 'lsi', name: 'ByCreated', partitionKey: "PK (S), the table's", sortKey: 'LSI1SK (S)', projection: 'KEYS_ONLY', capacity: "the table's" });
  });
});

describe('the access-pattern chart', () => {
  it("shows every pattern with the costs screen's figures: units per second and dollars per month, both ways", () => {
    const design = example();
    const costs = costDesign(design).tables[0]!.patterns;
    const rows = designSheet(design).tables[0]!.patterns;
    expect(rows.map((r) => r.name)).toEqual(costs.map((c) => c.name));
    rows.forEach((row, i) => {
      const cost = costs[i]!;
      expect(row.number).toBe(i + 1);
      expect(row.plan!.perSecond.value).toBe(cost.perSecond.value);
      expect(row.plan!.onDemandMonthly.value).toBe(cost.monthly.onDemand.value);
      expect(row.plan!.provisionedMonthly.value).toBe(cost.monthly.provisioned.value);
    });
  });

  it('names the index and writes the key condition with the values it is sent with', () => {
    const rows = designSheet(example()).tables[0]!.patterns;
    const byId = rows.find((r) => r.name === 'Get order by id')!;
    expect(servedByText(byId)).toBe('Query on GSI GSI1');
    expect(byId.plan!.keyCondition).toBe('GSI1PK = "ORDER#{orderId}" AND GSI1SK = "ORDER"');
    expect(formatUsd(byId.plan!.onDemandMonthly.value)).toBe('$24.64');
    const orders = rows.find((r) => r.name === "List a user's orders, newest first")!;
    expect(orders.plan!.keyCondition).toBe('PK = "USER#{userId}" AND SK BETWEEN "ORDER#{orderDate}" AND "ORDER$"');
  });

  it('says which indexes a write changes', () => {
    const place = designSheet(example()).tables[0]!.patterns.find((r) => r.name === 'Place order')!;
    expect(servedByText(place)).toBe('PutItem on table, + GSI1 (put), GSI2 (put)');
    expect(place.plan!.unit).toBe('WCU');
  });

  it('shows the filter a Query sends, names and values written in', () => {
    const design = withTable(example(), (t) => ({
      ...t,
      accessPatterns: t.accessPatterns.map((p) => (p.name === "List a user's orders, newest first" ? { ...p, filter: 'status = "SHIPPED" AND total > 100' } : p)),
    }));
    const row = designSheet(design).tables[0]!.patterns.find((r) => r.name === "List a user's orders, newest first")!;
    expect(row.plan!.filter).toBe('status = "SHIPPED" AND total > 100');
  });

  it('gives a pattern written before its entity, or whose entity has no keys yet, no figures: it needs a key design, as the costs say', () => {
    const design = withTable(example(), (t) => ({
      ...t,
      entities: [...t.entities, { id: 'e-return', name: 'Return', itemCount: 10, attributes: [{ name: 'returnId', type: 'S' as const }], keys: {} }],
      accessPatterns: [
        ...t.accessPatterns,
        { id: 'p-first', name: 'List returns of an order', action: 'query' as const, known: ['orderId'], ratePerSecond: 5, consistency: 'eventual' as const },
        { id: 'p-keyless', name: 'Get a return', entityId: 'e-return', action: 'get' as const, known: ['returnId'], ratePerSecond: 5, consistency: 'eventual' as const },
      ],
    }));
    const costs = costDesign(design).tables[0]!;
    const rows = designSheet(design).tables[0]!.patterns.slice(-2);
    for (const row of rows) {
      expect(row.plan).toBeUndefined();
      expect(row.needsKeyDesign).toBe(costs.patterns.find((p) => p.patternId === row.patternId)!.needsKeyDesign);
      expect(servedByText(row)).toBe('needs a key design');
      expect(rowNotes(row)).toEqual([`Not costed, it needs a key design: ${row.needsKeyDesign}`]);
    }
    expect(rows[0]!.entityName).toBeUndefined();
    expect(rows[0]!.needsKeyDesign).toMatch(/^No entity yet/);
    expect(rows[1]!.entityName).toBe('Return');
    // The table's total leaves them out, as the costs screen's does.
    expect(designSheet(design).tables[0]!.onDemandRequestsMonthly!.value).toBe(costs.onDemandMonthly.value);
  });

  it('keeps the entity chart and settings when the costs cannot be computed, and says why', () => {
    const sheet = designSheet(example(), { ok: false, error: 'GSI "GSI9" is not defined' });
    expect(sheet.costError).toBe('GSI "GSI9" is not defined');
    expect(sheet.totals).toBeUndefined();
    const table = sheet.tables[0]!;
    expect(table.entityChart[0]!.rows).toHaveLength(5);
    expect(table.patterns.every((r) => r.plan === undefined && r.needsKeyDesign === undefined)).toBe(true);
    expect(servedByText(table.patterns[0]!)).toBe('not costed: the costs cannot be computed');
  });
});

describe('the table settings', () => {
  it('lists billing, capacity with auto scaling, class, TTL, streams, recovery and encryption', () => {
    const [orders, blobs] = designSheet(read('src-shared/formats/__fixtures__/all-settings.keyplan.json')).tables;
    expect(Object.fromEntries(orders!.settings.map((s) => [s.label, s.value]))).toMatchObject({
      Billing: 'Provisioned',
      Capacity: '10 RCU, 5 WCU',
      'Table class': 'Standard-IA (Standard-Infrequent Access)',
      'Time to live': 'on, attribute expiresAt',
      Streams: 'on, NEW_IMAGE',
      'Point-in-time recovery': 'on, 14 days',
      'Deletion protection': 'on',
    });
    expect(orders!.indexes.map((i) => [i.name, i.projection, i.capacity])).toEqual([
      ['ByStatus', 'INCLUDE customerId, placedAt', '4 RCU, 2 WCU'],
      ['ByCustomer', 'KEYS_ONLY', '3 RCU, 1 WCU'],
      ['ByPlacedAt', 'ALL', "the table's"],
    ]);
    expect(blobs!.settings.find((s) => s.label === 'Billing')!.value).toBe('On-demand (pay per request)');
    const scaling = designSheet(read('src-shared/formats/__fixtures__/auto-scaling.keyplan.json')).tables[0]!;
    expect(scaling.settings.find((s) => s.label === 'Capacity (auto scaling)')!.value).toBe('RCU auto 5–500 at 70 %, 20 WCU');
  });
});

describe('expressionText', () => {
  it.each([
    ['PK = :pk AND begins_with(SK, :sk)', { ':pk': 'USER#{userId}', ':sk': 'ORDER#' }, {}, false, 'PK = "USER#{userId}" AND begins_with(SK, "ORDER#")'],
    // :pk2 is its own placeholder, not :pk followed by "2".
    ['PK = :pk2 OR PK = :pk', { ':pk': 'A', ':pk2': 'B' }, {}, false, 'PK = "B" OR PK = "A"'],
    ['#status = :status AND #total > :total', { ':status': 'SHIPPED', ':total': '100' }, { '#status': 'status', '#total': 'total' }, true, 'status = "SHIPPED" AND total > 100'],
    // In a key condition a number-like template is still a template (a string key holds it as text).
    ['SK = :sk', { ':sk': '100' }, {}, false, 'SK = "100"'],
    ['#a = :unknown', {}, {}, true, '#a = :unknown'],
  ])('writes the placeholders of %s in', (expression, values, names, bareLiterals, expected) => {
    expect(expressionText(expression, values, names, bareLiterals)).toBe(expected);
  });
});

describe('multi-attribute GSI keys and the capacity settings', () => {
  const multi = (): Design => read('src-shared/formats/__fixtures__/multi-attribute.keyplan.json');

  it('writes a multi-attribute key as its attributes joined with +, in key order, each with its type', () => {
    const [table] = designSheet(multi()).tables;
    expect(table!.indexes.map((i) => [i.name, i.partitionKey, i.sortKey])).toEqual([
      ['ByTournamentRegion', 'tournamentId (S) + region (S)', 'round (N) + bracket (S)'],
      ['ByPlayer', 'playerId (S)', 'matchDate (S)'],
    ]);
  });

  it("gives each attribute of a multi-attribute key its own chart column, with its place in the key, and the entity's natural attribute in its cell", () => {
    const [table] = designSheet(multi()).tables;
    const group = table!.entityChart.flatMap((p) => p.groups).find((g) => g.name === 'ByTournamentRegion')!;
    expect(group.columns.map((c) => `${c.attribute}: ${keyColumnRole(c)} (${c.type})`)).toEqual([
      'tournamentId: partition key 1 of 2 (S)',
      'region: partition key 2 of 2 (S)',
      'round: sort key 1 of 2 (N)',
      'bracket: sort key 2 of 2 (S)',
    ]);
    const part = table!.entityChart.find((p) => p.groups.includes(group))!;
    expect(part.rows[0]!.cells.map((c) => c?.template)).toEqual(['{matchId}', '{tournamentId}', '{region}', '{round}', '{bracket}']);
    expect(table!.hasEntitiesOutsideAnIndex).toBe(false);
  });

  it('lists on-demand maximums, warm throughput, Contributor Insights and tags for the table, and per GSI in its capacity', () => {
    const [table] = designSheet(multi()).tables;
    expect(Object.fromEntries(table!.settings.map((s) => [s.label, s.value]))).toMatchObject({
      'On-demand maximum': 'at most 30,000 read / 10,000 write request units per second',
      'Warm throughput': '24,000 read / 8,000 write units per second',
      'Contributor Insights': 'on, THROTTLED_KEYS',
      Tags: 'env=prod, team=esports',
      'Point-in-time recovery': 'on, 7 days',
    });
    expect(table!.indexes.map((i) => i.capacity)).toEqual([
      'on-demand; warm throughput 15,000 read / 5,000 write units per second',
      'on-demand, at most 2,000 read / 800 write request units per second',
    ]);
  });

  it('writes them into the Markdown and HTML sheets', () => {
    const design = multi();
    const markdown = toDesignSheetMarkdown(design);
    expect(markdown).toContain('| ByTournamentRegion | GSI | tournamentId (S) + region (S) | round (N) + bracket (S) | ALL |');
    expect(markdown).toContain('| region (ByTournamentRegion PK 2/2) |');
    expect(markdown).toContain('| Warm throughput | 24,000 read / 8,000 write units per second |');
    const html = toDesignSheetHtml(design);
    expect(html).toContain('<td>tournamentId (S) + region (S)</td><td>round (N) + bracket (S)</td>');
    expect(html).toContain('<th>bracket<span class="sub">sort key 2 of 2 (S)</span></th>');
    expect(html).toContain('<dt>Contributor Insights</dt><dd>on, THROTTLED_KEYS</dd>');
  });
});
