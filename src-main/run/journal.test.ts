/**
 * The run journal: what a run created and has not removed survives in a file, a damaged file reads
 * as empty (and says so), and cleanup deletes only the journal's tables, on the engine each was
 * created on.
 */
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { cleanupLeftovers, createRunJournal, type LeftoverTable } from './journal.ts';

const entry = (name: string, engine: LeftoverTable['engine'] = { kind: 'embedded' }): LeftoverTable => ({
  name,
  engine,
  engineLabel: engine.kind === 'local' ? `DynamoDB Local at ${engine.endpoint}` : 'Embedded engine (dynalite 4.0.0)',
  createdAt: '2025-01-02T03:04:05.000Z',
});

describe('createRunJournal', () => {
  test('a missing file is an empty journal, and nothing is created by reading it', async () => {
    const dir = await makeTempDir();
    const corrupt: string[] = [];
    const journal = createRunJournal(join(dir, 'runs', 'journal.json'), { onCorrupt: (p) => corrupt.push(p.message) });
    expect(await journal.list()).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
    expect(corrupt).toEqual([]);
  });

  test('added tables are listed in order, survive in the file, and removed ones are gone', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'runs', 'journal.json');
    const journal = createRunJournal(file);
    await journal.add(entry('keyplan-run-a-Shop'));
    await journal.add(entry('keyplan-run-b-Shop', { kind: 'local', endpoint: 'http://localhost:8000' }));
    await journal.add(entry('keyplan-run-c-Shop'));
    await journal.remove('keyplan-run-b-Shop');
    await journal.remove('keyplan-run-never-added');
    expect((await journal.list()).map((t) => t.name)).toEqual(['keyplan-run-a-Shop', 'keyplan-run-c-Shop']);
    // A second journal on the same file (the next start of the app) reads the same.
    expect(await createRunJournal(file).list()).toEqual([entry('keyplan-run-a-Shop'), entry('keyplan-run-c-Shop')]);
    // Written atomically: no temporary file is left beside it.
    expect(await readdir(join(dir, 'runs'))).toEqual(['journal.json']);
  });

  test('changes made at the same time are all kept (they are applied one at a time)', async () => {
    const dir = await makeTempDir();
    const journal = createRunJournal(join(dir, 'journal.json'));
    const names = Array.from({ length: 20 }, (_, i) => `keyplan-run-${i}-Shop`);
    await Promise.all(names.map((n) => journal.add(entry(n))));
    await Promise.all(names.filter((_, i) => i % 2 === 0).map((n) => journal.remove(n)));
    expect((await journal.list()).map((t) => t.name).sort()).toEqual(names.filter((_, i) => i % 2 === 1).sort());
  });

  test.each([
    ['not JSON', '{ "tables": [', /not JSON/],
    ['JSON without a table list', '{ "formatVersion": 1 }', /no "tables" list/],
    ['a list that is not the journal', '[1, 2, 3]', /no "tables" list/],
  ])('a file that is %s reads as empty and is reported', async (_, text, problem) => {
    const dir = await makeTempDir();
    const file = join(dir, 'journal.json');
    await writeFile(file, text);
    const corrupt: Array<{ path: string; message: string }> = [];
    const journal = createRunJournal(file, { onCorrupt: (p) => corrupt.push(p) });
    expect(await journal.list()).toEqual([]);
    expect(corrupt).toHaveLength(1);
    expect(corrupt[0]!.path).toBe(file);
    expect(corrupt[0]!.message).toMatch(problem);
    // The journal goes on working: the next add writes a whole journal.
    await journal.add(entry('keyplan-run-a-Shop'));
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ formatVersion: 1, tables: [entry('keyplan-run-a-Shop')] });
  });

  test('entries that are not tables are dropped and reported; the others are kept', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'journal.json');
    await writeFile(file, JSON.stringify({ formatVersion: 1, tables: [entry('keyplan-run-a-Shop'), { name: 'x' }, 'y'] }));
    const corrupt: string[] = [];
    const journal = createRunJournal(file, { onCorrupt: (p) => corrupt.push(p.message) });
    expect(await journal.list()).toEqual([entry('keyplan-run-a-Shop')]);
    expect(corrupt).toEqual([expect.stringMatching(/2 entries that are not tables/)]);
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

  const createTable = (name: string) =>
    client.send(
      new CreateTableCommand({
        TableName: name,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
  const tableNames = async () => (await client.send(new ListTablesCommand({}))).TableNames ?? [];

  test('deletes every journal table on its engine; a table already gone and an embedded one count as removed', async () => {
    const dir = await makeTempDir();
    const journal = createRunJournal(join(dir, 'journal.json'));
    const local = { kind: 'local' as const, endpoint };
    await createTable('keyplan-run-left-Shop');
    await createTable('users-own-table');
    await journal.add(entry('keyplan-run-left-Shop', local));
    await journal.add(entry('keyplan-run-gone-Shop', local));
    await journal.add(entry('keyplan-run-embedded-Shop'));

    const result = await cleanupLeftovers(journal);
    expect(result.failed).toEqual([]);
    expect(result.removed.sort()).toEqual(['keyplan-run-embedded-Shop', 'keyplan-run-gone-Shop', 'keyplan-run-left-Shop']);
    expect(await journal.list()).toEqual([]);
    // The user's own table, not in the journal, is untouched.
    expect(await tableNames()).toEqual(['users-own-table']);
  });

  test('only the named tables are removed; a name the journal does not hold is refused, and its table untouched', async () => {
    const dir = await makeTempDir();
    const journal = createRunJournal(join(dir, 'journal.json'));
    const local = { kind: 'local' as const, endpoint };
    await createTable('keyplan-run-one-Shop');
    await createTable('keyplan-run-two-Shop');
    await journal.add(entry('keyplan-run-one-Shop', local));
    await journal.add(entry('keyplan-run-two-Shop', local));

    const result = await cleanupLeftovers(journal, ['keyplan-run-one-Shop', 'users-own-table']);
    expect(result.removed).toEqual(['keyplan-run-one-Shop']);
    expect(result.failed).toEqual([{ name: 'users-own-table', message: expect.stringMatching(/not in the run journal/) }]);
    expect((await journal.list()).map((t) => t.name)).toEqual(['keyplan-run-two-Shop']);
    expect((await tableNames()).sort()).toEqual(['keyplan-run-two-Shop', 'users-own-table']);
  });

  test('an engine out of reach fails its tables with why, and keeps them in the journal', async () => {
    const dir = await makeTempDir();
    const journal = createRunJournal(join(dir, 'journal.json'));
    // A port taken from the system and given back: nothing listens there.
    const spare = createServer();
    await new Promise<void>((done) => spare.listen(0, '127.0.0.1', done));
    const port = (spare.address() as AddressInfo).port;
    await new Promise<void>((done) => spare.close(() => done()));
    const dead = { kind: 'local' as const, endpoint: `http://127.0.0.1:${port}` };
    await journal.add(entry('keyplan-run-far-Shop', dead));
    const result = await cleanupLeftovers(journal);
    expect(result.removed).toEqual([]);
    expect(result.failed).toEqual([{ name: 'keyplan-run-far-Shop', message: expect.stringMatching(new RegExp(`Cannot reach http://127\\.0\\.0\\.1:${port}: connection refused`)) }]);
    expect((await journal.list()).map((t) => t.name)).toEqual(['keyplan-run-far-Shop']);
  });
});
