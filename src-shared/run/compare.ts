/**
 * Measured against predicted: one pattern's measurements judged against Keyplan's prediction.
 *
 * Three figures per target (`table`, or a GSI's name; an LSI's units count on the table):
 * - measured: what the engine reported in ConsumedCapacity, mean per successful call;
 * - by rule: DynamoDB's own rule applied to the items the engine actually read or wrote;
 * - predicted: the model's figure, computed from average item sizes and counts.
 *
 * Two checks bridge them. The engine check sets measured beside the rule: a full engine agrees; dynalite
 * departs from DynamoDB in documented ways (its source: `db/index.js` itemSize, capacityUnits,
 * addConsumedCapacity, queryTable; `validations/scan.js`), and a difference that dynalite's own rules
 * reproduce is explained by those departures. The model check sets the rule beside the prediction: a
 * difference is explained when the sample's items are bigger or smaller than the model's average, when
 * a call read more or fewer items, or when a write's item did or did not enter a sparse index.
 *
 * Rules: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ProvisionedThroughput.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes,
 * docs/dynamodb-rules.md §2 (reads) and docs/dynamodb-rules.md §3 (writes).
 */
import { itemSizeBytes, type AttributeValue, type Item } from '../capacity/item-size.ts';
import { PAGE_BYTES, READ_UNIT_BYTES, READ_UNITS_PER_BLOCK, TRANSACTIONAL_WRITE_FACTOR, WRITE_UNIT_BYTES } from '../capacity/units.ts';
import { formatNumber, formatUnits } from '../format/index.ts';
import { utf8ByteLength } from '../model/key-template.ts';
import type {
  Agreement,
  Cause,
  EngineCapabilities,
  Latency,
  MeasuredCall,
  MeasuredPage,
  MeasuredRequest,
  PatternMeasurement,
  PatternReport,
  PatternRun,
  RunIndex,
  RunOperation,
  RunRequest,
  RunTable,
} from './types.ts';

/** Two unit figures agree when they differ by at most a hundredth of a unit. */
export const UNIT_TOLERANCE = 0.01;

/** The known causes of a difference, as `Cause.code` carries them. */
export type CauseCode =
  /** dynalite charges nothing for a Query/Scan page that read nothing. */
  | 'dynalite.emptyQuery'
  /** dynalite sizes strings and names in UTF-16 code units. */
  | 'dynalite.utf16'
  /** dynalite reports no write units for secondary indexes. */
  | 'dynalite.indexWrites'
  /** dynalite ends a Query/Scan page at 1 MB of its own storage-format size. */
  | 'dynalite.pageCut'
  /** dynalite's Scan ignores ConsistentRead. */
  | 'dynalite.scanConsistency'
  /** The sample's items are not of the model's average size. */
  | 'sample.itemSizes'
  /** A call read more or fewer items than the model assumes. */
  | 'sample.itemCount'
  /** A write's item entered a sparse index more or less often than the model assumes. */
  | 'sample.sparseShare';

/** What the comparison needs beyond the pattern: what the engine is and the table's keys and indexes. */
export interface CompareOptions {
  capabilities: EngineCapabilities;
  table: Pick<RunTable, 'keyAttributes' | 'indexes'>;
}

/** Every agreement, in the order a summary lists them. */
const AGREEMENTS: readonly Agreement[] = ['agrees', 'explained', 'unexplained', 'notRun', 'failed'];

/**
 * Counts reports by agreement; every agreement is a key, 0 when no report has it.
 */
export function summarize(reports: readonly PatternReport[]): Record<Agreement, number> {
  const summary = Object.fromEntries(AGREEMENTS.map((a) => [a, 0])) as Record<Agreement, number>;
  for (const r of reports) summary[r.agreement] += 1;
  return summary;
}

/**
 * Judges one pattern: its measured means per successful call, DynamoDB's rule applied to what the
 * engine read or wrote, and the agreement with the prediction with every known cause of a
 * difference. A skipped pattern is `notRun` (message: why); a pattern without a measurement or whose
 * every call failed is `failed` (message: the engine's first error). Units are capacity units per call.
 */
