/**
 * Keyplan's own files never follow a link: a link planted where one belongs, even one swapped in
 * between the check and the write, leaves its target untouched. And where the per-user data folder
 * is, and each workspace's folder in it.
 */
import { lstat, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { ensurePrivateFolder, platformDataDir, resolveDataDir, workspaceDataDir } from './data-folder.ts';
import { createPrivateFile, readPrivateFile, writePrivateFile } from './private-file.ts';

const posixOnly = process.platform === 'win32' ? test.skip : test;

describe('writePrivateFile', () => {
  posixOnly('a link swapped in between the folder check and the write is replaced itself; its target is untouched', async () => {
    const dir = await makeTempDir();
    const victim = join(dir, 'victim', '.bashrc');
    await mkdir(join(dir, 'victim'));
    await writeFile(victim, 'export PATH=/usr/bin\n');
    const data = join(dir, 'data');
    await mkdir(data);
    const path = join(data, 'recent.json');
    await writeFile(path, '{"version":1,"files":[]}\n');

    await writePrivateFile(path, '{"version":1,"files":["new"]}\n', {
      afterCheck: async () => {
        await rm(path);
        await symlink(victim, path);
      },
    });
    expect(await readFile(victim, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect((await lstat(path)).isSymbolicLink()).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('{"version":1,"files":["new"]}\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  posixOnly('a folder that is a link is refused (ENOTDIR), and nothing is written where it leads', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'elsewhere'));
    await symlink(join(dir, 'elsewhere'), join(dir, 'data'));
    const error = await writePrivateFile(join(dir, 'data', 'recent.json'), 'x').catch((e: unknown) => e as NodeJS.ErrnoException);
    expect(error).toMatchObject({ code: 'ENOTDIR', message: expect.stringContaining('is a symbolic link') });
    expect(await readFile(join(dir, 'elsewhere', 'recent.json'), 'utf8').catch(() => 'absent')).toBe('absent');
  });

  posixOnly('createPrivateFile refuses a name a link holds (EEXIST), even a dangling one, and creates nothing through it', async () => {
    const dir = await makeTempDir();
    await symlink(join(dir, 'target'), join(dir, 'key'));
    await expect(createPrivateFile(join(dir, 'key'), 'secret')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(join(dir, 'target'), 'utf8').catch(() => 'absent')).toBe('absent');
  });
});

describe('readPrivateFile', () => {
  posixOnly('a link is not read through (ELOOP); a missing file is undefined; a real one is read', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'elsewhere.json'), '{"secret":true}');
    await symlink(join(dir, 'elsewhere.json'), join(dir, 'recent.json'));
    await expect(readPrivateFile(join(dir, 'recent.json'))).rejects.toMatchObject({ code: 'ELOOP' });
    expect(await readPrivateFile(join(dir, 'missing.json'))).toBeUndefined();
    expect(await readPrivateFile(join(dir, 'elsewhere.json'))).toBe('{"secret":true}');
  });
});

describe('the data folder', () => {
  test.each([
    ['Linux, XDG_DATA_HOME set', 'linux', { XDG_DATA_HOME: '/xdg/data' }, '/xdg/data/keyplan'],
    ['Linux, no XDG_DATA_HOME', 'linux', {}, '/home/ana/.local/share/keyplan'],
    ['Linux, a relative XDG_DATA_HOME (invalid, ignored)', 'linux', { XDG_DATA_HOME: 'data' }, '/home/ana/.local/share/keyplan'],
    ['macOS', 'darwin', {}, '/home/ana/Library/Application Support/Keyplan'],
  ] as const)('%s', (_, platform, env, expected) => {
    expect(platformDataDir({ platform, env, home: '/home/ana' })).toBe(expected);
  });

  test('--data-dir wins over KEYPLAN_DATA_DIR, which wins over the platform’s folder', () => {
    const platform = { platform: 'linux' as const, env: { KEYPLAN_DATA_DIR: '/env/keyplan' }, home: '/home/ana' };
    expect(resolveDataDir('/flag/keyplan', platform)).toBe('/flag/keyplan');
    expect(resolveDataDir(undefined, platform)).toBe('/env/keyplan');
    expect(resolveDataDir(undefined, { ...platform, env: {} })).toBe('/home/ana/.local/share/keyplan');
  });

  test('a workspace’s folder is named by the first 32 hex digits of the SHA-256 of its real path', () => {
    // sha256("/home/ana/shop-designs") begins bb65650d54df613e2f2f5f5bb80d45e7 (sha256sum).
    expect(workspaceDataDir('/data', '/home/ana/shop-designs')).toBe(join('/data', 'workspaces', 'bb65650d54df613e2f2f5f5bb80d45e7'));
  });

  posixOnly('folders are made 0700, and a link inside the data folder is refused', async () => {
    const dir = await makeTempDir();
    const root = join(dir, 'data');
    const folder = await ensurePrivateFolder(root, join(root, 'workspaces', 'abc'));
    expect(folder).toBe(join(root, 'workspaces', 'abc'));
    for (const path of [root, join(root, 'workspaces'), folder]) expect((await stat(path)).mode & 0o777).toBe(0o700);
    await mkdir(join(dir, 'elsewhere'));
    await symlink(join(dir, 'elsewhere'), join(root, 'workspaces', 'def'));
    await expect(ensurePrivateFolder(root, join(root, 'workspaces', 'def'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});
