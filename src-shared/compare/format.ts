/**
 * A comparison report as text: Markdown to paste into a pull request, and aligned columns for a
 * terminal. The summary comes first; then one column per design, headed by its letter (A, B…),
 * the better value marked (✅ and bold in Markdown, ✓ in text).
 * Patterns, tables and targets on which every design agrees are folded into one "Same in every
 * design" line, so a review shows what changed.
 */
import { formatNumber } from '../capacity/index.ts';
import { formatSecond } from '../partition/index.ts';
import type { ComparisonReport } from './types.ts';
import { markedSides, type ComparisonCell, type ComparisonRow, type RowFormat } from './rows.ts';
import { summaryDetails, summarySentence } from './summary.ts';
import { formatShare, formatUsd as usdText, formatBytes } from '../numbers/index.ts';

export interface FormatOptions {
  /** Show only the rows whose values differ (the folded subjects are listed either way). */
  onlyDiffering?: boolean;
}

/** A cell's value as shown; `missing` where the design has none. */
export function cellText(cell: ComparisonCell, format: RowFormat, missing = '-'): string {
  const v = cell.value;
  if (v === null) return missing;
  if (typeof v === 'string') return v;
  if (!Number.isFinite(v)) return String(v);
  switch (format) {
    case 'usd':
      return usdText(v);
    case 'units':
      return formatNumber(v, Math.abs(v) < 1 ? 4 : 2);
    case 'bytes':
      return formatBytes(v);
    case 'share':
      return formatShare(v);
    case 'count':
    case 'text':
      return formatNumber(v);
  }
}

interface Line {
  /** The subject (pattern, table, target), on its first row only. */
  subject: string;
  row: ComparisonRow;
}

interface Block {
  title: string;
  subjectHeader: string;
  lines: Line[];
  notes: string[];
}

interface Subject {
  label: string;
  rows: ComparisonRow[];
}

/** Subjects with a differing row are shown; the others are named in one note. */
function block(title: string, subjectHeader: string, subjects: Subject[], options: FormatOptions, isFolding = true): Block {
  const lines: Line[] = [];
  const same: string[] = [];
  for (const s of subjects) {
    const isDiffering = s.rows.some((r) => r.differs);
    if (isFolding && !isDiffering) {
      same.push(s.label);
      continue;
    }
    const rows = options.onlyDiffering ? s.rows.filter((r) => r.differs) : s.rows;
    rows.forEach((row, i) => lines.push({ subject: i === 0 ? s.label : '', row }));
  }
  return { title, subjectHeader, lines, notes: same.length === 0 ? [] : [`Same in every design: ${same.join(', ')}.`] };
}

function blocksOf(report: ComparisonReport, options: FormatOptions): Block[] {
  const blocks: Block[] = [];
  const patterns = block(
    'Access patterns',
    'Access pattern',
    report.patterns.map((p) => ({ label: `${p.name} (${p.sides.find((s) => s)!.patternId})`, rows: p.rows })),
    options,
  );
  const unmatched = report.unmatchedPatterns.map((u) => `Only in ${report.sides[u.side]!.letter}: ${u.name} (${u.patternId}), table ${u.table}.`);
  const byName = report.patterns.filter((p) => p.match === 'name').map((p) => `${p.name}: matched by name (ids ${p.sides.map((s) => s?.patternId ?? '-').join(' / ')}).`);
  patterns.notes.push(...unmatched, ...byName);
  blocks.push(patterns);

  const parts = report.tables.flatMap((t) =>
    t.parts.map((p) => ({ label: p.kind === 'table' ? `Table ${t.names.map((n) => n ?? '-').filter((n, i, all) => all.indexOf(n) === i).join(' / ')}` : `${p.kind.toUpperCase()} ${p.name} (table ${t.name})`, rows: p.rows })),
  );
  blocks.push(block('Tables and indexes', 'Table / index', parts, options));
  blocks.push(block('Totals', 'Per month and per second', [{ label: 'All tables', rows: report.totals }], options, false));

  const risk = report.partitionRisk;
  if (risk) {
    const w = risk.workload;
    const title = `Partition risk (seed ${risk.seed}, ${formatSecond(w.durationSeconds)} at ${w.stepSeconds} s steps, the same workload on every side)`;
    const targets = block(title, 'Target', risk.targets.map((t) => ({ label: `${t.target === 'table' ? 'Table' : `GSI ${t.target}`} (table ${t.table})`, rows: t.rows })), options);
    const throttled = block('', '', risk.patterns.map((r) => ({ label: r.label, rows: [{ ...r, label: 'Throttled requests' }] })), options);
    targets.lines.push(...throttled.lines);
    const same = risk.patterns.filter((r) => !r.differs).length;
    if (same > 0) targets.notes.push(`Throttled requests are the same in every design for ${same === risk.patterns.length ? 'every' : `the other ${same}`} access pattern${same === 1 ? '' : 's'}.`);
    blocks.push(targets);
  }

  blocks.push({
    title: 'Warnings only some designs have',
    subjectHeader: 'Warning',
    lines: report.warnings.map((w) => ({ subject: `${w.code} (table ${w.table})`, row: w })),
    notes: report.warnings.length === 0 ? ['None: every design has the same warnings.'] : [],
  });
  return blocks;
}

