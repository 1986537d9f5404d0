/**
 * Measured against predicted. Every figure below is worked by hand from the AWS rules
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html: an
 * item's size is Σ name UTF-8 bytes + value bytes; reads are per 4,096 B, writes per 1,024 B) and, for
 * the embedded engine, from what dynalite's source does (db/index.js itemSize, capacityUnits,
 * addConsumedCapacity, queryTable).
 */
import { describe, expect, test } from 'vitest';
import type { Item } from '../capacity/index.ts';
import { comparePattern, summarize } from './agreement.ts';
import type { AgreementOptions } from './types.ts';
import {
  EMBEDDED_CAPABILITIES,
  FULL_CAPABILITIES,
  type MeasuredPage,
  type MeasuredRequest,
  type PatternMeasurement,
  type PatternReport,
  type PatternRun,
  type Prediction,
  type RunIndex,
  type RunOperation,
  type RunRequest,
} from './types.ts';

const TABLE = 'keyplan-run-t1-Shop';
const s = (v: string) => ({ S: v });

/** gsi1 keeps keys only; lsi1 (sort key lsi1sk) keeps keys only. */
const GSI1_KEYS_ONLY: RunIndex = { name: 'gsi1', kind: 'gsi', keyAttributes: ['gsi1pk', 'gsi1sk'], projection: { type: 'KEYS_ONLY' } };
const GSI1_ALL: RunIndex = { ...GSI1_KEYS_ONLY, projection: { type: 'ALL' } };
const LSI1: RunIndex = { name: 'lsi1', kind: 'lsi', keyAttributes: ['pk', 'lsi1sk'], projection: { type: 'KEYS_ONLY' } };

const options = (isDynalite: boolean, indexes: RunIndex[] = [GSI1_KEYS_ONLY, LSI1]): AgreementOptions => ({
  capabilities: isDynalite ? EMBEDDED_CAPABILITIES : FULL_CAPABILITIES,
  table: { keyAttributes: ['pk', 'sk'], indexes },
});
const FULL = options(false);
const DYNALITE = options(true);

/**
 * An order: pk "C#1" (2 + 3 = 5 B), sk "O#<n>" (2 + 3 = 5 B for one digit), data of `dataChars`
 * ASCII characters (4 + dataChars B): 14 + dataChars bytes in all.
 */
const order = (n: number, dataChars: number, extra: Item = {}): Item => ({ pk: s('C#1'), sk: s(`O#${n}`), data: s('x'.repeat(dataChars)), ...extra });

function prediction(unit: 'read' | 'write', units: Record<string, number>, itemsRead: number, averageItemBytes: number): Prediction {
  const total = Object.values(units).reduce((a, b) => a + b, 0);
  return { units, total, unit, itemsRead, itemsReturned: itemsRead, requests: 1, averageItemBytes, derivation: [] };
}

function patternRun(operation: RunOperation, request: Record<string, unknown>, extra: Partial<PatternRun> = {}): PatternRun {
  const isWrite = ['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems'].includes(operation);
  const sent: RunRequest = { operation, input: { TableName: TABLE, ReturnConsumedCapacity: 'INDEXES', ...request } };
  return {
    patternId: 'p1',
    name: 'Orders of a customer',
    kind: isWrite ? 'write' : 'read',
    operation,
    target: 'table',
    consistency: 'eventual',
    calls: [{ requests: [sent] }],
    notes: [],
    ...extra,
  };
}

function page(itemsRead: Item[], byTarget: Record<string, number>, latencyMs = 2): MeasuredPage {
  const capacityUnits = Object.values(byTarget).reduce((a, b) => a + b, 0);
  return { capacityUnits, byTarget, count: itemsRead.length, scannedCount: itemsRead.length, latencyMs, itemsRead };
}

const measurement = (...calls: MeasuredRequest[][]): PatternMeasurement => ({ patternId: 'p1', calls: calls.map((requests) => ({ requests })) });
const codes = (r: PatternReport) => r.causes.map((c) => c.code);

