/**
 * A GSI's key parts as ordered lists. A GSI's partition key is 1–4 attributes and its sort key 0–4
 * (a multi-attribute key); the design file holds a one-attribute part as a plain key attribute, as
 * before, and a longer one as a list. Everything that reads a GSI's key goes through here.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html
 */
import type { GlobalSecondaryIndex, KeyAttribute } from './schema.ts';

/** A key part as stored: one attribute, a list, or absent. */
export type StoredKeyPart = KeyAttribute | KeyAttribute[] | undefined;

/** The attributes of a stored key part, in key order (a design being edited may hold anything: non-objects are skipped). */
export function keyPartAttributes(part: StoredKeyPart | unknown): KeyAttribute[] {
  if (part === undefined || part === null) return [];
  const list = Array.isArray(part) ? part : [part];
  return list.filter((a): a is KeyAttribute => typeof a === 'object' && a !== null && typeof (a as KeyAttribute).name === 'string');
}

/** A GSI's partition-key attributes (1–4 in a valid design), in key order. */
export const partitionKeysOf = (gsi: Pick<GlobalSecondaryIndex, 'partitionKey'>): KeyAttribute[] => keyPartAttributes(gsi.partitionKey);

/** A GSI's sort-key attributes (0–4 in a valid design), in key order. */
export const sortKeysOf = (gsi: Pick<GlobalSecondaryIndex, 'sortKey'>): KeyAttribute[] => keyPartAttributes(gsi.sortKey);

/** Every key attribute of a GSI: the partition key's, then the sort key's. */
export const gsiKeyAttributes = (gsi: Pick<GlobalSecondaryIndex, 'partitionKey' | 'sortKey'>): KeyAttribute[] => [...partitionKeysOf(gsi), ...sortKeysOf(gsi)];

/** Whether either part of the GSI's key has more than one attribute. */
export const isMultiAttributeKey = (gsi: Pick<GlobalSecondaryIndex, 'partitionKey' | 'sortKey'>): boolean =>
  partitionKeysOf(gsi).length > 1 || sortKeysOf(gsi).length > 1;

/** How a list of key attributes is stored: one attribute plainly (as older files hold it), several as a list, none as absent. */
export function storedKeyPart(attributes: readonly KeyAttribute[]): StoredKeyPart {
  if (attributes.length === 0) return undefined;
  if (attributes.length === 1) return { ...(attributes[0] as KeyAttribute) };
  return attributes.map((a) => ({ ...a }));
}

/** `tournamentId + region`: a key part's names joined, for text. */
export const keyPartLabel = (attributes: readonly KeyAttribute[]): string => attributes.map((a) => a.name).join(' + ');
