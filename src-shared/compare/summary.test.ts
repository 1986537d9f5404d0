import { describe, expect, it } from 'vitest';
import type { AccessPattern, Design, Entity, Table } from '../model/index.ts';
import { parseDesign } from '../model/index.ts';
import { compareDesigns } from './compare.ts';
import type { ComparisonReport, SideSummary } from './types.ts';
import { clockText, shortSideLabels, sideLetter } from './labels.ts';
import { markedSides, makeRow } from './rows.ts';
import { summarizeComparison, summaryParts, summarySentence } from './summary.ts';
import { formatSignedUsd as signedUsdText } from '../numbers/index.ts';

/**
 * An Order of exactly 1,024 bytes (docs/dynamodb-rules.md §1.1: name bytes + value bytes):
 * PK 2 + 16 (`ORDER#` + a 10-byte id), SK 2 + 5 (`ORDER`), orderId 7 + 10, customerId 10 + 10,
 * body 4 + 958. 10,000 orders of 1,000 customers: 10 orders per customer.
 */
function order(overrides: Partial<Entity> = {}): Entity {
  return {
    id: 'ent-order',
    name: 'Order',
    itemCount: 10_000,
    attributes: [
      { name: 'orderId', type: 'S', averageSizeBytes: 10 },
      { name: 'customerId', type: 'S', averageSizeBytes: 10, cardinality: 1_000 },
      { name: 'body', type: 'S', averageSizeBytes: 958 },
    ],
    keys: { PK: { template: 'ORDER#{orderId}' }, SK: { template: 'ORDER' } },
    ...overrides,
  };
}

const pattern = (p: Partial<AccessPattern> & Pick<AccessPattern, 'id' | 'name' | 'action'>): AccessPattern => ({
  entityId: 'ent-order',
  known: [],
  ratePerSecond: 1,
  consistency: 'eventual',
  ...p,
});

const PATTERNS: AccessPattern[] = [
  pattern({ id: 'ap-by-customer', name: 'Orders of a customer', action: 'query', known: ['customerId'], ratePerSecond: 1 }),
  pattern({ id: 'ap-get', name: 'Get an order', action: 'get', known: ['orderId'], ratePerSecond: 10 }),
  pattern({ id: 'ap-put', name: 'Place an order', action: 'put', known: ['orderId'], ratePerSecond: 10 }),
];

