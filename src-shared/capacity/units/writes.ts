/**
 * Write units (docs/dynamodb-rules.md §3): PutItem, UpdateItem and DeleteItem with the index writes they trigger,
 * BatchWriteItem and TransactWriteItems item by item, and the write throughput of provisioned
 * capacity. Test vectors docs/dynamodb-rules.md §9.2.
 */
import { figure, formatNumber, type Figure, type Step } from '../figure.ts';
import { AWS_DOCS, type DocSource } from '../sources.ts';
import {
  ASSUMPTIONS,
  TRANSACTION_SOURCE,
  TRANSACTIONAL_WRITE_FACTOR,
  WRITE_UNIT_BYTES,
  bytesText,
  count,
  groupSizes,
  writeBlocksForBytes,
} from './rules.ts';

const WRITE_SOURCE = AWS_DOCS.readWriteUnits;
const GSI_WRITE_SOURCE = AWS_DOCS.gsi;
const LSI_WRITE_SOURCE = AWS_DOCS.lsi;

/** A secondary index, by kind and name. */
export interface IndexRef {
  kind: 'gsi' | 'lsi';
  name: string;
}

/**
 * What a write does to one index (docs/dynamodb-rules.md §3.3): `put` the item enters it or is rewritten in it (1 write),
 * `move` an update changes its index key (delete + put, 2 writes), `delete` it leaves (1 write),
 * `enterOrLeave` an update crosses the index's condition: one put or one delete of the entry (1),
 * `none` it is not in the index before or after, or nothing the index projects changes (0).
 */
export type IndexWriteEffect = 'put' | 'move' | 'delete' | 'enterOrLeave' | 'none';

/** One index a write touches, with the entry sizes (the projected attributes, docs/dynamodb-rules.md §10.9). */
export interface IndexWriteInput {
  target: IndexRef;
  effect: IndexWriteEffect;
  /** The entry before the write: needed for `move` and `delete`; for `put`, the entry it rewrites if any. */
  oldEntryBytes?: number;
  /** The entry after the write: needed for `put` and `move`. */
  newEntryBytes?: number;
  /** Why the index is (or is not) written, shown in the derivation. */
  reason?: string;
}

/** What `writeUnits` needs. */
export interface WriteInput {
  kind: 'put' | 'update' | 'delete';
  /** The item before: the one a put replaces, an update changes, a delete removes. Undefined: no item existed. */
  oldItemBytes?: number;
  /** The item after a put or update (required for those; ignored for delete). */
  newItemBytes?: number;
  /** Part of a TransactWriteItems: the table write costs 2× (docs/dynamodb-rules.md §3.2). */
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
  const indexSource = w.target.kind === 'gsi' ? AWS_DOCS.gsi : AWS_DOCS.lsi;
  const steps: Step[] = [];
  if (w.reason) {
    const writes = w.effect === 'none' ? 0 : w.effect === 'move' ? 2 : 1;
    steps.push({ label: `${name}: ${w.reason.replace(/\.$/, '')}`, expression: '', value: writes, unit: 'writes', source: indexSource });
  }
  switch (w.effect) {
    case 'none':
      steps.push({ label: `${name}: not written (the item is not in it, or nothing it projects changes)`, expression: '0', value: 0, unit: 'WCU', source: indexSource });
      break;
    case 'enterOrLeave': {
      const bytes = requireBytes(w.newEntryBytes ?? w.oldEntryBytes, `an entry size of ${name} (effect enterOrLeave)`);
      steps.push({
        label: `${name}: the item enters (one put) or leaves (one delete) the index, rounded up to 1 KB`,
        expression: `ceil(${bytesText(bytes)} / 1,024 B)`,
        value: writeBlocksForBytes(bytes),
        unit: 'WCU',
        source: indexSource,
      });
      break;
    }
    case 'put': {
      const after = requireBytes(w.newEntryBytes, `newEntryBytes of ${name} (effect put)`);
      const bytes = w.oldEntryBytes === undefined ? after : Math.max(requireBytes(w.oldEntryBytes, 'oldEntryBytes'), after);
      if (w.oldEntryBytes !== undefined) assumptions.push(ASSUMPTIONS.rewriteInIndex);
      steps.push({
        label: `${name}: put the entry`,
        expression: w.oldEntryBytes === undefined ? `ceil(${bytesText(after)} / 1,024 B)` : `ceil(max(${bytesText(w.oldEntryBytes)}, ${bytesText(after)}) / 1,024 B)`,
        value: writeBlocksForBytes(bytes),
        unit: 'WCU',
        source: indexSource,
      });
      break;
    }
    case 'delete': {
      const before = requireBytes(w.oldEntryBytes, `oldEntryBytes of ${name} (effect delete)`);
      steps.push({ label: `${name}: delete the entry`, expression: `ceil(${bytesText(before)} / 1,024 B)`, value: writeBlocksForBytes(before), unit: 'WCU', source: indexSource });
      break;
    }
    case 'move': {
      const before = requireBytes(w.oldEntryBytes, `oldEntryBytes of ${name} (effect move)`);
      const after = requireBytes(w.newEntryBytes, `newEntryBytes of ${name} (effect move)`);
      const del = writeBlocksForBytes(before);
      const put = writeBlocksForBytes(after);
      assumptions.push(ASSUMPTIONS.twoSizedMove);
      steps.push({ label: `${name}: delete the old entry`, expression: `ceil(${bytesText(before)} / 1,024 B)`, value: del, unit: 'WCU', source: indexSource });
      steps.push({ label: `${name}: put the new entry`, expression: `ceil(${bytesText(after)} / 1,024 B)`, value: put, unit: 'WCU', source: indexSource });
      steps.push({ label: `${name}: the key changed, so delete + put`, expression: `${del} + ${put}`, value: del + put, unit: 'WCU', source: indexSource });
      break;
    }
  }
  return figure(steps, assumptions);
}

