/**
 * `npm run lint`: the layering rule between the three source folders (README, "Layout"), as import
 * restrictions per folder (VS Code's code-layering idea), plus a short list of cheap correctness rules.
 * No type-aware rules: the type checker runs separately (`npm run typecheck`), and the lint stays fast.
 *
 *   src-shared    pure: imports no src-main, src-renderer, Node built-in, electron, svelte, dexie or
 *                 monaco-editor, and uses no DOM global (its tests may use Node, to read fixtures);
 *                 src-shared/model imports none of its siblings but errors.ts and numbers (which import nothing).
 *   src-main      imports src-shared, never src-renderer.
 *   src-renderer  imports src-shared, never src-main, electron or Node built-ins (a sandboxed page).
 *
 * And Keyplan's own rules (`scripts/lint-rules.mjs`): an access pattern's action is asked of the
 * pattern-kinds table, never compared to a string.
 *
 * `tests/lint-layering.test.ts` lints a violating fixture for each restriction, so the rules can fail.
 */
import { builtinModules } from 'node:module';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import keyplan from './scripts/lint-rules.mjs';

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A bare module name and its subpaths: `svelte`, `svelte/store`. */
const moduleNamed = (names) => `^(${names.map(escape).join('|')})(/|$)`;

const STYLE = 'the layering rule, eslint.config.js';
const NODE_BUILTINS = builtinModules.filter((m) => !m.startsWith('_'));

/** `no-restricted-imports` patterns, one list per restriction. */
const restrict = {
  main: { regex: '(^|/)src-main(/|$)', message: `Only src-main imports src-main (${STYLE}).` },
  renderer: { regex: '(^|/)src-renderer(/|$)', message: `Only src-renderer imports src-renderer (${STYLE}).` },
  nodeBuiltins: [
    { regex: '^node:', message: `Node built-ins are for src-main only (${STYLE}).` },
    { regex: moduleNamed(NODE_BUILTINS), message: `Node built-ins are for src-main only (${STYLE}).` },
  ],
  electron: { regex: moduleNamed(['electron']), message: `Electron is for src-main only (${STYLE}).` },
  ui: [
    { regex: moduleNamed(['svelte', 'dexie', 'monaco-editor']), message: `src-shared is pure: no UI or browser libraries (${STYLE}).` },
    { regex: '\\.svelte(\\.[jt]s)?$', message: `src-shared is pure: no Svelte components or rune modules (${STYLE}).` },
  ],
  /** From a file `depth` folders inside src-shared/model, anything outside model but errors.ts and numbers (both import nothing). */
  modelSiblings: (depth) => ({
    regex: `^(\\.\\./){${depth}}(?!errors\\.ts$|numbers/index\\.ts$)`,
    message: `src-shared/model imports none of its siblings, only errors.ts and numbers/index.ts: every module may import model, so model imports none of them (${STYLE}).`,
  }),
  /** The input check compiles functions from text, which the page's content security policy forbids. */
  hostOnly: {
    regex: '/ipc/(dispatch|validate|memory)\\.ts$',
    message: 'The host checks IPC input (compiled validators need eval, which the renderer CSP forbids); the renderer only calls the client.',
  },
};

const shared = [restrict.main, restrict.renderer, restrict.electron, ...restrict.ui];

/**
 * The rules that keep a folder's imports to `patterns`: `no-restricted-imports` for import and export
 * declarations, `no-restricted-syntax` for `import()` with a literal name, which the former does not
 * see. (A selector's regex cannot hold a `/`: it is written `\x2F` there.)
 */
const importsOnly = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
  'no-restricted-syntax': [
    'error',
    ...patterns.map((p) => ({ selector: `ImportExpression > Literal.source[value=/${p.regex.replaceAll('/', '\\x2F')}/]`, message: p.message })),
  ],
});

