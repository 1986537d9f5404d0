/**
 * THE contract suite: one set of behaviours every transport must show, run with the real browser-mode
 * handlers on a temporary workspace. `memory.contract.test.ts` runs it over the in-memory transport,
 * `electron.contract.test.ts` over the Electron transport, `transports/websocket.test.ts` over the real
 * WebSocket host. Every reply and event is also checked against the contract's output schemas (in
 * tests only: the host does not check its own replies at run time).
 */
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { AppError } from '../src-shared/errors.ts';
import type { AccessPattern, Design, Entity } from '../src-shared/model/index.ts';
import { stripKeyDesign } from '../src-shared/solver/index.ts';
import {
  createApiClient,
  type ApiClient,
  isChannel,
  isEventName,
  type ApiHandlers,
  type EventPayload,
  type EventSink,
} from '../src-shared/ipc/index.ts';
import { checkChannelOutput, checkEventPayload, type BadField } from '../src-shared/ipc/host.ts';
import type { Transport } from '../src-shared/ipc/index.ts';
import { workspaceDataDir } from './files/data-folder.ts';
import { createBrowserHandlers } from './host.ts';
import { createEventRelay } from './tasks/event-relay.ts';
import { TASK_WORKER_SOURCE, taskWorkerSpawner } from './tasks/spawn.ts';
import { createTaskHost } from './tasks/task-host.ts';
import { invalidDesign, sampleDesign } from './test-support/designs.ts';
import { makeTempDir } from './test-support/temp-dir.ts';

/** What a transport under test offers: the client side, and the host's event sink. */
export interface ConnectedTransport {
  transport: Transport;
  emit: EventSink['emit'];
  close(): Promise<void>;
}

export type ConnectTransport = (handlers: ApiHandlers) => Promise<ConnectedTransport>;

interface Harness {
  client: ApiClient;
  transport: Transport;
  emit: EventSink['emit'];
  workspaceDir: string;
}

async function setUp(connect: ConnectTransport): Promise<Harness> {
  const dir = await makeTempDir();
  const examplesDir = join(dir, 'examples');
  await mkdir(examplesDir);
  await writeFile(join(examplesDir, 'sample.keyplan.json'), JSON.stringify(sampleDesign('Sample example')));
  await writeFile(join(examplesDir, 'broken.keyplan.json'), '{ "formatVersion": 1, ');
  const workspaceDir = join(dir, 'workspace');
  // Tasks run in real worker threads (from the TypeScript source); their events go out through the transport.
  const events = createEventRelay();
  const tasks = createTaskHost({ emit: events.emit, spawn: taskWorkerSpawner(TASK_WORKER_SOURCE), log: () => {} });
  onTestFinished(() => tasks.dispose());
  const handlers = await createBrowserHandlers({
    tasks,
    events,
    workspaceDir,
    dataDir: join(dir, 'data'),
    examplesDir,
    version: '9.9.9',
    platform: 'testos',
    log: () => {},
  });
  const connected = await connect(handlers);
  onTestFinished(() => connected.close());
  events.attach({ emit: connected.emit });
  const transport = checkingOutputs(connected.transport);
  return { client: createApiClient(transport), transport, emit: connected.emit, workspaceDir };
}

/** The shipped e-commerce example (table `tbl-shop`, named Shop). */
async function ecommerceExample(): Promise<Design> {
  return JSON.parse(await readFile(new URL('../examples/ecommerce.keyplan.json', import.meta.url), 'utf8')) as Design;
}

/**
 * A tenant and nineteen kinds of things it owns, none keyed yet, each read by its id and listed by
 * its tenant: each thing may live in its own partition or in its tenant's item collection, 2^19
 * combinations, so the solver searches until its time budget ends (seconds), long enough to cancel.
 */
