import { describe, expect, it } from 'vitest';
import { trimBoth, trimEnd } from './trim.ts';
import { cpuNowMs } from '../../tests/support/cpu-time.ts';

describe('trimming a repeated character', () => {
  it('removes it from the end, or from both ends, and nothing else', () => {
    expect(trimEnd('120300', '0')).toBe('1203');
    expect(trimEnd('000', '0')).toBe('');
    expect(trimEnd('', '0')).toBe('');
    expect(trimBoth('__a_b__', '_')).toBe('a_b');
    expect(trimBoth('____', '_')).toBe('');
    expect(trimBoth('ab', '_')).toBe('ab');
  });

  it('takes linear time on a long run (a regular expression took about half a second on 40,000)', () => {
    const run = `1${'0'.repeat(2_000_000)}`;
    const started = cpuNowMs();
    expect(trimEnd(run, '0')).toBe('1');
    expect(trimBoth(`${'_'.repeat(1_000_000)}x${'_'.repeat(1_000_000)}`, '_')).toBe('x');
    expect(cpuNowMs() - started).toBeLessThan(1_000);
  });
});
