/**
 * Whole runs of the e-commerce example on real engines on 127.0.0.1: the embedded dynalite, a second
 * dynalite given as DynamoDB Local (directly, or behind a proxy that refuses chosen operations), and
 * the AWS path through the SDK's own environment (a temporary AWS config, AWS_ENDPOINT_URL_DYNAMODB at
 * the dynalite, AWS_ENDPOINT_URL_STS at a fake STS). What a user relies on: the run's table is gone
 * afterwards whatever happened, a table that exists is never touched, two runs do not meet, a cancel
 * leaves nothing behind, and AWS runs only in the account the user confirmed.
 */
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, GetItemCommand, ListTablesCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import type { Design } from '../../src-shared/model/index.ts';
import type { RunReport } from '../../src-shared/run/index.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { cleanupLeftovers, createRunJournal } from './journal.ts';
import { forTesting, runDesign, type RunProgress } from './runner.ts';

const root = resolve(import.meta.dirname, '../..');
const design = JSON.parse(readFileSync(join(root, 'examples/ecommerce.keyplan.json'), 'utf8')) as Design;
const tableId = design.tables[0]!.id;
const patternIds = design.tables[0]!.accessPatterns.map((p) => p.id);

const listen = (server: Server) =>
  new Promise<string>((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const stop = (server: Server) => new Promise<void>((done) => server.close(() => done()));

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** The patterns the engine ran (not marked "not run"): each was called `repeat` times. */
const ranPatterns = (report: RunReport) => report.patterns.filter((p) => p.agreement !== 'notRun');

let server: Server;
let endpoint: string;
let client: DynamoDBClient;
const tableNames = async () => (await client.send(new ListTablesCommand({}))).TableNames ?? [];

beforeAll(async () => {
  server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
  endpoint = await listen(server);
  client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
});
afterAll(async () => {
  client.destroy();
  await stop(server);
});

describe('a run', () => {
  test('on the embedded engine: every pattern reported in the design’s order, each run pattern called `repeat` times, the table removed', async () => {
    const events: RunProgress[] = [];
    const report = await runDesign({ design, tableId, engine: { kind: 'embedded' }, itemsPerEntity: 6, repeat: 2, onProgress: (p) => events.push(p) });

    expect(report.engine).toEqual({ kind: 'embedded', label: expect.stringMatching(/^Embedded engine \(dynalite \d+\.\d+\.\d+\)$/) });
    expect(report.table).toEqual({ tableId, name: expect.stringMatching(/^keyplan-run-[a-z0-9]+-Shop$/), omittedIndexes: [] });
    expect(report.repeat).toBe(2);
    expect(report.patterns.map((p) => p.patternId)).toEqual(patternIds);
    // dynalite has no TransactWriteItems: "Place order" is not run, and says where it would be.
    expect(report.patterns.find((p) => p.name === 'Place order')).toMatchObject({ agreement: 'notRun', message: expect.stringContaining('needs DynamoDB Local 3.3 or later, or AWS') });
    for (const p of ranPatterns(report)) {
      if (p.agreement === 'failed') continue;
      expect(p.measured?.calls).toBe(2);
      // The witness (reads) or the item read before and after (writes) was sent: the rule could be applied.
      expect(p.byRule).toBeDefined();
    }
    expect(Object.values(report.summary).reduce((a, b) => a + b, 0)).toBe(patternIds.length);
    expect(report.cleanup).toEqual({ removed: [report.table.name], leftover: [] });

    // Steps: create, one per BatchWriteItem of at most 25 items, one per call, delete.
    const batches = Math.ceil(report.itemsLoaded / 25);
    const total = 2 + batches + ranPatterns(report).length * 2;
    expect(events.every((e) => e.total === total)).toBe(true);
    expect(events.at(-1)).toEqual({ done: total, total, label: `Removed table ${report.table.name}` });
    expect(events.map((e) => e.done)).toEqual([...events.map((e) => e.done)].sort((a, b) => a - b));
    const loads = events.filter((e) => e.label.startsWith('Loaded '));
    expect(loads).toHaveLength(batches);
    expect(loads.at(-1)!.label).toBe(`Loaded ${report.itemsLoaded} of ${report.itemsLoaded} items`);
  }, 60_000);

  test('on DynamoDB Local (a dynalite at an endpoint): recognised as dynalite, and no table is left', async () => {
    const report = await runDesign({ design, tableId, engine: { kind: 'local', endpoint }, itemsPerEntity: 3, repeat: 1 });
    expect(report.engine).toEqual({ kind: 'local', label: `DynamoDB Local at ${endpoint}` });
    expect(report.patterns.find((p) => p.name === 'Place order')?.agreement).toBe('notRun');
    expect(report.cleanup).toEqual({ removed: [report.table.name], leftover: [] });
    expect(await tableNames()).toEqual([]);
  }, 60_000);

  test('two runs at once on one engine get their own tables, measure the same figures and both clean up', async () => {
    const options = { design, tableId, engine: { kind: 'local' as const, endpoint }, itemsPerEntity: 4, repeat: 2, seed: 3 };
    const [a, b] = await Promise.all([runDesign(options), runDesign(options)]);
    expect(a.table.name).not.toBe(b.table.name);
    // The same seed loads the same items: had one run read the other's table, a figure would differ.
    const figures = (r: RunReport) => r.patterns.map((p) => [p.patternId, p.agreement, p.measured?.total, p.measured?.itemsRead]);
    expect(figures(a)).toEqual(figures(b));
    expect(a.cleanup.removed).toEqual([a.table.name]);
    expect(b.cleanup.removed).toEqual([b.table.name]);
    expect(await tableNames()).toEqual([]);
  }, 60_000);

  test('a table with the run’s name already there is run.tableExists, and that table and its item are untouched', async () => {
    const runId = 'fixed-run-id';
    const first = await runDesign({ design, tableId, engine: { kind: 'local', endpoint }, itemsPerEntity: 2, repeat: 1, runId });
    const name = first.table.name;
    await client.send(
      new CreateTableCommand({
        TableName: name,
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    try {
      await client.send(new PutItemCommand({ TableName: name, Item: { id: { S: 'mine' }, note: { S: 'keep me' } } }));
      const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
      const error = await rejection(runDesign({ design, tableId, engine: { kind: 'local', endpoint }, itemsPerEntity: 2, repeat: 1, runId, journal }));
      expect(error.code).toBe('run.tableExists');
      expect(error.message).toContain(name);
      expect(await tableNames()).toEqual([name]);
      const kept = await client.send(new GetItemCommand({ TableName: name, Key: { id: { S: 'mine' } }, ConsistentRead: true }));
      expect(kept.Item).toEqual({ id: { S: 'mine' }, note: { S: 'keep me' } });
      // Nothing was created, so nothing was recorded.
      expect(await journal.list()).toEqual([]);
    } finally {
      await client.send(new DeleteTableCommand({ TableName: name }));
    }
  }, 60_000);

  test('canceled during the patterns: task.canceled once the table is removed, and the journal is empty', async () => {
    const controller = new AbortController();
    const folder = join(await makeTempDir(), 'run-journal');
    const journal = createRunJournal(folder);
    let seenInJournal: string[] = [];
    const events: RunProgress[] = [];
    const run = runDesign({
      design,
      tableId,
      engine: { kind: 'local', endpoint },
      itemsPerEntity: 3,
      repeat: 3,
      journal,
      signal: controller.signal,
      onProgress: (p) => {
        events.push(p);
        if (/: call 1 of 3$/.test(p.label) && !controller.signal.aborted) {
          controller.abort();
          // Read now, before the cancel removes it: one record file.
          seenInJournal = readdirSync(folder).map((f) => (JSON.parse(readFileSync(join(folder, f), 'utf8')) as { record: { name: string } }).record.name);
        }
      },
    });
    const error = await rejection(run);
    expect(error.code).toBe('task.canceled');
    const name = events[0]!.label.replace('Creating table ', '');
    // While it ran, the table was in the journal; the cancel removed it from the engine and the journal.
    expect(seenInJournal).toEqual([name]);
    expect(error.details).toEqual({ cleanup: { removed: [name], leftover: [] } });
    expect(error.message).toContain(`Table "${name}" was removed.`);
    // No call after the cancel: the first call was the last.
    expect(events.filter((e) => / call \d+ of 3$/.test(e.label))).toHaveLength(1);
    expect(await tableNames()).toEqual([]);
    expect(await journal.list()).toEqual([]);
  }, 60_000);

  test('canceled before it starts: task.canceled, and nothing is opened or created', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(runDesign({ design, tableId, engine: { kind: 'local', endpoint }, signal: controller.signal }));
    expect(error.code).toBe('task.canceled');
    expect(await tableNames()).toEqual([]);
  });

  test('the journal lists the table while the run holds it, and forgets it once removed', async () => {
    const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
    let during: unknown[] = [];
    const report = await runDesign({
      design,
      tableId,
      engine: { kind: 'local', endpoint },
      itemsPerEntity: 2,
      repeat: 1,
      journal,
      onProgress: (p) => {
        if (p.label.startsWith('Created table')) void journal.list().then((t) => (during = t));
      },
    });
    expect(during).toEqual([
      {
        name: report.table.name,
        runId: report.runId,
        token: expect.stringMatching(/^[0-9a-f]{32}$/),
        engine: { kind: 'local', endpoint },
        engineLabel: `DynamoDB Local at ${endpoint}`,
        createdAt: expect.any(String),
        pid: process.pid,
      },
    ]);
    expect(await journal.list()).toEqual([]);
  }, 60_000);
});

describe('when the engine refuses', () => {
  /** A proxy to the dynalite that answers the operations `refused` names with AccessDeniedException. */
  async function refusingProxy(refused: Set<string>): Promise<{ proxy: Server; proxyEndpoint: string }> {
    const target = new URL(endpoint);
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
        if (refused.has(operation)) {
          res.statusCode = 400;
          res.setHeader('Content-Type', 'application/x-amz-json-1.0');
          res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#AccessDeniedException', message: `${operation} is not allowed here` }));
          return;
        }
        const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(res);
        });
        forward.end(Buffer.concat(chunks));
      });
    });
    return { proxy, proxyEndpoint: await listen(proxy) };
  }

  test('a refused CreateTable is run.failed with the engine’s words; nothing is left and nothing stays in the journal', async () => {
    const { proxy, proxyEndpoint } = await refusingProxy(new Set(['CreateTable']));
    try {
      const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
      const error = await rejection(runDesign({ design, tableId, engine: { kind: 'local', endpoint: proxyEndpoint }, itemsPerEntity: 2, repeat: 1, journal }));
      expect(error.code).toBe('run.failed');
      expect(error.message).toContain('CreateTable');
      expect(error.message).toContain('AccessDeniedException: CreateTable is not allowed here');
      expect(error.details).toEqual({ cleanup: { removed: [], leftover: [] } });
      expect(await journal.list()).toEqual([]);
      expect(await tableNames()).toEqual([]);
    } finally {
      await stop(proxy);
    }
  }, 60_000);

  test('a table that cannot be deleted is reported as left over and stays in the journal, and the next cleanup removes it', async () => {
    const refused = new Set(['DeleteTable']);
    const { proxy, proxyEndpoint } = await refusingProxy(refused);
    try {
      const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
      const report = await runDesign({ design, tableId, engine: { kind: 'local', endpoint: proxyEndpoint }, itemsPerEntity: 2, repeat: 1, journal });
      expect(report.cleanup).toEqual({ removed: [], leftover: [report.table.name] });
      expect((await journal.list()).map((t) => t.name)).toEqual([report.table.name]);
      expect(await tableNames()).toEqual([report.table.name]);

      // At the next start the engine lets it go: the cleanup offered then removes it.
      refused.clear();
      expect(await cleanupLeftovers(journal)).toEqual({ removed: [report.table.name], failed: [] });
      expect(await journal.list()).toEqual([]);
      expect(await tableNames()).toEqual([]);
    } finally {
      await stop(proxy);
    }
  }, 60_000);

  /**
   * A proxy to the dynalite that can hold every request until `release()` (the winner paused mid-run)
   * and can answer DescribeTable as if no table existed yet (the loser checked before the winner created).
   */
  async function gatedProxy(options: { hideTables?: boolean }): Promise<{ proxy: Server; proxyEndpoint: string; hold(): void; release(): void }> {
    const target = new URL(endpoint);
    let gate: Promise<void> = Promise.resolve();
    let open = () => {};
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
        if (options.hideTables && operation === 'DescribeTable') {
          res.statusCode = 400;
          res.setHeader('Content-Type', 'application/x-amz-json-1.0');
          res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException', message: 'Requested resource not found' }));
          return;
        }
        void gate.then(() => {
          const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
            res.writeHead(answer.statusCode ?? 500, answer.headers);
            answer.pipe(res);
          });
          forward.end(Buffer.concat(chunks));
        });
      });
    });
    return {
      proxy,
      proxyEndpoint: await listen(proxy),
      hold: () => (gate = new Promise((done) => (open = done))),
      release: () => open(),
    };
  }

  test('two runs with one run id: the one whose CreateTable is refused (ResourceInUseException) deletes nothing, and the winner finishes', async () => {
    const winnerEngine = await gatedProxy({});
    const loserEngine = await gatedProxy({ hideTables: true });
    try {
      const runId = 'same-run-id';
      let winnerCreated: () => void = () => {};
      const created = new Promise<void>((done) => (winnerCreated = done));
      const winnerJournal = createRunJournal(join(await makeTempDir(), 'run-journal'));
      const winner = runDesign({
        design, tableId, engine: { kind: 'local', endpoint: winnerEngine.proxyEndpoint }, itemsPerEntity: 2, repeat: 1, runId, journal: winnerJournal,
        onProgress: (p) => {
          // Paused right after its table is ACTIVE: every later request waits until the loser is done.
          if (p.label.startsWith('Created table')) {
            winnerEngine.hold();
            winnerCreated();
          }
        },
      });
      await created;
      const name = (await tableNames())[0]!;
      const loserJournal = createRunJournal(join(await makeTempDir(), 'run-journal'));
      const error = await rejection(runDesign({ design, tableId, engine: { kind: 'local', endpoint: loserEngine.proxyEndpoint }, itemsPerEntity: 2, repeat: 1, runId, journal: loserJournal }));
      expect(error.code).toBe('run.failed');
      expect(error.message).toContain(`CreateTable of table "${name}"`);
      expect(error.message).toContain('ResourceInUseException');
      expect(error.details).toEqual({ cleanup: { removed: [], leftover: [] } });
      // The winner's table is still there, and the loser recorded nothing to clean up later.
      expect(await tableNames()).toEqual([name]);
      expect(await loserJournal.list()).toEqual([]);

      winnerEngine.release();
      const report = await winner;
      expect(report.table.name).toBe(name);
      expect(report.patterns.filter((p) => p.agreement === 'failed')).toEqual([]);
      expect(report.cleanup).toEqual({ removed: [name], leftover: [] });
      expect(await tableNames()).toEqual([]);
    } finally {
      winnerEngine.release();
      await stop(winnerEngine.proxy);
      await stop(loserEngine.proxy);
    }
  }, 60_000);

  test('a refused access-pattern request is recorded on its pattern as the engine said it, and the run goes on', async () => {
    const { proxy, proxyEndpoint } = await refusingProxy(new Set(['GetItem']));
    try {
      const report = await runDesign({ design, tableId, engine: { kind: 'local', endpoint: proxyEndpoint }, itemsPerEntity: 2, repeat: 1 });
      const getUser = report.patterns.find((p) => p.patternId === 'ap-get-user')!;
      expect(getUser.agreement).toBe('failed');
      expect(getUser.message).toBe('AccessDeniedException: GetItem is not allowed here');
      // A Query pattern after it was still measured.
      expect(report.patterns.find((p) => p.patternId === 'ap-list-orders-for-user')?.measured?.calls).toBe(1);
      expect(report.cleanup.removed).toEqual([report.table.name]);
    } finally {
      await stop(proxy);
    }
  }, 60_000);
});

