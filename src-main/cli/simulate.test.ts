import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { sampleDesign } from '../test-support/designs.ts';
import { main } from '../cli.ts';
import type { SimulateJson } from './simulate.ts';
import { oneTableDesign, putEvents, TEN_MINUTES } from '../../src-shared/partition/__fixtures__/designs.ts';

/** One counter item taking 5,000 writes/s of under 1 KB: 5,000 WCU/s on one item. */
function counterDesign() {
  return oneTableDesign({
    entity: {
      itemCount: 1,
      attributes: [
        { name: 'counterId', type: 'S', generator: { kind: 'constant', value: 'page-views' } },
        { name: 'eventId', type: 'S', generator: { kind: 'id' } },
        { name: 'deviceId', type: 'S', generator: { kind: 'id' } },
      ],
      keys: { PK: { template: 'COUNTER#{counterId}' }, SK: { template: 'TOTAL' } },
    },
    patterns: [putEvents(5000)],
    workload: TEN_MINUTES,
  });
}

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

  test('--json, noise on: a throttled key with its stated peak, its busiest simulated second, and the shards the stated peak needs (5,000 WCU/s: at least 5, 7 at 1.25)', async () => {
    const dir = await makeTempDir('keyplan-simulate-');
    await writeFile(join(dir, 'counter.keyplan.json'), JSON.stringify(counterDesign()));
    const cwdRun = await simulateCli(['counter.keyplan.json', '--json'], dir);
    expect(cwdRun.code).toBe(0);
    const json = JSON.parse(cwdRun.stdout) as SimulateJson;
    expect(json).toMatchObject({ start: 'cold', partitionLimits: 'independent' });
    const [table] = json.tables[0]!.targets;
    // The stated peak is the pattern's 5,000 WCU/s on the one item: minimum ceil(5,000 / 1,000) = 5,
    // recommended ceil(5,000 × 1.25 / 1,000 = 6.25) = 7. The arrival noise (on by default) makes the
    // busiest simulated second higher, up to 5,000 + 4√5,000 ≈ 5,283 (clamped at 4σ); it is shown, not planned for.
    expect(table?.throttledKeys).toEqual([
      expect.objectContaining({ key: 'COUNTER#page-views', reasons: ['TableWriteKeyRangeThroughputExceeded'], statedPeakWriteUnitsPerSecond: 5000, minimumShards: 5, recommendedShards: 7, headroom: 1.25 }),
    ]);
    expect(table?.throttledKeys[0]?.peakWriteUnitsPerSecond).toBeGreaterThan(5000);
    expect(table?.throttledKeys[0]?.peakWriteUnitsPerSecond).toBeLessThanOrEqual(5000 + 4 * Math.sqrt(5000));
    expect(table?.hottestKeys[0]?.peakWriteUnitsPerSecond).toBe(table?.throttledKeys[0]?.peakWriteUnitsPerSecond);
    // Headroom 2: ceil(5,000 × 2 / 1,000) = 10; the minimum stays 5.
    const wide = JSON.parse((await simulateCli(['counter.keyplan.json', '--json', '--headroom', '2'], dir)).stdout) as SimulateJson;
    expect(wide.tables[0]!.targets[0]!.throttledKeys[0]).toMatchObject({ minimumShards: 5, recommendedShards: 10, headroom: 2 });
    expect(wide.tables[0]!.targets[0]!.summary.join(' ')).toMatch(/stated peak of 5,000 WCU\/s: at least 5, 10 with 2 headroom/);
    // The table view names both peaks.
    const text = await simulateCli(['counter.keyplan.json'], dir);
    expect(text.stdout).toMatch(/Stated peak WCU\/s/);
    expect(text.stdout).toMatch(/COUNTER#page-views\s+table\s+0\s+5,000\s+5,\d{3}\s+80%\s+5 \/ 7 at 1.25/);
  });

  test('--start warm and --limits linear are stated in the output; bad values are usage errors', async () => {
    const warm = await simulateCli([EXAMPLE, '--start', 'warm', '--limits', 'linear']);
    expect(warm.code).toBe(0);
    expect(warm.stdout).toContain("Start: warm, the design's base load has run before");
    expect(warm.stdout).toContain('Partition limits: R/3,000 + W/1,000 ≤ 1, a linear combination');
    expect(JSON.parse((await simulateCli([EXAMPLE, '--json', '--start=warm'])).stdout)).toMatchObject({ start: 'warm', partitionLimits: 'independent' });
    const bad = await simulateCli([EXAMPLE, '--start', 'hot']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('keyplan: option "--start" of "keyplan simulate" takes "cold" or "warm", got "hot".\n');
    expect((await simulateCli([EXAMPLE, '--limits', 'sum'])).code).toBe(2);
    expect((await simulateCli([EXAMPLE, '--headroom', '0.5'])).code).toBe(2);
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

  test('text: a spread with no key over twice the mean key load says so instead of listing keys; "under 1" for a partition need below one', async () => {
    const dir = await makeTempDir('keyplan-simulate-');
    // PK = COUNTRY#{country}: 5 values, all with traffic; the mean key carries 1/5 = 20 % of the load, so a
    // hot key carries over 40 %.
    const design = oneTableDesign({ keys: { PK: { template: 'COUNTRY#{country}' }, SK: { template: 'EVENT#{eventId}' } }, patterns: [putEvents(100)], workload: TEN_MINUTES });
    await writeFile(join(dir, 'countries.keyplan.json'), JSON.stringify(design));
    const json = JSON.parse((await simulateCli(['countries.keyplan.json', '--json'], dir)).stdout) as SimulateJson;
    const target = json.tables[0]!.targets[0]!;
    expect(target.keysWithTraffic).toEqual({ named: 5, background: 0 });
    expect(target.hottestKeys).toHaveLength(5);
    expect(target.hottestKeys.every((k) => (k.share ?? 1) <= 0.4 && !k.hot)).toBe(true);
    const run = await simulateCli(['countries.keyplan.json'], dir);
    expect(run.stdout).toMatch(/^ {2}table\s+4\s+under 1\s+4\s+\S+\s+0%\s+none over 2× the mean key load$/m);
    expect(run.stdout).not.toContain('COUNTRY#');
    // 1,000,000 items of under 1 KB: under one 10 GB partition; 12,000 / 3,000 = 4 for throughput.
    expect(run.stdout).toContain('Table has 4 partitions (4 for throughput, under 1 needed for size).');
    expect(run.stdout).not.toMatch(/\.\.$/m);
  });

  test('text: a key over twice the mean key load is listed as hot, the even ones beside it are not', async () => {
    const dir = await makeTempDir('keyplan-simulate-');
    // Country weights 1:6:1:1:1, and writes follow the items: DE carries 6/10 = 60 % of the load, over
    // twice the mean key's 20 %; each other country carries 10 %, under it.
    const design = oneTableDesign({ keys: { PK: { template: 'COUNTRY#{country}' }, SK: { template: 'EVENT#{eventId}' } }, patterns: [putEvents(100)], workload: TEN_MINUTES });
    const country = design.tables[0]!.entities[0]!.attributes.find((a) => a.name === 'country')!;
    country.generator = { kind: 'enum', values: ['US', 'DE', 'PT', 'JP', 'BR'], weights: [1, 6, 1, 1, 1] };
    await writeFile(join(dir, 'hot.keyplan.json'), JSON.stringify(design));
    const json = JSON.parse((await simulateCli(['hot.keyplan.json', '--json'], dir)).stdout) as SimulateJson;
    const keys = json.tables[0]!.targets[0]!.hottestKeys;
    expect(keys.filter((k) => k.hot).map((k) => k.key)).toEqual(['COUNTRY#DE']);
    expect(keys[0]!.share).toBeCloseTo(0.6, 2);
    const run = await simulateCli(['hot.keyplan.json'], dir);
    expect(run.stdout).toMatch(/^ {2}table\s.*\s+COUNTRY#DE \(60%, p\d+\)$/m);
  });

  test('is listed in keyplan --help and has its own help', async () => {
    let out = '';
    await main(['--help'], { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, cwd: root });
    expect(out).toContain('keyplan simulate <design> [--seed N] [--start cold|warm] [--limits independent|linear] [--headroom H] [--json]');
    expect((await simulateCli(['--help'])).stdout).toMatch(/^Usage: keyplan simulate <design> \[--seed N\] \[--start cold\|warm\]/);
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
