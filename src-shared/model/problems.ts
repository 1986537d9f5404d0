/**
 * Problems found in a design: what `parseDesign` and `validateDesign` return, one per fault, each
 * naming where (path), what was found and what was expected, so the UI can mark every field.
 */
import type { ErrorData } from '../errors.ts';

/**
 * Codes of the problems `parseDesign`, `validateDesign` and `migrate` raise. Condition and
 * key-template codes are declared in `condition.ts` and `key-template.ts` (which import `Problem`
 * from here), and `ipc/error-codes.ts` unions all three.
 */
export type ModelErrorCode =
  | 'model.notObject'
  | 'model.itemTooLarge'
  | 'model.itemCollectionTooLarge'
  | 'model.moreProblems'
  | 'model.notKeyplanDesign'
  | 'model.unsupportedVersion'
  | 'model.invalidVersion'
  | 'model.schema'
  | 'model.invalidName'
  | 'model.duplicateName'
  | 'model.duplicateId'
  | 'model.tooManyIndexes'
  | 'model.lsiNeedsSortKey'
  | 'model.keyAttributeConflict'
  | 'model.projection'
  | 'model.tooManyProjectedAttributes'
  | 'model.unknownEntity'
  | 'model.unknownAttribute'
  | 'model.returnsOnNonRead'
  | 'model.missingKeyTemplate'
  | 'model.keyTooLong'
  | 'model.billing'
  | 'model.invalidId'
  | 'model.invalidNumber'
  | 'model.duplicateKeyAttribute'
  | 'model.lsiSortKeyNotDistinct'
  | 'model.incompleteIndexKey'
  | 'model.invalidSharding'
  | 'model.invalidUpdates'
  | 'model.rangeOperator'
  | 'model.ttlAttributeType'
  | 'model.pointInTimeRecovery'
  | 'model.encryption'
  | 'model.tags'
  | 'model.multiAttributeKey'
  | 'model.warmThroughput'
  | 'model.onDemandThroughput'
  | 'model.contributorInsights'
  | 'model.traffic';

/** One problem in a design. `path` uses property/index notation: `tables[0].entities[2].keys.GSI1PK`. */
export interface Problem extends ErrorData {
  path: string;
  /** What was there, shown to the user ("a number", `"us"`). */
  found?: string;
  /** What is allowed there ("3–255 characters of a-z A-Z 0-9 _ . -"). */
  expected?: string;
}

/**
 * A problem's or note's message without the path it starts with (`path: …`, or a sentence about the
 * place, `path is …`), for lists that show the path beside the message: the place is named once.
 * A message that does not start with its path is returned whole.
 */
export function messageAfterPath(item: { path: string; message: string }): string {
  const { path, message } = item;
  if (path === '') return message;
  if (message.startsWith(`${path}: `)) return message.slice(path.length + 2);
  if (message.startsWith(`${path} `)) return message.slice(path.length + 1);
  return message;
}
