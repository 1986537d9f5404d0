/**
 * README's Layout names every folder of the repository and every module of src-shared, the modules
 * in the order of their floors (`LADDER` in scripts/lint-rules.mjs, which `keyplan/layers` enforces),
 * and its sentence on the ladder lists the same floors. A module or folder added, removed or moved
 * to another floor without README following fails here; the made-up cases show each check failing.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LADDER } from '../scripts/lint-rules.mjs';

const root = resolve(import.meta.dirname, '..');

/** What is wrong with README's Layout section, given the repository's folders, src-shared's entries and the ladder. */
function layoutProblems(readme: string, folders: readonly string[], modules: readonly string[], ladder: readonly (readonly string[])[]): string[] {
  const start = readme.indexOf('\n## Layout\n');
  if (start < 0) return ['README has no "## Layout" section'];
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const rows = (indent: string) => [...block.matchAll(new RegExp(`^${indent}(\\S+?)/?(?= |$)`, 'gm'))].map((m) => m[1]!);
  const topRows = rows('');
  const moduleRows = rows('  ');
  const problems = [
    ...folders.filter((f) => !topRows.includes(f)).map((f) => `the folder ${f}/ is not in Layout`),
    ...topRows.filter((f) => !folders.includes(f)).map((f) => `Layout names ${f}/, which does not exist`),
    ...modules.filter((m) => !moduleRows.includes(m)).map((m) => `src-shared/${m} is not in Layout`),
    ...moduleRows.filter((m) => !modules.includes(m)).map((m) => `Layout names src-shared/${m}, which does not exist`),
  ];
  const order = ladder.flat().filter((m) => moduleRows.includes(m));
  const listed = moduleRows.filter((m) => order.includes(m));
  if (listed.join() !== order.join()) problems.push(`Layout lists src-shared's modules as ${listed.join(', ')}; the ladder's order is ${order.join(', ')}`);
  const floors = ladder.map((floor) => floor.join(', ')).join(' | ');
  if (!section.replace(/\s+/g, ' ').includes(floors)) problems.push(`Layout's sentence on the ladder does not list its floors as "${floors}"`);
  return problems;
}

describe("README's Layout", () => {
  test('names every folder and every src-shared module, in the order of the ladder', () => {
    const folders = [...new Set(execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter((p) => p.includes('/')).map((p) => p.split('/')[0]!))].filter((f) => !f.startsWith('.'));
    const modules = readdirSync(resolve(root, 'src-shared'), { withFileTypes: true })
      .filter((e) => e.isDirectory() || (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')))
      .map((e) => e.name);
    expect(modules).toContain('errors.ts');
    expect(modules).toContain('compare');
    expect(folders).toContain('src-shared');
    expect(layoutProblems(readFileSync(resolve(root, 'README.md'), 'utf8'), folders, modules, LADDER)).toEqual([]);
  });

  const readme = (block: string, sentence: string) => `# K\n\n## Layout\n\n\`\`\`\n${block}\`\`\`\n\n${sentence}\n\n## Next\n`;
  const ladder = [['errors.ts', 'text'], ['model'], ['planner', 'capacity']];
  const ok = 'src-shared/   pure\n  errors.ts   errors\n  text/       text\n  model/      the design\n  planner/    plans\n  capacity/   sizes\ntests/        checks\n';
  const sentence = 'Floors: errors.ts, text | model | planner,\ncapacity.';
  const modules = ['errors.ts', 'text', 'model', 'planner', 'capacity'];
  test.each<[string, string, string, string[], RegExp[]]>([
    ['a true Layout', ok, sentence, ['src-shared', 'tests'], []],
    ['a module left out', ok.replace('  text/       text\n', ''), sentence, ['src-shared', 'tests'], [/src-shared\/text is not in Layout/]],
    ['a folder left out, another named that is gone', ok, sentence, ['src-shared', 'tests', 'docs'], [/folder docs\/ is not in Layout/]],
    ['modules out of the ladder\'s order', ok.replace('  model/      the design\n', '').replace('tests/', '  model/      late\ntests/'), sentence, ['src-shared', 'tests'], [/the ladder's order is errors\.ts, text, model, planner, capacity/]],
    ['a sentence with another ladder', ok, 'Floors: errors.ts, text | planner, capacity | model.', ['src-shared', 'tests'], [/does not list its floors/]],
  ])('fails on a made-up README: %s', (_what, block, text, folders, expected) => {
    const problems = layoutProblems(readme(block, text), folders, modules, ladder);
    expect(problems).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(problems[i]).toMatch(re));
  });
});
