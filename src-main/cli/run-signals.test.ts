/**
 * `keyplan run` as CI runs it, a real process (`node bin/keyplan.mjs`, from the sources) against a
 * dynalite at an endpoint: SIGTERM (what `kill`, `timeout` and a CI cancel send) removes the run's
 * table and exits 143 like Ctrl-C; after SIGKILL, which nothing can catch, the next `keyplan run`
 * names the table left behind and `keyplan run --cleanup` removes it.
 */
import { DescribeTableCommand, DynamoDBClient, ListTablesCommand, ListTagsOfResourceCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { execFile, spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir.ts';

const root = resolve(import.meta.dirname, '../..');
const EXAMPLE = 'examples/ecommerce.keyplan.json';
const env = { ...process.env, KEYPLAN_CLI_SOURCE: '1', KEYPLAN_CLI_BUNDLE_DIR: '' };

let server: ReturnType<typeof dynalite>;
let endpoint: string;
let client: DynamoDBClient;
const tableNames = async () => (await client.send(new ListTablesCommand({}))).TableNames ?? [];

beforeAll(async () => {
  server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
});
afterAll(async () => {
  client.destroy();
  await new Promise<void>((done) => server.close(() => done()));
});

/** Polls `condition` every 50 ms, failing after 60 s. */
async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** Whether table `name` carries the run's token tag (set once the table is ACTIVE). */
async function isTagged(name: string): Promise<boolean> {
  const arn = (await client.send(new DescribeTableCommand({ TableName: name }))).Table?.TableArn;
  const tags = (await client.send(new ListTagsOfResourceCommand({ ResourceArn: arn }))).Tags ?? [];
  return tags.some((t) => t.Key === 'keyplan:run-token');
}

/** A long `keyplan run` started in the background, with its exit and output. */
function startRun(dataDir: string) {
  const child = spawn(process.execPath, [join(root, 'bin/keyplan.mjs'), 'run', EXAMPLE, '--endpoint', endpoint, '--items', '200', '--repeat', '20', '--data-dir', dataDir], { cwd: root, env });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  return { child, exit, stderr: () => stderr };
}

function keyplan(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [join(root, 'bin/keyplan.mjs'), ...args], { cwd: root, env, timeout: 120_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('keyplan run stopped by a signal', () => {
  test.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s mid-run: the table is removed, the journal is empty, and the exit code is %i (128 + the signal)', async (signal, exitCode) => {
    const dataDir = await makeTempDir();
    const run = startRun(dataDir);
    await waitFor(async () => (await tableNames()).length === 1, 'the run’s table');
    const [name] = await tableNames();
    run.child.kill(signal);
    const { code } = await run.exit;
    expect(code).toBe(exitCode);
    expect(run.stderr()).toMatch(new RegExp(`^keyplan: stopped by ${signal}\\. The run was canceled\\. Table "keyplan-run-[a-z0-9]+-Shop" was removed\\.$`, 'm'));
    expect(run.stderr()).toContain(name!);
    expect(await tableNames()).toEqual([]);
    expect(await readdir(join(dataDir, 'cli', 'run-journal'))).toEqual([]);
  }, 120_000);

  test('SIGKILL mid-run: the table stays and is recorded; the next run names it, and --cleanup removes it', async () => {
    const dataDir = await makeTempDir();
    const run = startRun(dataDir);
    await waitFor(async () => (await tableNames()).length === 1, 'the run’s table');
    const [name] = await tableNames();
    await waitFor(() => isTagged(name!), 'the run’s tags');
    run.child.kill('SIGKILL');
    expect((await run.exit).signal).toBe('SIGKILL');
    expect(await tableNames()).toEqual([name]);

    const next = await keyplan(['run', EXAMPLE, '--endpoint', endpoint, '--items', '1', '--repeat', '1', '--json', '--data-dir', dataDir]);
    expect(next.stderr).toContain(`keyplan: earlier runs were stopped before removing a table: ${name} (DynamoDB Local at ${endpoint}); "keyplan run --cleanup" removes them.`);
    // The next run removed its own table, and left the killed run's alone.
    expect(await tableNames()).toEqual([name]);

    const cleanup = await keyplan(['run', '--cleanup', '--json', '--data-dir', dataDir]);
    expect(cleanup.code).toBe(0);
    // Nothing failed (the AWS SDK's own Node version notice may be on stderr).
    expect(cleanup.stderr).not.toMatch(/^keyplan:/m);
    expect(JSON.parse(cleanup.stdout)).toEqual({ removed: [name], failed: [] });
    expect(await tableNames()).toEqual([]);
    expect(await readdir(join(dataDir, 'cli', 'run-journal'))).toEqual([]);

    const again = await keyplan(['run', '--cleanup', '--data-dir', dataDir]);
    expect(again).toMatchObject({ code: 0, stdout: 'No tables left by earlier runs.\n' });
  }, 180_000);
});
