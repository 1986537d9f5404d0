/**
 * The design sheet (`sheet.ts`) as one standalone HTML page: inline CSS, no scripts, no
 * fetched resources, laid out for the screen and for print (table headers repeat on each page, rows
 * do not split). To attach to a review or open in any browser. Export only.
 *
 * Every piece of user text (names, templates, conditions, the design's description) goes through
 * `escapeHtml`, so a name holding `<script>` is shown as text and never runs.
 */
import type { Figure } from '../../capacity/index.ts';
import { formatNumber, formatUsd } from '../../numbers/index.ts';
import type { Design } from '../../model/index.ts';
import type { KeyCell } from './entity-chart.ts';
import type { PatternRow } from './pattern-chart.ts';
import { designSheet, type DesignSheet, type SheetCosts, type TableSheet } from './sheet.ts';
import {
  keyColumnRole,
  patternSummary,
  rowDerivations,
  servedByText,
  sheetPerRequest,
  sheetUnitsPerSecond,
  sheetSources,
  stepText,
  pricingText,
  SHEET_METHOD,
} from './text.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const DASH = '<span class="none" title="not in this index">—</span>';

const STYLE = `
  :root { color-scheme: light; --line: #d5dbe3; --muted: #5b6776; --accent: #2f5fb3; --bad: #b42318; --warn: #8a5a00; }
  * { box-sizing: border-box; }
  body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2430; margin: 24px auto; max-width: 1200px; padding: 0 20px; }
  h1 { font-size: 24px; margin: 0 0 6px; }
  h2 { font-size: 19px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
  h3 { font-size: 15px; margin: 18px 0 6px; }
  h4 { font-size: 14px; margin: 14px 0 4px; }
  p { margin: 6px 0; }
  .muted { color: var(--muted); }
  .line { display: block; }
  .small { font-size: 12px; }
  table { width: 100%; border-collapse: collapse; margin: 6px 0 10px; table-layout: auto; }
  th, td { border: 1px solid var(--line); padding: 4px 7px; vertical-align: top; text-align: left; overflow-wrap: break-word; }
  th { background: #f1f4f8; font-weight: 600; font-size: 12px; }
  th .sub { display: block; font-weight: 400; color: var(--muted); }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  td.num { white-space: nowrap; }
  td.num .line { white-space: normal; }
  code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
  .cond { display: block; color: var(--warn); font-size: 12px; }
  .none { color: var(--muted); }
  .bad { color: var(--bad); font-weight: 600; }
  .totals { display: flex; flex-wrap: wrap; gap: 10px 28px; margin: 10px 0; }
  .totals div { font-size: 13px; }
  .totals strong { display: block; font-size: 20px; }
  dl.settings { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 6px 0; }
  dl.settings dt { color: var(--muted); }
  dl.settings dd { margin: 0; overflow-wrap: anywhere; }
  ul.notes, ul.steps { margin: 4px 0 10px; padding-left: 20px; }
  a { color: var(--accent); }
  @media print {
    body { margin: 0; max-width: none; font-size: 11px; }
    h2 { break-after: avoid; }
    thead { display: table-header-group; }
    tr, dl.settings, .derivation { break-inside: avoid; }
    a { color: inherit; }
  }
  @page { margin: 14mm; }
`;

function usd(f: Figure | undefined): string {
  return f ? escapeHtml(formatUsd(f.value)) : '—';
}

function keyCellHtml(cell: KeyCell): string {
  const parts = [cell.template === '' ? '<span class="muted">(empty)</span>' : `<code>${escapeHtml(cell.template)}</code>`];
  if (cell.when !== undefined) parts.push(`<span class="cond">only when ${escapeHtml(cell.when)}</span>`);
  if (cell.shards !== undefined) parts.push(`<span class="cond">${escapeHtml(cell.shards)}</span>`);
  return parts.join('');
}

