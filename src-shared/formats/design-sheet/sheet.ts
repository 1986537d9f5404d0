/**
 * The single-table design sheet: what a review of a DynamoDB design reads on one page.
 *
 * - The entity chart: one row per entity, one column per key attribute of the table and of each
 *   index (PK, SK, GSI1PK, GSI1SK …), each cell the entity's key template there, as in the AWS
 *   guide's single-table examples and NoSQL Workbench's facets. An empty cell: the entity is not in
 *   that index (sparse).
 * - The access-pattern chart: pattern → table or index → key condition → filter → RCU/WCU per
 *   second → dollars per month on-demand and provisioned, from `costDesign` (the same figures as the
 *   costs screen and `keyplan cost`).
 * - The table and index settings: keys (a multi-attribute GSI key as `tournamentId (S) + region (S)`),
 *   billing and capacity, on-demand maximums, warm throughput, table class, TTL, streams,
 *   point-in-time recovery, encryption, deletion protection, Contributor Insights, tags, projections.
 *
 * `designSheet` builds it as data; the design-sheet screen, `toDesignSheetMarkdown` and
 * `toDesignSheetHtml` only lay it out, so all three say the same.
 */
import { unitLabel, type Figure } from '../../capacity/figure.ts';
import { formatNumber } from '../../format/index.ts';
import { AWS_DOCS, type DocSource } from '../../capacity/sources.ts';
import { configuredCapacityText, costDesign, type DesignCost, type PatternCost, type TableCost } from '../../costing/index.ts';
import { partitionKeysOf, sortKeysOf } from '../../model/gsi-keys.ts';
import { onDemandMaximumText, warmThroughputText } from '../common/throughput-text.ts';
import { bindingOf, gsiKeySourceOf } from '../../model/key-slots.ts';
import type { AccessPattern, Design, Entity, KeyAttribute, KeyBinding, OnDemandThroughput, Pricing, Projection, Table, WarmThroughput } from '../../model/schema.ts';

export { onDemandMaximumText, warmThroughputText } from '../common/throughput-text.ts';
import type { Plan, Target } from '../../planner/types.ts';

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

/** `partition key`, or `partition key 2 of 3` for an attribute of a multi-attribute key. */
export const keyColumnRole = (c: KeyColumn): string => (c.position ? `${c.role} ${c.position.index + 1} of ${c.position.of}` : c.role);

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

/** One row of the access-pattern chart. */
export interface PatternRow {
  /** 1-based position in the table's list of patterns. */
  number: number;
  patternId: string;
  name: string;
  /** The entity's name; undefined when the pattern names none (yet) or one that does not exist. */
  entityName: string | undefined;
  action: AccessPattern['action'];
  ratePerSecond: number;
  consistency: AccessPattern['consistency'];
  /** Present when the pattern was planned and costed. */
  plan?: PlannedRow;
  /** Why the pattern is not costed yet, when it is not: it needs a key design (no entity, or no key templates). */
  needsKeyDesign?: string;
}

export interface PlannedRow {
  kind: 'read' | 'write';
  /** GetItem, Query, Scan, PutItem … */
  operation: Plan['operation'];
  /** The plan's badge: Query, GSI Query, Fan-out Query, Scan … */
  badge: Plan['badge'];
  isServed: boolean;
  /** `table`, `GSI GSI1`, `LSI ByDate`. */
  target: string;
  /** Writes: the indexes the write also changes, `GSI1 (put)`. */
  alsoWrites: string[];
  /** The key condition (writes: the key) with its values written in: `PK = "USER#{userId}" AND begins_with(SK, "ORDER#")`. */
  keyCondition?: string;
  /** The FilterExpression with its names and values written in. */
  filter?: string;
  /** RCU or WCU per call. */
  perRequest: Figure;
  /** RCU/s or WCU/s at the pattern's rate. */
  perSecond: Figure;
  unit: 'RCU' | 'WCU';
  onDemandMonthly: Figure;
  /** The load's share of provisioned capacity (not a share of a provisioned table's bill). */
  provisionedMonthly: Figure;
  /** What a reviewer must know beside the numbers: unserved, a design problem, a fetch from the table. */
  notes: string[];
}

