/**
 * Compares two or more designs for the same application side by side: per access pattern the plan
 * and its cost, per table and index the key schema, projection, billing and load, the totals, the
 * partition risk from the simulator (same workload and seed on every side) and the warnings only
 * some designs have. Every row says which side is better by a stated rule, or that they tie.
 */
import { figure, formatNumber, type Figure, type Step, type Unit } from '../capacity/index.ts';
import {
  costDesign,
  type CostWarning,
  type DesignCost,
  type PatternCost,
  type TableCost,
  type TargetCost,
} from '../costing/index.ts';
import type { Design, GlobalSecondaryIndex, LocalSecondaryIndex, Table, Workload } from '../model/index.ts';
import { DEFAULT_WORKLOAD, simulate } from '../partition/index.ts';
import type { SimulationResult } from '../partition/index.ts';
import { matchItems, nameKey, type MatchGroup, type MatchKind } from './match.ts';
import { sideLetter } from './labels.ts';
import { BETTER_RULES, NEEDS_KEY_DESIGN, makeRow, type BetterRule, type ComparisonCell, type ComparisonRow, type RowFormat } from './rows.ts';
import { billingText, capacityText, keyText, projectionText } from './schema-text.ts';
import { summarizeComparison } from './summary.ts';
import type { ComparisonSummary, PlanSummary, PatternComparison, SchemaComparison, TableComparison, TargetRiskComparison, PartitionRiskComparison, WarningComparison, ComparisonReport } from './types.ts';
export type { PlanSummary, PatternComparison, SchemaComparison, TableComparison, TargetRiskComparison, PartitionRiskComparison, WarningComparison, ComparisonSide, ComparisonReport } from './types.ts';

/** One design to compare, with its short label (a file name, a revision) and what it is in full. */
export interface LabeledDesign {
  /** Short: `shop.keyplan.json`, `shop.keyplan.json · saved 14:03`; the same kind on every side. */
  label: string;
  /** In full, for a legend or tooltip (default: the label). */
  description?: string;
  design: Design;
}

export interface CompareOptions {
  /** The seed of every side's simulation; default the workload's seed. */
  seed?: number;
  /** Run the partition simulator on every side (default true; it takes the longest). */
  simulate?: boolean;
  /** The workload every side is simulated with; default the first design's, else one hour. */
  workload?: Workload;
  /**
   * Simulation results already run elsewhere (the app runs them in the host's worker), per side by
   * table id, with the same workload and seed on each side; used instead of simulating here.
   */
  simulations?: ReadonlyArray<ReadonlyMap<string, SimulationResult>>;
}

const num = (value: number | undefined, fig?: Figure): ComparisonCell =>
  value === undefined ? { value: null } : fig ? { value, figure: fig } : { value };
const text = (value: string | undefined): ComparisonCell => ({ value: value ?? null });
/** The cell marked as leaving out patterns that need a key design (`ComparisonCell.partial`). */
const partialIf = (cell: ComparisonCell, isPartial: boolean): ComparisonCell => (isPartial && cell.value !== null ? { ...cell, partial: true } : cell);

function planSummary(cost: PatternCost): PlanSummary {
  const { plan } = cost;
  return {
    operation: plan.operation,
    badge: plan.badge,
    index: plan.target.kind === 'table' ? 'table' : plan.target.name,
    indexKind: plan.target.kind,
    ...(plan.keyCondition === undefined ? {} : { keyCondition: plan.keyCondition }),
    isServed: plan.isServed,
    requests: plan.requests,
  };
}

interface PatternRef {
  tableIndex: number;
  table: TableCost;
  cost: PatternCost;
}

/** The operation, with the fetches a plan adds when its index lacks what the pattern needs. */
function operationText(plan: PatternCost['plan']): string {
  if (!plan.fetch) return plan.operation;
  return plan.fetch.kind === 'gsi' ? `${plan.operation} + ${plan.fetch.operation ?? 'BatchGetItem'} from the table` : `${plan.operation} + base-item fetches`;
}

/**
 * Whether the pattern has a cost: one that needs a key design yet (no entity, or no key templates
 * for it) has zero figures that are not a cost, so its cells hold no number and take no part.
 */
function isCosted(cost: PatternCost): boolean {
  return !('needsKeyDesign' in cost && cost.needsKeyDesign !== undefined) && (cost.plan.operation as string) !== 'None';
}

