import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src-shared/run/index.ts';
import { main } from '../cli.ts';

const root = resolve(import.meta.dirname, '../..');
const EXAMPLE = 'examples/ecommerce.keyplan.json';
const example = JSON.parse(readFileSync(resolve(root, EXAMPLE), 'utf8')) as { tables: Array<{ id: string; accessPatterns: Array<{ id: string; name: string }> }> };
const patternIds = example.tables[0]!.accessPatterns.map((p) => p.id);

/** `keyplan run …` through the CLI's `main`, output captured. */
async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd: root };
  const code = await main(['run', ...args], io);
  return { code, stdout, stderr };
}

const isFailing = (r: RunReport) => r.patterns.some((p) => p.agreement === 'unexplained' || p.agreement === 'failed');

describe('keyplan run', () => {
  test('--json on the embedded engine: a report for every pattern, the exit code from the agreements, the table removed', async () => {
    const run = await runCli([EXAMPLE, '--items', '5', '--repeat', '2', '--json']);
    const report = JSON.parse(run.stdout) as RunReport;
    expect(report.engine.kind).toBe('embedded');
    expect(report.repeat).toBe(2);
    expect(report.table.name).toMatch(/^keyplan-run-[a-z0-9]+-Shop$/);
    expect(report.patterns.map((p) => p.patternId)).toEqual(patternIds);
    for (const p of report.patterns) {
      expect(['agrees', 'explained', 'unexplained', 'notRun', 'failed']).toContain(p.agreement);
      if (p.agreement !== 'notRun' && p.agreement !== 'failed') expect(p.measured?.calls).toBe(2);
    }
    const counted = Object.values(report.summary).reduce((a, b) => a + b, 0);
    expect(counted).toBe(patternIds.length);
    expect(report.cleanup).toEqual({ removed: [report.table.name], leftover: [] });
    expect(run.code).toBe(isFailing(report) ? 1 : 0);
    // Each unexplained or failed pattern is named on stderr, one line each; nothing else is.
    const failing = report.patterns.filter((p) => p.agreement === 'unexplained' || p.agreement === 'failed');
    expect(run.stderr.split('\n').filter(Boolean).map((l) => l.match(/^keyplan: pattern "(.+?)"/)?.[1])).toEqual(failing.map((p) => p.name));
  }, 120_000);

  test('text: one row per pattern with predicted, measured and its mark, then the summary', async () => {
    const run = await runCli([EXAMPLE, '--items', '3', '--repeat', '1', '--seed', '7']);
    expect(run.stdout).toMatch(/^Run of examples\/ecommerce\.keyplan\.json on .+: table keyplan-run-[a-z0-9]+-Shop, [\d,]+ items loaded, 1 call per pattern$/m);
    expect(run.stdout).toMatch(/Access pattern\s+Operation\s+Predicted\s+Measured\s+Items read \/ returned\s+p50\s+Agreement/);
    for (const p of example.tables[0]!.accessPatterns) {
      expect(run.stdout).toMatch(new RegExp(`^  ${p.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+\\S+ \\S+\\s.*(✓ agrees|≈ explained|✗ unexplained|– not run|✗ failed)$`, 'm'));
    }
    expect(run.stdout).toMatch(/^Summary: \d+ agree, \d+ explained, \d+ unexplained, \d+ not run, \d+ failed/m);
    expect(run.stdout).toMatch(/^Tables removed: keyplan-run-[a-z0-9]+-Shop\.$/m);
  }, 120_000);

  describe('--endpoint', () => {
    let server: ReturnType<typeof dynalite>;
    let endpoint: string;

    beforeAll(async () => {
      server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((done) => server.close(() => done())));

    test('runs on the engine at that URL and leaves no table behind', async () => {
      const run = await runCli([EXAMPLE, '--endpoint', endpoint, '--items', '2', '--repeat', '1', '--json']);
      const report = JSON.parse(run.stdout) as RunReport;
      expect(report.engine.kind).toBe('local');
      expect(report.patterns.map((p) => p.patternId)).toEqual(patternIds);
      expect(run.code).toBe(isFailing(report) ? 1 : 0);
      const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'k', secretAccessKey: 'k' } });
      try {
        expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
      } finally {
        client.destroy();
      }
    }, 120_000);
  });

  test.each([
    [['--endpoint', 'http://127.0.0.1:1', '--region', 'us-east-1'], /name two engines/],
    [['--profile', 'dev'], /give --region as well/],
    [['--region', 'us-east-1'], /costs money; add --yes/],
    [['--region', 'Ireland', '--yes'], /AWS region such as us-east-1, got "Ireland"/],
    [['--endpoint', 'localhost:8000'], /http:\/\/ or https:\/\/ URL/],
    [['--items', '0'], /"--items" of "keyplan run" takes a whole number from 1 to 1,000, got "0"/],
    [['--repeat', 'two'], /"--repeat" of "keyplan run" takes a whole number from 1 to 100/],
    [['--seed', '1.5'], /"--seed" of "keyplan run" takes a whole number/],
    [['--table', 'nope'], /names no table of the design, got "nope"; expected "tbl-shop" \(Shop\)/],
    [['--verbose'], /unknown option "--verbose" for "keyplan run"/],
  ])('usage error, exit 2: %j', async (args, message) => {
    const run = await runCli([EXAMPLE, ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n').every((l) => l.startsWith('keyplan: '))).toBe(true);
  });

  test('a design that cannot be read is exit 1, one line', async () => {
    const run = await runCli(['missing.keyplan.json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('keyplan: cannot read "missing.keyplan.json": no such file\n');
  });

  test('is listed in keyplan --help and has its own help', async () => {
    let out = '';
    await main(['--help'], { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, cwd: root });
    expect(out).toContain('keyplan run <design> [--endpoint URL | --region R [--profile P] --yes] [--items N] [--repeat K] [--json]');
    expect((await runCli(['--help'])).stdout).toMatch(/^Usage: keyplan run <design> \[--table ID\]/);
  });
});