/** One setting of a table: `Billing` → `On-demand`. */
export interface Setting {
  label: string;
  value: string;
}

/** A GSI or LSI with its keys, projection and capacity. */
export interface IndexSetting {
  kind: 'gsi' | 'lsi';
  name: string;
  /** `GSI1PK (S)`, or `tournamentId (S) + region (S)` for a multi-attribute key; an LSI's is the table's. */
  partitionKey: string;
  /** `GSI1SK (S)`, `round (N) + bracket (S)`, or undefined when the index has none. */
  sortKey: string | undefined;
  projection: string;
  capacity: string;
}

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

/** Units per second as the costs screen shows them: `250 RCU/s`, `0.4 WCU/s`. */
export function sheetUnitsPerSecond(row: PlannedRow): string {
  return `${formatNumber(row.perSecond.value, 1)} ${row.unit}/s`;
}

/** Units per call, the base of the per-second figure: `0.5 RCU × 500/s`. */
export function sheetPerRequest(row: PlannedRow, ratePerSecond: number): string {
  return `${formatNumber(row.perRequest.value, 3)} ${row.unit} × ${formatNumber(ratePerSecond)}/s`;
}

/** A pattern row's entity and action in words: `Order · query · 100/s · eventual`. */
export function patternSummary(row: PatternRow): string {
  return `${row.entityName ?? 'no entity yet'} · ${row.action} · ${formatNumber(row.ratePerSecond)}/s · ${row.consistency}`;
}

/** What an unplanned pattern's row says instead of numbers. */
export const NEEDS_KEY_DESIGN = 'needs a key design';

/** What a key template cell holds: the template, and its condition or sharding. */
export function keyCellText(cell: KeyCell): string {
  return [cell.template === '' ? '(empty)' : cell.template, cell.when !== undefined ? `only when ${cell.when}` : undefined, cell.shards].filter((s) => s !== undefined).join('; ');
}

/** The sources a reader of the sheet can open for how the numbers are computed. */
export const SHEET_SOURCES = [AWS_DOCS.readWriteUnits, AWS_DOCS.onDemandPricing, AWS_DOCS.provisionedPricing] as const;

const keyText = (k: KeyAttribute): string => `${k.name} (${k.type})`;
/** A key part's attributes in key order: `tournamentId (S) + region (S)`. */
const keyPartText = (attributes: readonly KeyAttribute[]): string => attributes.map(keyText).join(' + ');

/** Whether a throughput setting holds any direction. */
const hasWarm = (w: WarmThroughput | undefined): w is WarmThroughput => w !== undefined && (w.readUnitsPerSecond !== undefined || w.writeUnitsPerSecond !== undefined);
const hasMaximum = (o: OnDemandThroughput | undefined): o is OnDemandThroughput => o !== undefined && (o.maxReadRequestUnits !== undefined || o.maxWriteRequestUnits !== undefined);

const TABLE_CLASS_LABELS: Record<Table['tableClass'], string> = { STANDARD: 'Standard', STANDARD_INFREQUENT_ACCESS: 'Standard-IA (Standard-Infrequent Access)' };

/** `ALL`, `KEYS_ONLY`, `INCLUDE customerId, placedAt`. */
export function projectionText(p: Projection): string {
  return p.type === 'INCLUDE' ? `INCLUDE ${p.nonKeyAttributes.join(', ') || '(no attributes)'}` : p.type;
}

