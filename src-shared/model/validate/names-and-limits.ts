/**
 * A table's names and limits: ids unique in the design, table and index names, key schemas (attribute
 * names, one type per name, distinct partition and sort keys), index counts, LSIs, projections,
 * billing and the TTL attribute; then its entities (`keys.ts`) and access patterns (`patterns.ts`).
 */
import { checkGsiKeyParts, checkNaturalKeyTypes } from './multi-attribute-keys.ts';
import { utf8ByteLength } from '../key-template.ts';
import type { AccessPattern, Design, KeyAttribute, Projection, Table } from '../schema.ts';
import { checkAutoScaling } from './auto-scaling.ts';
import type { Collector } from './collector.ts';
import { keyUsesOf, membershipIndexesOf, validateEntity, type KeyUse } from './keys.ts';
import { validateAccessPatterns } from './patterns.ts';
import { checkTableSettings } from './table-settings.ts';
import { joinPath, listOf, ordinal, quote, typed } from './wording.ts';

/** GSIs per table: the default quota (adjustable). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html */
export const MAX_GSIS_PER_TABLE = 20;
/** LSIs per table (a hard limit). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html */
export const MAX_LSIS_PER_TABLE = 5;
/** Non-key attributes projected with INCLUDE, summed over all indexes of a table (repeats count). Same page. */
export const MAX_PROJECTED_NON_KEY_ATTRIBUTES = 100;
/** Longest key attribute name (and LSI INCLUDE attribute name), in UTF-8 bytes. Same page. */
export const MAX_KEY_ATTRIBUTE_NAME_BYTES = 255;
/** Longest TTL attribute name, in UTF-8 bytes: TimeToLiveSpecification.AttributeName takes 1–255. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TimeToLiveSpecification.html */
export const MAX_TTL_ATTRIBUTE_NAME_BYTES = 255;
/** Table and index names: 3–255 characters of a-z A-Z 0-9 _ . - */
export const RESOURCE_NAME_PATTERN = /^[a-zA-Z0-9_.-]{3,255}$/;
/** What a resource name may hold, for messages. */
export const RESOURCE_NAME_RULE = '3–255 characters of a-z A-Z 0-9 _ . -';

/** Every id in the design (tables, indexes, entities, access patterns) must be non-empty and unique. */
export function checkIds(design: Design, c: Collector): void {
  const seen = new Map<string, string>();
  const check = (id: string, path: string, what: string): void => {
    if (id.trim() === '') {
      c.add('model.invalidId', path, `${what} has an empty id; expected a non-empty id unique in the design.`, 'an empty id', 'a non-empty id');
      return;
    }
    const owner = seen.get(id);
    if (owner !== undefined) {
      c.add('model.duplicateId', path, `${what} has the id ${quote(id)}, already used by ${owner}; expected every id in the design to be unique.`, quote(id), 'an id no other part of the design has');
    } else seen.set(id, /^[A-Z][a-z]/.test(what) ? what.charAt(0).toLowerCase() + what.slice(1) : what); // `table "Shop"`, but `GSI "GSI1"`
  };
  design.tables.forEach((table, ti) => {
    const tp = joinPath('tables', ti);
    check(table.id, joinPath(tp, 'id'), `Table ${quote(table.name)}`);
    table.globalSecondaryIndexes.forEach((g, k) => check(g.id, joinPath(joinPath(joinPath(tp, 'globalSecondaryIndexes'), k), 'id'), `GSI ${quote(g.name)}`));
    table.localSecondaryIndexes.forEach((l, k) => check(l.id, joinPath(joinPath(joinPath(tp, 'localSecondaryIndexes'), k), 'id'), `LSI ${quote(l.name)}`));
    table.entities.forEach((e, k) => check(e.id, joinPath(joinPath(joinPath(tp, 'entities'), k), 'id'), `Entity ${quote(e.name)}`));
    table.accessPatterns.forEach((a, k) => check(a.id, joinPath(joinPath(joinPath(tp, 'accessPatterns'), k), 'id'), `Access pattern ${quote(a.name)}`));
  });
}

/** `Table "Shop"`: how messages name the table. */
const tableLabelOf = (table: Table): string => `Table ${quote(table.name)}`;

