/**
 * The design sheet's entity chart: one row per entity, one column per key attribute of the table and
 * of each index, each cell the entity's key template there (empty: not in that index). A chart wider
 * than `MAX_KEY_COLUMNS_PER_CHART` continues in another part.
 */
import { formatNumber } from '../../numbers/index.ts';
import { partitionKeysOf, sortKeysOf, bindingOf, gsiKeySourceOf } from '../../model/index.ts';
import type { Entity, KeyAttribute, KeyBinding, Table } from '../../model/index.ts';

/**
 * Key attribute columns in one part of the entity chart: beyond it the chart continues in another
 * part (its entity column repeated), so a design with many indexes stays readable without scrolling
 * sideways. Six columns hold the table and two GSIs.
 */
export const MAX_KEY_COLUMNS_PER_CHART = 6;

/** One key attribute of the table or of an index: one column of the entity chart. */
export interface KeyColumn {
  /** The attribute's name, e.g. `GSI1PK`. */
  attribute: string;
  role: 'partition key' | 'sort key';
  type: KeyAttribute['type'];
  /** In a multi-attribute GSI key: the attribute's place in its part (0-based) and the part's length. */
  position?: { index: number; of: number };
}

/** The table or one index, with its key attributes: a group of columns of the entity chart. */
export interface IndexGroup {
  kind: 'table' | 'gsi' | 'lsi';
  name: string;
  /** `Table`, `GSI GSI1`, `LSI ByDate`. */
  label: string;
  columns: KeyColumn[];
}

/** An entity's key template for one key attribute. */
export interface KeyCell {
  template: string;
  /** Sparse by predicate: the item carries the key only when this holds. */
  when?: string;
  /** Write sharding: `10 suffixes, random`. */
  shards?: string;
}

/** One row of the entity chart: an entity and its key templates. */
export interface EntityRow {
  entityId: string;
  name: string;
  /** One per column of the part, in order; undefined where the entity has no template (not in that index). */
  cells: (KeyCell | undefined)[];
}

/** One part of the entity chart: some of the index groups, every entity. */
export interface EntityChartPart {
  groups: IndexGroup[];
  rows: EntityRow[];
}

function indexGroups(table: Table): IndexGroup[] {
  const column = (k: KeyAttribute, role: KeyColumn['role']): KeyColumn => ({ attribute: k.name, role, type: k.type });
  const part = (attributes: KeyAttribute[], role: KeyColumn['role']): KeyColumn[] =>
    attributes.map((k, index) => (attributes.length > 1 ? { ...column(k, role), position: { index, of: attributes.length } } : column(k, role)));
  return [
    { kind: 'table', name: table.name, label: 'Table', columns: [column(table.partitionKey, 'partition key'), ...(table.sortKey ? [column(table.sortKey, 'sort key')] : [])] },
    ...table.globalSecondaryIndexes.map((g): IndexGroup => ({
      kind: 'gsi',
      name: g.name,
      label: `GSI ${g.name}`,
      columns: [...part(partitionKeysOf(g), 'partition key'), ...part(sortKeysOf(g), 'sort key')],
    })),
    // An LSI's partition key is the table's: its own column is its sort key.
    ...table.localSecondaryIndexes.map((l): IndexGroup => ({ kind: 'lsi', name: l.name, label: `LSI ${l.name}`, columns: [column(l.sortKey, 'sort key')] })),
  ];
}

/** Index groups in parts of at most `MAX_KEY_COLUMNS_PER_CHART` columns (a group is never split). */
function chartParts(groups: IndexGroup[]): IndexGroup[][] {
  const parts: IndexGroup[][] = [];
  let current: IndexGroup[] = [];
  let width = 0;
  for (const g of groups) {
    if (current.length > 0 && width + g.columns.length > MAX_KEY_COLUMNS_PER_CHART) {
      parts.push(current);
      current = [];
      width = 0;
    }
    current.push(g);
    width += g.columns.length;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

function keyCell(binding: KeyBinding | undefined): KeyCell | undefined {
  if (!binding) return undefined;
  const cell: KeyCell = { template: binding.template };
  if (binding.when !== undefined && binding.when.trim() !== '') cell.when = binding.when;
  if (binding.shards) {
    const s = binding.shards;
    cell.shards = `sharded: ${formatNumber(s.count)} suffixes, ${s.method === 'random' ? 'random' : `calculated from ${s.from ?? '?'}`}`;
  }
  return cell;
}

function gsiKeyCell(entity: Entity, attribute: string): KeyCell | undefined {
  const source = gsiKeySourceOf(entity, attribute);
  if (!source) return undefined;
  return source.binding ? keyCell(source.binding) : { template: source.template };
}

/** The entity chart of a table, in parts of at most `MAX_KEY_COLUMNS_PER_CHART` key columns. */
export function entityChart(table: Table): EntityChartPart[] {
  const entities: Entity[] = table.entities;
  return chartParts(indexGroups(table)).map((groups) => ({
    groups,
    rows: entities.map((e) => ({
      entityId: e.id,
      name: e.name,
      // A GSI key attribute the entity carries without a template is a natural key: its items hold
      // the attribute itself (`{region}`), as multi-attribute keys use it.
      cells: groups.flatMap((g) => g.columns.map((c) => (g.kind === 'gsi' ? gsiKeyCell(e, c.attribute) : keyCell(bindingOf(e, c.attribute))))),
    })),
  }));
}
