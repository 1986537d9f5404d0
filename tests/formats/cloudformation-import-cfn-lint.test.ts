/**
 * The CloudFormation import fixtures (tests/fixtures/cloudformation) are real templates: the real
 * cfn-lint finds no error and no warning in them, and the templates Keyplan exports from the designs
 * they import have no error either. One cfn-lint run for all. cfn-lint is a Python tool (not an npm
 * package); without it the suite fails and says how to install it, unless KEYPLAN_SKIP_CFN_LINT=1.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromCloudFormation, toCloudFormation, toCloudFormationJson } from '../../src-shared/formats/index.ts';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/cloudformation');
const isSkipped = process.env.KEYPLAN_SKIP_CFN_LINT === '1';
const version = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
const isInstalled = version.status === 0;
const INSTALL_HINT = 'cfn-lint is not installed: install it with "pip install cfn-lint" (it needs Python 3), or set KEYPLAN_SKIP_CFN_LINT=1 to skip these checks';

interface Match {
  Filename: string;
  Level: 'Error' | 'Warning' | 'Informational';
  Message: string;
  Rule: { Id: string };
}

const dir = mkdtempSync(join(tmpdir(), 'keyplan-cfn-import-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs cfn-lint once over `files`; the matches it reports (exit 0 clean, 2 errors, 4 warnings, 8 informational: a bit mask). */
function lint(files: string[]): Match[] {
  const run = spawnSync('cfn-lint', ['--format', 'json', '--', ...files], { encoding: 'utf8', timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
  if (run.status !== 0 && run.stdout.trim() === '') throw new Error(`cfn-lint failed with exit ${run.status}: ${run.stderr.split('\n')[0]}`);
  return run.stdout.trim() === '' ? [] : (JSON.parse(run.stdout) as Match[]);
}

const shown = (m: Match) => `${m.Filename}: ${m.Level} ${m.Rule.Id} ${m.Message}`;

describe.skipIf(isSkipped)('cfn-lint on the CloudFormation import fixtures', { timeout: 300_000 }, () => {
  it('cfn-lint is installed', () => {
    expect(isInstalled, INSTALL_HINT).toBe(true);
  });

  const fixtures = readdirSync(FIXTURES).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();

  it.runIf(isInstalled)('the fixtures have no errors or warnings, and neither do the exports of their imports', () => {
    expect(fixtures).toEqual(['inventory.json', 'orders-service.yaml']);
    const files: string[] = [];
    for (const name of fixtures) {
      const file = join(dir, name);
      copyFileSync(join(FIXTURES, name), file);
      files.push(file);
      const imported = fromCloudFormation(readFileSync(file, 'utf8'));
      if (!imported.ok) throw new Error(`${name} does not import: ${JSON.stringify(imported.errors[0])}`);
      const yaml = join(dir, `${name}.exported.yaml`);
      const json = join(dir, `${name}.exported.json`);
      writeFileSync(yaml, toCloudFormation(imported.value.design));
      writeFileSync(json, toCloudFormationJson(imported.value.design));
      files.push(yaml, json);
    }
    const matches = lint(files);
    const isFixture = (m: Match) => fixtures.some((f) => m.Filename.endsWith(`/${f}`) || m.Filename === f);
    expect(matches.filter((m) => isFixture(m) && m.Level !== 'Informational').map(shown)).toEqual([]);
    expect(matches.filter((m) => m.Level === 'Error').map(shown)).toEqual([]);
  });

  it.runIf(isInstalled)('reports a broken fixture (so a clean run means something)', () => {
    const broken = readFileSync(join(FIXTURES, 'orders-service.yaml'), 'utf8').replace('        - AttributeName: GSI1SK\n          AttributeType: S\n', '');
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, broken);
    expect(lint([file]).map((m) => m.Rule.Id)).toContain('E3039');
  });
});
