/**
 * Opening the engines a run goes to, against real servers on 127.0.0.1 only: the embedded dynalite,
 * a second dynalite given as "DynamoDB Local", a stand-in for a full DynamoDB (one that knows
 * TransactGetItems), and the AWS path through the SDK's own environment (a temporary AWS config and
 * credentials file, AWS_ENDPOINT_URL_DYNAMODB at a dynalite, AWS_ENDPOINT_URL_STS at a fake STS).
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { EMBEDDED_CAPABILITIES, FULL_CAPABILITIES } from '../../src-shared/run/index.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { identifyEngine, openEngine } from './engine.ts';

const root = resolve(import.meta.dirname, '../..');
const DYNALITE_VERSION = (JSON.parse(readFileSync(join(root, 'node_modules/dynalite/package.json'), 'utf8')) as { version: string }).version;

const listen = (server: Server) =>
  new Promise<string>((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const stop = (server: Server) => new Promise<void>((done) => server.close(() => done()));

/** A client of our own to look at an engine (not the one under test). */
function clientOf(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 });
}

/** An endpoint where nothing listens: a port taken from the system and given back. */
async function deadEndpoint(): Promise<string> {
  const server = createServer();
  const endpoint = await listen(server);
  await stop(server);
  return endpoint;
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('embedded engine', () => {
  test('starts its own dynalite on 127.0.0.1, named with its version, and stops it on close', async () => {
    const engine = await openEngine({ kind: 'embedded' });
    const endpoint = engine.identity.endpoint!;
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(engine.identity.label).toBe(`Embedded engine (dynalite ${DYNALITE_VERSION})`);
    expect(engine.capabilities).toEqual(EMBEDDED_CAPABILITIES);
    // Tables turn ACTIVE at once (createTableMs 0): a run's wait is one DescribeTable.
    await engine.client.send(
      new CreateTableCommand({
        TableName: 'probe',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    expect((await engine.client.send(new DescribeTableCommand({ TableName: 'probe' }))).Table?.TableStatus).toBe('ACTIVE');
    await engine.close();

    const client = clientOf(endpoint);
    try {
      await expect(client.send(new ListTablesCommand({}))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      client.destroy();
    }
  });

  test('each open starts its own server, with its own tables', async () => {
    const [a, b] = await Promise.all([openEngine({ kind: 'embedded' }), openEngine({ kind: 'embedded' })]);
    try {
      expect(a.identity.endpoint).not.toBe(b.identity.endpoint);
      await a.client.send(
        new CreateTableCommand({
          TableName: 'only-in-a',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
      expect((await b.client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('identifying it starts nothing', async () => {
    expect(await identifyEngine({ kind: 'embedded' })).toEqual({ label: `Embedded engine (dynalite ${DYNALITE_VERSION})` });
  });
});

describe('local endpoint', () => {
  let server: Server;
  let endpoint: string;
  beforeAll(async () => {
    server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
    endpoint = await listen(server);
  });
  afterAll(() => stop(server));

  test('a dynalite given as DynamoDB Local is recognised as dynalite (it has no TransactGetItems)', async () => {
    const engine = await openEngine({ kind: 'local', endpoint });
    try {
      expect(engine.identity).toEqual({ label: `DynamoDB Local at ${endpoint}`, endpoint });
      expect(engine.capabilities).toEqual(EMBEDDED_CAPABILITIES);
      expect((await engine.client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  test('closing it leaves the user’s engine running', async () => {
    const engine = await openEngine({ kind: 'local', endpoint });
    await engine.close();
    const client = clientOf(endpoint);
    try {
      expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    } finally {
      client.destroy();
    }
  });

  test('an engine that knows TransactGetItems (refusing an empty one) is a full DynamoDB: transactions and multi-attribute keys run there', async () => {
    const full = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const target = req.headers['x-amz-target'];
        res.setHeader('Content-Type', 'application/x-amz-json-1.0');
        res.statusCode = 400;
        if (target === 'DynamoDB_20120810.TransactGetItems') {
          // What DynamoDB answers an empty TransactItems list.
          res.end(JSON.stringify({ __type: 'com.amazon.coral.validate#ValidationException', message: "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1" }));
        } else {
          res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#UnknownOperationException' }));
        }
      });
    });
    const fullEndpoint = await listen(full);
    try {
      const engine = await openEngine({ kind: 'local', endpoint: fullEndpoint });
      expect(engine.capabilities).toEqual(FULL_CAPABILITIES);
      await engine.close();
    } finally {
      await stop(full);
    }
  });

  test('an endpoint nothing listens on is run.engine, naming the endpoint and asking whether DynamoDB Local runs', async () => {
    const dead = await deadEndpoint();
    const error = await rejection(openEngine({ kind: 'local', endpoint: dead }));
    expect(error.code).toBe('run.engine');
    expect(error.message).toContain(`Cannot reach ${dead}: connection refused (ECONNREFUSED)`);
    expect(error.message).toContain('Is DynamoDB Local running?');
    expect((await rejection(identifyEngine({ kind: 'local', endpoint: dead }))).code).toBe('run.engine');
  });
});

describe('AWS account', () => {
  const ACCOUNT = '123456789012';
  const ARN = `arn:aws:iam::${ACCOUNT}:user/keyplan-test`;
  const ACCESS_KEY = 'AKIDKEYPLANTEST';
  const SECRET = 'not-a-real-secret-but-never-shown';

  let dynamo: Server;
  let sts: Server;
  let dynamoEndpoint: string;
  let stsEndpoint: string;
  /** What the fake STS answers, and the Authorization headers it was sent. */
  let stsAnswer: (res: ServerResponse) => void;
  const stsAuthorizations: string[] = [];

  const callerIdentity = (res: ServerResponse) => {
    res.setHeader('Content-Type', 'text/xml');
    res.end(
      `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>${ARN}</Arn><UserId>AIDAKEYPLANTEST</UserId><Account>${ACCOUNT}</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
    );
  };

  beforeAll(async () => {
    dynamo = dynalite({ createTableMs: 0, deleteTableMs: 0 });
    dynamoEndpoint = await listen(dynamo);
    sts = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        stsAuthorizations.push(String(req.headers.authorization));
        if (!body.includes('Action=GetCallerIdentity')) {
          res.statusCode = 400;
          return res.end();
        }
        stsAnswer(res);
      });
    });
    stsEndpoint = await listen(sts);
  });
  afterAll(async () => {
    await stop(dynamo);
    await stop(sts);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    stsAnswer = callerIdentity;
    stsAuthorizations.length = 0;
  });

  /** A temporary AWS config with profile `sandbox`, and the SDK pointed at it and at the local servers. */
  async function useAwsConfig(): Promise<void> {
    stsAnswer = callerIdentity;
    const dir = await makeTempDir();
    await writeFile(join(dir, 'config'), '[profile sandbox]\nregion = eu-west-1\n');
    await writeFile(join(dir, 'credentials'), `[sandbox]\naws_access_key_id = ${ACCESS_KEY}\naws_secret_access_key = ${SECRET}\n`);
    vi.stubEnv('AWS_CONFIG_FILE', join(dir, 'config'));
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(dir, 'credentials'));
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', dynamoEndpoint);
    vi.stubEnv('AWS_ENDPOINT_URL_STS', stsEndpoint);
    // Nothing else may answer for credentials: no environment keys, no instance metadata (network).
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_DEFAULT_PROFILE', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_ENDPOINT_URL']) {
      vi.stubEnv(name, undefined);
    }
  }

  test('the profile’s credentials name the account (STS GetCallerIdentity); the engine behind the endpoint is probed', async () => {
    await useAwsConfig();
    const engine = await openEngine({ kind: 'aws', region: 'eu-west-1', profile: 'sandbox' });
    try {
      expect(engine.identity).toEqual({ label: `AWS account ${ACCOUNT}, eu-west-1`, region: 'eu-west-1', account: ACCOUNT, arn: ARN });
      // AWS_ENDPOINT_URL_DYNAMODB points at a dynalite: detected as such.
      expect(engine.capabilities).toEqual(EMBEDDED_CAPABILITIES);
      expect((await engine.client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    } finally {
      await engine.close();
    }
    // STS was asked with the profile's key, signed for the chosen region.
    expect(stsAuthorizations.length).toBeGreaterThan(0);
    expect(stsAuthorizations.every((a) => a.includes(`Credential=${ACCESS_KEY}/`) && a.includes('/eu-west-1/sts/aws4_request'))).toBe(true);
  });

  test('identifying the account opens and closes it, returning account, ARN and region', async () => {
    await useAwsConfig();
    expect(await identifyEngine({ kind: 'aws', region: 'eu-west-1', profile: 'sandbox' })).toEqual({
      label: `AWS account ${ACCOUNT}, eu-west-1`,
      region: 'eu-west-1',
      account: ACCOUNT,
      arn: ARN,
    });
  });

  test('a profile that does not exist is run.engine naming it, and STS is never asked', async () => {
    await useAwsConfig();
    const error = await rejection(openEngine({ kind: 'aws', region: 'eu-west-1', profile: 'nope' }));
    expect(error.code).toBe('run.engine');
    expect(error.message).toContain('profile "nope"');
    expect(error.message).toContain('aws configure --profile nope');
    expect(stsAuthorizations).toEqual([]);
  });

  test('credentials STS refuses are run.engine naming the profile, and no secret appears in the message', async () => {
    await useAwsConfig();
    stsAnswer = (res) => {
      res.statusCode = 403;
      res.setHeader('Content-Type', 'text/xml');
      res.end(
        '<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>The security token included in the request is invalid.</Message></Error><RequestId>1</RequestId></ErrorResponse>',
      );
    };
    const error = await rejection(openEngine({ kind: 'aws', region: 'eu-west-1', profile: 'sandbox' }));
    expect(error.code).toBe('run.engine');
    expect(error.message).toContain('profile "sandbox"');
    expect(error.message).toContain('InvalidClientTokenId');
    expect(error.message).not.toContain(SECRET);
  });

  test('STS out of reach is run.engine', async () => {
    await useAwsConfig();
    vi.stubEnv('AWS_ENDPOINT_URL_STS', await deadEndpoint());
    vi.stubEnv('AWS_MAX_ATTEMPTS', '1');
    const error = await rejection(openEngine({ kind: 'aws', region: 'eu-west-1', profile: 'sandbox' }));
    expect(error.code).toBe('run.engine');
    expect(error.message).toContain('Cannot reach AWS STS in eu-west-1');
  });
});