describe('Query', () => {
  // Items of 14 + 1,486 = 1,500 B, 1,500 + total "12.5" (name 5 + 3 digits, exponent 1: 1 + ceil(3/2) = 3 B) = 1,508 B,
  // and 1,500 B: 4,508 B in one page → ceil(4,508 / 4,096) = 2 blocks × 0.5 (eventual) = 1 RCU.
  // Rounding each item on its own would give 3 blocks (1.5 RCU): a page rounds its sum once.
  const items = [order(1, 1486), order(2, 1486, { total: { N: '12.5' } }), order(3, 1486)];
  const query = patternRun('Query', { KeyConditionExpression: '#pk = :pk', ConsistentRead: false }, {
    prediction: prediction('read', { table: 1 }, 3, 4508 / 3),
  });

  test('rounds the page of 3 items (4,508 B) up to 2 blocks of 4 KB, 1 RCU eventually consistent, and agrees', () => {
    const report = comparePattern(query, measurement([{ operation: 'Query', pages: [page(items, { table: 1 })] }]), FULL);
    expect(report.byRule).toEqual({ units: { table: 1 }, total: 1 });
    expect(report.measured).toMatchObject({ units: { table: 1 }, total: 1, itemsRead: 3, itemsReturned: 3, pages: 1, requests: 1, calls: 1 });
    expect(report.agreement).toBe('agrees');
    expect(report.causes).toEqual([]);
    expect(report.requests).toBe(query.calls[0]?.requests);
  });

  test('explains a difference by the sample items being larger than the model assumes', () => {
    // The model: 3 items of 1,300 B = 3,900 B → 1 block × 0.5 = 0.5 RCU. The sample: 1 RCU (above), mean 4,508 / 3 = 1,502.67 B.
    const modelled = { ...query, prediction: prediction('read', { table: 0.5 }, 3, 1300) };
    const report = comparePattern(modelled, measurement([{ operation: 'Query', pages: [page(items, { table: 1 })] }]), FULL);
    expect(report.agreement).toBe('explained');
    expect(report.causes).toEqual([{ code: 'sample.itemSizes', text: "The sample's items average 1,503 B where the model assumes 1,300 B." }]);
  });

  test('on dynalite, an empty Query measured at 0 RCU is explained: DynamoDB charges the 0.5 RCU minimum', () => {
    // DynamoDB: 0 bytes, still 1 block × 0.5 = 0.5 RCU. dynalite: ceil(0 / 4,096) × 0.5 = 0.
    const empty = { ...query, prediction: prediction('read', { table: 0.5 }, 0, 1500) };
    const report = comparePattern(empty, measurement([{ operation: 'Query', pages: [page([], { table: 0 })] }]), DYNALITE);
    expect(report.measured?.units).toEqual({});
    expect(report.byRule).toEqual({ units: { table: 0.5 }, total: 0.5 });
    expect(report.agreement).toBe('explained');
    expect(codes(report)).toEqual(['dynalite.emptyQuery']);
    expect(report.causes[0]?.text).toContain('0.5 RCU');
  });

  test('the same empty Query measured at 0 RCU on a full engine is unexplained', () => {
    const empty = { ...query, prediction: prediction('read', { table: 0.5 }, 0, 1500) };
    const report = comparePattern(empty, measurement([{ operation: 'Query', pages: [page([], { table: 0 })] }]), FULL);
    expect(report.agreement).toBe('unexplained');
  });

  test("counts an LSI query's units on the table", () => {
    const onLsi = { ...query, target: 'lsi1' };
    const report = comparePattern(onLsi, measurement([{ operation: 'Query', pages: [page(items, { table: 0, lsi1: 1 })] }]), FULL);
    expect(report.measured?.units).toEqual({ table: 1 });
    expect(report.agreement).toBe('agrees');
  });

  test('averages over calls and takes nearest-rank latency percentiles over every page', () => {
    // Call 1: 3 items, 1 RCU in 1 page; call 2: two pages of 1 item (1,500 B → 1 block × 0.5 each) = 1 RCU.
    // Means: 1 RCU, (3 + 2) / 2 = 2.5 items read, (1 + 2) / 2 = 1.5 pages. Latencies of the 3 pages sorted: [1, 5, 10] ms;
    // nearest rank: p50 rank ceil(0.5 × 3) = 2 → 5; p90 rank ceil(2.7) = 3 → 10; p99 rank 3 → 10; max 10.
    const two = [order(1, 1486)];
    const report = comparePattern(
      { ...query, calls: [...query.calls, ...query.calls] },
      measurement(
        [{ operation: 'Query', pages: [page(items, { table: 1 }, 10)] }],
        [{ operation: 'Query', pages: [page(two, { table: 0.5 }, 1), page(two, { table: 0.5 }, 5)] }],
      ),
      FULL,
    );
    expect(report.measured).toMatchObject({ units: { table: 1 }, total: 1, itemsRead: 2.5, pages: 1.5, calls: 2 });
    expect(report.measured?.latency).toEqual({ p50: 5, p90: 10, p99: 10, max: 10 });
  });
});