function patternRows(key: string, refs: (PatternRef | undefined)[]): ComparisonRow[] {
  const kinds = new Set(refs.flatMap((r) => (r ? [r.cost.kind] : [])));
  const unit = kinds.size === 1 ? ([...kinds][0] === 'read' ? 'RCU' : 'WCU') : 'Units';
  const row = (id: string, label: string, format: RowFormat, rule: BetterRule, cell: (r: PatternRef) => ComparisonCell) =>
    makeRow(`${key}:${id}`, label, format, rule, refs.map((r) => (r ? (id === 'operation' || isCosted(r.cost) ? cell(r) : { value: null }) : { value: null })));
  return [
    row('operation', 'Operation', 'text', 'access', (r) => text(isCosted(r.cost) ? operationText(r.cost.plan) : NEEDS_KEY_DESIGN)),
    ...(refs.some((r) => r?.cost.plan.fetch)
      ? [row('fetch', 'Items fetched from the table', 'count', 'lower', (r) => num(r.cost.kind === 'read' ? (r.cost.plan.fetch?.items ?? 0) : undefined))]
      : []),
    row('index', 'Index', 'text', 'none', (r) => text(r.cost.plan.target.kind === 'table' ? 'table' : `${r.cost.plan.target.kind.toUpperCase()} ${r.cost.plan.target.name}`)),
    row('keyCondition', 'Key condition', 'text', 'none', (r) => text(r.cost.plan.keyCondition ?? '(none: Scan)')),
    row('perRequest', `${unit} per request`, 'units', 'lower', (r) => num(r.cost.perRequest.value, r.cost.perRequest)),
    row('perSecond', `${unit} per second`, 'units', 'lower', (r) => num(r.cost.perSecond.value, r.cost.perSecond)),
    row('onDemand', 'On-demand $/month', 'usd', 'lower', (r) => num(r.cost.monthly.onDemand.value, r.cost.monthly.onDemand)),
    row('provisioned', 'Provisioned $/month', 'usd', 'lower', (r) => num(r.cost.monthly.provisioned.value, r.cost.monthly.provisioned)),
  ];
}

type Index = ({ kind: 'gsi' } & GlobalSecondaryIndex) | ({ kind: 'lsi' } & LocalSecondaryIndex);

function indexesOf(table: Table): Index[] {
  return [...table.globalSecondaryIndexes.map((g) => ({ ...g, kind: 'gsi' as const })), ...table.localSecondaryIndexes.map((l) => ({ ...l, kind: 'lsi' as const }))];
}

/** The load rows of the table or a GSI, from the costs. */
function loadRows(key: string, targets: (TargetCost | undefined)[], partial: readonly boolean[]): ComparisonRow[] {
  const row = (id: string, label: string, format: RowFormat, pick: (t: TargetCost) => Figure) =>
    makeRow(`${key}:${id}`, label, format, 'lower', targets.map((t, side) => (t ? partialIf(num(pick(t).value, pick(t)), partial[side] === true) : { value: null })));
  return [
    row('reads', 'Reads (RCU/s)', 'units', (t) => t.readUnitsPerSecond),
    row('writes', 'Writes (WCU/s)', 'units', (t) => t.writeUnitsPerSecond),
    row('storage', 'Storage', 'bytes', (t) => t.storageBytes),
    row('provisionedMonthly', 'Provisioned $/month', 'usd', (t) => t.provisionedMonthly),
  ];
}

