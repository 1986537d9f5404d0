/**
 * Issue 27's hostile imports through `keyplan import`, as a user runs it: a CloudFormation JSON
 * template nested 100,000 deep ended the CLI with "internal error: Maximum call stack size exceeded";
 * a 171 KB YAML alias bomb took 21.7 s and 304 MB before it was refused; a 48 MB YAML scalar used
 * 2.9 GB. Each is now one problem line with its path and exit 1, and the cost of a hostile text grows
 * with its size: doubling it at most 2.5 × the CPU time and the memory (measured in a process of its
 * own, `tests/support/measure-import.ts`). The texts are generated, not checked in.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { aliasBomb, bigScalarTemplate, deepJsonTemplate, deepWorkbenchModel, type HostileImportShape } from '../../src-shared/formats/__fixtures__/hostile-imports.ts';
import { importText } from '../../src-shared/formats/index.ts';
import { cpuTimed } from '../../tests/support/cpu-time.ts';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const root = resolve(import.meta.dirname, '../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function spawnNode(args: string[], env: Record<string, string> = {}, cwd = root): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd, env: { ...process.env, KEYPLAN_CLI_BUNDLE_DIR: '', ...env }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** `keyplan import <file>` through `main`, on a file holding `text`. */
async function importFile(text: string, name: string, args: string[] = []): Promise<Run> {
  const dir = await makeTempDir('keyplan-hostile-import-');
  await writeFile(join(dir, name), text);
  let stdout = '';
  let stderr = '';
  const code = await main(['import', name, ...args], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd: dir });
  return { code, stdout, stderr };
}

/** A path of `count` repetitions of `step`. */
const repeat = (step: string, count: number) => step.repeat(count);