function entityChartHtml(t: TableSheet): string {
  if (t.entityCount === 0) return '<p class="muted">No entities yet.</p>';
  const parts = t.entityChart.map((part, i) => {
    const caption = t.entityChart.length > 1 ? `<h4>Part ${i + 1} of ${t.entityChart.length}: ${part.groups.map((g) => escapeHtml(g.label)).join(', ')}</h4>` : '';
    const groupRow = `<tr><th rowspan="2">Entity</th>${part.groups.map((g) => `<th colspan="${g.columns.length}">${escapeHtml(g.label)}</th>`).join('')}</tr>`;
    const columnRow = `<tr>${part.groups.flatMap((g) => g.columns.map((c) => `<th>${escapeHtml(c.attribute)}<span class="sub">${keyColumnRole(c)} (${c.type})</span></th>`)).join('')}</tr>`;
    const rows = part.rows.map((r) => `<tr><th scope="row">${escapeHtml(r.name)}</th>${r.cells.map((c) => `<td>${c ? keyCellHtml(c) : DASH}</td>`).join('')}</tr>`);
    return `${caption}<table class="entities"><thead>${groupRow}${columnRow}</thead><tbody>${rows.join('')}</tbody></table>`;
  });
  return `${parts.join('\n')}${t.hasEntitiesOutsideAnIndex ? '\n<p class="small muted">— the entity has no key there: it is not in that index (a sparse index).</p>' : ''}`;
}

function patternRowHtml(r: PatternRow): string {
  const p = r.plan;
  const name = `${escapeHtml(r.name || '(unnamed)')}<span class="line muted small">${escapeHtml(patternSummary(r))}</span>`;
  if (!p) {
    const why = r.needsKeyDesign !== undefined ? `<span class="line small">${escapeHtml(r.needsKeyDesign)}</span>` : '';
    return `<tr><td class="num">${r.number}</td><td>${name}</td><td colspan="6" class="muted">${escapeHtml(servedByText(r))}${why}</td></tr>`;
  }
  const served = `<span${p.isServed && !p.notes.some((n) => n.startsWith('Design problem')) ? '' : ' class="bad"'}>${escapeHtml(servedByText(r))}</span>`;
  const notes = p.notes.length > 0 ? `<ul class="notes small">${p.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>` : '';
  return (
    `<tr><td class="num">${r.number}</td><td>${name}</td><td>${served}${notes}</td>` +
    `<td>${p.keyCondition !== undefined ? `<code>${escapeHtml(p.keyCondition)}</code>` : '—'}</td>` +
    `<td>${p.filter !== undefined ? `<code>${escapeHtml(p.filter)}</code>` : '—'}</td>` +
    `<td class="num">${escapeHtml(sheetUnitsPerSecond(p))}<span class="line muted small">${escapeHtml(sheetPerRequest(p, r.ratePerSecond))}</span></td>` +
    `<td class="num">${usd(p.onDemandMonthly)}</td><td class="num">${usd(p.provisionedMonthly)}</td></tr>`
  );
}

function patternChartHtml(t: TableSheet): string {
  if (t.patterns.length === 0) return '<p class="muted">No access patterns yet.</p>';
  const head =
    '<tr><th class="num">#</th><th>Pattern</th><th>Served by</th><th>Key condition</th><th>Filter</th>' +
    '<th class="num">Units per second</th><th class="num">On-demand / month</th><th class="num">Provisioned / month<span class="sub">the load\'s share</span></th></tr>';
  const totals =
    t.onDemandRequestsMonthly && t.provisionedCapacityMonthly
      ? `<p>Requests on-demand, every pattern of ${escapeHtml(t.name)}: <strong>${usd(t.onDemandRequestsMonthly)}</strong> per month. ` +
        `Provisioned capacity of the table and its GSIs: <strong>${usd(t.provisionedCapacityMonthly)}</strong> per month (the capacity held and billed, not the sum of the patterns' shares).</p>`
      : '';
  return `<table class="patterns"><thead>${head}</thead><tbody>${t.patterns.map(patternRowHtml).join('\n')}</tbody></table>${totals}`;
}

