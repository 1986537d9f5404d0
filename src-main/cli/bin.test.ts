/**
 * The real `keyplan` bin, started as `npx keyplan` starts it: `node bin/keyplan.mjs` with no build
 * step (tsx registers itself), output on the process's streams, the exit code on the process.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function keyplanBin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['bin/keyplan.mjs', ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

describe('bin/keyplan.mjs', { timeout: 120_000 }, () => {
  test('cost --json on the example: exit 0 and the documented JSON on stdout', async () => {
    const run = await keyplanBin(['cost', 'examples/ecommerce.keyplan.json', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.patterns).toHaveLength(11);
    expect(json.patterns[0]).toMatchObject({ id: 'ap-get-user', operation: 'GetItem', rcuPerRequest: 0.5, requestsPerSecond: 500 });
    expect(typeof json.totals.monthlyUsd.onDemand).toBe('number');
  });

  test('check on a missing file: one line on stderr, exit 1', async () => {
    const run = await keyplanBin(['check', 'nope.keyplan.json']);
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'keyplan: cannot read "nope.keyplan.json": no such file\n' });
  });

  test('an unknown command: exit 2', async () => {
    const run = await keyplanBin(['price']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^keyplan: unknown command "price"; .*\n$/);
  });
});
