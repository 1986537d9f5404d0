/**
 * The run journal: what a run created and has not removed survives on disk, signed; a record that
 * does not verify is never offered; and cleanup deletes a table only on the engine its record names,
 * once the tags the run set are read back from the table (and, on AWS, the account is the same).
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, TagResourceCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { cp, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { runTableName } from '../../src-shared/run/index.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { runTags } from './engine.ts';
import { cleanupLeftovers, createRunJournal, newRunToken, type JournalRecord } from './journal.ts';

const record = (runId: string, engine: JournalRecord['engine'] = { kind: 'embedded' }, extra: Partial<JournalRecord> = {}): JournalRecord => ({
  name: runTableName(runId, 'Shop'),
  runId,
  token: newRunToken(),
  engine,
  engineLabel: engine.kind === 'local' ? `DynamoDB Local at ${engine.endpoint}` : 'Embedded engine (dynalite 4.0.0)',
  createdAt: '2025-01-02T03:04:05.000Z',
  ...extra,
});

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('createRunJournal', () => {
  test('a missing folder is an empty journal, and nothing is created by reading it', async () => {
    const dir = await makeTempDir();
    const journal = createRunJournal(join(dir, 'run-journal'));
    expect(await journal.list()).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  test('records survive in private files (0600 in a 0700 folder, a 0600 key), are listed oldest first, and removed ones are gone', async () => {
    const dir = await makeTempDir();
    const folder = join(dir, 'run-journal');
    const journal = createRunJournal(folder);
    const a = record('a', { kind: 'embedded' }, { createdAt: '2025-01-01T00:00:00.000Z' });
    const b = record('b', { kind: 'local', endpoint: 'http://localhost:8000' }, { createdAt: '2025-01-02T00:00:00.000Z' });
    const c = record('c', { kind: 'embedded' }, { createdAt: '2025-01-03T00:00:00.000Z' });
    await journal.add(c);
    await journal.add(a);
    await journal.add(b);
    await journal.remove(b.token);
    await journal.remove(newRunToken());
    expect(await journal.list()).toEqual([a, c]);
    // A second journal on the same folder (the next start of the app) reads the same.
    expect(await createRunJournal(folder).list()).toEqual([a, c]);
    expect((await readdir(folder)).sort()).toEqual([`${a.token}.json`, `${c.token}.json`].sort());
    if (process.platform !== 'win32') {
      expect(await mode(folder)).toBe(0o700);
      expect(await mode(join(folder, `${a.token}.json`))).toBe(0o600);
      expect(await mode(join(dir, 'run-journal.key'))).toBe(0o600);
    }
    expect(await readFile(join(dir, 'run-journal.key'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });

  test('records added at the same time are all kept', async () => {
    const dir = await makeTempDir();
    const journal = createRunJournal(join(dir, 'run-journal'));
    const records = Array.from({ length: 20 }, (_, i) => record(`run${i}`));
    await Promise.all(records.map((r) => journal.add(r)));
    await Promise.all(records.filter((_, i) => i % 2 === 0).map((r) => journal.remove(r.token)));
    expect((await journal.list()).map((r) => r.name).sort()).toEqual(records.filter((_, i) => i % 2 === 1).map((r) => r.name).sort());
  });

  test('a record written without the secret (a forged table name) is dropped and reported, the others kept', async () => {
    const dir = await makeTempDir();
    const folder = join(dir, 'run-journal');
    const dropped: string[] = [];
    const journal = createRunJournal(folder, { onCorrupt: (p) => dropped.push(p.message) });
    const kept = record('kept');
    await journal.add(kept);
    const forged = { ...record('x', { kind: 'local', endpoint: 'http://localhost:8000' }), name: 'Shop' };
    await writeFile(join(folder, `${forged.token}.json`), JSON.stringify({ formatVersion: 2, record: forged, signature: 'ab'.repeat(32) }));
    await writeFile(join(folder, `${newRunToken()}.json`), '{ not json');
    expect(await journal.list()).toEqual([kept]);
    expect(dropped).toHaveLength(2);
    expect(dropped).toEqual(expect.arrayContaining([expect.stringMatching(/signature of the record of table "Shop" does not verify/), expect.stringMatching(/cannot read this run journal record/)]));
  });

  test('a signed record whose table name is not its run’s is dropped', async () => {
    const dir = await makeTempDir();
    const dropped: string[] = [];
    const journal = createRunJournal(join(dir, 'run-journal'), { onCorrupt: (p) => dropped.push(p.message) });
    await journal.add({ ...record('r1'), name: 'Shop' });
    await journal.add({ ...record('r1'), name: runTableName('r2', 'Shop') });
    expect(await journal.list()).toEqual([]);
    expect(dropped.sort()).toEqual([
      expect.stringMatching(/^"Shop" is not the name of a table of run "r1"/),
      expect.stringMatching(new RegExp(`^"${runTableName('r2', 'Shop')}" is not the name of a table of run "r1"`)),
    ]);
  });

  test('records copied from another workspace’s journal, or from another machine (another key), offer nothing', async () => {
    const dir = await makeTempDir();
    const key = join(dir, 'run-journal.key');
    const mine = createRunJournal(join(dir, 'a', 'run-journal'), { keyPath: key, scope: 'workspace:a' });
    await mine.add(record('r1'));
    // The same user's journal of workspace b, given a's record file.
    await cp(join(dir, 'a', 'run-journal'), join(dir, 'b', 'run-journal'), { recursive: true });
    expect(await createRunJournal(join(dir, 'b', 'run-journal'), { keyPath: key, scope: 'workspace:b' }).list()).toEqual([]);
    // Another machine: the same folder and scope, its own key.
    expect(await createRunJournal(join(dir, 'a', 'run-journal'), { keyPath: join(dir, 'other.key'), scope: 'workspace:a' }).list()).toEqual([]);
    expect(await mine.list()).toHaveLength(1);
  });

  test('a record file that is a symbolic link is not read through', async () => {
    const dir = await makeTempDir();
    const folder = join(dir, 'run-journal');
    const journal = createRunJournal(folder);
    const real = record('r1');
    await journal.add(real);
    await mkdir(join(dir, 'elsewhere'));
    const token = newRunToken();
    await cp(join(folder, `${real.token}.json`), join(dir, 'elsewhere', 'r.json'));
    await symlink(join(dir, 'elsewhere', 'r.json'), join(folder, `${token}.json`));
    expect((await journal.list()).map((r) => r.token)).toEqual([real.token]);
  });
});

describe('cleanupLeftovers', () => {
  let server: Server;
  let endpoint: string;
  let client: DynamoDBClient;
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

  /** A table as a run creates it: tagged with the record's run id and token (unless `tags` says otherwise). */
  async function createTable(name: string, tags?: Array<{ Key: string; Value: string }>): Promise<void> {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    if (tags) {
      const arn = (await client.send(new DescribeTableCommand({ TableName: name }))).Table!.TableArn!;
      await client.send(new TagResourceCommand({ ResourceArn: arn, Tags: tags }));
    }
  }
  const tableNames = async () => ((await client.send(new ListTablesCommand({}))).TableNames ?? []).sort();
  const dropAll = async () => {
    for (const name of await tableNames()) await client.send(new (await import('@aws-sdk/client-dynamodb')).DeleteTableCommand({ TableName: name }));
  };

  test('deletes a record’s table once its tags match; a table already gone and an embedded one count as removed', async () => {
    const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
    const local = { kind: 'local' as const, endpoint };
    const left = record('left', local);
    const gone = record('gone', local);
    await createTable(left.name, runTags(left.runId, left.token));
    await createTable('users-own-table');
    for (const r of [left, gone, record('embedded')]) await journal.add(r);

    const result = await cleanupLeftovers(journal);
    expect(result.failed).toEqual([]);
    expect(result.removed.sort()).toEqual([runTableName('embedded', 'Shop'), gone.name, left.name].sort());
    expect(await journal.list()).toEqual([]);
    expect(await tableNames()).toEqual(['users-own-table']);
    await dropAll();
  });

  test('a table without the run’s tags, or with another run’s token, is not deleted and no longer offered', async () => {
    const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
    const local = { kind: 'local' as const, endpoint };
    const untagged = record('untagged', local);
    const other = record('other', local);
    await createTable(untagged.name);
    await createTable(other.name, runTags(other.runId, newRunToken()));
    await journal.add(untagged);
    await journal.add(other);

    const result = await cleanupLeftovers(journal);
    expect(result.removed).toEqual([]);
    expect(result.failed.map((f) => f.name).sort()).toEqual([other.name, untagged.name].sort());
    for (const f of result.failed) expect(f.message).toMatch(/does not carry the tags Keyplan set/);
    expect(await tableNames()).toEqual([other.name, untagged.name].sort());
    expect(await journal.list()).toEqual([]);
    await dropAll();
  });

  test('only the named tables are removed; a name the journal does not hold is refused, and its table untouched', async () => {
    const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
    const local = { kind: 'local' as const, endpoint };
    const one = record('one', local);
    const two = record('two', local);
    await createTable(one.name, runTags(one.runId, one.token));
    await createTable(two.name, runTags(two.runId, two.token));
    await createTable('users-own-table');
    await journal.add(one);
    await journal.add(two);

    const result = await cleanupLeftovers(journal, [one.name, 'users-own-table']);
    expect(result.removed).toEqual([one.name]);
    expect(result.failed).toEqual([{ name: 'users-own-table', message: expect.stringMatching(/not in the run journal/) }]);
    expect((await journal.list()).map((t) => t.name)).toEqual([two.name]);
    expect(await tableNames()).toEqual([two.name, 'users-own-table'].sort());
    await dropAll();
  });

  test('an engine out of reach fails its tables with why, and keeps them in the journal', async () => {
    const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
    // A port taken from the system and given back: nothing listens there.
    const spare = createServer();
    await new Promise<void>((done) => spare.listen(0, '127.0.0.1', done));
    const port = (spare.address() as AddressInfo).port;
    await new Promise<void>((done) => spare.close(() => done()));
    const far = record('far', { kind: 'local', endpoint: `http://127.0.0.1:${port}` });
    await journal.add(far);
    const result = await cleanupLeftovers(journal);
    expect(result.removed).toEqual([]);
    expect(result.failed).toEqual([{ name: far.name, message: expect.stringMatching(new RegExp(`Cannot reach http://127\\.0\\.0\\.1:${port}: connection refused`)) }]);
    expect((await journal.list()).map((t) => t.name)).toEqual([far.name]);
  });

  describe('on AWS (a stand-in STS, DynamoDB at the dynalite)', () => {
    const ACCOUNT = '123456789012';
    let sts: Server;
    beforeAll(async () => {
      sts = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.setHeader('Content-Type', 'text/xml');
          res.end(
            `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>arn:aws:iam::${ACCOUNT}:user/keyplan-test</Arn><UserId>AIDAKEYPLANTEST</UserId><Account>${ACCOUNT}</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
          );
        });
      });
      await new Promise<void>((done) => sts.listen(0, '127.0.0.1', done));
      const dir = await makeTempDirOutsideTest();
      await writeFile(join(dir, 'config'), '[profile sandbox]\nregion = eu-west-1\n');
      await writeFile(join(dir, 'credentials'), '[sandbox]\naws_access_key_id = AKIDKEYPLANTEST\naws_secret_access_key = test-secret\n');
      vi.stubEnv('AWS_CONFIG_FILE', join(dir, 'config'));
      vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(dir, 'credentials'));
      vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', endpoint);
      vi.stubEnv('AWS_ENDPOINT_URL_STS', `http://127.0.0.1:${(sts.address() as AddressInfo).port}`);
      vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
      for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_ENDPOINT_URL']) vi.stubEnv(name, undefined);
    });
    afterAll(async () => {
      vi.unstubAllEnvs();
      await new Promise<void>((done) => sts.close(() => done()));
    });
    const aws = { kind: 'aws' as const, region: 'eu-west-1', profile: 'sandbox' };
    const label = (account: string) => `AWS account ${account}, eu-west-1`;

    test('a table created in another account is not deleted: STS names the account again before any delete', async () => {
      const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
      const elsewhere = record('elsewhere', aws, { account: '999999999999', engineLabel: label('999999999999') });
      await createTable(elsewhere.name, runTags(elsewhere.runId, elsewhere.token));
      await journal.add(elsewhere);
      const result = await cleanupLeftovers(journal);
      expect(result.removed).toEqual([]);
      expect(result.failed).toEqual([{ name: elsewhere.name, message: expect.stringMatching(/created in AWS account 999999999999, but the credentials of this profile now belong to account 123456789012; nothing was deleted/) }]);
      expect(await tableNames()).toEqual([elsewhere.name]);
      await dropAll();
    });

    test('a table of this account whose tags match is deleted; a poisoned name (the user’s Shop) never is', async () => {
      const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
      const mine = record('mine', aws, { account: ACCOUNT, engineLabel: label(ACCOUNT) });
      await createTable(mine.name, runTags(mine.runId, mine.token));
      await createTable('Shop');
      await journal.add(mine);
      const result = await cleanupLeftovers(journal, [mine.name, 'Shop']);
      expect(result.removed).toEqual([mine.name]);
      expect(result.failed).toEqual([{ name: 'Shop', message: expect.stringMatching(/not in the run journal/) }]);
      expect(await tableNames()).toEqual(['Shop']);
      await dropAll();
    });
  });
});

/** A temporary folder for a `beforeAll` (makeTempDir removes its folder when a test ends). */
async function makeTempDirOutsideTest(): Promise<string> {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  return mkdtemp(join(tmpdir(), 'keyplan-aws-'));
}
