import { describe, expect, test } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../src-shared/ipc/index.ts';
import { createMenuTemplate } from './menu.ts';

function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
}

const production = { isDevelopmentBuild: false, platform: 'linux' };
const development = { isDevelopmentBuild: true, platform: 'linux' };

describe('the application menu', () => {
  test.each([
    ['New', 'CmdOrCtrl+N', 'new'],
    ['Open…', 'CmdOrCtrl+O', 'open'],
    ['Save', 'CmdOrCtrl+S', 'save'],
    ['Save As…', 'CmdOrCtrl+Shift+S', 'saveAs'],
    ['Undo', 'CmdOrCtrl+Z', 'undo'],
    ['Redo', 'CmdOrCtrl+Shift+Z', 'redo'],
  ])('%s (%s) sends the %s command to the window', (label, accelerator, command) => {
    const sent: MenuCommand[] = [];
    const item = items(createMenuTemplate((c) => sent.push(c), production)).find((i) => i.label === label);
    expect(item?.accelerator).toBe(accelerator);
    (item?.click as () => void)();
    expect(sent).toEqual([command]);
  });

  test("leaves undo and redo to the app's own stack (no undo/redo roles)", () => {
    const roles = items(createMenuTemplate(() => {}, production)).map((i) => i.role);
    expect(roles).not.toContain('undo');
    expect(roles).not.toContain('redo');
    expect(roles).toEqual(expect.arrayContaining(['quit', 'copy', 'paste', 'resetZoom', 'zoomIn', 'zoomOut']));
  });

  test.each(['linux', 'darwin', 'win32'])('a production build on %s has no developer tools, reload or force-reload', (platform) => {
    const roles = items(createMenuTemplate(() => {}, { isDevelopmentBuild: false, platform })).map((i) => i.role?.toLowerCase());
    expect(roles).not.toContain('toggledevtools');
    expect(roles).not.toContain('reload');
    expect(roles).not.toContain('forcereload');
  });

  test('a development build has the developer tools, reload and force-reload in the View menu', () => {
    const view = createMenuTemplate(() => {}, development).find((i) => i.label === 'View');
    const roles = (view?.submenu as MenuItemConstructorOptions[]).map((i) => i.role);
    expect(roles).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']));
  });
});
