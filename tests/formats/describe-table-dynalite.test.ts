/**
 * A real DescribeTable response imports: dynalite (the embedded engine, started in this process as
 * src-main/run/engine.ts starts it) creates tables with GSIs and LSIs through @aws-sdk/client-dynamodb,
 * takes a few items, and the DescribeTable output the SDK returns, serialized to JSON, imports into a
 * design with the same keys, indexes, projections and billing. Where the AWS CLI is installed, the
 * JSON `aws dynamodb describe-table` prints imports the same way.
 *
 * dynalite keeps ItemCount and TableSizeBytes at 0, as DynamoDB does until its next six-hourly
 * count, so the entity gets no size figure. It limits a key schema to two elements and keeps no
 * StreamSpecification, so the multi-attribute GSI key and the stream are covered by the fixtures'
 * tests instead.
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, PutItemCommand, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { execFile, spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromDescribeTable, type ImportResult, type Imported } from '../../src-shared/formats/index.ts';

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
  return {
    client,
    endpoint,
    close: () =>
      new Promise<void>((done) => {
        client.destroy();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** DescribeTable until ACTIVE: dynalite flips the status on a zero-delay timer a busy machine may not have run yet. */
async function describeActive(engine: Engine, tableName: string) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const output = await engine.client.send(new DescribeTableCommand({ TableName: tableName }));
    if (output.Table?.TableStatus === 'ACTIVE' || Date.now() > deadline) return output;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function imported(result: ImportResult): Imported {
  if (!result.ok) throw new Error(`expected an import, got ${JSON.stringify(result.errors, null, 2)}`);
  return result.value;
}

