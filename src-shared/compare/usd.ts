/**
 * Dollars as the comparison shows them: cents for a cent or more, two significant digits below
 * that, and a sign for a difference.
 */

/** `$1,234.50`; `$0.0004` below a cent; `$0.00` for nothing. */
export function usdText(usd: number): string {
  if (usd === 0) return '$0.00';
  if (Math.abs(usd) < 0.01) return `$${Number(usd.toPrecision(2)).toLocaleString('en-US', { maximumFractionDigits: 10 })}`;
  return `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A difference: `+$3.10`, `−$412.00` (a minus sign, not a hyphen), `$0.00` for none. */
export function signedUsdText(usd: number): string {
  if (usd === 0 || Object.is(usd, -0)) return '$0.00';
  return `${usd > 0 ? '+' : '−'}${usdText(Math.abs(usd))}`;
}
