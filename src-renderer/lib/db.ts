/**
 * The workspace in IndexedDB: every open design with its unsaved edits, and small UI settings.
 * Records hold the design as plain JSON; it goes through `parseDesign` when restored, and a record
 * that fails is kept as it is, never overwritten.
 */
import { Dexie, type EntityTable, type Table } from 'dexie';

export interface DocumentRecord {
  id: string;
  /** The design as last edited (plain JSON, not yet trusted). */
  design: unknown;
  fileRef?: string;
  fileName?: string;
  /** The design's JSON as it was last opened or saved, to tell whether there are unsaved edits. */
  savedJson?: string;
  /** The file's version as last opened or saved (`{ mtimeMs, sha256 }`): what a save expects on disk. */
  fileVersion?: { mtimeMs: number; sha256: string };
  /** Position in the tab strip. */
  order: number;
  updatedAt: string;
}

export interface SettingRecord {
  key: string;
  value: unknown;
}

/** A saved or checkpointed design of one document, kept so it can be compared or restored. */
export interface RevisionRecord {
  id: string;
  documentId: string;
  /** The design as it was (plain JSON, not yet trusted). */
  design: unknown;
  /** `Saved shop.keyplan.json`, a checkpoint's name, or `Restored from …`. */
  label: string;
  createdAt: string;
}

/** One design of a document's undo (`past`) or redo (`future`) stack, so undo survives a reload. */
export interface HistoryRecord {
  documentId: string;
  seq: number;
  stack: 'past' | 'future';
  /** The design as it was (plain JSON, not yet trusted). */
  design: unknown;
}

export type WorkspaceDb = Dexie & {
  documents: EntityTable<DocumentRecord, 'id'>;
  settings: EntityTable<SettingRecord, 'key'>;
  revisions: EntityTable<RevisionRecord, 'id'>;
  history: Table<HistoryRecord, [string, number]>;
};

export function openWorkspaceDb(name = 'keyplan-workspace'): WorkspaceDb {
  const db = new Dexie(name) as WorkspaceDb;
  db.version(1).stores({ documents: 'id, order', settings: 'key' });
  // Version 2 only adds a table: the documents and settings stored by version 1 stay as they are.
  db.version(2).stores({ documents: 'id, order', settings: 'key', revisions: 'id, documentId, createdAt' });
  // Version 3 adds the undo history; records of version 2 simply have none.
  db.version(3).stores({ documents: 'id, order', settings: 'key', revisions: 'id, documentId, createdAt', history: '[documentId+seq], documentId' });
  return db;
}
