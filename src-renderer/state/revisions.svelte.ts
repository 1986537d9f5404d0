/**
 * Revisions: every save and every named checkpoint of a design, kept in the workspace database per
 * document. Nothing is ever removed here: restoring a revision records a new one.
 */
import { newId, parseDesignStructure } from '../../src-shared/model/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import type { RevisionRecord, WorkspaceDb } from '../lib/db.ts';

export interface Revision {
  id: string;
  documentId: string;
  design: Design;
  label: string;
  createdAt: string;
}

export class Revisions {
  /** Every revision that could be read, oldest first. */
  all = $state.raw<Revision[]>([]);
  readonly #db: WorkspaceDb;

  constructor(db: WorkspaceDb) {
    this.#db = db;
  }

  /** Reads the stored revisions; one whose design no longer parses is left in the database, unlisted. */
  async load(): Promise<void> {
    const records = await this.#db.revisions.orderBy('createdAt').toArray();
    this.all = records.flatMap((r) => {
      const parsed = parseDesignStructure(r.design);
      return parsed.ok ? [{ id: r.id, documentId: r.documentId, design: parsed.value, label: r.label, createdAt: r.createdAt }] : [];
    });
  }

  /** The revisions of one document, newest first. */
  of(documentId: string | undefined): Revision[] {
    return this.all.filter((r) => r.documentId === documentId).reverse();
  }

  get(id: string): Revision | undefined {
    return this.all.find((r) => r.id === id);
  }

  /** Stores `design` as a revision of the document. */
  async record(documentId: string, design: Design, label: string): Promise<Revision> {
    const last = this.all.at(-1)?.createdAt;
    let createdAt = new Date().toISOString();
    // Two revisions in the same millisecond still keep their order.
    if (last !== undefined && createdAt <= last) createdAt = new Date(Date.parse(last) + 1).toISOString();
    const revision: Revision = { id: newId('rev'), documentId, design, label, createdAt };
    const record: RevisionRecord = { ...revision, design: JSON.parse(JSON.stringify(design)) };
    await this.#db.revisions.put(record);
    this.all = [...this.all, revision];
    return revision;
  }
}

/** `14:03:27` today, else `2026-11-29 14:03`. */
export function revisionTime(createdAt: string, now = new Date()): string {
  const d = new Date(createdAt);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return d.toDateString() === now.toDateString() ? time : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time.slice(0, 5)}`;
}
