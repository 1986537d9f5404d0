/** Plain-text output helpers: numbers, dollars, aligned tables and a Figure's derivation. */
import { formatNumber, unitLabel, type Figure } from '../../src-shared/capacity/index.ts';

// Dollars and bytes read the same in the CLI as on screen: one format module.
export { formatBytes, formatUsd } from '../../src-shared/numbers/index.ts';

/** A number for JSON output: finite, without binary floating-point noise (0.1 + 0.2 → 0.3); null otherwise. */
export function jsonNumber(n: number): number | null {
  return Number.isFinite(n) ? Number(n.toPrecision(15)) : null;
}

export type Align = 'left' | 'right';

/**
 * Rows as aligned columns, two spaces apart, the header first. Trailing spaces are trimmed, so a
 * left-aligned last column (a key condition) may run as long as it needs.
 */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[], indent = ''): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  return all.map((row) =>
    (
      indent +
      widths
        .map((w, c) => {
          const cell = row[c] ?? '';
          return align[c] === 'right' ? cell.padStart(w) : cell.padEnd(w);
        })
        .join('  ')
    ).trimEnd(),
  );
}

/** A figure's derivation, one line per step (`label: expression = value unit`), then its assumptions. */
export function explainFigure(f: Figure, indent: string): string[] {
  const lines = f.steps.map((s) => {
    const value = `${formatNumber(s.value, 4)}${s.unit ? ` ${unitLabel(s.value, s.unit)}` : ''}`;
    const expression = s.expression.trim();
    const isBare = expression === '' || expression === formatNumber(s.value, 4) || expression === value;
    // An expression that states its own result ("… = 6 B") reads better after the value than before it.
    const shown = isBare ? value : expression.includes(' = ') ? `${value} (${expression})` : `${expression} = ${value}`;
    return `${indent}${s.label}: ${shown}` + (s.source ? ` [${s.source.title}: ${s.source.url}]` : '');
  });
  for (const a of f.assumptions) lines.push(`${indent}(assumes) ${a}`);
  return lines;
}