describe('dynalite departures', () => {
  test('UTF-8 multi-byte strings: dynalite counts UTF-16 units, so it charges 1 RCU where DynamoDB charges 2 (explained)', () => {
    // "é" is 2 bytes in UTF-8 and 1 UTF-16 unit. Item: pk 5 + sk "P#1" 5 + name (4 + 2,100 × 2 = 4,204) = 4,214 B
    // → ceil(4,214 / 4,096) = 2 blocks × 1 (strong) = 2 RCU. dynalite: 5 + 5 + 4 + 2,100 = 2,114 B → 1 block = 1 RCU.
    const item: Item = { pk: s('C#1'), sk: s('P#1'), name: s('é'.repeat(2100)) };
    const get = patternRun('GetItem', { Key: { pk: s('C#1'), sk: s('P#1') }, ConsistentRead: true }, {
      consistency: 'strong',
      prediction: prediction('read', { table: 2 }, 1, 4214),
    });
    const report = comparePattern(get, measurement([{ operation: 'GetItem', pages: [page([item], { table: 1 })] }]), DYNALITE);
    expect(report.byRule?.units).toEqual({ table: 2 });
    expect(report.agreement).toBe('explained');
    expect(codes(report)).toEqual(['dynalite.utf16']);
    expect(report.causes[0]?.text).toContain('2,114 B there against 4,214 B');
  });

  test('a strongly consistent Scan that dynalite charges as eventual is explained', () => {
    // 4,508 B (the Query items) → 2 blocks: × 1 strong = 2 RCU by DynamoDB's rule, × 0.5 on dynalite = 1 RCU.
    const items = [order(1, 1486), order(2, 1486, { total: { N: '12.5' } }), order(3, 1486)];
    const scan = patternRun('Scan', { ConsistentRead: true }, { consistency: 'strong', prediction: prediction('read', { table: 2 }, 3, 4508 / 3) });
    const report = comparePattern(scan, measurement([{ operation: 'Scan', pages: [page(items, { table: 1 })] }]), DYNALITE);
    expect(report.byRule?.units).toEqual({ table: 2 });
    expect(report.agreement).toBe('explained');
    expect(codes(report)).toEqual(['dynalite.scanConsistency']);
  });

  test("dynalite's own page cut is explained: DynamoDB would read all 4 items of 300,000 B in one page", () => {
    // Items of 14 + 299,986 = 300,000 B. dynalite cut after 3 (900,000 B, under 1 MB = 1,048,576 B):
    // ceil(900,000 / 4,096) = 220 blocks + ceil(300,000 / 4,096) = 74 blocks = 294 × 0.5 = 147 RCU.
    // DynamoDB's page runs to the item that crosses 1 MB, the 4th: ceil(1,200,000 / 4,096) = 293 × 0.5 = 146.5 RCU.
    const big = [1, 2, 3, 4].map((n) => order(n, 299_986));
    const query = patternRun('Query', { KeyConditionExpression: '#pk = :pk' }, { prediction: prediction('read', { table: 146.5 }, 4, 300_000) });
    const pages = [page(big.slice(0, 3), { table: 110 }), page(big.slice(3), { table: 37 })];
    const report = comparePattern(query, measurement([{ operation: 'Query', pages }]), DYNALITE);
    expect(report.measured?.units).toEqual({ table: 147 });
    expect(report.byRule?.units).toEqual({ table: 146.5 });
    expect(report.agreement).toBe('explained');
    expect(codes(report)).toEqual(['dynalite.pageCut']);
  });
});

