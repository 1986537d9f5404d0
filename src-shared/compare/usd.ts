/**
 * Dollars as the comparison shows them: cents for a cent or more, two significant digits below
 * that, and a sign for a difference.
 */

import { formatSignedUsd, formatUsd } from '../format/index.ts';

/** `$1,234.50`; `$0.0004` below a cent; `$0.00` for nothing (the one dollar format of `src-shared/format`). */
export const usdText = formatUsd;

/** A difference: `+$3.10`, `−$412.00` (a minus sign, not a hyphen), `$0.00` for none. */
export const signedUsdText = formatSignedUsd;
