/**
 * The CLI-input export creates each table in dynalite through the AWS SDK (CreateTable with the
 * exported JSON as it is), and the DynamoDB JSON export's BatchWriteItem files load into it; a Scan
 * then counts every item. Where the AWS CLI is installed, the same files also go through
 * `aws dynamodb create-table --cli-input-json` and `aws dynamodb batch-write-item --cli-input-json`,
 * whose client-side checks reject any parameter of the wrong name or shape.
 *
 * dynalite limits a key schema to two elements ("Member must have length less than or equal to 2"),
 * so a design with a multi-attribute GSI key cannot be created in it: such designs go through the
 * AWS CLI's own checks instead, against a stand-in endpoint that records the request the CLI sends.
 */
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ScanCommand,
  type AttributeValue as SdkValue,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttributeValue } from '../../src-shared/capacity/index.ts';
import { MAX_BATCH_WRITE_REQUESTS, toCliInputs, toDynamoDbJsonFiles } from '../../src-shared/formats/index.ts';
import { isMultiAttributeKey } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { allDesigns } from './designs.ts';

/** DynamoDB JSON as the SDK takes it: B values as bytes, not base64. */
function toSdk(v: AttributeValue): SdkValue {
  if ('B' in v) return { B: Buffer.from(v.B, 'base64') };
  if ('BS' in v) return { BS: v.BS.map((b) => Buffer.from(b, 'base64')) };
  if ('L' in v) return { L: v.L.map(toSdk) };
  if ('M' in v) return { M: Object.fromEntries(Object.entries(v.M).map(([k, x]) => [k, toSdk(x)])) };
  return v as SdkValue;
}

interface Engine {
  client: DynamoDBClient;
  endpoint: string;
  close(): Promise<void>;
}

async function startEngine(): Promise<Engine> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  return { client, endpoint, close: () => new Promise<void>((done) => { client.destroy(); server.close(() => done()); }) };
}

async function countItems(client: DynamoDBClient, tableName: string): Promise<number> {
  let count = 0;
  let start: Record<string, SdkValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, Select: 'COUNT', ...(start ? { ExclusiveStartKey: start } : {}) }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

/**
 * DescribeTable until the table is ACTIVE: dynalite flips the status on a zero-delay timer, which a
 * busy machine may not have run yet when the next request arrives.
 */
async function activeTable(engine: Engine, tableName: string) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const { Table } = await engine.client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE' || Date.now() > deadline) return Table;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const ITEMS_PER_TABLE = 120;
const designs = allDesigns();
const hasMultiAttributeKey = (design: Design): boolean => design.tables.some((t) => t.globalSecondaryIndexes.some(isMultiAttributeKey));
const multiAttributeDesigns = designs.filter((d) => hasMultiAttributeKey(d.design));

it('some designs have a multi-attribute GSI key (checked by the AWS CLI below), the others go through dynalite', () => {
  expect(multiAttributeDesigns.map((d) => d.name)).toContain('multi-attribute');
  expect(designs.length - multiAttributeDesigns.length).toBeGreaterThanOrEqual(8);
});

describe.each(designs.filter((d) => !hasMultiAttributeKey(d.design)))('$name in dynalite', { timeout: 120_000 }, ({ design }: { design: Design }) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startEngine();
  });
  afterAll(() => engine.close());

  it('creates every table from its CLI input, with the keys and indexes of the design', async () => {
    for (const [i, file] of toCliInputs(design).entries()) {
      await engine.client.send(new CreateTableCommand(JSON.parse(file.content)));
      const Table = await activeTable(engine, file.tableName);
      const table = design.tables[i]!;
      expect(Table?.TableStatus).toBe('ACTIVE');
      expect(Table?.KeySchema?.map((k) => k.AttributeName)).toEqual([table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])]);
      expect((Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName).sort()).toEqual(table.globalSecondaryIndexes.map((g) => g.name).sort());
      expect((Table?.LocalSecondaryIndexes ?? []).map((l) => l.IndexName).sort()).toEqual(table.localSecondaryIndexes.map((l) => l.name).sort());
    }
  });

  it('loads the DynamoDB JSON items with BatchWriteItem, and a Scan counts them all', async () => {
    const files = toDynamoDbJsonFiles(design, { maxItemsPerTable: ITEMS_PER_TABLE });
    const written = new Map<string, number>();
    for (const file of files) {
      const request = JSON.parse(file.content) as { RequestItems: Record<string, Array<{ PutRequest: { Item: Record<string, AttributeValue> } }>> };
      const entries = Object.entries(request.RequestItems);
      expect(entries).toHaveLength(1);
      expect(entries[0]![1].length).toBeLessThanOrEqual(MAX_BATCH_WRITE_REQUESTS);
      let pending: Record<string, WriteRequest[]> = Object.fromEntries(
        entries.map(([table, requests]) => [table, requests.map((r) => ({ PutRequest: { Item: Object.fromEntries(Object.entries(r.PutRequest.Item).map(([k, v]) => [k, toSdk(v)])) } }))]),
      );
      for (let attempt = 0; Object.keys(pending).length > 0; attempt += 1) {
        expect(attempt).toBeLessThan(10);
        const result = await engine.client.send(new BatchWriteItemCommand({ RequestItems: pending }));
        pending = result.UnprocessedItems ?? {};
      }
      written.set(file.tableName, (written.get(file.tableName) ?? 0) + file.itemCount);
    }
    for (const table of design.tables) {
      const expected = written.get(table.name) ?? 0;
      if (table.entities.some((e) => e.itemCount > 0)) expect(expected).toBeGreaterThan(0);
      expect(expected).toBeLessThanOrEqual(ITEMS_PER_TABLE);
      expect(await countItems(engine.client, table.name)).toBe(expected);
    }
  });
});

