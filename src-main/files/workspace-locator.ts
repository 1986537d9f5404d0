/**
 * Browser mode: a ref is a path relative to the workspace folder, written with `/`. Absolute paths,
 * `..` segments and symbolic links that lead outside are refused with `file.outsideWorkspace`;
 * hidden segments, control and reserved characters with `file.badName`. Reads and writes treat links
 * alike: a read opens the link's target, a save writes through the link to its target (the link
 * stays a link, see `writeFileAtomic`), and both refuse a target outside the workspace.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import type { FileRef } from '../../src-shared/ipc/index.ts';
import { toFileError } from './fs-errors.ts';
import { BACKUP_SUFFIX, DESIGN_SUFFIX, withDesignSuffix, type FileLocator, type ResolvedFile } from './locator.ts';

/** How many levels of subfolders the workspace listing (and the cleanup of interrupted saves) looks into. */
export const WORKSPACE_LIST_DEPTH = 4;
const MAX_LISTED_FILES = 2000;
const MAX_SEGMENT_LENGTH = 255;
// Control characters, and the characters Windows reserves; `\` as well, so a ref means the same everywhere.
// eslint-disable-next-line no-control-regex
const BAD_CHARACTERS = /[\u0000-\u001f\u007f<>:"|?*\\]/;

/** Confines refs to `workspaceDir` (an existing folder). */
export function createWorkspaceLocator(workspaceDir: string): FileLocator {
  const root = resolve(workspaceDir);
  let realRoot: Promise<string> | undefined;
  const getRealRoot = () => (realRoot ??= realpath(root));

  const toRef = (realRootPath: string, path: string) => relative(realRootPath, path).split(sep).join('/');

  async function checkInside(path: string, ref: string): Promise<void> {
    const rootPath = await getRealRoot();
    if (path !== rootPath && !path.startsWith(rootPath + sep)) throw outside(ref, 'it leads outside the workspace through a link');
  }

  async function resolveForRead(ref: FileRef): Promise<ResolvedFile> {
    const rel = checkRef(ref, 'read');
    const rootPath = await getRealRoot();
    let path: string;
    try {
      path = await realpath(join(rootPath, rel));
    } catch (error) {
      throw toFileError(error, rel, 'read');
    }
    await checkInside(path, ref);
    return { ref: rel, path, label: rel };
  }

  async function resolveForWrite(ref: FileRef): Promise<ResolvedFile> {
    return resolveChecked(ref, checkRef(ref, 'write'), 'design');
  }

  async function resolveChecked(ref: FileRef, rel: string, kind: FileKind): Promise<ResolvedFile> {
    const rootPath = await getRealRoot();
    let folder: string;
    try {
      folder = await realpath(dirname(join(rootPath, rel)));
    } catch (error) {
      throw toFileError(error, dirname(rel), 'write');
    }
    await checkInside(folder, ref);
    const path = join(folder, basename(rel));
    const existing = await lstat(path).catch(() => undefined);
    if (existing?.isSymbolicLink()) {
      // The save replaces the link's target, so the target is what must be inside.
      const target = await realpath(path).catch(() => undefined);
      if (target === undefined) throw outside(ref, 'it is a link to nothing');
      if (target !== rootPath && !target.startsWith(rootPath + sep)) throw outside(ref, `it is a link to "${target}", which a save would overwrite`);
      // The target's own name must pass the name's checks: an export never replaces a design through a
      // link, and a design save never replaces a file that is not a design.
      const targetName = basename(target);
      const isDesign = targetName.endsWith(DESIGN_SUFFIX);
      if (kind === 'export' ? isDesign || targetName.endsWith(BACKUP_SUFFIX) : !isDesign) {
        throw badName(ref, `it is a link to "${toRef(rootPath, target)}", which is ${kind === 'export' ? 'a design file' : 'not a design file'}`, kind);
      }
    }
    return { ref: toRef(rootPath, path), path, label: rel };
  }

  async function exists(ref: FileRef): Promise<boolean> {
    try {
      const { path } = await resolveForRead(ref);
      return (await stat(path)).isFile();
    } catch {
      return false;
    }
  }

  async function listFiles(): Promise<ResolvedFile[]> {
    const rootPath = await getRealRoot();
    const found: ResolvedFile[] = [];
    const walk = async (folder: string, depth: number): Promise<void> => {
      const entries = await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
        if (folder === rootPath) throw toFileError(error, root, 'list');
        return [];
      });
      for (const entry of entries) {
        if (found.length >= MAX_LISTED_FILES || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
        const path = join(folder, entry.name);
        if (entry.isDirectory()) {
          if (depth < WORKSPACE_LIST_DEPTH) await walk(path, depth + 1);
        } else if (entry.name.endsWith(DESIGN_SUFFIX)) {
          const ref = toRef(rootPath, path);
          // A link is listed only when it leads to a file inside the workspace.
          if (entry.isFile() || (entry.isSymbolicLink() && (await exists(ref)))) found.push({ ref, path, label: ref });
        }
      }
    };
    await walk(rootPath, 0);
    return found.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  }

  return {
    workspaceDir: root,
    resolveForRead,
    resolveForWrite,
    resolveExportForWrite: (ref) => resolveChecked(ref, checkExportRef(ref), 'export'),
    listFiles,
    exists,
  };
}

