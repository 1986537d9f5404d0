/**
 * Notices when the file of an open design changes on disk behind its editor (another window, another
 * program, a `git pull`): every few seconds while the window is visible, and when it regains focus,
 * each file's version is asked of the host and compared with the one the editor opened or saved.
 * A difference sets the document's `diskChange`, which the window shows with Reload / Compare / Keep mine.
 */
import { AppError } from '../../src-shared/errors.ts';
import type { ApiClient } from '../../src-shared/ipc/index.ts';
import type { OpenDocument } from './document.svelte.ts';

export const DISK_CHECK_MS = 2000;

export class DiskWatch {
  readonly #api: ApiClient;
  readonly #documents: () => OpenDocument[];
  readonly #intervalMs: number;
  /** Per document, bumped at each save or reload: an answer asked before it is stale. */
  readonly #generation = new Map<string, number>();
  /** Per document, the disk version the user chose to keep theirs over ("Keep mine"). */
  readonly #dismissed = new Map<string, string | null>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #checking = false;

  constructor(api: ApiClient, documents: () => OpenDocument[], intervalMs = DISK_CHECK_MS) {
    this.#api = api;
    this.#documents = documents;
    this.#intervalMs = intervalMs;
  }

  /** Starts the periodic checks (no-op when the interval is 0). */
  start(): void {
    if (this.#intervalMs <= 0 || this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      if (typeof document === 'undefined' || document.visibilityState === 'visible') void this.check();
    }, this.#intervalMs);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Compares every open file with its version on disk now. */
  async check(): Promise<void> {
    if (this.#checking) return;
    this.#checking = true;
    try {
      await Promise.all(this.#documents().map((doc) => this.#checkOne(doc)));
    } finally {
      this.#checking = false;
    }
  }

  /** The editor saved or reloaded `doc`: what is on disk is what it holds. */
  saved(doc: OpenDocument): void {
    this.#generation.set(doc.id, (this.#generation.get(doc.id) ?? 0) + 1);
    this.#dismissed.delete(doc.id);
    doc.diskChange = undefined;
  }

  /** "Keep mine": no more notices about this disk version (a save still asks before replacing it). */
  dismiss(doc: OpenDocument): void {
    if (!doc.diskChange) return;
    this.#dismissed.set(doc.id, doc.diskChange.problem !== undefined ? `problem:${doc.diskChange.problem}` : (doc.diskChange.version?.sha256 ?? null));
    doc.diskChange = undefined;
  }

  /** The document left the window: nothing is kept about it. */
  forget(docId: string): void {
    this.#generation.delete(docId);
    this.#dismissed.delete(docId);
  }

  async #checkOne(doc: OpenDocument): Promise<void> {
    const ref = doc.fileRef;
    if (ref === undefined || doc.readOnly) return;
    const generation = this.#generation.get(doc.id) ?? 0;
    let version;
    try {
      ({ version } = await this.#api.call('file.version', { ref }));
    } catch (error) {
      // The host is gone: nothing to say about the file. The file itself cannot be reached (replaced by a
      // link out of the workspace, unreadable): say so now rather than at the next save.
      if (!(error instanceof AppError) || error.code.startsWith('ipc.')) return;
      if ((this.#generation.get(doc.id) ?? 0) !== generation || doc.fileRef !== ref || doc.readOnly) return;
      if (this.#dismissed.get(doc.id) === `problem:${error.message}`) return;
      if (doc.diskChange?.problem !== error.message) doc.diskChange = { version: null, problem: error.message };
      return;
    }
    if ((this.#generation.get(doc.id) ?? 0) !== generation) return;
    if (doc.fileRef !== ref || doc.readOnly) return;
    if (doc.fileVersion === undefined) {
      // Stored by a Keyplan that did not keep versions: what is on disk now is the baseline.
      if (version) doc.fileVersion = version;
      return;
    }
    const sha = version?.sha256 ?? null;
    if (sha === doc.fileVersion.sha256) {
      doc.diskChange = undefined;
      return;
    }
    if (this.#dismissed.has(doc.id) && this.#dismissed.get(doc.id) === sha) return;
    if (doc.diskChange !== undefined && (doc.diskChange.version?.sha256 ?? null) === sha) return;
    doc.diskChange = { version };
  }
}
