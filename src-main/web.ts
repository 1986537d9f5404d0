/**
 * Browser mode: the same host as the desktop app, serving the built UI and the contract on
 * 127.0.0.1, opened in Chromium's app mode when one is installed. No Electron here.
 *
 *   node out/main/web.js [--port N] [--no-open] [--workspace DIR] [--data-dir DIR]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createBrowserHandlers } from './host.ts';
import { createEventRelay } from './tasks/event-relay.ts';
import { startWebHost, type WebHost } from './transports/websocket.ts';

/**
 * The port tried first: a fixed origin keeps the browser's IndexedDB (the user's open designs and
 * autosaves) across restarts. When it is busy a random port is used.
 */
const PREFERRED_PORT = 47615;
const CHROMIUM_FLAGS = ['--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];

// Built to out/main/web.js: the renderer is out/renderer, the repository root two levels up.
const here = import.meta.dirname;
const repoRoot = resolve(here, '..', '..');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'no-open': { type: 'boolean', default: false },
      workspace: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log('Usage: node out/main/web.js [--port N (0 = random)] [--no-open] [--workspace DIR] [--data-dir DIR]');
    return;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new Error(`--port must be a whole number from 0 to 65535; received "${values.port}".`);
  }
  const workspaceDir = resolve(values.workspace ?? process.env.KEYPLAN_WORKSPACE ?? join(homedir(), 'Keyplan'));
  const dataDir = resolve(values['data-dir'] ?? join(workspaceDir, '.keyplan'));
  const events = createEventRelay();
  const handlers = await createBrowserHandlers({
    workspaceDir,
    dataDir,
    examplesDir: join(repoRoot, 'examples'),
    version: readVersion(),
    events,
    taskWorker: join(here, 'task-worker.js'),
  });
  const start = (p: number) => startWebHost({ handlers, port: p, staticDir: join(here, '..', 'renderer') });

  let host: WebHost;
  if (port !== undefined) host = await start(port);
  else {
    try {
      host = await start(PREFERRED_PORT);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      host = await start(0);
      console.log(`Port ${PREFERRED_PORT} is busy, so a random port is used: designs kept in the browser from earlier runs are not visible on it.`);
    }
  }
  events.attach(host);
  console.log(`Keyplan is running at ${host.url}`);
  console.log(`Workspace folder: ${workspaceDir}`);

  const browser = values['no-open'] ? undefined : openBrowser(host.url, dataDir);
  console.log('Press Ctrl+C to stop.');

  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1); // a second Ctrl+C does not wait
    stopping = true;
    if (browser && browser.exitCode === null) browser.kill();
    void host.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Opens the URL in Chromium's app mode with a profile of its own, so IndexedDB persists there. */
function openBrowser(url: string, dataDir: string): ChildProcess | undefined {
  const executable = findChromium();
  if (executable === undefined) {
    console.log('No Chromium or Chrome found: open the URL above in a Chromium-based browser.');
    return undefined;
  }
  const args = [`--app=${url}`, `--user-data-dir=${join(dataDir, 'chromium-profile')}`, ...CHROMIUM_FLAGS];
  // Chromium refuses to start as root with its sandbox on (containers, CI).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const child = spawn(executable, args, { stdio: 'ignore' });
  child.on('error', (error) => console.log(`Could not start ${executable} (${error.message}): open the URL above yourself.`));
  console.log(`Opening it in ${executable}.`);
  return child;
}

function findChromium(): string | undefined {
  const fromEnv = process.env.KEYPLAN_CHROMIUM;
  if (fromEnv) return fromEnv;
  if (isExecutable('/usr/bin/chromium')) return '/usr/bin/chromium';
  const folders = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const folder of folders) if (isExecutable(join(folder, name))) return join(folder, name);
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function readVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

main().catch((error: unknown) => {
  console.error(`Keyplan could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
