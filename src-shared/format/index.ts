/**
 * How Keyplan writes numbers, everywhere: the UI, the CLI, exports and reports. One module so that a
 * dollar amount reads the same on every screen and in every file, and fast: one cached
 * `Intl.NumberFormat` per format (`toLocaleString` with options builds a formatter on every call,
 * about 20 µs, which the costing of a large design calls tens of thousands of times).
 *
 * Always `en-US` grouping (`1,234.5`): designs are shared between people, and a number must read the
 * same on every machine.
 */

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', options);
    formatters.set(key, f);
  }
  return f;
}

/** `1234567.891` → `1,234,567.89`: grouped, at most `maxFractionDigits` decimals, none for integers. */
export function formatNumber(n: number, maxFractionDigits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  return formatter(`f${maxFractionDigits}`, { maximumFractionDigits: maxFractionDigits }).format(n);
}

/** `0.0031` with two significant digits: for small values where decimals would say nothing. */
export function formatSignificant(n: number, digits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  return formatter(`s${digits}`, { maximumSignificantDigits: digits }).format(n);
}

/** A whole count: `1,000,000` (rounded). */
export function formatCount(n: number): string {
  return formatNumber(Math.round(n), 0);
}

/**
 * Capacity units per second: whole units from 100 up, one decimal from 10, two significant digits
 * below (a key among a million gets 0.003 WCU/s, not "0"), and 0 only for nothing at all.
 */
export function formatUnits(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (n === 0 || Math.abs(n) >= 10) return formatNumber(n, Math.abs(n) >= 100 ? 0 : 1);
  return formatSignificant(n, 2);
}

/** Dollars: `$1,234.50` (cents always shown), `$0.0004` below a cent (two significant digits), `$0.00` for nothing. */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return String(usd);
  if (usd === 0) return '$0.00';
  const sign = usd < 0 ? '-' : '';
  const abs = Math.abs(usd);
  if (abs < 0.01) return `${sign}$${formatter('usd-small', { maximumSignificantDigits: 2 }).format(abs)}`;
  return `${sign}$${formatter('usd', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(abs)}`;
}

/** A difference in dollars: `+$3.10`, `−$412.00` (a minus sign, not a hyphen), `$0.00` for none. */
export function formatSignedUsd(usd: number): string {
  if (usd === 0 || Object.is(usd, -0) || !Number.isFinite(usd)) return usd === 0 || Object.is(usd, -0) ? '$0.00' : String(usd);
  return `${usd > 0 ? '+' : '−'}${formatUsd(Math.abs(usd))}`;
}

/** Bytes as `812 B`, `9.48 GB` (binary units, as DynamoDB counts them). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const units = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
  let value = bytes;
  let i = 0;
  while (Math.abs(value) >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  return `${formatNumber(value, i === 0 ? 0 : 2)} ${units[i]}`;
}

/** A share as a percentage: `92%`, `0.4%`, `100%`; `<0.1%` for a share that is not zero but rounds to it. */
export function formatShare(fraction: number): string {
  if (!Number.isFinite(fraction)) return String(fraction);
  const pct = fraction * 100;
  if (pct > 0 && pct < 0.05) return '<0.1%';
  return `${formatNumber(pct >= 10 || pct === 0 ? Math.round(pct) : Math.round(pct * 10) / 10, 1)}%`;
}

/** A percentage with up to two decimals: `5%`, `0.25%`, `100%`. */
export function formatPercent(fraction: number): string {
  return `${formatNumber(fraction * 100, 2)}%`;
}