describe('on AWS', () => {
  const ACCOUNT = '123456789012';
  let sts: Server;
  let dir: string;

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
    const stsEndpoint = await listen(sts);
    dir = await mkdtemp(join(tmpdir(), 'keyplan-aws-'));
    await writeFile(join(dir, 'config'), '[profile sandbox]\nregion = eu-west-1\n');
    await writeFile(join(dir, 'credentials'), '[sandbox]\naws_access_key_id = AKIDKEYPLANTEST\naws_secret_access_key = test-secret\n');
    vi.stubEnv('AWS_CONFIG_FILE', join(dir, 'config'));
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(dir, 'credentials'));
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', endpoint);
    vi.stubEnv('AWS_ENDPOINT_URL_STS', stsEndpoint);
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_ENDPOINT_URL']) vi.stubEnv(name, undefined);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await stop(sts);
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(async () => expect(await tableNames()).toEqual([]));

  const engine = { kind: 'aws' as const, region: 'eu-west-1', profile: 'sandbox' };

  test.each([
    ['another account', '999999999999'],
    ['no account', undefined],
  ])('confirming %s is run.notConfirmed naming the account and region, and nothing is created', async (_, confirmAccount) => {
    const journal = createRunJournal(join(await makeTempDir(), 'run-journal'));
    const error = await rejection(runDesign({ design, tableId, engine, itemsPerEntity: 2, repeat: 1, journal, ...(confirmAccount === undefined ? {} : { confirmAccount }) }));
    expect(error.code).toBe('run.notConfirmed');
    expect(error.message).toContain(`account ${ACCOUNT}, region eu-west-1`);
    expect(await journal.list()).toEqual([]);
  });

  test('confirmed, it runs in that account (here a dynalite behind AWS_ENDPOINT_URL_DYNAMODB) and removes its table', async () => {
    const report = await runDesign({ design, tableId, engine, itemsPerEntity: 2, repeat: 1, confirmAccount: ACCOUNT });
    expect(report.engine).toEqual({ kind: 'aws', label: `AWS account ${ACCOUNT}, eu-west-1` });
    // The engine behind the endpoint is dynalite, and is treated as such.
    expect(report.patterns.find((p) => p.name === 'Place order')?.agreement).toBe('notRun');
    expect(report.cleanup).toEqual({ removed: [report.table.name], leftover: [] });
  }, 60_000);
});

