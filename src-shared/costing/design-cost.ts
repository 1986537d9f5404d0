/**
 * The costs of a whole design: every pattern planned and costed, totals per table and per GSI
 * (reads, writes, storage; on-demand against provisioned), and the warnings a reviewer looks for.
 *
 * A provisioned table or GSI is billed for the capacity it holds each hour, not for its load: the
 * configured units, or with auto scaling what auto scaling holds for the load. Its provisioned figure
 * (and so the totals) is that bill; beside it, what the load alone would need in whole units. For an
 * on-demand table the provisioned figure is a what-if: exactly the load, in whole units.
 * https://aws.amazon.com/dynamodb/pricing/provisioned/
 */
import {
  estimateStorage,
  heldCapacityUnits,
  type StorageEstimate,
  loadOnlyUnits,
  provisionedCapacityMonthlyUsd,
  provisionedMonthlyUsd,
  roundUsd,
  storageMonthlyUsd,
  DEFAULT_PRICING,
  figure,
  formatNumber,
  lazyFigure,
  type Figure,
  type Step,
} from '../capacity/index.ts';
import type {
  AutoScalingRange,
  Design,
  OnDemandThroughput,
  Pricing,
  ProvisionedThroughput,
  Table,
  TableClass,
  WarmThroughput,
} from '../model/index.ts';
import { withValueModel, indexesLeftOut, withinIndexQuota } from '../model/index.ts';
import { planTable } from '../planner/index.ts';
import { busiestMinuteLoad, hourlyLoads, type LoadPart } from './busiest-minute.ts';
import { costPattern, type PatternCost } from './pattern-cost.ts';
import { createSizeEstimates, type SizeEstimates } from './size-estimates.ts';
import { createProjectionContext, createTableCosting } from './table-costing.ts';
import { warningsFor } from './warnings.ts';
import type { CostWarning, WarmThroughputCost, TargetCost } from './types.ts';
import { itemLimitWarnings } from './item-limits.ts';
import { onDemandMaximumWarnings, warmThroughputCost, warmThroughputWarnings } from './throughput-settings.ts';
export type { TargetCost } from './types.ts';

export interface TableCost {
  tableId: string;
  name: string;
  tableClass: TableClass;
  patterns: PatternCost[];
  targets: TargetCost[];
  onDemandMonthly: Figure;
  /** Provisioned capacity of the table and its GSIs per month (see `TargetCost.provisionedMonthly`). */
  provisionedMonthly: Figure;
  /** What the load alone would need provisioned, table and GSIs, per month. */
  loadOnlyMonthly: Figure;
  storageBytes: Figure;
  /** Pre-warming the table and its GSIs to their warm throughput, once: an estimate (0 when nothing is raised). */
  preWarmUsd: Figure;
  warnings: CostWarning[];
  /** Patterns not costed yet, in the table's order: they need a key design and the totals leave them out. */
  needingKeyDesign: NotCostedPattern[];
}

/** A pattern the totals leave out because it needs a key design (`PatternCost.needsKeyDesign`). */
export interface NotCostedPattern {
  patternId: string;
  name: string;
  reason: string;
}

export interface DesignCost {
  pricing: Pricing;
  tables: TableCost[];
  /** Storage for all tables and indexes, the free tier subtracted once per table class. */
  storageMonthly: Figure;
  /** Requests on-demand + storage. */
  onDemandMonthly: Figure;
  /** Provisioned capacity + storage: provisioned tables at the capacity they hold, on-demand ones at exactly their load. */
  provisionedMonthly: Figure;
  /** Pre-warming every table and GSI to its warm throughput, once (not monthly): an estimate. */
  preWarmUsd: Figure;
  warnings: CostWarning[];
  /** How many patterns, over all tables, the totals leave out because they need a key design. */
  patternsNeedingKeyDesign: number;
}

/** "2 access patterns are left out: they need a key design (A, B)." — an assumption of every total they are missing from. */
export function leftOutText(names: readonly string[]): string {
  const n = names.length;
  const shown = names.slice(0, 5).map((name) => `"${name}"`).join(', ') + (n > 5 ? `, and ${n - 5} more` : '');
  return `${n} access pattern${n === 1 ? ' is' : 's are'} left out: ${n === 1 ? 'it needs' : 'they need'} a key design before ${n === 1 ? 'it is' : 'they are'} costed (${shown}).`;
}

