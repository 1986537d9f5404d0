/**
 * The layers inside src-renderer, checked over every import of every source file (static, re-export
 * and `import()`):
 *
 *   App.svelte, main.ts  the window: may import anything of the renderer
 *   features/<name>/     one screen or dialog: its own folder, ui/, state/, lib/ and src-shared only;
 *                        never another feature (what two features share lives in ui/ or state/)
 *   ui/                  shared components: ui/, state/ and src-shared
 *   state/               state classes: state/, lib/ and src-shared; never a component
 *   lib/                 host transport, database, Monaco: lib/ and src-shared
 *
 * A test file may also read fixtures from elsewhere in the repository. The cases below feed the check
 * made-up files that break each rule, so it can be seen to fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');

type Area = 'app' | 'ui' | 'state' | 'lib' | 'src-shared' | 'outside' | `feature:${string}`;

const ALLOWED: Record<'app' | 'ui' | 'state' | 'lib' | 'feature', readonly string[]> = {
  app: ['app', 'ui', 'state', 'lib', 'feature', 'src-shared'],
  feature: ['ui', 'state', 'lib', 'src-shared'],
  ui: ['ui', 'state', 'src-shared'],
  state: ['state', 'lib', 'src-shared'],
  lib: ['lib', 'src-shared'],
};

const RULE: Record<keyof typeof ALLOWED, string> = {
  app: 'the window imports anything of the renderer',
  feature: 'a feature imports only its own folder, ui/, state/, lib/ and src-shared: what two features share belongs in ui/ or state/',
  ui: 'ui/ imports only ui/, state/ and src-shared',
  state: 'state/ imports only state/, lib/ and src-shared: never a feature or a component',
  lib: 'lib/ imports only lib/ and src-shared',
};

/** The layer of a repository-relative path. */
function areaOf(path: string): Area {
  if (path.startsWith('src-shared/')) return 'src-shared';
  if (!path.startsWith('src-renderer/')) return 'outside';
  const parts = path.slice('src-renderer/'.length).split('/');
  if (parts.length === 1) return 'app';
  if (parts[0] === 'features') return `feature:${parts[1]}`;
  if (parts[0] === 'ui' || parts[0] === 'state' || parts[0] === 'lib') return parts[0];
  return 'outside';
}

const IMPORT = /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative module names a source imports or re-exports (packages are not layers here). */
function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!).filter((name) => name.startsWith('.'));
}

/** Every import of `path` (repository-relative) that its layer does not allow, as `path imports target: rule`. */
function violationsOf(path: string, source: string): string[] {
  const from = areaOf(path);
  if (from === 'outside' || from === 'src-shared') return [];
  const kind = from.startsWith('feature:') ? 'feature' : (from as keyof typeof ALLOWED);
  const isTest = /\.test\.ts$/.test(path);
  return importsOf(source).flatMap((name) => {
    const target = posix.normalize(posix.join(posix.dirname(path), name.replace(/\?.*$/, '')));
    const to = areaOf(target);
    if (to === from) return [];
    if (to === 'outside' && isTest) return [];
    const toKind = to.startsWith('feature:') ? 'feature' : to;
    return ALLOWED[kind].includes(toKind) && !(kind === 'feature' && toKind === 'feature') ? [] : [`${path} imports ${target}: ${RULE[kind]}`];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|svelte)$/.test(entry.name) ? [path] : [];
  });
}

/** Every violation in the src-renderer folder under `repo`. */
function rendererViolations(repo: string): string[] {
  return sourceFiles(join(repo, 'src-renderer')).flatMap((file) => violationsOf(relative(repo, file).split(/[\\/]/).join('/'), readFileSync(file, 'utf8')));
}

