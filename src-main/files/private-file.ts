/**
 * Reads and writes of Keyplan's own data files (recent list, run journal, its secret), which never
 * follow a symbolic link: a link planted where such a file belongs is neither read nor written
 * through, so it cannot make Keyplan overwrite a file elsewhere or read instructions from one.
 *
 * More on its rules: docs/modules.md, "src-main/files/private-file.ts".
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE, refuseLink } from './data-folder.ts';

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;
const READ = constants.O_RDONLY | NO_FOLLOW;

export interface PrivateWriteOptions {
  /** For tests: called after the folder was checked and before anything is created in it. */
  afterCheck?: () => Promise<void> | void;
}

/** The text of `path`, or undefined when there is none; a link, a folder or a device is refused. */
export async function readPrivateFile(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, READ);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw linkError(error, path);
  }
  try {
    if (!(await handle.stat()).isFile()) throw Object.assign(new Error(`"${path}" is not a regular file.`), { code: 'EISDIR', path });
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Replaces `path` with `data` (0600), atomically, never through a link. */
export async function writePrivateFile(path: string, data: string | Uint8Array, options: PrivateWriteOptions = {}): Promise<void> {
  const folder = dirname(path);
  await refuseLink(folder);
  await options.afterCheck?.();
  const temp = join(folder, `.${basename(path)}.keyplan-tmp-${randomBytes(6).toString('hex')}`);
  await writeNew(temp, data);
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Creates `path` holding `data` (0600) only if nothing has that name, a link included (`EEXIST`).
 * Not atomic: a crash during the write can leave it short, which readers treat as damaged.
 */
export async function createPrivateFile(path: string, data: string | Uint8Array): Promise<void> {
  await refuseLink(dirname(path));
  await writeNew(path, data);
}

async function writeNew(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, CREATE_NEW, PRIVATE_FILE_MODE);
  try {
    try {
      // The mode given to `open` is reduced by the umask, never widened; set exactly.
      await handle.chmod(PRIVATE_FILE_MODE);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}

/** `ELOOP` from `O_NOFOLLOW` said in words; other errors as they are. */
function linkError(error: unknown, path: string): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ELOOP') return error;
  return Object.assign(new Error(`"${path}" is a symbolic link; Keyplan reads its own data only from real files.`), { code: 'ELOOP', path });
}
