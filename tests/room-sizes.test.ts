/**
 * Rooms a person can read: no source file over 500 lines (tests, fixtures and generated files aside).
 * A file that grows past it is split by what its parts do, as formats/cloudformation's YAML bounds
 * were split from the template reader.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const MAX_LINES = 500;

test(`every source file is at most ${MAX_LINES} lines`, () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src-shared', 'src-main', 'src-renderer'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|svelte)$/.test(f) && !/\.test\.ts$/.test(f) && !f.includes('__fixtures__'));
  expect(files.length).toBeGreaterThan(100);
  const long = files.flatMap((f) => {
    const lines = readFileSync(resolve(root, f), 'utf8').split('\n').length;
    return lines > MAX_LINES ? [`${f}: ${lines} lines`] : [];
  });
  expect(long).toEqual([]);
});
