/**
 * The desktop app: the real Electron main process, preload and window. Runs only where the Electron
 * binary is installed (playwright.config.ts adds this project then).
 */
import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KeyplanPage } from './pages/keyplan.ts';

const root = resolve(import.meta.dirname, '..');

type Bridge = { invoke(channel: string, input: unknown): Promise<unknown> };
declare global {
  interface Window {
    keyplan?: Bridge;
  }
}

test('the desktop window is sandboxed and exposes only the contract bridge', async ({}, info) => {
  const userData = await mkdtemp(join(tmpdir(), 'keyplan-electron-'));
  const app = await electron.launch({
    executablePath: info.project.metadata.electron as string,
    args: [root],
    env: { ...process.env, KEYPLAN_USER_DATA: userData },
  });
  try {
    const win = await app.firstWindow();
    const page = new KeyplanPage(win);
    await page.ready();

    const globals = await win.evaluate(() => ({
      bridge: Object.keys(window.keyplan ?? {}).sort(),
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
    }));
    expect(globals).toEqual({ bridge: ['invoke', 'subscribe'], require: 'undefined', process: 'undefined' });
    const refused = await win.evaluate(() => window.keyplan!.invoke('fs.readFile', { path: '/etc/passwd' }));
    expect(refused).toMatchObject({ ok: false, error: { code: 'ipc.unknownChannel' } });

    await page.newDesign();
    await page.show('Entities & keys');
    await page.addEntity('User');
    await page.template('PK').fill('USER#{userId}');
    await expect(page.preview('PK')).toContainText('USER#');
    await page.storedLocally();
    await win.screenshot({ path: join(root, 'test-results', 'screenshots', 'electron', 'window.png') });
  } finally {
    await app.close();
    await rm(userData, { recursive: true, force: true });
  }
});
