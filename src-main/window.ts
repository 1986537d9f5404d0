/**
 * Keyplan's window: a sandboxed, context-isolated renderer whose only access to the host is the
 * preload bridge. It cannot open other windows, navigate away from our page, or ask for permissions.
 * docs/electron-security.md says why each setting is there.
 */
import { BrowserWindow, shell, type Session } from 'electron';
import { CONTENT_SECURITY_POLICY } from './csp.ts';
import { isAwsDocumentation } from './external-links.ts';
import type { RendererLocation } from './renderer-location.ts';

export interface MainWindowOptions {
  /** The built preload, `out/preload/index.cjs`. */
  preloadPath: string;
  location: RendererLocation;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1360,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Keyplan',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      // No `auxclick` events for the page: a middle-click cannot be turned into a navigation or a new
      // window by script. The default action of a middle-click on a link still reaches the window open
      // handler below, which denies it.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  hardenSession(window.webContents.session, options.location);
  const { webContents } = window;
  // Every new window is denied: window.open, target=_blank, and middle- or Ctrl/Cmd-clicks on links
  // all arrive here. Derivations cite AWS documentation: those pages (and only those) open in the
  // user's browser instead.
  webContents.setWindowOpenHandler(({ url }) => {
    if (isAwsDocumentation(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const blockForeign = (event: { preventDefault(): void }, url: string) => {
    if (!options.location.isOurs(url)) event.preventDefault();
  };
  webContents.on('will-navigate', blockForeign);
  webContents.on('will-redirect', blockForeign);
  webContents.on('will-attach-webview', (event) => event.preventDefault());
  window.once('ready-to-show', () => window.show());

  const location = options.location;
  void (location.kind === 'devServer' ? window.loadURL(location.url) : window.loadFile(location.indexHtml));
  return window;
}

/** No permission (camera, notifications, ...) is ever granted; dev-server pages get the CSP header too. */
function hardenSession(session: Session, location: RendererLocation): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  if (location.kind !== 'devServer') return; // file:// pages have no headers: the meta tag in index.html applies
  session.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders = { ...details.responseHeaders };
    if (location.isOurs(details.url)) responseHeaders['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
    callback({ responseHeaders });
  });
}
