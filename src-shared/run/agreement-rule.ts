/**
 * DynamoDB's rule applied to what the engine actually read or wrote, per call and target, and
 * dynalite's documented departures from it (each one a switch, so a set of them is the rule dynalite
 * applies): reads by pages (Query, Scan) or by items (GetItem, BatchGetItem), writes by the item
 * and each index entry before and after.
 *
 * Rules: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes,
 * docs/dynamodb-rules.md §2 (reads) and docs/dynamodb-rules.md §3 (writes).
 */
import {
  itemSizeBytes,
  type AttributeValue,
  type Item,
  PAGE_BYTES,
  READ_UNIT_BYTES,
  READ_UNITS_PER_BLOCK,
  TRANSACTIONAL_WRITE_FACTOR,
  WRITE_UNIT_BYTES,
} from '../capacity/index.ts';
import { utf8ByteLength } from '../model/index.ts';
import { add, isQueryOrScan, meanRecord, positive, sum, type Context } from './agreement-context.ts';
import type { MeasuredCall, MeasuredPage, MeasuredRequest, RunIndex, RunRequest } from './types.ts';

/** One way dynalite departs from DynamoDB's rule; a set of them is the rule dynalite applies. */
export type Departure = 'emptyQuery' | 'utf16' | 'indexWrites' | 'pageCut' | 'scanConsistency';
export type Departures = ReadonlySet<Departure>;
export const NO_DEPARTURES: Departures = new Set();

export type Sizer = (item: Item) => number;

/** DynamoDB sizes strings and attribute names in UTF-8 bytes. */
export const utf8Size: Sizer = itemSizeBytes;

/** dynalite's `itemSize`: the same sum, but strings and names count `String.length` (UTF-16 code units). */
export const utf16Size: Sizer = (item) => itemSizeBytes(item) - Object.entries(item).reduce((n, [name, v]) => n + utf8Excess(name) + valueUtf8Excess(v), 0);

const utf8Excess = (s: string): number => utf8ByteLength(s) - s.length;

function valueUtf8Excess(v: AttributeValue): number {
  if ('S' in v) return utf8Excess(v.S);
  if ('SS' in v) return v.SS.reduce((n, s) => n + utf8Excess(s), 0);
  if ('L' in v) return v.L.reduce((n, e) => n + valueUtf8Excess(e), 0);
  if ('M' in v) return Object.entries(v.M).reduce((n, [k, e]) => n + utf8Excess(k) + valueUtf8Excess(e), 0);
  return 0;
}

/** `ceil(bytes / 1 KB)`, at least 1: one write of an item or an index entry. */
export const writeBlocks = (bytes: number): number => Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));

export interface SentCall {
  call: MeasuredCall;
  /** The requests this call sent, as planned (for Limit, ConsistentRead and the keys asked for). */
  sent: readonly RunRequest[];
}

/** The mean per-call units by target under DynamoDB's rule less `departures`; undefined when the engine's data do not say what was read or written. */
export function meanFigure(calls: readonly SentCall[], ctx: Context, departures: Departures): Record<string, number> | undefined {
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
export function readFactor(request: RunRequest | undefined, ctx: Context): number {
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
export function itemsOfCall(call: MeasuredCall): Item[] | undefined {
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
export function chargedPages(request: MeasuredRequest, sent: RunRequest | undefined, ctx: Context, departures: Departures): Item[][] | undefined {
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
export function indexWrite(before: Item | null, after: Item | null, index: RunIndex, tableKeys: readonly string[], size: Sizer): { units: number; isMember: boolean } {
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
