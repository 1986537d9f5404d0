import { lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { writeFileAtomic } from './atomic-write.ts';

/** Paths whose handle was fsynced, in order (every `open` passes through; only `sync` is watched). */
const synced = vi.hoisted(() => [] as string[]);
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof fs.open = async (...args) => {
    const handle = await fs.open(...args);
    const sync = handle.sync.bind(handle);
    handle.sync = async () => {
      synced.push(String(args[0]));
      return sync();
    };
    return handle;
  };
  return { ...fs, open, default: { ...fs, open } };
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('writeFileAtomic', () => {
  test('a new file gets 0644 less the umask, and no backup', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'new.keyplan.json');
    expect(await writeFileAtomic(path, 'one', { keepBackup: true })).toEqual({});
    expect(await modeOf(path)).toBe(0o644 & ~process.umask());
    expect(await readdir(dir)).toEqual(['new.keyplan.json']);
  });

  test('keeps the mode of the file it replaces, and the backup holds the previous content with that mode', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'private.keyplan.json');
    await writeFile(path, 'old', { mode: 0o600 });
    expect(await writeFileAtomic(path, 'new', { keepBackup: true })).toEqual({ backupPath: `${path}.bak` });
    expect(await readFile(path, 'utf8')).toBe('new');
    expect(await modeOf(path)).toBe(0o600);
    expect(await readFile(`${path}.bak`, 'utf8')).toBe('old');
    expect(await modeOf(`${path}.bak`)).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(['private.keyplan.json', 'private.keyplan.json.bak']);
  });

  test('flushes the new file, the backup and the folder before it returns', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'a.keyplan.json');
    await writeFile(path, 'old');
    synced.length = 0;
    await writeFileAtomic(path, 'new', { keepBackup: true });
    expect(synced).toEqual([
      expect.stringMatching(/a\.keyplan\.json\.tmp-[0-9a-f]{12}$/),
      expect.stringMatching(/a\.keyplan\.json\.bak\.tmp-[0-9a-f]{12}$/),
      dir,
    ]);
  });

  test('writes through a link to its target: the link stays a link, the backup sits beside the link', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'shared'));
    const target = join(dir, 'shared', 'real.keyplan.json');
    await writeFile(target, 'old', { mode: 0o640 });
    const link = join(dir, 'link.keyplan.json');
    await symlink('shared/real.keyplan.json', link);
    await writeFileAtomic(link, 'new', { keepBackup: true });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe('shared/real.keyplan.json');
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(await modeOf(target)).toBe(0o640);
    expect(await readFile(`${link}.bak`, 'utf8')).toBe('old');
    expect((await readdir(dir)).sort()).toEqual(['link.keyplan.json', 'link.keyplan.json.bak', 'shared']);
    expect(await readdir(join(dir, 'shared'))).toEqual(['real.keyplan.json']);
  });

  test('follows a chain of links, and a link to nothing yet creates its target', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'end.txt'), 'old');
    await symlink(join(dir, 'end.txt'), join(dir, 'middle'));
    await symlink('middle', join(dir, 'start'));
    await writeFileAtomic(join(dir, 'start'), 'new', { keepBackup: false });
    expect(await readFile(join(dir, 'end.txt'), 'utf8')).toBe('new');
    expect((await lstat(join(dir, 'start'))).isSymbolicLink()).toBe(true);

    await symlink('later.txt', join(dir, 'dangling'));
    await writeFileAtomic(join(dir, 'dangling'), 'created', { keepBackup: true });
    expect(await readFile(join(dir, 'later.txt'), 'utf8')).toBe('created');
    expect((await lstat(join(dir, 'dangling'))).isSymbolicLink()).toBe(true);
  });

  test('a failure before the rename leaves the old file and no temporary file', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'a.keyplan.json');
    await writeFile(path, 'old');
    const failing = writeFileAtomic(path, 'new', {
      keepBackup: false,
      beforeRename: () => {
        throw new Error('disk gone');
      },
    });
    await expect(failing).rejects.toThrow('disk gone');
    expect(await readFile(path, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['a.keyplan.json']);
  });
});