export function comparePattern(pattern: PatternRun, measurement: PatternMeasurement | undefined, options: CompareOptions): PatternReport {
  const base = {
    patternId: pattern.patternId,
    name: pattern.name,
    kind: pattern.kind,
    operation: pattern.operation,
    target: pattern.target,
    ...(pattern.prediction ? { predicted: pattern.prediction } : {}),
    notes: [...pattern.notes],
    causes: [] as Cause[],
  };
  if (pattern.skipped !== undefined) return { ...base, agreement: 'notRun', message: pattern.skipped, requests: [] };

  const requests = pattern.calls[0]?.requests ?? [];
  const calls = (measurement?.calls ?? []).map((call, index) => ({ call, sent: pattern.calls[index]?.requests ?? requests }));
  const succeeded = calls.filter(({ call }) => !call.requests.some((r) => r.error !== undefined));
  if (succeeded.length === 0) {
    const firstError = calls.flatMap(({ call }) => call.requests).find((r) => r.error !== undefined)?.error;
    return { ...base, agreement: 'failed', message: firstError ?? 'The run recorded no measurement for this pattern.', requests };
  }

  const ctx = contextOf(pattern, options);
  const measured = measure(succeeded.map(({ call }) => call), ctx);
  const byRule = meanFigure(succeeded, ctx, NO_DEPARTURES);
  const predicted = positive(pattern.prediction?.units ?? {});

  if (byRule === undefined) {
    // The engine did not say what it read (no witness items, no before/after): only measured against predicted.
    return { ...base, agreement: sameUnits(measured.units, predicted) ? 'agrees' : 'unexplained', measured, requests };
  }

  const engine = checkEngine(measured.units, byRule, succeeded, ctx);
  const model = checkModel(byRule, predicted, succeeded, ctx);
  const causes = mergeCauses([...engine.causes, ...model.causes]);
  const agreement: Agreement =
    engine.isEqual && model.isEqual && sameUnits(measured.units, predicted)
      ? 'agrees'
      : engine.isExplained && model.isExplained
        ? 'explained'
        : 'unexplained';
  return { ...base, agreement, measured, byRule: { units: byRule, total: round(sum(Object.values(byRule))) }, causes, requests };
}

// ---------------------------------------------------------------------------------------------
// Context and measured means

interface Context {
  pattern: PatternRun;
  operation: RunOperation;
  tableKeys: readonly string[];
  indexes: readonly RunIndex[];
  lsiNames: ReadonlySet<string>;
  isDynalite: boolean;
  /** Where the pattern's reads are charged: the queried target, an LSI folded into `table`. */
  readTarget: string;
}

function contextOf(pattern: PatternRun, options: CompareOptions): Context {
  const lsiNames = new Set(options.table.indexes.filter((i) => i.kind === 'lsi').map((i) => i.name));
  return {
    pattern,
    operation: pattern.operation,
    tableKeys: options.table.keyAttributes,
    indexes: options.table.indexes,
    lsiNames,
    isDynalite: options.capabilities.isDynalite,
    readTarget: lsiNames.has(pattern.target) ? 'table' : pattern.target,
  };
}

const isQueryOrScan = (op: RunOperation): boolean => op === 'Query' || op === 'Scan';
const isWrite = (op: RunOperation): boolean => op === 'PutItem' || op === 'UpdateItem' || op === 'DeleteItem' || op === 'TransactWriteItems';

/** An LSI's units count on the table (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html). */
const foldTarget = (ctx: Context, target: string): string => (ctx.lsiNames.has(target) ? 'table' : target);

