/**
 * `keyplan check` on work in progress: a pattern written before its entity (or whose entity has no
 * key templates yet) needs a key design. It is said as such, with the reason, not as an unserved
 * pattern with "no index suggested".
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const EXAMPLE = resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json');

async function check(json: boolean): Promise<{ code: number; stdout: string }> {
  const dir = await makeTempDir('keyplan-needs-keys-');
  const design = JSON.parse(await readFile(EXAMPLE, 'utf8'));
  const pattern = { ...design.tables[0].accessPatterns[0], id: 'ap-new', name: 'Tickets of a venue' };
  delete pattern.entityId;
  design.tables[0].accessPatterns.push(pattern);
  await writeFile(join(dir, 'wip.keyplan.json'), JSON.stringify(design));
  let stdout = '';
  const code = await main(['check', 'wip.keyplan.json', ...(json ? ['--json'] : [])], {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: () => undefined },
    cwd: dir,
  });
  return { code, stdout };
}

test('a pattern without an entity is listed as needing a key design, and the check fails saying so', async () => {
  const text = await check(false);
  expect(text.code).toBe(1);
  const line = text.stdout.split('\n').find((l) => l.includes('Tickets of a venue'));
  expect(line).toMatch(/^\s*NEEDS KEYS\s+Tickets of a venue\s+needs a key design/);
  expect(text.stdout).not.toContain('no index suggested');
  expect(text.stdout).toContain('1 access pattern needs a key design');

  const json = JSON.parse((await check(true)).stdout) as { ok: boolean; summary: { unserved: number; needKeyDesign: number }; patterns: Array<{ name: string; needsKeyDesign: string | null }> };
  expect(json.ok).toBe(false);
  expect(json.summary).toMatchObject({ unserved: 0, needKeyDesign: 1 });
  expect(json.patterns.find((p) => p.name === 'Tickets of a venue')?.needsKeyDesign).toEqual(expect.any(String));
});