/** DOM globals src-shared must not reach for (its tsconfig has no DOM lib; this names the rule where it is broken). */
const DOM_GLOBALS = ['window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'indexedDB'].map((name) => ({
  name,
  message: `src-shared is pure: no DOM (${STYLE}); take what you need as a parameter.`,
}));

/** Cheap correctness rules without type information: each flags a real bug, none a style. */
const CORRECTNESS = {
  'no-compare-neg-zero': 'error',
  'no-cond-assign': 'error',
  'no-control-regex': 'error',
  'no-constant-binary-expression': 'error',
  'no-debugger': 'error',
  'no-dupe-else-if': 'error',
  'no-duplicate-case': 'error',
  'no-empty-pattern': 'error',
  'no-self-compare': 'error',
  'no-sparse-arrays': 'error',
  'no-unsafe-finally': 'error',
  'no-unsafe-negation': 'error',
  'use-isnan': 'error',
  'valid-typeof': 'error',
};

/** The files `depth` folders inside src-shared/model (1: its own files, 2: model/validate/*, ...). */
const modelFiles = (depth) => `src-shared/model/${'*/'.repeat(depth - 1)}*.ts`;

export default tseslint.config(
  {
    ignores: ['out/**', 'test-results/**', 'playwright-report/**', 'tests/fixtures/**', '**/__fixtures__/**', '.*/**', 'security/**'],
  },
  ...svelte.configs['flat/base'],
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    languageOptions: { parser: tseslint.parser, globals: { ...globals.node } },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] },
      globals: { ...globals.browser },
    },
  },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.svelte'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: CORRECTNESS,
  },

  // One place per concept: an access pattern's kind is asked of the pattern-kinds table.
  {
    files: ['src-shared/**/*.ts', 'src-main/**/*.ts', 'src-renderer/**/*.ts', 'src-renderer/**/*.svelte'],
    ignores: ['**/*.test.ts', 'src-shared/model/pattern-kinds.ts'],
    plugins: { keyplan },
    rules: { 'keyplan/pattern-kinds': 'error' },
  },

  // Playwright fixtures that need none of the others take `{}` as their first parameter.
  { files: ['e2e/**/*.ts'], rules: { 'no-empty-pattern': 'off' } },

  // src-shared: pure.
  { files: ['src-shared/**/*.ts'], rules: { ...importsOnly([...shared, ...restrict.nodeBuiltins]), 'no-restricted-globals': ['error', ...DOM_GLOBALS] } },
  ...[1, 2, 3, 4, 5].map((depth) => ({
    files: [modelFiles(depth)],
    rules: importsOnly([...shared, ...restrict.nodeBuiltins, restrict.modelSiblings(depth)]),
  })),
  // Tests of shared code run in Node and may read their fixtures with it.
  { files: ['src-shared/**/*.test.ts'], rules: { ...importsOnly(shared), 'no-restricted-globals': 'off' } },
  ...[1, 2, 3, 4, 5].map((depth) => ({
    files: [modelFiles(depth).replace(/\.ts$/, '.test.ts')],
    rules: importsOnly([...shared, restrict.modelSiblings(depth)]),
  })),
  {
    // The sandboxed preload loads contract.ts for its channel lists and can require nothing but
    // Electron: a value import here would stay in its bundle as a require() even if unused.
    files: ['src-shared/ipc/contract.ts'],
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '.', allowTypeImports: true, message: 'contract.ts imports types only: the sandboxed preload bundles it and can require no package.' }] },
      ],
    },
  },

  // src-main: the host.
  { files: ['src-main/**/*.ts'], rules: importsOnly([restrict.renderer]) },

  // src-renderer: a sandboxed page.
  {
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.svelte'],
    rules: importsOnly([restrict.main, restrict.electron, ...restrict.nodeBuiltins, restrict.hostOnly]),
  },
  { files: ['src-renderer/**/*.test.ts'], rules: importsOnly([restrict.main, restrict.electron, ...restrict.nodeBuiltins]) },
);