export function manyEntitiesDesign(): Design {
  const kinds = ['Project', 'Board', 'Task', 'Comment', 'Label', 'Sprint', 'Release', 'Document', 'Invoice', 'Member', 'Webhook', 'Channel', 'Message', 'Attachment', 'Team', 'Role', 'Milestone', 'Epic', 'Goal'];
  const entities: Entity[] = [{ id: 'e-tenant', name: 'Tenant', itemCount: 1000, attributes: [{ name: 'tenantId', type: 'S', generator: { kind: 'id' } }], keys: {} }];
  const accessPatterns: AccessPattern[] = [{ id: 'p-tenant', name: 'Get a tenant', entityId: 'e-tenant', action: 'get', known: ['tenantId'], ratePerSecond: 20, consistency: 'eventual' }];
  for (const kind of kinds) {
    const id = `${kind.toLowerCase()}Id`;
    const entityId = `e-${kind.toLowerCase()}`;
    entities.push({
      id: entityId,
      name: kind,
      itemCount: 20_000,
      attributes: [{ name: id, type: 'S', generator: { kind: 'id' } }, { name: 'tenantId', type: 'S', generator: { kind: 'ref', entity: 'e-tenant' } }, { name: 'createdAt', type: 'S' }],
      keys: {},
    });
    accessPatterns.push(
      { id: `p-get-${kind}`, name: `Get a ${kind}`, entityId, action: 'get', known: [id], ratePerSecond: 10, consistency: 'eventual' },
      { id: `p-list-${kind}`, name: `List a tenant's ${kind}s`, entityId, action: 'query', known: ['tenantId'], range: { attribute: 'createdAt', operator: '>=' }, resultSize: 20, ratePerSecond: 5, consistency: 'eventual' },
    );
  }
  const table = { ...sampleDesign().tables[0]!, id: 'table-work', name: 'Work', entities, accessPatterns };
  return { formatVersion: 1, id: 'design-many', name: 'Many entities', tables: [table] };
}

const listed = (fields: BadField[]) => fields.map((f) => `${f.path || '(the value)'}: expected ${f.expected}, found ${f.found}`).join('; ');

/**
 * `transport`, with every successful reply checked against its channel's output schema (a reply that
 * does not fit fails the call) and every event payload against its event's schema (checked when the
 * test finishes).
 */
