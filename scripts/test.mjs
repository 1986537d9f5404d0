/**
 * `npm test`: every check, the quick ones side by side. The typecheck, the lint, the Electron audit and
 * the build are single-threaded tools that do not depend on one another, so they run two at a time
 * (each one's output printed whole when it ends); then the unit tests and the e2e, which use every core
 * themselves and need the build. It stops at the first failure and prints each step's wall time.
 *
 *   node scripts/test.mjs
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Side by side; the typecheck first, as the longest. */
const QUICK = ['typecheck', 'lint', 'build', 'audit:electron'];
/** In turn, each with the whole machine. */
const LONG = ['unit', 'e2e'];

const times = [];

/** Runs `npm run <script>`; with `buffered`, its output is printed in one piece when it ends. */
function run(script, buffered) {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(npm, ['run', '-s', script], { cwd: root, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    if (buffered) {
      child.stdout.on('data', (c) => output.push(c));
      child.stderr.on('data', (c) => output.push(c));
    }
    child.on('close', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      times.push({ script, seconds });
      if (buffered) {
        process.stdout.write(`\n> npm run ${script} (${seconds.toFixed(1)} s)\n`);
        process.stdout.write(Buffer.concat(output));
      }
      done(code === 0 ? 0 : (code ?? (signal ? 1 : 0)));
    });
  });
}

function summary(failed) {
  const lines = times.map((t) => `  ${t.script.padEnd(15)} ${t.seconds.toFixed(1).padStart(7)} s`);
  const total = (performance.now() - began) / 1000;
  process.stdout.write(`\nnpm test ${failed ? `failed at ${failed}` : 'passed'} in ${(total / 60).toFixed(1)} min:\n${lines.join('\n')}\n`);
}

const began = performance.now();
const lanes = Math.min(QUICK.length, Math.max(2, Math.floor(availableParallelism() / 2)));
const queue = [...QUICK];
let failed;
await Promise.all(
  Array.from({ length: lanes }, async () => {
    while (queue.length > 0 && failed === undefined) {
      const script = queue.shift();
      if ((await run(script, true)) !== 0) failed ??= script;
    }
  }),
);
for (const script of LONG) {
  if (failed !== undefined) break;
  process.stdout.write(`\n> npm run ${script}\n`);
  if ((await run(script, false)) !== 0) failed = script;
}
summary(failed);
process.exitCode = failed === undefined ? 0 : 1;
