/**
 * `keyplan check` fails a design DynamoDB could not take writes for: an item estimated over 400 KB.
 * Sizes by the item-size rule: each attribute's name bytes plus its value bytes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { main } from '../cli.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';

const EXAMPLE = resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json');

async function check(manualBytes: number, json: boolean): Promise<{ code: number; stdout: string }> {
  const dir = await makeTempDir('keyplan-limits-');
  const design = JSON.parse(await readFile(EXAMPLE, 'utf8'));
  // A product manual stored in the item: "manual" (6 bytes) and its text.
  design.tables[0].entities.find((e: { name: string }) => e.name === 'Product').attributes.push({ name: 'manual', type: 'S', averageSizeBytes: manualBytes });
  await writeFile(join(dir, 'd.keyplan.json'), JSON.stringify(design));
  let stdout = '';
  const code = await main(['check', 'd.keyplan.json', ...(json ? ['--json'] : [])], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => undefined }, cwd: dir });
  return { code, stdout };
}

test('an item estimated over 400 KB is a problem at its entity, and the check fails', async () => {
  // 450,000 bytes of manual alone is over 409,600: 450,006 B with its name is 439.5 KB, about 440 KB with the product's other attributes.
  const over = await check(450_000, false);
  expect(over.code).toBe(1);
  expect(over.stdout).toMatch(/^tables\[0\]\.entities\[1\]: Product items are estimated at 440(\.\d)? KB: over DynamoDB's 400 KB item limit/m);
  expect(over.stdout).toContain('FAILED: 1 problem.');
  const json = JSON.parse((await check(450_000, true)).stdout) as { ok: boolean; problems: Array<{ code: string; path: string }> };
  expect(json.ok).toBe(false);
  expect(json.problems).toEqual([expect.objectContaining({ code: 'model.itemTooLarge', path: 'tables[0].entities[1]' })]);

  // 300,000 bytes leaves the item well under the limit.
  const under = await check(300_000, false);
  expect(under.code).toBe(0);
  expect(under.stdout).toContain('OK: no problems');
});