function checkingOutputs(transport: Transport): Transport {
  const badEvents: string[] = [];
  onTestFinished(() => expect(badEvents, 'event payloads that do not fit the contract').toEqual([]));
  return {
    async invoke(channel, input) {
      const envelope = await transport.invoke(channel, input);
      if (envelope.ok && isChannel(channel)) {
        const bad = checkChannelOutput(channel, envelope.value);
        if (bad.length > 0) throw new Error(`The reply to "${channel}" does not fit the contract: ${listed(bad)}`);
      }
      return envelope;
    },
    subscribe(event, listener) {
      return transport.subscribe(event, (payload) => {
        const bad = isEventName(event) ? checkEventPayload(event, payload) : [];
        if (bad.length > 0) badEvents.push(`${event}: ${listed(bad)}`);
        listener(payload);
      });
    },
  };
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; path?: string | undefined; details?: unknown }> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected the call to fail with an AppError, got ${String(error)}`);
  return { code: error.code, path: error.path, details: error.details };
}

/** Task tests start worker threads that load the TypeScript sources through tsx: seconds on a busy machine. */
const TASK_TEST_TIMEOUT_MS = 30_000;

export function describeContract(transportName: string, connect: ConnectTransport): void {
  describe(`the contract over ${transportName}`, () => {
    test('app.info names the browser host and its workspace', async () => {
      const { client, workspaceDir } = await setUp(connect);
      expect(await client.call('app.info', {})).toEqual({ mode: 'browser', version: '9.9.9', platform: 'testos', workspaceDir });
    });

    test('save as, list, open and recent agree on one file', async () => {
      const { client } = await setUp(connect);
      const saved = await client.call('file.saveAs', { name: 'orders', design: sampleDesign('Orders') });
      expect(saved).toMatchObject({ ref: 'orders.keyplan.json', name: 'orders.keyplan.json' });
      expect((await client.call('file.list', {})).files).toEqual([
        expect.objectContaining({ ref: 'orders.keyplan.json', name: 'orders.keyplan.json' }),
      ]);
      const opened = await client.call('file.open', { ref: saved.ref });
      expect(opened.design).toEqual(sampleDesign('Orders'));
      expect((await client.call('recent.list', {})).files.map((f) => f.ref)).toEqual(['orders.keyplan.json']);
    });

    test('save keeps the previous version and reports where', async () => {
      const { client, workspaceDir } = await setUp(connect);
      const { ref } = await client.call('file.saveAs', { name: 'orders', design: sampleDesign('First') });
      const saved = await client.call('file.save', { ref, design: sampleDesign('Second') });
      expect(saved.backupRef).toBe('orders.keyplan.json.bak');
      expect(JSON.parse(await readFile(join(workspaceDir, 'orders.keyplan.json.bak'), 'utf8'))).toMatchObject({ name: 'First' });
    });

    test('a save naming an outdated version is file.changed with the version on disk, which a save naming it then passes', async () => {
      const { client, workspaceDir } = await setUp(connect);
      const mine = await client.call('file.saveAs', { name: 'orders', design: sampleDesign('Mine') });
      await writeFile(join(workspaceDir, 'orders.keyplan.json'), `${JSON.stringify(sampleDesign('Theirs'))}\n`);
      const onDisk = await client.call('file.version', { ref: mine.ref });
      expect(onDisk.version?.sha256).not.toBe(mine.version?.sha256);
      const refused = await codeOf(client.call('file.save', { ref: mine.ref, design: sampleDesign('Mine 2'), ...(mine.version ? { expected: mine.version } : {}) }));
      expect(refused).toMatchObject({ code: 'file.changed', details: { version: onDisk.version } });
      // "Overwrite": the user saw the conflict and saves over the version now on disk.
      await client.call('file.save', { ref: mine.ref, design: sampleDesign('Mine 2'), ...(onDisk.version ? { expected: onDisk.version } : {}) });
      expect((await client.call('file.open', { ref: mine.ref })).design.name).toBe('Mine 2');
      expect(await codeOf(client.call('file.save', { ref: mine.ref, design: sampleDesign(), expected: { mtimeMs: 1, sha256: 'x'.repeat(5000) } }))).toMatchObject({
        code: 'ipc.badInput',
        path: 'expected.sha256',
      });
    });

    test('a save or open whose recent list cannot be written succeeds, with a recent.notUpdated warning', async () => {
      const { client, workspaceDir } = await setUp(connect);
      await mkdir(join(workspaceDataDir(join(workspaceDir, '..', 'data'), await realpath(workspaceDir)), 'recent.json'), { recursive: true });
      const saved = await client.call('file.saveAs', { name: 'orders', design: sampleDesign('Kept') });
      expect(saved.warnings).toEqual([{ code: 'recent.notUpdated', message: expect.stringContaining('"orders.keyplan.json" was saved') }]);
      const opened = await client.call('file.open', { ref: saved.ref });
      expect(opened).toMatchObject({ design: { name: 'Kept' }, warnings: [{ code: 'recent.notUpdated' }] });
    });

    test('save as an existing name is file.exists unless overwrite is set', async () => {
      const { client } = await setUp(connect);
      await client.call('file.saveAs', { name: 'orders', design: sampleDesign() });
      expect(await codeOf(client.call('file.saveAs', { name: 'orders', design: sampleDesign() }))).toMatchObject({ code: 'file.exists' });
      await expect(client.call('file.saveAs', { name: 'orders', design: sampleDesign('B'), overwrite: true })).resolves.toBeDefined();
    });

    test('an export is written inside the workspace as named, refuses to replace unless told, and never takes a design name', async () => {
      const { client, workspaceDir } = await setUp(connect);
      const saved = await client.call('file.export', { name: 'orders.cloudformation.yaml', content: 'Resources: {}\n' });
      expect(saved).toMatchObject({ ref: 'orders.cloudformation.yaml', name: 'orders.cloudformation.yaml' });
      expect(await readFile(join(workspaceDir, 'orders.cloudformation.yaml'), 'utf8')).toBe('Resources: {}\n');
      expect(await codeOf(client.call('file.export', { name: 'orders.cloudformation.yaml', content: 'x' }))).toMatchObject({ code: 'file.exists', path: 'name' });
      await client.call('file.export', { name: 'orders.cloudformation.yaml', content: 'replaced', overwrite: true });
      expect(await readFile(join(workspaceDir, 'orders.cloudformation.yaml'), 'utf8')).toBe('replaced');
      expect(await codeOf(client.call('file.export', { name: 'orders.keyplan.json', content: '{}' }))).toMatchObject({ code: 'file.badName' });
      expect(await codeOf(client.call('file.export', { name: '../outside.yaml', content: 'x' }))).toMatchObject({ code: 'file.outsideWorkspace' });
      expect((await client.call('file.list', {})).files).toEqual([]);
      expect((await client.call('recent.list', {})).files).toEqual([]);
    });

    test('a design with a broken shape is refused with every problem, as data', async () => {
      const { client } = await setUp(connect);
      const error = await codeOf(client.call('file.saveAs', { name: 'bad', design: invalidDesign() as never }));
      expect(error.code).toBe('file.invalidDesign');
      expect(error.details).toEqual([expect.objectContaining({ code: 'model.schema', path: 'tables[0].entities[0].itemCount' })]);
      expect((await client.call('file.list', {})).files).toEqual([]);
    });

    test('a file that is not JSON is file.notJson with its line and column', async () => {
      const { client, workspaceDir } = await setUp(connect);
      await writeFile(join(workspaceDir, 'broken.keyplan.json'), '{\n  "name": }');
      expect(await codeOf(client.call('file.open', { ref: 'broken.keyplan.json' }))).toMatchObject({
        code: 'file.notJson',
        details: { line: 2, column: 11 },
      });
    });

    test('a ref outside the workspace is file.outsideWorkspace', async () => {
      const { client } = await setUp(connect);
      expect((await codeOf(client.call('file.open', { ref: '../../etc/passwd' }))).code).toBe('file.outsideWorkspace');
    });

    test('input of the wrong shape is ipc.badInput naming the field', async () => {
      const { client } = await setUp(connect);
      expect(await codeOf(client.call('file.open', { ref: 42 } as never))).toMatchObject({ code: 'ipc.badInput', path: 'ref' });
      expect(await codeOf(client.call('file.save', { ref: 'a' } as never))).toMatchObject({ code: 'ipc.badInput', path: 'design' });
      expect(await codeOf(client.call('file.list', { extra: true } as never))).toMatchObject({ code: 'ipc.badInput', path: 'extra' });
      expect(await codeOf(client.call('app.info', null as never))).toMatchObject({ code: 'ipc.badInput' });
    });

    test('input that does not fit the channel schema is ipc.badInput naming the field, before the handler runs', async () => {
      const { client, workspaceDir } = await setUp(connect);
      const task = { runId: 'x', design: sampleDesign(), tableId: 'table-app' };
      const refused = async (call: Promise<unknown>) => {
        const { code, path, details } = await codeOf(call);
        return { code, path, fields: (details as { fields?: { path: string }[] } | undefined)?.fields?.map((f) => f.path) };
      };
      expect(await refused(client.call('sample.page', { runId: 'x', view: 'table', offset: 1.5, limit: 5 }))).toMatchObject({ code: 'ipc.badInput', path: 'offset' });
      // NaN: refused as not JSON-safe (in memory), as the null JSON makes of it (WebSocket), as not finite (Electron's structured clone).
      expect(await refused(client.call('sample.page', { runId: 'x', view: 'table', offset: 0, limit: Number.NaN }))).toMatchObject({ code: 'ipc.badInput', path: 'limit' });
      expect(await refused(client.call('simulation.run', { ...task, start: 'hot' } as never))).toMatchObject({ code: 'ipc.badInput', path: 'start' });
      expect(await refused(client.call('simulation.run', { ...task, limits: 'shared' } as never))).toMatchObject({ code: 'ipc.badInput', path: 'limits' });
      expect(await refused(client.call('simulation.run', { ...task, headroom: 0.9 }))).toMatchObject({ code: 'ipc.badInput', path: 'headroom' });
      expect(await refused(client.call('sample.generate', { ...task, documentId: 'd'.repeat(201) }))).toMatchObject({ code: 'ipc.badInput', path: 'documentId' });
      // A GSI count over DynamoDB's default quota of 20 per table; a billing the solver does not know; a negative budget; a setting it does not take.
      expect(await refused(client.call('solver.run', { ...task, maxGsis: 21 }))).toMatchObject({ code: 'ipc.badInput', path: 'maxGsis' });
      expect(await refused(client.call('solver.run', { ...task, billing: 'reserved' } as never))).toMatchObject({ code: 'ipc.badInput', path: 'billing' });
      expect(await refused(client.call('solver.run', { ...task, monthlyBudgetUsd: -1 }))).toMatchObject({ code: 'ipc.badInput', path: 'monthlyBudgetUsd' });
      expect(await refused(client.call('solver.run', { ...task, headroom: 0.5 }))).toMatchObject({ code: 'ipc.badInput', path: 'headroom' });
      expect(await refused(client.call('solver.run', { ...task, timeBudgetMs: 60_000 } as never))).toMatchObject({ code: 'ipc.badInput', path: 'timeBudgetMs' });
      expect(await refused(client.call('file.saveAs', { name: 'orders', design: sampleDesign(), overwrite: 'yes' } as never))).toMatchObject({
        code: 'ipc.badInput',
        path: 'overwrite',
      });
      const version = { mtimeMs: 1, sha256: 'a'.repeat(64) };
      expect(await refused(client.call('file.save', { ref: 'orders.keyplan.json', design: sampleDesign(), expected: { ...version, size: 3 } as never }))).toMatchObject({
        code: 'ipc.badInput',
        path: 'expected.size',
      });
      // Every failing field is named, the first in `path`.
      const many = await refused(client.call('sample.page', { runId: 7, view: 'table', offset: -1, limit: 'all' } as never));
      expect(many).toMatchObject({ code: 'ipc.badInput' });
      expect([...(many.fields ?? [])].sort()).toEqual(['limit', 'offset', 'runId']);
      // Refused before the handler ran: nothing was written.
      expect((await client.call('file.list', {})).files).toEqual([]);
      await expect(readFile(join(workspaceDir, 'orders.keyplan.json'), 'utf8')).rejects.toThrow();
    });

    test('a channel not in the contract is ipc.unknownChannel', async () => {
      const { transport } = await setUp(connect);
      expect(await transport.invoke('file.delete', { ref: 'a' })).toMatchObject({ ok: false, error: { code: 'ipc.unknownChannel' } });
    });

    test('the native open dialog is ipc.unsupported in the browser', async () => {
      const { client } = await setUp(connect);
      expect((await codeOf(client.call('file.openDialog', {}))).code).toBe('ipc.unsupported');
    });

    test('examples are listed (a broken one left out) and open as designs', async () => {
      const { client } = await setUp(connect);
      expect(await client.call('examples.list', {})).toEqual({
        examples: [{ id: 'sample', name: 'Sample example', description: 'A design for host tests.' }],
      });
      expect((await client.call('examples.open', { id: 'sample' })).design).toEqual(sampleDesign('Sample example'));
      expect((await codeOf(client.call('examples.open', { id: 'nope' }))).code).toBe('file.notFound');
      expect(await codeOf(client.call('examples.open', { id: '../x' }))).toMatchObject({ code: 'ipc.badInput', path: 'id' });
    });

    test('host events reach subscribers until they unsubscribe', async () => {
      const { client, emit } = await setUp(connect);
      const received: EventPayload<'menu.command'>[] = [];
      let delivered!: () => void;
      const first = new Promise<void>((resolve) => (delivered = resolve));
      const off = client.on('menu.command', (payload) => {
        received.push(payload);
        delivered();
      });
      emit('menu.command', { command: 'save' });
      await first;
      off();
      emit('menu.command', { command: 'undo' });
      // A round trip after the second event proves it had its chance to arrive.
      await client.call('app.info', {});
      expect(received).toEqual([{ command: 'save' }]);
    });

    test('simulation.run runs in a worker and streams task.progress for its runId', { timeout: TASK_TEST_TIMEOUT_MS }, async () => {
      const { client } = await setUp(connect);
      const progress: EventPayload<'task.progress'>[] = [];
      const off = client.on('task.progress', (payload) => progress.push(payload));
      const design = { ...sampleDesign('Simulated'), workload: { durationSeconds: 300, stepSeconds: 1, seed: 2, events: [] } };
      const result = await client.call('simulation.run', { runId: 'sim', design, tableId: 'table-app', seed: 5 });
      expect(result).toMatchObject({ seed: 5, tableName: 'AppTable', durationSeconds: 300 });
      expect(result.targets.map((t) => t.name)).toEqual(['table']);
      // Events are delivered asynchronously; a round trip gives the last one its chance to arrive.
      await client.call('app.info', {});
      off();
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)).toMatchObject({ runId: 'sim', done: 300, total: 300 });
    });

    test('sample.generate keeps the items in the host for sample.page and sample.find', { timeout: TASK_TEST_TIMEOUT_MS }, async () => {
      const { client } = await setUp(connect);
      const summary = await client.call('sample.generate', { runId: 'sample', design: sampleDesign('Sampled'), tableId: 'table-app', seed: 3 });
      expect(summary).toMatchObject({ runId: 'sample', seed: 3, itemCount: 1000 });
      const page = await client.call('sample.page', { runId: 'sample', view: 'table', offset: 0, limit: 3 });
      expect(page.rows).toHaveLength(3);
      const key = page.rows[0]?.partitionKey ?? '';
      expect((await client.call('sample.find', { runId: 'sample', view: 'table', key })).offset).toEqual(expect.any(Number));
      expect((await client.call('sample.find', { runId: 'sample', view: 'table', key: 'NOPE#' })).offset).toBeNull();
    });

    test('task channels refuse bad input and unknown runs, as data', async () => {
      const { client } = await setUp(connect);
      expect(await codeOf(client.call('simulation.run', { runId: 'x', design: sampleDesign(), tableId: 'no-table' }))).toMatchObject({ code: 'ipc.badInput', path: 'tableId' });
      expect(await codeOf(client.call('simulation.run', { runId: 'x', design: sampleDesign(), tableId: 'table-app', seed: 'one' } as never))).toMatchObject({ code: 'ipc.badInput', path: 'seed' });
      expect((await codeOf(client.call('sample.generate', { runId: 'x', design: invalidDesign() as never, tableId: 'table-app' }))).code).toBe('file.invalidDesign');
      expect(await codeOf(client.call('solver.run', { runId: 'x', design: sampleDesign(), tableId: 'no-table' }))).toMatchObject({ code: 'ipc.badInput', path: 'tableId' });
      expect((await codeOf(client.call('solver.run', { runId: 'x', design: invalidDesign() as never, tableId: 'table-app' }))).code).toBe('file.invalidDesign');
      expect(await codeOf(client.call('sample.page', { runId: 'x', view: 'table', offset: -1, limit: 5 }))).toMatchObject({ code: 'ipc.badInput', path: 'offset' });
      expect((await codeOf(client.call('sample.page', { runId: 'gone', view: 'table', offset: 0, limit: 5 }))).code).toBe('task.unknown');
      expect((await codeOf(client.call('sample.find', { runId: 'gone', view: 'table', key: 'A' }))).code).toBe('task.unknown');
      expect(await client.call('task.cancel', { runId: 'gone' })).toEqual({ canceled: false });
    });

    test('task.cancel stops a running simulation, whose call fails with task.canceled', { timeout: TASK_TEST_TIMEOUT_MS }, async () => {
      const { client } = await setUp(connect);
      let started!: () => void;
      const firstProgress = new Promise<void>((resolve) => (started = resolve));
      const off = client.on('task.progress', (p) => p.runId === 'week' && started());
      const design = { ...sampleDesign('A week'), workload: { durationSeconds: 7 * 24 * 3600, stepSeconds: 1, seed: 1, events: [] } };
      const running = codeOf(client.call('simulation.run', { runId: 'week', design, tableId: 'table-app' }));
      await firstProgress;
      off();
      expect(await client.call('task.cancel', { runId: 'week' })).toEqual({ canceled: true });
      expect((await running).code).toBe('task.canceled');
    });

    test('solver.run proposes complete key designs for the e-commerce example without keys, in a worker, streaming task.progress', { timeout: TASK_TEST_TIMEOUT_MS }, async () => {
      const { client } = await setUp(connect);
      const design = stripKeyDesign(await ecommerceExample());
      const progress: EventPayload<'task.progress'>[] = [];
      const off = client.on('task.progress', (p) => p.runId === 'solve' && progress.push(p));
      const input = { runId: 'solve', design, tableId: 'tbl-shop', seed: 3, maxGsis: 4, noScan: true };
      const result = await client.call('solver.run', input);
      await client.call('app.info', {});
      off();
      expect(result.tableId).toBe('tbl-shop');
      expect(result.proposals.map((p) => p.rank)).toEqual([1, 2, 3]);
      const patternIds = design.tables[0]!.accessPatterns.map((p) => p.id);
      for (const proposal of result.proposals) {
        const table = proposal.design.tables[0]!;
        // Complete: every entity has a template for the table's partition and sort key; at most the GSIs allowed.
        for (const entity of table.entities) expect(Object.keys(entity.keys)).toEqual(expect.arrayContaining([table.partitionKey.name, table.sortKey!.name]));
        expect(table.globalSecondaryIndexes).toHaveLength(proposal.gsiCount);
        expect(proposal.gsiCount).toBeLessThanOrEqual(4);
        expect(proposal.patterns.map((p) => p.patternId)).toEqual(patternIds);
        if (proposal.feasible) expect(proposal.patterns.map((p) => p.badge)).not.toContain('Scan');
      }
      // Ranked: feasible first, then cheaper.
      const feasible = result.proposals.filter((p) => p.feasible);
      expect(result.proposals.slice(0, feasible.length)).toEqual(feasible);
      for (let i = 1; i < feasible.length; i += 1) expect(feasible[i]!.monthlyUsd).toBeGreaterThanOrEqual(feasible[i - 1]!.monthlyUsd);
      expect(progress.some((p) => /^Priced \d+ of \d+ key designs/.test(p.label))).toBe(true);
      // Deterministic for a seed, across the wire: the same input gives the same proposals.
      const again = await client.call('solver.run', { ...input, runId: 'solve-again' });
      expect(again.proposals).toEqual(result.proposals);
    });

    test('task.cancel stops a running solve, whose call fails with task.canceled', { timeout: TASK_TEST_TIMEOUT_MS }, async () => {
      const { client } = await setUp(connect);
      let pricing!: () => void;
      const priced = new Promise<void>((resolve) => (pricing = resolve));
      const off = client.on('task.progress', (p) => p.runId === 'search' && p.label.startsWith('Priced') && pricing());
      const running = codeOf(client.call('solver.run', { runId: 'search', design: manyEntitiesDesign(), tableId: 'table-work' }));
      await priced;
      off();
      expect(await client.call('task.cancel', { runId: 'search' })).toEqual({ canceled: true });
      expect((await running).code).toBe('task.canceled');
      expect(await client.call('task.cancel', { runId: 'search' })).toEqual({ canceled: false });
    });

    test('run.start runs the e-commerce example on the embedded engine, streams its progress and removes its table', { timeout: TASK_TEST_TIMEOUT_MS }, async () => {
      const { client } = await setUp(connect);
      const design = await ecommerceExample();
      const progress: EventPayload<'task.progress'>[] = [];
      const off = client.on('task.progress', (p) => p.runId === 'run-a' && progress.push(p));
      const report = await client.call('run.start', { runId: 'run-a', design, tableId: 'tbl-shop', engine: { kind: 'embedded' }, itemsPerEntity: 5, repeat: 2 });
      off();
      expect(report.table.name).toMatch(/^keyplan-run-[0-9a-z]{8}-Shop$/);
      expect(report.patterns.map((p) => p.name)).toEqual(design.tables[0]!.accessPatterns.map((p) => p.name));
      expect(report.patterns.find((p) => p.name === 'Place order')).toMatchObject({ agreement: 'notRun', message: expect.stringContaining('DynamoDB Local 3.3') });
      const get = report.patterns.find((p) => p.name === 'Get user profile')!;
      // A profile is far below 4 KB: one block, eventually consistent, 0.5 RCU per call on the table.
      expect(get.measured).toMatchObject({ calls: 2, requests: 1, units: { table: 0.5 }, total: 0.5 });
      expect(get.agreement).toBe('agrees');
      expect(report.cleanup).toEqual({ removed: [report.table.name], leftover: [] });
      expect(progress.length).toBeGreaterThan(2);
      expect(progress.at(-1)!.done).toBeLessThanOrEqual(progress.at(-1)!.total);
      expect((await client.call('run.leftovers', {})).tables).toEqual([]);
    });

    test('run channels refuse what cannot run, as data, and touch nothing', { timeout: TASK_TEST_TIMEOUT_MS }, async () => {
      const { client } = await setUp(connect);
      const design = await ecommerceExample();
      expect(await codeOf(client.call('run.start', { runId: 'r', design, tableId: 'no-table', engine: { kind: 'embedded' } }))).toMatchObject({ code: 'ipc.badInput', path: 'tableId' });
      expect(await codeOf(client.call('run.start', { runId: 'r', design, tableId: 'tbl-shop', engine: { kind: 'embedded' }, itemsPerEntity: 100_000 }))).toMatchObject({ code: 'ipc.badInput', path: 'itemsPerEntity' });
      expect((await codeOf(client.call('run.start', { runId: 'r', design: invalidDesign() as never, tableId: 'tbl-shop', engine: { kind: 'embedded' } }))).code).toBe('file.invalidDesign');
      expect((await codeOf(client.call('run.start', { runId: 'r', design, tableId: 'tbl-shop', engine: { kind: 'local', endpoint: 'http://127.0.0.1:9' } }))).code).toBe('run.engine');
      expect(await codeOf(client.call('run.identify', { engine: { kind: 'aws', region: 'not a region' } }))).toMatchObject({ code: 'ipc.badInput' });
      const cleanup = await client.call('run.cleanup', { names: ['keyplan-run-00000000-Shop'] });
      expect(cleanup.removed).toEqual([]);
      expect(cleanup.failed).toEqual([{ name: 'keyplan-run-00000000-Shop', message: expect.any(String) }]);
    });

    test('task.cancel stops a run, whose call fails with task.canceled once its table is removed', { timeout: TASK_TEST_TIMEOUT_MS }, async () => {
      const { client } = await setUp(connect);
      const design = await ecommerceExample();
      let loading!: () => void;
      const loadStarted = new Promise<void>((resolve) => (loading = resolve));
      const off = client.on('task.progress', (p) => p.runId === 'long' && p.done > 0 && loading());
      const running = codeOf(client.call('run.start', { runId: 'long', design, tableId: 'tbl-shop', engine: { kind: 'embedded' }, itemsPerEntity: 1000, repeat: 100 }));
      await loadStarted;
      off();
      expect(await client.call('task.cancel', { runId: 'long' })).toEqual({ canceled: true });
      expect((await running).code).toBe('task.canceled');
      expect((await client.call('run.leftovers', {})).tables).toEqual([]);
    });
  });
}
