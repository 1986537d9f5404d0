/**
 * A GSI's key parts (docs/dynamodb-rules.md §11): a partition key of 1–4 attributes and a sort key of
 * 0–4, no attribute twice in one index key. Also the entities that carry a GSI key attribute under its
 * own name (a natural key, as multi-attribute keys use): the attribute must have the key's type, or
 * DynamoDB rejects the item's writes.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html
 */
import { keyPartAttributes } from '../gsi-keys.ts';
import { bindingOf } from '../key-slots.ts';
import { MAX_KEY_ATTRIBUTES_PER_PART, type GlobalSecondaryIndex, type Table } from '../schema.ts';
import type { Collector } from './collector.ts';
import { joinPath, listOf, quote } from './wording.ts';

const MULTI_ATTRIBUTE_PAGE = 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html';

/** Checks one GSI's key parts, adding every problem to `c` at the part (or attribute) it concerns. */
export function checkGsiKeyParts(gsi: GlobalSecondaryIndex, gp: string, c: Collector): void {
  const owner = `GSI ${quote(gsi.name)}`;
  const seen = new Map<string, string>();
  for (const [role, field, min] of [['partition', 'partitionKey', 1], ['sort', 'sortKey', 0]] as const) {
    const stored = gsi[field];
    const part = keyPartAttributes(stored);
    const path = joinPath(gp, field);
    if (part.length < min) {
      c.add(
        'model.multiAttributeKey',
        path,
        `${owner} has a partition key of no attributes; expected 1–${MAX_KEY_ATTRIBUTES_PER_PART} attributes.`,
        'no attributes',
        `1–${MAX_KEY_ATTRIBUTES_PER_PART} attributes`,
      );
    }
    if (part.length > MAX_KEY_ATTRIBUTES_PER_PART) {
      c.add(
        'model.multiAttributeKey',
        path,
        `${owner} has a ${role} key of ${part.length} attributes (${listOf(part.map((a) => a.name))}); expected at most ${MAX_KEY_ATTRIBUTES_PER_PART} (${MULTI_ATTRIBUTE_PAGE}).`,
        `${part.length} attributes`,
        `at most ${MAX_KEY_ATTRIBUTES_PER_PART}`,
      );
    }
    part.forEach((attribute, i) => {
      if (attribute.name === '') return;
      const where = Array.isArray(stored) ? joinPath(path, i) : path;
      const first = seen.get(attribute.name);
      if (first !== undefined) {
        c.add(
          'model.duplicateKeyAttribute',
          joinPath(where, 'name'),
          `${owner} names ${quote(attribute.name)} twice in its key (as ${first} and in its ${role} key); expected each attribute at most once in one index key.`,
          `${quote(attribute.name)} twice`,
          'each attribute once',
        );
      } else seen.set(attribute.name, `${Array.isArray(stored) ? `attribute ${i + 1} of its ${role} key` : `its ${role} key`}`);
    });
  }
}

/**
 * Entities that carry a GSI key attribute as a plain attribute (no template) with a type the key
 * cannot take: DynamoDB rejects a write whose GSI key attribute has another type than the index
 * declares. One problem per entity attribute.
 */
export function checkNaturalKeyTypes(table: Table, tp: string, c: Collector): void {
  const keyTypes = new Map<string, { type: string; owner: string }>();
  for (const g of table.globalSecondaryIndexes) {
    for (const a of [...keyPartAttributes(g.partitionKey), ...keyPartAttributes(g.sortKey)]) {
      if (a.name !== '' && !keyTypes.has(a.name)) keyTypes.set(a.name, { type: a.type, owner: `GSI ${quote(g.name)}` });
    }
  }
  if (keyTypes.size === 0) return;
  table.entities.forEach((entity, ei) => {
    (entity.attributes ?? []).forEach((attribute, ai) => {
      const key = keyTypes.get(attribute.name);
      if (!key || bindingOf(entity, attribute.name) || attribute.type === key.type) return;
      c.add(
        'model.keyAttributeConflict',
        joinPath(joinPath(joinPath(joinPath(tp, 'entities'), ei), 'attributes'), ai),
        `${quote(entity.name)} carries ${quote(attribute.name)} as ${attribute.type}, but ${key.owner} keys on it as ${key.type}; DynamoDB rejects a write whose index key attribute has another type. Expected ${key.type}.`,
        attribute.type,
        key.type,
      );
    });
  });
}
