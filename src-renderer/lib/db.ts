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

export type WorkspaceDb = Dexie & {
  documents: EntityTable<DocumentRecord, 'id'>;
  settings: EntityTable<SettingRecord, 'key'>;
};

export function openWorkspaceDb(name = 'keyplan-workspace'): WorkspaceDb {
  const db = new Dexie(name) as WorkspaceDb;
  db.version(1).stores({ documents: 'id, order', settings: 'key' });
  return db;
}
