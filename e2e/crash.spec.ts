/**
 * An edit visible on screen survives a hard kill of the browser: Chromium is started by hand with a
 * profile folder of its own (Playwright cannot kill -9 the browser it launches), driven over CDP,
 * killed with SIGKILL 50 ms after an edit, and started again on the same profile.
 */
import { chromium, type Browser } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';

const CHROMIUM = process.env.KEYPLAN_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Starts Chromium on `profile` and connects to it; resolves once its DevTools endpoint answers. */
async function startChromium(profile: string): Promise<{ child: ChildProcess; browser: Browser }> {
  const child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Chromium did not start:\n${output}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`Chromium exited with ${code}:\n${output}`)));
  });
  return { child, browser: await chromium.connectOverCDP(endpoint) };
}

test('an edit made 50 ms before the browser is killed is there after a restart', async ({ host }) => {
  const profile = await mkdtemp(join(tmpdir(), 'keyplan-crash-profile-'));
  try {
    const first = await startChromium(profile);
    const page = await first.browser.contexts()[0]!.newPage();
    const app = new KeyplanPage(page);
    await app.open(host.url);
    await app.newDesign();
    await app.storedLocally();

    await app.designName.fill('Typed just before the crash');
    await expect(app.designName).toHaveValue('Typed just before the crash');
    // The issue's own scenario: the edit is on screen (checked above), and 50 ms later the browser dies.
    // A fixed delay on purpose: the point is how little time the journal gets, not waiting for a state.
    await page.waitForTimeout(50);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    await first.browser.close().catch(() => undefined);

    const second = await startChromium(profile);
    try {
      const again = new KeyplanPage(await second.browser.contexts()[0]!.newPage());
      await again.open(await host.freshUrl());
      await expect(again.designName).toHaveValue('Typed just before the crash');
    } finally {
      second.child.kill('SIGKILL');
      await second.browser.close().catch(() => undefined);
    }
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
});
