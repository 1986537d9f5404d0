/**
 * What a read plan consumes per call: GetItem, BatchGetItem, Query (with an LSI's fetches, or a
 * GSI's fetches from the table beside it) and Scan, on the average size of the items it reads. The
 * unit rules are `capacity`'s; this module picks the sizes and says who pays.
 */
import {
  batchGetReadUnits,
  getItemReadUnits,
  queryReadUnits,
  scanReadUnits,
  figure,
  formatNumber,
  lazyFigure,
  type Figure,
  type Step,
  READ_UNITS_PER_BLOCK,
  readBlocksForBytes,
  AWS_DOCS,
} from '../capacity/index.ts';
import type { Table } from '../model/index.ts';
import type { Plan, Target } from '../planner/index.ts';
import { entityOf, ESTIMATED_SIZES, type SizeEstimates } from './size-estimates.ts';

/** ProjectionExpression has no effect on the capacity a read consumes. */
const PROJECTION_EXPRESSION_SOURCE = AWS_DOCS.projectionExpressions;
/** Each GetItem or BatchGetItem item is rounded up to 4 KB on its own. */
const READ_CONSUMPTION_SOURCE = AWS_DOCS.readWriteUnits;

/** Average bytes per item read, weighted by how many items of each entity the plan reads (`target` the table: whole items). */
export function averageReadBytes(table: Table, plan: Plan, target: Target = plan.target, sizes: SizeEstimates = ESTIMATED_SIZES): Figure {
  const parts = plan.entitiesRead
    .map((read) => {
      const entity = entityOf(table, read.entityId);
      if (!entity) return undefined;
      const size =
        target.kind === 'table'
          ? sizes.item(table, entity)
          : sizes.entry(table, entity, { kind: target.kind, name: target.name });
      return { read, size };
    })
    .filter((p): p is NonNullable<typeof p> => p !== undefined);
  const total = parts.reduce((sum, p) => sum + p.read.items, 0);
  if (parts.length === 0 || total <= 0) {
    const only = parts[0];
    return only ? only.size : figure([{ label: 'Item size', expression: 'no items read', value: 0, unit: 'B' }]);
  }
  if (parts.length === 1) return parts[0]!.size;
  const bytes = parts.reduce((sum, p) => sum + p.read.items * p.size.value, 0) / total;
  const reads = parts.map((p) => ({ name: p.read.name, items: p.read.items, size: p.size.value }));
  const build = (): Step[] => {
    const steps: Step[] = reads.map((r) => ({
      label: `${r.name}: ${formatNumber(r.items)} items of ${formatNumber(r.size)} B`,
      expression: `${formatNumber(r.items)} × ${formatNumber(r.size)} B`,
      value: r.items * r.size,
      unit: 'B',
    }));
    steps.push({
      label: 'Average size of the items read',
      expression: `${steps.map((s) => formatNumber(s.value)).join(' + ')} B / ${formatNumber(total)} items`,
      value: bytes,
      unit: 'B',
    });
    return steps;
  };
  return lazyFigure(bytes, 'B', build, [...new Set(parts.flatMap((p) => p.size.assumptions))]);
}

function readTargetOf(target: Target): 'table' | 'gsi' | 'lsi' {
  return target.kind;
}

/** `rest` preceded by how its input was found; a first step of `rest` restating that input is dropped. */
function withPrefix(prefix: Figure, rest: Figure): Figure {
  const [first, ...others] = rest.steps;
  const restates = first !== undefined && first.unit === prefix.unit && Math.abs(first.value - prefix.value) < 1e-9;
  const tail = restates ? others : rest.steps;
  // The last step decides the value, as in `figure`: the prefix's when nothing of `rest` is left.
  const last = tail.at(-1) ?? { value: prefix.value, unit: prefix.unit };
  return lazyFigure(last.value, last.unit, () => [...prefix.steps, ...tail], [...new Set([...prefix.assumptions, ...rest.assumptions])]);
}

/** Read units per pattern call, split by whose capacity pays: the target (table or GSI) and, for a GSI fetch, the table. */
export interface ReadUnits {
  total: Figure;
  /** Units charged to the plan's target (the table for the table and LSIs, else the GSI). */
  onTarget: number;
  /** Units charged to the table by a GSI plan's fetches. */
  onTable: number;
}

/** A step saying that returning fewer attributes does not lower the units (docs/dynamodb-rules.md §2.1). */
function projectionExpressionStep(plan: Plan, sizeValue: number): Step | undefined {
  if (!Array.isArray(plan.returns)) return undefined;
  return {
    label: `Returns only ${plan.returns.join(', ') || 'the key'} (ProjectionExpression): charged on the full ${plan.target.kind === 'table' ? 'item' : 'index entry'} size all the same`,
    expression: `${formatNumber(sizeValue)} B per item`,
    value: sizeValue,
    unit: '',
    source: PROJECTION_EXPRESSION_SOURCE,
  };
}

function withSteps(prefix: Step[], rest: Figure): Figure {
  return prefix.length === 0 ? rest : figure([...prefix, ...rest.steps], rest.assumptions);
}