function measure(calls: readonly MeasuredCall[], ctx: Context): NonNullable<PatternReport['measured']> {
  const perCall = calls.map((call) => {
    const units: Record<string, number> = {};
    let total = 0;
    let itemsRead = 0;
    let itemsReturned = 0;
    let pages = 0;
    for (const request of call.requests) {
      for (const page of request.pages) {
        const targets = Object.entries(page.byTarget);
        // An engine that names no target charged the whole request to the pattern's own target.
        if (targets.length === 0 && page.capacityUnits > 0) add(units, isWrite(ctx.operation) ? 'table' : ctx.readTarget, page.capacityUnits);
        for (const [target, u] of targets) add(units, foldTarget(ctx, target), u);
        total += page.capacityUnits;
        itemsRead += page.scannedCount;
        itemsReturned += page.count;
        pages += 1;
      }
    }
    return { units, total, itemsRead, itemsReturned, pages, requests: call.requests.length };
  });
  const latencies = calls.flatMap((c) => c.requests.flatMap((r) => r.pages.map((p) => p.latencyMs)));
  return {
    units: positive(meanRecord(perCall.map((c) => c.units))),
    total: mean(perCall.map((c) => c.total)),
    itemsRead: mean(perCall.map((c) => c.itemsRead)),
    itemsReturned: mean(perCall.map((c) => c.itemsReturned)),
    pages: mean(perCall.map((c) => c.pages)),
    requests: mean(perCall.map((c) => c.requests)),
    latency: latencyOf(latencies),
    calls: calls.length,
  };
}

/** Nearest-rank percentiles: the value at rank ceil(p × n) of the sorted latencies; 0 for none. */
function latencyOf(values: readonly number[]): Latency {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => (sorted.length === 0 ? 0 : (sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1] ?? 0));
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// The rule, and dynalite's departures from it

/** One way dynalite departs from DynamoDB's rule; a set of them is the rule dynalite applies. */
type Departure = 'emptyQuery' | 'utf16' | 'indexWrites' | 'pageCut' | 'scanConsistency';
type Departures = ReadonlySet<Departure>;
const NO_DEPARTURES: Departures = new Set();

type Sizer = (item: Item) => number;

/** DynamoDB sizes strings and attribute names in UTF-8 bytes. */
const utf8Size: Sizer = itemSizeBytes;

/** dynalite's `itemSize`: the same sum, but strings and names count `String.length` (UTF-16 code units). */
const utf16Size: Sizer = (item) => itemSizeBytes(item) - Object.entries(item).reduce((n, [name, v]) => n + utf8Excess(name) + valueUtf8Excess(v), 0);

const utf8Excess = (s: string): number => utf8ByteLength(s) - s.length;

function valueUtf8Excess(v: AttributeValue): number {
  if ('S' in v) return utf8Excess(v.S);
  if ('SS' in v) return v.SS.reduce((n, s) => n + utf8Excess(s), 0);
  if ('L' in v) return v.L.reduce((n, e) => n + valueUtf8Excess(e), 0);
  if ('M' in v) return Object.entries(v.M).reduce((n, [k, e]) => n + utf8Excess(k) + valueUtf8Excess(e), 0);
  return 0;
}

/** `ceil(bytes / 1 KB)`, at least 1: one write of an item or an index entry. */
const writeBlocks = (bytes: number): number => Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));

interface SentCall {
  call: MeasuredCall;
  /** The requests this call sent, as planned (for Limit, ConsistentRead and the keys asked for). */
  sent: readonly RunRequest[];
}

/** The mean per-call units by target under DynamoDB's rule less `departures`; undefined when the engine's data do not say what was read or written. */
function meanFigure(calls: readonly SentCall[], ctx: Context, departures: Departures): Record<string, number> | undefined {
  const perCall: Array<Record<string, number>> = [];
  for (const c of calls) {
    const units = callFigure(c, ctx, departures);
    if (units === undefined) return undefined;
    perCall.push(units);
  }
  return positive(meanRecord(perCall));
}

