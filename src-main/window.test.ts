/**
 * There is no Electron binary here, so `electron` is a stand-in that records what createMainWindow
 * asks of it: the web preferences, the window open handler, the navigation listeners and the session
 * handlers. The hardening under test is real.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, test, vi } from 'vitest';

interface FakeWindow {
  options: { webPreferences: Record<string, unknown> };
  listeners: Map<string, (...args: unknown[]) => void>;
  openHandler?: (details: { url: string }) => { action: string };
  permissionRequest?: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void;
  permissionCheck?: () => boolean;
  headersListener?: unknown;
  loaded: string[];
}

const electron = vi.hoisted(() => ({ windows: [] as FakeWindow[], opened: [] as string[] }));

vi.mock('electron', () => {
  class BrowserWindow {
    webContents: unknown;
    constructor(options: FakeWindow['options']) {
      const fake: FakeWindow = { options, listeners: new Map(), loaded: [] };
      electron.windows.push(fake);
      this.webContents = {
        session: {
          setPermissionRequestHandler: (handler: FakeWindow['permissionRequest']) => (fake.permissionRequest = handler),
          setPermissionCheckHandler: (handler: FakeWindow['permissionCheck']) => (fake.permissionCheck = handler),
          webRequest: { onHeadersReceived: (listener: unknown) => (fake.headersListener = listener) },
        },
        setWindowOpenHandler: (handler: FakeWindow['openHandler']) => (fake.openHandler = handler),
        on: (event: string, listener: (...args: unknown[]) => void) => fake.listeners.set(event, listener),
      };
      this.loadFile = async (path: string) => void fake.loaded.push(path);
      this.loadURL = async (url: string) => void fake.loaded.push(url);
    }
    loadFile: (path: string) => Promise<void>;
    loadURL: (url: string) => Promise<void>;
    once() {}
    show() {}
  }
  return { BrowserWindow, shell: { openExternal: async (url: string) => void electron.opened.push(url) } };
});

const { createMainWindow } = await import('./window.ts');
const { resolveRendererLocation } = await import('./renderer-location.ts');

const rendererDir = join('/opt', 'keyplan', 'out', 'renderer');
const ourPage = pathToFileURL(join(rendererDir, 'index.html')).href;

function openWindow(): FakeWindow {
  createMainWindow({ preloadPath: '/opt/keyplan/out/preload/index.cjs', location: resolveRendererLocation({ rendererDir }) });
  return electron.windows.at(-1)!;
}

function navigationIsBlocked(window: FakeWindow, event: string, url: string): boolean {
  let blocked = false;
  window.listeners.get(event)!({ preventDefault: () => (blocked = true) }, url);
  return blocked;
}

beforeEach(() => {
  electron.windows.length = 0;
  electron.opened.length = 0;
});

describe('the main window', () => {
  test('is sandboxed and context-isolated, with no Node, webviews or insecure content', () => {
    expect(openWindow().options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
  });

  test('turns off auxclick (middle-click) events for the page', () => {
    expect(openWindow().options.webPreferences['disableBlinkFeatures']).toBe('Auxclick');
  });

  test.each([ourPage, 'https://attacker.example/', 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Introduction.html', 'file:///etc/passwd'])(
    'denies every new window, here %s',
    (url) => {
      expect(openWindow().openHandler!({ url })).toEqual({ action: 'deny' });
    },
  );

  test('hands AWS documentation links, and nothing else, to the user’s browser', () => {
    const window = openWindow();
    const aws = 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Introduction.html';
    window.openHandler!({ url: aws });
    window.openHandler!({ url: 'https://attacker.example/' });
    window.openHandler!({ url: 'http://docs.aws.amazon.com/' });
    expect(electron.opened).toEqual([aws]);
  });

  test.each(['will-navigate', 'will-redirect'])('%s: blocks pages other than ours', (event) => {
    const window = openWindow();
    expect(navigationIsBlocked(window, event, 'https://attacker.example/')).toBe(true);
    expect(navigationIsBlocked(window, event, 'file:///etc/passwd')).toBe(true);
    expect(navigationIsBlocked(window, event, ourPage)).toBe(false);
  });

  test('refuses to attach a webview', () => {
    let prevented = false;
    openWindow().listeners.get('will-attach-webview')!({ preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
  });

  test('grants no permission, asked or checked', () => {
    const window = openWindow();
    const answers: boolean[] = [];
    window.permissionRequest!({}, 'media', (granted) => answers.push(granted));
    window.permissionRequest!({}, 'notifications', (granted) => answers.push(granted));
    expect(answers).toEqual([false, false]);
    expect(window.permissionCheck!()).toBe(false);
  });

  test('loads the built index.html, and sets no CSP header for file pages (the meta tag applies)', () => {
    const window = openWindow();
    expect(window.loaded).toEqual([join(rendererDir, 'index.html')]);
    expect(window.headersListener).toBeUndefined();
  });
});
