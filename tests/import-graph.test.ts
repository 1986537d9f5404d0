/**
 * No import circle anywhere in src-shared, src-main or src-renderer, type-only imports included: every
 * `import`, `import type`, `export … from`, `import()` and `import('…')` type of every source file,
 * tests and Svelte components too, is an arrow of one graph, and the graph has no cycle. A circle
 * means two files (or modules, through their index.ts) cannot be read, tested or moved apart; the
 * ladder of src-shared (`keyplan/layers`, eslint.config.js) keeps the modules apart, this keeps the files.
 * The cases below feed the check made-up files with a circle, so it can be seen to fail.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** The relative module names a source imports, re-exports or loads, types included (packages are not files here). */
function importsOf(path: string, text: string): string[] {
  const code = path.endsWith('.svelte') ? [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n') : text;
  return ts
    .preProcessFile(code, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith('.'));
}

/** The file an import names, as a repository-relative path: as written, or with `.ts` or `/index.ts`. */
function resolveImport(from: string, name: string, exists: (path: string) => boolean): string {
  const target = posix.normalize(posix.join(posix.dirname(from), name.replace(/\?.*$/, '')));
  return [target, `${target}.ts`, `${target}/index.ts`].find(exists) ?? target;
}

/** Arrows from each file to the files it imports. `files`: repository-relative path → source text. */
function graphOf(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const exists = (path: string) => files.has(path);
  return new Map([...files].map(([path, text]) => [path, importsOf(path, text).map((name) => resolveImport(path, name, exists)).filter(exists)]));
}

/** Every circle of the graph (Tarjan's strongly connected components of two or more files, or a file importing itself), each sorted. */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|svelte)$/.test(entry.name) ? [path] : [];
  });
}

describe('the import graph', () => {
  test('has no circle in src-shared, src-main or src-renderer, type-only imports included', () => {
    const files = new Map(
      ['src-shared', 'src-main', 'src-renderer'].flatMap((dir) => sourceFiles(join(root, dir))).map((path) => [relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8')] as const),
    );
    const graph = graphOf(files);
    expect(graph.size).toBeGreaterThan(500);
    // The walk sees through index.ts, type imports and Svelte components: spot-check three arrows it must hold.
    expect(graph.get('src-shared/ipc/error-codes.ts')).toContain('src-shared/model/index.ts');
    expect(graph.get('src-shared/model/index.ts')).toContain('src-shared/model/schema.ts');
    expect(existsSync(join(root, 'src-renderer/App.svelte')) && graph.get('src-renderer/App.svelte')!.length).toBeGreaterThan(0);
    expect(circlesOf(graph)).toEqual([]);
  });

  test.each<[string, Record<string, string>, string[][]]>([
    ['two files importing each other', { 'src-shared/a/x.ts': "import { y } from './y.ts';", 'src-shared/a/y.ts': "import { x } from './x.ts';" }, [['src-shared/a/x.ts', 'src-shared/a/y.ts']]],
    [
      'a circle of type-only imports',
      { 'src-shared/a/x.ts': "import type { Y } from './y.ts';", 'src-shared/a/y.ts': "import type { Z } from './z.ts';", 'src-shared/a/z.ts': "export type { X } from './x.ts';" },
      [['src-shared/a/x.ts', 'src-shared/a/y.ts', 'src-shared/a/z.ts']],
    ],
    [
      "two modules through their index.ts, one of them by an import() type",
      {
        'src-shared/a/index.ts': "export * from './x.ts';",
        'src-shared/a/x.ts': "import { b } from '../b/index.ts';",
        'src-shared/b/index.ts': "export * from './y.ts';",
        'src-shared/b/y.ts': "export type A = import('../a').X;",
      },
      [['src-shared/a/index.ts', 'src-shared/a/x.ts', 'src-shared/b/index.ts', 'src-shared/b/y.ts']],
    ],
    [
      'a Svelte component and the state it imports',
      { 'src-renderer/ui/Panel.svelte': "<script lang=\"ts\">\n  import { panel } from './panel.svelte.ts';\n</script>", 'src-renderer/ui/panel.svelte.ts': "export const panel = import('./Panel.svelte');" },
      [['src-renderer/ui/Panel.svelte', 'src-renderer/ui/panel.svelte.ts']],
    ],
    ['no circle: a chain', { 'src-shared/a/x.ts': "import { y } from './y.ts';", 'src-shared/a/y.ts': "import { z } from '../b/z.ts';", 'src-shared/b/z.ts': 'export const z = 1;' }, []],
  ])('finds a circle in made-up files: %s', (_what, files, circles) => {
    expect(circlesOf(graphOf(new Map(Object.entries(files))))).toEqual(circles);
  });
});
