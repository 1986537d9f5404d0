/** The native file dialogs, as the handlers' `Dialogs`. */
import { dialog, type BrowserWindow } from 'electron';
import type { Dialogs } from './handlers/index.ts';

const DESIGN_FILTERS = [
  { name: 'Keyplan designs', extensions: ['keyplan.json'] },
  { name: 'All files', extensions: ['*'] },
];

export function createElectronDialogs(getWindow: () => BrowserWindow | undefined): Dialogs {
  return {
    async chooseFileToOpen() {
      const options: Electron.OpenDialogOptions = { title: 'Open design', properties: ['openFile'], filters: DESIGN_FILTERS };
      const window = getWindow();
      const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return result.canceled ? undefined : result.filePaths[0];
    },
    async chooseExportFile(suggestedName) {
      const extension = /\.([A-Za-z0-9]+)$/.exec(suggestedName)?.[1];
      const filters = [...(extension ? [{ name: `.${extension} files`, extensions: [extension] }] : []), { name: 'All files', extensions: ['*'] }];
      const options: Electron.SaveDialogOptions = { title: 'Save export', defaultPath: suggestedName, filters };
      const window = getWindow();
      const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
      return result.canceled || !result.filePath ? undefined : result.filePath;
    },
    async chooseFileToSave(suggestedName) {
      const options: Electron.SaveDialogOptions = { title: 'Save design', defaultPath: suggestedName, filters: DESIGN_FILTERS };
      const window = getWindow();
      const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
      return result.canceled || !result.filePath ? undefined : result.filePath;
    },
  };
}