function checkResourceName(name: string, path: string, what: string, c: Collector): void {
  if (RESOURCE_NAME_PATTERN.test(name)) return;
  const characters = [...name];
  const bad = characters.findIndex((ch) => !/[a-zA-Z0-9_.-]/.test(ch));
  const length = characters.length;
  const problem =
    bad >= 0
      ? `has ${quote(characters[bad] ?? '')} at character ${bad + 1}`
      : length < 3
        ? `is too short (${length} character${length === 1 ? '' : 's'})`
        : `is too long (${length} characters)`;
  c.add('model.invalidName', path, `${what} name ${quote(name)} ${problem}; expected ${RESOURCE_NAME_RULE}.`, quote(name), RESOURCE_NAME_RULE);
}

/** Checks one table, its entities and its access patterns, adding every problem to `c`. */
export function validateTable(table: Table, tp: string, c: Collector): void {
  checkResourceName(table.name, joinPath(tp, 'name'), 'Table', c);
  const uses = keyUsesOf(table, tp);
  checkKeySchemas(table, tp, uses, c);
  const indexes = checkIndexNames(table, tp, c);
  checkLsiKeys(table, tp, c);
  checkProjections(table, tp, indexes, c);
  checkBilling(table, tp, c);
  if (table.ttlAttribute !== undefined) checkTtlAttribute(table, table.ttlAttribute, joinPath(tp, 'ttlAttribute'), uses, c);
  checkTableSettings(table, tp, c);
  validateEntities(table, tp, uses, c);
  validateAccessPatterns(table, tp, c);
}

/** Key schemas: attribute names of 1–255 bytes, one type per attribute name, a sort key other than the partition key. */
function checkKeySchemas(table: Table, tp: string, uses: readonly KeyUse[], c: Collector): void {
  const typeOf = new Map<string, KeyUse>();
  for (const use of uses) {
    const { name, type } = use.attribute;
    const bytes = utf8ByteLength(name);
    if (name === '' || bytes > MAX_KEY_ATTRIBUTE_NAME_BYTES) {
      c.add(
        'model.invalidName',
        joinPath(use.path, 'name'),
        `The ${use.role} key of ${use.owner} has ${name === '' ? 'an empty attribute name' : `an attribute name of ${bytes} bytes`}; expected 1–${MAX_KEY_ATTRIBUTE_NAME_BYTES} bytes.`,
        name === '' ? 'an empty name' : `${bytes} bytes`,
        `1–${MAX_KEY_ATTRIBUTE_NAME_BYTES} bytes`,
      );
      continue;
    }
    const first = typeOf.get(name);
    if (!first) typeOf.set(name, use);
    else if (first.attribute.type !== type) {
      c.add(
        'model.keyAttributeConflict',
        joinPath(use.path, 'type'),
        `Key attribute ${quote(name)} is ${type} as the ${use.role} key of ${use.owner} but ${first.attribute.type} as the ${first.role} key of ${first.owner}; expected one type per attribute name, since the table defines each key attribute once.`,
        type,
        first.attribute.type,
      );
    }
  }
  const sameKey = (pk: KeyAttribute, sk: KeyAttribute | undefined, skPath: string, owner: string): void => {
    if (sk && sk.name !== '' && sk.name === pk.name) {
      c.add(
        'model.duplicateKeyAttribute',
        joinPath(skPath, 'name'),
        `The sort key of ${owner} is ${quote(sk.name)}, the same attribute as its partition key; expected two different attributes.`,
        quote(sk.name),
        `an attribute other than ${quote(pk.name)}`,
      );
    }
  };
  sameKey(table.partitionKey, table.sortKey, joinPath(tp, 'sortKey'), `table ${quote(table.name)}`);
  table.globalSecondaryIndexes.forEach((g, k) => checkGsiKeyParts(g, joinPath(joinPath(tp, 'globalSecondaryIndexes'), k), c));
  checkNaturalKeyTypes(table, tp, c);
}

/** An index of the table as the name and projection checks see it. */
interface IndexEntry {
  kind: 'GSI' | 'LSI';
  /** Tells indexes of one name apart in messages: "the 2nd GSI". */
  which: string;
  name: string;
  projection: Projection;
  path: string;
}