function callFigure({ call, sent }: SentCall, ctx: Context, departures: Departures): Record<string, number> | undefined {
  const units: Record<string, number> = {};
  const size = departures.has('utf16') ? utf16Size : utf8Size;
  if (isQueryOrScan(ctx.operation)) {
    for (const [i, request] of call.requests.entries()) {
      const pages = chargedPages(request, sent[i] ?? sent.at(-1), ctx, departures);
      if (pages === undefined) return undefined;
      // A Scan on dynalite is always eventually consistent: validations/scan.js drops ConsistentRead.
      const perBlock = ctx.operation === 'Scan' && departures.has('scanConsistency') ? READ_UNITS_PER_BLOCK.eventual : readFactor(sent[i] ?? sent.at(-1), ctx);
      for (const page of pages) {
        const blocks = Math.ceil(sum(page.map(size)) / READ_UNIT_BYTES);
        // DynamoDB charges an empty page the minimum read; dynalite rounds 0 bytes to 0 blocks.
        add(units, ctx.readTarget, (blocks === 0 && !departures.has('emptyQuery') ? 1 : blocks) * perBlock);
      }
    }
    return units;
  }
  if (ctx.operation === 'GetItem' || ctx.operation === 'BatchGetItem') {
    const items = itemsOfCall(call);
    if (items === undefined) return undefined;
    const perBlock = readFactor(sent[0], ctx);
    // Each item is rounded up to 4 KB on its own; a key not found costs the minimum, as a GetItem of it would.
    const notFound = Math.max(0, sum(sent.map(keysAskedFor)) - items.length);
    add(units, 'table', (sum(items.map((item) => Math.ceil(size(item) / READ_UNIT_BYTES))) + notFound) * perBlock);
    return units;
  }
  for (const request of call.requests) {
    if (request.before === undefined && request.after === undefined) return undefined;
    const before = request.before ?? null;
    const after = request.after ?? null;
    // The table is charged on the larger of the item before and after (PutItem, UpdateItem, DeleteItem), 2× in a transaction.
    const tableUnits = writeBlocks(Math.max(before ? size(before) : 0, after ? size(after) : 0));
    add(units, 'table', tableUnits * (ctx.operation === 'TransactWriteItems' ? TRANSACTIONAL_WRITE_FACTOR : 1));
    if (departures.has('indexWrites')) continue;
    for (const index of ctx.indexes) {
      const w = indexWrite(before, after, index, ctx.tableKeys, size);
      if (w.units > 0) add(units, index.kind === 'lsi' ? 'table' : index.name, w.units);
    }
  }
  return units;
}

/** Read units per 4 KB: the request's ConsistentRead when it says, else the plan's consistency (a transactional plan sends a strong read). */
function readFactor(request: RunRequest | undefined, ctx: Context): number {
  const input = request?.input ?? {};
  const batch = Object.values((input['RequestItems'] ?? {}) as Record<string, { ConsistentRead?: unknown }>)[0];
  const consistentRead = input['ConsistentRead'] ?? batch?.ConsistentRead;
  if (consistentRead === true) return READ_UNITS_PER_BLOCK.strong;
  if (consistentRead === false) return READ_UNITS_PER_BLOCK.eventual;
  return READ_UNITS_PER_BLOCK[ctx.pattern.consistency === 'transactional' ? 'strong' : ctx.pattern.consistency];
}

/** Keys a GetItem (`Key`: 1) or BatchGetItem (`RequestItems[t].Keys`) asked for. */
function keysAskedFor(request: RunRequest): number {
  if (request.input['Key'] !== undefined) return 1;
  const tables = Object.values((request.input['RequestItems'] ?? {}) as Record<string, { Keys?: unknown[] }>);
  return sum(tables.map((t) => t.Keys?.length ?? 0));
}

/** Every item a call's pages read; undefined when a page read items the engine did not show. */
function itemsOfCall(call: MeasuredCall): Item[] | undefined {
  const items: Item[] = [];
  for (const request of call.requests) {
    for (const page of request.pages) {
      const read = itemsOfPage(page);
      if (read === undefined) return undefined;
      items.push(...read);
    }
  }
  return items;
}

const itemsOfPage = (page: MeasuredPage): Item[] | undefined => page.itemsRead ?? (page.scannedCount === 0 && page.count === 0 ? [] : undefined);

function enginePages(request: MeasuredRequest): Item[][] | undefined {
  const pages: Item[][] = [];
  for (const page of request.pages) {
    const items = itemsOfPage(page);
    if (items === undefined) return undefined;
    pages.push(items);
  }
  return pages;
}

