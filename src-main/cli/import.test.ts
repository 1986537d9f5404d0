/**
 * `keyplan import` through `main`: every format read from a real file, `--from auto`, what a tolerant
 * import prints on stderr (and `--strict`), companions of describe-table output, and bad input.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseDesign } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const root = resolve(import.meta.dirname, '../..');
const FIXTURES = join(root, 'tests/fixtures');
const FLIGHTS = join(FIXTURES, 'nosql-workbench/FlightFares.json');
const EXAMPLE = join(root, 'examples/ecommerce.keyplan.json');

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

/** The printed design, checked to be one that opens and breaks no rule. */
function printedDesign(run: Run): Design {
  const parsed = parseDesign(JSON.parse(run.stdout));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 3)));
  return parsed.value;
}

/** FlightFares with the malformed map value of a public model that NoSQL Workbench opens. */
async function flightsWithBadValue(dir: string): Promise<string> {
  const model = JSON.parse(await readFile(FLIGHTS, 'utf8'));
  model.DataModel[0].TableData[2].details = { M: { thisIsInDetails: 'something' } };
  await writeFile(join(dir, 'flights.json'), JSON.stringify(model, null, 2));
  return 'flights.json';
}

describe('keyplan import: a tolerant NoSQL Workbench import', () => {
  test('a malformed sample value: the design is written, the value named on stderr, exit 0', async () => {
    const dir = await makeTempDir('keyplan-import-');
    const file = await flightsWithBadValue(dir);
    const run = await keyplan(['import', file, '--out', 'flights.keyplan.json'], dir);
    expect(run.code).toBe(0);
    const warnings = errorLines(run).filter((l) => l.startsWith('keyplan: warning: '));
    expect(warnings).toEqual([
      'keyplan: warning: skipped: flights.json: DataModel[0].TableData[2].details: Sample value skipped: {"M":{"thisIsInDetails":"something"}} is not a DynamoDB attribute value (' +
        warnings[0]!.split('is not a DynamoDB attribute value (')[1],
    ]);
    expect(warnings[0]).toMatch(/\)\.$/);
    expect(run.stdout).toMatch(/^Imported "FlightFares" from a NoSQL Workbench model \(1 table, \d+ entities\) to flights\.keyplan\.json; \d+ notes above\n$/);
    expect((await keyplan(['check', 'flights.keyplan.json'], dir)).code).toBe(0);
  });

  test('--strict: the same model exits 1 and writes nothing', async () => {
    const dir = await makeTempDir('keyplan-import-');
    const file = await flightsWithBadValue(dir);
    const run = await keyplan(['import', file, '--strict', '--out', 'flights.keyplan.json'], dir);
    expect(run.code).toBe(1);
    expect(errorLines(run).at(-1)).toBe('keyplan: flights.json: 1 part was skipped as malformed; nothing written (--strict).');
    expect(await readdir(dir)).toEqual(['flights.json']);
  });

  test('--strict on a clean model: exit 0 (inferred counts are notes, not failures)', async () => {
    const run = await keyplan(['import', FLIGHTS, '--strict']);
    expect(run.code).toBe(0);
    expect(printedDesign(run).name).toBe('FlightFares');
    expect(errorLines(run).every((l) => l.startsWith('keyplan: inferred: '))).toBe(true);
  });
});

describe('keyplan import --from auto: bad input', () => {
  test('a Keyplan design is not imported: it opens as it is', async () => {
    const run = await keyplan(['import', EXAMPLE]);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([`keyplan: "${EXAMPLE}" is a Keyplan design already: open it as it is (see "keyplan check ${EXAMPLE}").`]);
  });

  test('JSON of no known format: one line naming what it looks like', async () => {
    const dir = await makeTempDir('keyplan-import-');
    await writeFile(join(dir, 'x.json'), JSON.stringify({ TableName: 'Orders', KeySchema: [], AttributeDefinitions: [] }));
    const run = await keyplan(['import', 'x.json'], dir);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([expect.stringMatching(/^keyplan: x\.json: Keyplan cannot tell what this is: expected a Keyplan design, a NoSQL Workbench model, a OneTable schema, a CloudFormation template, a describe-table output; found a CreateTable input/)]);
  });

  test('text that is neither JSON nor a YAML template: its JSON error with line and column', async () => {
    const dir = await makeTempDir('keyplan-import-');
    await writeFile(join(dir, 'x.txt'), 'hello: world\n');
    const run = await keyplan(['import', 'x.txt'], dir);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([expect.stringMatching(/^keyplan: "x\.txt" is not valid JSON \(line 1, column 1\): .* It is not a CloudFormation template in YAML either\./)]);
  });
});

