import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatNumber, formatPercent, formatShare, formatSignedUsd, formatUnits, formatUsd } from './index.ts';

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
