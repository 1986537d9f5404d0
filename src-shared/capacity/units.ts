/**
 * Read and write units: how DynamoDB turns bytes into RCU/WCU (provisioned) or RRU/WRU (on-demand;
 * the same arithmetic). Reference §2 (reads) and §3 (writes); test vectors §9.2.
 *
 * Every function is pure. The `*ForBytes` functions return bare numbers for composing; the others
 * return a `Figure` whose steps show the derivation.
 */
import type { Consistency } from '../model/schema.ts';
import { figure, formatNumber, type Figure, type Step } from './figure.ts';

/**
 * A read unit covers up to 4 KB: 1 strongly consistent read, 2 eventually consistent reads, or half a
 * transactional read. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ProvisionedThroughput.html
 */
export const READ_UNIT_BYTES = 4096;

/** A write unit covers up to 1 KB; transactional writes take 2. Same page as READ_UNIT_BYTES. */
export const WRITE_UNIT_BYTES = 1024;

/**
 * A Query or Scan response page stops at 1 MB of data read, before any filter or projection.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html
 */
export const PAGE_BYTES = 1_048_576;

/**
 * Read units per 4 KB block by consistency: eventual 0.5, strong 1, transactional 2.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadWriteCapacityMode.html
 */
export const READ_UNITS_PER_BLOCK: Readonly<Record<Consistency, number>> = { eventual: 0.5, strong: 1, transactional: 2 };

/**
 * Transactional writes cost twice: one write to prepare, one to commit.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html
 */
export const TRANSACTIONAL_WRITE_FACTOR = 2;

const READ_SOURCE = '§2 https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ProvisionedThroughput.html';
const QUERY_SOURCE = '§2.2 https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.html';
const SCAN_SOURCE = '§2.2 https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html';
const LSI_SOURCE = '§2.5 https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html';
const WRITE_SOURCE = '§3.2 https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ProvisionedThroughput.html';
const INDEX_WRITE_SOURCE = '§3.3 https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html';
const TRANSACTION_SOURCE = '§2.6, §3.2 https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html';

/** Assumption texts (reference §10), shown beside the figures that rest on them. */
export const ASSUMPTIONS = {
  pageBoundary:
    'A page stops once the plain bytes read reach 1 MB and includes the item that crosses the limit; DynamoDB counts an internal size that is not public (reference §10.7).',
  minimumPerRequest: 'A Query or Scan that reads nothing still costs the minimum of one 4 KB read per request (reference §2.2, §10.8).',
  lsiFetchPaging: 'With LSI fetches, each item counts its entry plus its fetched item, rounded up to 4 KB, toward the 1 MB page (reference §2.5).',
  missingDelete: 'A DeleteItem of a key that does not exist costs the 1-unit minimum, as dynalite charges it (reference §3.2, §10.11).',
  twoSizedMove: 'An index key change costs a delete of the old entry plus a put of the new one, each rounded up to 1 KB on its own size (reference §10.10).',
  rewriteInIndex: 'An item rewritten in place in an index is charged on the larger of its old and new entry, as the table charges the larger item (reference §3.2).',
  transactionIndexes: 'In a transaction the table write costs 2×, while index writes cost 1× like any index update (reference §3.4, §10.12).',
  indexEntrySize: 'An index entry is sized as the projected attributes (base keys + index keys + projected attributes), without the 100-byte storage overhead (reference §10.9).',
  queryTransactional: 'Query and Scan have no transactional mode; a transactional pattern is counted as a strongly consistent read.',
  gsiEventual: 'A GSI is read with eventual consistency only: a strong read is not possible there (reference §2.4).',
  averageSize: 'All items are taken to be of the average size; real pages vary with the actual sizes.',
} as const;

// ---------------------------------------------------------------------------------------------
// Bare arithmetic

/**
 * `ceil(bytes / unit)`, tolerant of floating-point noise in sizes computed from averages (3 × 1,365.33
 * must not round up past 4,096 B).
 */
function ceilUnits(bytes: number, unitBytes: number): number {
  const q = bytes / unitBytes;
  return Math.ceil(q - Math.max(1e-9, Math.abs(q) * 1e-12));
}

/** 4 KB blocks a read of `bytes` is charged for: `ceil(bytes / 4,096)`, at least 1 (a missing item or an empty result still costs one). */
export function readBlocksForBytes(bytes: number): number {
  return Math.max(1, ceilUnits(bytes, READ_UNIT_BYTES));
}

