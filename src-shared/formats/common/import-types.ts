/**
 * What every importer returns: the design it built and the notes that say how far to trust it, or
 * the problems that stop it. Shared by the NoSQL Workbench, OneTable, CloudFormation and
 * describe-table importers, the import dialog and `keyplan import`.
 */
import type { Result } from '../../errors.ts';
import type { Problem, Design } from '../../model/index.ts';

/** The formats `keyplan import --from` and the import dialog read (besides Keyplan designs themselves). */
export const IMPORT_SOURCES = ['nosql-workbench', 'onetable', 'cloudformation', 'describe-table'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** How each source is named to users. */
export const IMPORT_SOURCE_LABELS: Record<ImportSource, string> = {
  'nosql-workbench': 'NoSQL Workbench model',
  onetable: 'OneTable schema',
  cloudformation: 'CloudFormation template',
  'describe-table': 'describe-table output',
};

/**
 * - `warning`: part of the source was malformed or unknown and was skipped (a sample value that is
 *   not DynamoDB JSON, a facet naming a missing attribute); the message names what was skipped.
 * - `inferred`: a value the source does not hold, filled in or guessed (an item count from the
 *   sample items, a key template from sample key values, an average item size from TableSizeBytes).
 * - `dropped`: a setting the source holds that the design does not keep, or a setting the source
 *   cannot tell (a template holds no entities; DescribeTable returns no TTL).
 */
export type ImportNoteKind = 'warning' | 'inferred' | 'dropped';

export interface ImportNote {
  kind: ImportNoteKind;
  /**
   * Where in the source, in the source's own terms: a JSON path into the file
   * (`DataModel[0].TableData[3].details`, `Resources.Orders.Properties.SSESpecification`,
   * `Table.GlobalSecondaryIndexes[1]`, `models.User.email`); '' for the whole file.
   */
  path: string;
  /** One sentence naming what was skipped, inferred or dropped, and the value where there is one. */
  message: string;
}

/** A design read from another format, with what the reading inferred, skipped and dropped. */
export interface Imported {
  design: Design;
  notes: ImportNote[];
}

/**
 * Error codes of the importers: each format's own family (`onetable.schema`,
 * `cloudformation.yaml`, `describeTable.notOutput`). NoSQL Workbench keeps its `workbench.*` codes.
 */
export type ImportErrorCode = `onetable.${string}` | `cloudformation.${string}` | `describeTable.${string}` | `import.${string}`;

/** An importer's answer: the design and its notes, or every problem that stops the import (never both). */
export type ImportResult = Result<Imported, Problem>;
