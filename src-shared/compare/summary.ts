/**
 * What a comparison says in a few words, for the top of the Compare screen and of `keyplan compare`:
 * each later design (B, C…) against the first (A): what changed in its structure (tables, GSIs and
 * LSIs with their key schema, projection and capacity, billing, entities and their keys, access
 * patterns), how many access patterns got cheaper, costlier or stayed the same, and the net dollars
 * per month on-demand and provisioned, B − A. For example: "GSI2 added; 3 patterns cheaper,
 * 1 costlier, 7 unchanged; net −$412.00/month on-demand, −$120.50/month provisioned".
 */
import { figure, type Figure, type Step, roundUsd } from '../capacity/index.ts';
import type { Design, Entity, GlobalSecondaryIndex, KeyBinding, LocalSecondaryIndex, Table } from '../model/index.ts';
import type { ComparisonReport, PatternComparison, ChangeKind, StructuralChange, PatternDelta, SideSummary, ComparisonSummary } from './types.ts';
import { sideLetter } from './labels.ts';
import { matchItems, nameKey } from './match.ts';
import { isSameNumber, NEEDS_KEY_DESIGN } from './rows.ts';
import { billingText, capacityText, keyText, projectionText } from './schema-text.ts';
import { formatSignedUsd as signedUsdText, formatUsd as usdText } from '../numbers/index.ts';
export type { ChangeKind, StructuralChange, PatternDelta, SideSummary, ComparisonSummary } from './types.ts';

/** How many headline changes the one-line summary names before "and N more changes". */
const SENTENCE_CHANGES = 3;

/** Changes whose words already name the table; the others get `<table>: ` in a design with several tables. */
const NAMES_TABLE: ReadonlySet<ChangeKind> = new Set(['tableAdded', 'tableRemoved', 'tableRenamed']);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

type AnyIndex = ({ kind: 'gsi' } & GlobalSecondaryIndex) | ({ kind: 'lsi' } & LocalSecondaryIndex);

function indexesOf(table: Table): AnyIndex[] {
  return [...table.globalSecondaryIndexes.map((g) => ({ ...g, kind: 'gsi' as const })), ...table.localSecondaryIndexes.map((l) => ({ ...l, kind: 'lsi' as const }))];
}

/** `GSI2`, `LSI1` when the name says its kind already; else `GSI ByStatus`. */
const indexLabel = (i: AnyIndex) => (i.name.toUpperCase().startsWith(i.kind.toUpperCase()) ? i.name : `${i.kind.toUpperCase()} ${i.name}`);
const article = (kind: 'gsi' | 'lsi') => (kind === 'lsi' ? 'an' : 'a');
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** `partition key GSI1PK (S), sort key GSI1SK (S), projection ALL`, as an index on `table` has them. */
function indexShape(i: AnyIndex, table: Table): { partitionKey: string; sortKey: string; projection: string; capacity: string } {
  return {
    partitionKey: keyText(i.kind === 'gsi' ? i.partitionKey : table.partitionKey) ?? '(none)',
    sortKey: keyText(i.sortKey) ?? '(none)',
    projection: projectionText(i.projection),
    capacity: i.kind === 'gsi' && i.provisioned ? capacityText(i.provisioned) : '(the table’s billing)',
  };
}

function indexChanges(a: Table, b: Table, add: (c: Omit<StructuralChange, 'table'>) => void): void {
  const groups = matchItems([indexesOf(a), indexesOf(b)], [{ kind: 'name', keyOf: (i) => i.name }]);
  for (const { items: [before, after] } of groups) {
    if (!before && after) {
      const s = indexShape(after, b);
      add({ kind: 'indexAdded', short: `${indexLabel(after)} added`, detail: `${indexLabel(after)} added: partition key ${s.partitionKey}, sort key ${s.sortKey}, projection ${s.projection}`, isHeadline: true });
      continue;
    }
    if (before && !after) {
      add({ kind: 'indexRemoved', short: `${indexLabel(before)} removed`, detail: `${indexLabel(before)} removed`, isHeadline: true });
      continue;
    }
    if (!before || !after) continue;
    if (before.kind !== after.kind) {
      const s = indexShape(after, b);
      add({
        kind: 'indexChanged',
        short: `${indexLabel(before)} became ${article(after.kind)} ${after.kind.toUpperCase()}`,
        detail: `${indexLabel(before)} became ${article(after.kind)} ${after.kind.toUpperCase()}: partition key ${s.partitionKey}, sort key ${s.sortKey}, projection ${s.projection}`,
        isHeadline: true,
      });
      continue;
    }
    const was = indexShape(before, a);
    const now = indexShape(after, b);
    const parts: string[] = [];
    const what: string[] = [];
    if (was.partitionKey !== now.partitionKey || was.sortKey !== now.sortKey) {
      what.push('key schema');
      if (was.partitionKey !== now.partitionKey) parts.push(`partition key ${was.partitionKey} → ${now.partitionKey}`);
      if (was.sortKey !== now.sortKey) parts.push(`sort key ${was.sortKey} → ${now.sortKey}`);
    }
    if (was.projection !== now.projection) {
      what.push('projection');
      parts.push(`projection ${was.projection} → ${now.projection}`);
    }
    if (before.kind === 'gsi' && after.kind === 'gsi' && !sameJson(before.provisioned, after.provisioned)) {
      what.push('capacity');
      parts.push(`capacity ${was.capacity} → ${now.capacity}`);
    }
    if (what.length === 0) continue;
    const whatText = what.length === 1 ? what[0]! : `${what.slice(0, -1).join(', ')} and ${what.at(-1)!}`;
    add({ kind: 'indexChanged', short: `${indexLabel(after)} ${whatText} changed`, detail: `${indexLabel(after)}: ${parts.join('; ')}`, isHeadline: true });
  }
}

