/**
 * Every CloudFormation export (YAML and JSON) of every example and fixture passes the real cfn-lint
 * with no errors: one cfn-lint run per format over all templates. cfn-lint is a Python tool (not an
 * npm package); without it the suite fails and says how to install it, unless
 * KEYPLAN_SKIP_CFN_LINT=1.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toCloudFormation, toCloudFormationJson } from '../../src-shared/formats/index.ts';
import { allDesigns } from './designs.ts';

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

const dir = mkdtempSync(join(tmpdir(), 'keyplan-cfn-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs cfn-lint once over `files`; the matches it reports (exit 0 clean, 2 errors, 4 warnings, 8 informational: a bit mask). */
function lint(files: string[]): Match[] {
  const run = spawnSync('cfn-lint', ['--format', 'json', '--', ...files], { encoding: 'utf8', timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
  if (run.status !== 0 && run.stdout.trim() === '') throw new Error(`cfn-lint failed with exit ${run.status}: ${run.stderr.split('\n')[0]}`);
  return run.stdout.trim() === '' ? [] : (JSON.parse(run.stdout) as Match[]);
}

describe.skipIf(isSkipped)('cfn-lint on every CloudFormation export', { timeout: 300_000 }, () => {
  it('cfn-lint is installed', () => {
    expect(isInstalled, INSTALL_HINT).toBe(true);
  });

  const designs = allDesigns();

  it.runIf(isInstalled).each([
    ['YAML', 'yaml', toCloudFormation],
    ['JSON', 'json', toCloudFormationJson],
  ] as const)('%s templates have no errors', (_, extension, exporter) => {
    const files = designs.map(({ name, design }) => {
      const file = join(dir, `${name}.${extension}`);
      writeFileSync(file, exporter(design));
      return file;
    });
    expect(files.length).toBeGreaterThanOrEqual(8);
    const errors = lint(files).filter((m) => m.Level === 'Error').map((m) => `${m.Filename}: ${m.Rule.Id} ${m.Message}`);
    expect(errors).toEqual([]);
  });

  it.runIf(isInstalled)('reports a broken template (so a clean run means something)', () => {
    const template = JSON.parse(toCloudFormationJson(designs[0]!.design));
    const [resource] = Object.values(template.Resources) as Array<{ Properties: Record<string, any> }>;
    resource!.Properties.AttributeDefinitions.push({ AttributeName: 'notAKey', AttributeType: 'S' });
    const file = join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify(template));
    expect(lint([file]).map((m) => m.Rule.Id)).toContain('E3039');
  });
});