/** A total of parts, one step per part: its text is written when the derivation is read. */
function sumFigure(label: string, parts: { label: string; figure: Figure }[], unit: Figure['unit']): Figure {
  const labels = parts.map((p) => p.label);
  const values = parts.map((p) => p.figure.value);
  const sum = values.reduce((s, v) => s + v, 0);
  const value = unit === 'USD/month' || unit === 'USD' ? roundUsd(sum) : sum;
  const build = (): Step[] => {
    const texts = values.map((v) => formatNumber(v, 4));
    const steps: Step[] = values.map((v, i) => ({ label: labels[i]!, expression: texts[i]!, value: v, unit }));
    steps.push({ label, expression: values.length === 0 ? 'nothing' : texts.join(' + '), value, unit });
    return steps;
  };
  return lazyFigure(value, unit, build, [...new Set(parts.flatMap((p) => p.figure.assumptions))]);
}

function targetCosts(table: Table, patterns: PatternCost[], pricing: Pricing, storage: StorageEstimate): TargetCost[] {
  const lsiNames = table.localSecondaryIndexes.map((l) => l.name);
  const lsiStorage = lsiNames.map((n) => storage.indexes[n]).filter((f): f is Figure => f !== undefined);
  const tableStorage =
    lsiStorage.length === 0
      ? storage.table
      : sumFigure(
          'Table storage, its LSIs included',
          [{ label: 'Items', figure: storage.table }, ...lsiNames.map((n, i) => ({ label: `LSI ${n}`, figure: lsiStorage[i]! }))],
          'B',
        );
  const billing = table.billing;
  const tableThroughput: ProvisionedThroughput | undefined =
    billing.mode === 'PROVISIONED'
      ? {
          readCapacityUnits: billing.readCapacityUnits,
          writeCapacityUnits: billing.writeCapacityUnits,
          ...(billing.autoScaling ? { autoScaling: billing.autoScaling } : {}),
        }
      : undefined;
  const isOnDemand = billing.mode === 'ON_DEMAND';
  const targets: { name: string; kind: 'table' | 'gsi'; storage: Figure; configured?: ProvisionedThroughput; warm?: WarmThroughput; max?: OnDemandThroughput }[] = [
    {
      name: 'table',
      kind: 'table',
      storage: tableStorage,
      ...(tableThroughput ? { configured: tableThroughput } : {}),
      ...(table.warmThroughput ? { warm: table.warmThroughput } : {}),
      ...(isOnDemand && table.onDemandThroughput ? { max: table.onDemandThroughput } : {}),
    },
    ...table.globalSecondaryIndexes.map((g) => {
      // A provisioned table's GSI without its own throughput gets the table's fixed capacity, as the
      // exports deploy it (the design's rules flag it).
      const configured = tableThroughput && (g.provisioned ?? { readCapacityUnits: tableThroughput.readCapacityUnits, writeCapacityUnits: tableThroughput.writeCapacityUnits });
      return {
        name: g.name,
        kind: 'gsi' as const,
        storage: storage.indexes[g.name] ?? figure([{ label: 'Storage', expression: 'no entries', value: 0, unit: 'B' }]),
        ...(configured ? { configured } : {}),
        ...(g.warmThroughput ? { warm: g.warmThroughput } : {}),
        ...(isOnDemand && g.onDemandThroughput ? { max: g.onDemandThroughput } : {}),
      };
    }),
  ];
  // Each pattern's consumption, in the patterns' order, sorted once onto the targets it is on.
  const loads = targets.map(() => ({ reads: [] as LoadPart[], writes: [] as LoadPart[] }));
  const patternOf = new Map(table.accessPatterns.map((p) => [p.id, p]));
  const gsiTargets = new Map<string, number[]>();
  targets.forEach((t, i) => {
    if (t.kind === 'gsi') gsiTargets.set(t.name, [...(gsiTargets.get(t.name) ?? []), i]);
  });
  const part = (p: PatternCost, value: number, unit: 'RCU/s' | 'WCU/s'): LoadPart => ({ label: p.name, figure: figure([{ label: p.name, expression: '', value, unit }]), pattern: patternOf.get(p.patternId) });
  for (const p of patterns) {
    for (const c of p.consumption) {
      for (const i of c.target === 'table' ? [0] : typeof c.target === 'object' ? (gsiTargets.get(c.target.gsi) ?? []) : []) {
        if (c.readUnitsPerSecond > 0) loads[i]!.reads.push(part(p, c.readUnitsPerSecond, 'RCU/s'));
        if (c.writeUnitsPerSecond > 0) loads[i]!.writes.push(part(p, c.writeUnitsPerSecond, 'WCU/s'));
      }
    }
  }
  return targets.map((t, i): TargetCost => {
    const { reads, writes } = loads[i]!;
    const where = t.kind === 'table' ? 'the table' : `GSI ${t.name}`;
    const readUnitsPerSecond = busiestMinuteLoad(`Reads on ${where}`, reads, 'RCU/s') ?? sumFigure(`Reads on ${where}`, reads, 'RCU/s');
    const writeUnitsPerSecond = busiestMinuteLoad(`Writes on ${where}`, writes, 'WCU/s') ?? sumFigure(`Writes on ${where}`, writes, 'WCU/s');
    const loadOnlyMonthly = provisionedMonthlyUsd({ rcu: readUnitsPerSecond.value, wcu: writeUnitsPerSecond.value, tableClass: table.tableClass, pricing });
    const loadNeeds = { readCapacityUnits: loadOnlyUnits(readUnitsPerSecond.value), writeCapacityUnits: loadOnlyUnits(writeUnitsPerSecond.value) };
    const common = {
      name: t.name,
      kind: t.kind,
      readUnitsPerSecond,
      writeUnitsPerSecond,
      storageBytes: t.storage,
      loadOnlyMonthly,
      loadNeeds,
      warmThroughput: warmThroughputCost(t.warm, t.configured, table, pricing),
      ...(t.max ? { onDemandMaximum: t.max } : {}),
    };
    if (!t.configured) return { ...common, provisionedMonthly: loadOnlyMonthly, billed: { ...loadNeeds } };
    // Auto scaling follows the patterns' days hour by hour (docs/traffic.md); fixed capacity bills whatever the load.
    const readHours = t.configured.autoScaling?.read ? hourlyLoads(reads) : undefined;
    const writeHours = t.configured.autoScaling?.write ? hourlyLoads(writes) : undefined;
    const read = {
      loadUnitsPerSecond: readUnitsPerSecond.value,
      configuredUnits: t.configured.readCapacityUnits,
      ...(t.configured.autoScaling?.read ? { autoScaling: t.configured.autoScaling.read } : {}),
      ...(readHours ? { hourlyLoadUnitsPerSecond: readHours } : {}),
    };
    const write = {
      loadUnitsPerSecond: writeUnitsPerSecond.value,
      configuredUnits: t.configured.writeCapacityUnits,
      ...(t.configured.autoScaling?.write ? { autoScaling: t.configured.autoScaling.write } : {}),
      ...(writeHours ? { hourlyLoadUnitsPerSecond: writeHours } : {}),
    };
    return {
      ...common,
      provisionedMonthly: provisionedCapacityMonthlyUsd({ read, write, tableClass: table.tableClass, pricing }),
      billed: { readCapacityUnits: heldCapacityUnits(read), writeCapacityUnits: heldCapacityUnits(write) },
      configured: t.configured,
    };
  });
}

