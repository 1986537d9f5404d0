import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, checkRepository } from './dependency-rule.ts';

describe('dependency rule', () => {
  it('holds for every source file in the repository', () => {
    expect(checkRepository(resolve(import.meta.dirname, '..'))).toEqual([]);
  });

  it.each([
    ['src-shared/model/x.ts', "import { app } from 'electron';", 'src-shared must not import electron'],
    ['src-shared/model/x.ts', "import { readFile } from 'node:fs/promises';", 'src-shared must not import Node built-ins'],
    ['src-shared/model/x.ts', "import path from 'path';", 'src-shared must not import Node built-ins'],
    ['src-shared/model/x.ts', "import { mount } from 'svelte';", 'src-shared must not import svelte'],
    ['src-shared/model/x.ts', "import Dexie from 'dexie';", 'src-shared must not import dexie'],
    ['src-shared/model/x.ts', "const m = import('monaco-editor/editor');", 'src-shared must not import monaco-editor'],
    ['src-shared/model/x.ts', "import { plan } from '../planner/plan.ts';", 'src-shared/model imports none of its siblings'],
    ['src-shared/ipc/x.ts', "export { x } from '../../src-main/handlers/index.ts';", 'src-shared imports only src-shared'],
    ['src-shared/model/x.ts', 'const w = window.innerWidth;', 'src-shared must not use DOM globals'],
    ['src-main/x.ts', "import App from '../src-renderer/App.svelte';", 'src-main must not import src-renderer'],
    ['src-renderer/lib/x.ts', "import { createHandlers } from '../../src-main/handlers/index.ts';", 'src-renderer must not import src-main'],
    ['src-renderer/lib/x.ts', "import { readFile } from 'node:fs';", 'src-renderer runs in a sandboxed page: no electron or Node imports'],
  ])('flags %s: %s', (file, source, rule) => {
    expect(checkFile(file, source).map((v) => v.rule)).toContain(rule);
  });

  it('allows the imports the rule permits', () => {
    expect(checkFile('src-main/x.ts', "import { parseDesign } from '../src-shared/model/validate.ts';\nimport { app } from 'electron';")).toEqual([]);
    expect(checkFile('src-renderer/x.ts', "import { parseDesign } from '../src-shared/model/validate.ts';\nimport Dexie from 'dexie';")).toEqual([]);
    expect(checkFile('src-shared/model/x.ts', "import type { Result } from '../errors.ts';\nimport { Type } from '@sinclair/typebox';")).toEqual([]);
  });
});
