/**
 * The design sheet (`sheet.ts`) as GitHub-flavoured Markdown: to paste into a pull request,
 * a wiki or a design review. Export only.
 *
 * Everything the user wrote (names, templates, conditions) is escaped, so a `|` in a key template
 * stays inside its table cell and a `<script>` in a name is text: templates and expressions go in
 * code spans (`|` written `\|`, which GFM tables read as a pipe even inside a code span), other text
 * has its Markdown punctuation backslash-escaped.
 */
import type { Figure } from '../../capacity/index.ts';
import { formatNumber, formatUsd } from '../../numbers/index.ts';
import type { Design } from '../../model/index.ts';
import type { EntityChartPart } from './entity-chart.ts';
import type { PatternRow } from './pattern-chart.ts';
import { designSheet, type DesignSheet, type SheetCosts, type TableSheet } from './sheet.ts';
import {
  keyCellText,
  patternSummary,
  rowNotes,
  rowDerivations,
  servedByText,
  sheetPerRequest,
  sheetUnitsPerSecond,
  sheetSources,
  stepText,
  pricingText,
  SHEET_METHOD,
} from './text.ts';

/** Text on one line (a table cell or a heading holds no line break). */
const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ');

/**
 * Plain text with every character Markdown could read as markup escaped, on one line. An `_`
 * between two letters or digits stays as it is (`NEW_IMAGE`): GFM never reads it as emphasis.
 */
