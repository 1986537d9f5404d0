/**
 * The Node unit tests share a worker's module cache (`isolate: false` in vitest.config.ts); a file that
 * replaces a module with `vi.mock` must run in the isolated project instead, or its mock would leak into
 * the files that run after it in the same worker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCKING_FILES } from '../vitest.config.ts';

const root = join(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') && !entry.name.endsWith('.dom.test.ts') ? [relative(root, join(root, path))] : [];
  });
}

describe('vitest isolation', () => {
  it('every Node test file that calls vi.mock runs in the isolated project, and only those', () => {
    const mocking = ['src-shared', 'src-main', 'tests']
      .flatMap(testFiles)
      .filter((file) => file !== 'tests/vitest-isolation.test.ts' && /\bvi\.mock\(/.test(readFileSync(join(root, file), 'utf8')))
      .sort();
    expect([...MOCKING_FILES].sort()).toEqual(mocking);
  });
});