/** An on-demand table with a partition and sort key, two GSIs (ALL; INCLUDE) and an LSI. */
const LIBRARY: CreateTableCommandInput = {
  TableName: 'Library',
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
    { AttributeName: 'author', AttributeType: 'S' },
    { AttributeName: 'year', AttributeType: 'N' },
    { AttributeName: 'isbn', AttributeType: 'S' },
    { AttributeName: 'shelvedAt', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  BillingMode: 'PAY_PER_REQUEST',
  GlobalSecondaryIndexes: [
    {
      IndexName: 'ByAuthor',
      KeySchema: [
        { AttributeName: 'author', KeyType: 'HASH' },
        { AttributeName: 'year', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
    { IndexName: 'ByIsbn', KeySchema: [{ AttributeName: 'isbn', KeyType: 'HASH' }], Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['title'] } },
  ],
  LocalSecondaryIndexes: [
    {
      IndexName: 'ByShelvedAt',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'shelvedAt', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'KEYS_ONLY' },
    },
  ],
};

/** A provisioned table created without BillingMode (PROVISIONED by default), with a GSI of its own capacity. */
const LOANS: CreateTableCommandInput = {
  TableName: 'Loans',
  AttributeDefinitions: [
    { AttributeName: 'loanId', AttributeType: 'S' },
    { AttributeName: 'memberId', AttributeType: 'S' },
    { AttributeName: 'dueDate', AttributeType: 'S' },
  ],
  KeySchema: [{ AttributeName: 'loanId', KeyType: 'HASH' }],
  ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 3 },
  GlobalSecondaryIndexes: [
    {
      IndexName: 'ByMemberDue',
      KeySchema: [
        { AttributeName: 'memberId', KeyType: 'HASH' },
        { AttributeName: 'dueDate', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'KEYS_ONLY' },
      ProvisionedThroughput: { ReadCapacityUnits: 4, WriteCapacityUnits: 2 },
    },
  ],
};

const S = (name: string) => ({ name, type: 'S' as const });
const N = (name: string) => ({ name, type: 'N' as const });

describe('DescribeTable of dynalite, through the AWS SDK, imports', { timeout: 60_000 }, () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startEngine();
    for (const input of [LIBRARY, LOANS]) await engine.client.send(new CreateTableCommand(input));
    const books = [
      { pk: 'BOOK#1', sk: 'META', author: 'Le Guin', year: '1969', isbn: '978-0441478125', shelvedAt: '2025-01-02', title: 'The Left Hand of Darkness' },
      { pk: 'BOOK#2', sk: 'META', author: 'Le Guin', year: '1974', isbn: '978-0061054884', shelvedAt: '2025-01-03', title: 'The Dispossessed' },
      { pk: 'BOOK#3', sk: 'META', author: 'Jemisin', year: '2015', isbn: '978-0316229296', shelvedAt: '2025-02-10', title: 'The Fifth Season' },
    ];
    for (const b of books) {
      await engine.client.send(
        new PutItemCommand({
          TableName: 'Library',
          Item: { pk: { S: b.pk }, sk: { S: b.sk }, author: { S: b.author }, year: { N: b.year }, isbn: { S: b.isbn }, shelvedAt: { S: b.shelvedAt }, title: { S: b.title } },
        }),
      );
    }
    await engine.client.send(new PutItemCommand({ TableName: 'Loans', Item: { loanId: { S: 'L-1' }, memberId: { S: 'M-7' }, dueDate: { S: '2025-03-01' } } }));
  });
  afterAll(() => engine.close());

  it('an on-demand table: the same keys, GSIs, LSI and projections, and one entity', async () => {
    const output = await describeActive(engine, 'Library');
    expect(output.Table?.TableStatus).toBe('ACTIVE');
    // As a program would save it: the SDK's output (Dates and $metadata included) as JSON.
    const { design, notes } = imported(fromDescribeTable(JSON.parse(JSON.stringify(output))));
    const table = design.tables[0]!;
    expect(table.name).toBe('Library');
    expect(table.partitionKey).toEqual(S('pk'));
    expect(table.sortKey).toEqual(S('sk'));
    expect(table.billing).toEqual({ mode: 'ON_DEMAND' });
    expect(table.globalSecondaryIndexes.map(({ name, partitionKey, sortKey, projection, provisioned }) => ({ name, partitionKey, sortKey, projection, provisioned }))).toEqual([
      { name: 'ByAuthor', partitionKey: S('author'), sortKey: N('year'), projection: { type: 'ALL' }, provisioned: undefined },
      { name: 'ByIsbn', partitionKey: S('isbn'), sortKey: undefined, projection: { type: 'INCLUDE', nonKeyAttributes: ['title'] }, provisioned: undefined },
    ]);
    expect(table.localSecondaryIndexes.map(({ name, sortKey, projection }) => ({ name, sortKey, projection }))).toEqual([
      { name: 'ByShelvedAt', sortKey: S('shelvedAt'), projection: { type: 'KEYS_ONLY' } },
    ]);
    // dynalite, like DynamoDB between its six-hourly counts, reports ItemCount 0: no size figure.
    expect(table.entities).toHaveLength(1);
    expect(table.entities[0]?.itemCount).toBe(0);
    expect(table.entities[0]?.keys).toEqual({
      pk: { template: '{pk}' },
      sk: { template: '{sk}' },
      author: { template: '{author}' },
      year: { template: '{year}' },
      isbn: { template: '{isbn}' },
      shelvedAt: { template: '{shelvedAt}' },
    });
    expect(notes).toContainEqual(expect.objectContaining({ kind: 'inferred', path: 'Table.ItemCount', message: expect.stringContaining('ItemCount is 0') }));
  });

  it('a table created without BillingMode: provisioned, with the table and GSI capacity', async () => {
    const output = await describeActive(engine, 'Loans');
    expect(output.Table?.BillingModeSummary).toBeUndefined();
    const { design, notes } = imported(fromDescribeTable(JSON.parse(JSON.stringify(output))));
    const table = design.tables[0]!;
    expect(table.partitionKey).toEqual(S('loanId'));
    expect(table.sortKey).toBeUndefined();
    expect(table.billing).toEqual({ mode: 'PROVISIONED', readCapacityUnits: 7, writeCapacityUnits: 3 });
    expect(table.globalSecondaryIndexes).toEqual([
      {
        id: 'gsi-loans-bymemberdue',
        name: 'ByMemberDue',
        partitionKey: S('memberId'),
        sortKey: S('dueDate'),
        projection: { type: 'KEYS_ONLY' },
        provisioned: { readCapacityUnits: 4, writeCapacityUnits: 2 },
      },
    ]);
    // A provisioned table: auto scaling is named among the settings DescribeTable does not return.
    expect(notes.filter((n) => n.kind === 'dropped' && n.path === '').map((n) => n.message)).toContainEqual(expect.stringContaining('aws application-autoscaling describe-scalable-targets'));
  });

  const hasAwsCli = spawnSync('aws', ['--version'], { encoding: 'utf8' }).status === 0;

  it.skipIf(!hasAwsCli)('the JSON `aws dynamodb describe-table` prints imports to the same table', async () => {
    // Asynchronous: dynalite runs in this process, so a synchronous child would block its replies.
    const printed = await new Promise<string>((done, reject) => {
      execFile(
        'aws',
        ['dynamodb', 'describe-table', '--table-name', 'Library', '--endpoint-url', engine.endpoint, '--output', 'json'],
        // A local engine: placeholder credentials, and no user configuration read.
        { timeout: 60_000, env: { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_DEFAULT_REGION: 'us-east-1', AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null' } },
        (error, stdout) => (error ? reject(error) : done(stdout)),
      );
    });
    const fromCli = imported(fromDescribeTable(JSON.parse(printed))).design.tables[0]!;
    const fromSdk = imported(fromDescribeTable(JSON.parse(JSON.stringify(await describeActive(engine, 'Library'))))).design.tables[0]!;
    expect(fromCli).toEqual(fromSdk);
  });
});