/** Index counts within DynamoDB's quotas, and index names valid and unique across GSIs and LSIs; returns the indexes. */
function checkIndexNames(table: Table, tp: string, c: Collector): IndexEntry[] {
  const tableLabel = tableLabelOf(table);
  if (table.globalSecondaryIndexes.length > MAX_GSIS_PER_TABLE) {
    c.add(
      'model.tooManyIndexes',
      joinPath(tp, 'globalSecondaryIndexes'),
      `${tableLabel} has ${table.globalSecondaryIndexes.length} GSIs; expected at most ${MAX_GSIS_PER_TABLE} (DynamoDB's default quota).`,
      `${table.globalSecondaryIndexes.length} GSIs`,
      `at most ${MAX_GSIS_PER_TABLE}`,
    );
  }
  if (table.localSecondaryIndexes.length > MAX_LSIS_PER_TABLE) {
    c.add(
      'model.tooManyIndexes',
      joinPath(tp, 'localSecondaryIndexes'),
      `${tableLabel} has ${table.localSecondaryIndexes.length} LSIs; expected at most ${MAX_LSIS_PER_TABLE}.`,
      `${table.localSecondaryIndexes.length} LSIs`,
      `at most ${MAX_LSIS_PER_TABLE}`,
    );
  }
  const indexNames = new Map<string, string>();
  const indexes: IndexEntry[] = [
    ...table.globalSecondaryIndexes.map((g, k) => ({ kind: 'GSI' as const, which: `the ${ordinal(k + 1)} GSI`, name: g.name, projection: g.projection, path: joinPath(joinPath(tp, 'globalSecondaryIndexes'), k) })),
    ...table.localSecondaryIndexes.map((l, k) => ({ kind: 'LSI' as const, which: `the ${ordinal(k + 1)} LSI`, name: l.name, projection: l.projection, path: joinPath(joinPath(tp, 'localSecondaryIndexes'), k) })),
  ];
  for (const index of indexes) {
    checkResourceName(index.name, joinPath(index.path, 'name'), index.kind, c);
    const other = indexNames.get(index.name);
    if (other !== undefined) {
      c.add(
        'model.duplicateName',
        joinPath(index.path, 'name'),
        `${tableLabel} has two indexes named ${quote(index.name)} (${other} and ${index.which}); expected index names unique across the table's GSIs and LSIs.`,
        quote(index.name),
        'a name no other index of the table has',
      );
    } else indexNames.set(index.name, index.which);
  }
  return indexes;
}

/** LSIs: the table's partition key with a different sort key. */
function checkLsiKeys(table: Table, tp: string, c: Collector): void {
  table.localSecondaryIndexes.forEach((l, k) => {
    const lp = joinPath(joinPath(tp, 'localSecondaryIndexes'), k);
    if (!table.sortKey) {
      c.add(
        'model.lsiNeedsSortKey',
        lp,
        `LSI ${quote(l.name)} needs table ${quote(table.name)} to have a sort key, and it has none; expected a table sort key, or a GSI instead of the LSI.`,
        'a table without a sort key',
        'a table with a sort key',
      );
    } else if (l.sortKey.name === table.sortKey.name) {
      c.add(
        'model.lsiSortKeyNotDistinct',
        joinPath(joinPath(lp, 'sortKey'), 'name'),
        `LSI ${quote(l.name)} uses the table's own sort key ${quote(l.sortKey.name)}; expected a different attribute, or the index adds nothing.`,
        quote(l.sortKey.name),
        `an attribute other than ${quote(table.sortKey.name)}`,
      );
    }
    if (l.sortKey.name !== '' && l.sortKey.name === table.partitionKey.name) {
      c.add(
        'model.duplicateKeyAttribute',
        joinPath(joinPath(lp, 'sortKey'), 'name'),
        `The sort key of LSI ${quote(l.name)} is ${quote(l.sortKey.name)}, the table's partition key, which is also the LSI's partition key; expected another attribute.`,
        quote(l.sortKey.name),
        `an attribute other than ${quote(table.partitionKey.name)}`,
      );
    }
  });
}

/** Each index's projection, and the non-key attributes projected over all indexes within the quota. */
function checkProjections(table: Table, tp: string, indexes: readonly IndexEntry[], c: Collector): void {
  const tableLabel = tableLabelOf(table);
  let projectedTotal = 0;
  const projectedBy: string[] = [];
  for (const index of indexes) checkProjection(index.projection, joinPath(index.path, 'projection'), `${index.kind} ${quote(index.name)}`, index.kind === 'LSI', c);
  for (const index of indexes) {
    if (index.projection.type !== 'INCLUDE') continue;
    projectedTotal += index.projection.nonKeyAttributes.length;
    projectedBy.push(`${index.name}: ${index.projection.nonKeyAttributes.length}`);
  }
  if (projectedTotal > MAX_PROJECTED_NON_KEY_ATTRIBUTES) {
    c.add(
      'model.tooManyProjectedAttributes',
      tp,
      `${tableLabel} projects ${projectedTotal} non-key attributes into its indexes (${listOf(projectedBy)}); expected at most ${MAX_PROJECTED_NON_KEY_ATTRIBUTES} in total (an attribute projected into two indexes counts twice).`,
      String(projectedTotal),
      `at most ${MAX_PROJECTED_NON_KEY_ATTRIBUTES}`,
    );
  }
}