const bindingText = (k: KeyBinding): string =>
  `${k.template}${k.when ? ` when ${k.when}` : ''}${k.shards ? ` sharded ×${k.shards.count} (${k.shards.method})` : ''}`;

function entityChanges(a: Table, b: Table, add: (c: Omit<StructuralChange, 'table'>) => void): void {
  const groups = matchItems<Entity>(
    [a.entities, b.entities],
    [
      { kind: 'id', keyOf: (e) => e.id },
      { kind: 'name', keyOf: (e) => nameKey(e.name) },
    ],
  );
  for (const { items: [before, after] } of groups) {
    if (!before && after) {
      add({ kind: 'entityAdded', short: `entity ${after.name} added`, detail: `entity ${after.name} added`, isHeadline: true });
      continue;
    }
    if (before && !after) {
      add({ kind: 'entityRemoved', short: `entity ${before.name} removed`, detail: `entity ${before.name} removed`, isHeadline: true });
      continue;
    }
    if (!before || !after) continue;
    if (before.name !== after.name) {
      add({ kind: 'entityRenamed', short: `entity ${before.name} renamed ${after.name}`, detail: `entity ${before.name} renamed ${after.name}`, isHeadline: true });
    }
    const keys = [...new Set([...Object.keys(before.keys ?? {}), ...Object.keys(after.keys ?? {})])];
    const parts = keys.flatMap((k) => {
      const was = before.keys?.[k];
      const now = after.keys?.[k];
      if (sameJson(was, now)) return [];
      if (!was && now) return [`${k} added (${bindingText(now)})`];
      if (was && !now) return [`${k} removed (was ${bindingText(was)})`];
      return [`${k} ${bindingText(was!)} → ${bindingText(now!)}`];
    });
    if (parts.length > 0) {
      add({ kind: 'entityKeys', short: `${after.name} keys changed`, detail: `${after.name} keys: ${parts.join('; ')}`, isHeadline: false });
    }
  }
}

function tableChanges(a: Table, b: Table, add: (c: Omit<StructuralChange, 'table'>) => void): void {
  if (a.name !== b.name) add({ kind: 'tableRenamed', short: `table ${a.name} renamed ${b.name}`, detail: `table ${a.name} renamed ${b.name}`, isHeadline: true });
  const keysOf = (t: Table) => `partition key ${keyText(t.partitionKey)}, sort key ${keyText(t.sortKey) ?? '(none)'}`;
  if (keysOf(a) !== keysOf(b)) {
    add({ kind: 'tableKeys', short: 'table key schema changed', detail: `table key schema: ${keysOf(a)} → ${keysOf(b)}`, isHeadline: true });
  }
  if (!sameJson(a.billing, b.billing)) {
    const isModeChange = a.billing.mode !== b.billing.mode;
    const detail = `billing ${billingText(a.billing)} → ${billingText(b.billing)}`;
    const short = isModeChange ? `billing ${a.billing.mode === 'ON_DEMAND' ? 'on-demand' : 'provisioned'} → ${b.billing.mode === 'ON_DEMAND' ? 'on-demand' : 'provisioned'}` : 'provisioned capacity changed';
    add({ kind: 'billing', short, detail, isHeadline: true });
  }
  if (a.tableClass !== b.tableClass) {
    add({ kind: 'tableClass', short: `table class ${a.tableClass} → ${b.tableClass}`, detail: `table class ${a.tableClass} → ${b.tableClass}`, isHeadline: true });
  }
  indexChanges(a, b, add);
  entityChanges(a, b, add);
}

