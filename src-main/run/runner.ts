/**
 * A run, host side: the design's table created on an engine, the sample items loaded, every access
 * pattern's planned requests sent and measured, the table removed, and the measurements set beside
 * the predictions. What to send comes from `prepareRun` and how to judge it from `comparePattern`
 * (both pure, in src-shared/run); this file only talks to the engine: the table created, loaded and
 * removed here, each request measured by `measure.ts`, every call through `sdk.ts`.
 *
 * More on its rules: docs/modules.md, "src-main/run/runner.ts".
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { AppError } from '../../src-shared/errors.ts';
import type { Item } from '../../src-shared/capacity/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { comparePattern, summarize, prepareRun, sendOrder } from '../../src-shared/run/index.ts';
import type {
  EngineChoice,
  MeasuredCall,
  MeasuredRequest,
  PatternMeasurement,
  RunPlan,
  RunReport,
} from '../../src-shared/run/index.ts';
import { deleteTable, describeError, isAnswer, openEngine, readRunTags, RUN_TOKEN_TAG, runTags, tagRunTable, type Engine } from './engine.ts';
import { newRunToken, type RunJournal } from './journal.ts';
import { measureRequest } from './measure.ts';
import { backoff, capacityOf, COMMANDS, fromSdk, isEmpty, MAX_BATCH_TRIES, pause, send, throwIfCanceled, toSdk, type Output } from './sdk.ts';

export { identifyEngine, type EngineIdentity } from './engine.ts';

/** Where a run stands: `done` of `total` steps (create, each load batch, each call, delete). */
export interface RunProgress {
  done: number;
  total: number;
  label: string;
}

export interface RunOptions {
  design: Design;
  /** The design table to run. */
  tableId: string;
  engine: EngineChoice;
  /** Sample items loaded per entity (default 20). */
  itemsPerEntity?: number;
  /** Calls per access pattern (default 5). */
  repeat?: number;
  /** Seed of the sample items (default 1). */
  seed?: number;
  /** AWS: the account the caller confirmed (`identifyEngine`'s `account`); the run refuses any other. */
  confirmAccount?: string;
  /** Names the run and its table (default: random). */
  runId?: string;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  /** Where the created table is recorded until it is removed. */
  journal?: RunJournal;
}

const DEFAULT_ITEMS_PER_ENTITY = 20;
const DEFAULT_REPEAT = 5;
const DEFAULT_SEED = 1;

/** BatchWriteItem takes at most 25 put or delete requests. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html */
const BATCH_WRITE_MAX_ITEMS = 25;
/** How long a new table (and its GSIs) may take to become ACTIVE before the run gives up. */
const ACTIVE_TIMEOUT_MS = 10 * 60_000;


/** A short random run id, lowercase letters and digits. */
const randomRunId = () => randomBytes(6).toString('hex');

/**
 * Runs one table of `design` on `options.engine` and reports every pattern measured against its
 * prediction (reports in the design's order). The table is always removed before this returns or
 * throws; `report.cleanup` (or an error's `details.cleanup`) says whether it was.
 */
export async function runDesign(options: RunOptions): Promise<RunReport> {
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const { signal } = options;
  throwIfCanceled(signal);
  const engine = await openEngine(options.engine);
  try {
    throwIfCanceled(signal);
    if (engine.choice.kind === 'aws' && (options.confirmAccount === undefined || options.confirmAccount !== engine.identity.account)) {
      const given = options.confirmAccount === undefined ? 'no account was confirmed' : `the account confirmed was ${options.confirmAccount}`;
      throw new AppError({
        code: 'run.notConfirmed',
        message: `A run on AWS creates, loads and deletes a table in account ${engine.identity.account}, region ${engine.identity.region}, which costs money; ${given}. Confirm account ${engine.identity.account} to run there. Nothing was created.`,
      });
    }
    const plan = prepareRun(options.design, {
      runId: options.runId ?? randomRunId(),
      tableId: options.tableId,
      itemsPerEntity: options.itemsPerEntity ?? DEFAULT_ITEMS_PER_ENTITY,
      repeat: options.repeat ?? DEFAULT_REPEAT,
      seed: options.seed ?? DEFAULT_SEED,
      capabilities: engine.capabilities,
    });
    const { measurements, cleanup } = await executePlan(engine, plan, options);
    const patterns = plan.patterns.map((p) => comparePattern(p, measurements.get(p.patternId), { capabilities: engine.capabilities, table: plan.table }));
    return {
      runId: plan.runId,
      engine: { kind: engine.choice.kind, label: engine.identity.label },
      table: { tableId: plan.table.tableId, name: plan.table.name, omittedIndexes: plan.table.omittedIndexes },
      itemsLoaded: plan.items.length,
      repeat: plan.repeat,
      patterns,
      summary: summarize(patterns),
      cleanup,
      startedAt,
      durationMs: performance.now() - started,
    };
  } finally {
    await engine.close();
  }
}

