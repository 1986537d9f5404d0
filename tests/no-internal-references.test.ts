/**
 * The product cites DynamoDB's rules through docs/dynamodb-rules.md (in the repository) or AWS's own
 * pages, never through the team's internal design folder, which users cannot open. This test fails
 * on a citation of the internal reference, and on a `docs/dynamodb-rules.md §N` or `§N.M` citation
 * whose section the document does not have.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const RULES = 'docs/dynamodb-rules.md';

/** Where the product's code, text and tests live. */
const SCANNED = ['src-shared/', 'src-main/', 'src-renderer/', 'e2e/', 'bin/', 'scripts/', 'tests/', 'README.md'];
/** This file names the forbidden forms to find them. */
const SELF = 'tests/no-internal-references.test.ts';
const TEXT = /\.(?:[cm]?[jt]s|svelte|json|md|html|css|ya?ml|txt)$/;

/** Tracked files plus new ones not ignored, so files not yet committed are checked too. */
function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.split('\0').filter((f) => f !== '' && existsSync(resolve(root, f)));
}

const files = repositoryFiles().filter((f) => f !== SELF && TEXT.test(f) && SCANNED.some((s) => (s.endsWith('/') ? f.startsWith(s) : f === s)));

/** Forbidden forms: the internal reference by name, the internal folder, and "reference §N". */
const FORBIDDEN: { name: string; pattern: RegExp }[] = [
  { name: 'dynamodb-reference', pattern: /dynamodb-reference/i },
  { name: '../shared/', pattern: /\.\.\/shared\// },
  { name: 'reference §', pattern: /\breference\s+§/i },
];

interface Hit {
  file: string;
  line: number;
  text: string;
}

function hitsOf(pattern: RegExp): Hit[] {
  const hits: Hit[] = [];
  for (const file of files) {
    const lines = readFileSync(resolve(root, file), 'utf8').split('\n');
    lines.forEach((text, i) => {
      if (pattern.test(text)) hits.push({ file, line: i + 1, text: text.trim().slice(0, 160) });
    });
  }
  return hits;
}

/** Section numbers the rules document has: `## 4. …` gives "4", `### 4.6 …` gives "4.6". */
function sectionsOf(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const match of markdown.matchAll(/^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s/gm)) sections.add(match[1]!);
  return sections;
}

/**
 * Every section a `docs/dynamodb-rules.md` citation names, with the ones listed after it:
 * "docs/dynamodb-rules.md §4.1, §10.6", "§4 and §10", also across a comment's line break.
 */
const CITATION = /docs\/dynamodb-rules\.md((?:(?:[\s*,;/]|\band\b|\bor\b)*§\d+(?:\.\d+)*)+)/g;

function citedSections(source: string): string[] {
  const cited: string[] = [];
  for (const match of source.matchAll(CITATION)) {
    for (const section of match[1]!.matchAll(/§(\d+(?:\.\d+)*)/g)) cited.push(section[1]!);
  }
  return cited;
}

describe('no citations of the internal DynamoDB reference', () => {
  it('scans the product files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(FORBIDDEN)('no file cites "$name"', ({ pattern }) => {
    expect(hitsOf(pattern).map((h) => `${h.file}:${h.line}: ${h.text}`)).toEqual([]);
  });
});

describe(`citations of ${RULES}`, () => {
  const sections = sectionsOf(readFileSync(resolve(root, RULES), 'utf8'));

  it('the document has the numbered sections §1 to §13', () => {
    for (let n = 1; n <= 13; n++) expect(sections.has(String(n)), `§${n}`).toBe(true);
  });

  it('reads every section of a citation list', () => {
    expect(citedSections('see docs/dynamodb-rules.md §4.1, §10.6 and §5; not §7')).toEqual(['4.1', '10.6', '5']);
    expect(citedSections(' * (docs/dynamodb-rules.md §4.5,\n * §10.5); other')).toEqual(['4.5', '10.5']);
  });

  it('every § names the document: no bare "§N" left from the internal reference (or design notes)', () => {
    const bare: string[] = [];
    for (const file of files) {
      const source = readFileSync(resolve(root, file), 'utf8').replace(CITATION, '');
      source.split('\n').forEach((text, i) => {
        if (/§\s*\d/.test(text)) bare.push(`${file}:${i + 1}: ${text.trim().slice(0, 160)}`);
      });
    }
    expect(bare).toEqual([]);
  });

  it('every cited section exists', () => {
    const missing: string[] = [];
    for (const file of files) {
      const source = readFileSync(resolve(root, file), 'utf8');
      for (const section of citedSections(source)) if (!sections.has(section)) missing.push(`${file}: §${section}`);
    }
    expect(missing).toEqual([]);
  });
});
