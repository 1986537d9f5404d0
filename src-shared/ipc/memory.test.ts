import { describe, expect, test } from 'vitest';
import { AppError } from '../errors.ts';
import { createApiClient } from './client.ts';
import type { ApiHandlers } from './contract.ts';
import { findNonJsonValue } from './json-safe.ts';
import { createMemoryTransport } from './memory.ts';

function fakeHandlers(overrides: Partial<ApiHandlers> = {}): ApiHandlers {
  const unused = async (): Promise<never> => {
    throw new Error('not used in this test');
  };
  return {
    'app.info': async () => ({ mode: 'browser', version: '1.0.0', platform: 'linux' }),
    'file.list': unused,
    'file.open': unused,
    'file.openDialog': unused,
    'file.save': unused,
    'file.version': unused,
    'file.saveAs': unused,
    'file.export': unused,
    'recent.list': unused,
    'examples.list': unused,
    'examples.open': unused,
    'sample.generate': unused,
    'sample.page': unused,
    'sample.find': unused,
    'simulation.run': unused,
    'solver.run': unused,
    'run.identify': unused,
    'run.start': unused,
    'run.leftovers': unused,
    'run.cleanup': unused,
    'task.cancel': unused,
    ...overrides,
  };
}

describe('findNonJsonValue', () => {
  test.each([
    ['a Date', { at: new Date(0) }, 'at', 'a Date'],
    ['a Map', { tables: [new Map()] }, 'tables[0]', 'a Map'],
    ['a function', { f: () => 1 }, 'f', 'a function'],
    ['NaN', { n: Number.NaN }, 'n', 'NaN'],
    ['a bigint', { n: 1n }, 'n', 'a bigint'],
    ['an undefined array slot', { list: [1, undefined] }, 'list[1]', 'undefined'],
  ])('finds %s and names where it is', (_name, value, path, found) => {
    expect(findNonJsonValue(value)).toEqual({ path, found });
  });

  test('accepts plain data, null prototypes and undefined properties', () => {
    expect(findNonJsonValue({ a: [1, 'x', true, null], b: { c: undefined }, d: Object.create(null) as object })).toBeUndefined();
  });
});

describe('createMemoryTransport', () => {
  test('answers with a JSON copy of the handler result', async () => {
    const info = { mode: 'browser' as const, version: '1.0.0', platform: 'linux' };
    const transport = createMemoryTransport(fakeHandlers({ 'app.info': async () => info }));
    const reply = await transport.invoke('app.info', {});
    expect(reply).toEqual({ ok: true, value: info });
    expect(reply.ok && reply.value).not.toBe(info);
  });

  test('refuses a non-JSON-safe input with ipc.badInput at its path', async () => {
    const transport = createMemoryTransport(fakeHandlers());
    const reply = await transport.invoke('file.open', { ref: new Date() });
    expect(reply).toMatchObject({ ok: false, error: { code: 'ipc.badInput', path: 'ref' } });
  });

  test('turns a non-JSON-safe reply into ipc.internal', async () => {
    const handlers = fakeHandlers({ 'app.info': async () => ({ mode: 'browser', version: '1', platform: 'x', when: new Date() }) as never });
    const reply = await createMemoryTransport(handlers).invoke('app.info', {});
    expect(reply).toMatchObject({ ok: false, error: { code: 'ipc.internal' } });
  });

  test('an unknown channel gives ipc.unknownChannel', async () => {
    const reply = await createMemoryTransport(fakeHandlers()).invoke('file.delete', {});
    expect(reply).toMatchObject({ ok: false, error: { code: 'ipc.unknownChannel' } });
  });

  test('an AppError keeps its code and path; any other exception becomes ipc.internal and is reported once', async () => {
    const reported: unknown[] = [];
    const transport = createMemoryTransport(
      fakeHandlers({
        'file.open': async () => {
          throw new AppError({ code: 'file.notFound', message: 'gone', path: 'ref' });
        },
        'file.list': async () => {
          throw new TypeError('boom');
        },
      }),
      { onInternalError: (error) => reported.push(error) },
    );
    const client = createApiClient(transport);
    await expect(client.call('file.open', { ref: 'x' })).rejects.toMatchObject({ code: 'file.notFound', path: 'ref' });
    await expect(client.call('file.list', {})).rejects.toMatchObject({ code: 'ipc.internal' });
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(TypeError);
  });

  test('emit delivers events to subscribers until they unsubscribe', async () => {
    const transport = createMemoryTransport(fakeHandlers());
    const received: unknown[] = [];
    const off = transport.subscribe('menu.command', (payload) => received.push(payload));
    transport.emit('menu.command', { command: 'save' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    off();
    transport.emit('menu.command', { command: 'undo' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(received).toEqual([{ command: 'save' }]);
  });

  test('subscribing to an event not in the contract throws', () => {
    expect(() => createMemoryTransport(fakeHandlers()).subscribe('file.changed', () => {})).toThrow(/Unknown event/);
  });
});
