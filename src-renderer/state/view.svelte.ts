/**
 * What the window shows around the open design: the screen and the table on it, the one dialog
 * open, the notice bar, the figure whose derivation is shown, and whether a command is under way.
 * Commands report here (`guard`, `report`, `inform`); components read it and dismiss.
 */
import { AppError, type ErrorData } from '../../src-shared/errors.ts';
import { hasErrorCode } from '../../src-shared/ipc/index.ts';
import type { Figure } from '../../src-shared/capacity/index.ts';
import type { FileVersion } from '../../src-shared/ipc/index.ts';
import type { Problem } from '../../src-shared/model/index.ts';
import type { WorkspaceDb } from '../lib/db.ts';
import type { OpenDocument } from './document.svelte.ts';
import { SCREENS, type ScreenId } from './screens.ts';

export interface Notice {
  /** `warning`: a command did its work, but something beside it went wrong (it blocks nothing). */
  kind: 'error' | 'warning' | 'info';
  message: string;
  code?: string;
  problems?: Problem[];
}

export type DialogId = 'open' | 'saveAs' | 'close' | 'import' | 'export' | 'conflict';

/** A save refused because the file changed on disk: what the conflict dialog asks about. */
export interface SaveConflict {
  doc: OpenDocument;
  /** The version on disk now; null when the file was moved or deleted. */
  version: FileVersion | null;
}

export class WorkspaceView {
  screen = $state<ScreenId>('entities');
  /** Which table of a multi-table design the screens show. */
  tableId = $state<string | undefined>();
  notice = $state<Notice | undefined>();
  dialog = $state<DialogId | undefined>();
  /** The save the conflict dialog asks about. */
  conflict = $state.raw<SaveConflict | undefined>();
  /** The design the close dialog asks about. */
  closing = $state<OpenDocument | undefined>();
  /** A file command is under way (its buttons wait). */
  busy = $state(false);
  /** The number whose derivation is shown (a click on any figure). */
  explained = $state<{ title: string; figure: Figure } | undefined>();

  readonly #db: WorkspaceDb;

  constructor(db: WorkspaceDb) {
    this.#db = db;
  }

  /** Shows a screen, and remembers it for the next start. */
  show(screen: ScreenId): void {
    this.screen = screen;
    void this.#db.settings.put({ key: 'screen', value: screen });
  }

  /** The screen stored by the last session, when it is still one of the screens. */
  restoreScreen(stored: unknown): void {
    if (SCREENS.some((s) => s.id === stored)) this.screen = stored as ScreenId;
  }

  /** Shows how a number is computed. */
  explain(title: string, figure: Figure): void {
    this.explained = { title, figure };
  }

  inform(message: string): void {
    this.notice = { kind: 'info', message };
  }

  /** Says what went wrong beside a command that succeeded; stays until dismissed (an edit does not clear it). */
  warn(message: string): void {
    this.notice = { kind: 'warning', message };
  }

  dismissNotice(): void {
    this.notice = undefined;
  }

  /** An edit makes a piece of news ("Saved …", "Imported …") old. */
  dismissInfo(): void {
    if (this.notice?.kind === 'info') this.notice = undefined;
  }

  /** Closes the dialog, whichever it is. */
  closeDialog(): void {
    this.dialog = undefined;
  }

  /** Dialogs that would write `doc` close (this window stops editing it). */
  closeDialogsOf(doc: OpenDocument, active: OpenDocument | undefined): void {
    if ((this.dialog === 'saveAs' && active === doc) || (this.dialog === 'conflict' && this.conflict?.doc === doc)) {
      this.dialog = undefined;
      this.conflict = undefined;
    }
    if (this.dialog === 'close' && this.closing === doc) {
      this.dialog = undefined;
      this.closing = undefined;
    }
  }

  /** Runs a command that may fail: `busy` meanwhile, its error (not a cancel) in the notice as `context: message`. */
  async guard(context: string, work: () => Promise<void>): Promise<void> {
    this.busy = true;
    try {
      await work();
    } catch (error) {
      if (hasErrorCode(error, 'file.canceled')) return;
      this.report(error, context);
    } finally {
      this.busy = false;
    }
  }

  /** Shows an error in the notice bar, with the problems it lists. */
  report(error: unknown, context: string): void {
    const data: ErrorData =
      error instanceof AppError ? error.toData() : { code: 'ipc.internal', message: String((error as Error)?.message ?? error) };
    const problems = Array.isArray(data.details) ? (data.details as Problem[]) : undefined;
    this.notice = {
      kind: 'error',
      code: data.code,
      message: `${context}: ${data.message}`,
      ...(problems ? { problems } : {}),
    };
  }
}