/**
 * The pages a request is charged on. DynamoDB ends a page at `Limit` items or once 1 MB of item data
 * was read (the crossing item included; docs/dynamodb-rules.md §10.7). A full engine's own cut is taken as
 * DynamoDB's; dynalite's cut (on its storage-format size) is re-cut DynamoDB's way unless the
 * `pageCut` departure asks for dynalite's.
 */
function chargedPages(request: MeasuredRequest, sent: RunRequest | undefined, ctx: Context, departures: Departures): Item[][] | undefined {
  const pages = enginePages(request);
  if (pages === undefined || !ctx.isDynalite || departures.has('pageCut')) return pages;
  return dynamoDbPages(pages, limitOf(sent));
}

const limitOf = (request: RunRequest | undefined): number | undefined => {
  const limit = request?.input['Limit'];
  return typeof limit === 'number' && limit > 0 ? limit : undefined;
};

function dynamoDbPages(pages: Item[][], limit: number | undefined): Item[][] {
  const isDynamoDbCut = pages.every((page, i) => i === pages.length - 1 || isFullPage(page, limit));
  if (isDynamoDbCut) return pages;
  const cut: Item[][] = [];
  let page: Item[] = [];
  let bytes = 0;
  for (const item of pages.flat()) {
    page.push(item);
    bytes += utf8Size(item);
    if ((limit !== undefined && page.length >= limit) || bytes >= PAGE_BYTES) {
      cut.push(page);
      page = [];
      bytes = 0;
    }
  }
  // The engine's trailing empty page (it said there might be more) is a request DynamoDB would charge too.
  if (page.length > 0 || cut.length === 0 || pages.at(-1)?.length === 0) cut.push(page);
  return cut;
}

function isFullPage(page: readonly Item[], limit: number | undefined): boolean {
  if (limit !== undefined && page.length >= limit) return true;
  const bytes = sum(page.map(utf8Size));
  const last = page.at(-1);
  return bytes >= PAGE_BYTES && last !== undefined && bytes - utf8Size(last) < PAGE_BYTES;
}

// ---------------------------------------------------------------------------------------------
// Index writes

/**
 * The index entry of an item: none when the item lacks one of the index's key attributes (a sparse
 * index), else the table keys, the index keys and the projected attributes.
 */
function indexEntry(item: Item | null, index: RunIndex, tableKeys: readonly string[]): Item | undefined {
  if (!item || !index.keyAttributes.every((a) => item[a] !== undefined)) return undefined;
  if (index.projection.type === 'ALL') return item;
  const names = [...tableKeys, ...index.keyAttributes, ...(index.projection.type === 'INCLUDE' ? (index.projection.nonKeyAttributes ?? []) : [])];
  const entry: Item = {};
  for (const name of names) {
    const v = item[name];
    if (v !== undefined) entry[name] = v;
  }
  return entry;
}

/**
 * Write units one table write costs an index (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes):
 * an entry added or removed costs one write of it; a key value changed costs a delete of the old entry
 * and a put of the new one; an entry changed in place costs one write of the larger; an entry
 * unchanged costs nothing. Each write is `ceil(bytes / 1 KB)`, at least 1.
 */
function indexWrite(before: Item | null, after: Item | null, index: RunIndex, tableKeys: readonly string[], size: Sizer): { units: number; isMember: boolean } {
  const old = indexEntry(before, index, tableKeys);
  const next = indexEntry(after, index, tableKeys);
  if (!old && !next) return { units: 0, isMember: false };
  if (!old) return { units: writeBlocks(size(next as Item)), isMember: true };
  if (!next) return { units: writeBlocks(size(old)), isMember: true };
  const isKeySame = index.keyAttributes.every((a) => sameValue(old[a], next[a]));
  if (!isKeySame) return { units: writeBlocks(size(old)) + writeBlocks(size(next)), isMember: true };
  return { units: sameItem(old, next) ? 0 : writeBlocks(Math.max(size(old), size(next))), isMember: true };
}