describe('keyplan import: every format from a real file, told apart by --from auto', () => {
  test('a OneTable schema: its models as entities, its saved queries as access patterns', async () => {
    const run = await keyplan(['import', join(FIXTURES, 'onetable/project-tracker.json')]);
    expect(run.code).toBe(0);
    const design = printedDesign(run);
    const [table] = design.tables;
    expect(table!.entities.map((e) => e.name)).toEqual(['Account', 'User', 'Project', 'Task', 'Invoice', 'Session']);
    expect(table!.accessPatterns.map((p) => p.name)).toContain('User by email');
    expect(errorLines(run).length).toBeGreaterThan(0);
  });

  test('a CloudFormation template in YAML: each of its three tables, no entities, said on stderr', async () => {
    const dir = await makeTempDir('keyplan-import-');
    const run = await keyplan(['import', join(FIXTURES, 'cloudformation/orders-service.yaml'), '--out', 'orders.keyplan.json'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Imported ".*" from a CloudFormation template \(3 tables, 0 entities\) to orders\.keyplan\.json; \d+ notes above\n$/);
    expect(errorLines(run).filter((l) => l.startsWith('keyplan: not imported: ') && /no entit/i.test(l))).toHaveLength(3);
    const written = JSON.parse(await readFile(join(dir, 'orders.keyplan.json'), 'utf8')) as Design;
    expect(written.tables.map((t) => t.name)).toContain('prod-orders');
    // The design a template gives opens and exports; `check` has no patterns to serve yet.
    expect((await keyplan(['export', 'orders.keyplan.json', '--to', 'cloudformation'], dir)).code).toBe(0);
  });

  test('describe-table output with its TTL and continuous-backups companions', async () => {
    const at = (name: string) => join(FIXTURES, 'describe-table', name);
    const alone = await keyplan(['import', at('shop-orders.describe-table.json')]);
    expect(alone.code).toBe(0);
    expect(printedDesign(alone).tables[0]!.ttlAttribute).toBeUndefined();
    expect(errorLines(alone).some((l) => l.startsWith('keyplan: not imported: ') && l.includes('describe-time-to-live'))).toBe(true);

    const run = await keyplan(['import', at('shop-orders.describe-table.json'), at('shop-orders.describe-time-to-live.json'), at('shop-orders.describe-continuous-backups.json'), '--from', 'describe-table']);
    expect(run.code).toBe(0);
    const table = printedDesign(run).tables[0]!;
    const ttl = JSON.parse(await readFile(at('shop-orders.describe-time-to-live.json'), 'utf8')).TimeToLiveDescription.AttributeName;
    expect(table.ttlAttribute).toBe(ttl);
    expect(table.pointInTimeRecovery).toEqual({ enabled: true, recoveryPeriodInDays: 14 });
    expect(errorLines(run).some((l) => l.includes('describe-time-to-live'))).toBe(false);
  });

  test('--from names the format to read: a model read as another format is refused with its problems', async () => {
    const run = await keyplan(['import', FLIGHTS, '--from', 'onetable']);
    expect(run.code).toBe(1);
    expect(errorLines(run).length).toBeGreaterThan(0);
    expect(run.stdout).toBe('');
  });
});

describe('keyplan import: text as editors save it', () => {
  test('a UTF-8 byte order mark before the JSON is read past, as check does', async () => {
    const dir = await makeTempDir('keyplan-import-');
    await writeFile(join(dir, 'bom.json'), `\ufeff${await readFile(FLIGHTS, 'utf8')}`);
    const run = await keyplan(['import', 'bom.json'], dir);
    expect(run.code).toBe(0);
    expect(printedDesign(run).name).toBe('FlightFares');
  });

  test('an empty file: one line, exit 1', async () => {
    const dir = await makeTempDir('keyplan-import-');
    await writeFile(join(dir, 'empty.json'), '\n');
    const run = await keyplan(['import', 'empty.json'], dir);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual(['keyplan: "empty.json" is empty: there is nothing to import.']);
  });
});