/** Provisioned capacity (and auto scaling) for a provisioned table and each of its GSIs; none on an on-demand table's GSIs. */
function checkBilling(table: Table, tp: string, c: Collector): void {
  const tableLabel = tableLabelOf(table);
  const billing = table.billing;
  if (billing.mode === 'PROVISIONED') {
    c.number(billing.readCapacityUnits, joinPath(joinPath(tp, 'billing'), 'readCapacityUnits'), 1, `${tableLabel}: provisioned read capacity`);
    c.number(billing.writeCapacityUnits, joinPath(joinPath(tp, 'billing'), 'writeCapacityUnits'), 1, `${tableLabel}: provisioned write capacity`);
    if (billing.autoScaling) checkAutoScaling(billing.autoScaling, joinPath(joinPath(tp, 'billing'), 'autoScaling'), tableLabel, c);
  }
  table.globalSecondaryIndexes.forEach((g, k) => {
    const pp = joinPath(joinPath(joinPath(tp, 'globalSecondaryIndexes'), k), 'provisioned');
    if (billing.mode === 'PROVISIONED' && !g.provisioned) {
      c.add(
        'model.billing',
        pp,
        `GSI ${quote(g.name)} has no provisioned throughput, but table ${quote(table.name)} uses provisioned billing; expected read and write capacity units for the GSI.`,
        'no provisioned throughput',
        'readCapacityUnits and writeCapacityUnits',
      );
    } else if (billing.mode === 'ON_DEMAND' && g.provisioned) {
      c.add(
        'model.billing',
        pp,
        `GSI ${quote(g.name)} has provisioned throughput, but table ${quote(table.name)} is on-demand; expected no provisioned throughput on its GSIs.`,
        'provisioned throughput',
        'none (on-demand)',
      );
    } else if (g.provisioned) {
      c.number(g.provisioned.readCapacityUnits, joinPath(pp, 'readCapacityUnits'), 1, `GSI ${quote(g.name)}: provisioned read capacity`);
      c.number(g.provisioned.writeCapacityUnits, joinPath(pp, 'writeCapacityUnits'), 1, `GSI ${quote(g.name)}: provisioned write capacity`);
      if (g.provisioned.autoScaling) checkAutoScaling(g.provisioned.autoScaling, joinPath(pp, 'autoScaling'), `GSI ${quote(g.name)}`, c);
    }
  });
}

/** Entity names non-empty and unique, then each entity (`keys.ts`) with its key slots, index membership and patterns. */
function validateEntities(table: Table, tp: string, uses: KeyUse[], c: Collector): void {
  const tableLabel = tableLabelOf(table);
  const slots = new Map<string, KeyUse[]>();
  for (const use of uses) {
    const list = slots.get(use.attribute.name);
    if (list) list.push(use);
    else slots.set(use.attribute.name, [use]);
  }
  const membership = membershipIndexesOf(table, uses, MAX_GSIS_PER_TABLE, MAX_LSIS_PER_TABLE);
  // Each entity's patterns (their filters and set values shape its value model): grouped once.
  const patternsOf = new Map<string, AccessPattern[]>();
  for (const p of table.accessPatterns) {
    // A pattern written before its entity shapes no entity's values yet.
    if (p.entityId === undefined) continue;
    const list = patternsOf.get(p.entityId);
    if (list) list.push(p);
    else patternsOf.set(p.entityId, [p]);
  }
  const entityNames = new Map<string, number>();
  table.entities.forEach((entity, ej) => {
    const ep = joinPath(joinPath(tp, 'entities'), ej);
    if (entity.name.trim() === '') {
      c.add('model.invalidName', joinPath(ep, 'name'), `The ${ordinal(ej + 1)} entity of table ${quote(table.name)} has an empty name; expected a name such as User or Order.`, 'an empty name', 'a non-empty name');
    } else if (entityNames.has(entity.name)) {
      c.add(
        'model.duplicateName',
        joinPath(ep, 'name'),
        `${tableLabel} has two entities named ${quote(entity.name)} (the ${ordinal((entityNames.get(entity.name) ?? 0) + 1)} and the ${ordinal(ej + 1)}); expected unique entity names.`,
        quote(entity.name),
        'a name no other entity of the table has',
      );
    } else entityNames.set(entity.name, ej);
    validateEntity(table, entity, ep, slots, membership, patternsOf.get(entity.id) ?? [], c);
  });
}

