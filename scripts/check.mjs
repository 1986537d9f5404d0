/**
 * `npm run check`: the edit-test loop. Typecheck, lint and the unit tests of what changed since the
 * branch left `main` (committed or not, untracked included); `npm test` stays the full check.
 *
 *   node scripts/check.mjs [--base REF]   REF defaults to the merge-base of HEAD and main
 *
 * Tests run for a changed file: itself if it is a test; else its own tests (`name.test.ts`,
 * `name.*.test.ts`) and the test files that import it directly or through its folder's `index.ts`.
 * A changed source file with none of those runs its folder's tests. (`vitest --changed` follows the
 * whole import graph and selected nearly every test for a one-file change.)
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

const baseArg = process.argv.indexOf('--base');
/** Where the branch left main; HEAD itself (uncommitted changes only) where there is no main. */
function mergeBase() {
  try {
    return git('merge-base', 'HEAD', 'main')[0];
  } catch {
    return 'HEAD';
  }
}
const base = baseArg > 0 ? process.argv[baseArg + 1] : mergeBase();
const changed = [...new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')])].filter((f) =>
  existsSync(join(root, f)),
);

const SOURCE = /\.(ts|svelte|mjs|js)$/;
const isTest = (f) => f.endsWith('.test.ts');
const tracked = git('ls-files', '--cached', '--others', '--exclude-standard');
const testFiles = tracked.filter((f) => isTest(f) && !f.startsWith('e2e/') && !f.includes('__fixtures__') && !f.startsWith('tests/fixtures/'));

/** Relative import specifiers of a file, resolved to repository paths. */
function importsOf(file) {
  const text = readFileSync(join(root, file), 'utf8');
  const found = new Set();
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    found.add(relative(root, resolve(root, dirname(file), m[1])));
  }
  return found;
}

const importCache = new Map();
const importsOfCached = (f) => importCache.get(f) ?? importCache.set(f, importsOf(f)).get(f);

function testsFor(file) {
  if (isTest(file)) return [file];
  const dir = dirname(file);
  const stem = basename(file).replace(/\.(svelte\.ts|ts|svelte)$/, '');
  const own = testFiles.filter((t) => dirname(t) === dir && (basename(t) === `${stem}.test.ts` || basename(t).startsWith(`${stem}.`)));
  const index = join(dir, 'index.ts');
  const targets = new Set([file]);
  if (existsSync(join(root, index)) && index !== file && importsOfCached(index).has(file)) targets.add(index);
  const importers = testFiles.filter((t) => [...importsOfCached(t)].some((i) => targets.has(i)));
  const selected = new Set([...own, ...importers]);
  if (selected.size === 0 && /^src-(shared|main|renderer)\//.test(file)) for (const t of testFiles) if (dirname(t) === dir) selected.add(t);
  return [...selected];
}

const sources = changed.filter((f) => SOURCE.test(f));
const tests = [...new Set(sources.flatMap(testsFor))].sort();

/** Runs a command, resolving with its exit code and the seconds it took. */
function run(name, command, args) {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n== ${name}: ${code === 0 ? 'ok' : 'FAILED'} (${seconds} s)\n${code === 0 ? '' : output}`);
      done(code ?? 1);
    });
  });
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
const renderer = changed.some((f) => f.startsWith('src-renderer/') || f === 'svelte.config.js');
const lintAll = changed.some((f) => f === 'eslint.config.js' || f === 'scripts/lint-rules.mjs');
const lintable = lintAll ? ['.'] : sources;

console.log(`Changed since ${base.slice(0, 10)}: ${changed.length} file(s); unit tests selected: ${tests.length}`);
const started = performance.now();
// tsc and eslint are single-threaded: on two cores they run side by side.
const typecheck = (async () => {
  let code = await run('typecheck src-shared, src-main', bin('tsc'), ['-b', 'src-shared', 'src-main']);
  code ||= await run('typecheck tests, e2e, configs', bin('tsc'), ['-p', 'tsconfig.json']);
  if (renderer) {
    code ||= await run('svelte-check src-renderer', bin('svelte-check'), ['--tsconfig', './src-renderer/tsconfig.json', '--fail-on-warnings']);
  }
  return code;
})();
const lint = lintable.length
  ? run(`eslint ${lintAll ? '(all files: the lint config changed)' : `${lintable.length} file(s)`}`, bin('eslint'), [
      '--cache',
      '--cache-location',
      'node_modules/.cache/eslint/',
      '--no-warn-ignored',
      ...lintable,
    ])
  : 0;
const unit = tests.length ? run(`vitest ${tests.length} file(s)`, bin('vitest'), ['run', ...tests]) : 0;
const codes = await Promise.all([typecheck, lint, unit]);
const failed = codes.some((c) => c !== 0);
console.log(`\nnpm run check ${failed ? 'FAILED' : 'passed'} in ${((performance.now() - started) / 1000).toFixed(0)} s (npm test is the full check).`);
process.exitCode = failed ? 1 : 0;
