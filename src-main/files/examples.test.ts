import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { sampleDesign } from '../test-support/designs.ts';
import { createExampleLibrary } from './examples.ts';

const shippedExamples = resolve(import.meta.dirname, '../../examples');

describe('the example library', () => {
  test('every shipped example opens as a valid design', async () => {
    const broken: string[] = [];
    const library = createExampleLibrary(shippedExamples, (id) => broken.push(id));
    const examples = await library.list();
    expect(broken).toEqual([]);
    expect(examples.map((e) => e.id)).toContain('ecommerce');
    for (const { id } of examples) expect((await library.open(id)).formatVersion).toBe(1);
  });

  test('reports a broken example and lists the rest', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'good.keyplan.json'), JSON.stringify(sampleDesign('Good')));
    await writeFile(join(dir, 'bad.keyplan.json'), '{');
    const broken: string[] = [];
    const examples = await createExampleLibrary(dir, (id) => broken.push(id)).list();
    expect(examples.map((e) => e.name)).toEqual(['Good']);
    expect(broken).toEqual(['bad']);
  });

  test('a missing examples folder is an empty list', async () => {
    expect(await createExampleLibrary('/nonexistent/examples').list()).toEqual([]);
  });
});
