/**
 * The engines a run goes to, as DynamoDB clients: the embedded one (dynalite, started here on
 * 127.0.0.1, in memory), an endpoint the user runs (DynamoDB Local), or an AWS account (a region and
 * a profile of the user's AWS config, through the AWS SDK's default credential chain). Opening one
 * says where it is (`EngineIdentity`) and what it can run (`EngineCapabilities`).
 *
 * More on its rules: docs/modules.md, "src-main/run/engine.ts".
 */
import {
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTagsOfResourceCommand,
  TagResourceCommand,
  TransactGetItemsCommand,
  type DynamoDBClientConfig,
} from '@aws-sdk/client-dynamodb';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import type { Static } from '@sinclair/typebox';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../src-shared/errors.ts';
import type { schemas } from '../../src-shared/ipc/index.ts';
import {
  EMBEDDED_CAPABILITIES,
  FULL_CAPABILITIES,
  type EngineCapabilities,
  type EngineChoice,
} from '../../src-shared/run/index.ts';

/** Where a run goes, as the host found it (the `run.identify` output). No credential is in it. */
export type EngineIdentity = Static<typeof schemas.EngineIdentity>;

/** An open engine: a client for its DynamoDB API, and what it is. `close()` releases both. */
export interface Engine {
  client: DynamoDBClient;
  choice: EngineChoice;
  identity: EngineIdentity;
  capabilities: EngineCapabilities;
  close(): Promise<void>;
}

/**
 * Engines that are not AWS check no signature against an account: any key works, and DynamoDB
 * Local names its database file after it (without -sharedDb). Not a secret.
 */
const LOCAL_CREDENTIALS = { accessKeyId: 'keyplan', secretAccessKey: 'keyplan' };
/** DynamoDB Local and dynalite accept any region; the SDK needs one to sign. */
const LOCAL_REGION = 'us-east-1';
/** How long a probe waits for an engine to answer before calling it unreachable. */
const PROBE_TIMEOUT_MS = 10_000;

// Loaded on first use: the engine's LevelDB stack stays out of the host's start-up.
const requireHere = createRequire(import.meta.url);

/** dynalite's version, from its package.json (`4.0.0`). */
function dynaliteVersion(): string {
  return (requireHere('dynalite/package.json') as { version: string }).version;
}

const embeddedLabel = () => `Embedded engine (dynalite ${dynaliteVersion()})`;
const localLabel = (endpoint: string) => `DynamoDB Local at ${endpoint}`;
const awsLabel = (account: string, region: string) => `AWS account ${account}, ${region}`;
const profileName = (choice: { profile?: string }) => (choice.profile === undefined ? 'the default profile' : `profile "${choice.profile}"`);

/** The error an SDK call rejected with, as the fields this module reads. */
interface SdkError {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  errors?: unknown[];
}

/** `Name: message`, the engine's own words, as a run reports a refused request. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.message ? `${error.name}: ${error.message}` : error.name;
}

/** `text` without its closing period, to go inside a sentence of ours. */
const clause = (text: string) => text.replace(/[.\s]+$/, '');