export function markdownText(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>|~&#!]/g, (c, at: number, all: string) =>
    c === '_' && /[\p{L}\p{N}]/u.test(all[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(all[at + 1] ?? '') ? c : `\\${c}`,
  );
}

/**
 * A code span inside a table cell: the fence is longer than any run of backticks inside, and `|`
 * is written `\|` (the table splits cells before it reads code spans).
 */
export function markdownCode(text: string): string {
  const body = oneLine(text).replaceAll('|', '\\|');
  if (body.trim() === '') return '(empty)';
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = body.startsWith('`') || body.endsWith('`') || (body.startsWith(' ') && body.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A paragraph of plain text: escaped, and not read as a list, a heading or a rule by how it starts. */
function markdownParagraph(text: string): string {
  const escaped = markdownText(text.trim());
  const ordinal = /^\d+(?=[.)])/.exec(escaped);
  if (ordinal) return `${ordinal[0]}\\${escaped.slice(ordinal[0].length)}`;
  return /^[-+=]/.test(escaped) ? `\\${escaped}` : escaped;
}

const DASH = '—';

function table(header: string[], rows: string[][], align?: ('left' | 'right')[]): string[] {
  const rule = header.map((_, i) => (align?.[i] === 'right' ? '---:' : '---'));
  return [`| ${header.join(' | ')} |`, `| ${rule.join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

function usd(f: Figure | undefined): string {
  return f ? formatUsd(f.value) : DASH;
}

function entityChartLines(t: TableSheet): string[] {
  if (t.entityCount === 0) return ['No entities yet.'];
  const lines: string[] = [];
  t.entityChart.forEach((part: EntityChartPart, i) => {
    if (t.entityChart.length > 1) lines.push(`**Part ${i + 1} of ${t.entityChart.length}:** ${part.groups.map((g) => markdownText(g.label)).join(', ')}`, '');
    const header = ['Entity', ...part.groups.flatMap((g) => g.columns.map((c) => `${markdownText(c.attribute)} (${g.kind === 'table' ? 'table' : markdownText(g.name)} ${c.role === 'partition key' ? 'PK' : 'SK'}${c.position ? ` ${c.position.index + 1}/${c.position.of}` : ''})`))];
    const rows = part.rows.map((r) => [markdownText(r.name), ...r.cells.map((c) => (c ? markdownCell(c) : DASH))]);
    lines.push(...table(header, rows), '');
  });
  if (t.hasEntitiesOutsideAnIndex) lines.push(`${DASH} the entity has no key there: it is not in that index (a sparse index).`);
  return lines;
}

function markdownCell(cell: Parameters<typeof keyCellText>[0]): string {
  const parts = [cell.template === '' ? '(empty)' : markdownCode(cell.template)];
  if (cell.when !== undefined) parts.push(`only when ${markdownCode(cell.when)}`);
  if (cell.shards !== undefined) parts.push(markdownText(cell.shards));
  return parts.join('; ');
}

function patternCells(r: PatternRow): string[] {
  const p = r.plan;
  return [
    String(r.number),
    `${markdownText(r.name || '(unnamed)')} — ${markdownText(patternSummary(r))}`,
    markdownText(servedByText(r)),
    p?.keyCondition !== undefined ? markdownCode(p.keyCondition) : DASH,
    p?.filter !== undefined ? markdownCode(p.filter) : DASH,
    p ? `${sheetUnitsPerSecond(p)} (${markdownText(sheetPerRequest(p, r.ratePerSecond))})` : DASH,
    usd(p?.onDemandMonthly),
    usd(p?.provisionedMonthly),
  ];
}

function patternChartLines(t: TableSheet): string[] {
  if (t.patterns.length === 0) return ['No access patterns yet.'];
  const lines = table(
    ['#', 'Pattern', 'Served by', 'Key condition', 'Filter', 'Units per second', 'On-demand / month', "Provisioned / month (the load's share)"],
    t.patterns.map(patternCells),
    ['right', 'left', 'left', 'left', 'left', 'right', 'right', 'right'],
  );
  const notes = t.patterns.flatMap((r) => rowNotes(r).map((n) => `- ${r.number}. ${markdownText(r.name || '(unnamed)')}: ${markdownText(n)}`));
  if (notes.length > 0) lines.push('', 'Notes:', '', ...notes);
  if (t.onDemandRequestsMonthly && t.provisionedCapacityMonthly) {
    lines.push(
      '',
      `Requests on-demand, every pattern of ${markdownText(t.name)}: **${usd(t.onDemandRequestsMonthly)}** per month. ` +
        `Provisioned capacity of the table and its GSIs: **${usd(t.provisionedCapacityMonthly)}** per month (the capacity held and billed, not the sum of the patterns' shares).`,
    );
  }
  return lines;
}

function tableLines(t: TableSheet): string[] {
  const lines = [`## Table ${markdownText(t.name)}`, '', '### Settings', '', ...table(['Setting', 'Value'], t.settings.map((s) => [markdownText(s.label), markdownText(s.value)])), ''];
  lines.push('### Indexes', '');
  if (t.indexes.length === 0) lines.push('No secondary indexes.');
  else
    lines.push(
      ...table(
        ['Index', 'Kind', 'Partition key', 'Sort key', 'Projection', 'Capacity'],
        t.indexes.map((i) => [markdownText(i.name), i.kind.toUpperCase(), markdownText(i.partitionKey), i.sortKey !== undefined ? markdownText(i.sortKey) : 'none', markdownText(i.projection), markdownText(i.capacity)]),
      ),
    );
  lines.push('', '### Entity chart', '', ...entityChartLines(t), '', '### Access-pattern chart', '', ...patternChartLines(t), '');
  return lines;
}

function figureLines(f: Figure, sourceNumber: (url: string) => number): string[] {
  return [
    ...f.steps.map((s) => `  - ${markdownText(stepText(s))}${s.source ? ` [[${sourceNumber(s.source.url)}]][source-${sourceNumber(s.source.url)}]` : ''}`),
    ...f.assumptions.map((a) => `  - Assumes: ${markdownText(a)}`),
  ];
}

/** A derived figure's value: dollars with cents, units as the chart shows them. */
const derivedValue = (f: Figure): string => (f.unit === 'USD/month' ? formatUsd(f.value) : `${formatNumber(f.value, 4)} ${f.unit}`);

function derivationLines(sheet: DesignSheet): string[] {
  const rows = sheet.tables.flatMap((t) => t.patterns.filter((r) => r.plan).map((r) => ({ t, r })));
  if (rows.length === 0) return [];
  const sources = sheetSources(sheet);
  const numbers = new Map(sources.map((s, i) => [s.url, i + 1]));
  const sourceNumber = (url: string): number => numbers.get(url) ?? 0;
  const lines = ['## How the numbers are computed', ''];
  if (sheet.pricing) lines.push(`${markdownText(pricingText(sheet.pricing))}. ${markdownText(SHEET_METHOD)}`, '');
  for (const { t, r } of rows) {
    lines.push(`### ${sheet.tables.length > 1 ? `${markdownText(t.name)}: ` : ''}${r.number}. ${markdownText(r.name || '(unnamed)')}`, '');
    for (const d of rowDerivations(r.plan!)) lines.push(`- ${markdownText(d.title)}: ${derivedValue(d.figure)}`, ...figureLines(d.figure, sourceNumber));
    lines.push('');
  }
  lines.push('### Sources', '', ...sources.map((s, i) => `${i + 1}. [${markdownText(s.title)}](${s.url})`), '');
  lines.push(...sources.map((s, i) => `[source-${i + 1}]: ${s.url}`), '');
  return lines;
}

/** The design sheet of a design as Markdown (GFM tables). `costs` as for `designSheet`. */
export function toDesignSheetMarkdown(design: Design, costs?: SheetCosts): string {
  const sheet = costs ? designSheet(design, costs) : designSheet(design);
  const lines = [`# Design sheet: ${markdownText(sheet.name)}`, ''];
  if (sheet.description && sheet.description.trim() !== '') lines.push(markdownParagraph(sheet.description), '');
  if (sheet.totals) {
    lines.push(
      `Per month: **${usd(sheet.totals.onDemandMonthly)}** on-demand (requests + storage), **${usd(sheet.totals.provisionedMonthly)}** provisioned (capacity + storage), of which storage ${usd(sheet.totals.storageMonthly)}.`,
      '',
    );
  } else if (sheet.costError) {
    lines.push(`The costs cannot be computed for the design as it is: ${markdownText(sheet.costError)}`, '');
  }
  for (const t of sheet.tables) lines.push(...tableLines(t));
  lines.push(...derivationLines(sheet));
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
