/**
 * Browser mode: the same host as the desktop app, serving the built UI and the contract on
 * 127.0.0.1, opened in Chromium's app mode when one is installed. No Electron here.
 *
 *   node out/main/web.js [--port N] [--no-open] [--workspace DIR] [--data-dir DIR]
 *
 * Keyplan opens only through a single-use link (docs/browser-mode-security.md): the Chromium it
 * starts gets one good for 30 seconds; otherwise one good for 10 minutes is printed; Enter in the
 * terminal prints a fresh one while the host runs.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, fstatSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { realpath } from 'node:fs/promises';
import { ensurePrivateFolder, resolveDataDir, workspaceDataDir } from './files/data-folder.ts';
import { createBrowserHandlers } from './host.ts';
import { closeAllRuns } from './run/service.ts';
import { createEventRelay } from './tasks/event-relay.ts';
import { LAUNCH_TICKET_TTL_MS, PRINTED_LINK_TTL_MS, startWebHost, type WebHost } from './transports/websocket.ts';

/**
 * The port tried first: a fixed origin keeps the browser's IndexedDB (the user's open designs and
 * autosaves) across restarts. When it is busy a random port is used.
 */
const PREFERRED_PORT = 47615;
const CHROMIUM_FLAGS = ['--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];

const PRINTED_LINK_MINUTES = PRINTED_LINK_TTL_MS / 60_000;
const HELP = `Usage: node out/main/web.js [--port N] [--no-open] [--workspace DIR] [--data-dir DIR]

  --port N          the port on 127.0.0.1 (0 = random). Default ${PREFERRED_PORT}, or a random one when it is busy.
  --no-open         start no browser; print a link to open instead.
  --workspace DIR   where design files are read and written (default ~/Keyplan, or $KEYPLAN_WORKSPACE).
  --data-dir DIR    your own data: recent files, run journals and the Chromium profile, one
                    subfolder per workspace (default $KEYPLAN_DATA_DIR, else ~/.local/share/keyplan,
                    ~/Library/Application Support/Keyplan or %APPDATA%\\Keyplan). Never inside the
                    workspace: a workspace is shared, and Keyplan reads nothing of its own from it.

Keyplan opens only through a single-use link:
  - the Chromium window Keyplan starts gets one that expires in ${LAUNCH_TICKET_TTL_MS / 1000} seconds;
  - a printed link (--no-open, or no Chromium found) expires in ${PRINTED_LINK_MINUTES} minutes.
Opening a link gives that browser a session token, so reloads and new tabs keep working.
While Keyplan runs, press Enter in this terminal to print a fresh link (for another browser,
or after closing the window).

Environment: KEYPLAN_CHROMIUM=PATH picks the browser; KEYPLAN_WORKSPACE sets the workspace;
KEYPLAN_DATA_DIR sets the data folder.`;

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
    console.log(HELP);
    return;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new Error(`--port must be a whole number from 0 to 65535; received "${values.port}".`);
  }
  const workspaceDir = resolve(values.workspace ?? process.env.KEYPLAN_WORKSPACE ?? join(homedir(), 'Keyplan'));
  const dataDir = resolveDataDir(values['data-dir']);
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
  const printLink = () => console.log(`Fresh link (opens Keyplan once, within ${PRINTED_LINK_MINUTES} minutes): ${host.issueLink(PRINTED_LINK_TTL_MS)}`);
  const chromium = values['no-open'] ? undefined : findChromium();
  let browser: ChildProcess | undefined;
  if (chromium !== undefined) {
    console.log(`Keyplan is running at ${host.origin}/`);
    // One profile per workspace, as before: IndexedDB (open designs, autosaves) stays with its workspace.
    const profileDir = await ensurePrivateFolder(dataDir, workspaceDataDir(dataDir, await realpath(workspaceDir)));
    browser = openBrowser(chromium, host.issueLink(LAUNCH_TICKET_TTL_MS), profileDir, printLink);
  } else {
    if (!values['no-open']) console.log('No Chromium or Chrome found: open the link below in a Chromium-based browser.');
    console.log(`Keyplan is running at ${host.issueLink(PRINTED_LINK_TTL_MS)}`);
    console.log(`That link opens Keyplan once, within ${PRINTED_LINK_MINUTES} minutes; the browser it opens in keeps a session for reloads and new tabs.`);
  }
  console.log(`Workspace folder: ${workspaceDir}`);
  console.log(`Data folder: ${dataDir}`);
  const hearsEnter = onEnter(printLink);
  console.log(hearsEnter ? 'Press Enter for a fresh single-use link, Ctrl+C to stop.' : 'Press Ctrl+C to stop.');

  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1); // a second Ctrl+C does not wait
    stopping = true;
    if (browser && browser.exitCode === null) browser.kill();
    // A run going is canceled first, and removes the tables it created.
    void closeAllRuns()
      .then(() => host.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * Opens `link` in Chromium's app mode with a profile of its own, so IndexedDB persists there. The
 * link is on Chromium's command line, which every local user can read (`ps`): it is a launch ticket,
 * used by the page within a second and expired after 30 s, never the session credential.
 */
function openBrowser(executable: string, link: string, dataDir: string, printLink: () => void): ChildProcess {
  const args = [`--app=${link}`, `--user-data-dir=${join(dataDir, 'chromium-profile')}`, ...CHROMIUM_FLAGS];
  // Chromium refuses to start as root with its sandbox on (containers, CI).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const child = spawn(executable, args, { stdio: 'ignore' });
  child.on('error', (error) => {
    console.log(`Could not start ${executable} (${error.message}): open this link in a Chromium-based browser yourself.`);
    printLink();
  });
  console.log(`Opening it in ${executable}.`);
  return child;
}

/**
 * Calls `listener` for each line read from stdin, when stdin is a terminal or a pipe (not a file or
 * /dev/null); returns whether it listens. A terminal is read only while this process is in its
 * foreground: a background job that reads its terminal is stopped by the system (SIGTTIN), and the
 * host with it. `npm run web &` therefore prints no fresh links until `fg`.
 */
function onEnter(listener: () => void): boolean {
  let info;
  try {
    info = fstatSync(0);
  } catch {
    return false;
  }
  const isTerminal = process.stdin.isTTY === true;
  if (!isTerminal && !info.isFIFO() && !info.isSocket()) return false;
  let lines: ReturnType<typeof createInterface> | undefined;
  const listen = () => {
    lines ??= createInterface({ input: process.stdin, terminal: false }).on('line', listener);
    lines.resume();
  };
  process.stdin.on('error', () => lines?.close()); // a closed terminal: no more Enter to hear
  if (!isTerminal) listen();
  else {
    // Not even created while in the background: the first read would stop the process.
    const follow = () => (isForegroundJob() ? listen() : lines?.pause());
    follow();
    process.on('SIGCONT', follow); // after Ctrl+Z, then `bg` or `fg`
  }
  return true;
}

/** Whether this process is in its terminal's foreground process group (unknown: no, so it never reads). */
function isForegroundJob(): boolean {
  if (process.platform === 'win32') return true; // no job control there
  try {
    // /proc/self/stat: "pid (comm) state ppid pgrp session tty_nr tpgid ..."
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return fields[2] !== undefined && fields[2] === fields[5];
  } catch {
    try {
      const [pgid, tpgid] = execFileSync('ps', ['-o', 'pgid=,tpgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim().split(/\s+/);
      return pgid !== undefined && pgid === tpgid;
    } catch {
      return false;
    }
  }
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