/**
 * What a table or GSI provisions, in words for the costs screen and `keyplan cost`: `100 RCU, 20 WCU`,
 * or for a direction that auto scales `RCU auto 5–500 at 70 %` (its fixed figure is then only the
 * initial capacity).
 */
export function configuredCapacityText(c: ProvisionedThroughput): string {
  const direction = (units: number, unit: 'RCU' | 'WCU', range: AutoScalingRange | undefined): string =>
    range ? `${unit} auto ${formatNumber(range.minCapacity)}–${formatNumber(range.maxCapacity)} at ${formatNumber(range.targetUtilizationPercent)} %` : `${formatNumber(units)} ${unit}`;
  return `${direction(c.readCapacityUnits, 'RCU', c.autoScaling?.read)}, ${direction(c.writeCapacityUnits, 'WCU', c.autoScaling?.write)}`;
}

/** The table as planned and costed: only the indexes DynamoDB could create, every categorical attribute's values made explicit. */
export function costedTable(designTable: Table): Table {
  // Every number reads one value model: categorical attributes without a generator get their values here.
  return withValueModel(withinIndexQuota(designTable));
}

/** Plans and costs every access pattern of one table, with its totals. */
export function costTable(designTable: Table, pricing: Pricing = DEFAULT_PRICING): TableCost {
  const { table, patterns, storageOf, sizes } = costedPatterns(designTable, pricing);
  return totalTableCost(designTable, table, pricing, { patterns, storage: storageOf(), patternWarnings: warningsFor(table, patterns, [], pricing), sizes });
}