/** Canonical JSON of a value: map keys sorted, so two equal values print alike. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, e]) => `${JSON.stringify(k)}:${canonical(e)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

const sameValue = (a: AttributeValue | undefined, b: AttributeValue | undefined): boolean => canonical(a) === canonical(b);
const sameItem = (a: Item, b: Item): boolean => canonical(a) === canonical(b);

// ---------------------------------------------------------------------------------------------
// Engine check: measured against the rule

interface Check {
  /** The two figures agree on every target. */
  isEqual: boolean;
  /** They agree, or every difference has a known cause. */
  isExplained: boolean;
  causes: Cause[];
}

/** dynalite's departures that can matter for this pattern, in the order causes are listed. */
function applicableDepartures(ctx: Context, calls: readonly SentCall[]): Departure[] {
  const found: Departure[] = [];
  const op = ctx.operation;
  if (isQueryOrScan(op)) found.push('emptyQuery');
  found.push('utf16');
  if (isWrite(op) && ctx.indexes.length > 0) found.push('indexWrites');
  if (isQueryOrScan(op)) found.push('pageCut');
  if (op === 'Scan' && calls.some(({ sent }) => readFactor(sent[0], ctx) !== READ_UNITS_PER_BLOCK.eventual)) found.push('scanConsistency');
  return found;
}

/** Subsets of `items`, smallest first (at most 2^5 here). */
function subsets<T>(items: readonly T[]): T[][] {
  const all: T[][] = [];
  for (let mask = 1; mask < 1 << items.length; mask += 1) all.push(items.filter((_, i) => (mask & (1 << i)) !== 0));
  return all.sort((a, b) => a.length - b.length);
}

function checkEngine(measured: Record<string, number>, byRule: Record<string, number>, calls: readonly SentCall[], ctx: Context): Check {
  if (sameUnits(measured, byRule)) return { isEqual: true, isExplained: true, causes: [] };
  if (!ctx.isDynalite) return { isEqual: false, isExplained: false, causes: [] };
  const departures = applicableDepartures(ctx, calls);
  // The fewest of dynalite's departures that reproduce what it measured are the causes.
  for (const subset of subsets(departures)) {
    const figure = meanFigure(calls, ctx, new Set(subset));
    if (figure !== undefined && sameUnits(measured, figure)) {
      return { isEqual: false, isExplained: true, causes: subset.map((d) => departureCause(d, calls, ctx, byRule)) };
    }
  }
  // None reproduces it: list the departures that move the figure at all, but the difference stays unexplained.
  const moving = departures.filter((d) => {
    const figure = meanFigure(calls, ctx, new Set([d]));
    return figure !== undefined && !sameUnits(figure, byRule);
  });
  return { isEqual: false, isExplained: false, causes: moving.map((d) => departureCause(d, calls, ctx, byRule)) };
}

