/**
 * Issue 11's crafted designs through `keyplan check`, as a user runs it: an 80 KB key template made
 * the command die with "Invalid string length" (its problems quoted the whole template once per
 * placeholder: gigabytes), and designs under the caps gave output hundreds of times their size. The
 * designs are generated here, not checked in.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { hostileDesign, type HostileShape } from '../../src-shared/model/validate/__fixtures__/hostile-designs.ts';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const KB = 1024;

async function check(shape: HostileShape, bytes: number, json: boolean): Promise<{ code: number; stdout: string; stderr: string; inputBytes: number }> {
  const dir = await makeTempDir('keyplan-hostile-');
  const text = JSON.stringify(hostileDesign(shape, bytes, 0));
  await writeFile(join(dir, 'crafted.keyplan.json'), text);
  let stdout = '';
  let stderr = '';
  const code = await main(['check', 'crafted.keyplan.json', ...(json ? ['--json'] : [])], {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: dir,
  });
  return { code, stdout, stderr, inputBytes: text.length };
}

describe('keyplan check on crafted designs', { timeout: 60_000 }, () => {
  test('an 80 KB key template: one problem saying it is over 2,048 bytes, not a crash', async () => {
    const run = await check('longTemplate', 80 * KB, true);
    expect(run.inputBytes).toBeGreaterThan(60 * KB);
    expect(run.inputBytes).toBeLessThan(90 * KB);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { problems: Array<{ code: string; path: string; message: string }> };
    expect(report.problems).toEqual([expect.objectContaining({ code: 'keyTemplate.tooLong', path: 'tables[0].entities[0].keys.PK.template' })]);
    expect(report.problems[0]?.message).toContain('81,921 bytes');
    expect(run.stdout.length).toBeLessThan(4 * KB);
  });

  test('the same design in text: a few lines', async () => {
    const run = await check('longTemplate', 80 * KB, false);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^tables\[0\]\.entities\[0\]\.keys\.PK\.template: Entity "User", key PK: Key template "\{x\}\{x\}.*…" is 81,921 bytes of UTF-8; expected at most 2,048 bytes/);
    expect(run.stdout.length).toBeLessThan(2 * KB);
  });

  test.each<HostileShape>(['manyPlaceholders', 'manyConditionNames', 'manyIndexes', 'longNames'])(
    '%s: doubling the design at most 2.5 × the output, and never more than 4 × the input',
    async (shape) => {
      const small = await check(shape, 80 * KB, true);
      const large = await check(shape, 160 * KB, true);
      expect(small.code).toBe(1);
      expect(large.code).toBe(1);
      expect(large.stdout.length).toBeLessThanOrEqual(2.5 * small.stdout.length);
      expect(large.stdout.length).toBeLessThanOrEqual(4 * large.inputBytes);
    },
  );
});