/** The plan in words, from the report's rows: `Scan`, `Query on GSI GSI2`, `Query on GSI GSI1 + BatchGetItem from the table`. */
function planText(p: PatternComparison, side: number): string {
  const plan = p.sides[side]?.plan;
  if (!plan) return '-';
  const operation = p.rows.find((r) => r.key === `${p.key}:operation`)?.cells[side]?.value;
  const op = typeof operation === 'string' ? operation : plan.operation;
  if (plan.operation === 'None' || op === NEEDS_KEY_DESIGN) return NEEDS_KEY_DESIGN;
  if (plan.operation === 'Scan') return op;
  const where = plan.index === 'table' ? 'on the table' : `on ${plan.indexKind.toUpperCase()} ${plan.index}`;
  // `Query on GSI GSI1 + BatchGetItem from the table`: the index belongs to the first operation.
  return op.startsWith(plan.operation) ? `${plan.operation} ${where}${op.slice(plan.operation.length)}` : `${op} ${where}`;
}

/**
 * `this − first` of a totals row, with both totals' derivations (each step prefixed by its side's
 * letter) and the subtraction.
 */
function netFigure(report: ComparisonReport, rowKey: string, what: string, side: number): Figure {
  const row = report.totals.find((r) => r.key === rowKey);
  const cellOf = (s: number): { value: number; steps: Step[]; assumptions: string[] } => {
    const cell = row?.cells[s];
    const value = typeof cell?.value === 'number' && Number.isFinite(cell.value) ? cell.value : 0;
    const letter = sideLetter(s);
    const steps = cell?.figure?.steps ?? [{ label: `${what} per month`, expression: usdText(value), value, unit: 'USD/month' as const }];
    return { value, steps: steps.map((st) => ({ ...st, label: `${letter}: ${st.label}` })), assumptions: cell?.figure?.assumptions ?? [] };
  };
  const first = cellOf(0);
  const later = cellOf(side);
  const letter = sideLetter(side);
  return figure(
    [
      ...first.steps,
      ...later.steps,
      {
        label: `Net change of the ${what} total per month, ${letter} − A`,
        expression: `${usdText(later.value)} − ${usdText(first.value)}`,
        value: roundUsd(later.value - first.value),
        unit: 'USD/month',
      },
    ],
    [...new Set([...first.assumptions, ...later.assumptions])],
  );
}

function summarizeSide(report: ComparisonReport, designs: readonly { design: Design }[], side: number): SideSummary {
  const changes: StructuralChange[] = [];
  const isMultiTable = report.tables.length > 1;
  for (const t of report.tables) {
    const beforeName = t.names[0] ?? null;
    const afterName = t.names[side] ?? null;
    const tableName = afterName ?? beforeName;
    if (tableName === null) continue;
    const add = (c: Omit<StructuralChange, 'table'>) =>
      changes.push({ ...c, table: tableName, ...(isMultiTable && !NAMES_TABLE.has(c.kind) ? { short: `${tableName}: ${c.short}`, detail: `${tableName}: ${c.detail}` } : {}) });
    if (beforeName === null) {
      add({ kind: 'tableAdded', short: `table ${tableName} added`, detail: `table ${tableName} added`, isHeadline: true });
      continue;
    }
    if (afterName === null) {
      add({ kind: 'tableRemoved', short: `table ${tableName} removed`, detail: `table ${tableName} removed`, isHeadline: true });
      continue;
    }
    const a = designs[0]?.design.tables.find((x) => x.name === beforeName);
    const b = designs[side]?.design.tables.find((x) => x.name === afterName);
    if (a && b) tableChanges(a, b, add);
  }

  const cheaper: PatternDelta[] = [];
  const costlier: PatternDelta[] = [];
  const replanned: PatternDelta[] = [];
  const notCosted: string[] = [];
  let unchanged = 0;
  for (const p of report.patterns) {
    const a = p.sides[0];
    const b = p.sides[side];
    if (!a && b) {
      const inTable = isMultiTable ? `${b.table}: ` : '';
      changes.push({ kind: 'patternAdded', table: b.table, short: `${inTable}pattern “${b.name}” added`, detail: `${inTable}access pattern “${b.name}” added`, isHeadline: true });
      continue;
    }
    if (a && !b) {
      const inTable = isMultiTable ? `${a.table}: ` : '';
      changes.push({ kind: 'patternRemoved', table: a.table, short: `${inTable}pattern “${a.name}” removed`, detail: `${inTable}access pattern “${a.name}” removed`, isHeadline: true });
      continue;
    }
    if (!a || !b) continue;
    const row = p.rows.find((r) => r.key === `${p.key}:onDemand`);
    const before = row?.cells[0]?.value;
    const after = row?.cells[side]?.value;
    if (typeof before !== 'number' || typeof after !== 'number' || !Number.isFinite(before) || !Number.isFinite(after)) {
      notCosted.push(b.name);
      continue;
    }
    const delta: PatternDelta = { key: p.key, name: b.name, kind: p.kind, before, after, delta: roundUsd(after - before), planBefore: planText(p, 0), planAfter: planText(p, side) };
    if (isSameNumber(before, after)) {
      unchanged += 1;
      if (delta.planBefore !== delta.planAfter) replanned.push(delta);
    } else if (after < before) cheaper.push(delta);
    else costlier.push(delta);
  }
  cheaper.sort((x, y) => x.delta - y.delta);
  costlier.sort((x, y) => y.delta - x.delta);

  return {
    side,
    letter: sideLetter(side),
    changes,
    cheaper,
    costlier,
    unchanged,
    replanned,
    notCosted,
    net: {
      onDemand: netFigure(report, 'totals:onDemandMonthly', 'on-demand', side),
      provisioned: netFigure(report, 'totals:provisionedMonthly', 'provisioned', side),
    },
  };
}

