/**
 * Rooms a person can read: no source file over 500 lines and no function over 120 (tests, test suites,
 * fixtures and generated files aside).
 * A file that grows past it is split by what its parts do, as formats/cloudformation's YAML bounds
 * were split from the template reader.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const MAX_LINES = 500;
const MAX_FUNCTION_LINES = 120;

/** Source files of the product: TypeScript and Svelte, not tests or fixtures. */
function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src-shared', 'src-main', 'src-renderer'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|svelte)$/.test(f) && !/\.(test|suite)\.ts$/.test(f) && !f.includes('__fixtures__'));
}

/** Functions (declarations, methods, arrows, expressions) of `text` longer than `max` lines, as `file:line (n lines)`. */
export function longFunctions(file: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
      if (lines > max) found.push(`${file}:${first + 1} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('longFunctions finds a function over the bound, nested ones too, and nothing shorter', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');
  expect(longFunctions('a.ts', `function short() {\n${body(3)}\n}\n`, 10)).toEqual([]);
  expect(longFunctions('a.ts', `export const f = () => {\n${body(12)}\n};\n`, 10)).toEqual(['a.ts:1 (14 lines)']);
});

test(`every source file is at most ${MAX_LINES} lines`, () => {
  const files = sourceFiles();
  expect(files.length).toBeGreaterThan(100);
  const long = files.flatMap((f) => {
    const lines = readFileSync(resolve(root, f), 'utf8').split('\n').length;
    return lines > MAX_LINES ? [`${f}: ${lines} lines`] : [];
  });
  expect(long).toEqual([]);
});

test(`every function of the TypeScript sources is at most ${MAX_FUNCTION_LINES} lines`, () => {
  const files = sourceFiles().filter((f) => f.endsWith('.ts'));
  expect(files.flatMap((f) => longFunctions(f, readFileSync(resolve(root, f), 'utf8'), MAX_FUNCTION_LINES))).toEqual([]);
});
