/** Types for scripts/electronegativity.mjs, so its tests are type-checked. */

export type Severity = 'INFORMATIONAL' | 'LOW' | 'MEDIUM' | 'HIGH';

/** One electronegativity finding; `file` is relative to the scanned root, `N/A` for whole-app checks. */
export interface Finding {
  check: string;
  severity: string;
  confidence: string;
  file: string;
  line: number;
  column: number;
  /** The flagged source line, trimmed ('' when the check has none). */
  code: string;
  description: string;
  url: string;
}

export interface AllowlistEntry {
  check: string;
  file: string;
  /** Text the flagged line must contain; without it, every finding of the check in the file matches. */
  code?: string | undefined;
  reason: string;
}

export interface Allowlist {
  findings: AllowlistEntry[];
}

export interface SkippedCheck {
  /** The check's class name, as electronegativity's --exclude-checks takes it. */
  check: string;
  reason: string;
}

export interface AllowlistResult {
  blocking: Finding[];
  justified: { finding: Finding; entry: AllowlistEntry }[];
  notes: Finding[];
  stale: AllowlistEntry[];
}

export interface ElectronegativityIssue {
  id: string;
  file: string;
  location?: { line: number; column: number };
  sample?: string;
  description: string;
  shortenedURL: string;
  severity: { name: string };
  confidence: { name: string };
}

export const SEVERITIES: Severity[];
export const BLOCKING_SEVERITY: Severity;
export const SCANNED_FOLDERS: string[];
export const SKIPPED_CHECKS: SkippedCheck[];
export function isScanned(path: string): boolean;
export function parseAllowlist(json: unknown): Allowlist;
export function normalizeIssues(issues: ElectronegativityIssue[]): Finding[];
export function justifies(entry: AllowlistEntry, finding: Finding): boolean;
export function applyAllowlist(findings: Finding[], allowlist: Allowlist, blockingSeverity?: Severity): AllowlistResult;
export function hasFailed(result: AllowlistResult, parseErrors?: { file: string; message: string }[]): boolean;
export function formatReport(
  result: AllowlistResult,
  details?: { parseErrors?: { file: string; message: string }[]; skippedChecks?: SkippedCheck[]; allowlistPath?: string },
): string;
