/**
 * The dependency rule, as code: `src-shared` imports nothing of Electron, Node,
 * the DOM, Svelte, Dexie or Monaco; `src-main` and `src-renderer` never import each other; inside
 * `src-shared`, `model` imports none of its siblings.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const NODE_BUILTINS = new Set(builtinModules);
const UI_LIBRARIES = ['svelte', 'dexie', 'monaco-editor'];
const DOM_GLOBALS = /(?<![\w.])(window|document|localStorage|sessionStorage|navigator|indexedDB)\s*\./;

export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) found.push((match[1] ?? match[2])!);
  return found;
}

const isPackage = (spec: string, name: string) => spec === name || spec.startsWith(`${name}/`);
const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || NODE_BUILTINS.has(spec.split('/')[0]!);

/** The layer a repository-relative path belongs to. */
function layerOf(path: string): string | undefined {
  return ['src-shared', 'src-main', 'src-renderer'].find((l) => path === l || path.startsWith(`${l}/`));
}

/** Checks one file's imports against the rule; `file` is relative to the repository root. */
export function checkFile(file: string, source: string): Violation[] {
  const violations: Violation[] = [];
  const layer = layerOf(file);
  const isTest = /\.test\.ts$/.test(file);
  for (const specifier of importsOf(source)) {
    const target = specifier.startsWith('.') ? relative('.', join(dirname(file), specifier)).split(sep).join('/') : undefined;
    const targetLayer = target ? layerOf(target) : undefined;
    const flag = (rule: string) => violations.push({ file, specifier, rule });
    if (layer === 'src-shared') {
      if (targetLayer && targetLayer !== 'src-shared') flag('src-shared imports only src-shared');
      if (isPackage(specifier, 'electron')) flag('src-shared must not import electron');
      if (!isTest && isNodeBuiltin(specifier)) flag('src-shared must not import Node built-ins');
      for (const lib of UI_LIBRARIES) if (isPackage(specifier, lib)) flag(`src-shared must not import ${lib}`);
      if (file.startsWith('src-shared/model/') && target?.startsWith('src-shared/') && !target.startsWith('src-shared/model/') && target !== 'src-shared/errors.ts') {
        flag('src-shared/model imports none of its siblings');
      }
    }
    if (layer === 'src-main' && targetLayer === 'src-renderer') flag('src-main must not import src-renderer');
    if (layer === 'src-renderer') {
      if (targetLayer === 'src-main') flag('src-renderer must not import src-main');
      if (isPackage(specifier, 'electron') || isNodeBuiltin(specifier)) flag('src-renderer runs in a sandboxed page: no electron or Node imports');
    }
  }
  if (layer === 'src-shared' && !isTest) {
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const dom = DOM_GLOBALS.exec(code);
    if (dom) violations.push({ file, specifier: dom[1]!, rule: 'src-shared must not use DOM globals' });
  }
  return violations;
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (/\.(ts|svelte)$/.test(name)) yield full;
  }
}

/** Checks every source file of the three layers under `root`. */
export function checkRepository(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const layer of ['src-shared', 'src-main', 'src-renderer']) {
    for (const full of walk(resolve(root, layer))) {
      const file = relative(root, full).split(sep).join('/');
      violations.push(...checkFile(file, readFileSync(full, 'utf8')));
    }
  }
  return violations;
}
