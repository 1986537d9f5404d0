import { basename } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import type { ApiHandlers, FileVersion, OpenedFile, SavedFile } from '../../src-shared/ipc/contract.ts';
import { checkDesign } from '../files/design-file.ts';
import { withDesignSuffix } from '../files/locator.ts';
import type { ElectronDeps, HandlerDeps } from './deps.ts';
import { checkInput } from './input.ts';

type FileHandlers = Pick<ApiHandlers, 'file.list' | 'file.open' | 'file.openDialog' | 'file.save' | 'file.version' | 'file.saveAs' | 'file.export'>;

export function createFileHandlers(deps: HandlerDeps): FileHandlers {
  const remember = async <T extends OpenedFile | SavedFile>(file: T): Promise<T> => {
    await deps.recent.add({ ref: file.ref, name: file.name });
    return file;
  };

  return {
    async 'file.list'(input) {
      checkInput('file.list', input, {});
      return { files: await deps.files.list() };
    },

    async 'file.open'(input) {
      const { ref } = checkInput('file.open', input, { ref: 'string' });
      return remember(await deps.files.open(ref));
    },

    async 'file.openDialog'(input) {
      checkInput('file.openDialog', input, {});
      const host = requireDialogs(deps, 'file.openDialog');
      const path = await host.dialogs.chooseFileToOpen();
      if (path === undefined) throw canceled('Opening a file');
      return remember(await deps.files.open(host.grant(path)));
    },

    async 'file.save'(input) {
      const { ref, design, expected } = checkInput('file.save', input, { ref: 'string', design: 'object', expected: 'object?' });
      return remember(await deps.files.save(ref, design, expected === undefined ? undefined : fileVersion(expected)));
    },

    async 'file.version'(input) {
      const { ref } = checkInput('file.version', input, { ref: 'string' });
      return { version: await deps.files.version(ref) };
    },

    async 'file.saveAs'(input) {
      const { name, design, overwrite } = checkInput('file.saveAs', input, { name: 'string', design: 'object', overwrite: 'boolean?' });
      if (deps.mode === 'browser') return remember(await deps.files.saveAs(name, design, { overwrite: overwrite ?? false }));
      checkDesign(design, withDesignSuffix(name), 'was not saved'); // before the dialog: nothing to ask about
      const picked = await deps.dialogs.chooseFileToSave(withDesignSuffix(name));
      if (picked === undefined) throw canceled('Saving');
      // The dialog confirmed replacing `picked`; a suffix added here names a file it did not ask about.
      const path = withDesignSuffix(picked);
      return remember(await deps.files.saveAs(deps.grant(path), design, { overwrite: path === picked || (overwrite ?? false) }));
    },

    async 'file.export'(input) {
      const { name, content, overwrite } = checkInput('file.export', input, { name: 'string', content: 'string', overwrite: 'boolean?' });
      if (deps.mode === 'browser') return deps.files.writeExport(name, content, { overwrite: overwrite ?? false });
      const picked = await deps.dialogs.chooseExportFile(basename(name));
      if (picked === undefined) throw canceled('Saving the export');
      // The dialog asked about replacing `picked`; exports are not design files, so no recent entry.
      return deps.files.writeExport(deps.grant(picked), content, { overwrite: true });
    },
  };
}

/** `expected` as a `FileVersion`: a finite time and 64 hex digits, or `ipc.badInput` naming the field. */
function fileVersion(value: object): FileVersion {
  const { mtimeMs, sha256, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  const why =
    extra !== undefined
      ? `unknown field "${extra.slice(0, 40)}"`
      : typeof mtimeMs !== 'number' || !Number.isFinite(mtimeMs)
        ? '"mtimeMs" must be a number'
        : typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)
          ? '"sha256" must be 64 lowercase hex digits'
          : undefined;
  if (why === undefined) return { mtimeMs: mtimeMs as number, sha256: sha256 as string };
  throw new AppError({ code: 'ipc.badInput', path: 'expected', message: `Bad input to "file.save": "expected" is a file version {mtimeMs, sha256}; ${why}.` });
}

function requireDialogs(deps: HandlerDeps, channel: string): ElectronDeps {
  if (deps.mode === 'electron') return deps;
  throw new AppError({
    code: 'ipc.unsupported',
    message: `"${channel}" needs the desktop app's native dialogs; in the browser, pick a file from the workspace list.`,
  });
}

function canceled(what: string): AppError {
  return new AppError({ code: 'file.canceled', message: `${what} was canceled.` });
}