/** A read plan's units per call, with what the target's capacity and the table's (a GSI's fetches) pay of them. */
export function readPerRequest(table: Table, plan: Plan, sizes: SizeEstimates): ReadUnits {
  const size = averageReadBytes(table, plan, plan.target, sizes);
  const pe = projectionExpressionStep(plan, size.value);
  const head = pe ? [pe] : [];
  const only = (f: Figure): ReadUnits => ({ total: f, onTarget: f.value, onTable: 0 });
  switch (plan.operation) {
    case 'GetItem':
      return only(withPrefix(size, withSteps(head, getItemReadUnits(size.value, plan.consistency))));
    case 'BatchGetItem': {
      // Keys that find nothing (a fan-out over shards asks every shard) cost the minimum each (docs/dynamodb-rules.md §2.2, docs/dynamodb-rules.md §5).
      const keys = Math.max(1, Math.round(plan.itemsRead));
      const found = Math.min(keys, Math.max(0, Math.round(plan.itemsReturned)));
      const sizes = Array.from({ length: keys }, (_, i) => (i < found ? size.value : undefined));
      return only(withPrefix(size, withSteps(head, batchGetReadUnits(sizes, plan.consistency))));
    }
    case 'Scan':
      return only(scanOf(table, plan.consistency, plan.filter !== undefined ? plan.itemsReturned : undefined, sizes));
    default: {
      const fetch = plan.fetch;
      const baseItem = fetch ? averageReadBytes(table, plan, { kind: 'table' }, sizes) : undefined;
      const query = withPrefix(
        size,
        withSteps(
          head,
          queryReadUnits({
            itemCount: plan.itemsRead,
            itemBytes: size.value,
            consistency: plan.consistency,
            target: readTargetOf(plan.target),
            requests: plan.requests,
            // The "a filter does not lower the cost" step belongs only to a pattern that filters.
            ...(plan.filter !== undefined ? { itemsReturned: plan.itemsReturned } : {}),
            ...(fetch?.kind === 'lsi' && baseItem ? { lsiFetch: { baseItemBytes: baseItem.value } } : {}),
          }),
        ),
      );
      if (fetch?.kind !== 'gsi' || !baseItem) return only(query);
      const fetchUnits = fetchReadUnits(fetch, baseItem.value);
      const total = lazyFigure(
        query.value + fetchUnits.value,
        'RCU',
        () => [
          ...query.steps.map((st, i) => (i === query.steps.length - 1 ? { ...st, label: `${st.label} (the GSI Query, on ${fetch.index}'s capacity)` } : st)),
          ...baseItem.steps.map((st, i) => (i === baseItem.steps.length - 1 ? { ...st, label: `Base item fetched from the table: ${st.label.charAt(0).toLowerCase()}${st.label.slice(1)}` } : st)),
          ...fetchUnits.steps,
          {
            label: `Read units in all: the GSI Query plus the fetches from the table`,
            expression: `${formatNumber(query.value, 4)} + ${formatNumber(fetchUnits.value, 4)}`,
            value: query.value + fetchUnits.value,
            unit: 'RCU',
          },
        ],
        [...new Set([...query.assumptions, ...fetchUnits.assumptions])],
      );
      return { total, onTarget: query.value, onTable: fetchUnits.value };
    }
  }
}

/**
 * The GetItem/BatchGetItem reads a caller sends to the table for each item a GSI Query returned
 * without the attributes it needs: each item rounded up to 4 KB on its own (docs/dynamodb-rules.md §2.2), at the fetch's
 * consistency. Fractional item counts are averages.
 */
function fetchReadUnits(fetch: NonNullable<Plan['fetch']>, itemBytes: number): Figure {
  const blocks = readBlocksForBytes(itemBytes);
  const factor = READ_UNITS_PER_BLOCK[fetch.consistency];
  const op = fetch.operation ?? 'BatchGetItem';
  return lazyFigure(fetch.items * blocks * factor, 'RCU', () => [
    {
      label:
        `${op} from the table for each item, each rounded up to 4 KB on its own` +
        (fetch.missingForFilter.length > 0 ? ` (every item read: the caller tests ${fetch.missingForFilter.join(', ')} after the fetch)` : ''),
      expression: `${formatNumber(fetch.items, 4)} item${fetch.items === 1 ? '' : 's'} × ceil(${formatNumber(itemBytes)} B / 4,096 B)`,
      value: fetch.items * blocks,
      unit: 'units',
      source: fetch.consistency === 'transactional' ? AWS_DOCS.transactions : READ_CONSUMPTION_SOURCE,
    },
    {
      label: `Fetch read units, ${fetch.consistency === 'eventual' ? 'eventually consistent: half a unit per 4 KB' : fetch.consistency === 'strong' ? 'strongly consistent: one unit per 4 KB' : 'transactional: two units per 4 KB'} (charged on the table)`,
      expression: `${formatNumber(fetch.items * blocks, 4)} × ${factor}`,
      value: fetch.items * blocks * factor,
      unit: 'RCU',
      source: READ_CONSUMPTION_SOURCE,
    },
  ]);
}

/** A Scan of the whole table: every entity's items, whatever the filter keeps. */
export function scanOf(table: Table, consistency: Plan['consistency'], itemsReturned?: number, sizes: SizeEstimates = ESTIMATED_SIZES): Figure {
  return scanReadUnits({
    segments: table.entities.map((e) => ({ itemCount: e.itemCount, itemBytes: sizes.item(table, e).value, label: e.name })),
    consistency: consistency === 'transactional' ? 'strong' : consistency,
    ...(itemsReturned !== undefined ? { itemsReturned } : {}),
  });
}