function departureCause(d: Departure, calls: readonly SentCall[], ctx: Context, byRule: Record<string, number>): Cause {
  switch (d) {
    case 'emptyQuery': {
      const empty = mean(calls.map((c) => countPages(c, ctx, (page) => page.length === 0)));
      const minimum = readFactor(calls[0]?.sent[0], ctx);
      return {
        code: 'dynalite.emptyQuery',
        text: `dynalite charges nothing for a ${ctx.operation} page that reads no items (its queryTable rounds 0 bytes to 0 units), where DynamoDB charges the minimum ${formatUnits(minimum)} RCU: ${formatNumber(empty)} such ${empty === 1 ? 'page' : 'pages'} per call.`,
      };
    }
    case 'utf16': {
      const items = calls.flatMap(({ call }) => chargedItems(call, ctx));
      const utf8 = sum(items.map(utf8Size)) / calls.length;
      const utf16 = sum(items.map(utf16Size)) / calls.length;
      return {
        code: 'dynalite.utf16',
        text: `dynalite sizes strings and attribute names by their UTF-16 length, not their UTF-8 bytes (its itemSize counts String.length), so the items of a call weigh ${formatNumber(utf16)} B there against ${formatNumber(utf8)} B by DynamoDB's rule.`,
      };
    }
    case 'indexWrites': {
      const without = meanFigure(calls, ctx, new Set(['indexWrites'])) ?? {};
      const parts = Object.entries(byRule)
        .map(([t, u]) => [t, u - (without[t] ?? 0)] as const)
        .filter(([, u]) => u > UNIT_TOLERANCE)
        .map(([t, u]) => `${formatUnits(round(u))} WCU on ${t === 'table' ? 'the table (its LSIs)' : t}`);
      return {
        code: 'dynalite.indexWrites',
        text: `dynalite reports no write units for secondary indexes (its addConsumedCapacity names the table only), where DynamoDB charges ${parts.length > 0 ? parts.join(' and ') : 'index writes'} per call for this write.`,
      };
    }
    case 'pageCut': {
      const engine = mean(calls.map((c) => countPages(c, { ...ctx, isDynalite: false }, () => true)));
      const dynamo = mean(calls.map((c) => countPages(c, ctx, () => true)));
      return {
        code: 'dynalite.pageCut',
        text: `dynalite ends a page at 1 MB of its own storage-format size (its queryTable), giving ${formatNumber(engine)} ${engine === 1 ? 'page' : 'pages'} per call where DynamoDB's 1 MB of item data gives ${formatNumber(dynamo)}; each page is rounded up to 4 KB on its own.`,
      };
    }
    case 'scanConsistency':
      return {
        code: 'dynalite.scanConsistency',
        text: `dynalite drops ConsistentRead from a Scan (its Scan validation does not take the parameter) and charges ${formatUnits(READ_UNITS_PER_BLOCK.eventual)} RCU per 4 KB, where a strongly consistent Scan costs ${formatUnits(READ_UNITS_PER_BLOCK.strong)} RCU.`,
      };
  }
}

/** Pages of a Query/Scan call, as DynamoDB cuts them (or the engine, for a full engine), that pass `test`. */
function countPages(c: SentCall, ctx: Context, test: (page: Item[]) => boolean): number {
  let n = 0;
  for (const [i, request] of c.call.requests.entries()) {
    const pages = chargedPages(request, c.sent[i] ?? c.sent.at(-1), ctx, NO_DEPARTURES) ?? [];
    n += pages.filter(test).length;
  }
  return n;
}

/** The items a call is charged on: those read, or for a write the larger of the item before and after. */
function chargedItems(call: MeasuredCall, ctx: Context): Item[] {
  if (!isWrite(ctx.operation)) return itemsOfCall(call) ?? [];
  return call.requests.flatMap((r) => {
    const before = r.before ?? null;
    const after = r.after ?? null;
    if (!before) return after ? [after] : [];
    if (!after) return [before];
    return [utf8Size(after) >= utf8Size(before) ? after : before];
  });
}

// ---------------------------------------------------------------------------------------------
// Model check: the rule against the prediction