/**
 * Summarizes a comparison: each later design against the first (pure). `designs` are the ones the
 * report was made of, in the same order (their entities and billing are read from them); tables,
 * indexes and patterns are matched as the report matched them.
 */
export function summarizeComparison(report: Omit<ComparisonReport, 'summary'>, designs: readonly { design: Design }[]): ComparisonSummary {
  const full = report as ComparisonReport;
  return { sides: report.sides.slice(1).map((_, i) => summarizeSide(full, designs, i + 1)) };
}

/** The three parts of the one-line summary, for a UI that shows the dollars as buttons. */
export interface SummaryParts {
  /** `GSI2 added, GSI1 projection changed`, or `no structural change`. */
  changes: string;
  /** `3 patterns cheaper, 1 costlier, 7 unchanged`. */
  patterns: string;
  /** `−$412.00/month on-demand`. */
  onDemand: string;
  /** `+$3.10/month provisioned`. */
  provisioned: string;
}

export function summaryParts(s: SideSummary): SummaryParts {
  const headline = s.changes.filter((c) => c.isHeadline);
  const named = headline.length > 0 ? headline : s.changes;
  const shown = named.length > SENTENCE_CHANGES + 1 ? named.slice(0, SENTENCE_CHANGES) : named;
  const rest = named.length - shown.length;
  const changes =
    named.length === 0 ? 'no structural change' : `${shown.map((c) => c.short).join(', ')}${rest > 0 ? ` and ${plural(rest, 'more change')}` : ''}`;
  const counts: [number, string][] = [
    [s.cheaper.length, 'cheaper'],
    [s.costlier.length, 'costlier'],
    [s.unchanged, 'unchanged'],
    [s.notCosted.length, 'not costed'],
  ];
  const present = counts.filter(([n]) => n > 0);
  const patterns =
    present.length === 0 ? 'no access pattern in both' : present.map(([n, word], i) => (i === 0 ? `${plural(n, 'pattern')} ${word}` : `${n} ${word}`)).join(', ');
  return {
    changes,
    patterns,
    onDemand: `${signedUsdText(s.net.onDemand.value)}/month on-demand`,
    provisioned: `${signedUsdText(s.net.provisioned.value)}/month provisioned`,
  };
}

/** `GSI2 added; 3 patterns cheaper, 1 costlier, 7 unchanged; net −$412.00/month on-demand, +$3.10/month provisioned`. */
export function summarySentence(s: SideSummary): string {
  const p = summaryParts(s);
  return `${p.changes}; ${p.patterns}; net ${p.onDemand}, ${p.provisioned}`;
}

/** `Orders of a customer: $410.63 → $0.49 on-demand/month (−$410.13), Scan → Query on GSI GSI1` (the plans only when they differ). */
export function deltaText(d: PatternDelta): string {
  const plans = d.planBefore === d.planAfter ? '' : `, ${d.planBefore} → ${d.planAfter}`;
  return `${d.name}: ${usdText(d.before)} → ${usdText(d.after)} on-demand/month (${signedUsdText(d.delta)})${plans}`;
}

/** The summary's lists under its one line: the changes in full, then the patterns by how their cost moved. */
export function summaryDetails(s: SideSummary): { title: string; items: string[] }[] {
  return [
    { title: 'Changes', items: s.changes.map((c) => c.detail) },
    { title: 'Cheaper', items: s.cheaper.map(deltaText) },
    { title: 'Costlier', items: s.costlier.map(deltaText) },
    { title: 'Same cost, another plan', items: s.replanned.map((d) => `${d.name}: ${d.planBefore} → ${d.planAfter}`) },
    { title: 'Not costed on one side', items: s.notCosted },
  ].filter((d) => d.items.length > 0);
}
