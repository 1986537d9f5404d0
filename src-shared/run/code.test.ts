/**
 * Requests as code: the expected texts below are written by hand from the AWS docs' option names;
 * the SDK code is then run with Node against dynalite, and the CLI command is split back into words
 * as a POSIX shell would (and, where the AWS CLI is installed, run through `sh` against dynalite).
 */
import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { requestAsCliCommand, requestAsJson, requestAsSdkCode, shellQuote } from './code.ts';
import type { RunRequest } from './types.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const TABLE = 'keyplan-run-t1-Shop';

/** Orders of customer c1, filtered on status and buyer: a buyer with a quote in the name. */
const QUERY: RunRequest = {
  operation: 'Query',
  input: {
    TableName: TABLE,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
    FilterExpression: '#status = :status AND #by <> :by',
    ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#status': 'status', '#by': 'by' },
    ExpressionAttributeValues: { ':pk': { S: 'CUSTOMER#c1' }, ':prefix': { S: 'ORDER#' }, ':status': { S: 'SHIPPED' }, ':by': { S: "O'Brien" } },
    Limit: 2,
    ScanIndexForward: true,
    ConsistentRead: false,
    ReturnConsumedCapacity: 'INDEXES',
  },
  stopAfterItems: 2,
};

const GET: RunRequest = {
  operation: 'GetItem',
  input: { TableName: TABLE, Key: { pk: { S: 'CUSTOMER#c1' }, sk: { S: 'ORDER#003' } }, ConsistentRead: true, ReturnConsumedCapacity: 'INDEXES' },
};

const PUT: RunRequest = {
  operation: 'PutItem',
  input: {
    TableName: TABLE,
    Item: { pk: { S: 'CUSTOMER#c2' }, sk: { S: 'ORDER#100' }, status: { S: 'PENDING' }, total: { N: '12.50' }, lines: { L: [{ M: { sku: { S: 'A-1' }, qty: { N: '2' } } }] } },
    ConditionExpression: 'attribute_not_exists(pk)',
    ReturnConsumedCapacity: 'INDEXES',
  },
};

const BATCH_GET: RunRequest = {
  operation: 'BatchGetItem',
  input: {
    RequestItems: { [TABLE]: { Keys: [{ pk: { S: 'CUSTOMER#c1' }, sk: { S: 'ORDER#001' } }, { pk: { S: 'CUSTOMER#c1' }, sk: { S: 'ORDER#002' } }], ProjectionExpression: 'sk, #s', ExpressionAttributeNames: { '#s': 'status' } } },
    ReturnConsumedCapacity: 'INDEXES',
  },
};

