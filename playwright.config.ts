import { defineConfig } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Electron binary, when its package has downloaded it (never on this project's CI machines). */
function electronBinary(): string | undefined {
  const dir = join(import.meta.dirname, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}
const electron = electronBinary();

/**
 * e2e runs the built UI in Debian's Chromium against the real host in browser mode (`out/main/web.js`),
 * one host per test with its own temporary workspace. Playwright never downloads a browser here.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results/artifacts',
  fullyParallel: true,
  // Two outright: Playwright's default is half the cores, one worker on this project's 2-core machines,
  // where a test mostly waits on its host and the browser rather than using a core of its own.
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'test-results/report' }]],
  use: {
    screenshot: 'only-on-failure',
    // No trace by default: recording one (DOM snapshots and a screencast of every step, for every test,
    // kept or not) doubled Chromium's CPU time on json.spec.ts (80 s against 39 s), and e2e is bound by
    // CPU on a 2-core machine. To trace a failing test: `npx playwright test <spec> --trace on`.
    trace: 'off',
    launchOptions: {
      executablePath: process.env.KEYPLAN_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    viewport: { width: 1400, height: 900 },
  },
  projects: [
    { name: 'web', testIgnore: 'electron.spec.ts' },
    // The desktop app itself, where an Electron binary is installed (a developer laptop with internet).
    ...(electron ? [{ name: 'electron', testMatch: 'electron.spec.ts', metadata: { electron } }] : []),
  ],
});
