#!/usr/bin/env node
/**
 * `npm run audit:electron`: Doyensec's electronegativity over the code that runs in Electron (src-main,
 * src-shared, src-renderer; tests left out, and .svelte files, which it cannot parse). Every finding of
 * medium severity or above must be justified in security/electronegativity-allowlist.json, one entry
 * with a reason each; an entry that no longer matches a finding is stale and fails too, so the list
 * never justifies code that is gone. Exits 1 on either, and when a file cannot be parsed (it would
 * otherwise go unscanned).
 *
 *   node scripts/electronegativity.mjs [--root DIR] [--allowlist FILE]
 *
 * Runs offline. The tool fetches two things over the network: translations of its messages (its own
 * English ones ship in the package) and the list of Electron releases, for its "available security
 * fixes" check, which is not run. The first goes to a stand-in that answers "not found".
 * Electronegativity is run through its documented programmatic API, so its findings arrive as data
 * (check, severity, file, line, source line) rather than as CSV or SARIF to parse back.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Electronegativity's severities, lowest first. */
export const SEVERITIES = ['INFORMATIONAL', 'LOW', 'MEDIUM', 'HIGH'];
/** Findings at or above this severity fail the audit unless the allowlist justifies them. */
export const BLOCKING_SEVERITY = 'MEDIUM';
/** The folders scanned, relative to the root: the code of Electron's main, preload and renderer processes. */
export const SCANNED_FOLDERS = ['src-main', 'src-shared', 'src-renderer'];
/** Checks not run, and why. */
export const SKIPPED_CHECKS = [
  {
    check: 'AvailableSecurityFixesGlobalCheck',
    reason:
      "it downloads Electron's release list from GitHub, which this project's machines cannot reach; whether the installed Electron has security fixes pending is answered from the npm registry instead (npm outdated electron, npm audit)",
  },
];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_ALLOWLIST = join(root, 'security', 'electronegativity-allowlist.json');

/** Whether a file (path relative to the root, `/`-separated) is product code electronegativity can read. */
export function isScanned(path) {
  if (!SCANNED_FOLDERS.some((folder) => path.startsWith(`${folder}/`))) return false;
  if (!/\.(?:[cm]?js|ts|html)$/.test(path) || path.endsWith('.d.ts')) return false;
  return !/\.(?:test|suite)\.ts$/.test(path) && !path.includes('/test-support/');
}

/**
 * Reads the allowlist's JSON, `{ "findings": [{ check, file, code?, reason }] }`: each entry justifies
 * the findings it matches. Throws, naming every problem, when an entry lacks a field or a reason, or
 * repeats another.
 */
export function parseAllowlist(json) {
  const problems = [];
  const data = typeof json === 'string' ? JSON.parse(json) : json;
  const list = (key) => (Array.isArray(data?.[key]) ? data[key] : (problems.push(`"${key}" must be an array`), []));
  const text = (entry, where, key, optional = false) => {
    const value = entry?.[key];
    if (value === undefined && optional) return undefined;
    if (typeof value !== 'string' || value.trim() === '') problems.push(`${where}.${key} must be a non-empty string, got ${JSON.stringify(value)}`);
    return typeof value === 'string' ? value.trim() : '';
  };
  const findings = list('findings').map((entry, i) => ({
    check: text(entry, `findings[${i}]`, 'check'),
    file: text(entry, `findings[${i}]`, 'file'),
    code: text(entry, `findings[${i}]`, 'code', true),
    reason: text(entry, `findings[${i}]`, 'reason'),
  }));
  const seen = new Set();
  findings.forEach((entry, i) => {
    const key = JSON.stringify([entry.check.toUpperCase(), entry.file, entry.code ?? null]);
    if (seen.has(key)) problems.push(`findings[${i}] repeats an earlier entry (${entry.check} in ${entry.file})`);
    seen.add(key);
  });
  if (problems.length > 0) throw new Error(`The electronegativity allowlist is not valid:\n  ${problems.join('\n  ')}`);
  return { findings };
}

/** Electronegativity's issues (from its programmatic API) as plain findings. */
export function normalizeIssues(issues) {
  return issues.map((issue) => ({
    check: issue.id,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    file: issue.file.split('\\').join('/'),
    line: issue.location?.line ?? 0,
    column: issue.location?.column ?? 0,
    code: typeof issue.sample === 'string' ? issue.sample : '',
    description: issue.description,
    url: issue.shortenedURL,
  }));
}

const rank = (severity) => SEVERITIES.indexOf(severity.toUpperCase());

/** Whether an allowlist entry justifies a finding: same check and file, and its code (if given) on the flagged line. */
export function justifies(entry, finding) {
  return entry.check.toUpperCase() === finding.check.toUpperCase() && entry.file === finding.file && (entry.code === undefined || finding.code.includes(entry.code));
}

/**
 * Sorts findings into `blocking` (medium or above, unjustified), `justified` (with the entry that
 * justifies each) and `notes` (below medium, unjustified); `stale` are allowlist entries that matched
 * no finding.
 */
export function applyAllowlist(findings, allowlist, blockingSeverity = BLOCKING_SEVERITY) {
  const result = { blocking: [], justified: [], notes: [], stale: [] };
  const used = new Set();
  for (const finding of findings) {
    const entry = allowlist.findings.find((e) => justifies(e, finding));
    if (entry) {
      used.add(entry);
      result.justified.push({ finding, entry });
    } else if (rank(finding.severity) >= rank(blockingSeverity)) {
      result.blocking.push(finding);
    } else {
      result.notes.push(finding);
    }
  }
  result.stale = allowlist.findings.filter((entry) => !used.has(entry));
  return result;
}

