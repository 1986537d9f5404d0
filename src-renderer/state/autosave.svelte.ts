/**
 * Keeps every open design's unsaved edits, and its undo history, in IndexedDB: written within one
 * animation frame of each change (so an edit visible on screen survives a crash of the window), at
 * once after a save, and, when the page goes away, also to a synchronous localStorage journal (an
 * IndexedDB write may not finish during unload) that the next start replays.
 */
import type { DocumentRecord, HistoryRecord, WorkspaceDb } from '../lib/db.ts';
import type { History } from './document.svelte.ts';

/**
 * localStorage keys of the records written synchronously when a page goes away: one per window
 * (`keyplan-autosave-journal:<window id>`), so two windows going away together never overwrite each
 * other's journal. The key without a suffix is what earlier versions wrote; it is replayed too.
 */
export const JOURNAL_KEY = 'keyplan-autosave-journal';
/** How many undo (and as many redo) steps are kept across reloads; the window itself keeps more. */
export const PERSISTED_HISTORY = 100;

export interface AutosaveOptions<Doc> {
  recordOf: (doc: Doc) => DocumentRecord;
  historyOf: (doc: Doc) => History;
  onerror: (error: unknown) => void;
  /** Called after a document's record is stored (other windows follow it). */
  onstored?: (id: string) => void;
  /** When the next write runs: the next animation frame by default. */
  nextFrame?: (run: () => void) => void;
  /** This window's id: its journal is `JOURNAL_KEY:<windowId>`. */
  windowId?: string;
  /** Whether the window that wrote a journal is still open (then its journal is not replayed yet). */
  isWindowOpen?: (windowId: string) => Promise<boolean>;
}

export class Autosave<Doc extends { id: string }> {
  /** `pending` while edits wait to reach IndexedDB; `idle` once everything is stored locally. */
  status = $state<'idle' | 'pending'>('idle');

  readonly #db: WorkspaceDb;
  readonly #options: AutosaveOptions<Doc>;
  readonly #pending = new Map<string, Doc>();
  /** The history steps stored per document (seq → stack), learned at its first write. */
  readonly #stored = new Map<string, Map<number, HistoryRecord['stack']>>();
  /** Writes run one after another, so an older state never lands after a newer one. */
  #queue: Promise<void> = Promise.resolve();
  #frameRequested = false;
  #writing = 0;

  constructor(db: WorkspaceDb, options: AutosaveOptions<Doc>) {
    this.#db = db;
    this.#options = options;
  }

  /** Stores `doc` at the next animation frame, merging the changes of one frame into one write. */
  schedule(doc: Doc): void {
    this.#pending.set(doc.id, doc);
    this.status = 'pending';
    if (this.#frameRequested) return;
    this.#frameRequested = true;
    (this.#options.nextFrame ?? nextFrame)(() => {
      this.#frameRequested = false;
      for (const pending of [...this.#pending.values()]) this.now(pending);
    });
  }

  /** Stores `doc` now; resolves once it is in IndexedDB (never rejects: failures go to `onerror`). */
  now(doc: Doc): Promise<void> {
    this.#pending.delete(doc.id);
    this.#writing += 1;
    this.status = 'pending';
    const record = this.#options.recordOf(doc);
    const history = this.#options.historyOf(doc);
    const write = this.#queue.then(() => this.#write(record, history));
    this.#queue = write.catch(() => undefined);
    return write
      .then(() => this.#options.onstored?.(doc.id))
      .catch((error: unknown) => {
        this.#stored.delete(doc.id); // what is stored is unknown now: read it again at the next write
        this.#options.onerror(error);
      })
      .finally(() => {
        this.#writing -= 1;
        this.#settle();
      });
  }

  /** Drops a pending write (the design was closed, or another window edits it now). */
  cancel(id: string): void {
    this.#pending.delete(id);
    this.#stored.delete(id);
    this.#settle();
  }

  /** Resolves when every write started so far has landed. */
  async settled(): Promise<void> {
    await this.#queue;
  }

  /** Writes every pending change now, journaling it synchronously first (the page is going away). */
  flush(): void {
    const docs = [...this.#pending.values()];
    if (docs.length === 0) return;
    try {
      localStorage.setItem(this.#journalKey, JSON.stringify(docs.map((d) => this.#options.recordOf(d))));
    } catch {
      // Storage full or unavailable: the IndexedDB writes below are still attempted.
    }
    for (const doc of docs) void this.now(doc);
  }

  /**
   * Replays the journals of windows that are gone (written at their last page hide), each record
   * only when it is newer than the stored one. A window still open keeps its journal: it may still
   * be writing those documents itself.
   */
  async replayJournal(): Promise<void> {
    const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)).filter(
      (key): key is string => key !== null && (key === JOURNAL_KEY || key.startsWith(`${JOURNAL_KEY}:`)),
    );
    for (const key of keys) {
      const windowId = key.slice(JOURNAL_KEY.length + 1);
      if (windowId !== '' && windowId !== this.#options.windowId && (await this.#options.isWindowOpen?.(windowId))) continue;
      let records: unknown;
      try {
        records = JSON.parse(localStorage.getItem(key) ?? '[]');
      } catch {
        records = [];
      }
      for (const record of Array.isArray(records) ? (records as DocumentRecord[]) : []) {
        await this.#db.transaction('rw', this.#db.documents, async () => {
          const stored = await this.#db.documents.get(record.id);
          if (!stored || stored.updatedAt < record.updatedAt) await this.#db.documents.put(record);
        });
      }
      localStorage.removeItem(key);
    }
  }

  get #journalKey(): string {
    return this.#options.windowId === undefined ? JOURNAL_KEY : `${JOURNAL_KEY}:${this.#options.windowId}`;
  }

  /** The record and the history change in one transaction: a reload never sees one without the other. */
  async #write(record: DocumentRecord, history: History): Promise<void> {
    const wanted = new Map<number, { stack: HistoryRecord['stack']; design: unknown }>();
    for (const step of history.past.slice(-PERSISTED_HISTORY)) wanted.set(step.seq, { stack: 'past', design: step.design });
    for (const step of history.future.slice(-PERSISTED_HISTORY)) wanted.set(step.seq, { stack: 'future', design: step.design });
    await this.#db.transaction('rw', this.#db.documents, this.#db.history, async () => {
      let stored = this.#stored.get(record.id);
      if (!stored) {
        const rows = await this.#db.history.where('documentId').equals(record.id).toArray();
        stored = new Map(rows.map((r) => [r.seq, r.stack]));
      }
      const gone = [...stored.keys()].filter((seq) => !wanted.has(seq));
      const added = [...wanted].filter(([seq, step]) => stored.get(seq) !== step.stack);
      await this.#db.documents.put(record);
      if (gone.length > 0) await this.#db.history.bulkDelete(gone.map((seq) => [record.id, seq] as [string, number]));
      if (added.length > 0) await this.#db.history.bulkPut(added.map(([seq, step]) => ({ documentId: record.id, seq, stack: step.stack, design: step.design })));
      this.#stored.set(record.id, new Map([...wanted].map(([seq, step]) => [seq, step.stack])));
    });
  }

  #settle(): void {
    if (this.#writing === 0 && this.#pending.size === 0) this.status = 'idle';
  }
}

/** The next animation frame; a hidden page gets no frames, so there the next task instead. */
function nextFrame(run: () => void): void {
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') {
    requestAnimationFrame(() => run());
  } else {
    setTimeout(run, 0);
  }
}
