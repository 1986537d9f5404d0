/**
 * The one place a fake is justified: there is no Electron binary on this machine, so ipcMain and
 * webContents are minimal stand-ins with the shapes Electron gives them. The handlers are real.
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { channels, type ApiHandlers } from '../../src-shared/ipc/index.ts';
import { resolveRendererLocation } from '../renderer-location.ts';
import { registerElectronTransport, type InvokeEventLike, type IpcMainLike, type WebContentsLike } from './electron.ts';

type Listener = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

function fakeIpcMain() {
  const registered = new Map<string, Listener>();
  const ipcMain: IpcMainLike = {
    handle(channel, listener) {
      if (registered.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      registered.set(channel, listener);
    },
    removeHandler: (channel) => void registered.delete(channel),
  };
  return { ipcMain, registered };
}

function fakeWebContents() {
  const sent: unknown[][] = [];
  const contents: WebContentsLike & { destroyed: boolean } = {
    destroyed: false,
    send: (...args) => void sent.push(args),
    isDestroyed() {
      return this.destroyed;
    },
  };
  return { contents, sent };
}

const rendererDir = '/opt/keyplan/out/renderer';
const ourUrl = pathToFileURL(`${rendererDir}/index.html`).href;

function handlers(overrides: Partial<ApiHandlers> = {}): ApiHandlers {
  const fail = async (): Promise<never> => {
    throw new Error('unused');
  };
  return {
    'app.info': async () => ({ mode: 'electron', version: '1', platform: 'linux' }),
    'file.list': async () => {
      throw new Error('disk on fire');
    },
    'file.open': fail,
    'file.openDialog': fail,
    'file.save': fail,
    'file.version': fail,
    'file.saveAs': fail,
    'file.export': fail,
    'recent.list': fail,
    'examples.list': fail,
    'examples.open': fail,
    'sample.generate': fail,
    'sample.page': fail,
    'sample.find': fail,
    'simulation.run': fail,
    'solver.run': fail,
    'run.identify': fail,
    'run.start': fail,
    'run.leftovers': fail,
    'run.cleanup': fail,
    'task.cancel': fail,
    ...overrides,
  };
}

function setUp(h: ApiHandlers = handlers()) {
  const { ipcMain, registered } = fakeIpcMain();
  const { contents, sent } = fakeWebContents();
  const logged: unknown[][] = [];
  const transport = registerElectronTransport({
    ipcMain,
    handlers: h,
    getWebContents: () => contents,
    isOurUrl: resolveRendererLocation({ rendererDir }).isOurs,
    log: (...args) => logged.push(args),
  });
  const invoke = (channel: string, event: InvokeEventLike, input: unknown = {}) => {
    const listener = registered.get(channel);
    if (!listener) throw new Error(`no handler for ${channel}`);
    return listener(event, input);
  };
  const fromOurWindow = (url = ourUrl): InvokeEventLike => ({ sender: contents, senderFrame: { url, parent: null } });
  return { transport, registered, contents, sent, logged, invoke, fromOurWindow };
}

describe('the Electron transport', () => {
  test('registers every channel of the contract', () => {
    const { registered } = setUp();
    expect([...registered.keys()].sort()).toEqual([...channels].sort());
  });

  test('refuses to start when a handler is missing or not in the contract', () => {
    const { 'file.list': _missing, ...partial } = handlers();
    expect(() => setUp(partial as ApiHandlers)).toThrow(/missing file\.list/);
    expect(() => setUp({ ...handlers(), 'shell.exec': async () => ({}) } as ApiHandlers)).toThrow(/not in the contract: shell\.exec/);
  });

  test('answers our own window with the handler result', async () => {
    const { invoke, fromOurWindow } = setUp();
    expect(await invoke('app.info', fromOurWindow())).toEqual({ ok: true, value: { mode: 'electron', version: '1', platform: 'linux' } });
  });

  test.each([
    ['another webContents', (s: ReturnType<typeof setUp>) => ({ sender: {}, senderFrame: { url: ourUrl, parent: null } })],
    ['a page from the web', (s: ReturnType<typeof setUp>) => s.fromOurWindow('https://evil.example/')],
    ['a file outside the renderer folder', (s: ReturnType<typeof setUp>) => s.fromOurWindow('file:///tmp/evil.html')],
    ['a sibling folder with the same prefix', (s: ReturnType<typeof setUp>) => s.fromOurWindow('file:///opt/keyplan/out/renderer-evil/index.html')],
    ['a subframe of our page', (s: ReturnType<typeof setUp>) => ({ sender: s.contents, senderFrame: { url: ourUrl, parent: {} } })],
    ['a destroyed frame', (s: ReturnType<typeof setUp>) => ({ sender: s.contents, senderFrame: null })],
  ])('refuses %s with ipc.forbidden, without calling the handler', async (_what, eventOf) => {
    let called = false;
    const s = setUp(handlers({ 'app.info': async () => ((called = true), { mode: 'electron', version: '1', platform: 'x' }) }));
    expect(await s.invoke('app.info', eventOf(s))).toMatchObject({ ok: false, error: { code: 'ipc.forbidden' } });
    expect(called).toBe(false);
    expect(s.logged).toHaveLength(1);
  });

  test('turns a handler exception into an ipc.internal envelope (never a rejection) and logs it once', async () => {
    const { invoke, fromOurWindow, logged } = setUp();
    expect(await invoke('file.list', fromOurWindow())).toMatchObject({ ok: false, error: { code: 'ipc.internal' } });
    expect(logged).toHaveLength(1);
  });

  test('emit sends the event to the window, and not to a destroyed one', () => {
    const { transport, sent, contents } = setUp();
    transport.emit('menu.command', { command: 'save' });
    contents.destroyed = true;
    transport.emit('menu.command', { command: 'undo' });
    expect(sent).toEqual([['menu.command', { command: 'save' }]]);
  });

  test('dispose removes every handler', () => {
    const { transport, registered } = setUp();
    transport.dispose();
    expect(registered.size).toBe(0);
  });
});

describe('resolveRendererLocation', () => {
  test('in development, only the dev server origin is ours', () => {
    const location = resolveRendererLocation({ devServerUrl: 'http://localhost:5173/', rendererDir });
    expect(location.kind).toBe('devServer');
    expect(location.isOurs('http://localhost:5173/#/designs')).toBe(true);
    expect(location.isOurs('http://localhost:5174/')).toBe(false);
    expect(location.isOurs(ourUrl)).toBe(false);
  });

  test('built, the index.html under the renderer folder is loaded', () => {
    expect(resolveRendererLocation({ rendererDir: `${rendererDir}/` })).toMatchObject({ kind: 'file', indexHtml: `${rendererDir}/index.html` });
  });
});