/**
 * Checks a ref lexically and returns it normalized (`./a//b` → `a/b`, suffix added). Reading also
 * accepts a `.keyplan.json.bak` backup.
 */
export function checkRef(ref: FileRef, purpose: 'read' | 'write'): string {
  const segments = checkSegments(ref, 'design');
  const last = segments.pop() as string;
  const isBackup = purpose === 'read' && last.endsWith(DESIGN_SUFFIX + BACKUP_SUFFIX);
  const name = isBackup ? last : withDesignSuffix(last);
  if (name === DESIGN_SUFFIX || name.length > MAX_SEGMENT_LENGTH) throw badName(ref, 'the name before ".keyplan.json" is empty or too long');
  return [...segments, name].join('/');
}

/**
 * Checks the name of an exported file (a template, a model) the same way, keeping it as given: no
 * suffix is added. Design files and their backups are refused, so an export never replaces a design.
 */
export function checkExportRef(ref: FileRef): string {
  const segments = checkSegments(ref, 'export');
  const last = segments.at(-1) as string;
  if (last.endsWith(DESIGN_SUFFIX) || last.endsWith(BACKUP_SUFFIX)) {
    throw badName(ref, `names ending in "${DESIGN_SUFFIX}" or "${BACKUP_SUFFIX}" are for design files`, 'export');
  }
  return segments.join('/');
}

/** The lexical checks every ref passes: relative, no `..`, no hidden, reserved or control characters. */
function checkSegments(ref: FileRef, kind: FileKind): string[] {
  if (isAbsolute(ref) || /^[a-zA-Z]:/.test(ref) || ref.startsWith('\\')) {
    throw outside(ref, 'it is an absolute path; refs are relative to the workspace folder');
  }
  const segments = ref.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw outside(ref, 'it contains ".."');
  if (segments.length === 0) throw badName(ref, 'it is empty', kind);
  for (const segment of segments) {
    if (BAD_CHARACTERS.test(segment)) throw badName(ref, 'it contains a control character or one of < > : " | ? * \\', kind);
    if (segment.startsWith('.')) throw badName(ref, `"${segment}" starts with "." (hidden)`, kind);
    if (/[ .]$/.test(segment)) throw badName(ref, `"${segment}" ends with a space or "."`, kind);
    if (segment.length > MAX_SEGMENT_LENGTH) throw badName(ref, `"${segment.slice(0, 20)}…" is longer than ${MAX_SEGMENT_LENGTH} characters`, kind);
  }
  return segments;
}

function outside(ref: string, why: string): AppError {
  return new AppError({
    code: 'file.outsideWorkspace',
    message: `"${ref}" is not inside the workspace folder: ${why}.`,
  });
}

type FileKind = 'design' | 'export';

function badName(ref: string, why: string, kind: FileKind = 'design'): AppError {
  const example = kind === 'design' ? '"orders" or "team/orders.keyplan.json"' : '"orders.cloudformation.yaml"';
  return new AppError({
    code: 'file.badName',
    message: `"${ref}" is not a valid ${kind} file name: ${why}. Expected a name like ${example}.`,
  });
}