/** Whether the engine answered (with an error): otherwise the request never reached it. */
export function isAnswer(error: unknown): boolean {
  return typeof (error as SdkError | undefined)?.$metadata?.httpStatusCode === 'number';
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'no answer (timed out)',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** Why a request did not reach the engine, in words (`connection refused (ECONNREFUSED)`). */
function networkReason(error: unknown): string {
  const e = error as SdkError;
  // Node tries every address of `localhost` and reports an AggregateError with an empty message.
  const code = e.code ?? (e.errors?.[0] as SdkError | undefined)?.code;
  if (code !== undefined && NETWORK_REASONS[code]) return `${NETWORK_REASONS[code]} (${code})`;
  if (e.name === 'TimeoutError') return `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;
  return e.message || code || e.name || String(error);
}

/**
 * What the engine behind `client` can run, asked of the engine itself: a TransactGetItems with no
 * items. dynalite implements 17 operations, transactions not among them, and answers any other with
 * UnknownOperationException (its index.js, `validOperations`); DynamoDB and DynamoDB Local refuse the
 * empty list with a ValidationException
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactGetItems.html).
 * Any answer but UnknownOperationException, an access denial included, is a DynamoDB. No answer:
 * undefined, with why. Nothing is read or written.
 */
async function probeCapabilities(config: DynamoDBClientConfig): Promise<{ capabilities?: EngineCapabilities; reason?: string }> {
  const probe = new DynamoDBClient({ ...config, maxAttempts: 1, requestHandler: { connectionTimeout: PROBE_TIMEOUT_MS, requestTimeout: PROBE_TIMEOUT_MS } });
  try {
    await probe.send(new TransactGetItemsCommand({ TransactItems: [] }));
    return { capabilities: FULL_CAPABILITIES };
  } catch (error) {
    if ((error as SdkError).name === 'UnknownOperationException') return { capabilities: EMBEDDED_CAPABILITIES };
    if (isAnswer(error)) return { capabilities: FULL_CAPABILITIES };
    return { reason: networkReason(error) };
  } finally {
    probe.destroy();
  }
}

/** Starts dynalite on 127.0.0.1 on a free port, in memory, tables ACTIVE and gone at once. */
async function startDynalite(): Promise<{ server: Server; endpoint: string }> {
  const { default: dynalite } = await import('dynalite');
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function stopServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // The client is destroyed first; a socket it left half-open must not hold the close.
    server.closeAllConnections();
  });
}

async function openEmbedded(): Promise<Engine> {
  const { server, endpoint } = await startDynalite();
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  return {
    client,
    choice: { kind: 'embedded' },
    identity: { label: embeddedLabel(), endpoint },
    capabilities: EMBEDDED_CAPABILITIES,
    async close() {
      client.destroy();
      await stopServer(server);
    },
  };
}

function unreachable(endpoint: string, reason: string): AppError {
  return new AppError({
    code: 'run.engine',
    message: `Cannot reach ${endpoint}: ${reason}. Is DynamoDB Local running? Start it (for example: docker run -p 8000:8000 amazon/dynamodb-local) or check the URL.`,
  });
}

async function openLocal(choice: Extract<EngineChoice, { kind: 'local' }>): Promise<Engine> {
  const config: DynamoDBClientConfig = { endpoint: choice.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
  const probed = await probeCapabilities(config);
  if (!probed.capabilities) throw unreachable(choice.endpoint, probed.reason ?? 'no answer');
  const client = new DynamoDBClient(config);
  return {
    client,
    choice,
    identity: { label: localLabel(choice.endpoint), endpoint: choice.endpoint },
    capabilities: probed.capabilities,
    async close() {
      client.destroy();
    },
  };
}

/**
 * The account and ARN the profile's credentials belong to (STS GetCallerIdentity), or `run.engine`
 * saying what is wrong with the profile and what to do. The SDK's messages name files and
 * profiles, never a key.
 */
async function callerIdentity(choice: Extract<EngineChoice, { kind: 'aws' }>): Promise<{ account: string; arn?: string }> {
  const who = profileName(choice);
  const sts = new STSClient({ region: choice.region, ...(choice.profile === undefined ? {} : { profile: choice.profile }) });
  try {
    const answer = await sts.send(new GetCallerIdentityCommand({}));
    if (!answer.Account) throw new AppError({ code: 'run.engine', message: `AWS STS did not name the account of ${who} in ${choice.region}.` });
    return { account: answer.Account, ...(answer.Arn === undefined ? {} : { arn: answer.Arn }) };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const e = error as SdkError;
    const login = choice.profile === undefined ? 'aws configure' : `aws configure --profile ${choice.profile}`;
    const sso = choice.profile === undefined ? 'aws sso login' : `aws sso login --profile ${choice.profile}`;
    if (e.name === 'CredentialsProviderError' || e.name === 'TokenProviderError') {
      throw new AppError({
        code: 'run.engine',
        message: `No AWS credentials found for ${who}: it is not in your AWS config files, or holds no usable credentials (${clause(e.message ?? 'none found')}). Set the profile up in your AWS config (${login}), sign in (${sso}), or choose another profile.`,
      });
    }
    if (isAnswer(error)) {
      throw new AppError({
        code: 'run.engine',
        message: `AWS STS refused the credentials of ${who} in ${choice.region}: ${clause(describeError(error))}. Refresh them (${sso}, or new access keys) and try again.`,
      });
    }
    throw new AppError({
      code: 'run.engine',
      message: `Cannot reach AWS STS in ${choice.region} for ${who}: ${networkReason(error)}. Check the network connection (or proxy) and the region.`,
    });
  } finally {
    sts.destroy();
  }
}

async function openAws(choice: Extract<EngineChoice, { kind: 'aws' }>): Promise<Engine> {
  const { account, arn } = await callerIdentity(choice);
  const config: DynamoDBClientConfig = { region: choice.region, ...(choice.profile === undefined ? {} : { profile: choice.profile }) };
  const probed = await probeCapabilities(config);
  if (!probed.capabilities) {
    throw new AppError({
      code: 'run.engine',
      message: `Cannot reach DynamoDB in ${choice.region} for ${profileName(choice)}: ${probed.reason ?? 'no answer'}. Check the network connection (or proxy) and the region.`,
    });
  }
  const client = new DynamoDBClient(config);
  return {
    client,
    choice,
    identity: { label: awsLabel(account, choice.region), region: choice.region, account, ...(arn === undefined ? {} : { arn }) },
    capabilities: probed.capabilities,
    async close() {
      client.destroy();
    },
  };
}

/**
 * Opens the engine `choice` names: the embedded one starts its own dynalite (each call its own
 * server, stopped by `close()`); the others are probed for what they can run. Errors: `run.engine`.
 */
export async function openEngine(choice: EngineChoice): Promise<Engine> {
  switch (choice.kind) {
    case 'embedded':
      return openEmbedded();
    case 'local':
      return openLocal(choice);
    case 'aws':
      return openAws(choice);
  }
}

/**
 * Where `choice` goes, for the confirmation a run on AWS needs: the account and ARN from STS, the
 * region, the endpoint. A local endpoint is checked to answer; the embedded engine is not started.
 * Errors: `run.engine`.
 */
export async function identifyEngine(choice: EngineChoice): Promise<EngineIdentity> {
  if (choice.kind === 'embedded') return { label: embeddedLabel() };
  const engine = await openEngine(choice);
  await engine.close();
  return engine.identity;
}

/** How long a DeleteTable is retried while the table is busy (CREATING, UPDATING) before giving up. */
const DELETE_BUSY_TRIES = 12;
/** How long to wait for a deleted table to be gone before counting it removed anyway (DELETING cannot be undone). */
const DELETE_GONE_WAIT_MS = 30_000;

/**
 * Deletes table `name` and waits until the engine no longer lists it: `deleted`, or `absent` when it
 * did not exist. A table still CREATING or UPDATING answers ResourceInUseException; the delete is
 * retried with backoff (about a minute and a half in all). Any other refusal rejects with the
 * engine's error.
 */
export async function deleteTable(client: DynamoDBClient, name: string): Promise<'deleted' | 'absent'> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await client.send(new DeleteTableCommand({ TableName: name }));
      break;
    } catch (error) {
      const errorName = (error as SdkError).name;
      if (errorName === 'ResourceNotFoundException') return 'absent';
      if (errorName !== 'ResourceInUseException' || attempt + 1 >= DELETE_BUSY_TRIES) throw error;
      await sleep(Math.min(250 * 2 ** attempt, 10_000));
    }
  }
  const deadline = Date.now() + DELETE_GONE_WAIT_MS;
  for (let attempt = 0; Date.now() < deadline; attempt += 1) {
    try {
      await client.send(new DescribeTableCommand({ TableName: name }));
    } catch {
      // ResourceNotFoundException: gone. Anything else: the delete was accepted, and cannot be undone.
      break;
    }
    await sleep(Math.min(20 * 2 ** attempt, 2_000));
  }
  return 'deleted';
}

/**
 * The tags a run sets on the table it creates (in CreateTable, and again with TagResource once the
 * table is ACTIVE, for engines that drop CreateTable's tags): its run id and the random token of
 * its journal record. Cleanup deletes a table only when both are read back unchanged.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Tagging.html
 */
export const RUN_ID_TAG = 'keyplan:run-id';
export const RUN_TOKEN_TAG = 'keyplan:run-token';

/** The run's tags, as CreateTable and TagResource take them. */
export function runTags(runId: string, token: string): Array<{ Key: string; Value: string }> {
  return [
    { Key: RUN_ID_TAG, Value: runId },
    { Key: RUN_TOKEN_TAG, Value: token },
  ];
}

/** Sets the run's tags on table `name` (its ARN from DescribeTable). */
export async function tagRunTable(client: DynamoDBClient, name: string, runId: string, token: string): Promise<void> {
  const arn = (await client.send(new DescribeTableCommand({ TableName: name }))).Table?.TableArn;
  if (arn === undefined) throw new Error(`DescribeTable of "${name}" gave no TableArn.`);
  await client.send(new TagResourceCommand({ ResourceArn: arn, Tags: runTags(runId, token) }));
}

/**
 * The tags of table `name` (DescribeTable for its ARN, then every page of ListTagsOfResource), or
 * `absent` when the engine has no such table. Other refusals reject with the engine's error.
 */
export async function readRunTags(client: DynamoDBClient, name: string): Promise<Map<string, string> | 'absent'> {
  let arn: string | undefined;
  try {
    arn = (await client.send(new DescribeTableCommand({ TableName: name }))).Table?.TableArn;
  } catch (error) {
    if ((error as SdkError).name === 'ResourceNotFoundException') return 'absent';
    throw error;
  }
  if (arn === undefined) throw new Error(`DescribeTable of "${name}" gave no TableArn.`);
  const tags = new Map<string, string>();
  let next: string | undefined;
  do {
    const page = await client.send(new ListTagsOfResourceCommand({ ResourceArn: arn, ...(next === undefined ? {} : { NextToken: next }) }));
    for (const t of page.Tags ?? []) if (t.Key !== undefined && t.Value !== undefined) tags.set(t.Key, t.Value);
    next = page.NextToken;
  } while (next !== undefined);
  return tags;
}