/** Read units for one read of `bytes`: 4 KB blocks (at least 1) × 0.5 eventual, 1 strong, 2 transactional (§2.1). */
export function readUnitsForBytes(bytes: number, consistency: Consistency): number {
  return readBlocksForBytes(bytes) * READ_UNITS_PER_BLOCK[consistency];
}

/** 1 KB blocks a write of `bytes` is charged for: `ceil(bytes / 1,024)`, at least 1. */
export function writeBlocksForBytes(bytes: number): number {
  return Math.max(1, ceilUnits(bytes, WRITE_UNIT_BYTES));
}

/** Write units for one write of `bytes`: 1 KB blocks (at least 1), × 2 when transactional (§3.1). */
export function writeUnitsForBytes(bytes: number, transactional = false): number {
  return writeBlocksForBytes(bytes) * (transactional ? TRANSACTIONAL_WRITE_FACTOR : 1);
}

// ---------------------------------------------------------------------------------------------
// Formatting

const bytesText = (n: number): string => `${formatNumber(n)} B`;
const count = (n: number, one: string, many = `${one}s`): string => `${formatNumber(n)} ${n === 1 ? one : many}`;

function consistencyStep(blocks: number, consistency: Consistency, source = READ_SOURCE, what = 'Read units'): Step {
  const factor = READ_UNITS_PER_BLOCK[consistency];
  const label =
    consistency === 'eventual'
      ? `${what}, eventually consistent: half a unit per 4 KB`
      : consistency === 'strong'
        ? `${what}, strongly consistent: one unit per 4 KB`
        : `${what}, transactional: two units per 4 KB`;
  return { label, expression: `${formatNumber(blocks)} × ${factor}`, value: blocks * factor, unit: 'RCU', source };
}

