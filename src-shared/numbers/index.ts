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

/**
 * `n` as the en-US `Intl.NumberFormat` writes it, without creating one: the first formatter of a
 * process loads ICU's number data (about 20 ms), a tenth of a command-line run. Like V8's ICU, it
 * rounds the shortest decimal that reads back as `n` (`String(n)`: 1.005 → 1.01), half away from
 * zero, keeping `fractionDigits` decimals or `significantDigits` digits; trailing fraction zeros
 * go, the integer part is grouped in threes. Undefined where it does not apply (the caller then
 * uses Intl).
 */
function plainDecimal(n: number, rule: { fractionDigits: number } | { significantDigits: number }): string | undefined {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(n)));
  if (!m) return undefined;
  const whole = m[1]!;
  let digits = whole + (m[2] ?? '');
  // The decimal point sits after `point` digits of `digits` (negative: zeros before them).
  let point = whole.length + Number(m[3] ?? 0);
  const lead = digits.search(/[1-9]/);
  if (lead < 0) return `${n < 0 || Object.is(n, -0) ? '-' : ''}0`;
  digits = digits.slice(lead);
  point -= lead;
  const keep = 'fractionDigits' in rule ? point + rule.fractionDigits : rule.significantDigits;
  if (keep < digits.length) {
    const up = digits.charCodeAt(Math.max(keep, 0)) >= 53 && keep >= 0; // '5' and above round away from zero
    digits = keep > 0 ? digits.slice(0, keep) : '';
    if (up) {
      let i = digits.length - 1;
      while (i >= 0 && digits[i] === '9') i -= 1;
      if (i < 0) {
        digits = `1${'0'.repeat(digits.length)}`;
        point += 1;
      } else digits = `${digits.slice(0, i)}${String.fromCharCode(digits.charCodeAt(i) + 1)}${'0'.repeat(digits.length - i - 1)}`;
    }
  }
  let integer: string;
  let fraction: string;
  if (point <= 0) {
    integer = '0';
    fraction = `${'0'.repeat(-point)}${digits}`;
  } else if (point >= digits.length) {
    integer = digits + '0'.repeat(point - digits.length);
    fraction = '';
  } else {
    integer = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  fraction = fraction.replace(/0+$/, '');
  if (integer === '') integer = '0';
  return `${n < 0 ? '-' : ''}${integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/** `1234567.891` → `1,234,567.89`: grouped, at most `maxFractionDigits` decimals, none for integers. */
export function formatNumber(n: number, maxFractionDigits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  const plain = Number.isInteger(maxFractionDigits) && maxFractionDigits >= 0 && maxFractionDigits <= 20 ? plainDecimal(n, { fractionDigits: maxFractionDigits }) : undefined;
  return plain ?? formatter(`f${maxFractionDigits}`, { maximumFractionDigits: maxFractionDigits }).format(n);
}

/** `0.0031` with two significant digits: for small values where decimals would say nothing. */
export function formatSignificant(n: number, digits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  const plain = Number.isInteger(digits) && digits >= 1 && digits <= 21 ? plainDecimal(n, { significantDigits: digits }) : undefined;
  return plain ?? formatter(`s${digits}`, { maximumSignificantDigits: digits }).format(n);
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

/**
 * Exactly `digits` decimals, grouped: `2.0`, `1,234.50` (what `toFixed` writes, with en-US grouping),
 * for a figure whose precision is part of what it says (seconds to a tenth, a ratio to a hundredth).
 */
export function formatFixed(n: number, digits: number): string {
  if (!Number.isFinite(n)) return String(n);
  return formatter(`x${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

/**
 * `n` rounded to `digits` decimals as a number, for JSON a person reads (`0.1234567` → `0.123457`
 * with 6): the number `toFixed(digits)` writes, read back.
 */
export function roundTo(n: number, digits: number): number {
  return Number.isFinite(n) ? Number(n.toFixed(digits)) : n;
}

/**
 * Dollars with up to `maxFractionDigits` decimals and no trailing zeros: `$0.00013`, `$49.275`. For a
 * price or a step of a derivation, where cutting to cents would hide the arithmetic; totals shown to
 * a person are `formatUsd`.
 */
export function formatUsdExact(usd: number, maxFractionDigits = 6): string {
  return `$${formatNumber(usd, maxFractionDigits)}`;
}

/** The units bytes are written in; binary, as DynamoDB counts them (1 KB = 1,024 B). */
export type ByteUnit = 'B' | 'KB' | 'MB' | 'GB' | 'TB';

const BYTE_UNITS: readonly ByteUnit[] = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes in one `unit`. */
export const BYTES_PER_UNIT: Readonly<Record<ByteUnit, number>> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/** `bytes` in the largest unit it fills at least once, and that unit. */
function scaleBytes(bytes: number): { value: number; unit: ByteUnit } {
  let value = bytes;
  let i = 0;
  while (Math.abs(value) >= 1024 && i < BYTE_UNITS.length - 1) {
    value /= 1024;
    i += 1;
  }
  return { value, unit: BYTE_UNITS[i]! };
}

/** Bytes as `812 B`, `9.48 GB` (binary units, as DynamoDB counts them): a figure, two decimals. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const { value, unit } = scaleBytes(bytes);
  return `${formatNumber(value, unit === 'B' ? 0 : 2)} ${unit}`;
}

/** Bytes as a list shows a size: `436 B`, `1.2 KB`, `187 MB` (one decimal below 100, binary units). */
export function formatBytesBrief(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const { value, unit } = scaleBytes(bytes);
  return `${formatFixed(value, unit === 'B' || Math.abs(value) >= 100 ? 0 : 1)} ${unit}`;
}

/**
 * Bytes in a unit the caller names, for a size stated against a limit in that unit (`400 KB`,
 * `10 GB`): up to `maxFractionDigits` decimals. `bytesPerUnit` is for a unit defined elsewhere (the
 * pricing's bytes per GB, which a user may set to 10^9).
 */
export function formatBytesIn(bytes: number, unit: ByteUnit, maxFractionDigits = 2, bytesPerUnit = BYTES_PER_UNIT[unit]): string {
  return `${formatNumber(bytes / bytesPerUnit, maxFractionDigits)} ${unit}`;
}

/**
 * A size limit for messages, in the unit it is a whole number of: `20 MiB` (1,048,576-byte units),
 * `1 MB` (1,000,000), else MB to one decimal: `1.5 MB`.
 */
export function formatByteLimit(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes % MiB === 0) return `${formatNumber(bytes / MiB, 0)} MiB`;
  if (bytes % 1_000_000 === 0) return `${formatNumber(bytes / 1_000_000, 0)} MB`;
  return `${formatNumber(bytes / 1_000_000, 1)} MB`;
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