const hasAwsCli = spawnSync('aws', ['--version'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!hasAwsCli)('the AWS CLI takes the exported files as they are', { timeout: 180_000 }, () => {
  let engine: Engine;
  const dir = mkdtempSync(join(tmpdir(), 'keyplan-aws-cli-'));
  beforeAll(async () => {
    engine = await startEngine();
  });
  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Asynchronous: dynalite runs in this process, so a synchronous child would block its replies.
  const aws = (args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> =>
    new Promise((done) => {
      execFile(
        'aws',
        ['dynamodb', ...args, '--endpoint-url', engine.endpoint, '--output', 'json'],
        {
          timeout: 60_000,
          // A local engine: placeholder credentials, and no user configuration read.
          env: { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_DEFAULT_REGION: 'us-east-1', AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null' },
        },
        (error, stdout, stderr) => done({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
      );
    });

  it.each(designs.filter((d) => d.name === 'ecommerce' || d.name === 'all-settings'))('$name: create-table and batch-write-item --cli-input-json', async ({ design }) => {
    for (const file of toCliInputs(design)) {
      const path = join(dir, file.fileName);
      writeFileSync(path, file.content);
      const run = await aws(['create-table', '--cli-input-json', `file://${path}`]);
      expect({ status: run.status, stderr: run.stderr.trim() }).toEqual({ status: 0, stderr: '' });
    }
    const files = toDynamoDbJsonFiles(design, { maxItemsPerTable: 60, stem: design.id });
    for (const file of files) {
      const path = join(dir, file.fileName);
      writeFileSync(path, file.content);
      const run = await aws(['batch-write-item', '--cli-input-json', `file://${path}`]);
      expect({ status: run.status, stderr: run.stderr.trim(), unprocessed: JSON.parse(run.stdout || '{}').UnprocessedItems ?? {} }).toEqual({ status: 0, stderr: '', unprocessed: {} });
    }
    for (const table of design.tables) {
      const expected = files.filter((f) => f.tableName === table.name).reduce((n, f) => n + f.itemCount, 0);
      expect(await countItems(engine.client, table.name)).toBe(expected);
    }
  });
});

describe.skipIf(!hasAwsCli)('the AWS CLI takes the create-table input of a multi-attribute GSI as it is', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'keyplan-aws-cli-multi-'));
  /** The bodies of the requests the CLI sent, in order. */
  const received: string[] = [];
  // A stand-in DynamoDB endpoint on loopback: it records each request and answers as CreateTable does.
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push(body);
      const tableName = (JSON.parse(body || '{}') as { TableName?: string }).TableName ?? '';
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify({ TableDescription: { TableName: tableName, TableStatus: 'CREATING' } }));
    });
  });
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
    rmSync(dir, { recursive: true, force: true });
  });

  const createTable = (path: string): Promise<{ status: number | null; stderr: string }> =>
    new Promise((done) => {
      execFile(
        'aws',
        ['dynamodb', 'create-table', '--cli-input-json', `file://${path}`, '--endpoint-url', endpoint, '--output', 'json'],
        {
          timeout: 60_000,
          env: { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_DEFAULT_REGION: 'us-east-1', AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null', AWS_MAX_ATTEMPTS: '1' },
        },
        (error, _stdout, stderr) => done({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
      );
    });

  it.each(multiAttributeDesigns)('$name: passes the CLI\'s parameter checks and is sent whole (KeySchema order, warm and on-demand throughput)', async ({ design }) => {
    for (const file of toCliInputs(design)) {
      const path = join(dir, file.fileName);
      writeFileSync(path, file.content);
      const before = received.length;
      const run = await createTable(path);
      expect({ status: run.status, stderr: run.stderr.trim() }).toEqual({ status: 0, stderr: '' });
      expect(received.length).toBe(before + 1);
      expect(JSON.parse(received.at(-1)!)).toEqual(JSON.parse(file.content));
    }
  });

  it('rejects a misnamed parameter before sending anything (so a pass means something)', async () => {
    const design = multiAttributeDesigns.find((d) => d.name === 'multi-attribute')!.design;
    const input = JSON.parse(toCliInputs(design)[0]!.content) as Record<string, any>;
    input.GlobalSecondaryIndexes[0].WarmThroughputs = { ReadUnitsPerSecond: 15000 };
    const path = join(dir, 'broken.json');
    writeFileSync(path, JSON.stringify(input));
    const before = received.length;
    const run = await createTable(path);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('WarmThroughputs');
    expect(received.length).toBe(before);
  });
});