/** Groups equal sizes so a batch of 100 same-size items is one step, in order of first appearance. */
function groupSizes(sizes: ReadonlyArray<number | undefined>): Array<{ bytes: number | undefined; items: number }> {
  const groups: Array<{ bytes: number | undefined; items: number }> = [];
  for (const bytes of sizes) {
    const group = groups.find((g) => g.bytes === bytes);
    if (group) group.items += 1;
    else groups.push({ bytes, items: 1 });
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------
// Single-item and batch reads

/**
 * Read units of a GetItem (§2.2): the item rounded up to 4 KB, × 0.5 eventual, 1 strong, 2
 * transactional (a TransactGetItems of that one item). `itemBytes` undefined means the key does not
 * exist: the read still costs one block (0.5 / 1 / 2). E-6, E-7, E-8.
 */
export function getItemReadUnits(itemBytes: number | undefined, consistency: Consistency): Figure {
  const steps: Step[] = [];
  if (itemBytes === undefined) {
    steps.push({ label: 'Item not found: the minimum of one 4 KB block', expression: 'missing key', value: 1, unit: 'units', source: READ_SOURCE });
  } else {
    steps.push({ label: 'Item size', expression: bytesText(itemBytes), value: itemBytes, unit: 'B' });
    steps.push({
      label: '4 KB blocks, rounded up',
      expression: `ceil(${bytesText(itemBytes)} / 4,096 B)`,
      value: readBlocksForBytes(itemBytes),
      unit: 'units',
      source: READ_SOURCE,
    });
  }
  steps.push(consistencyStep(readBlocksForBytes(itemBytes ?? 0), consistency));
  return figure(steps);
}

function perItemReads(itemBytes: ReadonlyArray<number | undefined>, consistency: Consistency, what: string, source: string): Figure {
  const steps: Step[] = [];
  let blocks = 0;
  for (const group of groupSizes(itemBytes)) {
    const each = readBlocksForBytes(group.bytes ?? 0);
    blocks += each * group.items;
    steps.push(
      group.bytes === undefined
        ? { label: `${count(group.items, 'key')} not found`, expression: `${formatNumber(group.items)} × 1 (the minimum)`, value: each * group.items, unit: 'units', source }
        : {
            label: `${count(group.items, 'item')} of ${bytesText(group.bytes)}, each rounded up to 4 KB`,
            expression: `${formatNumber(group.items)} × ceil(${bytesText(group.bytes)} / 4,096 B)`,
            value: each * group.items,
            unit: 'units',
            source,
          },
    );
  }
  if (steps.length !== 1) {
    steps.push({ label: '4 KB blocks in all', expression: steps.length === 0 ? 'no keys' : `Σ over ${count(itemBytes.length, 'item')}`, value: blocks, unit: 'units' });
  }
  steps.push(consistencyStep(blocks, consistency, source, what));
  return figure(steps);
}

/**
 * Read units of a BatchGetItem (§2.2): each item rounded up to 4 KB on its own, as its own GetItem,
 * then added; `undefined` entries are keys not found (the GetItem minimum each). E-9, E-10, E-11, V-21.
 */
export function batchGetReadUnits(itemBytes: ReadonlyArray<number | undefined>, consistency: Consistency): Figure {
  return perItemReads(itemBytes, consistency, 'Read units', READ_SOURCE);
}

/**
 * Read units of a TransactGetItems (§2.6): 2 units per 4 KB of each item, rounded per item. E-28.
 */
export function transactGetReadUnits(itemBytes: ReadonlyArray<number | undefined>): Figure {
  return perItemReads(itemBytes, 'transactional', 'Read units', TRANSACTION_SOURCE);
}

// ---------------------------------------------------------------------------------------------
// Query and Scan

/** Where a read is served: the table, a GSI (its own capacity, eventual only) or an LSI (the table's capacity). */
export type ReadTarget = 'table' | 'gsi' | 'lsi';

interface Paging {
  pages: number;
  blocks: number;
  /** "9 full pages of 1,024 items + 1 page of 784 items" */
  pagesText: string;
  /** "9 × ceil(1,048,576 B / 4,096 B) + ceil(802,816 B / 4,096 B)" */
  blocksText: string;
}

/**
 * Pages one request reads and the 4 KB blocks they cost: items of `itemBytes` fill a page until it
 * reaches 1 MB, the crossing item included (§10.7); each page is rounded up to 4 KB on its own; LSI
 * fetches add each fetched item rounded up to 4 KB (§2.5). A request reading nothing costs 1 block.
 */
function pageRequest(items: number, itemBytes: number, fetchBlocksPerItem: number): Paging {
  if (items <= 0) {
    return { pages: 1, blocks: 1, pagesText: '1 page, empty', blocksText: 'nothing read: the minimum of 1' };
  }
  const pageBytesPerItem = itemBytes + fetchBlocksPerItem * READ_UNIT_BYTES;
  const perPage = pageBytesPerItem > 0 ? Math.ceil(PAGE_BYTES / pageBytesPerItem) : Infinity;
  const pageBlocks = (n: number): number => readBlocksForBytes(n * itemBytes) + n * fetchBlocksPerItem;
  const pageBlocksText = (n: number): string =>
    `ceil(${bytesText(n * itemBytes)} / 4,096 B)` + (fetchBlocksPerItem > 0 ? ` + ${formatNumber(n)} × ${fetchBlocksPerItem}` : '');
  if (items <= perPage) {
    return { pages: 1, blocks: pageBlocks(items), pagesText: `1 page of ${count(items, 'item')}`, blocksText: pageBlocksText(items) };
  }
  const full = Math.floor(items / perPage);
  const rest = items - full * perPage;
  const hasRest = rest > 1e-9;
  return {
    pages: full + (hasRest ? 1 : 0),
    blocks: full * pageBlocks(perPage) + (hasRest ? pageBlocks(rest) : 0),
    pagesText: `${count(full, 'full page')} of ${count(perPage, 'item')}` + (hasRest ? ` + 1 page of ${count(rest, 'item')}` : ''),
    blocksText: `${formatNumber(full)} × ${pageBlocksText(perPage)}` + (hasRest ? ` + ${pageBlocksText(rest)}` : ''),
  };
}

/** What `queryReadUnits` needs. */
export interface QueryReadInput {
  /** Items read (evaluated) over all requests, before any FilterExpression: what the read is charged on. May be an average. */
  itemCount: number;
  /** Average bytes per item read: the item for the table; the index entry (projected attributes) for an index. */
  itemBytes: number;
  consistency: Consistency;
  target: ReadTarget;
  /** For an LSI query that asks for attributes the LSI does not project: each match fetches its base item (§2.5). */
  lsiFetch?: { baseItemBytes: number };
  /** Requests the items are spread evenly over (a fan-out over N shards: N); each is paged and rounded on its own. Default 1. */
  requests?: number;
  /** Items returned after a FilterExpression or Limit; shown in the derivation only, since a filter does not lower the cost. */
  itemsReturned?: number;
}

function effectiveConsistency(consistency: Consistency, target: ReadTarget, assumptions: string[]): Consistency {
  if (target === 'gsi') {
    if (consistency !== 'eventual') assumptions.push(ASSUMPTIONS.gsiEventual);
    return 'eventual';
  }
  if (consistency === 'transactional') {
    assumptions.push(ASSUMPTIONS.queryTransactional);
    return 'strong';
  }
  return consistency;
}

/**
 * Read units of a Query (§2.2): the items read, in pages of 1 MB (the crossing item included, §10.7),
 * each page rounded up to 4 KB separately, the pages added; at least one block per request (an empty
 * result costs 0.5 / 1, §10.8). A GSI is always read eventually consistent (§2.4); an LSI fetch adds
 * each fetched base item rounded up to 4 KB (§2.5). A FilterExpression does not lower it. Reproduces
 * E-3, E-4, E-12..E-16, E-26. Unit: RCU (RRU on-demand, the same number).
 */
export function queryReadUnits(input: QueryReadInput): Figure {
  const assumptions: string[] = [];
  const consistency = effectiveConsistency(input.consistency, input.target, assumptions);
  const requests = Math.max(1, input.requests ?? 1);
  const perRequest = input.itemCount / requests;
  const fetchBlocks = input.target === 'lsi' && input.lsiFetch ? readBlocksForBytes(input.lsiFetch.baseItemBytes) : 0;
  const paging = pageRequest(perRequest, input.itemBytes, fetchBlocks);
  const what = input.target === 'gsi' ? 'index entries' : input.target === 'lsi' ? 'LSI entries' : 'items';
  const steps: Step[] = [];

  if (requests > 1) {
    steps.push({
      label: 'Requests, each paged and rounded on its own',
      expression: `${count(requests, 'request')} of ${count(perRequest, 'item')} each`,
      value: requests,
      unit: 'requests',
      source: '§5',
    });
  }
  steps.push({ label: `Items read (${what})`, expression: count(input.itemCount, 'item'), value: input.itemCount, unit: 'items', source: QUERY_SOURCE });
  if (input.itemsReturned !== undefined) {
    steps.push({
      label: 'Items returned: a FilterExpression runs after the read, so it does not lower the cost',
      expression: `${formatNumber(input.itemsReturned)} of ${formatNumber(input.itemCount)} read`,
      value: input.itemsReturned,
      unit: 'items',
      source: QUERY_SOURCE,
    });
  }
  steps.push({
    label: 'Bytes read',
    expression: `${count(input.itemCount, 'item')} × ${bytesText(input.itemBytes)}`,
    value: input.itemCount * input.itemBytes,
    unit: 'B',
  });
  steps.push({
    label: 'Pages of up to 1 MB' + (requests > 1 ? ' per request' : ''),
    expression: paging.pagesText,
    value: paging.pages,
    unit: 'pages',
    source: QUERY_SOURCE,
  });
  if (fetchBlocks > 0 && input.lsiFetch) {
    steps.push({
      label: 'Fetched base item, rounded up to 4 KB on its own',
      expression: `ceil(${bytesText(input.lsiFetch.baseItemBytes)} / 4,096 B) per item`,
      value: fetchBlocks,
      unit: 'units',
      source: LSI_SOURCE,
    });
    assumptions.push(ASSUMPTIONS.lsiFetchPaging);
  }
  steps.push({
    label: '4 KB blocks, rounded up per page' + (requests > 1 ? ' and per request' : ''),
    expression: (requests > 1 ? `${formatNumber(requests)} × (${paging.blocksText})` : paging.blocksText),
    value: paging.blocks * requests,
    unit: 'units',
    source: QUERY_SOURCE,
  });
  steps.push(consistencyStep(paging.blocks * requests, consistency, QUERY_SOURCE));

  if (paging.pages > 1) assumptions.push(ASSUMPTIONS.pageBoundary);
  if (input.itemCount <= 0) assumptions.push(ASSUMPTIONS.minimumPerRequest);
  if (input.target !== 'table') assumptions.push(ASSUMPTIONS.indexEntrySize);
  return figure(steps, assumptions);
}

/** One group of items a Scan reads, e.g. one entity's items. */
export interface ScanSegment {
  itemCount: number;
  /** Average bytes per item (per index entry when scanning an index). */
  itemBytes: number;
  /** Shown in the derivation, e.g. the entity name. */
  label?: string;
}

/** What `scanReadUnits` needs. */
export interface ScanReadInput {
  /** Every group of items in the table or index: a Scan reads them all, and they share its pages. */
  segments: ScanSegment[];
  consistency: Consistency;
  /** Default `table`. A GSI is read eventually consistent only. */
  target?: ReadTarget;
  /** A parallel scan's `TotalSegments`: the items are split evenly, each segment paged on its own. Default 1. */
  totalSegments?: number;
  /** Items returned after a FilterExpression; shown only, it does not lower the cost. */
  itemsReturned?: number;
}

/**
 * Read units of a Scan (§2.2): every item of the table or index is read, whatever the filter, in
 * pages of 1 MB (crossing item included, §10.7) rounded up to 4 KB each; the groups share pages at
 * their average size. A parallel scan pages each segment on its own. `ConsistentRead` doubles it. E-1,
 * E-2. Not modeled: the per-partition minimum of §10.8 (the partition count is not known here).
 */
export function scanReadUnits(input: ScanReadInput): Figure {
  const assumptions: string[] = [];
  const target = input.target ?? 'table';
  const consistency = effectiveConsistency(input.consistency, target, assumptions);
  const segmentsTotal = Math.max(1, input.totalSegments ?? 1);
  const steps: Step[] = [];
  let items = 0;
  let bytes = 0;
  input.segments.forEach((s, i) => {
    items += s.itemCount;
    bytes += s.itemCount * s.itemBytes;
    if (input.segments.length > 1) {
      steps.push({
        label: `Bytes read: ${s.label ?? `group ${i + 1}`}`,
        expression: `${count(s.itemCount, 'item')} × ${bytesText(s.itemBytes)}`,
        value: s.itemCount * s.itemBytes,
        unit: 'B',
        source: SCAN_SOURCE,
      });
    }
  });
  const average = items > 0 ? bytes / items : 0;
  steps.push({ label: 'Items read: the whole ' + (target === 'table' ? 'table' : 'index'), expression: count(items, 'item'), value: items, unit: 'items', source: SCAN_SOURCE });
  if (input.itemsReturned !== undefined) {
    steps.push({
      label: 'Items returned: a FilterExpression runs after the read, so it does not lower the cost',
      expression: `${formatNumber(input.itemsReturned)} of ${formatNumber(items)} read`,
      value: input.itemsReturned,
      unit: 'items',
      source: SCAN_SOURCE,
    });
  }
  steps.push({
    label: 'Bytes read',
    expression: input.segments.length === 1 ? `${count(items, 'item')} × ${bytesText(average)}` : `Σ over ${count(input.segments.length, 'group')}`,
    value: bytes,
    unit: 'B',
    source: SCAN_SOURCE,
  });
  if (input.segments.length > 1) {
    steps.push({ label: 'Average item size', expression: `${bytesText(bytes)} / ${count(items, 'item')}`, value: average, unit: 'B' });
    assumptions.push(ASSUMPTIONS.averageSize);
  }
  const paging = pageRequest(items / segmentsTotal, average, 0);
  steps.push({
    label: 'Pages of up to 1 MB' + (segmentsTotal > 1 ? ' per segment' : ''),
    expression: (segmentsTotal > 1 ? `${count(segmentsTotal, 'segment')}, each ` : '') + paging.pagesText,
    value: paging.pages * segmentsTotal,
    unit: 'pages',
    source: SCAN_SOURCE,
  });
  steps.push({
    label: '4 KB blocks, rounded up per page',
    expression: segmentsTotal > 1 ? `${formatNumber(segmentsTotal)} × (${paging.blocksText})` : paging.blocksText,
    value: paging.blocks * segmentsTotal,
    unit: 'units',
    source: SCAN_SOURCE,
  });
  steps.push(consistencyStep(paging.blocks * segmentsTotal, consistency, SCAN_SOURCE));
  if (paging.pages > 1) assumptions.push(ASSUMPTIONS.pageBoundary);
  if (items <= 0) assumptions.push(ASSUMPTIONS.minimumPerRequest);
  return figure(steps, assumptions);
}

// ---------------------------------------------------------------------------------------------
// Writes

/** A secondary index, by kind and name. */
export interface IndexRef {
  kind: 'gsi' | 'lsi';
  name: string;
}

/**
 * What a write does to one index (§3.3): `put` the item enters it or is rewritten in it (1 write),
 * `move` an update changes its index key (delete + put, 2 writes), `delete` it leaves (1 write),
 * `none` it is not in the index before or after, or nothing the index projects changes (0).
 */
export type IndexWriteEffect = 'put' | 'move' | 'delete' | 'none';

/** One index a write touches, with the entry sizes (the projected attributes, §10.9). */
export interface IndexWriteInput {
  target: IndexRef;
  effect: IndexWriteEffect;
  /** The entry before the write: needed for `move` and `delete`; for `put`, the entry it rewrites if any. */
  oldEntryBytes?: number;
  /** The entry after the write: needed for `put` and `move`. */
  newEntryBytes?: number;
}

/** What `writeUnits` needs. */
export interface WriteInput {
  kind: 'put' | 'update' | 'delete';
  /** The item before: the one a put replaces, an update changes, a delete removes. Undefined: no item existed. */
  oldItemBytes?: number;
  /** The item after a put or update (required for those; ignored for delete). */
  newItemBytes?: number;
  /** Part of a TransactWriteItems: the table write costs 2× (§3.2). */
  transactional: boolean;
  indexes: IndexWriteInput[];
}

/** Write units of one write, split by whose capacity pays for them. */
export interface WriteUnits {
  /** Everything: the table, its LSIs and its GSIs. Unit WCU (WRU on-demand). */
  total: Figure;
  /** Charged to the table's capacity: the item write and every LSI write (LSIs have no capacity of their own). */
  table: Figure;
  /** Each GSI's writes, charged to that GSI's own capacity, by index name. */
  gsis: Record<string, Figure>;
  /** Each LSI's writes (already included in `table`), by index name. */
  lsis: Record<string, Figure>;
}

function requireBytes(value: number | undefined, what: string): number {
  if (value === undefined || !Number.isFinite(value) || value < 0) {
    throw new Error(`writeUnits: ${what} is required and must be a non-negative number; got ${String(value)}.`);
  }
  return value;
}

function tableWriteSteps(input: WriteInput, assumptions: string[]): { steps: Step[]; units: number } {
  const steps: Step[] = [];
  const blocksUnit = input.transactional ? 'units' : 'WCU';
  let bytes: number | undefined;
  if (input.kind === 'delete') {
    if (input.oldItemBytes === undefined) {
      assumptions.push(ASSUMPTIONS.missingDelete);
      steps.push({ label: 'No item to delete: the minimum of 1 unit', expression: 'missing key', value: 1, unit: blocksUnit, source: WRITE_SOURCE });
    } else {
      bytes = requireBytes(input.oldItemBytes, 'oldItemBytes');
      steps.push({ label: 'Size of the deleted item', expression: bytesText(bytes), value: bytes, unit: 'B', source: WRITE_SOURCE });
    }
  } else {
    const after = requireBytes(input.newItemBytes, `newItemBytes of a ${input.kind}`);
    if (input.oldItemBytes === undefined) {
      bytes = after;
      steps.push({ label: input.kind === 'put' ? 'Size of the new item' : 'Size of the item after the update (none existed)', expression: bytesText(after), value: after, unit: 'B', source: WRITE_SOURCE });
    } else {
      const before = requireBytes(input.oldItemBytes, 'oldItemBytes');
      bytes = Math.max(before, after);
      steps.push({
        label: input.kind === 'put' ? 'Size charged: the larger of the new item and the item it replaces' : 'Size charged: the larger of the item before and after the update',
        expression: `max(${bytesText(before)}, ${bytesText(after)})`,
        value: bytes,
        unit: 'B',
        source: WRITE_SOURCE,
      });
    }
  }
  const blocks = writeBlocksForBytes(bytes ?? 0);
  if (bytes !== undefined) {
    steps.push({ label: 'Write units, rounded up to 1 KB', expression: `ceil(${bytesText(bytes)} / 1,024 B)`, value: blocks, unit: blocksUnit, source: WRITE_SOURCE });
  }
  const units = blocks * (input.transactional ? TRANSACTIONAL_WRITE_FACTOR : 1);
  if (input.transactional) {
    steps.push({ label: 'Transactional: prepare and commit, twice the units', expression: `${formatNumber(blocks)} × 2`, value: units, unit: 'WCU', source: TRANSACTION_SOURCE });
  }
  return { steps, units };
}

function indexWriteFigure(w: IndexWriteInput): Figure {
  const assumptions: string[] = [];
  const name = `${w.target.kind === 'gsi' ? 'GSI' : 'LSI'} ${JSON.stringify(w.target.name)}`;
  const steps: Step[] = [];
  switch (w.effect) {
    case 'none':
      steps.push({ label: `${name}: not written (the item is not in it, or nothing it projects changes)`, expression: '0', value: 0, unit: 'WCU', source: INDEX_WRITE_SOURCE });
      break;
    case 'put': {
      const after = requireBytes(w.newEntryBytes, `newEntryBytes of ${name} (effect put)`);
      const bytes = w.oldEntryBytes === undefined ? after : Math.max(requireBytes(w.oldEntryBytes, 'oldEntryBytes'), after);
      if (w.oldEntryBytes !== undefined) assumptions.push(ASSUMPTIONS.rewriteInIndex);
      steps.push({
        label: `${name}: put the entry`,
        expression: w.oldEntryBytes === undefined ? `ceil(${bytesText(after)} / 1,024 B)` : `ceil(max(${bytesText(w.oldEntryBytes)}, ${bytesText(after)}) / 1,024 B)`,
        value: writeBlocksForBytes(bytes),
        unit: 'WCU',
        source: INDEX_WRITE_SOURCE,
      });
      break;
    }
    case 'delete': {
      const before = requireBytes(w.oldEntryBytes, `oldEntryBytes of ${name} (effect delete)`);
      steps.push({ label: `${name}: delete the entry`, expression: `ceil(${bytesText(before)} / 1,024 B)`, value: writeBlocksForBytes(before), unit: 'WCU', source: INDEX_WRITE_SOURCE });
      break;
    }
    case 'move': {
      const before = requireBytes(w.oldEntryBytes, `oldEntryBytes of ${name} (effect move)`);
      const after = requireBytes(w.newEntryBytes, `newEntryBytes of ${name} (effect move)`);
      const del = writeBlocksForBytes(before);
      const put = writeBlocksForBytes(after);
      assumptions.push(ASSUMPTIONS.twoSizedMove);
      steps.push({ label: `${name}: delete the old entry`, expression: `ceil(${bytesText(before)} / 1,024 B)`, value: del, unit: 'WCU', source: INDEX_WRITE_SOURCE });
      steps.push({ label: `${name}: put the new entry`, expression: `ceil(${bytesText(after)} / 1,024 B)`, value: put, unit: 'WCU', source: INDEX_WRITE_SOURCE });
      steps.push({ label: `${name}: the key changed, so delete + put`, expression: `${del} + ${put}`, value: del + put, unit: 'WCU', source: INDEX_WRITE_SOURCE });
      break;
    }
  }
  return figure(steps, assumptions);
}

/**
 * Write units of a PutItem, UpdateItem or DeleteItem and the index writes it triggers (§3.2–3.4):
 * the table is charged the larger of the item before and after, rounded up to 1 KB (a delete of a
 * missing key: 1); each index write is its entry rounded up to 1 KB (a key change: delete + put).
 * In a transaction the table write doubles and index writes stay 1× (§10.12). GSI writes come from
 * each GSI's own capacity; LSI writes from the table's. Throws on missing sizes (a programming
 * error). Reproduces E-17..E-25, E-29.
 */
export function writeUnits(input: WriteInput): WriteUnits {
  const unique = (a: readonly string[]): string[] => [...new Set(a)];
  const tableAssumptions: string[] = [];
  const table = tableWriteSteps(input, tableAssumptions);
  const tableSteps = [...table.steps];
  const gsis: Record<string, Figure> = {};
  const lsis: Record<string, Figure> = {};
  const gsiAssumptions: string[] = [];
  let lsiUnits = 0;
  let gsiUnits = 0;
  for (const w of input.indexes) {
    const f = indexWriteFigure(w);
    if (w.target.kind === 'gsi') {
      gsis[w.target.name] = f;
      gsiUnits += f.value;
      gsiAssumptions.push(...f.assumptions);
    } else {
      lsis[w.target.name] = f;
      lsiUnits += f.value;
      tableAssumptions.push(...f.assumptions);
    }
  }
  if (lsiUnits > 0) {
    tableAssumptions.push(ASSUMPTIONS.indexEntrySize);
    if (input.transactional) tableAssumptions.push(ASSUMPTIONS.transactionIndexes);
  }
  if (gsiUnits > 0) {
    gsiAssumptions.push(ASSUMPTIONS.indexEntrySize);
    if (input.transactional) gsiAssumptions.push(ASSUMPTIONS.transactionIndexes);
  }
  const lsiNames = Object.keys(lsis);
  if (lsiNames.length > 0) {
    tableSteps.push({
      label: 'LSI writes, charged to the table',
      expression: lsiNames.map((n) => `${n} ${formatNumber(lsis[n]?.value ?? 0)}`).join(' + '),
      value: lsiUnits,
      unit: 'WCU',
      source: INDEX_WRITE_SOURCE,
    });
    tableSteps.push({
      label: "Table capacity: the item write plus its LSIs'",
      expression: `${formatNumber(table.units)} + ${formatNumber(lsiUnits)}`,
      value: table.units + lsiUnits,
      unit: 'WCU',
    });
  }
  const tableFigure = figure(tableSteps, unique(tableAssumptions));
  const gsiNames = Object.keys(gsis);
  const totalSteps: Step[] = [
    { label: lsiNames.length > 0 ? 'Table, with its LSIs' : 'Table', expression: formatNumber(tableFigure.value), value: tableFigure.value, unit: 'WCU' },
  ];
  for (const n of gsiNames) {
    const v = gsis[n]?.value ?? 0;
    totalSteps.push({ label: `GSI ${JSON.stringify(n)}, from its own capacity`, expression: formatNumber(v), value: v, unit: 'WCU', source: INDEX_WRITE_SOURCE });
  }
  if (gsiNames.length > 0) {
    totalSteps.push({
      label: 'Write units in all',
      expression: [tableFigure.value, ...gsiNames.map((n) => gsis[n]?.value ?? 0)].map((v) => formatNumber(v)).join(' + '),
      value: tableFigure.value + gsiUnits,
      unit: 'WCU',
    });
  }
  return { total: figure(totalSteps, unique([...tableAssumptions, ...gsiAssumptions])), table: tableFigure, gsis, lsis };
}

function perItemWrites(sizes: ReadonlyArray<number | undefined>, transactional: boolean, source: string): Figure {
  const steps: Step[] = [];
  const assumptions: string[] = [];
  let blocks = 0;
  for (const group of groupSizes(sizes)) {
    const each = writeBlocksForBytes(group.bytes ?? 0);
    blocks += each * group.items;
    if (group.bytes === undefined) {
      assumptions.push(ASSUMPTIONS.missingDelete);
      steps.push({ label: `${count(group.items, 'delete')} of a missing key`, expression: `${formatNumber(group.items)} × 1 (the minimum)`, value: group.items, unit: 'units', source });
    } else {
      steps.push({
        label: `${count(group.items, 'item')} of ${bytesText(group.bytes)}, each rounded up to 1 KB`,
        expression: `${formatNumber(group.items)} × ceil(${bytesText(group.bytes)} / 1,024 B)`,
        value: each * group.items,
        unit: 'units',
        source,
      });
    }
  }
  steps.push({ label: 'Write units', expression: steps.length === 0 ? 'no items' : `Σ over ${count(sizes.length, 'item')}`, value: blocks, unit: 'WCU', source });
  if (transactional) {
    steps.push({ label: 'Transactional: prepare and commit, twice the units', expression: `${formatNumber(blocks)} × 2`, value: blocks * TRANSACTIONAL_WRITE_FACTOR, unit: 'WCU', source: TRANSACTION_SOURCE });
  }
  return figure(steps, assumptions);
}

/**
 * Table write units of a BatchWriteItem (§3.2): each put or delete rounded up to 1 KB on its own,
 * then added; `undefined` is a delete of a missing key (1). Index writes are not included: compose
 * them per item with `writeUnits`. E-27.
 */
export function batchWriteUnits(sizes: ReadonlyArray<number | undefined>): Figure {
  return perItemWrites(sizes, false, WRITE_SOURCE);
}

/**
 * Table write units of a TransactWriteItems (§3.2): 2 × each item rounded up to 1 KB (for an update,
 * pass the larger of before and after). Index writes are not included. E-28.
 */
export function transactWriteUnits(sizes: ReadonlyArray<number | undefined>): Figure {
  return perItemWrites(sizes, true, TRANSACTION_SOURCE);
}

// ---------------------------------------------------------------------------------------------
// Throughput of provisioned capacity

/**
 * The most data per second `rcu` read units can read (E-30): rcu / (0.5 | 1 | 2) × 4 KB.
 */
export function maxReadBytesPerSecond(rcu: number, consistency: Consistency): Figure {
  const factor = READ_UNITS_PER_BLOCK[consistency];
  return figure([
    { label: 'Read capacity', expression: formatNumber(rcu), value: rcu, unit: 'RCU/s' },
    { label: `4 KB reads per second (${consistency}: ${factor} unit each)`, expression: `${formatNumber(rcu)} / ${factor}`, value: rcu / factor, unit: 'units' },
    { label: 'Bytes per second', expression: `${formatNumber(rcu / factor)} × 4,096 B`, value: (rcu / factor) * READ_UNIT_BYTES, unit: 'B/s', source: READ_SOURCE },
  ]);
}

/** The most data per second `wcu` write units can write (E-30): wcu / (1 | 2) × 1 KB. */
export function maxWriteBytesPerSecond(wcu: number, transactional: boolean): Figure {
  const factor = transactional ? TRANSACTIONAL_WRITE_FACTOR : 1;
  return figure([
    { label: 'Write capacity', expression: formatNumber(wcu), value: wcu, unit: 'WCU/s' },
    { label: `1 KB writes per second${transactional ? ' (transactional: 2 units each)' : ''}`, expression: `${formatNumber(wcu)} / ${factor}`, value: wcu / factor, unit: 'units' },
    { label: 'Bytes per second', expression: `${formatNumber(wcu / factor)} × 1,024 B`, value: (wcu / factor) * WRITE_UNIT_BYTES, unit: 'B/s', source: WRITE_SOURCE },
  ]);
}
