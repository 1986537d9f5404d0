/**
 * The single-table design sheet: what a review of a DynamoDB design reads on one page.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/design-sheet/sheet.ts".
 */
import type { Figure } from '../../capacity/index.ts';
import { costDesign, type DesignCost, type TableCost } from '../../costing/index.ts';
import type { Design, Pricing, Table } from '../../model/index.ts';
import { entityChart, type EntityChartPart } from './entity-chart.ts';
import { patternRows, type PatternRow } from './pattern-chart.ts';
import { indexSettings, tableSettings, type IndexSetting, type Setting } from './settings.ts';

/** The sheet of one table: its settings, indexes, entity chart and access-pattern chart. */
export interface TableSheet {
  tableId: string;
  name: string;
  settings: Setting[];
  indexes: IndexSetting[];
  entityChart: EntityChartPart[];
  /** The number of entities (the chart has no row when there is none). */
  entityCount: number;
  /** Whether some entity has no key for some index (an empty cell of the chart): it is not in that index. */
  hasEntitiesOutsideAnIndex: boolean;
  patterns: PatternRow[];
  /** Requests on-demand per month, every pattern of the table (the sum of the on-demand column). */
  onDemandRequestsMonthly?: Figure;
  /** The table's and its GSIs' provisioned capacity per month: its bill, not the sum of the patterns' shares. */
  provisionedCapacityMonthly?: Figure;
}

/** The monthly totals of the costs screen. */
export interface SheetTotals {
  onDemandMonthly: Figure;
  provisionedMonthly: Figure;
  storageMonthly: Figure;
}

/** The design sheet of a whole design: one sheet per table, and the monthly totals. */
export interface DesignSheet {
  name: string;
  description: string | undefined;
  tables: TableSheet[];
  /** Undefined when the costs cannot be computed (then `costError` says why). */
  totals: SheetTotals | undefined;
  costError: string | undefined;
  pricing: Pricing | undefined;
}

/** What `designSheet` is given as costs: the document's (already computed), or nothing to compute them. */
export type SheetCosts = { ok: true; value: DesignCost } | { ok: false; error: string };

function tableSheet(table: Table, cost: TableCost | undefined): TableSheet {
  const chart = entityChart(table);
  const sheet: TableSheet = {
    tableId: table.id,
    name: table.name,
    settings: tableSettings(table),
    indexes: indexSettings(table),
    entityChart: chart,
    entityCount: table.entities.length,
    hasEntitiesOutsideAnIndex: chart.some((part) => part.rows.some((r) => r.cells.includes(undefined))),
    patterns: patternRows(table, cost),
  };
  if (cost) {
    sheet.onDemandRequestsMonthly = cost.onDemandMonthly;
    sheet.provisionedCapacityMonthly = cost.provisionedMonthly;
  }
  return sheet;
}

function computeCosts(design: Design): SheetCosts {
  try {
    return { ok: true, value: costDesign(design) };
  } catch (error) {
    // A half-made design may trip the planner: the sheet still shows its keys and settings.
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The design sheet of a design. `costs` are the design's costs when the caller has them (the
 * document computes them at each edit); otherwise they are computed here. Pure: the same design
 * gives the same sheet.
 */
export function designSheet(design: Design, costs: SheetCosts = computeCosts(design)): DesignSheet {
  const value = costs.ok ? costs.value : undefined;
  return {
    name: design.name,
    description: design.description,
    tables: design.tables.map((t) => tableSheet(t, value?.tables.find((c) => c.tableId === t.id))),
    totals: value ? { onDemandMonthly: value.onDemandMonthly, provisionedMonthly: value.provisionedMonthly, storageMonthly: value.storageMonthly } : undefined,
    costError: costs.ok ? undefined : costs.error,
    pricing: value?.pricing,
  };
}