function tableComparison(group: MatchGroup<{ table: Table; cost: TableCost }>, key: string): TableComparison {
  const sides = group.items;
  const first = sides.find((s) => s !== undefined)!;
  // A table whose costs leave out patterns that need a key design: its loads are shown, not judged.
  const leavesOut = sides.map((s) => (s?.cost.needingKeyDesign.length ?? 0) > 0);
  const tablePart: SchemaComparison = {
    key: `${key}:table`,
    name: 'table',
    kind: 'table',
    names: sides.map((s) => s?.table.name ?? null),
    match: group.match,
    rows: [
      makeRow(`${key}:table:partitionKey`, 'Partition key', 'text', 'none', sides.map((s) => text(s && keyText(s.table.partitionKey)))),
      makeRow(`${key}:table:sortKey`, 'Sort key', 'text', 'none', sides.map((s) => (s ? text(keyText(s.table.sortKey) ?? '(none)') : text(undefined)))),
      makeRow(`${key}:table:billing`, 'Billing', 'text', 'none', sides.map((s) => text(s && billingText(s.table.billing)))),
      makeRow(`${key}:table:tableClass`, 'Table class', 'text', 'none', sides.map((s) => text(s?.table.tableClass))),
      ...loadRows(`${key}:table`, sides.map((s) => s?.cost.targets.find((t) => t.kind === 'table')), leavesOut),
    ],
  };
  const indexGroups = matchItems(
    sides.map((s) => (s ? indexesOf(s.table) : [])),
    [{ kind: 'name', keyOf: (i) => i.name }],
  );
  const indexParts = indexGroups.map((g): SchemaComparison => {
    const present = g.items.find((i) => i !== undefined)!;
    const ikey = `${key}:index:${present.name}`;
    const items = g.items;
    const rows = [
      makeRow(`${ikey}:kind`, 'Kind', 'text', 'none', items.map((i) => text(i?.kind.toUpperCase()))),
      makeRow(`${ikey}:partitionKey`, 'Partition key', 'text', 'none', items.map((i, side) => text(i && (i.kind === 'gsi' ? keyText(i.partitionKey) : keyText(sides[side]?.table.partitionKey))))),
      makeRow(`${ikey}:sortKey`, 'Sort key', 'text', 'none', items.map((i) => (i ? text(keyText(i.sortKey) ?? '(none)') : text(undefined)))),
      makeRow(`${ikey}:projection`, 'Projection', 'text', 'none', items.map((i) => text(i && projectionText(i.projection)))),
    ];
    if (items.some((i) => i?.kind === 'gsi' && i.provisioned) || items.some((_, side) => sides[side]?.table.billing.mode === 'PROVISIONED')) {
      rows.push(
        makeRow(`${ikey}:billing`, 'Provisioned', 'text', 'none', items.map((i) => (i ? text(i.kind === 'gsi' && i.provisioned ? capacityText(i.provisioned) : '-') : text(undefined)))),
      );
    }
    if (items.some((i) => i?.kind === 'gsi')) {
      rows.push(...loadRows(ikey, items.map((i, side) => (i?.kind === 'gsi' ? sides[side]?.cost.targets.find((t) => t.kind === 'gsi' && t.name === i.name) : undefined)), leavesOut));
    }
    return { key: ikey, name: present.name, kind: present.kind, names: items.map((i) => i?.name ?? null), match: g.match, rows };
  });
  return { key, name: first.table.name, names: sides.map((s) => s?.table.name ?? null), match: group.match === 'id' ? 'name' : group.match, parts: [tablePart, ...indexParts] };
}

/** A sum of parts as a figure whose steps name each part. */
function sumOf(label: string, unit: Unit, parts: { label: string; figure: Figure }[]): Figure {
  const value = parts.reduce((s, p) => s + p.figure.value, 0);
  const steps: Step[] = parts.map((p) => ({ label: p.label, expression: formatNumber(p.figure.value, 4), value: p.figure.value, unit }));
  steps.push({ label, expression: parts.length === 0 ? 'nothing' : parts.map((p) => formatNumber(p.figure.value, 4)).join(' + '), value, unit });
  return figure(steps, [...new Set(parts.flatMap((p) => p.figure.assumptions))]);
}

function totalRows(costs: DesignCost[]): ComparisonRow[] {
  const targetsOf = (c: DesignCost) => c.tables.flatMap((t) => t.targets.map((x) => ({ table: t.name, target: x })));
  const targetLabel = (table: string, t: TargetCost) => `Table ${table}${t.kind === 'gsi' ? `, GSI ${t.name}` : ''}`;
  const reads = costs.map((c) => sumOf('Reads, all tables and GSIs', 'RCU/s', targetsOf(c).map((x) => ({ label: targetLabel(x.table, x.target), figure: x.target.readUnitsPerSecond }))));
  const writes = costs.map((c) => sumOf('Writes, all tables and GSIs', 'WCU/s', targetsOf(c).map((x) => ({ label: targetLabel(x.table, x.target), figure: x.target.writeUnitsPerSecond }))));
  const storage = costs.map((c) => sumOf('Storage, all tables and indexes', 'B', c.tables.map((t) => ({ label: `Table ${t.name}`, figure: t.storageBytes }))));
  // A design whose totals leave out patterns that need a key design is shown, not judged.
  const row = (id: string, label: string, format: RowFormat, figures: Figure[]) =>
    makeRow(`totals:${id}`, label, format, 'lower', figures.map((f, side) => partialIf(num(f.value, f), (costs[side]?.patternsNeedingKeyDesign ?? 0) > 0)));
  return [
    row('reads', 'Reads (RCU/s)', 'units', reads),
    row('writes', 'Writes (WCU/s)', 'units', writes),
    row('storage', 'Storage', 'bytes', storage),
    row('storageMonthly', 'Storage $/month', 'usd', costs.map((c) => c.storageMonthly)),
    row('onDemandMonthly', 'On-demand $/month', 'usd', costs.map((c) => c.onDemandMonthly)),
    row('provisionedMonthly', 'Provisioned $/month', 'usd', costs.map((c) => c.provisionedMonthly)),
  ];
}