function checkModel(byRule: Record<string, number>, predicted: Record<string, number>, calls: readonly SentCall[], ctx: Context): Check {
  const differing = targetsOf(byRule, predicted).filter((t) => Math.abs((byRule[t] ?? 0) - (predicted[t] ?? 0)) > UNIT_TOLERANCE);
  if (differing.length === 0) return { isEqual: true, isExplained: true, causes: [] };
  const prediction = ctx.pattern.prediction;
  const causes: Cause[] = [];
  let isExplained = prediction !== undefined;
  const unit = isWrite(ctx.operation) ? 'WCU' : 'RCU';

  const items = calls.flatMap(({ call }) => chargedItems(call, ctx));
  const meanBytes = items.length > 0 ? sum(items.map(utf8Size)) / items.length : undefined;
  const isSizeDifferent = prediction !== undefined && meanBytes !== undefined && Math.abs(meanBytes - prediction.averageItemBytes) >= 0.5;
  const itemsPerCall = mean(calls.map(({ call }) => sum(call.requests.flatMap((r) => r.pages.map((p) => p.scannedCount)))));
  const isCountDifferent = prediction !== undefined && !isWrite(ctx.operation) && Math.abs(itemsPerCall - prediction.itemsRead) > UNIT_TOLERANCE;

  for (const target of differing) {
    const rule = byRule[target] ?? 0;
    const model = predicted[target] ?? 0;
    const index = ctx.indexes.find((i) => i.kind === 'gsi' && i.name === target);
    if (isWrite(ctx.operation) && index && model > 0) {
      // A sparse index: the model spreads the writes that reach it over all writes; the sample's calls each did or did not.
      const members = calls.filter(({ call }) =>
        call.requests.some((r) => indexWrite(r.before ?? null, r.after ?? null, index, ctx.tableKeys, utf8Size).isMember),
      ).length;
      const isFractional = Math.abs(model - Math.round(model)) > UNIT_TOLERANCE;
      if (members < calls.length || isFractional) {
        causes.push({
          code: 'sample.sparseShare',
          text: `In the sample ${formatNumber(members)} of ${formatNumber(calls.length)} ${calls.length === 1 ? 'write' : 'writes'} reached sparse index ${target} (an item enters it only when it carries all of ${index.keyAttributes.join(', ')}), so ${target} averages ${formatUnits(rule)} ${unit} a call where the model predicts ${formatUnits(model)} ${unit}.`,
        });
        continue;
      }
    }
    // A target on one side only is no matter of size or count: the model and the engine charge different places.
    if (rule <= UNIT_TOLERANCE || model <= UNIT_TOLERANCE) {
      isExplained = false;
      continue;
    }
    if (!isSizeDifferent && !isCountDifferent) isExplained = false;
  }
  if (isSizeDifferent && prediction && meanBytes !== undefined) {
    causes.push({
      code: 'sample.itemSizes',
      text: `The sample's items average ${formatNumber(meanBytes, 0)} B where the model assumes ${formatNumber(prediction.averageItemBytes, 0)} B.`,
    });
  }
  if (isCountDifferent && prediction) {
    causes.push({
      code: 'sample.itemCount',
      text: `A call read ${formatNumber(itemsPerCall)} ${itemsPerCall === 1 ? 'item' : 'items'} on average where the model assumes ${formatNumber(prediction.itemsRead)}.`,
    });
  }
  return { isEqual: false, isExplained, causes };
}

// ---------------------------------------------------------------------------------------------
// Small arithmetic

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** Rounds away floating-point noise (0.1 + 0.2) so a mean reads as the number it is. */
const round = (n: number): number => Math.round(n * 1e6) / 1e6;

const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : round(sum(values) / values.length));

function add(record: Record<string, number>, key: string, value: number): void {
  record[key] = (record[key] ?? 0) + value;
}

function meanRecord(records: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const total: Record<string, number> = {};
  for (const r of records) for (const [k, v] of Object.entries(r)) add(total, k, v);
  return Object.fromEntries(Object.entries(total).map(([k, v]) => [k, round(v / Math.max(1, records.length))]));
}

/** The targets with units: a target reported at 0 (dynalite's table on a GSI query) is no target. */
function positive(units: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(units).filter(([, v]) => v > 0));
}

const targetsOf = (...records: ReadonlyArray<Record<string, number>>): string[] => [...new Set(records.flatMap((r) => Object.keys(r)))];

/** Equal to a hundredth of a unit on every target (a missing target counts 0). */
function sameUnits(a: Record<string, number>, b: Record<string, number>): boolean {
  return targetsOf(a, b).every((t) => Math.abs((a[t] ?? 0) - (b[t] ?? 0)) <= UNIT_TOLERANCE);
}

/** One cause per code (the screen keys causes by code); texts of the same code are joined. */
function mergeCauses(causes: readonly Cause[]): Cause[] {
  const byCode = new Map<string, string[]>();
  for (const c of causes) {
    const texts = byCode.get(c.code) ?? [];
    if (!texts.includes(c.text)) texts.push(c.text);
    byCode.set(c.code, texts);
  }
  return [...byCode].map(([code, texts]) => ({ code, text: texts.join(' ') }));
}
