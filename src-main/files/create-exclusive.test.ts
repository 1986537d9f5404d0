import { lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { createFileExclusive, realWritePath } from './atomic-write.ts';

/** Set to a code to make `link` fail as a file system without hard links does (FAT, exFAT: EPERM). */
const linkFailure = vi.hoisted(() => ({ code: undefined as string | undefined }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const link: typeof fs.link = async (existing, path) => {
    if (linkFailure.code !== undefined) throw Object.assign(new Error(`${linkFailure.code}: operation not permitted, link`), { code: linkFailure.code });
    return fs.link(existing, path);
  };
  return { ...fs, link, default: { ...fs, link } };
});

afterEach(() => {
  linkFailure.code = undefined;
});

const errorCodeOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: NodeJS.ErrnoException) => error.code);

describe('createFileExclusive', () => {
  test('creates the file whole with 0644 less the umask, and leaves no temporary file', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'new.keyplan.json');
    await createFileExclusive(path, 'content');
    expect(await readFile(path, 'utf8')).toBe('content');
    expect((await stat(path)).mode & 0o777).toBe(0o644 & ~process.umask());
    expect((await stat(path)).nlink).toBe(1);
    expect(await readdir(dir)).toEqual(['new.keyplan.json']);
  });

  test('is EEXIST for a file, a folder or a link to nothing with the name, which stay as they were', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'file'), 'mine');
    await mkdir(join(dir, 'folder'));
    await symlink('nowhere', join(dir, 'dangling'));
    for (const name of ['file', 'folder', 'dangling']) expect(await errorCodeOf(createFileExclusive(join(dir, name), 'theirs'))).toBe('EEXIST');
    expect(await readFile(join(dir, 'file'), 'utf8')).toBe('mine');
    expect((await lstat(join(dir, 'dangling'))).isSymbolicLink()).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['dangling', 'file', 'folder']);
  });

  test('of many creates of one name at once, exactly one lands, whole', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'race.txt');
    const texts = Array.from({ length: 20 }, (_, i) => `${i}`.repeat(100_000));
    const results = await Promise.allSettled(texts.map((text) => createFileExclusive(path, text)));
    const landed = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(landed).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r.reason as NodeJS.ErrnoException).code)).toEqual(Array(19).fill('EEXIST'));
    expect(await readFile(path, 'utf8')).toBe(texts[landed[0]!]);
    expect(await readdir(dir)).toEqual(['race.txt']);
  });

  test('without hard links (link fails with EPERM) the file is created with O_EXCL: the same outcome', async () => {
    const dir = await makeTempDir();
    linkFailure.code = 'EPERM';
    await createFileExclusive(join(dir, 'a.txt'), 'first');
    expect(await errorCodeOf(createFileExclusive(join(dir, 'a.txt'), 'second'))).toBe('EEXIST');
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('first');
    expect(await readdir(dir)).toEqual(['a.txt']);
  });
});

describe('realWritePath', () => {
  test('a link, a chain of links, a path through a linked folder and the file itself are one real path, existing or not', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'team'));
    await writeFile(join(dir, 'team', 'orders.keyplan.json'), '{}');
    await symlink('team/orders.keyplan.json', join(dir, 'alias.keyplan.json'));
    await symlink('alias.keyplan.json', join(dir, 'alias-of-alias.keyplan.json'));
    await symlink('team', join(dir, 'team-link'));
    const real = join(dir, 'team', 'orders.keyplan.json');
    for (const name of ['team/orders.keyplan.json', 'alias.keyplan.json', 'alias-of-alias.keyplan.json', 'team-link/orders.keyplan.json']) {
      expect(await realWritePath(join(dir, name))).toBe(real);
    }
    expect(await realWritePath(join(dir, 'team-link', 'new.keyplan.json'))).toBe(join(dir, 'team', 'new.keyplan.json'));
    await symlink('team/later.keyplan.json', join(dir, 'dangling.keyplan.json'));
    expect(await realWritePath(join(dir, 'dangling.keyplan.json'))).toBe(join(dir, 'team', 'later.keyplan.json'));
  });
});