describe('the layers of the renderer', () => {
  test('every import of src-renderer keeps to its layer', () => {
    expect(rendererViolations(root)).toEqual([]);
  });

  test('the check reads every source file of the renderer', () => {
    const files = sourceFiles(join(root, 'src-renderer')).map((f) => relative(root, f).split(/[\\/]/).join('/'));
    expect(files).toEqual(expect.arrayContaining(['src-renderer/App.svelte', 'src-renderer/state/workspace.svelte.ts', 'src-renderer/features/json/JsonScreen.svelte']));
    expect(files.length).toBeGreaterThan(100);
  });

  test.each([
    [
      'a feature component imports another feature',
      'src-renderer/features/costs/CostsScreen.svelte',
      `<script lang="ts">\n  import PlanBadge from '../patterns/PlanBadge.svelte';\n</script>`,
      ['src-renderer/features/costs/CostsScreen.svelte imports src-renderer/features/patterns/PlanBadge.svelte: a feature imports only its own folder'],
    ],
    [
      'a feature module imports a type of another feature',
      'src-renderer/features/patterns/panel.ts',
      `import type { KeyColumn } from '../data/format.ts';`,
      ['src-renderer/features/patterns/panel.ts imports src-renderer/features/data/format.ts: a feature imports only its own folder'],
    ],
    [
      'state imports a feature module',
      'src-renderer/state/import.svelte.ts',
      `import { readImport } from '../features/import/read-import.ts';`,
      ['src-renderer/state/import.svelte.ts imports src-renderer/features/import/read-import.ts: state/ imports only state/'],
    ],
    [
      'state re-exports from a feature',
      'src-renderer/state/json.ts',
      `export { rawJsonOf } from '../features/json/raw-json.svelte.ts';`,
      ['src-renderer/state/json.ts imports src-renderer/features/json/raw-json.svelte.ts: state/ imports only state/'],
    ],
    [
      'state loads a component with import()',
      'src-renderer/state/dialogs.ts',
      `const load = () => import('../ui/Modal.svelte');`,
      ['src-renderer/state/dialogs.ts imports src-renderer/ui/Modal.svelte: state/ imports only state/'],
    ],
    [
      'a shared component imports a feature',
      'src-renderer/ui/Badge.svelte',
      `<script lang="ts">\n  import { fuzzyMatch } from '../features/palette/fuzzy.ts';\n</script>`,
      ['src-renderer/ui/Badge.svelte imports src-renderer/features/palette/fuzzy.ts: ui/ imports only'],
    ],
    [
      'lib imports state',
      'src-renderer/lib/api.ts',
      `import { getWorkspace } from '../state/workspace.svelte.ts';`,
      ['src-renderer/lib/api.ts imports src-renderer/state/workspace.svelte.ts: lib/ imports only'],
    ],
    [
      'a feature imports the window',
      'src-renderer/features/shell/TopBar.svelte',
      `<script>import App from '../../App.svelte';</script>`,
      ['src-renderer/features/shell/TopBar.svelte imports src-renderer/App.svelte: a feature imports only its own folder'],
    ],
    [
      'a source file reads a test fixture',
      'src-renderer/state/examples.ts',
      `import shop from '../../e2e/data/shop.json?raw';`,
      ['src-renderer/state/examples.ts imports e2e/data/shop.json: state/ imports only'],
    ],
  ])('fails when %s', (_what, path, source, expected) => {
    const found = violationsOf(path, source);
    expect(found).toHaveLength(expected.length);
    expected.forEach((start, i) => expect(found[i]).toMatch(new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)));
  });

  test.each([
    ['a feature imports its own folder, ui/, state/, lib/ and src-shared', 'src-renderer/features/json/JsonScreen.svelte', [
      `import X from './Part.svelte';`,
      `import { formatBytes } from '../../ui/format.ts';`,
      `import { getWorkspace } from '../../state/workspace.svelte.ts';`,
      `import { loadMonaco } from '../../lib/monaco-loader.ts';`,
      `import type { Design } from '../../../src-shared/model/schema.ts';`,
      `import { tick } from 'svelte';`,
    ]],
    ['a feature subfolder imports its own feature', 'src-renderer/features/patterns/solver/SolverDialog.svelte', [`import PatternEditor from '../PatternEditor.svelte';`]],
    ['the window imports every layer', 'src-renderer/App.svelte', [`import TopBar from './features/shell/TopBar.svelte';`, `import { Workspace } from './state/workspace.svelte.ts';`]],
    ['a shared component imports state', 'src-renderer/ui/TablePicker.svelte', [`import { getWorkspace } from '../state/workspace.svelte.ts';`]],
    ['state imports lib', 'src-renderer/state/session.svelte.ts', [`import { loadedMonaco } from '../lib/monaco-loader.ts';`]],
    ['a test reads fixtures from elsewhere', 'src-renderer/state/read-import.test.ts', [`import workbench from '../../e2e/data/shop.json?raw';`]],
  ])('allows what the layers permit: %s', (_what, path, lines) => {
    expect(violationsOf(path, lines.join('\n'))).toEqual([]);
  });
});
