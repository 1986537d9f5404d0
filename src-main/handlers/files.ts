import { basename } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import type { ApiHandlers, HostWarning, OpenedFile, SavedFile } from '../../src-shared/ipc/index.ts';
import { checkDesign } from '../files/design-file.ts';
import { describeFsFailure } from '../files/fs-errors.ts';
import { withDesignSuffix } from '../files/locator.ts';
import type { ElectronDeps, HandlerDeps } from './deps.ts';

type FileHandlers = Pick<ApiHandlers, 'file.list' | 'file.open' | 'file.openDialog' | 'file.save' | 'file.version' | 'file.saveAs' | 'file.export'>;

export function createFileHandlers(deps: HandlerDeps): FileHandlers {
  /**
   * Puts the file first in the recent list. The file is open or written by now: a list that cannot be
   * written (a full disk, an unwritable data folder) is a warning in the answer, not a failure.
   */
  const remember = async <T extends OpenedFile | SavedFile>(file: T, done: 'opened' | 'saved'): Promise<T> => {
    try {
      await deps.recent.add({ ref: file.ref, name: file.name });
      return file;
    } catch (error) {
      const warning: HostWarning = {
        code: 'recent.notUpdated',
        message: `"${file.name}" was ${done}, but the recent files list could not be updated: ${describeFsFailure(error)}.`,
      };
      return { ...file, warnings: [...(file.warnings ?? []), warning] };
    }
  };

  return {
    async 'file.list'() {
      return { files: await deps.files.list() };
    },

    async 'file.open'({ ref }) {
      return remember(await deps.files.open(ref), 'opened');
    },

    async 'file.openDialog'() {
      const host = requireDialogs(deps, 'file.openDialog');
      const path = await host.dialogs.chooseFileToOpen();
      if (path === undefined) throw canceled('Opening a file');
      return remember(await deps.files.open(host.grant(path)), 'opened');
    },

    async 'file.save'({ ref, design, expected }) {
      return remember(await deps.files.save(ref, design, expected), 'saved');
    },

    async 'file.version'({ ref }) {
      return { version: await deps.files.version(ref) };
    },

    async 'file.saveAs'({ name, design, overwrite }) {
      if (deps.mode === 'browser') return remember(await deps.files.saveAs(name, design, { overwrite: overwrite ?? false }), 'saved');
      checkDesign(design, withDesignSuffix(name), 'was not saved'); // before the dialog: nothing to ask about
      const picked = await deps.dialogs.chooseFileToSave(withDesignSuffix(name));
      if (picked === undefined) throw canceled('Saving');
      // The dialog confirmed replacing `picked`; a suffix added here names a file it did not ask about.
      const path = withDesignSuffix(picked);
      return remember(await deps.files.saveAs(deps.grant(path), design, { overwrite: path === picked || (overwrite ?? false) }), 'saved');
    },

    async 'file.export'({ name, content, overwrite }) {
      if (deps.mode === 'browser') return deps.files.writeExport(name, content, { overwrite: overwrite ?? false });
      const picked = await deps.dialogs.chooseExportFile(basename(name));
      if (picked === undefined) throw canceled('Saving the export');
      // The dialog asked about replacing `picked`; exports are not design files, so no recent entry.
      return deps.files.writeExport(deps.grant(picked), content, { overwrite: true });
    },
  };
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
