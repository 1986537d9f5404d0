/**
 * The workspace in IndexedDB: every open design with its unsaved edits, and small UI settings.
 * Records hold the design as plain JSON; it goes through `parseDesign` when restored, and a record
 * that fails is kept as it is, never overwritten.
 */
import { Dexie, type EntityTable } from 'dexie';

export interface DocumentRecord {
  id: string;
  /** The design as last edited (plain JSON, not yet trusted). */
  design: unknown;
  fileRef?: string;
  fileName?: string;
  /** The design's JSON as it was last opened or saved, to tell whether there are unsaved edits. */
  savedJson?: string;
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

export type WorkspaceDb = Dexie & {
  documents: EntityTable<DocumentRecord, 'id'>;
  settings: EntityTable<SettingRecord, 'key'>;
  revisions: EntityTable<RevisionRecord, 'id'>;
};

export function openWorkspaceDb(name = 'keyplan-workspace'): WorkspaceDb {
  const db = new Dexie(name) as WorkspaceDb;
  db.version(1).stores({ documents: 'id, order', settings: 'key' });
  // Version 2 only adds a table: the documents and settings stored by version 1 stay as they are.
  db.version(2).stores({ documents: 'id, order', settings: 'key', revisions: 'id, documentId, createdAt' });
  return db;
}