describe('writes', () => {
  // A new order entering gsi1: pk 5 + sk 5 + gsi1pk (6 + "S#NEW" 5 = 11) + gsi1sk (6 + "2024" 4 = 10) + data (4 + 1,100)
  // = 1,135 B → table ceil(1,135 / 1,024) = 2 WCU. Its gsi1 entry (KEYS_ONLY): pk + sk + gsi1pk + gsi1sk = 31 B → 1 WCU.
  // It has no lsi1sk, so it is not in lsi1 (a sparse LSI): nothing more on the table.
  const entering = order(9, 1100, { gsi1pk: s('S#NEW'), gsi1sk: s('2024') });
  const put = patternRun('PutItem', { Item: entering }, { prediction: prediction('write', { table: 2, gsi1: 1 }, 0, 1135) });

  test('a PutItem entering a GSI agrees on a full engine: 2 WCU on the table, 1 on gsi1', () => {
    const report = comparePattern(put, measurement([{ operation: 'PutItem', pages: [page([], { table: 2, gsi1: 1 })], before: null, after: entering }]), FULL);
    expect(report.byRule).toEqual({ units: { table: 2, gsi1: 1 }, total: 3 });
    expect(report.agreement).toBe('agrees');
  });

  test('the same PutItem on dynalite, which reports no index units, is explained', () => {
    const report = comparePattern(put, measurement([{ operation: 'PutItem', pages: [page([], { table: 2 })], before: null, after: entering }]), DYNALITE);
    expect(report.measured?.units).toEqual({ table: 2 });
    expect(report.agreement).toBe('explained');
    expect(codes(report)).toEqual(['dynalite.indexWrites']);
    expect(report.causes[0]?.text).toContain('1 WCU on gsi1');
  });

  test('an update that moves the gsi1 key writes 2 entries: a delete of the old and a put of the new', () => {
    // gsi1 projects ALL, so each entry is the whole item: 1,135 B before, and after ("S#OLD" is as long as "S#NEW") 1,135 B.
    // gsi1: ceil(1,135 / 1,024) + ceil(1,135 / 1,024) = 2 + 2 = 4 WCU. Table: ceil(max(1,135, 1,135) / 1,024) = 2 WCU.
    const moved = { ...entering, gsi1pk: s('S#OLD') };
    const update = patternRun('UpdateItem', { Key: { pk: s('C#1'), sk: s('O#9') } }, { prediction: prediction('write', { table: 2, gsi1: 4 }, 0, 1135) });
    const report = comparePattern(
      update,
      measurement([{ operation: 'UpdateItem', pages: [page([], { table: 2, gsi1: 4 })], before: entering, after: moved }]),
      options(false, [GSI1_ALL]),
    );
    expect(report.byRule?.units).toEqual({ table: 2, gsi1: 4 });
    expect(report.agreement).toBe('agrees');
  });

  test('an update that leaves every projected attribute of a KEYS_ONLY index alone costs that index nothing', () => {
    // Only data changes (1,100 → 2,000 characters): the item is 1,135 + 900 = 2,035 B → table ceil(2,035 / 1,024) = 2 WCU;
    // the gsi1 entry (keys only) is the same before and after → 0 WCU.
    const grown = { ...entering, data: s('x'.repeat(2000)) };
    const update = patternRun('UpdateItem', { Key: { pk: s('C#1'), sk: s('O#9') } }, { prediction: prediction('write', { table: 2 }, 0, 2035) });
    const report = comparePattern(update, measurement([{ operation: 'UpdateItem', pages: [page([], { table: 2 })], before: entering, after: grown }]), FULL);
    expect(report.byRule?.units).toEqual({ table: 2 });
    expect(report.agreement).toBe('agrees');
  });

  test('a transactional put costs 2× on the table', () => {
    // pk 5 + sk 5 + data (4 + 486) = 500 B → ceil(500 / 1,024) = 1 × 2 (prepare and commit) = 2 WCU.
    const item = order(1, 486);
    const transact = patternRun('TransactWriteItems', { TransactItems: [{ Put: { TableName: TABLE, Item: item } }] }, {
      consistency: 'transactional',
      prediction: prediction('write', { table: 2 }, 0, 500),
    });
    const report = comparePattern(transact, measurement([{ operation: 'TransactWriteItems', pages: [page([], { table: 2 })], before: null, after: item }]), options(false, []));
    expect(report.byRule?.units).toEqual({ table: 2 });
    expect(report.agreement).toBe('agrees');
  });

  test('units on a target the model never predicted are unexplained', () => {
    // The model forgot gsi1: it predicts the table's 2 WCU only, the engine and the rule both charge gsi1 1 WCU too.
    const forgetful = { ...put, prediction: prediction('write', { table: 2 }, 0, 1135) };
    const report = comparePattern(forgetful, measurement([{ operation: 'PutItem', pages: [page([], { table: 2, gsi1: 1 })], before: null, after: entering }]), FULL);
    expect(report.agreement).toBe('unexplained');
  });

  test('a write whose item did not enter a sparse index the model expects half the writes in is explained', () => {
    // The model: half the orders carry gsi1's keys → 0.5 WCU on gsi1 per call. The sample's order carries none:
    // its attributes gsixpk and gsixsk weigh what gsi1pk and gsi1sk would: 1,135 B → table 2 WCU, gsi1 0.
    const plain = order(9, 1100, { gsixpk: s('S#NEW'), gsixsk: s('2024') });
    const sparse = { ...put, prediction: prediction('write', { table: 2, gsi1: 0.5 }, 0, 1135) };
    const report = comparePattern(sparse, measurement([{ operation: 'PutItem', pages: [page([], { table: 2 })], before: null, after: plain }]), FULL);
    expect(report.byRule?.units).toEqual({ table: 2 });
    expect(report.agreement).toBe('explained');
    expect(codes(report)).toEqual(['sample.sparseShare']);
  });
});

