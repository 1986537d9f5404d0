/**
 * `keyplan export` and `keyplan import` through `main`: every format, where files go, and bad input
 * (one line on stderr per problem, a non-zero exit, no stack trace and no output file).
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  fromNoSqlWorkbench,
  toCdk,
  toCliInputs,
  toCloudFormation,
  toCloudFormationJson,
  toDynamoDbJsonFiles,
  toTerraform,
} from '../../src-shared/formats/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const root = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(root, 'examples/ecommerce.keyplan.json');
const ALL_SETTINGS = join(root, 'src-shared/formats/__fixtures__/all-settings.keyplan.json');
const BANK = join(root, 'tests/fixtures/nosql-workbench/BankModel_multitable.json');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function keyplan(args: string[], cwd = root): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd });
  return { code, stdout, stderr };
}

/** stderr as lines, each a single `keyplan: ` line, never a stack trace. */
function errorLines(run: Run): string[] {
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  for (const line of lines) expect(line).toMatch(/^keyplan: /);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  return lines;
}

const design = async (path: string): Promise<Design> => JSON.parse(await readFile(path, 'utf8')) as Design;
const jsonLines = (text: string): unknown[] => text.trim().split('\n').map((l) => JSON.parse(l));

describe('keyplan export', () => {
  test.each<[string, (d: Design) => string]>([
    ['cloudformation', toCloudFormation],
    ['cloudformation-json', toCloudFormationJson],
    ['terraform', toTerraform],
    ['cdk', toCdk],
  ])('--to %s prints the export on stdout', async (format, exporter) => {
    const run = await keyplan(['export', EXAMPLE, '--to', format]);
    expect(run).toEqual({ code: 0, stdout: exporter(await design(EXAMPLE)), stderr: '' });
  });

  test('--to=cli-input and --to dynamodb-json print one JSON document per line', async () => {
    const d = await design(ALL_SETTINGS);
    const cli = await keyplan(['export', ALL_SETTINGS, '--to=cli-input']);
    expect(cli.code).toBe(0);
    expect(jsonLines(cli.stdout)).toEqual(toCliInputs(d).map((f) => JSON.parse(f.content)));
    const items = await keyplan(['export', ALL_SETTINGS, '--to', 'dynamodb-json', '--items', '60', '--seed', '5']);
    expect(jsonLines(items.stdout)).toEqual(toDynamoDbJsonFiles(d, { maxItemsPerTable: 60, seed: 5 }).map((f) => JSON.parse(f.content)));
  });

  test('--to nosql-workbench prints a model that imports back', async () => {
    const run = await keyplan(['export', EXAMPLE, '--to', 'nosql-workbench', '--items', '2']);
    expect(run.code).toBe(0);
    const model = JSON.parse(run.stdout);
    expect(model.ModelMetadata.Version).toBe('3.0');
    expect(model.ModelMetadata.DateCreated).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);
    expect(fromNoSqlWorkbench(model).ok).toBe(true);
  });

  test('--out FILE writes the file and says so', async () => {
    const dir = await makeTempDir('keyplan-export-');
    const run = await keyplan(['export', EXAMPLE, '--to', 'terraform', '--out', 'main.tf'], dir);
    expect(run).toEqual({ code: 0, stdout: 'Wrote main.tf\n', stderr: '' });
    expect(await readFile(join(dir, 'main.tf'), 'utf8')).toBe(toTerraform(await design(EXAMPLE)));
    expect(await readdir(dir)).toEqual(['main.tf']);
  });

  test('several files into a folder (--out DIR/), each under its own name', async () => {
    const dir = await makeTempDir('keyplan-export-');
    const run = await keyplan(['export', EXAMPLE, '--to', 'dynamodb-json', '--out', 'items/'], dir);
    expect(run.code).toBe(0);
    const files = toDynamoDbJsonFiles(await design(EXAMPLE));
    expect(files.length).toBeGreaterThan(1);
    expect(run.stdout).toBe(`Wrote ${files.length} files: items/items-001.json … items/${files.at(-1)!.fileName}\n`);
    expect((await readdir(join(dir, 'items'))).sort()).toEqual(files.map((f) => f.fileName));
    expect(await readFile(join(dir, 'items', 'items-002.json'), 'utf8')).toBe(files[1]!.content);
  });

  test('several files with --out FILE: numbered after its stem; one file: FILE itself', async () => {
    const dir = await makeTempDir('keyplan-export-');
    await mkdir(join(dir, 'existing'));
    expect((await keyplan(['export', EXAMPLE, '--to', 'dynamodb-json', '--items', '400', '--out', 'batch.json'], dir)).code).toBe(0);
    const batches = toDynamoDbJsonFiles(await design(EXAMPLE), { maxItemsPerTable: 400 }).map((f) => f.fileName.replace('items-', 'batch-'));
    expect(batches.length).toBeGreaterThan(1);
    expect((await keyplan(['export', ALL_SETTINGS, '--to', 'cli-input', '--out', 'tables.json'], dir)).code).toBe(0);
    expect((await keyplan(['export', EXAMPLE, '--to', 'cli-input', '--out', 'shop.json'], dir)).code).toBe(0);
    expect((await keyplan(['export', EXAMPLE, '--to', 'cli-input', '--out', 'existing'], dir)).code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual([...batches, 'existing', 'shop.json', 'tables-Orders.json', 'tables-blob-store.v2.json']);
    expect(await readdir(join(dir, 'existing'))).toEqual(['Shop.create-table.json']);
    expect(JSON.parse(await readFile(join(dir, 'shop.json'), 'utf8')).TableName).toBe('Shop');
  });

  test.each([
    [['export', EXAMPLE], '"keyplan export" needs --to <format>'],
    [['export', EXAMPLE, '--to', 'yaml'], 'unknown format "yaml" for --to; expected one of: cloudformation, '],
    [['export', EXAMPLE, '--to'], 'option "--to" of "keyplan export" needs a value'],
    [['export', EXAMPLE, '--to', 'cdk', '--to', 'terraform'], 'option "--to" of "keyplan export" is given twice'],
    [['export', EXAMPLE, '--to', 'cdk', '--items', '-1'], '--items is "-1"; expected a whole number from 0 to'],
    [['export', EXAMPLE, '--to', 'cdk', '--json'], 'unknown option "--json" for "keyplan export"; it takes --to, --out, --items, --seed'],
    [['export', '--to', 'cdk'], '"keyplan export" needs <design>'],
  ])('%j is a usage error: one line, exit 2', async (args, message) => {
    const run = await keyplan(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = errorLines(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(message);
  });

  test('a design with problems: one line naming the first, exit 1, no file written', async () => {
    const dir = await makeTempDir('keyplan-export-');
    const bad = await design(EXAMPLE);
    bad.tables[0]!.name = 'x';
    bad.tables[0]!.entities[0]!.keys.PK = { template: 'USER#{nobody}' };
    await writeFile(join(dir, 'bad.keyplan.json'), JSON.stringify(bad));
    const run = await keyplan(['export', 'bad.keyplan.json', '--to', 'cloudformation', '--out', 'out.yaml'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(errorLines(run)).toEqual([
      expect.stringMatching(/^keyplan: cannot export "bad\.keyplan\.json": it has 2 problems \(see "keyplan check bad\.keyplan\.json"\); the first: tables\[0\]\.name: /),
    ]);
    expect(await readdir(dir)).toEqual(['bad.keyplan.json']);
  });

  test.each([
    [['export', 'nope.json', '--to', 'cdk'], 'keyplan: cannot read "nope.json": no such file'],
    [['export', 'package.json', '--to', 'cdk'], 'keyplan: "package.json" cannot be opened'],
  ])('%j: one line, exit 1', async (args, message) => {
    const run = await keyplan(args);
    expect(run.code).toBe(1);
    expect(errorLines(run)[0]).toContain(message);
    expect(errorLines(run)).toHaveLength(1);
  });

  test('an output that cannot be written: one line, exit 1, no temporary file left', async () => {
    const dir = await makeTempDir('keyplan-export-');
    await writeFile(join(dir, 'file'), 'x');
    const run = await keyplan(['export', EXAMPLE, '--to', 'dynamodb-json', '--out', 'file/items.json'], dir);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([expect.stringMatching(/^keyplan: cannot write "file\/items-001\.json": /)]);
    expect(await readdir(dir)).toEqual(['file']);
  });
});

describe('keyplan import', () => {
  test('prints the design a NoSQL Workbench model makes, and on stderr what it inferred', async () => {
    const run = await keyplan(['import', BANK, '--from', 'nosql-workbench']);
    expect(run.code).toBe(0);
    const result = fromNoSqlWorkbench(JSON.parse(await readFile(BANK, 'utf8')));
    expect(JSON.parse(run.stdout)).toEqual(result.ok && result.value.design);
    // One line per entity: its count and templates come from the sample items.
    expect(errorLines(run)).toEqual([
      expect.stringMatching(/^keyplan: inferred: .*BankModel_multitable\.json: DataModel\[0\]\S*: Entity "\w+" of table "\w+": an item count of \d+, its number of sample items/),
      expect.stringMatching(/^keyplan: inferred: .*BankModel_multitable\.json: DataModel\[1\]\S*: Entity "\w+" of table "\w+": an item count of \d+/),
    ]);
  });

  test('--out writes a .keyplan.json that check and export take; --from auto tells the format', async () => {
    const dir = await makeTempDir('keyplan-import-');
    const run = await keyplan(['import', BANK, '--out', 'bank.keyplan.json'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Imported "Bank" from a NoSQL Workbench model (2 tables, 2 entities) to bank.keyplan.json; 2 notes above\n');
    expect((await keyplan(['check', 'bank.keyplan.json'], dir)).code).toBe(0);
    expect((await keyplan(['export', 'bank.keyplan.json', '--to', 'cloudformation'], dir)).code).toBe(0);
  });

  test.each([
    [['import', BANK, '--from', 'excel'], 'unknown format "excel" for --from; expected: auto, nosql-workbench, onetable, cloudformation, describe-table'],
    [['import', BANK, BANK, '--from', 'nosql-workbench'], 'takes further files only with describe-table output'],
  ])('%j is a usage error, exit 2', async (args, message) => {
    const run = await keyplan(args);
    expect(run.code).toBe(2);
    expect(errorLines(run)).toEqual([expect.stringContaining(message)]);
  });

  test('a file that is not a model: one clear line, exit 1, no file written', async () => {
    const dir = await makeTempDir('keyplan-import-');
    const run = await keyplan(['import', EXAMPLE, '--from', 'nosql-workbench', '--out', 'x.keyplan.json'], dir);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      `keyplan: ${EXAMPLE}: This is not a NoSQL Workbench model: expected an object with "ModelName" and "DataModel", as NoSQL Workbench exports a model; found a Keyplan design.`,
    ]);
    expect(await readdir(dir)).toEqual([]);
  });

  test('a model with problems: one line each, with its path in the model', async () => {
    const dir = await makeTempDir('keyplan-import-');
    const model = JSON.parse(await readFile(BANK, 'utf8'));
    delete model.DataModel[1].GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey;
    model.DataModel[0].BillingMode = 'FREE';
    await writeFile(join(dir, 'm.json'), JSON.stringify(model));
    const run = await keyplan(['import', 'm.json', '--from', 'nosql-workbench', '--out', 'm.keyplan.json'], dir);
    expect(run.code).toBe(1);
    // Each line names the place once: the message starts with its path.
    expect(errorLines(run)).toEqual([
      'keyplan: m.json: DataModel[0].BillingMode is the text "FREE"; expected PROVISIONED or PAY_PER_REQUEST.',
      'keyplan: m.json: DataModel[1].GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey is missing; expected an object.',
    ]);
    expect(await readdir(dir)).toEqual(['m.json']);
  });

  test('a file that is not JSON: its line and column', async () => {
    const dir = await makeTempDir('keyplan-import-');
    await writeFile(join(dir, 'm.json'), '{\n  "ModelName": ,\n}');
    const run = await keyplan(['import', 'm.json', '--from', 'nosql-workbench'], dir);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([expect.stringMatching(/^keyplan: "m\.json" is not valid JSON \(line 2, column 16\): /)]);
  });
});

describe('bin/keyplan.mjs export', { timeout: 120_000 }, () => {
  test('the real bin writes a template and exits 0', async () => {
    const dir = await makeTempDir('keyplan-bin-');
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(process.execPath, [join(root, 'bin/keyplan.mjs'), 'export', EXAMPLE, '--to', 'cloudformation', '--out', 'template.yaml'], { cwd: dir, timeout: 60_000 }, (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      });
    });
    expect(run).toEqual({ code: 0, stdout: 'Wrote template.yaml\n', stderr: '' });
    expect(await readFile(join(dir, 'template.yaml'), 'utf8')).toBe(toCloudFormation(await design(EXAMPLE)));
  });
});

describe('keyplan sample', () => {
  test('prints the seeded sample items as DynamoDB JSON lines, the same as the dynamodb-json export writes', async () => {
    const run = await keyplan(['sample', EXAMPLE, '--items', '30', '--seed', '7']);
    expect(run.code).toBe(0);
    const items = jsonLines(run.stdout) as Array<Record<string, Record<string, unknown>>>;
    expect(items.length).toBeGreaterThan(20);
    expect(items.length).toBeLessThanOrEqual(30);
    for (const item of items) expect(Object.keys(item)).toEqual(expect.arrayContaining(['PK', 'SK']));
    // The same seed gives the same items; the export's requests hold them.
    expect((await keyplan(['sample', EXAMPLE, '--items', '30', '--seed', '7'])).stdout).toBe(run.stdout);
    const exported = jsonLines((await keyplan(['export', EXAMPLE, '--to', 'dynamodb-json', '--items', '30', '--seed', '7'])).stdout) as Array<{ RequestItems: Record<string, Array<{ PutRequest: { Item: unknown } }>> }>;
    const written = exported.flatMap((r) => Object.values(r.RequestItems).flat().map((w) => JSON.stringify(w.PutRequest.Item)));
    // The export drops an item whose primary key repeats (BatchWriteItem refuses it); every item it writes is a sample item.
    expect(written.length).toBeGreaterThan(10);
    const printed = items.map((i) => JSON.stringify(i));
    for (const item of written) expect(printed).toContain(item);
  });

  test('usage and file errors name what is wrong', async () => {
    const bad = await keyplan(['sample', EXAMPLE, '--items', 'many']);
    expect(bad.code).toBe(2);
    expect(errorLines(bad)[0]).toContain('--items is "many"');
    const table = await keyplan(['sample', EXAMPLE, '--table', 'Nope']);
    expect(table.code).toBe(1);
    expect(errorLines(table)[0]).toContain('has no table named "Nope"; expected one of: Shop');
  });
});
