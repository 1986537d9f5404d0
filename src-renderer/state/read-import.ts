/**
 * Reading a file or pasted text the user wants to import: which format it is (a Keyplan design, a
 * NoSQL Workbench model, a OneTable schema, a CloudFormation template, describe-table output), every
 * problem with its path, the notes on what was inferred, skipped or dropped, and a summary of what
 * would open. Pure; the workspace changes only when the user accepts (`ImportFlow.accept`).
 */
import {
  detectImportFormat,
  detectJsonFormat,
  IMPORT_SOURCE_LABELS,
  importText,
  MAX_IMPORT_BYTES,
  READABLE_FORMATS,
  tooLargeProblem,
  unknownFormatProblem,
  type ImportFormat,
  type ImportNote,
} from '../../src-shared/formats/index.ts';
import type { Problem, Design } from '../../src-shared/model/index.ts';
import { parseDesignStructure, validateDesign } from '../../src-shared/model/index.ts';

export type { ImportFormat };

export const FORMAT_LABELS: Record<ImportFormat, string> = { keyplan: 'Keyplan design', ...IMPORT_SOURCE_LABELS };

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
  /** The format the text was read as; undefined when it is none Keyplan reads. */
  format?: ImportFormat;
  /** What would open; absent when a problem stops the import. */
  design?: Design;
  /**
   * With a design: the DynamoDB rules it breaks (it opens anyway, with them marked, like any work in
   * progress). Without: what stops the import.
   */
  problems: Problem[];
  /** With a design from another format: what the reading inferred, skipped or dropped, each with its path in the source. */
  notes: ImportNote[];
  summary?: ImportSummary;
}

/** Imports larger than this are refused before reading (a design is kilobytes; a model with sample data, a few MB). */
export { MAX_IMPORT_BYTES };

/**
 * Reads `text` as whichever format it is. `companions` are the texts of further files given with it
 * (describe-time-to-live and describe-continuous-backups outputs next to a describe-table output).
 */
export function readImport(text: string, source: string, companions: readonly string[] = []): ImportReading {
  if (text.trim() === '') {
    return { source, notes: [], problems: [{ code: 'model.notObject', path: '', message: 'There is nothing to import: the text is empty.', found: 'empty text', expected: READABLE_FORMATS }] };
  }
  const tooLarge = tooLargeProblem(text, source === 'Pasted text' ? 'The pasted text' : source);
  if (tooLarge) return { source, notes: [], problems: [tooLarge] };
  const format = detectImportFormat(text);
  if (format === undefined) {
    try {
      JSON.parse(text);
    } catch (error) {
      const found = error instanceof Error ? error.message : String(error);
      return { source, notes: [], problems: [{ code: 'file.notJson', path: '', message: `This is not JSON: ${found}. Expected ${READABLE_FORMATS} (JSON, or YAML for CloudFormation).`, found, expected: 'JSON text' }] };
    }
    return { source, notes: [], problems: [unknownFormatProblem(text)] };
  }
  if (format !== 'keyplan') {
    const result = importText(format, text, companions);
    return result.ok ? withSummary({ source, format, design: result.value.design, notes: result.value.notes, problems: [] }) : { source, format, notes: [], problems: result.errors };
  }
  const parsed = parseDesignStructure(JSON.parse(text));
  if (!parsed.ok) return { source, format: 'keyplan', notes: [], problems: parsed.errors };
  return withSummary({ source, format: 'keyplan', design: parsed.value, notes: [], problems: validateDesign(parsed.value) });
}

/**
 * Reads several files given at once: the one that is a describe-table output (or the only one) is
 * the source and the others its companions; any other combination is refused, naming the files.
 */
export function readFileTexts(names: readonly string[], texts: readonly string[]): ImportReading {
  if (texts.length === 1) return readImport(texts[0]!, names[0]!);
  const source = names.join(', ');
  const main = texts.findIndex((t) => detectImportFormat(t) === 'describe-table');
  if (main < 0) {
    const message = `${names.length} files were given at once (${source}); only a describe-table output takes others with it (its describe-time-to-live and describe-continuous-backups outputs). Import one file at a time.`;
    return { source, notes: [], problems: [{ code: 'import.severalFiles', path: '', message, found: `${names.length} files`, expected: 'one file, or a describe-table output with its companions' }] };
  }
  const reading = readImport(texts[main]!, names[main]!, texts.filter((_, i) => i !== main));
  return { ...reading, source };
}

/** The format of a parsed JSON value (see `detectJsonFormat`). */
export const detectFormat = detectJsonFormat;

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