function tableHtml(t: TableSheet): string {
  const settings = `<dl class="settings">${t.settings.map((s) => `<dt>${escapeHtml(s.label)}</dt><dd>${escapeHtml(s.value)}</dd>`).join('')}</dl>`;
  const indexes =
    t.indexes.length === 0
      ? '<p class="muted">No secondary indexes.</p>'
      : `<table><thead><tr><th>Index</th><th>Kind</th><th>Partition key</th><th>Sort key</th><th>Projection</th><th>Capacity</th></tr></thead><tbody>${t.indexes
          .map(
            (i) =>
              `<tr><td>${escapeHtml(i.name)}</td><td>${i.kind.toUpperCase()}</td><td>${escapeHtml(i.partitionKey)}</td><td>${i.sortKey !== undefined ? escapeHtml(i.sortKey) : 'none'}</td><td>${escapeHtml(i.projection)}</td><td>${escapeHtml(i.capacity)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  return [
    `<section><h2>Table ${escapeHtml(t.name)}</h2>`,
    `<h3>Settings</h3>${settings}`,
    `<h3>Indexes</h3>${indexes}`,
    `<h3>Entity chart</h3>${entityChartHtml(t)}`,
    `<h3>Access-pattern chart</h3>${patternChartHtml(t)}`,
    '</section>',
  ].join('\n');
}

function figureHtml(f: Figure, sourceNumber: (url: string) => number): string {
  const steps = f.steps.map((s) => {
    const n = s.source ? sourceNumber(s.source.url) : 0;
    return `<li>${escapeHtml(stepText(s))}${n > 0 ? ` <a href="#source-${n}" title="${escapeHtml(s.source!.title)}">[${n}]</a>` : ''}</li>`;
  });
  const assumptions = f.assumptions.map((a) => `<li class="muted">Assumes: ${escapeHtml(a)}</li>`);
  return `<ul class="steps small">${[...steps, ...assumptions].join('')}</ul>`;
}

const derivedValue = (f: Figure): string => (f.unit === 'USD/month' ? formatUsd(f.value) : `${formatNumber(f.value, 4)} ${f.unit}`);

function derivationsHtml(sheet: DesignSheet): string {
  const rows = sheet.tables.flatMap((t) => t.patterns.filter((r) => r.plan).map((r) => ({ t, r })));
  if (rows.length === 0) return '';
  const sources = sheetSources(sheet);
  const numbers = new Map(sources.map((s, i) => [s.url, i + 1]));
  const sourceNumber = (url: string): number => numbers.get(url) ?? 0;
  const intro = sheet.pricing ? `<p>${escapeHtml(pricingText(sheet.pricing))}. ${escapeHtml(SHEET_METHOD)}</p>` : '';
  const each = rows.map(({ t, r }) => {
    const title = `${sheet.tables.length > 1 ? `${escapeHtml(t.name)}: ` : ''}${r.number}. ${escapeHtml(r.name || '(unnamed)')}`;
    const figures = rowDerivations(r.plan!).map((d) => `<h4>${escapeHtml(d.title)}: ${escapeHtml(derivedValue(d.figure))}</h4>${figureHtml(d.figure, sourceNumber)}`);
    return `<div class="derivation"><h3>${title}</h3>${figures.join('')}</div>`;
  });
  const list = `<h3>Sources</h3><ol class="small">${sources.map((s, i) => `<li id="source-${i + 1}"><a href="${escapeHtml(s.url)}">${escapeHtml(s.title)}</a> <span class="muted">${escapeHtml(s.url)}</span></li>`).join('')}</ol>`;
  return `<section><h2>How the numbers are computed</h2>${intro}\n${each.join('\n')}\n${list}</section>`;
}

/** The design sheet of a design as a standalone HTML document. `costs` as for `designSheet`. */
export function toDesignSheetHtml(design: Design, costs?: SheetCosts): string {
  const sheet = costs ? designSheet(design, costs) : designSheet(design);
  const title = `Design sheet: ${sheet.name}`;
  const totals = sheet.totals
    ? `<div class="totals"><div>On-demand per month<strong>${usd(sheet.totals.onDemandMonthly)}</strong><span class="muted small">requests + storage</span></div>` +
      `<div>Provisioned per month<strong>${usd(sheet.totals.provisionedMonthly)}</strong><span class="muted small">capacity + storage</span></div>` +
      `<div>Storage per month<strong>${usd(sheet.totals.storageMonthly)}</strong><span class="muted small">tables and indexes</span></div></div>`
    : sheet.costError
      ? `<p class="bad">The costs cannot be computed for the design as it is: ${escapeHtml(sheet.costError)}</p>`
      : '';
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    sheet.description && sheet.description.trim() !== '' ? `<p>${escapeHtml(sheet.description)}</p>` : '',
    totals,
    ...sheet.tables.map(tableHtml),
    derivationsHtml(sheet),
    '</body>',
    '</html>',
  ]
    .filter((l) => l !== '')
    .join('\n')
    .concat('\n');
}