function partitionRisk(
  designs: readonly LabeledDesign[],
  tableGroups: MatchGroup<{ table: Table; cost: TableCost }>[],
  tableKeys: string[],
  patternKeyOf: (side: number, tableId: string, patternId: string) => string | undefined,
  patternOrder: string[],
  options: CompareOptions,
): PartitionRiskComparison {
  const workload = options.workload ?? designs[0]?.design.workload ?? DEFAULT_WORKLOAD;
  const seed = options.seed ?? workload.seed;
  const results =
    options.simulations ?? designs.map(({ design }) => new Map<string, SimulationResult>(design.tables.map((t) => [t.id, simulate(design, t.id, { seed, workload })])));
  const targets: TargetRiskComparison[] = [];
  tableGroups.forEach((group, gi) => {
    const perSide = group.items.map((item, side) => (item ? results[side]!.get(item.table.id) : undefined));
    const targetGroups = matchItems(perSide.map((r) => r?.targets ?? []), [{ kind: 'name', keyOf: (t) => t.name }]);
    const table = group.items.find((i) => i !== undefined)!.table.name;
    for (const tg of targetGroups) {
      const name = tg.items.find((t) => t !== undefined)!.name;
      const key = `${tableKeys[gi]}:risk:${name}`;
      const cells = (pick: (t: NonNullable<(typeof tg.items)[number]>) => number) => tg.items.map((t) => num(t ? pick(t) : undefined));
      targets.push({
        key,
        table,
        target: name,
        rows: [
          makeRow(`${key}:largestShare`, 'Largest partition share', 'share', 'lower', cells((t) => t.largestShare)),
          makeRow(`${key}:throttledTime`, 'Throttled time', 'share', 'lower', cells((t) => t.throttledTimeShare)),
          makeRow(`${key}:partitions`, 'Partitions', 'count', 'none', cells((t) => t.partitionCount)),
        ],
      });
    }
  });
  const fractions = new Map<string, (number | undefined)[]>(patternOrder.map((k) => [k, designs.map(() => undefined)]));
  const names = new Map<string, string>();
  designs.forEach(({ design }, side) => {
    for (const table of design.tables) {
      for (const p of results[side]!.get(table.id)?.patterns ?? []) {
        const key = patternKeyOf(side, table.id, p.patternId);
        if (key === undefined) continue;
        fractions.get(key)![side] = p.throttledFraction;
        if (!names.has(key)) names.set(key, p.name);
      }
    }
  });
  const patterns = patternOrder.map((key) => makeRow(`${key}:throttled`, names.get(key) ?? key, 'share', 'lower', fractions.get(key)!.map((f) => num(f))));
  return { seed, workload, targets, patterns };
}

function warningComparisons(
  costs: DesignCost[],
  tableKeyOf: (side: number, tableIndex: number) => string,
  patternKeyOf: (side: number, tableId: string, patternId: string) => string | undefined,
): WarningComparison[] {
  const byKey = new Map<string, { code: CostWarning['code']; severity: CostWarning['severity']; table: string; patternKey?: string; messages: (string | null)[] }>();
  costs.forEach((cost, side) => {
    cost.tables.forEach((table, ti) => {
      for (const w of table.warnings) {
        const patternKey = w.patternId === undefined ? undefined : patternKeyOf(side, table.tableId, w.patternId);
        // A warning about a pattern is the same warning on each side whatever its numbers say; one
        // about a table or index is told apart by its message.
        const key = `${tableKeyOf(side, ti)}|${w.code}|${patternKey ?? w.message}`;
        let entry = byKey.get(key);
        if (!entry) {
          entry = { code: w.code, severity: w.severity, table: table.name, ...(patternKey ? { patternKey } : {}), messages: costs.map(() => null) };
          byKey.set(key, entry);
        }
        entry.messages[side] = entry.messages[side] ? `${entry.messages[side]} ${w.message}` : w.message;
      }
    });
  });
  const out: WarningComparison[] = [];
  for (const [key, e] of byKey) {
    if (e.messages.every((m) => m !== null)) continue;
    const row = makeRow(`warning:${key}`, e.severity, 'text', 'absent', e.messages.map((m) => ({ value: m })));
    out.push({ ...row, code: e.code, severity: e.severity, table: e.table, ...(e.patternKey ? { patternKey: e.patternKey } : {}) });
  }
  return out;
}

