/**
 * The layering rule is enforced by `npm run lint` (eslint.config.js); these cases prove each of its
 * restrictions can fail. Every fixture under tests/fixtures/lint is linted as if it stood at the same
 * path from the repository root, without its `.txt` suffix.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const fixtures = join(root, 'tests/fixtures/lint');
const eslint = new ESLint({ cwd: root });

/** The problems ESLint reports for the fixture `path` (repository-relative, without `.txt`), as `rule: message` at `line`. */
async function lintAs(path: string): Promise<{ rule: string | null; line: number; message: string }[]> {
  const source = readFileSync(join(fixtures, `${path}.txt`), 'utf8');
  const [result] = await eslint.lintText(source, { filePath: join(root, path) });
  if (result === undefined) throw new Error(`ESLint returned no result for ${path}`);
  return result.messages.map((m) => ({ rule: m.ruleId, line: m.line, message: m.message }));
}

const RESTRICTED = 'no-restricted-imports';
const KINDS = 'keyplan/pattern-kinds';
const LAYERS = 'keyplan/layers';
const UPWARD = /imports only modules on floors below its own/;
const ENTRY = /through src-shared\/\w+\/index\.ts/;

describe('the layering lint', { timeout: 30_000 }, () => {
  test.each<[string, string, { rule: string; line: number; message: RegExp }[]]>([
    ['src-shared imports nothing of src-main', 'src-shared/ipc/imports-main.ts', [{ rule: RESTRICTED, line: 1, message: /Only src-main imports src-main/ }]],
    ['src-shared imports nothing of src-renderer, types included', 'src-shared/numbers/imports-renderer.ts', [
      { rule: RESTRICTED, line: 1, message: /Only src-renderer imports src-renderer/ },
      { rule: RESTRICTED, line: 1, message: /no Svelte components or rune modules/ },
    ]],
    [
      'src-shared imports no Node built-in, with or without node:',
      'src-shared/model/imports-node.ts',
      [
        { rule: RESTRICTED, line: 1, message: /Node built-ins are for src-main only/ },
        { rule: RESTRICTED, line: 2, message: /Node built-ins are for src-main only/ },
      ],
    ],
    ['src-shared imports no electron', 'src-shared/planner/imports-electron.ts', [{ rule: RESTRICTED, line: 1, message: /Electron is for src-main only/ }]],
    [
      'src-shared imports no svelte, dexie, monaco-editor or Svelte component, not even with import()',
      'src-shared/capacity/imports-ui.ts',
      [
        ...[1, 2, 3, 4].map((line) => ({ rule: RESTRICTED, line, message: /src-shared is pure: no (UI or browser libraries|Svelte components)/ })),
        { rule: 'no-restricted-syntax', line: 7, message: /src-shared is pure: no UI or browser libraries/ },
      ],
    ],
    ['src-shared uses no DOM global in code', 'src-shared/sample/uses-dom.ts', [
      { rule: 'no-restricted-globals', line: 2, message: /'window'.*no DOM/ },
      { rule: 'no-restricted-globals', line: 2, message: /'document'.*no DOM/ },
    ]],
    ['src-shared/model imports no module above it, only the ground floor', 'src-shared/model/imports-planner.ts', [{ rule: LAYERS, line: 2, message: /model \(floor 1\) imports src-shared\/planner \(floor 3\)/ }]],
    ['src-shared/model imports no module above it from a subfolder either, nor an inner file of one', 'src-shared/model/validate/imports-costing.ts', [
      { rule: LAYERS, line: 2, message: UPWARD },
      { rule: LAYERS, line: 2, message: ENTRY },
    ]],
    ['a src-shared module imports none above it, types and re-exports included', 'src-shared/sample/imports-partition.ts', [
      { rule: LAYERS, line: 1, message: /sample \(floor 5\) imports src-shared\/partition \(floor 6\)/ },
      { rule: LAYERS, line: 3, message: /sample \(floor 5\) imports src-shared\/compare \(floor 7\)/ },
    ]],
    ['a src-shared module imports no neighbour on its own floor', 'src-shared/run/imports-compare.ts', [{ rule: LAYERS, line: 2, message: /run \(floor 7\) imports src-shared\/compare \(floor 7\)/ }]],
    ['a new src-shared module must be placed on the ladder', 'src-shared/newarea/imports-model.ts', [{ rule: LAYERS, line: 1, message: /src-shared\/newarea is on no floor of the ladder/ }]],
    [
      "the renderer imports a src-shared module through its index.ts only: types, re-exports, import() and import types included",
      'src-renderer/state/imports-inner.svelte.ts',
      [
        { rule: LAYERS, line: 1, message: /Import src-shared\/model\/schema\.ts through src-shared\/model\/index\.ts/ },
        { rule: LAYERS, line: 3, message: /Import src-shared\/planner\/read\.ts through/ },
        { rule: LAYERS, line: 4, message: /Import src-shared\/sample\/types\.ts through/ },
        { rule: LAYERS, line: 6, message: /Import src-shared\/costing\/money\.ts through/ },
      ],
    ],
    ['e2e, tests and benchmarks import a src-shared module through its index.ts too (its fixtures aside)', 'e2e/pages/imports-inner.ts', [
      { rule: LAYERS, line: 1, message: /Import src-shared\/model\/schema\.ts through src-shared\/model\/index\.ts/ },
    ]],
    ['only the preload imports contract.ts alone', 'src-main/window.ts', [{ rule: LAYERS, line: 1, message: /Import src-shared\/ipc\/contract\.ts through src-shared\/ipc\/index\.ts/ }]],
    ['contract.ts imports types only (the sandboxed preload bundles it)', 'src-shared/ipc/contract.ts', [
      { rule: '@typescript-eslint/no-restricted-imports', line: 2, message: /contract\.ts imports types only/ },
    ]],
    ['src-main imports nothing of src-renderer', 'src-main/imports-renderer.ts', [{ rule: RESTRICTED, line: 1, message: /Only src-renderer imports src-renderer/ }]],
    ['src-renderer imports nothing of src-main', 'src-renderer/lib/imports-main.ts', [{ rule: RESTRICTED, line: 1, message: /Only src-main imports src-main/ }]],
    ['a Svelte component imports no Node built-in and no electron', 'src-renderer/features/data/ImportsNode.svelte', [
      { rule: RESTRICTED, line: 2, message: /Node built-ins are for src-main only/ },
      { rule: RESTRICTED, line: 3, message: /Electron is for src-main only/ },
    ]],
    ['the renderer does not import the host side of ipc (host.ts)', 'src-renderer/state/imports-dispatch.svelte.ts', [{ rule: RESTRICTED, line: 1, message: /renderer CSP forbids/ }]],
    [
      'an access-pattern action is asked of the kinds table: no comparison, list test or non-exhaustive switch',
      'src-shared/costing/compares-action.ts',
      [
        { rule: KINDS, line: 2, message: /Compare no access-pattern action to a string/ },
        { rule: KINDS, line: 2, message: /Compare no access-pattern action to a string/ },
        { rule: KINDS, line: 3, message: /Test no access-pattern action against a list/ },
        { rule: KINDS, line: 5, message: /ends in `default: unreachableAction\(action\)`/ },
      ],
    ],
    ['a Svelte template asks the kinds table too', 'src-renderer/features/patterns/ComparesAction.svelte', [{ rule: KINDS, line: 5, message: /Compare no access-pattern action/ }]],
  ])('%s', async (_rule, path, expected) => {
    const problems = await lintAs(path);
    expect(problems).toHaveLength(expected.length);
    expect(problems).toEqual(expected.map((e) => ({ rule: e.rule, line: e.line, message: expect.stringMatching(e.message) })));
  });

  test.each([
    ['src-main may import src-shared, Node and electron', 'src-main/allowed.ts'],
    ['src-shared may import model, numbers and TypeBox', 'src-shared/costing/allowed.ts'],
    ['a test of src-shared may read its fixtures with Node', 'src-shared/model/allowed.test.ts'],
    ['a Svelte component may import svelte and src-shared, and use the DOM', 'src-renderer/features/data/Allowed.svelte'],
    ['the preload may import contract.ts alone, and the host ipc/host.ts', 'src-main/preload.ts'],
    ['a test of src-shared may import a module above its own, and that module\'s fixtures', 'src-shared/sample/reads-partition.test.ts'],
  ])('allows what the rule permits: %s', async (_what, path) => {
    expect(await lintAs(path)).toEqual([]);
  });
});
