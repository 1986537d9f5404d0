import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { sampleDesign } from '../test-support/designs.ts';
import { main } from '../cli.ts';
import type { SimulateJson } from './simulate.ts';

const root = resolve(import.meta.dirname, '../..');
const EXAMPLE = 'examples/ecommerce.keyplan.json';

/** `keyplan simulate …` through the CLI's `main`, output captured. */
async function simulateCli(args: string[], cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd };
  const code = await main(['simulate', ...args], io);
  return { code, stdout, stderr };
}

describe('keyplan simulate', () => {
  test('--json: per table and GSI the partitions, largest share and hottest keys; per pattern the throttled fraction', async () => {
    const run = await simulateCli([EXAMPLE, '--json', '--seed', '7']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as SimulateJson;
    expect(json.seed).toBe(7);
    expect(json.hash).toMatch(/^FNV-1a 64-bit/);
    const [table] = json.tables;
    expect(table?.targets.map((t) => [t.name, t.partitionCount])).toEqual([
      ['table', 4],
      ['GSI1', 4],
      ['GSI2', 4],
    ]);
    const gsi2 = table?.targets.find((t) => t.name === 'GSI2');
    expect(gsi2?.hottestKeys[0]).toMatchObject({ key: 'STATUS#PENDING', share: expect.closeTo(0.6, 2) });
    expect(gsi2?.largestShare).toBeGreaterThan(0.5);
    expect(table?.patterns).toHaveLength(11);
    expect(table?.patterns[0]).toMatchObject({ id: 'ap-get-user', throttled: 0, throttledFraction: 0, reasons: [] });
    expect(json.assumptions.length).toBeGreaterThan(5);
  });

  test('the same seed gives the same numbers', async () => {
    const a = await simulateCli([EXAMPLE, '--json', '--seed=3']);
    const b = await simulateCli([EXAMPLE, '--json', '--seed=3']);
    expect(a.stdout).toBe(b.stdout);
  });

  test('text: a table per design table, the patterns and the findings in words', async () => {
    const dir = await makeTempDir('keyplan-simulate-');
    const design = sampleDesign('Hot');
    const table = design.tables[0]!;
    table.accessPatterns = [{ id: 'ap-put', name: 'Put profile', entityId: 'entity-user', action: 'put', known: ['userId'], ratePerSecond: 3000, consistency: 'eventual', traffic: { kind: 'hotKey', share: 0.9 } }];
    design.workload = { durationSeconds: 120, stepSeconds: 1, seed: 1, events: [] };
    await writeFile(join(dir, 'hot.keyplan.json'), JSON.stringify(design));
    const run = await simulateCli(['hot.keyplan.json'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Partition simulation of "Hot" (hot.keyplan.json), seed 1');
    expect(run.stdout).toMatch(/Table AppTable: 0:02:00 at 1 s steps \(the design's workload\)/);
    expect(run.stdout).toMatch(/table\s+\d+\s+.*\s+USER#u-000001 \(9\d%, p\d+\)/);
    expect(run.stdout).toMatch(/Put profile\s+[\d,]+\s+[\d,]+\s+\d+%\s+TableWriteKeyRangeThroughputExceeded/);
    expect(run.stdout).toMatch(/Table partition \d takes 9\d% of writes, key USER#u-000001\./);
  });

  test('is listed in keyplan --help and has its own help', async () => {
    let out = '';
    await main(['--help'], { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, cwd: root });
    expect(out).toContain('keyplan simulate <design> [--seed N] [--json]');
    expect((await simulateCli(['--help'])).stdout).toMatch(/^Usage: keyplan simulate <design> \[--seed N\] \[--json\]/);
  });

  test('a seed that is not a whole number is a usage error; an invalid design is exit 1', async () => {
    const badSeed = await simulateCli([EXAMPLE, '--seed', 'abc']);
    expect(badSeed.code).toBe(2);
    expect(badSeed.stderr).toBe('keyplan: option "--seed" of "keyplan simulate" takes a whole number, got "abc".\n');
    expect((await simulateCli([EXAMPLE, '--seed'])).code).toBe(2);
    const dir = await makeTempDir('keyplan-simulate-');
    await writeFile(join(dir, 'bad.keyplan.json'), JSON.stringify({ ...sampleDesign(), tables: [{ ...sampleDesign().tables[0], name: 'x' }] }));
    const run = await simulateCli(['bad.keyplan.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/to simulate the design/);
  });
});
