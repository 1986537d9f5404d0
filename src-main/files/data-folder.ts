/**
 * Keyplan's per-user data folder: what belongs to the user rather than to a design (the recent
 * files list, run journals, the secret that signs them, the browser-mode Chromium profile). It is
 * never the workspace: a workspace is shared through git, and anything in it is input written by
 * someone else (docs/browser-mode-security.md, "The workspace is untrusted input").
 *
 * More on its rules: docs/modules.md, "src-main/files/data-folder.ts".
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The environment variable that moves the data folder (tests, portable setups). */
export const DATA_DIR_ENV = 'KEYPLAN_DATA_DIR';
/** Permission bits of the folders Keyplan makes for its own data: the user alone. */
export const PRIVATE_DIR_MODE = 0o700;
/** Permission bits of Keyplan's own data files: the user alone. */
export const PRIVATE_FILE_MODE = 0o600;
/** Hex digits of the workspace's SHA-256 that name its subfolder (128 bits). */
const WORKSPACE_ID_HEX_DIGITS = 32;

interface Platform {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

/** The platform's per-user data folder for Keyplan, ignoring `KEYPLAN_DATA_DIR`. */
export function platformDataDir({ platform, env, home }: Platform): string {
  if (platform === 'win32') return join(env['APPDATA'] || join(home, 'AppData', 'Roaming'), 'Keyplan');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Keyplan');
  // XDG: a relative XDG_DATA_HOME is invalid and is ignored (https://specifications.freedesktop.org/basedir-spec/latest/).
  const xdg = env['XDG_DATA_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share'), 'keyplan');
}

/** The data folder: `flag` (a `--data-dir`), else `KEYPLAN_DATA_DIR`, else the platform's; absolute. */
export function resolveDataDir(flag?: string, platform: Platform = { platform: process.platform, env: process.env, home: homedir() }): string {
  const chosen = flag ?? (platform.env[DATA_DIR_ENV] || undefined);
  return resolve(chosen ?? platformDataDir(platform));
}

/** The subfolder of `dataDir` for the workspace whose real path is `realWorkspace`. */
export function workspaceDataDir(dataDir: string, realWorkspace: string): string {
  const id = createHash('sha256').update(realWorkspace, 'utf8').digest('hex').slice(0, WORKSPACE_ID_HEX_DIGITS);
  return join(dataDir, 'workspaces', id);
}

/**
 * Makes `dataDir` (with its parents) and then each folder from it down to `folder` (inside it),
 * each new one 0700; every folder from `dataDir` down must be a real folder, not a link. Returns
 * `folder` on the data folder's real path. Throws `ENOTDIR`-coded errors naming the folder.
 */
export async function ensurePrivateFolder(dataDir: string, folder: string = dataDir): Promise<string> {
  const rel = relative(dataDir, folder);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`"${folder}" is not inside the data folder "${dataDir}".`);
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  let current = await realpath(dataDir);
  await refuseLink(current);
  for (const part of rel === '' ? [] : rel.split(sep)) {
    current = join(current, part);
    await mkdir(current, { mode: PRIVATE_DIR_MODE }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    });
    await refuseLink(current);
  }
  return current;
}

/** Throws unless `folder` is a folder itself (lstat), not a link to one. */
export async function refuseLink(folder: string): Promise<void> {
  const info = await lstat(folder);
  if (!info.isDirectory()) {
    const what = info.isSymbolicLink() ? 'a symbolic link' : 'not a folder';
    throw Object.assign(new Error(`"${folder}" is ${what}; Keyplan keeps its own data only in real folders.`), { code: 'ENOTDIR', path: folder });
  }
}
