import { execFile } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, readlink, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test, vi } from 'vitest';
import { createBrowserHandlers } from '../host.ts';
import { makeTempDir } from '../test-support/temp-dir.ts';
import { TEMP_FILE_NAME, writeFileAtomic } from './atomic-write.ts';

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

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const ATOMIC_WRITE_SOURCE = join(import.meta.dirname, 'atomic-write.ts');
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
      expect.stringMatching(/\/\.a\.keyplan\.json\.keyplan-tmp-[0-9a-f]{12}$/),
      expect.stringMatching(/\/\.a\.keyplan\.json\.bak\.keyplan-tmp-[0-9a-f]{12}$/),
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

  test('a process killed between writing and renaming leaves the old file whole; the next start removes its leftover', { timeout: 30_000 }, async () => {
    const dir = await makeTempDir();
    const workspace = join(dir, 'workspace');
    await mkdir(workspace);
    const path = join(workspace, 'orders.keyplan.json');
    await writeFile(path, 'old');
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(ATOMIC_WRITE_SOURCE)};
      await writeFileAtomic(${JSON.stringify(path)}, 'new', { keepBackup: true, beforeRename: () => process.kill(process.pid, 'SIGKILL') });
    `;
    const crashed = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT }).then(
      () => undefined,
      (error: { signal?: string }) => error,
    );
    expect(crashed?.signal).toBe('SIGKILL');
    expect(await readFile(path, 'utf8')).toBe('old');
    const leftovers = (await readdir(workspace)).filter((name) => TEMP_FILE_NAME.test(name));
    expect(leftovers).toEqual([expect.stringMatching(/^\.orders\.keyplan\.json\.keyplan-tmp-[0-9a-f]{12}$/)]);
    const leftover = join(workspace, leftovers[0] as string);
    expect(await readFile(leftover, 'utf8')).toBe('new');

    // As if the crash was two minutes ago: the next start of the host removes the leftover.
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await utimes(leftover, twoMinutesAgo, twoMinutesAgo);
    const logged: string[] = [];
    await createBrowserHandlers({ workspaceDir: workspace, examplesDir: join(dir, 'examples'), version: 'test', log: (message) => logged.push(message) });
    await waitFor(async () => !(await readdir(workspace)).includes(leftovers[0] as string));
    expect((await readdir(workspace)).sort()).toEqual(['orders.keyplan.json', 'orders.keyplan.json.bak']);
    expect(await readFile(path, 'utf8')).toBe('old');
    await waitFor(async () => logged.some((m) => m.startsWith('Removed 1 temporary file')));
  });
});

/** Polls until `condition` holds, failing after 10 s. */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