describe('keyplan import on hostile files', { timeout: 120_000 }, () => {
  test('a CloudFormation JSON template nested 100,000 deep: the real bin prints the problem at its path and exits 1', async () => {
    const dir = await makeTempDir('keyplan-hostile-import-');
    const text = deepJsonTemplate(50_000);
    await writeFile(join(dir, 'deep.json'), text);
    // The sources as they are now, whatever bundle there is.
    const run = await spawnNode([join(root, 'bin/keyplan.mjs'), 'import', 'deep.json'], { KEYPLAN_CLI_SOURCE: '1' }, dir);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/internal error|call stack/i);
    // Levels: the root, Resources, T, Properties, TableName's value (5), then each "Fn::If" adds its
    // list and the object in it (two levels): the 101st level is the object 48 "Fn::If"s down.
    const path = `Resources.T.Properties.TableName${repeat('["Fn::If"][0]', 48)}`;
    expect(run.stderr).toBe(`keyplan: deep.json: ${path}: The template is nested deeper than 100 levels here; expected at most 100 levels of objects and lists.\n`);
  });

  test.each<[string, string, string]>([
    ['a NoSQL Workbench model', 'model.json', deepWorkbenchModel(100_000)],
    ['a OneTable schema', 'schema.json', `{"version":"0.1.0","format":"onetable:1.1.0","indexes":{"primary":{"hash":"pk"}},"models":{"U":{"pk":${repeat('{"a":', 100_000)}1${repeat('}', 100_000)}}}}`],
    ['a describe-table output', 'table.json', `{"Table":{"TableName":"t","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[${repeat('[', 100_000)}${repeat(']', 100_000)}]}}`],
  ])('%s nested 100,000 deep: one problem at its 101st level, exit 1', async (_, name, text) => {
    const run = await importFile(text, name);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^keyplan: ${name.replace('.', '\\.')}: \\S+: The .+ is nested deeper than 100 levels here; expected at most 100 levels of objects and lists\\.$`));
    const path = lines[0]!.split(': ')[2]!;
    // The path has one step per level below the root: 100 steps reach the 101st level.
    expect(path.match(/(^|\.)[A-Za-z]+|\[[^\]]+\]/g)).toHaveLength(100);
  });

  test("the issue's alias bomb (99 aliases to a 1,000-index block; 21.7 s before): refused at the alias that goes past, in under 2 s of CPU", async () => {
    const text = aliasBomb(99, 1000);
    // 141 KB here (the had longer lines); the same 99 aliases of 1,000 indexes.
    expect(text.length).toBeGreaterThan(130_000);
    expect(text.length).toBeLessThan(200_000);
    const run = await importFile(text, 'bomb.yaml');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^keyplan: bomb\.yaml: The template's YAML aliases repeat \d+ values, more than the \d+ its text writes; the alias at line \d+, column 31 goes past the \d+ allowed\./);
    expect(run.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
    // It was 21.7 s of wall time before; read once more here to time it in CPU (the test's own process).
    const timed = cpuTimed(() => importText('cloudformation', text));
    expect(timed.value.ok).toBe(false);
    expect(timed.ms).toBeLessThan(2_000);
  });

  test('a 48 MB YAML scalar: refused from the file size before it is read', async () => {
    // 48 MiB of "x" and 69 characters of template around it.
    const run = await importFile(bigScalarTemplate(48 * 1024 * 1024), 'big.yaml', ['--from', 'cloudformation']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^keyplan: "big\.yaml" is too large to import: 50331717 bytes; expected at most 20 MiB \(/);
    // Given as text (the app's paste area reads through the same import), refused without reading it.
    const timed = cpuTimed(() => importText('cloudformation', bigScalarTemplate(48 * 1024 * 1024)));
    expect(timed.value.ok ? undefined : timed.value.errors[0]).toMatchObject({ code: 'import.tooLarge', path: '' });
  });

  test('a template over 1 MB (CloudFormation\'s quota for one in Amazon S3): refused before parsing', async () => {
    const run = await importFile(bigScalarTemplate(1024 * 1024), 'big.yaml');
    expect(run.code).toBe(1);
    // More characters than the quota has bytes: refused without counting them.
    expect(run.stderr).toBe("keyplan: big.yaml: The template is too large to import: more than 1 MiB; expected at most 1 MiB (CloudFormation's quota for a template in Amazon S3).\n");
  });
});

interface Measured {
  code: string;
  cpuMs: number;
  peakGrowthMb: number;
  chars: number;
}

async function measure(shape: HostileImportShape, bytes: number): Promise<Measured> {
  const run = await spawnNode(['--expose-gc', '--import', 'tsx', join(root, 'tests/support/measure-import.ts'), shape, String(bytes)]);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Measured;
}

function least(a: Measured, b: Measured): Measured {
  return { ...a, cpuMs: Math.min(a.cpuMs, b.cpuMs), peakGrowthMb: Math.min(a.peakGrowthMb, b.peakGrowthMb) };
}

/**
 * Below this, a process's peak resident memory moves with the pages V8 and the allocator reserve
 * (its young generation alone grows to 3 × 16 MB), not with what an import keeps: a 480 KB deep JSON
 * template measured 4.3 and 7.5 MB in two runs, and 12.7 MB at twice the size.
 */
const MEMORY_FLOOR_MB = 32;

/**
 * Below this, one import's CPU time moves with the JIT's tiers and the collector's timing, not with
 * the input: a deep YAML template is refused after its 101st nesting token whatever its size, and
 * measured 0.76 ms at 480 KB and 2.5 ms at twice that in one run. The bound holds above it.
 */
const CPU_FLOOR_MS = 20;

describe('the cost of a hostile import, doubling its size', { timeout: 600_000 }, () => {
  // Templates up to 1 MB (the most a template may be); the Workbench model up to 10 MB.
  test.each<[HostileImportShape, number, string]>([
    ['alias-bomb', 480_000, 'import.aliasExpansion'],
    ['deep-json', 480_000, 'import.tooDeep'],
    ['deep-yaml', 480_000, 'cloudformation.syntax'],
    ['big-scalar', 480_000, 'cloudformation.noTable'],
    ['many-keys', 240_000, 'cloudformation.noTable'],
    ['deep-workbench', 5_000_000, 'import.tooDeep'],
  ])('%s from %i bytes: at most 2.5 × the CPU time and the memory', async (shape, bytes, code) => {
    // The least of two processes at each size, measured in turn: a run that shares the machine with
    // other test files can take longer in CPU time too (caches, clock), and rarely twice.
    const small = least(await measure(shape, bytes), await measure(shape, bytes));
    const large = least(await measure(shape, 2 * bytes), await measure(shape, 2 * bytes));
    expect(small.code).toBe(code);
    expect(large.code).toBe(code);
    expect(large.chars / small.chars).toBeCloseTo(2, 1);
    expect(large.cpuMs).toBeLessThanOrEqual(2.5 * Math.max(small.cpuMs, CPU_FLOOR_MS));
    expect(large.peakGrowthMb).toBeLessThanOrEqual(2.5 * Math.max(small.peakGrowthMb, MEMORY_FLOOR_MB));
  });
});