/**
 * The TTL attribute holds each item's expiry as a Number of epoch seconds; DynamoDB ignores items whose
 * TTL attribute is of another type. So its name must be 1–255 bytes (TimeToLiveSpecification's
 * AttributeName takes 1–255; counted in UTF-8 bytes like key attribute names), it cannot be an S or B
 * key attribute of the table or of an index, and an entity that declares it must declare it as N.
 */
function checkTtlAttribute(table: Table, name: string, path: string, uses: KeyUse[], c: Collector): void {
  const tableLabel = tableLabelOf(table);
  if (name.trim() === '') {
    c.add(
      'model.invalidName',
      path,
      `${tableLabel} has an empty TTL attribute name; expected the name of an N attribute holding epoch seconds, or no TTL attribute.`,
      'an empty name',
      'an attribute name',
    );
    return;
  }
  const bytes = utf8ByteLength(name);
  if (bytes > MAX_TTL_ATTRIBUTE_NAME_BYTES) {
    c.add(
      'model.invalidName',
      path,
      `${tableLabel} has a TTL attribute name of ${bytes} bytes; expected at most ${MAX_TTL_ATTRIBUTE_NAME_BYTES} bytes, the longest name DynamoDB's TimeToLiveSpecification accepts.`,
      `${bytes} bytes`,
      `1–${MAX_TTL_ATTRIBUTE_NAME_BYTES} bytes`,
    );
  }
  const keyUse = uses.find((u) => u.attribute.name === name && u.attribute.type !== 'N');
  if (keyUse) {
    c.add(
      'model.ttlAttributeType',
      path,
      `${tableLabel}: the TTL attribute ${quote(name)} is the ${keyUse.role} key of ${keyUse.isTable ? 'the table' : keyUse.owner}, of type ${keyUse.attribute.type}; expected an N attribute holding epoch seconds (DynamoDB skips items whose TTL attribute is not a Number).`,
      `a ${keyUse.attribute.type} key attribute`,
      'an N attribute',
    );
  }
  for (const entity of table.entities) {
    const a = entity.attributes.find((x) => x.name === name && x.type !== 'N');
    if (!a) continue;
    c.add(
      'model.ttlAttributeType',
      path,
      `${tableLabel}: the TTL attribute ${quote(name)} is ${typed(a.type)} of entity ${quote(entity.name)}; expected an N attribute holding epoch seconds (DynamoDB skips items whose TTL attribute is not a Number).`,
      `${typed(a.type)} of ${entity.name}`,
      'an N attribute',
    );
  }
}

function checkProjection(projection: Projection, pp: string, owner: string, isLsi: boolean, c: Collector): void {
  if (projection.type !== 'INCLUDE') return;
  const np = joinPath(pp, 'nonKeyAttributes');
  if (projection.nonKeyAttributes.length === 0) {
    c.add(
      'model.projection',
      np,
      `${owner} has an INCLUDE projection with no attributes; expected at least one non-key attribute, or the KEYS_ONLY projection.`,
      'an empty list',
      'at least one attribute name',
    );
    return;
  }
  const seen = new Set<string>();
  projection.nonKeyAttributes.forEach((name, m) => {
    const ap = joinPath(np, m);
    if (name === '') {
      c.add('model.invalidName', ap, `${owner} projects an attribute with an empty name; expected an attribute name.`, 'an empty name', 'an attribute name');
      return;
    }
    const bytes = utf8ByteLength(name);
    if (isLsi && bytes > MAX_KEY_ATTRIBUTE_NAME_BYTES) {
      c.add(
        'model.invalidName',
        ap,
        `${owner} projects an attribute whose name is ${bytes} bytes long; expected at most ${MAX_KEY_ATTRIBUTE_NAME_BYTES} bytes for LSI projected attributes.`,
        `${bytes} bytes`,
        `at most ${MAX_KEY_ATTRIBUTE_NAME_BYTES} bytes`,
      );
    }
    // DynamoDB rejects a repeated name here ("Cannot have two attributes with the same name").
    if (seen.has(name)) {
      c.add('model.projection', ap, `${owner} projects ${quote(name)} twice; expected each attribute once.`, quote(name), 'each attribute once');
    }
    seen.add(name);
  });
}