/**
 * Every access pattern of one table planned and costed, in the table's order, without the table's
 * totals and warnings: what the partition simulator needs (each pattern's operation and units).
 */
export function costPatterns(designTable: Table, pricing: Pricing = DEFAULT_PRICING): PatternCost[] {
  return costedPatterns(designTable, pricing).patterns;
}

function costedPatterns(designTable: Table, pricing: Pricing): { table: Table; patterns: PatternCost[]; storageOf: () => StorageEstimate; sizes: SizeEstimates } {
  const table = costedTable(designTable);
  const plans = planTable(table);
  let storage: StorageEstimate | undefined;
  const storageOf = (): StorageEstimate => (storage ??= estimateStorage(table));
  const sizes = createSizeEstimates();
  const shared = createTableCosting(table, pricing, sizes, createProjectionContext(table, () => plans, storageOf, sizes));
  const patterns = table.accessPatterns.map((p, i) => costPattern(table, p, plans[i]!, pricing, shared));
  return { table, patterns, storageOf, sizes };
}

/** What `totalTableCost` needs besides the table: the patterns' costs, in the table's order, their warnings and the table's storage. */
export interface CostedPatterns {
  patterns: PatternCost[];
  /** `warningsFor(table, patterns, [], pricing)`: the warnings of the patterns alone, in their order. */
  patternWarnings: CostWarning[];
  /** `estimateStorage(table)`. */
  storage: StorageEstimate;
  /** The item and index-entry sizes the patterns were costed with (the limits are checked on the same estimates). */
  sizes?: SizeEstimates;
}

/**
 * A table's cost from its patterns' costs: the GSIs' and the table's loads and bills, the totals and
 * every warning. `table` is `costedTable(designTable)`. Shared by `costTable` and the cost cache, so
 * that a cached costing sums exactly as a fresh one.
 */
export function totalTableCost(designTable: Table, table: Table, pricing: Pricing, costed: CostedPatterns): TableCost {
  const { patterns } = costed;
  const targets = targetCosts(table, patterns, pricing, costed.storage);
  const needingKeyDesign = patterns.flatMap((p) => (p.needsKeyDesign !== undefined ? [{ patternId: p.patternId, name: p.name, reason: p.needsKeyDesign }] : []));
  const onDemandMonthly = sumFigure(
    `Requests on-demand per month, table ${table.name}`,
    patterns.filter((p) => p.needsKeyDesign === undefined).map((p) => ({ label: p.name, figure: p.monthly.onDemand })),
    'USD/month',
  );
  const provisionedMonthly = sumFigure(
    `Provisioned capacity per month, table ${table.name}`,
    targets.map((t) => ({ label: t.kind === 'table' ? 'Table' : `GSI ${t.name}`, figure: t.provisionedMonthly })),
    'USD/month',
  );
  const loadOnlyMonthly = sumFigure(
    `Capacity the load alone needs per month, table ${table.name}`,
    targets.map((t) => ({ label: t.kind === 'table' ? 'Table' : `GSI ${t.name}`, figure: t.loadOnlyMonthly })),
    'USD/month',
  );
  if (needingKeyDesign.length > 0) {
    const text = leftOutText(needingKeyDesign.map((p) => p.name));
    for (const f of [onDemandMonthly, provisionedMonthly, loadOnlyMonthly]) f.assumptions.push(text);
  }
  const preWarmUsd = sumFigure(
    `Pre-warming table ${table.name} and its GSIs, once (estimate)`,
    targets.map((t) => ({ label: t.kind === 'table' ? 'Table' : `GSI ${t.name}`, figure: t.warmThroughput.preWarmUsd })),
    'USD',
  );
  const storageBytes = sumFigure(
    `Storage of table ${table.name} and its indexes`,
    targets.map((t) => ({ label: t.kind === 'table' ? 'Table (and LSIs)' : `GSI ${t.name}`, figure: t.storageBytes })),
    'B',
  );
  return {
    tableId: table.id,
    name: table.name,
    tableClass: table.tableClass,
    patterns,
    targets,
    onDemandMonthly,
    provisionedMonthly,
    loadOnlyMonthly,
    storageBytes,
    preWarmUsd,
    warnings: [
      ...quotaWarning(designTable),
      ...itemLimitWarnings(table, costed.sizes),
      ...keyDesignWarning(needingKeyDesign),
      ...costed.patternWarnings,
      ...warningsFor(table, [], targets, pricing),
      ...onDemandMaximumWarnings(table, targets, patterns),
      ...warmThroughputWarnings(table, targets, patterns, pricing),
    ],
    needingKeyDesign,
  };
}