function designOf(table: Partial<Table> = {}, name = 'Orders'): Design {
  const design: Design = {
    formatVersion: 1,
    id: `design-${name}`,
    name,
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
        accessPatterns: PATTERNS,
        ...table,
      },
    ],
  };
  const parsed = parseDesign(design);
  if (!parsed.ok) throw new Error(`test design does not validate: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return parsed.value;
}

/**
 * The same design with GSI1 on the customer: each Order gains GSI1PK 6 + 19 (`CUSTOMER#` + id) and
 * GSI1SK 6 + 10, so it is 1,065 bytes, and its GSI1 entry (projection ALL) is too.
 */
function withGsi1(): Design {
  return designOf(
    {
      globalSecondaryIndexes: [{ id: 'gsi-1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'ALL' } }],
      entities: [order({ keys: { PK: { template: 'ORDER#{orderId}' }, SK: { template: 'ORDER' }, GSI1PK: { template: 'CUSTOMER#{customerId}' }, GSI1SK: { template: '{orderId}' } } })],
    },
    'Orders with GSI1',
  );
}

const report = (...designs: Design[]): ComparisonReport =>
  compareDesigns(
    designs.map((design, i) => ({ label: `${sideLetter(i).toLowerCase()}.keyplan.json`, design })),
    { simulate: false },
  );
const summaryOf = (...designs: Design[]): SideSummary => report(...designs).summary.sides[0]!;

/** Seconds in the default pricing's 730-hour month. */
const MONTH_SECONDS = 730 * 3600;
/** On-demand, Standard (docs/dynamodb-rules.md §6.1): $0.125 per million read request units, $0.625 per million write request units. */
const readsUsd = (rcuPerSecond: number) => ((rcuPerSecond * MONTH_SECONDS) / 1e6) * 0.125;
const writesUsd = (wcuPerSecond: number) => ((wcuPerSecond * MONTH_SECONDS) / 1e6) * 0.625;
/** Provisioned, Standard (docs/dynamodb-rules.md §6.2): $0.00013 per RCU-hour, $0.00065 per WCU-hour, 730 hours. */
const provisionedUsd = (rcu: number, wcu: number) => rcu * 730 * 0.00013 + wcu * 730 * 0.00065;

describe('summary: a GSI that turns a Scan into a Query', () => {
  const s = summaryOf(designOf(), withGsi1());

  it('costs the pattern by the AWS rules on each side: a Scan of the whole table before, a Query of 10 GSI entries after', () => {
    // Before: a Scan reads all 10,000 × 1,024 B = 10,240,000 B; 1,024 items fill a 1 MB page, so
    // 9 pages of 256 blocks + 784 items in 196 blocks = 2,500 blocks of 4 KB, eventually consistent
    // ½ each: 1,250 RCU per request (docs/dynamodb-rules.md §2.2), at 1 request/s.
    // After: a Query on GSI1 reads the customer's 10 entries of 1,065 B = 10,650 B, rounded up once
    // to 3 blocks, ½ each (GSI reads are eventually consistent, docs/dynamodb-rules.md §2.4): 1.5 RCU.
    expect(s.cheaper).toHaveLength(1);
    const p = s.cheaper[0]!;
    expect(p).toMatchObject({ key: 'pattern:ap-by-customer', name: 'Orders of a customer', kind: 'read', planBefore: 'Scan', planAfter: 'Query on GSI GSI1' });
    expect(p.before).toBeCloseTo(readsUsd(1250), 6); // $410.625
    expect(p.after).toBeCloseTo(readsUsd(1.5), 6); // $0.49275
    expect(p.delta).toBeCloseTo(readsUsd(1.5) - readsUsd(1250), 6);
  });

  it('finds the write costlier: the bigger item and its GSI1 entry take 2 WCU each', () => {
    // Before: 1,024 B is 1 WCU (1 KB units, docs/dynamodb-rules.md §3.1). After: 1,065 B is 2 WCU for the table and 2 for
    // the GSI1 entry (ALL: the whole item): 4 WCU per put, at 10 puts/s.
    expect(s.costlier).toHaveLength(1);
    const p = s.costlier[0]!;
    expect(p).toMatchObject({ name: 'Place an order', kind: 'write', planBefore: 'PutItem on the table', planAfter: 'PutItem on the table' });
    expect(p.before).toBeCloseTo(writesUsd(10), 6); // $16.425
    expect(p.after).toBeCloseTo(writesUsd(40), 6); // $65.70
  });

  it('counts the GetItem unchanged: 1,024 B and 1,065 B both round up to one 4 KB block, ½ unit', () => {
    expect(s.unchanged).toBe(1);
    expect(s.replanned).toEqual([]);
    expect(s.notCosted).toEqual([]);
  });

  it('names GSI1 added as the headline, and the Order keys that came with it as a detail', () => {
    expect(s.changes).toEqual([
      { kind: 'indexAdded', table: 'Orders', short: 'GSI1 added', detail: 'GSI1 added: partition key GSI1PK (S), sort key GSI1SK (S), projection ALL', isHeadline: true },
      { kind: 'entityKeys', table: 'Orders', short: 'Order keys changed', detail: 'Order keys: GSI1PK added (CUSTOMER#{customerId}); GSI1SK added ({orderId})', isHeadline: false },
    ]);
  });

  it('nets B − A per month: on-demand requests and provisioned at whole units per table and GSI, each with its storage', () => {
    // Storage is billed from the first byte at the default prices: A = 10,000 × (1,024 + 100) B =
    // 11,240,000 B; B = 10,000 × (1,065 + 100) B in the table and as many in GSI1 = 23,300,000 B;
    // B − A = 12,060,000 B ÷ 1,073,741,824 × $0.25 = +$0.0028079376.
    const storageDelta = (12_060_000 / 1_073_741_824) * 0.25;
    // On-demand: A = 1,255 RCU/s and 10 WCU/s; B = 5 + 1.5 RCU/s and 20 + 20 WCU/s.
    const onDemandA = readsUsd(1255) + writesUsd(10); // $428.6925
    const onDemandB = readsUsd(6.5) + writesUsd(40); // $67.83525
    expect(s.net.onDemand.value).toBeCloseTo(onDemandB - onDemandA + storageDelta, 6); // −$360.8544420624
    // Provisioned (the load in whole units, each of the table and GSI1): A = 1,255 RCU, 10 WCU;
    // B = table 5 RCU, 20 WCU + GSI1 ceil(1.5) = 2 RCU, 20 WCU.
    expect(s.net.provisioned.value).toBeCloseTo(provisionedUsd(7, 40) - provisionedUsd(1255, 10) + storageDelta, 6); // −$104.1973920624
  });

  it('carries the derivation of the net: both totals, then the subtraction', () => {
    const steps = s.net.onDemand.steps;
    expect(steps.at(-1)).toMatchObject({ label: 'Net change of the on-demand total per month, B − A', expression: '$67.84 − $428.70', unit: 'USD/month' });
    expect(steps.some((st) => st.label.startsWith('A: '))).toBe(true);
    expect(steps.some((st) => st.label.startsWith('B: '))).toBe(true);
  });

  it('says it in one line', () => {
    expect(summarySentence(s)).toBe('GSI1 added; 1 pattern cheaper, 1 costlier, 1 unchanged; net −$360.85/month on-demand, −$104.20/month provisioned');
    // The other way round, the same in reverse.
    expect(summarySentence(summaryOf(withGsi1(), designOf()))).toBe('GSI1 removed; 1 pattern cheaper, 1 costlier, 1 unchanged; net +$360.85/month on-demand, +$104.20/month provisioned');
  });
});

describe('summary: structural changes', () => {
  const base = () => withGsi1();
  const edit = (f: (t: Table) => void): Design => {
    const d = structuredClone(base());
    f(d.tables[0]!);
    return d;
  };

  it.each<[string, (t: Table) => void, string[]]>([
    ['no change', () => {}, []],
    ['billing mode', (t) => (t.billing = { mode: 'PROVISIONED', readCapacityUnits: 100, writeCapacityUnits: 50 }), ['billing on-demand → provisioned']],
    ['table class', (t) => (t.tableClass = 'STANDARD_INFREQUENT_ACCESS'), ['table class STANDARD → STANDARD_INFREQUENT_ACCESS']],
    ['GSI projection', (t) => (t.globalSecondaryIndexes[0]!.projection = { type: 'KEYS_ONLY' }), ['GSI1 projection changed']],
    ['GSI key schema and projection', (t) => {
      delete t.globalSecondaryIndexes[0]!.sortKey;
      t.globalSecondaryIndexes[0]!.projection = { type: 'INCLUDE', nonKeyAttributes: ['body'] };
      delete t.entities[0]!.keys.GSI1SK;
    }, ['GSI1 key schema and projection changed']],
    ['an LSI added', (t) => t.localSecondaryIndexes.push({ id: 'lsi-1', name: 'ByCustomer', sortKey: { name: 'LSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }), ['LSI ByCustomer added']],
    ['an entity added and one renamed', (t) => {
      t.entities[0]!.name = 'Purchase';
      t.entities.push({ id: 'ent-customer', name: 'Customer', itemCount: 10, attributes: [{ name: 'customerId', type: 'S', averageSizeBytes: 10 }], keys: { PK: { template: 'CUSTOMER#{customerId}' }, SK: { template: 'PROFILE' } } });
    }, ['entity Order renamed Purchase', 'entity Customer added']],
    ['a pattern removed and one added', (t) => {
      t.accessPatterns = [...t.accessPatterns.filter((p) => p.id !== 'ap-get'), pattern({ id: 'ap-delete', name: 'Delete an order', action: 'delete', known: ['orderId'] })];
    }, ['pattern “Get an order” removed', 'pattern “Delete an order” added']],
  ])('%s', (_name, change, shorts) => {
    const s = summaryOf(base(), edit(change));
    expect(s.changes.filter((c) => c.isHeadline).map((c) => c.short)).toEqual(shorts);
    if (shorts.length === 0) expect(summaryParts(s).changes).toBe('no structural change');
  });

  it('says where a plan reads and what it fetches: a KEYS_ONLY GSI1 makes the whole-item read fetch from the table', () => {
    const keysOnly = edit((t) => (t.globalSecondaryIndexes[0]!.projection = { type: 'KEYS_ONLY' }));
    const s = summaryOf(keysOnly, base());
    expect(s.cheaper.find((d) => d.name === 'Orders of a customer')).toMatchObject({
      planBefore: 'Query on GSI GSI1 + BatchGetItem from the table',
      planAfter: 'Query on GSI GSI1',
    });
  });

  it('details a capacity change of a provisioned table and a GSI', () => {
    const a = edit((t) => {
      t.billing = { mode: 'PROVISIONED', readCapacityUnits: 100, writeCapacityUnits: 50 };
      t.globalSecondaryIndexes[0]!.provisioned = { readCapacityUnits: 10, writeCapacityUnits: 10 };
    });
    const b = structuredClone(a);
    b.tables[0]!.billing = { mode: 'PROVISIONED', readCapacityUnits: 200, writeCapacityUnits: 50, autoScaling: { read: { minCapacity: 5, maxCapacity: 400, targetUtilizationPercent: 70 } } };
    b.tables[0]!.globalSecondaryIndexes[0]!.provisioned = { readCapacityUnits: 20, writeCapacityUnits: 10 };
    expect(summaryOf(a, b).changes.map((c) => c.detail)).toEqual([
      'billing provisioned 100 RCU, 50 WCU → provisioned 200 RCU, 50 WCU, reads auto scale 5–400 at 70%',
      'GSI1: capacity 10 RCU, 10 WCU → 20 RCU, 10 WCU',
    ]);
  });

  it('names at most three headline changes in the sentence, then how many more', () => {
    const many = edit((t) => {
      t.billing = { mode: 'PROVISIONED', readCapacityUnits: 100, writeCapacityUnits: 50 };
      t.tableClass = 'STANDARD_INFREQUENT_ACCESS';
      t.globalSecondaryIndexes[0]!.projection = { type: 'KEYS_ONLY' };
      t.accessPatterns = t.accessPatterns.filter((p) => p.id !== 'ap-get');
      t.entities[0]!.name = 'Purchase';
    });
    expect(summaryParts(summaryOf(base(), many)).changes).toBe(
      'billing on-demand → provisioned, table class STANDARD → STANDARD_INFREQUENT_ACCESS, GSI1 projection changed and 2 more changes',
    );
  });

  it('the same design: nothing changed, every pattern unchanged, net $0.00', () => {
    expect(summarySentence(summaryOf(base(), base()))).toBe('no structural change; 3 patterns unchanged; net $0.00/month on-demand, $0.00/month provisioned');
  });
});

describe('summary: three sides', () => {
  it('puts B and C each against A', () => {
    const r = report(designOf(), withGsi1(), designOf());
    expect(r.sides.map((s) => s.letter)).toEqual(['A', 'B', 'C']);
    expect(r.summary.sides.map((s) => [s.letter, summaryParts(s).changes])).toEqual([
      ['B', 'GSI1 added'],
      ['C', 'no structural change'],
    ]);
    expect(r.summary.sides[1]!.net.onDemand.value).toBe(0);
  });
});

describe('summary: a pattern one side cannot cost', () => {
  it('counts it as not costed rather than cheaper or costlier', () => {
    const r = report(designOf(), withGsi1());
    // A pattern without a key design yet has no cost: its cells hold no number.
    const tampered = structuredClone(r);
    const p = tampered.patterns.find((x) => x.key === 'pattern:ap-by-customer')!;
    p.rows = p.rows.map((row) => (row.key.endsWith(':onDemand') ? makeRow(row.key, row.label, row.format, row.rule, [row.cells[0]!, { value: null }]) : row));
    const s = summarizeComparison(tampered, [{ design: designOf() }, { design: withGsi1() }]).sides[0]!;
    expect(s.notCosted).toEqual(['Orders of a customer']);
    expect(s.cheaper).toEqual([]);
    expect(summaryParts(s).patterns).toBe('1 pattern costlier, 1 unchanged, 1 not costed');
  });
});

describe('side labels', () => {
  const now = new Date(2026, 10, 29, 18, 0, 0);
  const at = (h: number, m: number, sec = 0) => new Date(2026, 10, 29, h, m, sec).toISOString();

  it('uses file names when every side has one, else design names on every side', () => {
    expect(shortSideLabels([{ designName: 'Shop', fileName: 'shop.keyplan.json' }, { designName: 'Shop v2', fileName: 'shop-v2.keyplan.json' }], now)).toEqual(['shop.keyplan.json', 'shop-v2.keyplan.json']);
    expect(shortSideLabels([{ designName: 'Shop', fileName: 'shop.keyplan.json' }, { designName: 'Shop (alternative)' }], now)).toEqual(['Shop', 'Shop (alternative)']);
  });

  it('labels a revision by what made it and when, and the open design it is compared with as current', () => {
    expect(
      shortSideLabels(
        [
          { designName: 'Shop', fileName: 'shop.keyplan.json', revision: { event: 'saved', createdAt: at(14, 3, 27) } },
          { designName: 'Shop', fileName: 'shop.keyplan.json', isCurrent: true },
        ],
        now,
      ),
    ).toEqual(['shop.keyplan.json · saved 14:03', 'shop.keyplan.json · current']);
  });

  it('adds the seconds when two revisions would read the same, and the date when not today', () => {
    const saved = (sec: number) => ({ designName: 'Shop', fileName: 'shop.keyplan.json', revision: { event: 'saved', createdAt: at(14, 3, sec) } });
    expect(shortSideLabels([saved(1), saved(42)], now)).toEqual(['shop.keyplan.json · saved 14:03:01', 'shop.keyplan.json · saved 14:03:42']);
    expect(clockText(new Date(2026, 10, 28, 9, 5).toISOString(), now)).toBe('2026-11-28 09:05');
  });

  it('letters the sides A, B, C…', () => {
    expect([0, 1, 2, 25, 26].map(sideLetter)).toEqual(['A', 'B', 'C', 'Z', 'S27']);
  });
});

describe('the better mark', () => {
  it('marks the best sides only when some side taking part is worse', () => {
    expect(markedSides(makeRow('k', 'RCU', 'units', 'lower', [{ value: 2 }, { value: 1 }]))).toEqual([1]);
    expect(markedSides(makeRow('k', 'RCU', 'units', 'lower', [{ value: 1 }, { value: 3 }, { value: 1 }]))).toEqual([0, 2]);
    expect(markedSides(makeRow('k', 'RCU', 'units', 'lower', [{ value: 1 }, { value: 1 }]))).toEqual([]);
    // A side without the pattern takes no part: the other two tie.
    expect(markedSides(makeRow('k', 'RCU', 'units', 'lower', [{ value: 1 }, { value: null }, { value: 1 }]))).toEqual([]);
    expect(markedSides(makeRow('k', 'Key', 'text', 'none', [{ value: 'a' }, { value: 'b' }]))).toEqual([]);
  });

  it('signs a difference in dollars with a minus sign', () => {
    expect([412, -412, 0, -0.0004].map(signedUsdText)).toEqual(['+$412.00', '−$412.00', '$0.00', '−$0.0004']);
  });
});
