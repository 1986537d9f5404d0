/**
 * The open designs as IndexedDB keeps them (`lib/db.ts`): reading the records back after a reload
 * or a crash, with their undo history, and the record an open document is stored as.
 */
import type { Problem, Design } from '../../src-shared/model/index.ts';
import { parseDesignStructure } from '../../src-shared/model/index.ts';
import type { DocumentRecord, HistoryRecord, WorkspaceDb } from '../lib/db.ts';
import type { History, OpenDocument } from './document.svelte.ts';

/** A stored document that could not be restored; its record is left as it was. */
export interface RestoreFailure {
  id: string;
  title: string;
  problems: Problem[];
}

/** A stored record whose design has the shape of a design (it may still break DynamoDB rules). */
export interface StoredDocument {
  record: DocumentRecord;
  design: Design;
}

/** The file state of a document as stored: what `OpenDocument.follow` takes. */
export type StoredState = { design: Design } & Pick<DocumentRecord, 'fileRef' | 'fileName' | 'savedJson' | 'fileVersion'>;

/** Every stored document in tab order; one whose design no longer has a design's shape is a failure, kept untouched. */
export async function readStoredDocuments(db: WorkspaceDb): Promise<{ stored: StoredDocument[]; failures: RestoreFailure[] }> {
  const records = await db.documents.orderBy('order').toArray();
  const stored: StoredDocument[] = [];
  const failures: RestoreFailure[] = [];
  for (const record of records) {
    // Work in progress may break DynamoDB rules (they show inline); only a broken shape fails.
    const parsed = parseDesignStructure(record.design);
    if (parsed.ok) stored.push({ record, design: parsed.value });
    else failures.push({ id: record.id, title: record.fileName ?? nameOf(record.design), problems: parsed.errors });
  }
  return { stored, failures };
}

/** One stored document's state as it is now, or undefined when it is gone or no longer reads as a design. */
export async function readStoredState(db: WorkspaceDb, id: string): Promise<StoredState | undefined> {
  const record = await db.documents.get(id);
  const parsed = record ? parseDesignStructure(record.design) : undefined;
  if (!record || !parsed?.ok) return undefined;
  return { design: parsed.value, fileRef: record.fileRef, fileName: record.fileName, savedJson: record.savedJson, fileVersion: record.fileVersion };
}

/** The stored undo history of a document; steps whose design no longer parses are dropped. */
export async function readHistory(db: WorkspaceDb, id: string): Promise<History> {
  const rows = await db.history.where('documentId').equals(id).sortBy('seq');
  const steps = (stack: HistoryRecord['stack']) =>
    rows.flatMap((r) => {
      if (r.stack !== stack) return [];
      const parsed = parseDesignStructure(r.design);
      return parsed.ok ? [{ seq: r.seq, design: parsed.value }] : [];
    });
  return { past: steps('past'), future: steps('future') };
}

/** Forgets a stored document and its undo history. */
export async function deleteStored(db: WorkspaceDb, id: string): Promise<void> {
  await db.transaction('rw', db.documents, db.history, async () => {
    await db.documents.delete(id);
    await db.history.where('documentId').equals(id).delete();
  });
}

/** The record `doc` is stored as; `order` is its place among the open designs. */
export function recordOf(doc: OpenDocument, order: number): DocumentRecord {
  const record: DocumentRecord = { id: doc.id, design: doc.design, order, updatedAt: new Date().toISOString() };
  if (doc.fileRef !== undefined) record.fileRef = doc.fileRef;
  if (doc.fileName !== undefined) record.fileName = doc.fileName;
  if (doc.savedJson !== undefined) record.savedJson = doc.savedJson;
  if (doc.fileVersion !== undefined) record.fileVersion = { ...doc.fileVersion };
  return record;
}

function nameOf(design: unknown): string {
  const name = (design as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : 'Untitled design';
}
