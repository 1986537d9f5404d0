/**
 * The application menu. File and Edit commands are sent to the window as `menu.command` events: the
 * app's own undo stack handles Undo/Redo (so no `role: 'undo'`), and the UI decides what Save means.
 * Reload and the developer tools are there in a development build only: a user has no need of them,
 * and the developer tools would open a console on the one page that holds the bridge to the host
 * (files, dialogs, the engine).
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../src-shared/ipc/index.ts';

/** Reload, force-reload and the developer tools: development builds only. */
const developmentItems: MenuItemConstructorOptions[] = [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }];

export interface MenuOptions {
  /** From the build (`import.meta.env.DEV`), never from the environment at run time. */
  isDevelopmentBuild: boolean;
  platform?: string;
}

/** The menu template (pure, so it is testable without Electron); `send` delivers a command to the window. */
export function createMenuTemplate(send: (command: MenuCommand) => void, options: MenuOptions): MenuItemConstructorOptions[] {
  const platform = options.platform ?? process.platform;
  const command = (label: string, accelerator: string, name: MenuCommand): MenuItemConstructorOptions => ({
    label,
    accelerator,
    click: () => send(name),
  });
  const isMac = platform === 'darwin';
  return [
    ...(isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    {
      label: 'File',
      submenu: [
        command('New', 'CmdOrCtrl+N', 'new'),
        command('Open…', 'CmdOrCtrl+O', 'open'),
        { type: 'separator' },
        command('Save', 'CmdOrCtrl+S', 'save'),
        command('Save As…', 'CmdOrCtrl+Shift+S', 'saveAs'),
        { type: 'separator' },
        command('Import…', 'CmdOrCtrl+I', 'import'),
        command('Export…', 'CmdOrCtrl+E', 'export'),
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        command('Undo', 'CmdOrCtrl+Z', 'undo'),
        command('Redo', 'CmdOrCtrl+Shift+Z', 'redo'),
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        ...(options.isDevelopmentBuild ? developmentItems : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
      ],
    },
  ];
}
