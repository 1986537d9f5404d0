/**
 * Keeps every open design's unsaved edits in IndexedDB: written a moment after each change, at
 * once after a save, and, when the page goes away, also to a synchronous localStorage journal
 * (an IndexedDB write may not finish during unload) that the next start replays.
 */
import type { DocumentRecord, WorkspaceDb } from '../lib/db.ts';

/** Unsaved edits reach IndexedDB this long after the last change (the promise is "within a second"). */
export const AUTOSAVE_DELAY_MS = 250;
/** localStorage key of the records written synchronously when the page goes away. */
export const JOURNAL_KEY = 'keyplan-autosave-journal';

export class Autosave<Doc extends { id: string }> {
  /** `pending` while edits wait to reach IndexedDB; `idle` once everything is stored locally. */
  status = $state<'idle' | 'pending'>('idle');

  readonly #db: WorkspaceDb;
  readonly #recordOf: (doc: Doc) => DocumentRecord;
  readonly #onerror: (error: unknown) => void;
  readonly #pending = new Map<string, { doc: Doc; timer: ReturnType<typeof setTimeout> }>();
  #writing = 0;

  constructor(db: WorkspaceDb, recordOf: (doc: Doc) => DocumentRecord, onerror: (error: unknown) => void) {
    this.#db = db;
    this.#recordOf = recordOf;
    this.#onerror = onerror;
  }

  /** Stores `doc` shortly, merging rapid changes into one write. */
  schedule(doc: Doc): void {
    clearTimeout(this.#pending.get(doc.id)?.timer);
    this.#pending.set(doc.id, { doc, timer: setTimeout(() => this.now(doc), AUTOSAVE_DELAY_MS) });
    this.status = 'pending';
  }

  /** Stores `doc` now. */
  now(doc: Doc): void {
    this.#forget(doc.id);
    this.#writing += 1;
    this.status = 'pending';
    this.#db.documents
      .put(this.#recordOf(doc))
      .catch(this.#onerror)
      .finally(() => {
        this.#writing -= 1;
        this.#settle();
      });
  }

  /** Drops a pending write (the design was closed). */
  cancel(id: string): void {
    this.#forget(id);
    this.#settle();
  }

  /** Writes every pending change now, journaling it synchronously first (the page is going away). */
  flush(): void {
    const docs = [...this.#pending.values()].map((p) => p.doc);
    if (docs.length === 0) return;
    try {
      localStorage.setItem(JOURNAL_KEY, JSON.stringify(docs.map((d) => this.#recordOf(d))));
    } catch {
      // Storage full or unavailable: the IndexedDB writes below are still attempted.
    }
    for (const doc of docs) this.now(doc);
  }

  /** Replays records journaled at the last page hide when they are newer than the stored ones. */
  async replayJournal(): Promise<void> {
    let records: unknown;
    try {
      records = JSON.parse(localStorage.getItem(JOURNAL_KEY) ?? '[]');
    } catch {
      records = [];
    }
    for (const record of Array.isArray(records) ? (records as DocumentRecord[]) : []) {
      const stored = await this.#db.documents.get(record.id);
      if (!stored || stored.updatedAt < record.updatedAt) await this.#db.documents.put(record);
    }
    localStorage.removeItem(JOURNAL_KEY);
  }

  #forget(id: string): void {
    clearTimeout(this.#pending.get(id)?.timer);
    this.#pending.delete(id);
  }

  #settle(): void {
    if (this.#writing === 0 && this.#pending.size === 0) this.status = 'idle';
  }
}
