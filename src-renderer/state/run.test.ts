/**
 * The run store: the form's checks at each field, the AWS path (identify, confirm, then a start
 * naming the confirmed account), a cancel that is not an error, and a failed run that keeps the
 * last report. The host is a stand-in whose answers the test gives one by one.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import type { ApiClient } from '../../src-shared/ipc/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import type { RunReport } from '../../src-shared/run/index.ts';
import { checkRunForm, DEFAULT_FORM, RunStore } from './run.svelte.ts';

interface Call {
  channel: string;
  input: Record<string, unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

function fakeHost() {
  const calls: Call[] = [];
  const listeners = new Set<(p: { runId: string; done: number; total: number; label: string }) => void>();
  const api = {
    call: (channel: string, input: Record<string, unknown>) => new Promise((resolve, reject) => calls.push({ channel, input, resolve, reject })),
    on: (_event: string, listener: (p: { runId: string; done: number; total: number; label: string }) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as ApiClient;
  const last = (channel: string) => calls.filter((c) => c.channel === channel).at(-1)!;
  return { api, calls, listeners, last };
}

const design = { formatVersion: 1, name: 'd', tables: [] } as unknown as Design;
const report = (runId: string) => ({ runId, cleanup: { removed: [], leftover: [] } }) as unknown as RunReport;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('checkRunForm', () => {
  it('takes the defaults: embedded, 20 items per entity, 5 calls per pattern', () => {
    expect(checkRunForm(DEFAULT_FORM)).toEqual({ ok: true, engine: { kind: 'embedded' }, itemsPerEntity: 20, repeat: 5 });
  });

  it.each([
    ['0', 'items'],
    ['1001', 'items'],
    ['2.5', 'items'],
    ['', 'items'],
  ])('refuses %j items per entity at its field', (items, field) => {
    const checked = checkRunForm({ ...DEFAULT_FORM, items });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(Object.keys(checked.errors)).toEqual([field]);
  });

  it('refuses a repeat above 100 and an endpoint that is not a URL, both at once', () => {
    const checked = checkRunForm({ ...DEFAULT_FORM, engine: 'local', endpoint: 'localhost:8000', repeat: '101' });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(Object.keys(checked.errors).sort()).toEqual(['endpoint', 'repeat']);
  });

  it('needs a region for AWS and leaves the profile out when empty', () => {
    expect(checkRunForm({ ...DEFAULT_FORM, engine: 'aws' }).ok).toBe(false);
    expect(checkRunForm({ ...DEFAULT_FORM, engine: 'aws', region: ' eu-west-1 ' })).toMatchObject({ ok: true, engine: { kind: 'aws', region: 'eu-west-1' } });
    expect(checkRunForm({ ...DEFAULT_FORM, engine: 'aws', region: 'eu-west-1', profile: 'dev' })).toMatchObject({ engine: { kind: 'aws', region: 'eu-west-1', profile: 'dev' } });
  });
});

describe('RunStore', () => {
  it('on AWS asks where the credentials lead, and starts only once confirmed, naming that account', async () => {
    const host = fakeHost();
    const store = new RunStore(host.api);
    store.form = { ...DEFAULT_FORM, engine: 'aws', region: 'eu-west-1' };
    const started = store.start(design, 'tbl');
    await settle();
    expect(host.calls.map((c) => c.channel)).toEqual(['run.identify']);
    host.last('run.identify').resolve({ label: 'AWS account 123456789012, eu-west-1', account: '123456789012', arn: 'arn:aws:iam::123456789012:user/ana', region: 'eu-west-1' });
    await started;
    expect(store.phase).toBe('confirming');
    expect(store.confirmation?.identity.arn).toBe('arn:aws:iam::123456789012:user/ana');

    const confirmed = store.confirm();
    await settle();
    const start = host.last('run.start');
    expect(start.input).toMatchObject({ tableId: 'tbl', engine: { kind: 'aws', region: 'eu-west-1' }, itemsPerEntity: 20, repeat: 5, confirmAccount: '123456789012' });
    for (const listener of host.listeners) listener({ runId: start.input.runId as string, done: 3, total: 10, label: 'Loading items' });
    expect(store.progress).toEqual({ done: 3, total: 10, label: 'Loading items' });
    start.resolve(report(start.input.runId as string));
    await confirmed;
    expect(store.phase).toBe('idle');
    expect(store.report?.runId).toBe(start.input.runId);
  });

  it('a dismissed confirmation sends nothing', async () => {
    const host = fakeHost();
    const store = new RunStore(host.api);
    store.form = { ...DEFAULT_FORM, engine: 'aws', region: 'us-east-1' };
    const started = store.start(design, 'tbl');
    await settle();
    host.last('run.identify').resolve({ label: 'AWS', account: '1', region: 'us-east-1' });
    await started;
    store.dismiss();
    await store.confirm();
    expect(host.calls.map((c) => c.channel)).toEqual(['run.identify']);
    expect(store.phase).toBe('idle');
  });

  it('a canceled run says its tables were removed, as a notice and not an error', async () => {
    const host = fakeHost();
    const store = new RunStore(host.api);
    const started = store.start(design, 'tbl');
    await settle();
    const start = host.last('run.start');
    void store.cancel();
    await settle();
    expect(host.last('task.cancel').input).toEqual({ runId: start.input.runId });
    expect(store.phase).toBe('canceling');
    host.last('task.cancel').resolve({ canceled: true });
    start.reject(new AppError({ code: 'task.canceled', message: 'Canceled.' }));
    await started;
    expect(store.notice).toBe("Canceled; the run's tables were removed.");
    expect(store.problem).toBeUndefined();
    expect(store.phase).toBe('idle');
  });

  it('a run that fails keeps the last report and says what to do', async () => {
    const host = fakeHost();
    const store = new RunStore(host.api);
    const first = store.start(design, 'tbl');
    await settle();
    host.last('run.start').resolve(report('first'));
    await first;
    store.form = { ...DEFAULT_FORM, engine: 'local', endpoint: 'http://localhost:8000' };
    const second = store.start(design, 'tbl');
    await settle();
    host.last('run.start').reject(new AppError({ code: 'run.engine', message: 'Could not reach http://localhost:8000: connection refused.' }));
    await second;
    expect(store.report?.runId).toBe('first');
    expect(store.problem).toMatchObject({ code: 'run.engine', message: 'Could not reach http://localhost:8000: connection refused.' });
    expect(store.problem?.advice).toContain('DynamoDB Local');
  });

  it('does not start with a field in error', async () => {
    const host = fakeHost();
    const store = new RunStore(host.api);
    store.form = { ...DEFAULT_FORM, repeat: '0' };
    await store.start(design, 'tbl');
    expect(host.calls).toEqual([]);
  });
});
