import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ComparisonReport, Regression } from '../../src-shared/compare/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const root = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(root, 'examples/ecommerce.keyplan.json');

/** `keyplan compare …` through the CLI's `main`, output captured. */
async function compareCli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd };
  const code = await main(['compare', ...args], io);
  return { code, stdout, stderr };
}

/** A folder with the example as base.keyplan.json and a copy without GSI2 (its open-orders pattern a Scan) as scan.keyplan.json. */
async function fixtures(): Promise<string> {
  const dir = await makeTempDir('keyplan-compare-');
  const text = await readFile(EXAMPLE, 'utf8');
  const design = JSON.parse(text) as Design;
  const table = design.tables[0]!;
  table.globalSecondaryIndexes = table.globalSecondaryIndexes.filter((g) => g.name !== 'GSI2');
  for (const e of table.entities) {
    delete e.keys.GSI2PK;
    delete e.keys.GSI2SK;
  }
  await writeFile(join(dir, 'base.keyplan.json'), text);
  await writeFile(join(dir, 'scan.keyplan.json'), JSON.stringify(design, null, 2));
  return dir;
}

describe('keyplan compare', () => {
  test('--fail-if-costlier 0: exit 1, one line on stderr per reason, naming the Query that became a Scan', async () => {
    const dir = await fixtures();
    const run = await compareCli(['base.keyplan.json', 'scan.keyplan.json', '--fail-if-costlier', '0', '--no-simulate'], dir);
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^keyplan: "scan\.keyplan\.json" costs \$[\d,.]+ per month on-demand, [\d,.]+% more than "base\.keyplan\.json" \(\$[\d,.]+\); the limit is 0%\.$/);
    expect(lines[1]).toBe('keyplan: access pattern "List open orders by status, oldest first" (ap-list-open-orders) is a Query on GSI GSI2 in "base.keyplan.json" but a Scan in "scan.keyplan.json".');
    expect(run.stdout).toMatch(/List open orders by status, oldest first \(ap-list-open-orders\)\s+Operation\s+Query ✓\s+Scan\n/);
  });

  test('prints the summary first: the sides by letter, then what B changes against A, its patterns and the net dollars', async () => {
    const dir = await fixtures();
    const run = await compareCli(['base.keyplan.json', 'scan.keyplan.json', '--no-simulate'], dir);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 9)).toEqual([
      'Comparison',
      '  A  base.keyplan.json  (design "E-commerce single table")',
      '  B  scan.keyplan.json  (design "E-commerce single table")',
      '',
      'Summary',
      // Requests +$844,140.70, storage −$0.12 (GSI2's entries and every Order's GSI2PK and GSI2SK go).
      expect.stringMatching(/^ {2}B against A: GSI2 removed; 2 patterns cheaper, 1 costlier, 8 unchanged; net \+\$844,140\.58\/month on-demand, \+\$[\d,]+\.\d\d\/month provisioned\.$/),
      '    Changes:',
      '      GSI2 removed',
      expect.stringMatching(/^ {6}Order keys: GSI2PK removed \(was STATUS#\{status\}/),
    ]);
    expect(run.stdout).toContain('    Costlier:\n      List open orders by status, oldest first: $1.64 → $844,160.41 on-demand/month (+$844,158.77), Query on GSI GSI2 → Scan\n');
    // The summary comes before the tables.
    expect(run.stdout.indexOf('Summary')).toBeLessThan(run.stdout.indexOf('Access patterns'));
    expect(run.stdout).not.toContain('Better');
  });

  test('--fail-if-costlier passes when the later design is cheaper and keeps its plans', async () => {
    const dir = await fixtures();
    const run = await compareCli(['scan.keyplan.json', 'base.keyplan.json', '--fail-if-costlier=0', '--no-simulate'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  test('--json: the report with its rows, figures and regressions', async () => {
    const dir = await fixtures();
    const run = await compareCli(['base.keyplan.json', 'scan.keyplan.json', '--json', '--no-simulate', '--fail-if-costlier', '1000000000'], dir);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as ComparisonReport & { regressions: Regression[] };
    expect(json.sides.map((s) => [s.letter, s.label])).toEqual([
      ['A', 'base.keyplan.json'],
      ['B', 'scan.keyplan.json'],
    ]);
    expect(json.summary.sides[0]).toMatchObject({ letter: 'B', changes: [{ kind: 'indexRemoved', short: 'GSI2 removed' }, { kind: 'entityKeys' }], unchanged: 8 });
    expect(json.summary.sides[0]!.net.onDemand.steps.at(-1)?.label).toBe('Net change of the on-demand total per month, B − A');
    const pattern = json.patterns.find((p) => p.key === 'pattern:ap-list-open-orders')!;
    expect(pattern.sides.map((s) => s?.plan.operation)).toEqual(['Query', 'Scan']);
    expect(pattern.rows.find((r) => r.key.endsWith(':perRequest'))?.cells[0]?.figure?.steps.length).toBeGreaterThan(0);
    expect(json.partitionRisk).toBeNull();
    expect(json.regressions.map((r) => r.code)).toEqual(['compare.becomesScan']);
  });

  test('--markdown with the simulation: tables per group, the partition risk at one seed', async () => {
    const dir = await fixtures();
    const run = await compareCli(['base.keyplan.json', 'base.keyplan.json', '--markdown', '--seed', '3'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^## Design comparison: A `base\.keyplan\.json` vs B `base\.keyplan\.json`\n/);
    expect(run.stdout).toContain('- **B against A**: no structural change; 11 patterns unchanged; net $0.00/month on-demand, $0.00/month provisioned.');
    expect(run.stdout).toContain('### Partition risk (seed 3, 1:00:00 at 1 s steps, the same workload on every side)');
    // Equal values: neither side is marked.
    expect(run.stdout).toContain('| **All tables** | Reads (RCU/s) | 1,930 | 1,930 |\n');
  });

  test('usage errors exit 2; an unreadable or invalid design exits 1 naming the file', async () => {
    const dir = await fixtures();
    const one = await compareCli(['base.keyplan.json'], dir);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/^keyplan: "keyplan compare" needs <a> <b> \(got 1\); usage: keyplan compare/);
    const pct = await compareCli(['base.keyplan.json', 'scan.keyplan.json', '--fail-if-costlier', '-3'], dir);
    expect(pct).toMatchObject({ code: 2, stderr: 'keyplan: option "--fail-if-costlier" of "keyplan compare" takes a percentage of 0 or more (such as 5 or 2.5), got "-3".\n' });
    expect((await compareCli(['base.keyplan.json', 'scan.keyplan.json', '--json', '--markdown'], dir)).code).toBe(2);
    expect((await compareCli(['base.keyplan.json', 'scan.keyplan.json', '--seed', 'x'], dir)).code).toBe(2);
    const missing = await compareCli(['base.keyplan.json', 'nope.keyplan.json'], dir);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'keyplan: cannot read "nope.keyplan.json": no such file\n' });
    const bad = JSON.parse(await readFile(join(dir, 'base.keyplan.json'), 'utf8')) as Design;
    bad.tables[0]!.name = 'x';
    await writeFile(join(dir, 'bad.keyplan.json'), JSON.stringify(bad));
    const invalid = await compareCli(['base.keyplan.json', 'bad.keyplan.json'], dir);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/"bad\.keyplan\.json" has 1 problem; fix it to compare the design/);
  });

  test('is listed in keyplan --help and has its own help', async () => {
    let out = '';
    await main(['--help'], { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, cwd: root });
    expect(out).toContain('keyplan compare <a> <b> [more…] [--markdown] [--json]');
    expect((await compareCli(['--help'], root)).stdout).toMatch(/^Usage: keyplan compare <a> <b> \[more…\] \[--json\] \[--markdown\] \[--fail-if-costlier PCT\]/);
  });

  test('the real bin: --fail-if-costlier 0 sets exit code 1 and names the Scan', { timeout: 120_000 }, async () => {
    const dir = await fixtures();
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(process.execPath, [join(root, 'bin/keyplan.mjs'), 'compare', 'base.keyplan.json', 'scan.keyplan.json', '--fail-if-costlier', '0', '--no-simulate'], { cwd: dir, timeout: 60_000 }, (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      });
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is a Query on GSI GSI2 in "base.keyplan.json" but a Scan in "scan.keyplan.json".');
    expect(run.stdout).toContain('Access patterns');
  });
});