type Cleanup = RunReport['cleanup'];

/** Creates, loads, measures and (always) removes the plan's table. */
async function executePlan(engine: Engine, plan: RunPlan, options: RunOptions): Promise<{ measurements: Map<string, PatternMeasurement>; cleanup: Cleanup }> {
  const { client, identity } = engine;
  const { signal, journal } = options;
  const name = plan.table.name;
  const batches = Math.ceil(plan.items.length / BATCH_WRITE_MAX_ITEMS);
  const toSend = sendOrder(plan.patterns).filter((p) => p.skipped === undefined && p.calls.length > 0);
  const total = 2 + batches + toSend.reduce((n, p) => n + p.calls.length, 0);
  let done = 0;
  const progress = (label: string) => options.onProgress?.({ done, total, label });
  const step = (label: string) => {
    done += 1;
    progress(label);
  };

  /** A call to the engine outside the measured requests: its refusal fails the run. */
  const engineCall = async (operation: keyof typeof COMMANDS, input: Record<string, unknown>): Promise<Output> => {
    try {
      return await send(client, operation, input);
    } catch (error) {
      throw new AppError({ code: 'run.failed', message: `${operation} of table "${name}" on ${identity.label} failed: ${describeError(error)}` });
    }
  };

  const token = newRunToken();
  let journaled = false;
  let created = false;
  /** Whether the record stays: CreateTable got no answer, and the table's tags could not tell whose it is. */
  let isUncertain = false;
  let failure: unknown;
  const measurements = new Map<string, PatternMeasurement>();
  try {
    await refuseExistingTable(client, name, identity.label);
    throwIfCanceled(signal);
    progress(`Creating table ${name}`);
    // Recorded before CreateTable is sent: a crash from here on leaves a record, not a stray table.
    if (journal) {
      const account = engine.choice.kind === 'aws' ? identity.account : undefined;
      try {
        await journal.add({ name, runId: plan.runId, token, engine: engine.choice, engineLabel: identity.label, ...(account === undefined ? {} : { account }), createdAt: new Date().toISOString(), pid: process.pid });
      } catch (error) {
        throw new AppError({ code: 'run.failed', message: `Cannot record table "${name}" in the run journal before creating it: ${describeError(error)}. Nothing was created.` });
      }
      journaled = true;
    }
    throwIfCanceled(signal);
    try {
      await send(client, 'CreateTable', { ...plan.table.createInput, Tags: runTags(plan.runId, token) });
      created = true;
    } catch (error) {
      // Answered (ResourceInUseException: another run of this name won; any refusal): this run created
      // nothing and deletes nothing. No answer: the table may exist; it is this run's only if it
      // carries this run's token.
      if (!isAnswer(error)) {
        const tags = await readRunTags(client, name).catch(() => undefined);
        created = tags instanceof Map && tags.get(RUN_TOKEN_TAG) === token;
        isUncertain = !created && tags !== 'absent';
      }
      if (!created) throw new AppError({ code: 'run.failed', message: `CreateTable of table "${name}" on ${identity.label} failed: ${describeError(error)}` });
    }
    await waitUntilActive(engineCall, name, signal);
    // Some engines (dynalite) drop CreateTable's tags. Cleanup of a leftover needs them, a run does not.
    await tagRunTable(client, name, plan.runId, token).catch(() => undefined);
    step(`Created table ${name}`);

    for (let start = 0; start < plan.items.length; start += BATCH_WRITE_MAX_ITEMS) {
      throwIfCanceled(signal);
      await writeBatch(engineCall, name, plan.items.slice(start, start + BATCH_WRITE_MAX_ITEMS), signal);
      step(`Loaded ${Math.min(start + BATCH_WRITE_MAX_ITEMS, plan.items.length)} of ${plan.items.length} items`);
    }

    for (const pattern of toSend) {
      const calls: MeasuredCall[] = [];
      for (const [k, call] of pattern.calls.entries()) {
        const requests: MeasuredRequest[] = [];
        for (const request of call.requests) {
          throwIfCanceled(signal);
          requests.push(await measureRequest(client, plan, request, signal));
        }
        calls.push({ requests });
        step(`${pattern.name}: call ${k + 1} of ${pattern.calls.length}`);
      }
      measurements.set(pattern.patternId, { patternId: pattern.patternId, calls });
    }
  } catch (error) {
    failure = error;
  }

  const cleanup: Cleanup = { removed: [], leftover: [] };
  let leftoverReason: string | undefined;
  // Only a table this run created is deleted: never one whose CreateTable was refused.
  if (created) {
    progress(`Removing table ${name}`);
    try {
      await deleteTable(client, name);
      cleanup.removed.push(name);
    } catch (error) {
      cleanup.leftover.push(name);
      leftoverReason = describeError(error);
    }
  }
  if (journaled && cleanup.leftover.length === 0 && !isUncertain) {
    // A record of a removed table is harmless (a later cleanup finds it gone and counts it removed),
    // so a failure to forget it does not fail the run.
    await journal!.remove(token).catch(() => undefined);
  }
  if (failure === undefined) {
    step(`Removed table ${name}`);
    return { measurements, cleanup };
  }
  throw withCleanup(failure, cleanup, leftoverReason);
}