/**
 * Write units of a PutItem, UpdateItem or DeleteItem and the index writes it triggers (docs/dynamodb-rules.md §3.2–3.4):
 * the table is charged the larger of the item before and after, rounded up to 1 KB (a delete of a
 * missing key: 1); each index write is its entry rounded up to 1 KB (a key change: delete + put).
 * In a transaction the table write doubles and index writes stay 1× (docs/dynamodb-rules.md §10.12). GSI writes come from
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
    for (const n of lsiNames) tableSteps.push(...(lsis[n]?.steps ?? []));
    tableSteps.push({
      label: 'LSI writes, charged to the table',
      expression: lsiNames.map((n) => `${n} ${formatNumber(lsis[n]?.value ?? 0)}`).join(' + '),
      value: lsiUnits,
      unit: 'WCU',
      source: LSI_WRITE_SOURCE,
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
  // The whole derivation: the table's steps (item size, 1 KB rounding, LSIs), then each GSI's
  // (why it is or is not written, its entry rounded up to 1 KB), then the sum.
  const totalSteps: Step[] = [
    ...tableFigure.steps,
    { label: lsiNames.length > 0 ? 'Table, with its LSIs' : 'Table', expression: formatNumber(tableFigure.value), value: tableFigure.value, unit: 'WCU' },
  ];
  for (const n of gsiNames) {
    const v = gsis[n]?.value ?? 0;
    totalSteps.push(...(gsis[n]?.steps ?? []));
    totalSteps.push({ label: `GSI ${JSON.stringify(n)}, from its own capacity`, expression: formatNumber(v), value: v, unit: 'WCU', source: GSI_WRITE_SOURCE });
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

function perItemWrites(sizes: ReadonlyArray<number | undefined>, transactional: boolean, source: DocSource): Figure {
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
 * Table write units of a BatchWriteItem (docs/dynamodb-rules.md §3.2): each put or delete rounded up to 1 KB on its own,
 * then added; `undefined` is a delete of a missing key (1). Index writes are not included: compose
 * them per item with `writeUnits`. E-27.
 */
export function batchWriteUnits(sizes: ReadonlyArray<number | undefined>): Figure {
  return perItemWrites(sizes, false, WRITE_SOURCE);
}

/**
 * Table write units of a TransactWriteItems (docs/dynamodb-rules.md §3.2): 2 × each item rounded up to 1 KB (for an update,
 * pass the larger of before and after). Index writes are not included. E-28.
 */
export function transactWriteUnits(sizes: ReadonlyArray<number | undefined>): Figure {
  return perItemWrites(sizes, true, TRANSACTION_SOURCE);
}

// ---------------------------------------------------------------------------------------------
// Throughput of provisioned capacity

/** The most data per second `wcu` write units can write (E-30): wcu / (1 | 2) × 1 KB. */
export function maxWriteBytesPerSecond(wcu: number, transactional: boolean): Figure {
  const factor = transactional ? TRANSACTIONAL_WRITE_FACTOR : 1;
  return figure([
    { label: 'Write capacity', expression: formatNumber(wcu), value: wcu, unit: 'WCU/s' },
    { label: `1 KB writes per second${transactional ? ' (transactional: 2 units each)' : ''}`, expression: `${formatNumber(wcu)} / ${factor}`, value: wcu / factor, unit: 'units' },
    { label: 'Bytes per second', expression: `${formatNumber(wcu / factor)} × 1,024 B`, value: (wcu / factor) * WRITE_UNIT_BYTES, unit: 'B/s', source: WRITE_SOURCE },
  ]);
}
