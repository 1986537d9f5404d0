/**
 * Read units (docs/dynamodb-rules.md §2): GetItem, BatchGetItem and TransactGetItems, item by item; Query and Scan,
 * paged at 1 MB and rounded per page; and the read throughput of provisioned capacity. Test vectors docs/dynamodb-rules.md §9.2.
 */
import type { Consistency } from '../../model/index.ts';
import { figure, formatNumber, type Figure, type Step } from '../figure.ts';
import { AWS_DOCS, type DocSource } from '../sources.ts';
import {
  ASSUMPTIONS,
  PAGE_BYTES,
  READ_UNIT_BYTES,
  READ_UNITS_PER_BLOCK,
  TRANSACTION_SOURCE,
  bytesText,
  count,
  groupSizes,
  readBlocksForBytes,
} from './rules.ts';

const READ_SOURCE = AWS_DOCS.readWriteUnits;
const QUERY_SOURCE = AWS_DOCS.query;
const SCAN_SOURCE = AWS_DOCS.scan;
const LSI_SOURCE = AWS_DOCS.lsi;

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

// ---------------------------------------------------------------------------------------------
// Single-item and batch reads

/**
 * Read units of a GetItem (docs/dynamodb-rules.md §2.2): the item rounded up to 4 KB, × 0.5 eventual, 1 strong, 2
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

function perItemReads(itemBytes: ReadonlyArray<number | undefined>, consistency: Consistency, what: string, source: DocSource): Figure {
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
 * Read units of a BatchGetItem (docs/dynamodb-rules.md §2.2): each item rounded up to 4 KB on its own, as its own GetItem,
 * then added; `undefined` entries are keys not found (the GetItem minimum each). E-9, E-10, E-11, V-21.
 */
export function batchGetReadUnits(itemBytes: ReadonlyArray<number | undefined>, consistency: Consistency): Figure {
  return perItemReads(itemBytes, consistency, 'Read units', READ_SOURCE);
}

/**
 * Read units of a TransactGetItems (docs/dynamodb-rules.md §2.6): 2 units per 4 KB of each item, rounded per item. E-28.
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
 * reaches 1 MB, the crossing item included (docs/dynamodb-rules.md §10.7); each page is rounded up to 4 KB on its own; LSI
 * fetches add each fetched item rounded up to 4 KB (docs/dynamodb-rules.md §2.5). A request reading nothing costs 1 block.
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
  /** For an LSI query that asks for attributes the LSI does not project: each match fetches its base item (docs/dynamodb-rules.md §2.5). */
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
 * Read units of a Query (docs/dynamodb-rules.md §2.2): the items read, in pages of 1 MB (the crossing item included, docs/dynamodb-rules.md §10.7),
 * each page rounded up to 4 KB separately, the pages added; at least one block per request (an empty
 * result costs 0.5 / 1, docs/dynamodb-rules.md §10.8). A GSI is always read eventually consistent (docs/dynamodb-rules.md §2.4); an LSI fetch adds
 * each fetched base item rounded up to 4 KB (docs/dynamodb-rules.md §2.5). A FilterExpression does not lower it. Reproduces
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
      source: AWS_DOCS.writeSharding,
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
 * Read units of a Scan (docs/dynamodb-rules.md §2.2): every item of the table or index is read, whatever the filter, in
 * pages of 1 MB (crossing item included, docs/dynamodb-rules.md §10.7) rounded up to 4 KB each; the groups share pages at
 * their average size. A parallel scan pages each segment on its own. `ConsistentRead` doubles it. E-1,
 * E-2. Not modeled: the per-partition minimum of docs/dynamodb-rules.md §10.8 (the partition count is not known here).
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
