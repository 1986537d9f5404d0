import { describe, expect, it } from 'vitest';
import { formatBytes, formatBytesBrief, formatBytesIn, formatCount, formatFixed, formatNumber, formatPercent, formatShare, formatSignedUsd, formatSignificant, formatUnits, formatUsd, formatUsdExact, roundTo } from './index.ts';

describe('number formats', () => {
  it('groups thousands and caps decimals, whatever the machine locale', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(8333.333333)).toBe('8,333.33');
    expect(formatNumber(2.4)).toBe('2.4');
    expect(formatNumber(-1500.5, 0)).toBe('-1,501');
    expect(formatNumber(Number.NaN)).toBe('NaN');
    expect(formatCount(999_999.6)).toBe('1,000,000');
  });

  it('units per second: whole from 100, one decimal from 10, two significant digits below', () => {
    expect(formatUnits(12_345.6)).toBe('12,346');
    expect(formatUnits(12.34)).toBe('12.3');
    expect(formatUnits(0.003125)).toBe('0.0031');
    expect(formatUnits(0)).toBe('0');
  });

  it('dollars always show cents, and two significant digits below a cent', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0.25)).toBe('$0.25');
    expect(formatUsd(0.000375)).toBe('$0.00038');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(-12.5)).toBe('-$12.50');
    expect(formatSignedUsd(-412)).toBe('−$412.00');
    expect(formatSignedUsd(3.1)).toBe('+$3.10');
    expect(formatSignedUsd(0)).toBe('$0.00');
  });

  it('bytes in binary units, shares and percentages', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(10 * 1024 ** 3 - 0.52 * 1024 ** 3)).toBe('9.48 GB');
    expect(formatShare(0.923)).toBe('92%');
    expect(formatShare(0.0042)).toBe('0.4%');
    expect(formatShare(0.0001)).toBe('<0.1%');
    expect(formatPercent(0.0025)).toBe('0.25%');
  });
});

describe('formatNumber and formatSignificant write exactly what the en-US Intl.NumberFormat writes', () => {
  // Doubles across every magnitude, halves that round either way (1.005 reads as 1.005, so 1.01),
  // nines that carry, negatives that round to zero, and the edges of plain notation.
  const values = [0, -0, 1, -1, 0.5, 1.005, 2.675, 0.125, 1234.5, 999.995, 9.995, 99999.5, 1e20, 9.99e20, 1e21, 1.5e22, 123456789.987654, -0.001, -0.004, -2.5, 0.000012, 1.2e-7, 5e-324, 0.0031, 99.95, 1e15 + 0.3, Number.MAX_SAFE_INTEGER];
  let seed = 7;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < 3000; i += 1) values.push((next() - 0.3) * 10 ** Math.floor(next() * 34 - 10));
  for (let i = 0; i < 1000; i += 1) values.push(Math.round(next() * 100000) / 1000 + (next() < 0.5 ? 0.0005 : 0));

  it('for 0 to 6 fraction digits', () => {
    for (const v of values) {
      for (let d = 0; d <= 6; d += 1) expect(formatNumber(v, d), `${v}, ${d} digits`).toBe(new Intl.NumberFormat('en-US', { maximumFractionDigits: d }).format(v));
    }
  });

  it('for 1 to 4 significant digits', () => {
    for (const v of values) {
      for (let d = 1; d <= 4; d += 1) expect(formatSignificant(v, d), `${v}, ${d} digits`).toBe(new Intl.NumberFormat('en-US', { maximumSignificantDigits: d }).format(v));
    }
  });
});

describe('fixed decimals, rounding for JSON, exact dollars and sizes', () => {
  it('writes exactly the decimals asked for, grouped', () => {
    expect(formatFixed(2, 1)).toBe('2.0');
    expect(formatFixed(1234.5, 2)).toBe('1,234.50');
    expect(formatFixed(0.125, 2)).toBe('0.13');
    expect(formatFixed(1.5, 0)).toBe('2');
  });

  it('rounds a number to a few decimals for JSON and keeps what is not finite', () => {
    expect(roundTo(0.1234567, 6)).toBe(0.123457);
    expect(roundTo(2 / 3, 4)).toBe(0.6667);
    expect(roundTo(Infinity, 2)).toBe(Infinity);
  });

  it('writes a price or a derivation step in dollars with its own decimals, trailing zeros dropped', () => {
    expect(formatUsdExact(0.00013)).toBe('$0.00013');
    expect(formatUsdExact(49.275)).toBe('$49.275');
    expect(formatUsdExact(0.25, 4)).toBe('$0.25');
    expect(formatUsdExact(1234.56789, 2)).toBe('$1,234.57');
  });

  it('writes a size as a list shows it: one decimal below 100 units, none from 100 or in bytes', () => {
    expect(formatBytesBrief(436)).toBe('436 B');
    expect(formatBytesBrief(1229)).toBe('1.2 KB'); // 1229 / 1024 = 1.2002
    expect(formatBytesBrief(1024)).toBe('1.0 KB');
    expect(formatBytesBrief(150 * 1024 * 1024)).toBe('150 MB');
    expect(formatBytesBrief(25.04 * 1024 * 1024)).toBe('25.0 MB');
  });

  it('writes a size in the unit a limit is stated in, binary unless told the bytes per unit', () => {
    expect(formatBytesIn(409_600, 'KB')).toBe('400 KB');
    expect(formatBytesIn(10 * 1024 ** 3, 'GB', 1)).toBe('10 GB');
    expect(formatBytesIn(16 * 1024 * 1024, 'MB')).toBe('16 MB');
    expect(formatBytesIn(1.5e9, 'GB', 2, 1e9)).toBe('1.5 GB');
    expect(formatBytesIn(12_884_902, 'MB', 0)).toBe('12 MB'); // 12.288 MB
  });
});