const TRANSACT: RunRequest = {
  operation: 'TransactWriteItems',
  input: {
    TransactItems: [
      { Put: { TableName: TABLE, Item: { pk: { S: 'CUSTOMER#c3' }, sk: { S: 'PROFILE' } }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Update: { TableName: TABLE, Key: { pk: { S: 'CUSTOMER#c3' }, sk: { S: 'COUNTER' } }, UpdateExpression: 'ADD #n :one', ExpressionAttributeNames: { '#n': 'orders' }, ExpressionAttributeValues: { ':one': { N: '1' } } } },
    ],
    ReturnConsumedCapacity: 'INDEXES',
  },
};

// ---------------------------------------------------------------------------------------------
// A POSIX shell's word splitting, enough for what a command line holds: single quotes (nothing
// special inside), double quotes (\ escapes $ ` " \ and newline), backslash outside quotes
// (backslash-newline is a line continuation), unquoted blanks separate words.

function splitShellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const add = (s: string) => (word = (word ?? '') + s);
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated single quote at ${i}`);
      add(text.slice(i + 1, end));
      i = end;
    } else if (c === '"') {
      let s = '';
      for (i++; text[i] !== '"'; i++) {
        if (i >= text.length) throw new Error('unterminated double quote');
        if (text[i] === '\\' && '$`"\\\n'.includes(text[i + 1]!)) {
          i++;
          if (text[i] !== '\n') s += text[i];
        } else s += text[i];
      }
      add(s);
    } else if (c === '\\') {
      i++;
      if (text[i] !== '\n') add(text[i] ?? '');
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if ('|&;<>()$`*?[#~'.includes(c) && word === undefined) {
      throw new Error(`unquoted shell metacharacter ${c} at ${i}`);
    } else add(c);
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** `--key-condition-expression` → `KeyConditionExpression`. */
const fieldOf = (option: string) => option.replace(/^--/, '').replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
const NUMERIC = new Set(['Limit', 'Segment', 'TotalSegments']);

/** The words of an `aws dynamodb <op>` command back as the request's input (and `stopAfterItems`). */
function requestFromCli(words: string[]): { subcommand: string; input: Record<string, unknown>; stopAfterItems?: number } {
  const [aws, service, subcommand, ...rest] = words;
  expect([aws, service]).toEqual(['aws', 'dynamodb']);
  const input: Record<string, unknown> = {};
  let stopAfterItems: number | undefined;
  for (let i = 0; i < rest.length; i++) {
    const option = rest[i]!;
    expect(option).toMatch(/^--[a-z]+(-[a-z]+)*$/);
    const next = rest[i + 1];
    if (next === undefined || next.startsWith('--')) {
      // A flag: --consistent-read / --no-consistent-read.
      const negated = option.startsWith('--no-');
      input[fieldOf(negated ? option.replace('--no-', '--') : option)] = !negated;
      continue;
    }
    i++;
    if (option === '--max-items') stopAfterItems = Number(next);
    else if (option === '--page-size') input.Limit = Number(next);
    else if (NUMERIC.has(fieldOf(option))) input[fieldOf(option)] = Number(next);
    else input[fieldOf(option)] = /^[[{]/.test(next) ? JSON.parse(next) : next;
  }
  return { subcommand: subcommand!, input, ...(stopAfterItems === undefined ? {} : { stopAfterItems }) };
}

describe('requestAsCliCommand', () => {
  test('a Query: every field by its CLI option, Limit as --page-size, the stop as --max-items, JSON single-quoted', () => {
    expect(requestAsCliCommand(QUERY)).toBe(
      [
        'aws dynamodb query',
        `    --table-name ${TABLE}`,
        "    --key-condition-expression '#pk = :pk AND begins_with(#sk, :prefix)'",
        "    --filter-expression '#status = :status AND #by <> :by'",
        `    --expression-attribute-names '{"#pk":"pk","#sk":"sk","#status":"status","#by":"by"}'`,
        `    --expression-attribute-values '{":pk":{"S":"CUSTOMER#c1"},":prefix":{"S":"ORDER#"},":status":{"S":"SHIPPED"},":by":{"S":"O'\\''Brien"}}'`,
        '    --page-size 2',
        '    --scan-index-forward',
        '    --no-consistent-read',
        '    --return-consumed-capacity INDEXES',
        '    --max-items 2',
      ].join(' \\\n'),
    );
  });

  test('a single page from an ExclusiveStartKey keeps --limit and --exclusive-start-key (they turn CLI paging off)', () => {
    const page = requestAsCliCommand({ operation: 'Scan', input: { TableName: TABLE, Limit: 10, ExclusiveStartKey: { pk: { S: 'A' }, sk: { S: 'B' } } }, stopAfterItems: 5 });
    expect(splitShellWords(page)).toEqual(['aws', 'dynamodb', 'scan', '--table-name', TABLE, '--limit', '10', '--exclusive-start-key', '{"pk":{"S":"A"},"sk":{"S":"B"}}']);
  });

  test('GetItem, BatchGetItem and TransactWriteItems: --key, --request-items, --transact-items', () => {
    expect(splitShellWords(requestAsCliCommand(GET))).toEqual([
      'aws', 'dynamodb', 'get-item', '--table-name', TABLE, '--key', '{"pk":{"S":"CUSTOMER#c1"},"sk":{"S":"ORDER#003"}}', '--consistent-read', '--return-consumed-capacity', 'INDEXES',
    ]);
    const batch = splitShellWords(requestAsCliCommand(BATCH_GET));
    expect(batch.slice(0, 4)).toEqual(['aws', 'dynamodb', 'batch-get-item', '--request-items']);
    expect(JSON.parse(batch[4]!)).toEqual(BATCH_GET.input.RequestItems);
    expect(batch.slice(5)).toEqual(['--return-consumed-capacity', 'INDEXES']);
    const transact = splitShellWords(requestAsCliCommand(TRANSACT));
    expect(transact.slice(0, 4)).toEqual(['aws', 'dynamodb', 'transact-write-items', '--transact-items']);
    expect(JSON.parse(transact[4]!)).toEqual(TRANSACT.input.TransactItems);
  });

  test('every command splits back, as a POSIX shell splits it, into exactly the request', () => {
    const cases: Array<[RunRequest, string]> = [[QUERY, 'query'], [GET, 'get-item'], [PUT, 'put-item'], [BATCH_GET, 'batch-get-item'], [TRANSACT, 'transact-write-items']];
    for (const [request, subcommand] of cases) {
      const back = requestFromCli(splitShellWords(requestAsCliCommand(request)));
      expect(back).toEqual({ subcommand, input: request.input, ...(request.stopAfterItems === undefined ? {} : { stopAfterItems: request.stopAfterItems }) });
    }
  });

  test('shell quoting: safe words bare, others single-quoted, a single quote as \'\\\'\'', () => {
    expect(shellQuote('keyplan-run-ab12-Shop')).toBe('keyplan-run-ab12-Shop');
    expect(shellQuote('#pk = :pk')).toBe("'#pk = :pk'");
    expect(shellQuote("O'Brien")).toBe("'O'\\''Brien'");
    expect(shellQuote('$HOME `x` "y" \\n')).toBe("'$HOME `x` \"y\" \\n'");
    expect(splitShellWords(`echo ${shellQuote("it's a 'test'")} ${shellQuote('a\nb')}`)).toEqual(['echo', "it's a 'test'", 'a\nb']);
  });
});

describe('requestAsJson', () => {
  test('is the input as pretty JSON, parsing back to the input', () => {
    for (const request of [QUERY, GET, PUT, BATCH_GET, TRANSACT]) {
      const json = requestAsJson(request);
      expect(JSON.parse(json)).toEqual(request.input);
      expect(json).toContain('\n  "');
    }
  });
});

describe('requestAsSdkCode', () => {
  test('imports the client and the command, builds the input as a literal and sends it; Query pages on', () => {
    const code = requestAsSdkCode(QUERY);
    expect(code).toContain('import { DynamoDBClient, QueryCommand } from "@aws-sdk/client-dynamodb";');
    expect(code).toContain('const client = new DynamoDBClient({});');
    expect(code).toContain(`const input = {\n  TableName: "${TABLE}",\n  KeyConditionExpression: "#pk = :pk AND begins_with(#sk, :prefix)",`);
    expect(code).toContain('  ExpressionAttributeNames: { "#pk": "pk", "#sk": "sk", "#status": "status", "#by": "by" },');
    expect(code).toContain(`":by": { S: "O'Brien" }`);
    expect(code).toContain('  Limit: 2,\n  ScanIndexForward: true,\n  ConsistentRead: false,');
    expect(code).toContain('const response = await client.send(new QueryCommand(input));');
    expect(code).toMatch(/LastEvaluatedKey.*ExclusiveStartKey/s);
    expect(code).toContain('items.length < 2');
    expect(requestAsSdkCode(GET)).toContain('import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";');
    expect(requestAsSdkCode(BATCH_GET)).toContain(`RequestItems: {\n    "${TABLE}": {`);
    expect(requestAsSdkCode(TRANSACT)).toContain('await client.send(new TransactWriteItemsCommand(input));');
  });

  test('binary values become bytes; odd attribute names stay valid JavaScript', () => {
    // An attribute named __proto__ (JSON.parse makes it an own property, as a design file would).
    const item = { pk: { B: 'AQI=' }, set: { BS: ['AQ==', 'Ag=='] }, 'a-b': { S: 'line\n"quoted"' }, ...(JSON.parse('{"__proto__": {"NULL": true}}') as object) };
    const code = requestAsSdkCode({ operation: 'PutItem', input: { TableName: 't', Item: item } });
    expect(code).toContain('pk: { B: Buffer.from("AQI=", "base64") }');
    expect(code).toContain('set: { BS: [Buffer.from("AQ==", "base64"), Buffer.from("Ag==", "base64")] }');
    expect(code).toContain('"a-b": { S: "line\\n\\"quoted\\"" }');
    const literal = code.slice(code.indexOf('const input = ') + 'const input = '.length, code.indexOf(';\n\nconst response'));
    const evaluate = new Function('Buffer', `return (${literal});`) as (b: unknown) => Record<string, unknown>;
    const value = evaluate({ from: (text: string, encoding: string) => ({ text, encoding }) });
    expect(code).toContain('["__proto__"]: { NULL: true }');
    const stored = value.Item as Record<string, unknown>;
    expect(Object.keys(stored)).toEqual(['pk', 'set', 'a-b', '__proto__']);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(stored.__proto__).toEqual({ NULL: true });
    expect({ ...stored, __proto__: undefined }).toMatchObject({ pk: { B: { text: 'AQI=', encoding: 'base64' } }, set: { BS: [{ text: 'AQ==', encoding: 'base64' }, { text: 'Ag==', encoding: 'base64' }] }, 'a-b': { S: 'line\n"quoted"' } });
  });
});

// ---------------------------------------------------------------------------------------------
// The generated code against a real engine

describe('on dynalite', () => {
  let server: ReturnType<typeof dynalite>;
  let endpoint: string;
  let client: DynamoDBClient;
  const credentials = { accessKeyId: 'keyplan', secretAccessKey: 'keyplan' };

  beforeAll(async () => {
    server = dynalite({ createTableMs: 0 });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials });
    await client.send(
      new CreateTableCommand({
        TableName: TABLE,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    const orders: Array<[string, string, string]> = [['001', 'SHIPPED', 'Ann'], ['002', 'PENDING', 'Ann'], ['003', 'SHIPPED', 'Ann'], ['004', 'SHIPPED', "O'Brien"], ['005', 'PENDING', 'Ann']];
    for (const [n, status, by] of orders) {
      await client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'CUSTOMER#c1' }, sk: { S: `ORDER#${n}` }, status: { S: status }, by: { S: by } } }));
    }
  });

  afterAll(async () => {
    client?.destroy();
    await new Promise<void>((done) => server.close(() => done()));
  });

  /** Writes the generated module beside a link to this repository's node_modules and runs it with Node. */
  async function runSdkCode(code: string): Promise<Record<string, unknown>> {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'keyplan-code-')));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const configured = `new DynamoDBClient({ endpoint: ${JSON.stringify(endpoint)}, region: "us-east-1", credentials: ${JSON.stringify(credentials)} })`;
    expect(code.split('new DynamoDBClient({})')).toHaveLength(2);
    await writeFile(join(dir, 'request.mjs'), code.replace('new DynamoDBClient({})', configured));
    const { stdout } = await run(process.execPath, [join(dir, 'request.mjs')], { cwd: dir });
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  test('the Query code pages as the run did: 2 per page, filtered, stopping at 2 items', async () => {
    // Page 1 reads 001 (passes) and 002 (PENDING); page 2 reads 003 (passes) and 004 (O'Brien): 2 items, stop.
    const out = await runSdkCode(requestAsSdkCode(QUERY));
    expect((out.items as Array<{ sk: { S: string } }>).map((i) => i.sk.S)).toEqual(['ORDER#001', 'ORDER#003']);
    expect(out.consumedCapacity).toMatchObject({ TableName: TABLE, Table: { CapacityUnits: expect.any(Number) } });
  }, 30_000);

  test('the GetItem code returns the item; the PutItem code writes its item', async () => {
    const got = await runSdkCode(requestAsSdkCode(GET));
    expect(got.Item).toEqual({ pk: { S: 'CUSTOMER#c1' }, sk: { S: 'ORDER#003' }, status: { S: 'SHIPPED' }, by: { S: 'Ann' } });
    const put = await runSdkCode(requestAsSdkCode(PUT));
    expect(put.ConsumedCapacity).toMatchObject({ TableName: TABLE, CapacityUnits: 1 });
    const stored = await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'CUSTOMER#c2' }, sk: { S: 'ORDER#100' } } }));
    // Numbers come back normalized, as DynamoDB stores them: 12.50 is 12.5.
    expect(stored.Item).toEqual({ ...(PUT.input.Item as object), total: { N: '12.5' } });
  }, 30_000);

  const hasAwsCli = spawnSync('aws', ['--version'], { encoding: 'utf8' }).status === 0;

  test.skipIf(!hasAwsCli)('the Query command, run by sh and the AWS CLI, returns the same items', async () => {
    const command = `${requestAsCliCommand(QUERY)} \\\n    --endpoint-url ${endpoint} --region us-east-1 --output json`;
    const env = { PATH: process.env.PATH ?? '', HOME: tmpdir(), AWS_ACCESS_KEY_ID: credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey, AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null' };
    const { stdout } = await run('sh', ['-c', command], { env });
    const out = JSON.parse(stdout) as { Items: Array<{ sk: { S: string } }> };
    expect(out.Items.map((i) => i.sk.S)).toEqual(['ORDER#001', 'ORDER#003']);
  }, 30_000);
});
