/**
 * Reading a file or pasted text the user wants to import: which format it is (a Keyplan design or a
 * NoSQL Workbench model), every problem with its path, and a summary of what would open. Pure; the
 * workspace changes only when the user accepts (`ImportFlow.accept`).
 */
import { fromNoSqlWorkbench } from '../../../src-shared/formats/index.ts';
import type { Problem } from '../../../src-shared/model/problems.ts';
import type { Design } from '../../../src-shared/model/schema.ts';
import { parseDesignStructure, validateDesign } from '../../../src-shared/model/validate.ts';

export type ImportFormat = 'keyplan' | 'nosql-workbench';

export const FORMAT_LABELS: Record<ImportFormat, string> = {
  keyplan: 'Keyplan design',
  'nosql-workbench': 'NoSQL Workbench model',
};

export interface ImportSummary {
  tables: number;
  entities: number;
  patterns: number;
  indexes: number;
  /** Per table: its name and its entities' names. */
  contents: { table: string; entities: string[] }[];
}

export interface ImportReading {
  /** The file name, or `Pasted text`. */
  source: string;
  /** The format the text was read as; undefined when it is neither (or not JSON). */
  format?: ImportFormat;
  /** What would open; absent when a problem stops the import. */
  design?: Design;
  /**
   * With a design: the DynamoDB rules it breaks (it opens anyway, with them marked, like any work in
   * progress). Without: what stops the import.
   */
  problems: Problem[];
  summary?: ImportSummary;
}

/** Imports larger than this are refused before reading (a design is kilobytes; a model with sample data, a few MB). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** Reads `text` as a Keyplan design or a NoSQL Workbench model, whichever it is. */
export function readImport(text: string, source: string): ImportReading {
  if (text.trim() === '') {
    return { source, problems: [{ code: 'model.notObject', path: '', message: 'There is nothing to import: the text is empty.', found: 'empty text', expected: 'a Keyplan design or a NoSQL Workbench model (JSON)' }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const found = error instanceof Error ? error.message : String(error);
    return {
      source,
      problems: [{ code: 'file.notJson', path: '', message: `This is not JSON: ${found}. Expected a Keyplan design or a NoSQL Workbench model.`, found, expected: 'JSON text' }],
    };
  }
  const format = detectFormat(json);
  if (format === 'nosql-workbench') {
    const result = fromNoSqlWorkbench(json);
    return result.ok ? withSummary({ source, format, design: result.value, problems: [] }) : { source, format, problems: result.errors };
  }
  const parsed = parseDesignStructure(json);
  if (!parsed.ok) return { source, ...(format ? { format } : {}), problems: parsed.errors };
  return withSummary({ source, format: 'keyplan', design: parsed.value, problems: validateDesign(parsed.value) });
}

/** `keyplan` for an object with `formatVersion` or `tables`; `nosql-workbench` for one with `DataModel` or `ModelName`. */
export function detectFormat(json: unknown): ImportFormat | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  if ('formatVersion' in json || 'tables' in json) return 'keyplan';
  if ('DataModel' in json || 'ModelName' in json) return 'nosql-workbench';
  return undefined;
}

function withSummary(reading: ImportReading & { design: Design }): ImportReading {
  const { tables } = reading.design;
  return {
    ...reading,
    summary: {
      tables: tables.length,
      entities: tables.reduce((n, t) => n + t.entities.length, 0),
      patterns: tables.reduce((n, t) => n + t.accessPatterns.length, 0),
      indexes: tables.reduce((n, t) => n + t.globalSecondaryIndexes.length + t.localSecondaryIndexes.length, 0),
      contents: tables.map((t) => ({ table: t.name, entities: t.entities.map((e) => e.name) })),
    },
  };
}
