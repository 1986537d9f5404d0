import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatNumber, formatPercent, formatShare, formatSignedUsd, formatSignificant, formatUnits, formatUsd } from './index.ts';

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