/** Whether the audit fails: an unjustified medium-or-above finding, a stale entry, or a file left unparsed. */
export function hasFailed(result, parseErrors = []) {
  return result.blocking.length > 0 || result.stale.length > 0 || parseErrors.length > 0;
}

/** The report printed to the terminal; `allowlistPath` is named where a finding needs a justification. */
export function formatReport(result, { parseErrors = [], skippedChecks = [], allowlistPath = 'security/electronegativity-allowlist.json' } = {}) {
  const where = (f) => (f.file === 'N/A' ? '(whole app)' : `${f.file}:${f.line}`);
  const lines = [];
  const section = (title, items, describe) => {
    if (items.length === 0) return;
    lines.push('', `${title} (${items.length}):`);
    for (const item of items) lines.push(...describe(item).map((line, i) => (i === 0 ? `  - ${line}` : `      ${line}`)));
  };
  section('Unjustified findings of medium severity or above', result.blocking, (f) => [
    `${f.check} [${f.severity}, ${f.confidence}] at ${where(f)}: ${f.description}`,
    ...(f.code ? [`code: ${f.code}`] : []),
    `fix it, or justify it in ${allowlistPath} (see ${f.url})`,
  ]);
  section('Stale allowlist entries, matching no finding (remove them)', result.stale, (e) => [`${e.check} in ${e.file}${e.code ? ` on "${e.code}"` : ''}`]);
  section('Files electronegativity could not parse (so did not scan)', parseErrors, (e) => [`${e.file}: ${e.message}`]);
  section('Justified', result.justified, ({ finding, entry }) => [`${finding.check} [${finding.severity}] at ${where(finding)}`, `why: ${entry.reason}`]);
  section('Notes below medium severity', result.notes, (f) => [`${f.check} [${f.severity}] at ${where(f)}: ${f.description}`]);
  section('Checks not run', skippedChecks, (s) => [`${s.check}: ${s.reason}`]);
  const failed = hasFailed(result, parseErrors);
  lines.push('', failed ? 'electronegativity: FAILED' : `electronegativity: passed (${result.justified.length} justified, ${result.notes.length} notes)`);
  return lines.join('\n');
}

/** Every scanned file under `base`, relative and `/`-separated. */
function scannedFiles(base) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (isScanned(relative(base, path).split('\\').join('/'))) {
        files.push(relative(base, path).split('\\').join('/'));
      }
    }
  };
  for (const folder of SCANNED_FOLDERS) {
    try {
      walk(join(base, folder));
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
  }
  return files;
}

/** Electronegativity's `run`, with its HTTP client replaced by one that never leaves this machine. */
function loadOffline() {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@doyensec/electronegativity');
  const gotPath = createRequire(entry).resolve('got');
  // Node lets a module be put in require.cache ahead of loading: this one answers every request as
  // "not found", which the tool handles by keeping its bundled English messages.
  const offline = new Module(gotPath);
  offline.filename = gotPath;
  offline.exports = async () => ({ statusCode: 404, body: '' });
  offline.loaded = true;
  require.cache[gotPath] = offline;
  // The tool's check lists, to refuse to skip a check it does not have (it would ignore a misspelt name).
  const checks = [...require(join(dirname(entry), 'finder/checks/GlobalChecks')).GLOBAL_CHECKS, ...require(join(dirname(entry), 'finder/checks/AtomicChecks')).CHECKS];
  return { run: require(entry), electronVersion: require('electron/package.json').version, checkNames: checks.map((check) => check.name) };
}

async function main(args) {
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] ? resolve(args[i + 1]) : fallback;
  };
  const base = option('--root', root);
  const allowlistPath = option('--allowlist', DEFAULT_ALLOWLIST);
  const allowlist = parseAllowlist(readFileSync(allowlistPath, 'utf8'));

  // Electronegativity scans one folder: a copy holding only the scanned files, at their own paths.
  const stage = mkdtempSync(join(tmpdir(), 'keyplan-electronegativity-'));
  try {
    const files = scannedFiles(base);
    for (const file of files) {
      mkdirSync(dirname(join(stage, file)), { recursive: true });
      copyFileSync(join(base, file), join(stage, file));
    }
    const { run, electronVersion, checkNames } = loadOffline();
    const unknown = SKIPPED_CHECKS.filter((s) => !checkNames.includes(s.check));
    if (unknown.length > 0) throw new Error(`Checks to skip that electronegativity does not have: ${unknown.map((s) => s.check).join(', ')}. It has ${checkNames.join(', ')}.`);
    const scan = await run({
      input: stage,
      isRelative: true,
      electronVersionOverride: electronVersion,
      excludeFromScan: SKIPPED_CHECKS.map((s) => s.check.toLowerCase()),
    });
    const parseErrors = scan.errors.filter((e) => !e.tolerable).map((e) => ({ file: relative(stage, e.file).split('\\').join('/'), message: e.message }));
    const result = applyAllowlist(normalizeIssues(scan.issues), allowlist);
    console.log(`electronegativity: ${files.length} file(s) in ${SCANNED_FOLDERS.join(', ')}, ${scan.atomicChecks + scan.globalChecks} checks, Electron ${electronVersion}`);
    console.log(formatReport(result, { parseErrors, skippedChecks: SKIPPED_CHECKS, allowlistPath: relative(process.cwd(), allowlistPath) }));
    return hasFailed(result, parseErrors) ? 1 : 0;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