describe('BatchGetItem', () => {
  test('rounds each item on its own and charges a key not found the minimum', () => {
    // Found: pk 5 + sk 5 + blob (4 + 4,986) = 5,000 B → 2 blocks; pk 5 + sk 5 + blob (4 + 286) = 300 B → 1 block.
    // The third key is missing → 1 block. 4 blocks × 0.5 (eventual) = 2 RCU.
    const found = [
      { pk: s('C#1'), sk: s('P#1'), blob: s('y'.repeat(4986)) },
      { pk: s('C#1'), sk: s('P#2'), blob: s('y'.repeat(286)) },
    ];
    const keys = ['P#1', 'P#2', 'P#3'].map((sk) => ({ pk: s('C#1'), sk: s(sk) }));
    const batch = patternRun('BatchGetItem', { RequestItems: { [TABLE]: { Keys: keys } } }, { prediction: prediction('read', { table: 2 }, 3, 2650) });
    const report = comparePattern(batch, measurement([{ operation: 'BatchGetItem', pages: [page(found, { table: 2 })] }]), FULL);
    expect(report.byRule?.units).toEqual({ table: 2 });
    expect(report.agreement).toBe('agrees');
  });
});

describe('not run and failed', () => {
  const query = patternRun('Query', { KeyConditionExpression: '#pk = :pk' }, { prediction: prediction('read', { table: 0.5 }, 1, 100) });

  test('a skipped pattern is not run, with why, and no requests to copy', () => {
    const skipped = { ...query, calls: [], skipped: 'needs DynamoDB Local 3.3 or later, or AWS: it uses a transaction' };
    const report = comparePattern(skipped, undefined, DYNALITE);
    expect(report).toMatchObject({ agreement: 'notRun', message: skipped.skipped, requests: [], causes: [], notes: [] });
    expect(report.measured).toBeUndefined();
  });

  test('a pattern whose every call failed shows the engine error', () => {
    const error = 'ValidationException: Query condition missed key schema element: pk';
    const report = comparePattern(query, measurement([{ operation: 'Query', pages: [], error }], [{ operation: 'Query', pages: [], error: 'second' }]), FULL);
    expect(report).toMatchObject({ agreement: 'failed', message: error });
    expect(report.requests).toHaveLength(1);
  });

  test('a pattern with no measurement failed', () => {
    expect(comparePattern(query, undefined, FULL).agreement).toBe('failed');
  });

  test('a failed call is left out of the means', () => {
    // One empty page (0.5 RCU by the rule and on a full engine) in the call that succeeded; the failed call counts nothing.
    const report = comparePattern(
      { ...query, calls: [...query.calls, ...query.calls] },
      measurement([{ operation: 'Query', pages: [], error: 'ProvisionedThroughputExceededException: slow down' }], [{ operation: 'Query', pages: [page([], { table: 0.5 })] }]),
      FULL,
    );
    expect(report.measured).toMatchObject({ units: { table: 0.5 }, calls: 1, pages: 1 });
  });
});

test('summarize counts every agreement, 0 for those none has', () => {
  const as = (agreement: PatternReport['agreement']) => ({ agreement }) as PatternReport;
  expect(summarize([as('agrees'), as('agrees'), as('failed')])).toEqual({ agrees: 2, explained: 0, unexplained: 0, notRun: 0, failed: 1 });
  expect(summarize([])).toEqual({ agrees: 0, explained: 0, unexplained: 0, notRun: 0, failed: 0 });
});
