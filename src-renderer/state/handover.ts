/**
 * The other windows of the workspace, as this window sees them (the locks and messages are in
 * window-link.ts): a design another window edits is shown here read-only and follows that window's
 * stored edits; "Take over editing" makes this window its editor; asked to let go, this window stores
 * its last edits first; a window that took a design by force leaves it read-only here.
 */
import type { WorkspaceDb } from '../lib/db.ts';
import type { Autosave } from './autosave.svelte.ts';
import type { OpenDocument } from './document.svelte.ts';
import { readHistory, readStoredState, type StoredState } from './stored-documents.ts';
import type { WorkspaceView } from './view.svelte.ts';
import type { LinkMessage, WindowLink } from './window-link.ts';

/** What the handover needs of the workspace: its open designs and the two ways a design comes and goes here. */
export interface HandoverHost {
  readonly status: 'loading' | 'ready' | 'offline';
  readonly documents: readonly OpenDocument[];
  readonly active: OpenDocument | undefined;
  /** Lists a design another window opened, read-only. */
  addFollowed(id: string, state: StoredState): void;
  /** Removes a design from this window only. */
  drop(id: string): void;
}

export class Handover {
  readonly #host: HandoverHost;
  readonly #link: WindowLink;
  readonly #db: WorkspaceDb;
  readonly #autosave: Autosave<OpenDocument>;
  readonly #view: WorkspaceView;

  constructor(host: HandoverHost, parts: { link: WindowLink; db: WorkspaceDb; autosave: Autosave<OpenDocument>; view: WorkspaceView }) {
    this.#host = host;
    this.#link = parts.link;
    this.#db = parts.db;
    this.#autosave = parts.autosave;
    this.#view = parts.view;
    this.#link.onmessage = (message) => void this.#follow(message);
    this.#link.onlost = (docId) => this.#lose(docId);
  }

  /** Makes this window the one that edits `doc` (it was open read-only because another window edits it). */
  async takeOver(doc: OpenDocument): Promise<void> {
    if (!doc.readOnly) return;
    await this.#view.guard(`Could not take over ${doc.title}`, async () => {
      await this.#link.takeOver(doc.id);
      const state = await readStoredState(this.#db, doc.id);
      if (state) doc.follow(state);
      doc.resume(await readHistory(this.#db, doc.id));
      this.#view.inform(`You edit ${doc.title} in this window now; the other window shows it read-only.`);
    });
  }

  /** A save or save-as asked of a document another window edits: say how to get it back. */
  refuseReadOnly(doc: OpenDocument): void {
    if (this.#view.dialog === 'saveAs' || this.#view.dialog === 'conflict') this.#view.closeDialog();
    this.#view.notice = {
      kind: 'error',
      message: `${doc.title} is edited in another window, so it cannot be saved from here. "Take over editing" first, or save it in that window.`,
    };
  }

  /** Another window's news about a document this one shows. */
  async #follow(message: LinkMessage): Promise<void> {
    if (this.#host.status !== 'ready') return; // the restore reads every record as it is now
    const doc = this.#find(message.docId);
    if (message.type === 'release') {
      if (doc && !doc.readOnly && this.#link.owns(doc.id)) await this.#handOver(doc);
      return;
    }
    if (message.type === 'closed') {
      if (doc?.readOnly) this.#host.drop(doc.id);
      return;
    }
    if (message.type !== 'stored' || (doc && !doc.readOnly)) return;
    const state = await readStoredState(this.#db, message.docId);
    if (!state) return;
    const current = this.#find(message.docId);
    if (current) current.follow(state);
    else this.#host.addFollowed(message.docId, state);
  }

  /** Another window takes this document over: store the last edits, stop editing, let go. */
  async #handOver(doc: OpenDocument): Promise<void> {
    doc.readOnly = true;
    this.#view.closeDialogsOf(doc, this.#host.active);
    await this.#autosave.now(doc);
    this.#autosave.cancel(doc.id);
    this.#link.release(doc.id);
    this.#link.post({ type: 'released', docId: doc.id });
    if (doc === this.#host.active) this.#view.inform(`${doc.title} is edited in another window now; here it follows that window's edits.`);
  }

  /** The lock was taken by force (this window did not answer in time): stop writing the document. */
  #lose(docId: string): void {
    const doc = this.#find(docId);
    if (!doc) return;
    doc.readOnly = true;
    this.#view.closeDialogsOf(doc, this.#host.active);
    this.#autosave.cancel(docId);
  }

  #find(id: string): OpenDocument | undefined {
    return this.#host.documents.find((d) => d.id === id);
  }
}
