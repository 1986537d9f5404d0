/**
 * A workspace is shared through git, so what it holds is input, never Keyplan's own state: through
 * the real browser-mode handlers, a committed `.keyplan/recent.json` link does not make the host
 * overwrite its target, and a committed (or forged) run journal offers and deletes nothing, on a
 * local engine or on the AWS code path. Keyplan's own files live in the user's data folder.
 */
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../src-shared/ipc/index.ts';
import { createMemoryTransport } from '../../src-shared/ipc/host.ts';
import { runTableName } from '../../src-shared/run/index.ts';
import { workspaceDataDir } from '../files/data-folder.ts';
import { createBrowserHandlers } from '../host.ts';
import { newRunToken } from '../run/journal.ts';
import { sampleDesign } from '../test-support/designs.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const VICTIM_TEXT = 'export PATH=/usr/bin\n';

async function setUp() {
  const dir = await makeTempDir();
  const workspace = join(dir, 'repo');
  const victim = join(dir, 'victim', '.bashrc');
  await mkdir(join(dir, 'victim'));
  await writeFile(victim, VICTIM_TEXT);
  await mkdir(join(workspace, '.keyplan'), { recursive: true });
  const dataDir = join(dir, 'home-data');
  return { dir, workspace, victim, dataDir };
}

const connect = async (workspaceDir: string, dataDir: string) =>
  createApiClient(createMemoryTransport(await createBrowserHandlers({ workspaceDir, dataDir, examplesDir: join(workspaceDir, 'no-examples'), version: '1.0.0', log: () => {} })));

describe('a workspace’s .keyplan folder is not Keyplan’s', () => {
  test('a committed .keyplan/recent.json link to ../../victim/.bashrc: save and open leave the victim untouched; the recent list is in the data folder', async () => {
    const { workspace, victim, dataDir } = await setUp();
    await symlink('../../victim/.bashrc', join(workspace, '.keyplan', 'recent.json'));
    await symlink('../../victim/.bashrc', join(workspace, '.keyplan', 'run-journal.json'));
    const client = await connect(workspace, dataDir);

    const saved = await client.call('file.saveAs', { name: 'orders', design: sampleDesign('Orders') });
    expect(saved.warnings).toBeUndefined();
    await client.call('file.open', { ref: saved.ref });
    expect((await client.call('recent.list', {})).files.map((f) => f.ref)).toEqual(['orders.keyplan.json']);
    expect(await client.call('run.leftovers', {})).toEqual({ tables: [] });

    expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
    expect(await readlink(join(workspace, '.keyplan', 'recent.json'))).toBe('../../victim/.bashrc');
    expect((await readdir(join(workspace, '.keyplan'))).sort()).toEqual(['recent.json', 'run-journal.json']);
    const recent = JSON.parse(await readFile(join(workspaceDataDir(dataDir, workspace), 'recent.json'), 'utf8')) as { files: Array<{ ref: string }> };
    expect(recent.files.map((f) => f.ref)).toEqual(['orders.keyplan.json']);
  });

  test('a recent.json link planted in the data folder itself is replaced, never written through', async () => {
    const { workspace, victim, dataDir } = await setUp();
    const folder = workspaceDataDir(dataDir, workspace);
    await mkdir(folder, { recursive: true });
    await symlink(victim, join(folder, 'recent.json'));
    const client = await connect(workspace, dataDir);
    await client.call('file.saveAs', { name: 'orders', design: sampleDesign('Orders') });
    expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
    expect((await lstat(join(folder, 'recent.json'))).isSymbolicLink()).toBe(false);
  });
});

describe('a poisoned run journal deletes nothing', () => {
  let server: ReturnType<typeof dynalite>;
  let endpoint: string;
  let client: DynamoDBClient;
  beforeAll(async () => {
    server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    await client.send(
      new CreateTableCommand({
        TableName: 'Shop',
        AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
  });
  afterAll(async () => {
    client.destroy();
    await new Promise<void>((done) => server.close(() => done()));
  });
  const tables = async () => (await client.send(new ListTablesCommand({}))).TableNames ?? [];

  test('a journal committed in the workspace (the old place, local and AWS entries naming "Shop") is never read', async () => {
    const { workspace, dataDir } = await setUp();
    const earlier = new Date(Date.now() - 3_600_000).toISOString();
    await writeFile(
      join(workspace, '.keyplan', 'run-journal.json'),
      JSON.stringify({
        formatVersion: 1,
        tables: [
          { name: 'Shop', engine: { kind: 'local', endpoint }, engineLabel: 'DynamoDB Local', createdAt: earlier },
          { name: 'Shop', engine: { kind: 'aws', region: 'eu-west-1' }, engineLabel: 'AWS account 123456789012, eu-west-1', createdAt: earlier },
        ],
      }),
    );
    const api = await connect(workspace, dataDir);
    expect(await api.call('run.leftovers', {})).toEqual({ tables: [] });
    const result = await api.call('run.cleanup', { names: ['Shop'] });
    expect(result.removed).toEqual([]);
    expect(result.failed).toEqual([{ name: 'Shop', message: expect.stringMatching(/not in the run journal/) }]);
    expect(await tables()).toContain('Shop');
  });

  test('forged records in the data folder’s journal (a bad signature, on "Shop" and on a run’s name) are neither offered nor deleted', async () => {
    const { workspace, dataDir } = await setUp();
    const folder = join(workspaceDataDir(dataDir, workspace), 'run-journal');
    await mkdir(folder, { recursive: true });
    const base = { runId: 'r1', engine: { kind: 'local', endpoint }, engineLabel: 'DynamoDB Local', createdAt: new Date(0).toISOString() };
    for (const name of ['Shop', runTableName('r1', 'Shop')]) {
      const token = newRunToken();
      await writeFile(join(folder, `${token}.json`), JSON.stringify({ formatVersion: 2, record: { ...base, name, token }, signature: '00'.repeat(32) }));
    }
    const api = await connect(workspace, dataDir);
    expect(await api.call('run.leftovers', {})).toEqual({ tables: [] });
    expect((await api.call('run.cleanup', {})).removed).toEqual([]);
    expect(await tables()).toContain('Shop');
  });
});
