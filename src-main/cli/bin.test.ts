/**
 * The real `keyplan` bin, started as `npx keyplan` starts it: `node bin/keyplan.mjs`, output on the
 * process's streams, the exit code on the process. It runs the bundle `npm run build` writes while
 * that bundle is current and the TypeScript sources (through tsx) otherwise; either way the code of
 * the checkout as it is now.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BUNDLE_ENTRY, currentBundle, fingerprintOf, MANIFEST_FILE } from '../../bin/cli-bundle.mjs';
import { buildCli } from '../../scripts/build-cli.mjs';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const root = resolve(import.meta.dirname, '../..');
const EXAMPLE = 'examples/ecommerce.keyplan.json';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function spawnNode(args: string[], env: Record<string, string> = {}, cwd = root): Promise<Run> {
  return new Promise((done) => {
    // Neither variable leaks in from the shell that runs the tests.
    const base = { ...process.env, KEYPLAN_CLI_SOURCE: '', KEYPLAN_CLI_BUNDLE_DIR: '' };
    execFile(process.execPath, args, { cwd, env: { ...base, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

const keyplanBin = (args: string[], env: Record<string, string> = {}, cwd = root) => spawnNode([join(root, 'bin/keyplan.mjs'), ...args], env, cwd);
/** The TypeScript sources, whatever bundle there is. */
const fromSources = (args: string[], cwd = root) => keyplanBin(args, { KEYPLAN_CLI_SOURCE: '1' }, cwd);

describe('bin/keyplan.mjs', { timeout: 120_000 }, () => {
  test('cost --json on the example: exit 0 and the documented JSON on stdout', async () => {
    const run = await keyplanBin(['cost', EXAMPLE, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.patterns).toHaveLength(11);
    expect(json.patterns[0]).toMatchObject({ id: 'ap-get-user', operation: 'GetItem', rcuPerRequest: 0.5, requestsPerSecond: 500 });
    expect(typeof json.totals.monthlyUsd.onDemand).toBe('number');
  });

  test('check on a missing file: one line on stderr, exit 1', async () => {
    const run = await keyplanBin(['check', 'nope.keyplan.json']);
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'keyplan: cannot read "nope.keyplan.json": no such file\n' });
  });

  test('an unknown command: exit 2', async () => {
    const run = await keyplanBin(['price']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^keyplan: unknown command "price"; .*\n$/);
  });
});

/**
 * Which code the bin runs, shown with a stand-in bundle whose `main` only says it ran: the bundle
 * when every file in its sources.json is as listed, the sources in every other case.
 */
describe('bin/keyplan.mjs: the bundle or the sources', { timeout: 120_000 }, () => {
  const STAND_IN = `export async function main(args, io) { io.stdout.write('stand-in bundle: ' + args.join(' ') + '\\n'); return 7; }\n`;

  async function standInBundle(sources: Record<string, unknown> | undefined): Promise<string> {
    const dir = await makeTempDir('keyplan-bundle-');
    writeFileSync(join(dir, BUNDLE_ENTRY), STAND_IN);
    if (sources) writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify({ entry: BUNDLE_ENTRY, sources }));
    return dir;
  }

  /** What the sources answer to `check` on a missing file: the bin ran them, not the stand-in. */
  const SOURCES_RAN = { code: 1, stdout: '', stderr: 'keyplan: cannot read "nope.keyplan.json": no such file\n' };

  test('a current bundle runs, with the arguments and its exit code', async () => {
    const dir = await standInBundle({ 'package.json': fingerprintOf('package.json') });
    expect(await keyplanBin(['check', 'nope.keyplan.json'], { KEYPLAN_CLI_BUNDLE_DIR: dir })).toEqual({ code: 7, stdout: 'stand-in bundle: check nope.keyplan.json\n', stderr: '' });
  });

  test('a file changed since the build (size or time) makes the bin run the sources', async () => {
    const now = fingerprintOf('package.json')!;
    for (const then of [{ ...now, size: now.size + 1 }, { ...now, mtimeMs: now.mtimeMs - 1000 }]) {
      const dir = await standInBundle({ 'package.json': then });
      expect(await keyplanBin(['check', 'nope.keyplan.json'], { KEYPLAN_CLI_BUNDLE_DIR: dir })).toEqual(SOURCES_RAN);
    }
  });

  test('a file deleted since the build, a bundle without its list, a broken list: the sources run', async () => {
    for (const sources of [{ 'src-main/gone.ts': { size: 1, mtimeMs: 1 } }, undefined]) {
      const dir = await standInBundle(sources);
      expect(await keyplanBin(['check', 'nope.keyplan.json'], { KEYPLAN_CLI_BUNDLE_DIR: dir })).toEqual(SOURCES_RAN);
    }
    const broken = await standInBundle(undefined);
    writeFileSync(join(broken, MANIFEST_FILE), '{"entry": "keyplan.mjs", "sour');
    expect(await keyplanBin(['check', 'nope.keyplan.json'], { KEYPLAN_CLI_BUNDLE_DIR: broken })).toEqual(SOURCES_RAN);
  });

  test('KEYPLAN_CLI_SOURCE=1 runs the sources even beside a current bundle', async () => {
    const dir = await standInBundle({ 'package.json': fingerprintOf('package.json') });
    expect(await keyplanBin(['check', 'nope.keyplan.json'], { KEYPLAN_CLI_BUNDLE_DIR: dir, KEYPLAN_CLI_SOURCE: '1' })).toEqual(SOURCES_RAN);
  });
});

