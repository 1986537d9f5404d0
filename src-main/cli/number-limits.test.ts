/**
 * Issue 27's huge numbers: `itemCount` and `ratePerSecond` of 1e300, or an imported RCU of 1e308,
 * passed `keyplan check`, and `keyplan cost` printed NaN and Infinity and exited 0. Counts, rates,
 * capacities and prices now have maximums (src-shared/model/number-limits.ts, docs/limits.md): a
 * value past one is a problem at its path and exit 1, and a design at the maximums costs in finite
 * figures. The real bin runs `cost`, as a user runs it.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const root = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(root, 'examples/ecommerce.keyplan.json');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real bin on the TypeScript sources as they are now. */
function keyplanBin(args: string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    const env = { ...process.env, KEYPLAN_CLI_SOURCE: '1', KEYPLAN_CLI_BUNDLE_DIR: '' };
    execFile(process.execPath, [join(root, 'bin/keyplan.mjs'), ...args], { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

async function keyplan(args: string[], cwd: string): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd });
  return { code, stdout, stderr };
}

/** The example design changed by `edit`, written to a temporary folder. */
async function designFile(edit: (design: any) => void): Promise<string> {
  const dir = await makeTempDir('keyplan-numbers-');
  const design = JSON.parse(await readFile(EXAMPLE, 'utf8'));
  edit(design);
  await writeFile(join(dir, 'd.keyplan.json'), JSON.stringify(design));
  return dir;
}

const huge = (design: any) => {
  design.tables[0].entities[0].itemCount = 1e300;
  design.tables[0].accessPatterns[0].ratePerSecond = 1e300;
};

describe('numbers past their maximums', { timeout: 120_000 }, () => {
  test('check refuses itemCount and ratePerSecond of 1e300, each at its path, and exits 1', async () => {
    const dir = await designFile(huge);
    const run = await keyplan(['check', 'd.keyplan.json', '--json'], dir);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { ok: boolean; problems: Array<{ code: string; path: string; message: string }> };
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      expect.objectContaining({ code: 'model.schema', path: 'tables[0].entities[0].itemCount' }),
      expect.objectContaining({ code: 'model.schema', path: 'tables[0].accessPatterns[0].ratePerSecond' }),
    ]);
    expect(report.problems[0]!.message).toContain('expected a whole number from 0 to 1,000,000,000,000');
  });

  test('cost (the real bin) on the same design: the problems, exit 1, and no NaN or Infinity anywhere', async () => {
    const dir = await designFile(huge);
    for (const args of [['cost', 'd.keyplan.json'], ['cost', 'd.keyplan.json', '--json']]) {
      const run = await keyplanBin(args, dir);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toMatch(/NaN|Infinity/);
      expect(run.stderr).toContain('keyplan: d.keyplan.json: tables[0].entities[0].itemCount: ');
      expect(run.stderr).toContain('keyplan: d.keyplan.json: tables[0].accessPatterns[0].ratePerSecond: ');
    }
  });

  test('check refuses a provisioned RCU of 1e308 at its path', async () => {
    const dir = await designFile((design) => {
      design.tables[0].billing = { mode: 'PROVISIONED', readCapacityUnits: 1e308, writeCapacityUnits: 5 };
    });
    const run = await keyplan(['check', 'd.keyplan.json', '--json'], dir);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { problems: Array<{ code: string; path: string }> };
    expect(report.problems).toContainEqual(expect.objectContaining({ code: 'model.schema', path: 'tables[0].billing.readCapacityUnits' }));
  });

  test('import refuses a describe-table output with a ReadCapacityUnits of 1e308, naming where in the source', async () => {
    const dir = await makeTempDir('keyplan-numbers-');
    const table = {
      TableName: 'Orders',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      ProvisionedThroughput: { ReadCapacityUnits: 1e308, WriteCapacityUnits: 5 },
    };
    await writeFile(join(dir, 'table.json'), JSON.stringify({ Table: table }));
    const run = await keyplan(['import', 'table.json', '--out', 'orders.keyplan.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^keyplan: table\.json: Table\.ProvisionedThroughput: .*"readCapacityUnits" is the number 1e\+308; expected a whole number from 1 to 1,000,000,000,000\.\n$/);
  });
});

describe('numbers at their maximums', { timeout: 120_000 }, () => {
  test('cost (the real bin) on a trillion items and a trillion requests a second per pattern: finite figures, exit 0', async () => {
    const dir = await designFile((design) => {
      for (const entity of design.tables[0].entities) entity.itemCount = 1e12;
      for (const pattern of design.tables[0].accessPatterns) pattern.ratePerSecond = 1e12;
    });
    const text = await keyplanBin(['cost', 'd.keyplan.json'], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(/NaN|Infinity/);
    const json = await keyplanBin(['cost', 'd.keyplan.json', '--json'], dir);
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(/NaN|Infinity|null,\s*"provisioned"/);
    const report = JSON.parse(json.stdout) as { patterns: Array<{ id: string; monthlyUsd: { onDemand: number } }> };
    // Get user profile: an eventually consistent GetItem is 0.5 RRU; 0.5 × 10^12 a second × 3,600 s ×
    // 730 hours × $0.125 per million RRU (us-east-1) = $164,250,000,000 a month.
    expect(report.patterns.find((p) => p.id === 'ap-get-user')!.monthlyUsd.onDemand).toBeCloseTo(164_250_000_000, 0);
    expect(text.stdout).toMatch(/Get user profile .* 1,000,000,000,000 +\$164,250,000,000\.00/);
  });
});
