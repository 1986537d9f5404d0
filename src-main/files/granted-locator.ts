/**
 * Electron mode: a ref is an absolute path, accepted only when the user granted it, by picking it in
 * a native dialog during this session or by having it in the recent list. Anything else is refused
 * with `file.outsideWorkspace`, so a compromised renderer cannot name arbitrary files. A granted path
 * that is a symbolic link is saved through to its target wherever that is: the user chose the path.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import type { FileRef } from '../../src-shared/ipc/index.ts';
import type { FileLocator, ResolvedFile } from './locator.ts';

export interface GrantedLocator extends FileLocator {
  /** Records a path the user picked in a native dialog; returns its ref. */
  grant(path: string): FileRef;
}

export interface GrantedLocatorOptions {
  /** Whether a path was granted before (it is in the recent list). */
  isRemembered: (path: string) => Promise<boolean>;
}

export function createGrantedLocator(options: GrantedLocatorOptions): GrantedLocator {
  const granted = new Set<string>();

  async function check(ref: FileRef): Promise<ResolvedFile> {
    if (!isAbsolute(ref) || resolve(ref) !== ref) {
      throw refused(ref, 'it is not an absolute, normalized path');
    }
    if (!granted.has(ref) && !(await options.isRemembered(ref))) {
      throw refused(ref, 'it was neither picked in a file dialog nor is it in the recent files');
    }
    return { ref, path: ref, label: ref };
  }

  return {
    resolveForRead: check,
    resolveForWrite: check,
    resolveExportForWrite: check,
    listFiles: async () => [],
    async exists(ref) {
      return isAbsolute(ref) && (await stat(ref).then((s) => s.isFile(), () => false));
    },
    grant(path) {
      const ref = resolve(path);
      granted.add(ref);
      return ref;
    },
  };
}

function refused(ref: string, why: string): AppError {
  return new AppError({ code: 'file.outsideWorkspace', message: `Keyplan may not use "${ref}": ${why}.` });
}
