import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { costDesign } from '../src-shared/costing/index.ts';
import { parseDesign } from '../src-shared/model/index.ts';
import type { Design } from '../src-shared/model/index.ts';
import { main } from './cli.ts';
import { makeTempDir } from './test-support/temp-dir.ts';

const root = resolve(import.meta.dirname, '..');
const EXAMPLE = 'examples/ecommerce.keyplan.json';
const example = (): Design => JSON.parse(readFileSync(join(root, EXAMPLE), 'utf8')) as Design;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function keyplan(args: string[], cwd = root): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd,
  });
  return { code, stdout, stderr };
}

/** Writes `content` (JSON unless a string) to a file in a fresh temp folder; returns the folder and the name. */
async function tempFile(name: string, content: unknown): Promise<{ dir: string; name: string }> {
  const dir = await makeTempDir('keyplan-cli-');
  await writeFile(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return { dir, name };
}

/** stderr as lines; every one is a single `keyplan: ` line, never a stack trace. */
function errorLines(run: Run): string[] {
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  for (const line of lines) expect(line).toMatch(/^keyplan: /);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  return lines;
}

describe('keyplan: help and usage errors', () => {
  test.each([[['--help']], [['-h']], [['help']]])('%j prints the usage with every command and the exit codes', async (args) => {
    const run = await keyplan(args);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    for (const text of ['keyplan size <item.json>', 'keyplan check <design>', 'keyplan cost <design>', 'Exit codes:', '2  usage error']) {
      expect(run.stdout).toContain(text);
    }
  });

  test.each([
    [['size', '--help'], 'Usage: keyplan size <item.json>'],
    [['check', 'x.json', '-h'], 'Usage: keyplan check <design>'],
    [['help', 'cost'], 'Usage: keyplan cost <design>'],
  ])('%j prints that command\'s help', async (args, first) => {
    const run = await keyplan(args);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith(first)).toBe(true);
    expect(run.stdout).toContain('Exit codes:');
  });

  test('no command prints the usage to stderr and exits 2', async () => {
    const run = await keyplan([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Usage: keyplan <command>');
  });

  test('--version prints the package version', async () => {
    const run = await keyplan(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^keyplan \d+\.\d+\.\d+\n$/);
  });

  test.each([
    [['price', EXAMPLE], 'unknown command "price"'],
    [['--fast'], 'unknown option "--fast"'],
    [['help', 'price'], 'unknown command "price"'],
    [['cost', EXAMPLE, '--csv'], 'unknown option "--csv" for "keyplan cost"'],
    [['check', EXAMPLE, '--explain'], 'unknown option "--explain" for "keyplan check"'],
    [['cost'], '"keyplan cost" needs <design>'],
    [['size'], '"keyplan size" needs <item.json>'],
    [['check', EXAMPLE, EXAMPLE], '"keyplan check" takes one file, got 2'],
  ])('%j is a usage error: one line on stderr, exit 2', async (args, message) => {
    const run = await keyplan(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = errorLines(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(message);
  });

  test('after --, an argument that looks like an option is the file', async () => {
    const run = await keyplan(['check', '--', '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('keyplan: cannot read "--json": no such file\n');
  });

  test('an unexpected failure is one line on stderr, not a stack trace', async () => {
    let stderr = '';
    const code = await main(['check', EXAMPLE], {
      stdout: {
        write: () => {
          throw new Error('EPIPE: broken pipe');
        },
      },
      stderr: { write: (t: string) => (stderr += t) },
      cwd: root,
    });
    expect(code).toBe(1);
    expect(stderr).toBe('keyplan: internal error: EPIPE: broken pipe (please report this).\n');
  });
});

describe.each(['size', 'check', 'cost'])('keyplan %s: files it cannot use', (command) => {
  test('a missing file: one line naming it, exit 1', async () => {
    const run = await keyplan([command, 'nope.json']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('keyplan: cannot read "nope.json": no such file\n');
  });

  test('a folder: one line, exit 1', async () => {
    const run = await keyplan([command, 'examples']);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual(['keyplan: cannot read "examples": it is a folder, not a file']);
  });

  test('a file that is not JSON: its line and column, exit 1', async () => {
    const { dir, name } = await tempFile('broken.json', '{\n  "a": ,\n}');
    const run = await keyplan([command, name], dir);
    expect(run.code).toBe(1);
    const lines = errorLines(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^keyplan: "broken.json" is not valid JSON \(line 2, column 8\): .+\.$/);
  });

  test('relative paths are read from the working folder', async () => {
    const run = await keyplan([command, 'ecommerce.keyplan.json'], join(root, 'examples'));
    expect(run.stderr).not.toContain('cannot read');
  });
});

describe('keyplan size', () => {
  const item = {
    PK: { S: 'USER#1' },
    SK: { S: 'PROFILE' },
    n: { N: '12.5' },
    tags: { SS: ['a', 'b'] },
    m: { M: { x: { L: [{ BOOL: true }] } } },
  };

  test('--json prints exactly the documented shape', async () => {
    const { dir, name } = await tempFile('item.json', item);
    const run = await keyplan(['size', name, '--json'], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    // PK 2+6, SK 2+7, n 1+3, tags 4+2, m 1+(3 + 1+1 + (3 + 1+1)) = 38 bytes.
    expect(JSON.parse(run.stdout)).toEqual({ bytes: 38, rcu: { strong: 1, eventual: 0.5, transactional: 2 }, wcu: { standard: 1, transactional: 2 } });
  });

  test.each([
    // [value bytes of one S attribute "a", bytes, strong, eventual, transactional, wcu standard, wcu transactional]
    [4095, 4096, 1, 0.5, 2, 4, 8],
    [4096, 4097, 2, 1, 4, 5, 10],
    [1023, 1024, 1, 0.5, 2, 1, 2],
  ])('an item of %i value bytes rounds to 4 KB reads and 1 KB writes', async (valueBytes, bytes, strong, eventual, transactional, standard, wcuTransactional) => {
    const { dir, name } = await tempFile('item.json', { a: { S: 'x'.repeat(valueBytes) } });
    const run = await keyplan(['size', name, '--json'], dir);
    expect(JSON.parse(run.stdout)).toEqual({ bytes, rcu: { strong, eventual, transactional }, wcu: { standard, transactional: wcuTransactional } });
  });

  test('prints a readable summary, and the derivation with --explain', async () => {
    const { dir, name } = await tempFile('item.json', item);
    const plain = await keyplan(['size', name], dir);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('item.json: 38 bytes');
    expect(plain.stdout).toContain('0.5 RCU eventually consistent, 1 strongly consistent, 2 transactional');
    expect(plain.stdout).toContain('1 WCU, 2 transactional');
    const explained = await keyplan(['size', name, '--explain'], dir);
    expect(explained.stdout).toContain('Attribute "PK": 8 B');
    expect(explained.stdout).toContain('Transactional: prepare and commit, twice the units');
  });

  test('reads the {"Item": ...} that aws dynamodb get-item prints', async () => {
    const { dir, name } = await tempFile('got.json', { Item: { PK: { S: 'x' }, SK: { S: 'y' } } });
    const run = await keyplan(['size', name, '--json'], dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).bytes).toBe(6);
  });

  test('an attribute named Item is an attribute, not a wrapper', async () => {
    const { dir, name } = await tempFile('item.json', { Item: { M: { a: { S: 'b' } } } });
    const run = await keyplan(['size', name, '--json'], dir);
    expect(run.code).toBe(0);
    // "Item" 4 + M (3 + 1 + "a" 1 + "b" 1) = 10
    expect(JSON.parse(run.stdout).bytes).toBe(10);
  });

  test('an invalid item: every problem with its path, one line each, exit 1', async () => {
    const { dir, name } = await tempFile('bad.json', { PK: { S: 1 }, n: { N: 'abc' }, s: { SS: [] } });
    const run = await keyplan(['size', name, '--json'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = errorLines(run);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^keyplan: bad\.json: item\.PK\.S: /);
    expect(lines[1]).toMatch(/^keyplan: bad\.json: item\.n\.N: /);
    expect(lines[2]).toMatch(/^keyplan: bad\.json: item\.s\.SS: /);
  });

  test('a JSON value that is not an item', async () => {
    const { dir, name } = await tempFile('list.json', [1, 2]);
    const run = await keyplan(['size', name], dir);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([expect.stringMatching(/^keyplan: list\.json: item: expected an item/)]);
  });

  test('an item over 400 KB still gets its size, then fails with item.tooLarge', async () => {
    const { dir, name } = await tempFile('big.json', { PK: { S: 'x' }, blob: { S: 'a'.repeat(409_600) } });
    const json = await keyplan(['size', name, '--json'], dir);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ bytes: 409_607, rcu: { strong: 101, eventual: 50.5, transactional: 202 }, wcu: { standard: 401, transactional: 802 } });
    expect(errorLines(json)).toEqual(['keyplan: big.json: The item is 409,607 bytes; expected at most 409,600 bytes (400 KB), names and values included.']);
    const text = await keyplan(['size', name], dir);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('409,607 bytes');
    expect(text.stdout).toContain('7 over the 409,600-byte item limit');
  });

  test('an item of exactly 409,600 bytes is accepted', async () => {
    const { dir, name } = await tempFile('max.json', { a: { S: 'a'.repeat(409_599) } });
    const run = await keyplan(['size', name, '--json'], dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).bytes).toBe(409_600);
  });
});

describe('keyplan check', () => {
  test('the example passes: every pattern served with its operation, index and key condition', async () => {
    const run = await keyplan(['check', EXAMPLE]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Table Shop: 11 of 11 access patterns served');
    expect(run.stdout).toMatch(/ok {2}Find user by email \(sign-in\) +Query on GSI GSI1 +GSI1PK = :pk AND GSI1SK = :sk/);
    expect(run.stdout).toMatch(/ok {2}Get user profile +GetItem on table +PK = :pk AND SK = :sk/);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('OK: no problems, every access pattern is served.');
  });

  test('--json: the report of the example', async () => {
    const run = await keyplan(['check', EXAMPLE, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ ok: true, design: 'E-commerce single table', problems: [], summary: { problems: 0, patterns: 11, served: 11, unserved: 0 } });
    expect(report.patterns[1]).toEqual({
      table: 'Shop',
      id: 'ap-get-user-by-email',
      name: 'Find user by email (sign-in)',
      served: true,
      needsKeyDesign: null,
      operation: 'Query',
      badge: 'GSI Query',
      index: 'GSI1',
      keyCondition: 'GSI1PK = :pk AND GSI1SK = :sk',
      suggestion: null,
      warnings: [],
    });
    expect(report.patterns[0].index).toBeNull();
  });

  test('an unserved pattern: UNSERVED with the index to add, exit 1', async () => {
    const design = example();
    design.tables[0]!.accessPatterns.push({
      id: 'ap-users-in-country',
      name: 'Users in a country',
      entityId: 'ent-user',
      action: 'query',
      known: ['country'],
      ratePerSecond: 2,
      consistency: 'eventual',
    });
    const { dir, name } = await tempFile('unserved.keyplan.json', design);
    const run = await keyplan(['check', name], dir);
    expect(run.code).toBe(1);
    // Users are not in GSI2, whose string keys fit: overload it (projecting ALL, since users are read whole) before adding GSI3.
    expect(run.stdout).toMatch(/UNSERVED {2}Users in a country +Scan on table +reuse GSI "GSI2": partition key GSI2PK = COUNTRY#\{country\}, sort key GSI2SK = USER, projection ALL/);
    expect(run.stdout).toContain('FAILED: 1 unserved access pattern.');
    const json = JSON.parse((await keyplan(['check', name, '--json'], dir)).stdout);
    expect(json.ok).toBe(false);
    expect(json.summary).toEqual({ problems: 0, patterns: 12, served: 11, unserved: 1, needKeyDesign: 0 });
    expect(json.patterns[11]).toMatchObject({
      id: 'ap-users-in-country',
      served: false,
      operation: 'Scan',
      keyCondition: null,
      suggestion: { kind: 'gsi', indexName: 'GSI2', reusesIndex: true, partitionKey: { name: 'GSI2PK', type: 'S', template: 'COUNTRY#{country}' }, sortKey: { name: 'GSI2SK', type: 'S', template: 'USER' } },
    });
  });

  test('broken DynamoDB rules: each problem as "path: message", with the coverage, exit 1', async () => {
    const design = example();
    design.tables[0]!.name = 'x';
    design.tables[0]!.entities[0]!.keys.PK!.template = 'USER#{nope}';
    const { dir, name } = await tempFile('rules.keyplan.json', design);
    const run = await keyplan(['check', name], dir);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^tables\[0\]\.name: Table name "x" /);
    expect(lines[1]).toMatch(/^tables\[0\]\.entities\[0\]\.keys\.PK\.template: /);
    expect(run.stdout).toContain('Table x: 10 of 11 access patterns served');
    expect(run.stdout).toContain('FAILED: 2 problems, 1 unserved access pattern.');
    const json = JSON.parse((await keyplan(['check', name, '--json'], dir)).stdout);
    expect(json.problems.map((p: { code: string; path: string }) => [p.code, p.path])).toEqual([
      ['model.invalidName', 'tables[0].name'],
      ['keyTemplate.unknownAttribute', 'tables[0].entities[0].keys.PK.template'],
    ]);
  });

  test('a broken shape: every problem with its path, no coverage, exit 1', async () => {
    const design = example() as unknown as { tables: { entities: { itemCount: unknown }[]; accessPatterns: { ratePerSecond: unknown }[] }[] };
    design.tables[0]!.entities[0]!.itemCount = 'many';
    design.tables[0]!.accessPatterns[0]!.ratePerSecond = -1;
    const { dir, name } = await tempFile('shape.keyplan.json', design);
    const run = await keyplan(['check', name], dir);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^tables\[0\]\.entities\[0\]\.itemCount: .*"many"/),
      expect.stringMatching(/^tables\[0\]\.accessPatterns\[0\]\.ratePerSecond: .*-1/),
    ]);
    expect(run.stdout).toContain('FAILED: 2 problems.');
    const json = JSON.parse((await keyplan(['check', name, '--json'], dir)).stdout);
    expect(json).toMatchObject({ ok: false, patterns: [], summary: { problems: 2 } });
    expect(json.problems.every((p: { code: string }) => p.code === 'model.schema')).toBe(true);
  });

  test.each([
    ['not a Keyplan design', { hello: 1 }, /^keyplan: "f\.json" cannot be opened: This is not a Keyplan design/],
    ['from a newer Keyplan', { ...example(), formatVersion: 99 }, /^keyplan: "f\.json" cannot be opened: .*format version 99.*A newer Keyplan can open it\.$/],
  ])('a file %s: one line on stderr, exit 1', async (_what, content, message) => {
    const { dir, name } = await tempFile('f.json', content);
    const run = await keyplan(['check', name, '--json'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(errorLines(run)).toEqual([expect.stringMatching(message)]);
  });
});

describe('keyplan cost', () => {
  test('--json: every pattern with the documented keys, numbers as numbers, matching costDesign', async () => {
    const run = await keyplan(['cost', EXAMPLE, '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const json = JSON.parse(run.stdout);
    const parsed = parseDesign(example());
    if (!parsed.ok) throw new Error('the example does not validate');
    const expected = costDesign(parsed.value);
    const patterns = expected.tables[0]!.patterns;
    expect(json.patterns).toHaveLength(patterns.length);
    for (const [i, p] of json.patterns.entries()) {
      for (const key of ['id', 'name', 'operation', 'index', 'keyCondition', 'rcuPerRequest', 'wcuPerRequest', 'requestsPerSecond', 'monthlyUsd', 'scan']) {
        expect(p).toHaveProperty(key);
      }
      const cost = patterns[i]!;
      expect(p.id).toBe(cost.patternId);
      expect(typeof p.rcuPerRequest).toBe('number');
      expect(typeof p.wcuPerRequest).toBe('number');
      expect(p[cost.kind === 'read' ? 'rcuPerRequest' : 'wcuPerRequest']).toBeCloseTo(cost.perRequest.value, 9);
      expect(p.monthlyUsd.onDemand).toBeCloseTo(cost.monthly.onDemand.value, 9);
      expect(p.monthlyUsd.provisioned).toBeCloseTo(cost.monthly.provisioned.value, 9);
      if (cost.kind === 'read') expect(typeof p.scan.rcuPerRequest).toBe('number');
      else expect(p.scan).toBeNull();
    }
    expect(json.patterns[0]).toMatchObject({
      table: 'Shop',
      id: 'ap-get-user',
      name: 'Get user profile',
      operation: 'GetItem',
      index: null,
      keyCondition: 'PK = :pk AND SK = :sk',
      rcuPerRequest: 0.5,
      wcuPerRequest: 0,
      requestsPerSecond: 500,
      // 250 RCU/s × 3,600 × 730 / 1e6 × $0.125; 250 × 730 × $0.00013
      monthlyUsd: { onDemand: 82.125, provisioned: 23.725 },
    });
    expect(json.patterns[1]).toMatchObject({ operation: 'Query', index: 'GSI1', keyCondition: 'GSI1PK = :pk AND GSI1SK = :sk' });
    expect(json.patterns[9]).toMatchObject({ id: 'ap-put-order', operation: 'PutItem', rcuPerRequest: 0, scan: null });
    expect(json.totals.monthlyUsd.onDemand).toBeCloseTo(expected.onDemandMonthly.value, 9);
    expect(json.totals.monthlyUsd.provisioned).toBeCloseTo(expected.provisionedMonthly.value, 9);
    expect(json.totals.monthlyUsd.storage).toBeCloseTo(expected.storageMonthly.value, 9);
    expect(json.tables[0].targets.map((t: { name: string }) => t.name)).toEqual(['table', 'GSI1', 'GSI2']);
    // On-demand: the provisioned figure is a what-if of exactly the load, in whole units.
    expect(json.tables[0].targets[0]).toMatchObject({ billed: { rcu: 1225, wcu: 200 }, loadNeeds: { rcu: 1225, wcu: 200 }, configured: null });
    expect(json.tables[0].targets[0].provisionedMonthlyUsd).toBe(json.tables[0].targets[0].loadOnlyMonthlyUsd);
    expect(json.warnings).toEqual([]);
  });

  test('a readable table with units, the capacity per table and GSI, and the totals', async () => {
    const run = await keyplan(['cost', EXAMPLE]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    const header = lines.find((l) => l.includes('Access pattern'))!;
    for (const column of ['Operation', 'Index', 'RCU/req', 'WCU/req', 'Peak/s', 'Avg/s', 'On-demand/mo', 'Provisioned/mo', 'Scan RCU/req', 'Key condition']) {
      expect(header).toContain(column);
    }
    const row = lines.find((l) => l.includes('Get user profile'))!;
    // No average stated: the average is the peak.
    expect(row).toMatch(/GetItem +table +0\.5 +- +500 +500 +\$82\.13 +\$23\.73 +542,748 +PK = :pk AND SK = :sk$/);
    // The columns line up: each right-aligned number ends where its header does.
    expect(row.indexOf('$82.13') + '$82.13'.length).toBe(header.indexOf('On-demand/mo') + 'On-demand/mo'.length);
    expect(run.stdout).toMatch(/GSI GSI1 +700 RCU\/s +140 WCU\/s +on-demand +- +\$132\.86 +700 RCU, 140 WCU +\$132\.86/);
    expect(run.stdout).toContain('Totals per month');
    // Storage is billed from the first byte: 9.48 GB × $0.25 = $2.37 (AWS's free tier is the account's, not this design's).
    expect(run.stdout).toMatch(/On-demand +\$1,212\.89 +requests \$1,210\.52 \+ storage \$2\.37/);
    expect(run.stdout).toMatch(/Provisioned +\$352\.08 +capacity \$349\.71 \(exactly the load\) \+ storage \$2\.37/);
    expect(run.stdout).toMatch(/Storage +\$2\.37 +9\.48 GB stored .*no free storage subtracted \(AWS's 25 GB free tier is per account and Region/);
    expect(run.stdout).not.toContain('Warnings');
  });

  test('an average below the peak prices on-demand from it and sizes capacity from the peak, in the text and in --json', async () => {
    const design = example();
    const table = design.tables[0]!;
    table.accessPatterns = table.accessPatterns.map((p) => (p.id === 'ap-get-user' ? { ...p, averagePerSecond: 200 } : p.id === 'ap-get-product' ? { ...p, profile: { kind: 'businessHours' as const } } : p));
    const { dir, name } = await tempFile('traffic.keyplan.json', design);
    const text = await keyplan(['cost', name], dir);
    expect(text.code).toBe(0);
    // 0.5 RCU × 200/s × 3,600 s × 730 h ÷ 10^6 × $0.125 = $32.85 (at the 500/s peak, $82.13); the provisioned share stays at the peak: $23.73.
    expect(text.stdout.split('\n').find((l) => l.includes('Get user profile'))).toMatch(/GetItem +table +0\.5 +- +500 +200 +\$32\.85 +\$23\.73 /);
    // Business hours at 800/s: 800 × 11.8 ÷ 24 = 393.33/s; 0.5 × 393.33 × 2,628,000 ÷ 10^6 × $0.125 = $64.605.
    expect(text.stdout.split('\n').find((l) => l.includes('Get product'))).toMatch(/GetItem +table +0\.5 +- +800 +393\.33 +\$64\.61 /);
    expect(text.stdout).toContain("on-demand requests priced from each pattern's average rate, capacity sized from its peak");
    const json = JSON.parse((await keyplan(['cost', name, '--json'], dir)).stdout);
    expect(json.patterns[0]).toMatchObject({ id: 'ap-get-user', requestsPerSecond: 500, averageRequestsPerSecond: 200, averageSource: 'stated', rcuPerSecond: 250 });
    expect(json.patterns[0].monthlyUsd.onDemand).toBeCloseTo(32.85, 9);
    expect(json.patterns[2]).toMatchObject({ id: 'ap-get-product', requestsPerSecond: 800, averageSource: 'profile' });
    expect(json.patterns[2].averageRequestsPerSecond).toBeCloseTo(800 * 11.8 / 24, 9);
    expect(json.patterns[2].monthlyUsd.onDemand).toBeCloseTo(64.605, 9);
  });

  test('--explain prints each pattern\'s derivation and the totals\'', async () => {
    const run = await keyplan(['cost', EXAMPLE, '--explain']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('How each number is derived');
    expect(run.stdout).toContain('Get user profile (ap-get-user): GetItem on table, PK = :pk AND SK = :sk');
    expect(run.stdout).toContain('Sized from the peak 500/s: 0.5 RCU × 500 requests/s = 250 RCU/s');
    expect(run.stdout).toContain('On-demand per month, priced from the average rate 500 requests/s');
    expect(run.stdout).toContain('Read request units per month: 250 RRU/s × 3,600 s × 730 h = 657,000,000 RRU');
    expect(run.stdout).toContain('A Scan of table Shop, per request');
    expect(run.stdout).toContain('Provisioned per month');
    // A filter step only where a FilterExpression is sent: the example's one filter repeats GSI2's own
    // condition (every entry passes it), so it is not sent; the Scan alternative filters.
    const patterns = run.stdout.split('How each number is derived')[1]!.split(/\n(?=\S)/);
    const withFilterStep = patterns.filter((block) => block.includes('a FilterExpression runs after the read')).map((block) => block.split('\n')[0]);
    expect(withFilterStep).toEqual(['A Scan of table Shop, per request (eventually consistent)']);
    expect(run.stdout).toContain(`The filter status IN ("PENDING", "PROCESSING") repeats GSI2's own condition: every entry holds it, so it is not sent.`);
    // Each step names the AWS page it follows.
    expect(run.stdout).toContain('[Querying tables in DynamoDB: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.html]');
  });

  test('a Scan-served pattern: UNSERVED in the table and a cost.scan warning; still exit 0', async () => {
    const design = example();
    design.tables[0]!.accessPatterns.push({ id: 'ap-by-country', name: 'Users in a country', entityId: 'ent-user', action: 'query', known: ['country'], ratePerSecond: 2, consistency: 'eventual' });
    const { dir, name } = await tempFile('scan.keyplan.json', design);
    const run = await keyplan(['cost', name], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Users in a country \(UNSERVED\) +Scan +table +542,748 +- +2 /);
    expect(run.stdout).toMatch(/Warnings \(1\)\n {2}error {4}cost\.scan: "Users in a country" is served by a Scan/);
    const json = JSON.parse((await keyplan(['cost', name, '--json'], dir)).stdout);
    expect(json.patterns[11]).toMatchObject({ operation: 'Scan', served: false, keyCondition: null, rcuPerRequest: 542_748, scan: { rcuPerRequest: 542_748, ratio: 1 } });
    expect(json.warnings).toEqual([{ code: 'cost.scan', severity: 'error', table: 'Shop', patternId: 'ap-by-country', message: expect.stringContaining('Scan') }]);
  });

  test('a design with problems is not priced: each problem on stderr, exit 1', async () => {
    const design = example();
    design.tables[0]!.name = 'x';
    const { dir, name } = await tempFile('bad.keyplan.json', design);
    const run = await keyplan(['cost', name, '--json'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(errorLines(run)).toEqual([
      expect.stringMatching(/^keyplan: bad\.keyplan\.json: tables\[0\]\.name: Table name "x"/),
      'keyplan: "bad.keyplan.json" has 1 problem; fix it to price the design (see "keyplan check bad.keyplan.json").',
    ]);
  });

  test('a provisioned table below its load: cost.underProvisioned warnings; far above it: cost.overProvisioned', async () => {
    const design = example();
    const table = design.tables[0]!;
    table.billing = { mode: 'PROVISIONED', readCapacityUnits: 100, writeCapacityUnits: 1000 };
    for (const g of table.globalSecondaryIndexes) g.provisioned = { readCapacityUnits: 1000, writeCapacityUnits: 1000 };
    const { dir, name } = await tempFile('provisioned.keyplan.json', design);
    const json = JSON.parse((await keyplan(['cost', name, '--json'], dir)).stdout);
    expect(json.tables[0].billingMode).toBe('PROVISIONED');
    expect(json.tables[0].targets[0].configured).toEqual({ readCapacityUnits: 100, writeCapacityUnits: 1000 });
    expect(json.tables[0].targets[0]).toMatchObject({ billed: { rcu: 100, wcu: 1000 }, loadNeeds: { rcu: 1225, wcu: 200 } });
    // Reads of the table throttle (1,225 RCU/s > 100); 1,000 WCU is 5× the table's 200 and 7× GSI1's
    // 140 (GSI1's 1,000 RCU for 700 RCU/s is headroom, under 2×); GSI2 holds 1,000 RCU for 5 and 1,000 WCU for 11.
    expect(json.warnings.map((w: { code: string; message: string }) => [w.code, w.message.split(' is provisioned')[0]])).toEqual([
      ['cost.underProvisioned', 'Table Shop'],
      ['cost.overProvisioned', 'Table Shop'],
      ['cost.overProvisioned', 'GSI GSI1'],
      ['cost.overProvisioned', 'GSI GSI2'],
      ['cost.overProvisioned', 'GSI GSI2'],
    ]);
  });

  test('a provisioned design: totals are the configured capacity × 730 h × price, beside what the load alone needs', async () => {
    const design = example();
    const table = design.tables[0]!;
    table.billing = { mode: 'PROVISIONED', readCapacityUnits: 1300, writeCapacityUnits: 250 };
    const [gsi1, gsi2] = table.globalSecondaryIndexes;
    gsi1!.provisioned = { readCapacityUnits: 800, writeCapacityUnits: 150 };
    // Auto scaled reads held between a minimum and a maximum of 10: 10 RCU whatever the load.
    gsi2!.provisioned = { readCapacityUnits: 5, writeCapacityUnits: 20, autoScaling: { read: { minCapacity: 10, maxCapacity: 10, targetUtilizationPercent: 70 } } };
    const { dir, name } = await tempFile('provisioned.keyplan.json', design);
    const json = JSON.parse((await keyplan(['cost', name, '--json'], dir)).stdout);
    expect(json.tables[0].targets.map((t: { billed: unknown }) => t.billed)).toEqual([
      { rcu: 1300, wcu: 250 },
      { rcu: 800, wcu: 150 },
      { rcu: 10, wcu: 20 },
    ]);
    // RCU: 2,110 × 730 × $0.00013 = $200.239; WCU: 420 × 730 × $0.00065 = $199.29.
    expect(json.tables[0].monthlyUsd.provisionedCapacity).toBeCloseTo(399.529, 9);
    expect(json.totals.monthlyUsd.provisioned).toBeCloseTo(399.529 + json.totals.monthlyUsd.storage, 9);
    const parsed = parseDesign(design);
    if (!parsed.ok) throw new Error('the provisioned example does not validate');
    expect(json.tables[0].monthlyUsd.loadOnlyCapacity).toBeCloseTo(costDesign(parsed.value).tables[0]!.loadOnlyMonthly.value, 9);
    const text = (await keyplan(['cost', name], dir)).stdout;
    // The table: 1,300 × 730 × $0.00013 + 250 × 730 × $0.00065 = $123.37 + $118.625; GSI2: $0.949 + $9.49.
    expect(text).toMatch(/ 1,300 RCU, 250 WCU +1,300 RCU, 250 WCU +\$242\.00 /);
    expect(text).toMatch(/GSI GSI2 .* RCU auto 10–10 at 70 %, 20 WCU +10 RCU, 20 WCU +\$10\.44 /);
    expect(text).toContain('Per month: $399.53 of provisioned capacity as configured (the load alone would need $');
    // Plus the example's 9.48 GB at $0.25 (no free storage at the default prices): $399.53 + $2.37.
    expect(text).toMatch(/Provisioned +\$401\.90 +capacity \$399\.53 \(as configured\) \+ storage \$2\.37/);
  });
});
