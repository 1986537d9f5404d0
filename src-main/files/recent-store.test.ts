import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { createRecentStore, MAX_RECENT_FILES } from './recent-store.ts';

async function setUp(present: (ref: string) => boolean = () => true) {
  const dir = await makeTempDir();
  const filePath = join(dir, 'data', 'recent.json');
  let tick = 0;
  const corrupt: unknown[] = [];
  const store = createRecentStore({
    filePath,
    exists: async (ref) => present(ref),
    now: () => new Date(Date.UTC(2025, 0, 1, 0, 0, tick++)),
    onCorrupt: (error) => corrupt.push(error),
  });
  return { store, filePath, corrupt };
}

describe('recent files', () => {
  test('lists the most recently used first and creates its folder on first use', async () => {
    const { store } = await setUp();
    expect(await store.list()).toEqual([]);
    await store.add({ ref: 'a.keyplan.json', name: 'a.keyplan.json' });
    await store.add({ ref: 'b.keyplan.json', name: 'b.keyplan.json' });
    expect(await store.list()).toEqual([
      { ref: 'b.keyplan.json', name: 'b.keyplan.json', openedAt: '2025-01-01T00:00:01.000Z' },
      { ref: 'a.keyplan.json', name: 'a.keyplan.json', openedAt: '2025-01-01T00:00:00.000Z' },
    ]);
  });

  test('keeps one entry per file, moved to the top when used again', async () => {
    const { store } = await setUp();
    for (const ref of ['a', 'b', 'a']) await store.add({ ref, name: ref });
    expect((await store.list()).map((f) => f.ref)).toEqual(['a', 'b']);
  });

  test(`keeps at most ${MAX_RECENT_FILES}, dropping the oldest`, async () => {
    const { store } = await setUp();
    for (let i = 0; i < MAX_RECENT_FILES + 3; i++) await store.add({ ref: `f${i}`, name: `f${i}` });
    const refs = (await store.list()).map((f) => f.ref);
    expect(refs).toHaveLength(MAX_RECENT_FILES);
    expect(refs[0]).toBe(`f${MAX_RECENT_FILES + 2}`);
    expect(refs).not.toContain('f2');
  });

  test('drops files that no longer exist when listed, and forgets them', async () => {
    const gone = new Set(['b']);
    const { store, filePath } = await setUp((ref) => !gone.has(ref));
    for (const ref of ['a', 'b', 'c']) await store.add({ ref, name: ref });
    expect((await store.list()).map((f) => f.ref)).toEqual(['c', 'a']);
    expect(JSON.parse(await readFile(filePath, 'utf8')).files.map((f: { ref: string }) => f.ref)).toEqual(['c', 'a']);
    expect(await store.has('b')).toBe(false);
  });

  test('concurrent additions are all kept', async () => {
    const { store } = await setUp();
    await Promise.all(['a', 'b', 'c', 'd'].map((ref) => store.add({ ref, name: ref })));
    expect((await store.list()).map((f) => f.ref).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  test('an unreadable list file is reported once and starts over empty', async () => {
    const { store, filePath, corrupt } = await setUp();
    await store.add({ ref: 'a', name: 'a' });
    await writeFile(filePath, '{ not json');
    expect(await store.list()).toEqual([]);
    expect(corrupt).toHaveLength(1);
    await store.add({ ref: 'b', name: 'b' });
    expect((await store.list()).map((f) => f.ref)).toEqual(['b']);
  });
});