/** The run's error, its message saying what became of the table, with the cleanup in `details`. */
function withCleanup(failure: unknown, cleanup: Cleanup, leftoverReason: string | undefined): unknown {
  if (!(failure instanceof AppError)) return failure;
  const sentences: string[] = [];
  for (const t of cleanup.removed) sentences.push(`Table "${t}" was removed.`);
  for (const t of cleanup.leftover) sentences.push(`Table "${t}" could not be removed (${leftoverReason ?? 'no reason given'}); delete it, or let Keyplan offer it among the leftover tables at its next start.`);
  return new AppError({
    code: failure.code,
    message: [failure.message, ...sentences].join(' '),
    ...(failure.path === undefined ? {} : { path: failure.path }),
    details: { ...(typeof failure.details === 'object' && failure.details !== null ? failure.details : {}), cleanup },
  });
}

/** `run.tableExists` when the engine has a table named `name`: a run touches no table it did not create. */
async function refuseExistingTable(client: DynamoDBClient, name: string, label: string): Promise<void> {
  try {
    await send(client, 'DescribeTable', { TableName: name });
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') return;
    throw new AppError({ code: 'run.failed', message: `DescribeTable of "${name}" on ${label} failed: ${describeError(error)}` });
  }
  throw new AppError({
    code: 'run.tableExists',
    message: `A table named "${name}" already exists on ${label}, and a run never touches a table it did not create. Run again (a new run gets a new name), or remove that table first.`,
  });
}

type EngineCall = (operation: keyof typeof COMMANDS, input: Record<string, unknown>) => Promise<Output>;

/** Polls DescribeTable until the table and every GSI are ACTIVE. */
async function waitUntilActive(engineCall: EngineCall, name: string, signal: AbortSignal | undefined): Promise<void> {
  const deadline = performance.now() + ACTIVE_TIMEOUT_MS;
  for (let attempt = 0; ; attempt += 1) {
    throwIfCanceled(signal);
    const table = (await engineCall('DescribeTable', { TableName: name }))['Table'] as
      | { TableStatus?: string; GlobalSecondaryIndexes?: Array<{ IndexStatus?: string }> }
      | undefined;
    if (table?.TableStatus === 'ACTIVE' && (table.GlobalSecondaryIndexes ?? []).every((g) => g.IndexStatus === 'ACTIVE')) return;
    if (performance.now() > deadline) {
      throw new AppError({ code: 'run.failed', message: `Table "${name}" was not ACTIVE after ${ACTIVE_TIMEOUT_MS / 60_000} minutes (status ${table?.TableStatus ?? 'unknown'}).` });
    }
    await pause(backoff(attempt), signal);
  }
}

/** One BatchWriteItem of up to 25 items, unprocessed items sent again with backoff. */
async function writeBatch(engineCall: EngineCall, name: string, items: Item[], signal: AbortSignal | undefined): Promise<void> {
  let pending: unknown = { [name]: items.map((Item) => ({ PutRequest: { Item } })) };
  for (let attempt = 1; ; attempt += 1) {
    const output = await engineCall('BatchWriteItem', { RequestItems: pending });
    const unprocessed = output['UnprocessedItems'];
    if (isEmpty(unprocessed)) return;
    if (attempt >= MAX_BATCH_TRIES) {
      const left = Object.values(unprocessed as Record<string, unknown[]>).reduce((n, r) => n + r.length, 0);
      throw new AppError({ code: 'run.failed', message: `${left} sample items of table "${name}" were still unprocessed after ${MAX_BATCH_TRIES} BatchWriteItem tries (the engine is throttling); run again with fewer items.` });
    }
    await pause(backoff(attempt), signal);
    throwIfCanceled(signal);
    pending = unprocessed;
  }
}

/** For tests: the conversions between DynamoDB JSON and the SDK's values. */
export const forTesting = { toSdk, fromSdk, capacityOf };