const legend = (mark: string): string =>
  `${mark} marks the better value. Rules: lower units, dollars, bytes, partition share and throttling are better; GetItem and Query (any key-based access) beat a Scan; a design without a warning beats one with it. Equal values are not marked. Rows with no better side (key schema, projection, key condition) show only the difference.`;

const escapeMd = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** A cell as shown, with the mark when its side is marked better. */
function markedCells(row: ComparisonRow, missing: string, mark: (text: string) => string): string[] {
  const marked = markedSides(row);
  return row.cells.map((c, side) => {
    const t = cellText(c, row.format, missing);
    return marked.includes(side) ? mark(t) : t;
  });
}

/**
 * The report as Markdown: a heading, the sides by letter, the summary (each later design against
 * the first), then one table per group with a column per design (A, B…) and the better value marked ✅.
 */
export function formatComparisonMarkdown(report: ComparisonReport, options: FormatOptions = {}): string {
  const letters = report.sides.map((s) => s.letter);
  const out = [`## Design comparison: ${report.sides.map((s) => `${s.letter} \`${escapeMd(s.label)}\``).join(' vs ')}`, ''];
  out.push(...report.sides.map((s) => `- **${s.letter}**: \`${escapeMd(s.label)}\`, design ${escapeMd(s.designName)}`), '');
  out.push('### Summary', '');
  for (const s of report.summary.sides) {
    out.push(`- **${s.letter} against A**: ${escapeMd(summarySentence(s))}.`);
    for (const d of summaryDetails(s)) {
      out.push(`  - ${d.title}:`);
      for (const item of d.items) out.push(`    - ${escapeMd(item)}`);
    }
  }
  out.push('', legend('✅'), '');
  for (const b of blocksOf(report, options)) {
    out.push(`### ${b.title}`, '');
    if (b.lines.length > 0) {
      out.push(`| ${b.subjectHeader} | | ${letters.join(' | ')} |`);
      out.push(`|---|---|${letters.map(() => '---:').join('|')}|`);
      for (const { subject, row } of b.lines) {
        const cells = markedCells(row, '—', (t) => `✅ **${t}**`).map(escapeMd);
        out.push(`| ${subject ? `**${escapeMd(subject)}**` : ''} | ${escapeMd(row.label)} | ${cells.join(' | ')} |`);
      }
      out.push('');
    }
    for (const n of b.notes) out.push(escapeMd(n), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** Rows as aligned columns, two spaces apart, trailing spaces trimmed. */
function columns(rows: string[][], rightAligned: ReadonlySet<number>, indent: string): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? '')].length)));
  return rows.map((r) =>
    (indent + widths.map((w, c) => {
      const cell = r[c] ?? '';
      const pad = ' '.repeat(w - [...cell].length);
      return rightAligned.has(c) ? pad + cell : cell + pad;
    }).join('  ')).trimEnd(),
  );
}

/**
 * The report for a terminal: the sides by letter, the summary first (each later design against the
 * first), then one aligned table per group with a column per design (A, B…), the better value followed by ✓.
 */
export function formatComparisonText(report: ComparisonReport, options: FormatOptions = {}): string {
  const letters = report.sides.map((s) => s.letter);
  const out = ['Comparison', ...report.sides.map((s) => `  ${s.letter}  ${s.label}  (design "${s.designName}")`)];
  out.push('', 'Summary');
  for (const s of report.summary.sides) {
    out.push(`  ${s.letter} against A: ${summarySentence(s)}.`);
    for (const d of summaryDetails(s)) {
      out.push(`    ${d.title}:`);
      for (const item of d.items) out.push(`      ${item}`);
    }
  }
  out.push('', legend('✓'));
  for (const b of blocksOf(report, options)) {
    out.push('', b.title);
    if (b.lines.length > 0) {
      const rows = [[b.subjectHeader, '', ...letters]];
      for (const { subject, row } of b.lines) rows.push([subject, row.label, ...markedCells(row, '-', (t) => `${t} ✓`)]);
      const numeric = new Set(letters.map((_, i) => i + 2));
      out.push(...columns(rows, numeric, '  '));
    }
    for (const n of b.notes) out.push(`  ${n}`);
  }
  return `${out.join('\n')}\n`;
}