/**
 * Compares designs side by side (pure and deterministic). Tables match by name, then position;
 * indexes by name; access patterns by id, then by name (preferring the same matched table).
 * Designs should be valid (`validateDesign`): the costs of an invalid one are not meaningful.
 * Throws when given fewer than two designs (a programmer error: callers check that first).
 */
export function compareDesigns(designs: readonly LabeledDesign[], options: CompareOptions = {}): ComparisonReport {
  if (designs.length < 2) throw new Error(`compareDesigns needs at least two designs, got ${designs.length}.`);
  const costs = designs.map((d) => costDesign(d.design));

  const tableGroups = matchItems(
    designs.map(({ design }, side) => design.tables.map((table, i) => ({ table, cost: costs[side]!.tables[i]! }))),
    [
      { kind: 'name', keyOf: (t) => t.table.name },
      { kind: 'position', keyOf: (_t, i) => String(i) },
    ],
  );
  const tableKeys = tableGroups.map((g) => `table:${g.items.find((i) => i !== undefined)!.table.name}`);
  const tableGroupOf = new Map<string, number>(); // `${side}|${tableId}` → group index
  tableGroups.forEach((g, gi) => g.items.forEach((item, side) => item && tableGroupOf.set(`${side}|${item.table.id}`, gi)));

  const patternSides: PatternRef[][] = costs.map((cost) => cost.tables.flatMap((table, tableIndex) => table.patterns.map((p) => ({ tableIndex, table, cost: p }))));
  const groupOfRef = (side: number, ref: PatternRef) => tableGroupOf.get(`${side}|${ref.table.tableId}`);
  const sideOfRef = new Map<PatternRef, number>();
  patternSides.forEach((refs, side) => refs.forEach((r) => sideOfRef.set(r, side)));
  const patternGroups = matchItems(
    patternSides,
    [
      { kind: 'id', keyOf: (r) => r.cost.patternId },
      { kind: 'name', keyOf: (r) => nameKey(r.cost.name) },
    ],
    (group, item) => group.items.some((g, side) => g !== undefined && groupOfRef(side, g) === groupOfRef(sideOfRef.get(item)!, item)),
  );

  const usedKeys = new Set<string>();
  const patternKeyIndex = new Map<string, string>(); // `${side}|${tableId}|${patternId}` → key
  const patterns: PatternComparison[] = patternGroups.map((g) => {
    const first = g.items.find((i) => i !== undefined)!;
    let key = `pattern:${first.cost.patternId}`;
    for (let n = 2; usedKeys.has(key); n++) key = `pattern:${first.cost.patternId}#${n}`;
    usedKeys.add(key);
    g.items.forEach((r, side) => r && patternKeyIndex.set(`${side}|${r.table.tableId}|${r.cost.patternId}`, key));
    return {
      key,
      name: first.cost.name,
      table: first.table.name,
      kind: first.cost.kind,
      match: g.match === 'position' ? 'name' : g.match,
      sides: g.items.map((r) => (r ? { patternId: r.cost.patternId, name: r.cost.name, table: r.table.name, plan: planSummary(r.cost) } : null)),
      rows: patternRows(key, g.items),
    };
  });
  const patternKeyOf = (side: number, tableId: string, patternId: string) => patternKeyIndex.get(`${side}|${tableId}|${patternId}`);

  const unmatchedPatterns = patterns.flatMap((p) =>
    p.match !== 'unmatched' ? [] : p.sides.flatMap((s, side) => (s ? [{ side, table: s.table, patternId: s.patternId, name: s.name }] : [])),
  );

  const report: Omit<ComparisonReport, 'summary'> = {
    sides: designs.map((d, i) => ({ letter: sideLetter(i), label: d.label, description: d.description ?? d.label, designName: d.design.name, designId: d.design.id })),
    rules: { ...BETTER_RULES },
    patterns,
    unmatchedPatterns,
    tables: tableGroups.map((g, gi) => tableComparison(g, tableKeys[gi]!)),
    totals: totalRows(costs),
    partitionRisk:
      options.simulate === false
        ? null
        : partitionRisk(designs, tableGroups, tableKeys, patternKeyOf, patterns.map((p) => p.key), options),
    warnings: warningComparisons(costs, (side, ti) => tableKeys[tableGroupOf.get(`${side}|${costs[side]!.tables[ti]!.tableId}`)!]!, patternKeyOf),
  };
  return { ...report, summary: summarizeComparison(report, designs) };
}
