/**
 * The Electron main process: lifecycle only. One instance; one window; the handlers served over IPC;
 * the application menu sending commands to the window.
 */
/// <reference types="electron-vite/node" />
import { app, BrowserWindow, ipcMain, Menu } from 'electron';
import { join } from 'node:path';
import { createElectronDialogs } from './dialogs.ts';
import { createElectronHandlers } from './host.ts';
import { createMenuTemplate } from './menu.ts';
import { closeAllRuns, hasActiveRuns } from './run/service.ts';
import { createEventRelay } from './tasks/event-relay.ts';
import { resolveRendererLocationForBuild } from './renderer-location.ts';
import { registerElectronTransport } from './transports/electron.ts';
import { createMainWindow } from './window.ts';

// Built to out/main/index.js: the preload and renderer are its siblings under out/.
const outDir = join(import.meta.dirname, '..');
// Vite replaces import.meta.env.DEV with a constant: `false` in every `electron-vite build`, so a built
// (and packaged) Keyplan never loads a page named by the environment.
const isDevelopmentBuild = import.meta.env.DEV && !app.isPackaged;
const location = resolveRendererLocationForBuild({ isDevelopmentBuild, env: process.env, rendererDir: join(outDir, 'renderer') });
let mainWindow: BrowserWindow | undefined;

// Tests (and a user who wants a second, separate workspace) point the app at another data folder.
if (process.env.KEYPLAN_USER_DATA) app.setPath('userData', process.env.KEYPLAN_USER_DATA);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // A run going when the app quits is canceled first, and removes the tables it created.
  let runsClosed = false;
  app.on('before-quit', (event) => {
    if (runsClosed || !hasActiveRuns()) return;
    event.preventDefault();
    void closeAllRuns().finally(() => {
      runsClosed = true;
      app.quit();
    });
  });
  void app.whenReady().then(start);
}

function start(): void {
  const events = createEventRelay();
  const handlers = createElectronHandlers({
    events,
    taskWorker: join(import.meta.dirname, 'task-worker.js'),
    version: app.getVersion(),
    examplesDir: join(app.getAppPath(), 'examples'),
    userDataDir: app.getPath('userData'),
    dialogs: createElectronDialogs(() => mainWindow),
  });
  const transport = registerElectronTransport({
    ipcMain,
    handlers,
    getWebContents: () => mainWindow?.webContents,
    isOurUrl: location.isOurs,
  });
  events.attach(transport);
  Menu.setApplicationMenu(Menu.buildFromTemplate(createMenuTemplate((command) => transport.emit('menu.command', { command }), { isDevelopmentBuild })));
  const open = () => {
    mainWindow = createMainWindow({ preloadPath: join(outDir, 'preload', 'index.cjs'), location });
    mainWindow.on('closed', () => (mainWindow = undefined));
  };
  open();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open();
  });
}
