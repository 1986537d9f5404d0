/**
 * Module header comments stay short: what the module is and where its rules live, at most 12 lines.
 * A longer explanation goes to docs/ (docs/modules.md holds the ones moved out of headers), where it
 * is read as a document rather than scrolled past on the way to the code.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const MAX_HEADER_LINES = 12;

/** The leading comment of a source file (of a Svelte component's script), or undefined. */
export function headerOf(text: string, svelte: boolean): string | undefined {
  let body = text;
  if (svelte) {
    const script = /<script[^>]*>\n?/.exec(text);
    if (!script) return undefined;
    body = text.slice(script.index + script[0].length);
  }
  return /^\s*(\/\*[\s\S]*?\*\/|(?:\/\/[^\n]*\n)+)/.exec(body)?.[1]?.trimEnd();
}

test('headerOf reads a block comment and a run of line comments, and counts nothing else', () => {
  expect(headerOf('/**\n * A.\n */\nimport x;\n', false)).toBe('/**\n * A.\n */');
  expect(headerOf('// one\n// two\nconst a = 1;\n', false)).toBe('// one\n// two');
  expect(headerOf('<script lang="ts">\n  /** C. */\n</script>', true)).toBe('/** C. */');
  expect(headerOf('import x from "y";\n/** not a header */\n', false)).toBeUndefined();
});

test(`every source module's header comment is at most ${MAX_HEADER_LINES} lines`, () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src-shared', 'src-main', 'src-renderer'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|svelte)$/.test(f) && !f.endsWith('.test.ts') && !f.includes('__fixtures__'));
  expect(files.length).toBeGreaterThan(100);
  const long = files.flatMap((f) => {
    const header = headerOf(readFileSync(resolve(root, f), 'utf8'), f.endsWith('.svelte'));
    const lines = header?.split('\n').length ?? 0;
    return lines > MAX_HEADER_LINES ? [`${f}: ${lines} lines`] : [];
  });
  expect(long).toEqual([]);
});
