/** The export dialog's note on what the shown format's file leaves out of the design. */
import type { Locator } from '@playwright/test';
import { ExportDialog } from './formats.ts';

export class ExportDialogWithNotes extends ExportDialog {
  /** The note: its heading and one list item per setting the file leaves out. */
  get lostNote(): Locator {
    return this.dialog.getByRole('note', { name: 'Settings not in this file' });
  }

  get lostSettings(): Locator {
    return this.lostNote.getByRole('listitem');
  }
}
