/**
 * Display helpers shared by several screens. Presentation only; no domain rules.
 *
 * `formatBytes` here is the short size the data list and the pattern panel show (`1.2 KB`, one
 * decimal); src-shared/numbers' `formatBytes` gives figures two (`1.17 KB`).
 */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `436 B`, `1.2 KB`, `187.1 MB` (1 KB = 1,024 B, as DynamoDB counts). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${UNITS[unit]}`;
}