/**
 * A bundle built from the checkout as it is now (scripts/build-cli.mjs into a folder of its own
 * under out/, where node_modules resolves as it does for out/cli), run by plain Node: no tsx, so a
 * module it failed to bundle would not load.
 */
describe('the CLI bundle', { timeout: 180_000 }, () => {
  let dir = '';
  let metafile: Metafile;
  let sources: Record<string, unknown> = {};

  beforeAll(async () => {
    mkdirSync(join(root, 'out'), { recursive: true });
    dir = mkdtempSync(join(root, 'out', 'cli-test-'));
    ({ metafile, sources } = await buildCli({ outdir: dir }));
    const run = `const { main } = await import(${JSON.stringify(pathToFileURL(join(dir, BUNDLE_ENTRY)).href)});\n`;
    writeFileSync(join(dir, 'run-bundle.mjs'), `${run}process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });\n`);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the bundle's `main` as the bin does, whether or not a source changed since the build. */
  const fromBundle = (args: string[], cwd = root) => spawnNode([join(dir, 'run-bundle.mjs'), ...args], {}, cwd);

  test('is current when built, and lists the files it was built from', () => {
    expect(currentBundle(dir)).toBe(pathToFileURL(join(dir, BUNDLE_ENTRY)).href);
    // An edit to any of these must make the bin run the sources instead.
    const listed = ['package.json', 'src-main/cli.ts', 'src-main/cli/check.ts', 'src-main/cli/cost.ts', 'src-main/run/runner.ts', 'src-shared/model/schema.ts', 'node_modules/@sinclair/typebox/package.json'];
    expect(Object.keys(sources)).toEqual(expect.arrayContaining(listed));
  });

  test.each([
    [['check', EXAMPLE]],
    [['check', EXAMPLE, '--json']],
    [['cost', EXAMPLE]],
    [['cost', EXAMPLE, '--json']],
    [['cost', EXAMPLE, '--explain']],
    [['--help']],
    [['--version']],
  ])('%j: the same exit code, stdout and stderr as the sources', async (args) => {
    const [bundle, source] = await Promise.all([fromBundle(args), fromSources(args)]);
    expect(bundle.code).toBe(0);
    expect(bundle.stderr).toBe('');
    expect(bundle).toEqual(source);
  });

  test('every command\'s help loads its own code from the bundle, the same text as the sources\' main', async () => {
    const help = await fromBundle(['--help']);
    const names = [...help.stdout.matchAll(/^ {2}keyplan (\w+) </gm)].map((m) => m[1]!);
    expect(names).toEqual(['size', 'check', 'cost', 'export', 'import', 'sample', 'simulate', 'compare', 'solve', 'run']);
    for (const name of names) {
      const bundle = await fromBundle(['help', name]);
      let stdout = '';
      const code = await main(['help', name], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true }, cwd: root });
      expect(bundle.stdout.startsWith(`Usage: keyplan ${name} `), name).toBe(true);
      expect(bundle, name).toEqual({ code, stdout, stderr: '' });
    }
  });

  test('check exit codes: 1 for an unserved access pattern, a missing file, a file that is not JSON; 2 for usage', async () => {
    const work = await makeTempDir('keyplan-bundle-check-');
    const design = JSON.parse(readFileSync(join(root, EXAMPLE), 'utf8'));
    // Known only by the user's name: no key or index starts from it, so the pattern falls to a Scan.
    design.tables[0].accessPatterns[1].known = ['name'];
    writeFileSync(join(work, 'unserved.keyplan.json'), JSON.stringify(design));
    writeFileSync(join(work, 'broken.keyplan.json'), '{"formatVersion": ');
    const cases: [string[], number][] = [
      [['check', 'unserved.keyplan.json'], 1],
      [['check', 'missing.keyplan.json'], 1],
      [['check', 'broken.keyplan.json'], 1],
      [['check'], 2],
      [['check', 'unserved.keyplan.json', '--bogus'], 2],
    ];
    for (const [args, code] of cases) {
      const [bundle, source] = await Promise.all([fromBundle(args, work), fromSources(args, work)]);
      expect(bundle.code, args.join(' ')).toBe(code);
      expect(bundle, args.join(' ')).toEqual(source);
    }
    expect((await fromBundle(['check', 'unserved.keyplan.json'], work)).stdout).toContain('FAILED: 1 unserved access pattern.');
  });

  /** The outputs Node loads with `file` (its static imports, transitively), as paths in the metafile. */
  function loadedWith(file: string): Set<string> {
    const loaded = new Set<string>();
    const visit = (output: string) => {
      if (loaded.has(output)) return;
      loaded.add(output);
      for (const i of metafile.outputs[output]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
    };
    visit(file);
    return loaded;
  }
  const outputOf = (input: string) => Object.keys(metafile.outputs).find((o) => metafile.outputs[o]!.entryPoint === input || input in metafile.outputs[o]!.inputs)!;
  const packagesOf = (outputs: Set<string>) => [...outputs].flatMap((o) => metafile.outputs[o]!.imports.filter((i) => i.external && i.kind === 'import-statement').map((i) => i.path));
  const inputsOf = (outputs: Set<string>) => [...outputs].flatMap((o) => Object.keys(metafile.outputs[o]!.inputs));

  test('starts without the engine, the AWS SDK or any command\'s code; each command loads its own', () => {
    const entry = outputOf('src-main/cli.ts');
    expect(entry.endsWith(`/${BUNDLE_ENTRY}`)).toBe(true);
    const atStart = loadedWith(entry);
    expect(packagesOf(atStart).filter((p) => !p.startsWith('node:'))).toEqual([]);
    expect(inputsOf(atStart).filter((i) => /^src-main\/(run|cli\/(check|cost|run|export|simulate|compare))/.test(i) || (i.startsWith('src-shared/') && i !== 'src-shared/errors.ts'))).toEqual([]);

    // `keyplan check` and `keyplan cost` load their own code and no exporter, simulator or engine.
    for (const command of ['check', 'cost']) {
      const loaded = loadedWith(outputOf(`src-main/cli/${command}.ts`));
      expect(packagesOf(loaded).filter((p) => !p.startsWith('node:')), command).toEqual([]);
      expect(inputsOf(loaded).filter((i) => /^src-shared\/(formats|partition|compare)\/|^src-main\/run\//.test(i)), command).toEqual([]);
    }
    // `keyplan run` reaches the engine by a dynamic import: it and the SDK load when a run starts.
    const run = outputOf('src-main/cli/run.ts');
    expect(packagesOf(loadedWith(run)).filter((p) => p.startsWith('@aws-sdk/') || p === 'dynalite')).toEqual([]);
    const runner = outputOf('src-main/run/runner.ts');
    expect(metafile.outputs[run]!.imports).toContainEqual(expect.objectContaining({ path: runner, kind: 'dynamic-import' }));
    expect(packagesOf(loadedWith(runner))).toEqual(expect.arrayContaining(['@aws-sdk/client-dynamodb', '@aws-sdk/client-sts']));
  });
});
