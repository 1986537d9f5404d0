#!/usr/bin/env node
/**
 * `npm start`: builds Keyplan, then runs the Electron desktop app when its binary is installed
 * (trying once to fetch it when it is not), and browser mode otherwise.
 * `npm run web` (`--web`): always browser mode.
 *
 *   node scripts/start.mjs [--web] [--no-build] [browser-mode flags: --port N --no-open --workspace DIR --data-dir DIR]
 *
 * Environment: KEYPLAN_NO_ELECTRON_FETCH=1 (or CI) never tries to download Electron.
 */
import { spawn, spawnSync } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = join(root, 'node_modules', 'electron');
const FETCH_TIMEOUT_MS = 20_000;
/** After a failed download, `npm start` does not try again for a day (each try can cost 20 s). */
const FETCH_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
const fetchMarker = join(root, 'node_modules', '.cache', 'keyplan', 'electron-fetch-failed.json');

const args = process.argv.slice(2);
const webOnly = args.includes('--web');
const passThrough = args.filter((a) => a !== '--web' && a !== '--no-build');
const say = (message) => console.log(`[keyplan] ${message}`);
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

if (!args.includes('--no-build')) build();
if (webOnly) runBrowserMode();
else {
  const electron = electronBinary() ?? (await fetchElectron());
  if (electron) run(bin('electron'), ['.'], 'the Electron app');
  else runBrowserMode();
}

function build() {
  say('Building (electron-vite build)…');
  const result = spawnSync(bin('electron-vite'), ['build'], { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    say(`The build failed${result.error ? ` (${result.error.message})` : ''}; see the output above.`);
    process.exit(result.status ?? 1);
  }
}

/** The installed Electron executable, as `require('electron')` would find it, or undefined. */
function electronBinary() {
  try {
    const executable = join(electronDir, 'dist', readFileSync(join(electronDir, 'path.txt'), 'utf8').trim());
    return existsSync(executable) ? executable : undefined;
  } catch {
    return undefined;
  }
}

/** Runs Electron's own installer once, with a hard time limit; returns the binary if it now exists. */
async function fetchElectron() {
  if (process.env.KEYPLAN_NO_ELECTRON_FETCH === '1' || process.env.CI) {
    say('Electron is not installed and downloading it is turned off (KEYPLAN_NO_ELECTRON_FETCH or CI): using browser mode.');
    return undefined;
  }
  const lastFailure = readLastFailure();
  if (lastFailure) {
    say(`Electron is not installed; its download failed ${lastFailure.at} (${lastFailure.reason}), so browser mode is used. Delete ${fetchMarker} to try again.`);
    return undefined;
  }
  const unreachable = process.env.ELECTRON_MIRROR ? undefined : await checkReachable('github.com', 443);
  // Unreachable is known at once: nothing to remember, the next start simply checks again.
  if (unreachable) return fetchFailed(`github.com is not reachable: ${unreachable}`, false);
  say(`Electron is not installed: downloading it once (at most ${FETCH_TIMEOUT_MS / 1000} s)…`);
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD; // the installer does nothing while it is set
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], { cwd: electronDir, env, encoding: 'utf8', timeout: FETCH_TIMEOUT_MS });
  if (result.error?.code === 'ETIMEDOUT') return fetchFailed(`no answer within ${FETCH_TIMEOUT_MS / 1000} s`);
  const binary = electronBinary();
  if (binary) return binary;
  const reason = `${result.stderr ?? ''}`.split('\n').find((line) => /error|ENOTFOUND|ECONN|EAI_AGAIN|ETIMEDOUT/i.test(line));
  return fetchFailed(reason?.trim() ?? `the installer exited with ${result.status}`);
}

/** Reports a failed download; `remember` keeps slow failures (timeouts) from costing every start. */
function fetchFailed(reason, remember = true) {
  say(`Could not download Electron (${reason}): using browser mode.`);
  if (!remember) return undefined;
  try {
    mkdirSync(dirname(fetchMarker), { recursive: true });
    writeFileSync(fetchMarker, JSON.stringify({ at: new Date().toISOString(), reason }));
  } catch {
    // Not remembering the failure only means trying again next time.
  }
  return undefined;
}

function readLastFailure() {
  try {
    const failure = JSON.parse(readFileSync(fetchMarker, 'utf8'));
    return Date.now() - Date.parse(failure.at) < FETCH_RETRY_AFTER_MS ? failure : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves to undefined when a TCP connection to host:port opens within 3 s, else to why not. */
async function checkReachable(host, port) {
  try {
    const { address } = await lookup(host);
    return await new Promise((resolve) => {
      const socket = connect({ host: address, port, timeout: 3000 });
      socket.once('connect', () => (socket.destroy(), resolve(undefined)));
      socket.once('timeout', () => (socket.destroy(), resolve('no answer within 3 s')));
      socket.once('error', (error) => resolve(error.code ?? error.message));
    });
  } catch (error) {
    return error.code ?? error.message;
  }
}

function runBrowserMode() {
  run(process.execPath, [join(root, 'out', 'main', 'web.js'), ...passThrough], 'browser mode');
}

/** Runs the app in the foreground; Ctrl+C reaches it directly, and this exits with its code. */
function run(command, commandArgs, what) {
  say(`Starting ${what}.`);
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' && command.endsWith('.cmd') });
  // The terminal sends Ctrl+C to the child as well: wait for it to close cleanly instead of dying first.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('error', (error) => {
    say(`Could not start ${what}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