function tableSettings(table: Table): Setting[] {
  const billing = table.billing;
  const settings: Setting[] = [
    { label: 'Partition key', value: keyText(table.partitionKey) },
    { label: 'Sort key', value: table.sortKey ? keyText(table.sortKey) : 'none' },
    { label: 'Billing', value: billing.mode === 'ON_DEMAND' ? 'On-demand (pay per request)' : 'Provisioned' },
  ];
  if (billing.mode === 'PROVISIONED') {
    settings.push({
      label: billing.autoScaling?.read || billing.autoScaling?.write ? 'Capacity (auto scaling)' : 'Capacity',
      value: configuredCapacityText({ readCapacityUnits: billing.readCapacityUnits, writeCapacityUnits: billing.writeCapacityUnits, ...(billing.autoScaling ? { autoScaling: billing.autoScaling } : {}) }),
    });
  } else if (hasMaximum(table.onDemandThroughput)) {
    settings.push({ label: 'On-demand maximum', value: onDemandMaximumText(table.onDemandThroughput) });
  }
  if (hasWarm(table.warmThroughput)) settings.push({ label: 'Warm throughput', value: warmThroughputText(table.warmThroughput) });
  settings.push(
    { label: 'Table class', value: TABLE_CLASS_LABELS[table.tableClass] ?? table.tableClass },
    { label: 'Time to live', value: table.ttlAttribute ? `on, attribute ${table.ttlAttribute}` : 'off' },
    { label: 'Streams', value: table.stream ? `on, ${table.stream}` : 'off' },
  );
  if (table.pointInTimeRecovery) {
    const pitr = table.pointInTimeRecovery;
    settings.push({ label: 'Point-in-time recovery', value: pitr.enabled ? `on, ${pitr.recoveryPeriodInDays ?? 35} days` : 'off' });
  }
  if (table.encryption) {
    const e = table.encryption;
    settings.push({ label: 'Encryption at rest', value: e.type === 'AWS_OWNED' ? 'AWS owned key' : e.kmsKeyId ? `AWS KMS key ${e.kmsKeyId}` : 'AWS managed KMS key (aws/dynamodb)' });
  }
  if (table.deletionProtection !== undefined) settings.push({ label: 'Deletion protection', value: table.deletionProtection ? 'on' : 'off' });
  if (table.contributorInsights) {
    const c = table.contributorInsights;
    settings.push({ label: 'Contributor Insights', value: c.enabled ? `on, ${c.mode ?? 'ACCESSED_AND_THROTTLED_KEYS'}` : 'off' });
  }
  const tags = Object.entries(table.tags ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (tags.length > 0) settings.push({ label: 'Tags', value: tags.map(([k, v]) => `${k}=${v}`).join(', ') });
  return settings;
}

function indexSettings(table: Table): IndexSetting[] {
  const isProvisioned = table.billing.mode === 'PROVISIONED';
  return [
    ...table.globalSecondaryIndexes.map((g): IndexSetting => {
      const sortKeys = sortKeysOf(g);
      const capacity = [
        !isProvisioned ? `on-demand${hasMaximum(g.onDemandThroughput) ? `, ${onDemandMaximumText(g.onDemandThroughput)}` : ''}` : g.provisioned ? configuredCapacityText(g.provisioned) : "the table's capacity (none of its own)",
        ...(hasWarm(g.warmThroughput) ? [`warm throughput ${warmThroughputText(g.warmThroughput)}`] : []),
      ];
      return {
        kind: 'gsi',
        name: g.name,
        partitionKey: keyPartText(partitionKeysOf(g)),
        sortKey: sortKeys.length > 0 ? keyPartText(sortKeys) : undefined,
        projection: projectionText(g.projection),
        capacity: capacity.join('; '),
      };
    }),
    ...table.localSecondaryIndexes.map((l): IndexSetting => ({
      kind: 'lsi',
      name: l.name,
      partitionKey: `${keyText(table.partitionKey)}, the table's`,
      sortKey: keyText(l.sortKey),
      projection: projectionText(l.projection),
      capacity: "the table's",
    })),
  ];
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

function entityChart(table: Table): EntityChartPart[] {
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

const PLACEHOLDER = /[:#][A-Za-z0-9_]+/g;
const BARE_LITERAL = /^(-?\d+(\.\d+)?([eE][-+]?\d+)?|true|false)$/;

/**
 * An expression with its `#name` and `:value` placeholders written in: names as the attribute,
 * values as the key template they hold, in quotes. With `bareLiterals` (a filter, which compares
 * numbers and booleans as such) a number or boolean stays bare.
 */
export function expressionText(
  expression: string,
  values: Readonly<Record<string, string>>,
  names: Readonly<Record<string, string>> = {},
  bareLiterals = false,
): string {
  return expression.replace(PLACEHOLDER, (token) => {
    if (token.startsWith('#')) return Object.hasOwn(names, token) ? names[token]! : token;
    if (!Object.hasOwn(values, token)) return token;
    const value = values[token]!;
    return bareLiterals && BARE_LITERAL.test(value) ? value : `"${value}"`;
  });
}

const targetLabel = (t: Target): string => (t.kind === 'table' ? 'table' : `${t.kind.toUpperCase()} ${t.name}`);

function planNotes(cost: PatternCost): string[] {
  const plan = cost.plan;
  const notes: string[] = [];
  if (plan.designProblem) notes.push(`Design problem: ${plan.designProblem}`);
  if (!plan.isServed) {
    const s = plan.suggestion;
    const keys = s ? [s.partitionKeyTemplate, s.sortKeyTemplate].filter((t) => t !== undefined).join(' / ') : '';
    notes.push(
      s
        ? `Not served by a key: a Scan. Suggested: ${s.reuses ? 'reuse' : 'add'} ${s.kind.toUpperCase()}${s.indexName ? ` ${s.indexName}` : ''}${keys ? ` keyed ${keys}` : ''}.`
        : 'Not served by a key: a Scan.',
    );
  }
  if (plan.fetch) {
    const f = plan.fetch;
    notes.push(
      f.kind === 'gsi'
        ? `${f.index} does not project ${f.missing.join(', ')}: + ${f.operation ?? 'BatchGetItem'} from the table`
        : `${f.index} does not project ${f.missing.join(', ')}: + a fetch of the base item per item read`,
    );
  }
  return notes;
}

function plannedRow(cost: PatternCost): PlannedRow {
  const plan = cost.plan;
  const row: PlannedRow = {
    kind: cost.kind,
    operation: plan.operation,
    badge: plan.badge,
    isServed: plan.isServed,
    target: targetLabel(plan.target),
    alsoWrites: plan.indexWrites.filter((w) => w.target.kind !== 'table' && w.effect !== 'none' && w.fraction > 0).map((w) => `${w.target.kind === 'table' ? 'table' : w.target.name} (${w.effect === 'enterOrLeave' ? 'enter or leave' : w.effect})`),
    perRequest: cost.perRequest,
    perSecond: cost.perSecond,
    unit: cost.kind === 'read' ? 'RCU' : 'WCU',
    onDemandMonthly: cost.monthly.onDemand,
    provisionedMonthly: cost.monthly.provisioned,
    notes: planNotes(cost),
  };
  if (plan.keyCondition !== undefined) row.keyCondition = expressionText(plan.keyCondition, plan.values);
  if (plan.filter !== undefined) row.filter = expressionText(plan.filter, plan.values, plan.names ?? {}, true);
  return row;
}

function patternRows(table: Table, cost: TableCost | undefined): PatternRow[] {
  const costs = new Map(cost?.patterns.map((p) => [p.patternId, p]));
  return table.accessPatterns.map((p, i) => {
    // A pattern may be written before its entity exists, or before the entity has key templates:
    // it is not costed yet (the costs say why), and its row says so instead of figures.
    const entity = p.entityId === undefined ? undefined : table.entities.find((e) => e.id === p.entityId);
    const planned = costs.get(p.id);
    const row: PatternRow = {
      number: i + 1,
      patternId: p.id,
      name: p.name,
      entityName: entity?.name,
      action: p.action,
      ratePerSecond: p.ratePerSecond,
      consistency: p.consistency,
    };
    if (planned && entity && planned.needsKeyDesign === undefined) row.plan = plannedRow(planned);
    else if (planned || !entity) row.needsKeyDesign = planned?.needsKeyDesign ?? `The pattern names no entity of table ${table.name}: pick or create the entity it reads or writes.`;
    return row;
  });
}

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

/** `Query on GSI GSI1`, `PutItem on table, + GSI1 (put)`, or why a pattern has no figures. */
export function servedByText(row: PatternRow): string {
  const plan = row.plan;
  if (!plan) return row.needsKeyDesign !== undefined ? NEEDS_KEY_DESIGN : 'not costed: the costs cannot be computed';
  const served = plan.isServed ? `${plan.badge === 'Fan-out Query' ? 'Fan-out Query' : plan.operation} on ${plan.target}` : `Scan on ${plan.target} (not served by a key)`;
  return plan.alsoWrites.length > 0 ? `${served}, + ${plan.alsoWrites.join(', ')}` : served;
}

/** One derivation step in words: `Read units, eventually consistent: 1 × 0.5 = 0.5 RCU`. */
export function stepText(step: Figure['steps'][number]): string {
  const value = `${formatNumber(step.value, 4)}${step.unit ? ` ${unitLabel(step.value, step.unit)}` : ''}`;
  const expression = step.expression.trim();
  const isBare = expression === '' || expression === formatNumber(step.value, 4) || expression === value;
  return `${step.label}: ${isBare ? value : expression.includes(' = ') ? `${value} (${expression})` : `${expression} = ${value}`}`;
}

/** The derivations of a planned row, titled: its units per second, then each monthly figure. */
export function rowDerivations(plan: PlannedRow): { title: string; figure: Figure }[] {
  return [
    { title: `${plan.unit} per second`, figure: plan.perSecond },
    { title: 'On-demand per month', figure: plan.onDemandMonthly },
    { title: "Provisioned per month (the load's share)", figure: plan.provisionedMonthly },
  ];
}

/**
 * Every AWS page the sheet's derivations cite, each once, numbered from 1 in this order: the
 * general sources first, then the others as the derivations first cite them.
 */
export function sheetSources(sheet: DesignSheet): DocSource[] {
  const byUrl = new Map<string, DocSource>(SHEET_SOURCES.map((s) => [s.url, s]));
  for (const t of sheet.tables) {
    for (const r of t.patterns) {
      if (!r.plan) continue;
      for (const d of rowDerivations(r.plan)) for (const step of d.figure.steps) if (step.source && !byUrl.has(step.source.url)) byUrl.set(step.source.url, step.source);
    }
  }
  return [...byUrl.values()];
}

/** The pricing the numbers rest on, in one sentence (without a final period). */
export function pricingText(pricing: Pricing): string {
  const source = pricing.source?.trim().replace(/[.\s]+$/, '');
  return `Prices for ${pricing.region}, ${formatNumber(pricing.hoursPerMonth)} hours a month${source ? ` (${source})` : ''}`;
}

/** How the sheet's numbers are computed, in two sentences shown above the derivations. */
export const SHEET_METHOD =
  "Units per second are the units of one call at the pattern's peak rate, sustained all month. " +
  "A pattern's provisioned figure is its load's share of capacity; a provisioned table is billed for the capacity it holds.";

/** What a reviewer must know beside a row: its plan's notes, or why it is not costed yet. */
export function rowNotes(row: PatternRow): string[] {
  if (row.plan) return row.plan.notes;
  return row.needsKeyDesign !== undefined ? [`Not costed, it needs a key design: ${row.needsKeyDesign}`] : [];
}