describe('ConsumedCapacity and binaries', () => {
  const { capacityOf, toSdk, fromSdk } = forTesting;

  test('units per target: the table, each GSI and each LSI by name; a list (TransactWriteItems, BatchGetItem) is summed', () => {
    // A transaction writing two items on one table, as DynamoDB reports it: one entry per table touched.
    // https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html#API_TransactWriteItems_ResponseSyntax
    const consumed = [
      { TableName: 't', CapacityUnits: 6, Table: { CapacityUnits: 2 }, GlobalSecondaryIndexes: { GSI1: { CapacityUnits: 2 } }, LocalSecondaryIndexes: { LSI1: { CapacityUnits: 2 } } },
      { TableName: 't', CapacityUnits: 4, Table: { CapacityUnits: 4 } },
    ];
    // Total 6 + 4 = 10; table 2 + 4 = 6; GSI1 2; LSI1 2.
    expect(capacityOf(consumed)).toEqual({ capacityUnits: 10, byTarget: { table: 6, GSI1: 2, LSI1: 2 } });
    expect(capacityOf({ TableName: 't', CapacityUnits: 0.5, Table: { CapacityUnits: 0.5 } })).toEqual({ capacityUnits: 0.5, byTarget: { table: 0.5 } });
    expect(capacityOf(undefined)).toEqual({ capacityUnits: 0, byTarget: {} });
  });

  test('binary values travel as bytes to the SDK and come back as base64; an attribute named B is not a binary', () => {
    const input = { Key: { B: { S: 'b' }, id: { B: 'AAEC' } }, ExpressionAttributeValues: { ':s': { BS: ['AQ==', 'Ag=='] } } };
    const sdk = toSdk(input) as { Key: { B: unknown; id: { B: Uint8Array } }; ExpressionAttributeValues: { ':s': { BS: Uint8Array[] } } };
    expect(sdk.Key.B).toEqual({ S: 'b' });
    expect([...sdk.Key.id.B]).toEqual([0, 1, 2]);
    expect(sdk.ExpressionAttributeValues[':s'].BS.map((b) => [...b])).toEqual([[1], [2]]);
    expect(fromSdk(sdk)).toEqual(input);
  });
});
