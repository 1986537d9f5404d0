/**
 * `keyplan solve` through `main`: the proposals for the e-commerce example with its key design
 * removed, `--json`, `--out` (a design `keyplan check` passes), the options, and bad input.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Design } from '../../src-shared/model/index.ts';
import { stripKeyDesign } from '../../src-shared/solver/index.ts';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import type { ProposalJson } from './solve.ts';

const root = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(root, 'examples/ecommerce.keyplan.json');

async function keyplan(args: string[], cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd });
  return { code, stdout, stderr };
}

/** The example without key templates and indexes, written to a temporary folder. */
async function strippedShop(): Promise<{ dir: string; file: string }> {
  const dir = await makeTempDir('keyplan-solve-');
  const design = stripKeyDesign(JSON.parse(await readFile(EXAMPLE, 'utf8')) as Design);
  await writeFile(join(dir, 'shop.keyplan.json'), JSON.stringify(design, null, 2));
  return { dir, file: 'shop.keyplan.json' };
}

describe('keyplan solve', { timeout: 60_000 }, () => {
  test('--json: ranked proposals, the best feasible with no Scan; --out writes it and check passes it', async () => {
    const { dir, file } = await strippedShop();
    const run = await keyplan(['solve', file, '--no-scan', '--json', '--top', '2', '--out', 'best.keyplan.json'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const proposals = JSON.parse(run.stdout) as ProposalJson[];
    expect(proposals.map((p) => p.rank)).toEqual([1, 2]);
    expect(proposals[0]!.feasible).toBe(true);
    expect(proposals[0]!.monthlyUsd).toBeLessThanOrEqual(proposals[1]!.monthlyUsd);
    expect(proposals[0]!.patterns).toHaveLength(11);
    expect(proposals[0]!.patterns.every((p) => p.request !== 'Scan')).toBe(true);
    expect(proposals[0]!.keys.User).toEqual({ PK: 'USER#{userId}', SK: 'USER' });
    const written = JSON.parse(await readFile(join(dir, 'best.keyplan.json'), 'utf8')) as Design;
    expect(written.tables[0]!.entities.every((e) => e.keys.PK !== undefined && e.keys.SK !== undefined)).toBe(true);
    const check = await keyplan(['check', 'best.keyplan.json'], dir);
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  test('the readable report: each proposal\'s cost, keys, rules and per pattern the request and why', async () => {
    const { dir, file } = await strippedShop();
    const run = await keyplan(['solve', file, '--top', '1'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Key designs for table Shop of "E-commerce single table" \(shop\.keyplan\.json\): 1 best of \d+ priced in [\d.]+ s\n/);
    expect(run.stdout).toContain('The input has no complete key design to compare with.');
    expect(run.stdout).toMatch(/\n#1 {2}\$[\d,.]+\/month, \d GSIs?, feasible\n/);
    expect(run.stdout).toContain('    User: PK = USER#{userId}, SK = USER\n');
    expect(run.stdout).toMatch(/ {4}Get user profile +GetItem +table +\$[\d.,]+ +GetItem on the table/);
  });

  test('a design with its keys compares each proposal with itself (ratio)', async () => {
    const run = await keyplan(['solve', EXAMPLE, '--json', '--top', '1', '--keep-table-key']);
    expect(run.code).toBe(0);
    const [best] = JSON.parse(run.stdout) as ProposalJson[];
    expect(best!.ratioToInput).toBeGreaterThan(0);
    expect(best!.keys.Order!.PK).toBe('USER#{userId}');
  });

  test('--max-gsis 0 leaves the lookups to Scans: with --no-scan nothing is feasible, exit 1 and no file', async () => {
    const { dir, file } = await strippedShop();
    const run = await keyplan(['solve', file, '--max-gsis', '0', '--no-scan', '--out', 'x.keyplan.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^keyplan: no proposal for table Shop is feasible: ".*" needs a Scan\.; nothing written\.\n$/);
    expect(await readdir(dir)).toEqual([file]);
  });

  test.each([
    [['--top', '0'], 'option "--top" of "keyplan solve" takes a whole number from 1 to 20, got "0".'],
    [['--max-gsis', '21'], 'option "--max-gsis" of "keyplan solve" takes a whole number from 0 to 20, got "21".'],
    [['--seed', 'x'], 'option "--seed" of "keyplan solve" takes a whole number'],
    [['--billing', 'free'], 'option "--billing" of "keyplan solve" takes as-is, on-demand or provisioned, got "free".'],
    [['--headroom', '0.5'], 'option "--headroom" of "keyplan solve" takes a number from 1 to 10, got "0.5".'],
    [['--budget', '-5'], 'option "--budget" of "keyplan solve" takes a monthly amount in USD (0 or more), got "-5".'],
  ])('%j is a usage error, exit 2', async (args, message) => {
    const run = await keyplan(['solve', EXAMPLE, ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  test('--billing provisioned: each proposal is provisioned at the capacity its load needs, and says so', async () => {
    const { dir, file } = await strippedShop();
    const run = await keyplan(['solve', file, '--billing', 'provisioned', '--headroom', '2', '--top', '1', '--out', 'p.keyplan.json'], dir);
    expect(run.code, run.stderr).toBe(0);
    const written = JSON.parse(await readFile(join(dir, 'p.keyplan.json'), 'utf8')) as Design;
    const table = written.tables[0]!;
    expect(table.billing.mode).toBe('PROVISIONED');
    for (const g of table.globalSecondaryIndexes) expect(g.provisioned?.readCapacityUnits).toBeGreaterThanOrEqual(1);
    expect(run.stdout).toContain('Provisioned capacity sized to the load: the table ');
  });

  test('an over-provisioned input is priced at the capacity its load needs, as the proposals are: the ratio measures the keys', async () => {
    const dir = await makeTempDir('keyplan-solve-');
    const design = JSON.parse(await readFile(EXAMPLE, 'utf8')) as Design;
    // 50,000 RCU and WCU configured, for the table and (no capacity of their own) each of its two GSIs:
    // 3 × (50,000 × 730 h × $0.00013 + 50,000 × 730 h × $0.00065) = 3 × ($4,745 + $23,725) = $85,410, and its 9.48 GB stored at $0.25 = $2.37: $85,412.37.
    design.tables[0]!.billing = { mode: 'PROVISIONED', readCapacityUnits: 50_000, writeCapacityUnits: 50_000 };
    await writeFile(join(dir, 'big.keyplan.json'), JSON.stringify(design));
    const text = await keyplan(['solve', 'big.keyplan.json', '--keep-table-key', '--top', '1'], dir);
    expect(text.stdout).toMatch(/The input design costs \$[\d,.]+\/month, provisioned at the capacity its load needs, as each proposal is \(\$85,412\.37\/month with the capacity it configures\)\./);
    const json = await keyplan(['solve', 'big.keyplan.json', '--keep-table-key', '--top', '1', '--json'], dir);
    const [best] = JSON.parse(json.stdout) as ProposalJson[];
    // The same table keys, indexes chosen afresh: about the input's cost, not a twentieth of it.
    expect(best!.ratioToInput).toBeGreaterThan(0.5);
    expect(best!.ratioToInput).toBeLessThan(1.5);
  });

  test('a table without patterns, and an unknown table, are said and exit 1', async () => {
    const dir = await makeTempDir('keyplan-solve-');
    const design = JSON.parse(await readFile(EXAMPLE, 'utf8')) as Design;
    design.tables[0]!.accessPatterns = [];
    await writeFile(join(dir, 'empty.keyplan.json'), JSON.stringify(design));
    const empty = await keyplan(['solve', 'empty.keyplan.json'], dir);
    expect(empty).toMatchObject({ code: 1, stdout: '' });
    expect(empty.stderr).toContain('has no access patterns; the solver designs keys for entities and their access patterns.');
    const unknown = await keyplan(['solve', EXAMPLE, '--table', 'Nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('option "--table" names no table of the design, got "Nope"; expected one of: "Shop".');
  });
});