/** One warning for all the table's patterns that need a key design: work to do, not a fault of the design. */
function keyDesignWarning(patterns: NotCostedPattern[]): CostWarning[] {
  if (patterns.length === 0) return [];
  return [{ code: 'cost.needsKeyDesign', severity: 'warning', message: `${leftOutText(patterns.map((p) => p.name))} Give each an entity with key templates for the table's keys.` }];
}

function quotaWarning(table: Table): CostWarning[] {
  const message = indexesLeftOut(table);
  return message === undefined ? [] : [{ code: 'cost.designProblem', severity: 'error', message }];
}

/**
 * The storage total with each table class's own steps in it (its bytes, its GB before and after the
 * free storage, its dollars), so the derivation of the total shows the GB, not only a sum of dollars.
 */
function storageTotal(parts: { label: string; figure: Figure }[]): Figure {
  if (parts.length === 1) return parts[0]!.figure;
  const sum = sumFigure('Storage per month', parts, 'USD/month');
  const build = (): Step[] => [...parts.flatMap((p) => p.figure.steps.map((st) => ({ ...st, label: `${p.label}: ${st.label}` }))), sum.steps.at(-1)!];
  return lazyFigure(sum.value, sum.unit, build, sum.assumptions);
}

/** Plans and costs a whole design with its own prices (or the defaults). */
export function costDesign(design: Design): DesignCost {
  const pricing = design.pricing ?? DEFAULT_PRICING;
  return totalDesignCost(pricing, design.tables.map((t) => costTable(t, pricing)));
}

/** A design's cost from its tables' costs, in the design's order (shared by `costDesign` and the cost cache). */
export function totalDesignCost(pricing: Pricing, tables: TableCost[]): DesignCost {
  const byClass = new Map<TableClass, number>();
  for (const t of tables) byClass.set(t.tableClass, (byClass.get(t.tableClass) ?? 0) + t.storageBytes.value);
  const storageParts = [...byClass].map(([tableClass, bytes]) => ({
    label: tableClass === 'STANDARD' ? 'Standard tables' : 'Standard-IA tables',
    figure: storageMonthlyUsd({ bytes, tableClass, pricing }),
  }));
  const storageMonthly = storageTotal(storageParts);
  const leftOut = tables.flatMap((t) => t.needingKeyDesign.map((p) => p.name));
  const onDemandMonthly = sumFigure(
    'On-demand per month (requests + storage)',
    [...tables.map((t) => ({ label: `Requests, table ${t.name}`, figure: t.onDemandMonthly })), { label: 'Storage', figure: storageMonthly }],
    'USD/month',
  );
  const provisionedMonthly = sumFigure(
    'Provisioned per month (capacity + storage)',
    [...tables.map((t) => ({ label: `Capacity, table ${t.name}`, figure: t.provisionedMonthly })), { label: 'Storage', figure: storageMonthly }],
    'USD/month',
  );
  if (leftOut.length > 0) {
    onDemandMonthly.assumptions.push(leftOutText(leftOut));
    provisionedMonthly.assumptions.push(leftOutText(leftOut));
  }
  return {
    pricing,
    tables,
    storageMonthly,
    onDemandMonthly,
    provisionedMonthly,
    preWarmUsd: sumFigure(
      'Pre-warming, once (estimate)',
      tables.map((t) => ({ label: `Table ${t.name}`, figure: t.preWarmUsd })),
      'USD',
    ),
    warnings: tables.flatMap((t) => t.warnings),
    patternsNeedingKeyDesign: tables.reduce((n, t) => n + t.needingKeyDesign.length, 0),
  };
}

