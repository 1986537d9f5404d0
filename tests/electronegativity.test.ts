/**
 * scripts/electronegativity.mjs: its filtering on a fixture of findings in the shape electronegativity
 * returns them, the checked-in allowlist, and one real run on a deliberately insecure window.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  applyAllowlist,
  formatReport,
  hasFailed,
  isScanned,
  normalizeIssues,
  parseAllowlist,
  type Allowlist,
  type ElectronegativityIssue,
} from '../scripts/electronegativity.mjs';

const root = resolve(import.meta.dirname, '..');
const fixtures = resolve(root, 'tests/fixtures/electronegativity');
const findings = normalizeIssues(JSON.parse(readFileSync(resolve(fixtures, 'issues.json'), 'utf8')) as ElectronegativityIssue[]);

const entry = (check: string, file: string, code?: string) => ({ check, file, code, reason: 'a reason' });

describe('normalizeIssues', () => {
  test('keeps check, severity, file (with / separators), line and the flagged source line', () => {
    expect(findings[0]).toMatchObject({ check: 'PRELOAD_JS_CHECK', severity: 'MEDIUM', file: 'src-main/window.ts', line: 26, code: 'preload: options.preloadPath,' });
    expect(findings[3]?.file).toBe('src-main/other-window.ts');
    expect(findings[5]).toMatchObject({ file: 'N/A', code: '' });
  });
});

describe('applyAllowlist', () => {
  test('with an empty allowlist, every medium-or-above finding blocks and the rest are notes', () => {
    const result = applyAllowlist(findings, { findings: [] });
    expect(result.blocking.map((f) => `${f.check}@${f.file}`)).toEqual([
      'PRELOAD_JS_CHECK@src-main/window.ts',
      'OPEN_EXTERNAL_JS_CHECK@src-main/window.ts',
      'OPEN_EXTERNAL_JS_CHECK@src-main/dialogs.ts',
      'NODE_INTEGRATION_JS_CHECK@src-main/other-window.ts',
    ]);
    expect(result.notes.map((f) => f.check)).toEqual(['CSP_GLOBAL_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK']);
    expect(hasFailed(result)).toBe(true);
  });

  test('an entry justifies only its check in its file, and only the line containing its code', () => {
    const allowlist: Allowlist = { findings: [entry('OPEN_EXTERNAL_JS_CHECK', 'src-main/window.ts', 'isAwsDocumentation(url)')] };
    const result = applyAllowlist(findings, allowlist);
    expect(result.justified.map(({ finding }) => `${finding.check}@${finding.file}`)).toEqual(['OPEN_EXTERNAL_JS_CHECK@src-main/window.ts']);
    expect(result.blocking.map((f) => `${f.check}@${f.file}`)).toContain('OPEN_EXTERNAL_JS_CHECK@src-main/dialogs.ts');
  });

  test('an entry whose code is no longer on the flagged line justifies nothing, and is stale', () => {
    const stale = entry('PRELOAD_JS_CHECK', 'src-main/window.ts', 'preload: somethingElse');
    const result = applyAllowlist(findings, { findings: [stale] });
    expect(result.blocking.map((f) => f.check)).toContain('PRELOAD_JS_CHECK');
    expect(result.stale).toEqual([stale]);
  });

  test('passes when every medium-or-above finding is justified, even with notes left', () => {
    const allowlist: Allowlist = {
      findings: [
        entry('preload_js_check', 'src-main/window.ts'),
        entry('OPEN_EXTERNAL_JS_CHECK', 'src-main/window.ts'),
        entry('OPEN_EXTERNAL_JS_CHECK', 'src-main/dialogs.ts', 'shell.openExternal(userSuppliedUrl)'),
        entry('NODE_INTEGRATION_JS_CHECK', 'src-main/other-window.ts'),
      ],
    };
    const result = applyAllowlist(findings, allowlist);
    expect(result.blocking).toEqual([]);
    expect(result.stale).toEqual([]);
    expect(result.notes).toHaveLength(2);
    expect(hasFailed(result)).toBe(false);
    expect(hasFailed(result, [{ file: 'src-main/x.ts', message: 'Unexpected token' }])).toBe(true);
  });

  test('an entry matching no finding is stale and fails the audit', () => {
    const result = applyAllowlist([], { findings: [entry('PRELOAD_JS_CHECK', 'src-main/gone.ts')] });
    expect(result.stale).toHaveLength(1);
    expect(hasFailed(result)).toBe(true);
    expect(formatReport(result)).toContain('Stale allowlist entries');
  });

  test('the report names each blocking finding with its place, its code and where to justify it', () => {
    const report = formatReport(applyAllowlist(findings, { findings: [] }), { allowlistPath: 'x/allow.json' });
    expect(report).toContain('NODE_INTEGRATION_JS_CHECK [HIGH, CERTAIN] at src-main/other-window.ts:8');
    expect(report).toContain('code: const w = new BrowserWindow({ webPreferences: { nodeIntegration: true } });');
    expect(report).toContain('justify it in x/allow.json');
    expect(report).toMatch(/electronegativity: FAILED$/);
  });
});

describe('parseAllowlist', () => {
  test('names every entry without a check, a file or a reason, and every repeat', () => {
    const bad = {
      findings: [
        { check: 'PRELOAD_JS_CHECK', file: 'src-main/window.ts', reason: '' },
        { file: 'src-main/window.ts', reason: 'why' },
        { check: 'A', file: 'f', reason: 'why' },
        { check: 'a', file: 'f', reason: 'again' },
      ],
    };
    expect(() => parseAllowlist(bad)).toThrow(/findings\[0\]\.reason[\s\S]*findings\[1\]\.check[\s\S]*findings\[3\] repeats/);
    expect(() => parseAllowlist({})).toThrow(/"findings" must be an array/);
  });

  test('the checked-in allowlist is valid and gives a real reason for each entry', () => {
    const allowlist = parseAllowlist(readFileSync(resolve(root, 'security/electronegativity-allowlist.json'), 'utf8'));
    expect(allowlist.findings.length).toBeGreaterThan(0);
    for (const e of allowlist.findings) expect(e.reason.length, `${e.check} in ${e.file}`).toBeGreaterThan(60);
  });
});

describe('isScanned', () => {
  test.each([
    ['src-main/window.ts', true],
    ['src-main/preload.ts', true],
    ['src-renderer/index.html', true],
    ['src-shared/ipc/contract.ts', true],
    ['src-main/window.test.ts', false],
    ['src-main/contract.suite.ts', false],
    ['src-main/test-support/temp-dir.ts', false],
    ['src-renderer/App.svelte', false],
    ['e2e/app.spec.ts', false],
    ['scripts/start.mjs', false],
  ])('%s: %s', (path, expected) => {
    expect(isScanned(path)).toBe(expected);
  });
});

describe('a real run', { timeout: 60_000 }, () => {
  test('fails on an insecure window, naming its findings, without the network', async () => {
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((done) => {
      const app = resolve(fixtures, 'app');
      execFile(process.execPath, ['scripts/electronegativity.mjs', '--root', app, '--allowlist', resolve(app, 'allowlist.json')], { cwd: root }, (error, stdout) =>
        done({ code: error ? (error.code as number) : 0, stdout }),
      );
    });
    expect(code).toBe(1);
    expect(stdout).toContain('CONTEXT_ISOLATION_JS_CHECK [HIGH');
    expect(stdout).toContain('SANDBOX_JS_CHECK [MEDIUM');
    expect(stdout).toContain('at src-main/window.js:5');
    expect(stdout).toContain('AvailableSecurityFixesGlobalCheck');
  });
});
