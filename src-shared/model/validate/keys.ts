/**
 * Entities and their key templates: attribute names and sizes, a template for each key, templates that
 * name the entity's attributes with types the key can hold, estimated key lengths, `when` conditions,
 * write sharding, and GSI membership. Also where each key attribute is used (`keyUsesOf`).
 */
import { conditionValuesByAttribute, parseCondition, type ConditionValue } from '../condition.ts';
import { gsiKeyAttributes, keyPartAttributes } from '../gsi-keys.ts';
import { parseKeyTemplate, type KeyTemplate } from '../key-template.ts';
import { formatProblemCount } from '../quoted-text.ts';
import type { AccessPattern, Attribute, Entity, KeyAttribute, KeyAttributeType, Sharding, Table } from '../schema.ts';
import { conditionValuesOf, effectiveGenerator, keyValueBound, maxKeyTextBytes, type ValueWidth } from '../value-model.ts';
import { checkInheritance } from './relations.ts';
import type { Collector } from './collector.ts';
import { describeValue, joinPath, listOf, ordinal, quote, shown, typed } from './wording.ts';

/** Largest partition key value in UTF-8 bytes (docs/dynamodb-rules.md §7). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html */
export const MAX_PARTITION_KEY_BYTES = 2048;
/** Largest sort key value in UTF-8 bytes. Same page. */
export const MAX_SORT_KEY_BYTES = 1024;
/** Where the key size limits are stated, for messages. */
const KEY_LIMITS_PAGE = 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html';
/** Fewest and most write shards of a partition key (the schema's bounds for `shards.count`). */
export const MIN_SHARDS = 2;
export const MAX_SHARDS = 1000;

/**
 * Rendered size assumed for an attribute without `averageSizeBytes` when estimating key lengths, by
 * type: an S value of 16 bytes is a short id or a date; an N renders as about 8 digits; a BOOL as
 * `true`/`false`. Estimates, not limits, used only where the value model does not bound an
 * attribute's values (`maxKeyTextBytes`): set a generator or `averageSizeBytes` for a precise check.
 */
export const DEFAULT_RENDERED_BYTES: Readonly<Record<'S' | 'N' | 'B' | 'BOOL', number>> = { S: 16, N: 8, B: 16, BOOL: 5 };

/** Where a key attribute is used: the table's or an index's partition or sort key. */
export interface KeyUse {
  attribute: KeyAttribute;
  /** Path of the KeyAttribute object. */
  path: string;
  /** `table "Shop"`, `GSI "GSI1"`, `LSI "LSI1"`. */
  owner: string;
  /** The index name, or '' for the table. */
  index: string;
  /** Whether this is the table's own key (an index may have an empty name while being edited). */
  isTable: boolean;
  role: 'partition' | 'sort';
}

/** Every use of a key attribute in a table: its partition and sort key, then each GSI's, then each LSI's sort key. */
export function keyUsesOf(table: Table, tp: string): KeyUse[] {
  const uses: KeyUse[] = [];
  const tableOwner = `table ${quote(table.name)}`;
  uses.push({ attribute: table.partitionKey, path: joinPath(tp, 'partitionKey'), owner: tableOwner, index: '', isTable: true, role: 'partition' });
  if (table.sortKey) uses.push({ attribute: table.sortKey, path: joinPath(tp, 'sortKey'), owner: tableOwner, index: '', isTable: true, role: 'sort' });
  table.globalSecondaryIndexes.forEach((g, k) => {
    const gp = joinPath(joinPath(tp, 'globalSecondaryIndexes'), k);
    const owner = `GSI ${quote(g.name)}`;
    for (const [role, field] of [['partition', 'partitionKey'], ['sort', 'sortKey']] as const) {
      const stored = g[field];
      const part = keyPartAttributes(stored);
      // One attribute is stored plainly (its path is the field's); a multi-attribute part as a list.
      part.forEach((attribute, i) =>
        uses.push({ attribute, path: Array.isArray(stored) ? joinPath(joinPath(gp, field), i) : joinPath(gp, field), owner, index: g.name, isTable: false, role }),
      );
    }
  });
  table.localSecondaryIndexes.forEach((l, k) => {
    const lp = joinPath(joinPath(tp, 'localSecondaryIndexes'), k);
    uses.push({ attribute: l.sortKey, path: joinPath(lp, 'sortKey'), owner: `LSI ${quote(l.name)}`, index: l.name, isTable: false, role: 'sort' });
  });
  return uses;
}

const isScalarForKey = (type: Attribute['type']): type is 'S' | 'N' | 'B' | 'BOOL' => type === 'S' || type === 'N' || type === 'B' || type === 'BOOL';
const NUMBER_CONSTANT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * The indexes the GSI membership check compares an entity's templates with, computed once per table:
 * the first `maxGsis` GSIs and `maxLsis` LSIs. A table with more already has a `model.tooManyIndexes`
 * problem; checking every entity against every one of thousands of indexes would cost entities ×
 * indexes, the square of a hostile input.
 */
export interface MembershipIndexes {
  gsis: Array<{ name: string; keys: string[] }>;
  /** The key attribute names of the table and of each index checked: an entity with all of one set is in that index. */
  keySets: string[][];
}

/** The indexes the membership check reads (see `MembershipIndexes`). */
export function membershipIndexesOf(table: Table, uses: KeyUse[], maxGsis: number, maxLsis: number): MembershipIndexes {
  const gsis = table.globalSecondaryIndexes.slice(0, maxGsis).map((g) => ({ name: g.name, keys: gsiKeyAttributes(g).map((k) => k.name) }));
  const keySets = [
    uses.filter((u) => u.isTable).map((u) => u.attribute.name),
    ...gsis.map((g) => g.keys),
    ...table.localSecondaryIndexes.slice(0, maxLsis).map((l) => [table.partitionKey.name, l.sortKey.name]),
  ];
  return { gsis, keySets };
}

/**
 * Checks one entity of `table`: its item count and attributes, a template for each table key, each key
 * template (with its `when` condition and shards) against the key slots, and GSI membership. `slots` maps
 * each key attribute name to its uses.
 */
export function validateEntity(
  table: Table,
  entity: Entity,
  ep: string,
  slots: Map<string, KeyUse[]>,
  membership: MembershipIndexes,
  patterns: readonly AccessPattern[],
  c: Collector,
): void {
  const label = `Entity ${quote(entity.name)}`;
  c.number(entity.itemCount, joinPath(ep, 'itemCount'), 0, `${label}: item count`);

  const attributes = new Map<string, Attribute>();
  const firstIndex = new Map<string, number>();
  entity.attributes.forEach((a, k) => {
    const ap = joinPath(joinPath(ep, 'attributes'), k);
    if (a.name.trim() === '') {
      c.add('model.invalidName', joinPath(ap, 'name'), `${label}: the ${ordinal(k + 1)} attribute has an empty name; expected a name such as userId.`, 'an empty name', 'a non-empty name');
    } else if (attributes.has(a.name)) {
      c.add(
        'model.duplicateName',
        joinPath(ap, 'name'),
        `${label} has two attributes named ${quote(a.name)} (the ${ordinal((firstIndex.get(a.name) ?? 0) + 1)} and the ${ordinal(k + 1)}); expected unique attribute names.`,
        quote(a.name),
        'a name no other attribute of the entity has',
      );
    } else {
      attributes.set(a.name, a);
      firstIndex.set(a.name, k);
    }
    if (a.averageSizeBytes !== undefined) c.number(a.averageSizeBytes, joinPath(ap, 'averageSizeBytes'), 0, `${label}: average size of ${quote(a.name)}`, false);
    if (a.cardinality !== undefined) c.number(a.cardinality, joinPath(ap, 'cardinality'), 1, `${label}: cardinality of ${quote(a.name)}`);
  });
  const attributeNames = [...attributes.keys()];
  const widthOf = valueWidths(entity, patterns, table.entities);
  checkInheritance(table, entity, ep, label, c);

  const kp0 = joinPath(ep, 'keys');
  const tableKeys = [table.partitionKey, ...(table.sortKey ? [table.sortKey] : [])];
  for (const key of tableKeys) {
    if (key.name !== '' && !Object.hasOwn(entity.keys, key.name)) {
      const role = key === table.partitionKey ? 'partition' : 'sort';
      c.add(
        'model.missingKeyTemplate',
        joinPath(kp0, key.name),
        `${label} has no template for the table's ${role} key ${quote(key.name)}; expected one, since every item carries the table's keys.`,
        'no template',
        `a template for ${key.name}`,
      );
    }
  }

  for (const [keyName, binding] of Object.entries(entity.keys)) {
    const kp = joinPath(kp0, keyName);
    const keyUses = slots.get(keyName);
    if (!keyUses) {
      const known = [...slots.keys()];
      c.add(
        'model.unknownAttribute',
        kp,
        `${label} has a template for ${quote(keyName)}, which is not a key attribute of table ${quote(table.name)} or of its indexes; expected one of: ${listOf(known)}.`,
        quote(keyName),
        `one of: ${listOf(known)}`,
      );
      continue;
    }
    const keyType = (keyUses[0] as KeyUse).attribute.type;
    const isSortKey = keyUses.some((u) => u.role === 'sort');
    const isTableKey = keyUses.some((u) => u.isTable);
    const where = `${label}, key ${shown(keyName)}`;
    const templatePath = joinPath(kp, 'template');
    const parsed = parseKeyTemplate(binding.template, templatePath);
    if (!parsed.ok) {
      for (const p of parsed.errors) c.push({ ...p, message: `${where}: ${p.message}` });
    } else {
      checkTemplate(parsed.value, keyType, isSortKey, binding.shards, where, templatePath, entity, attributes, attributeNames, widthOf, c);
    }
    if (binding.when !== undefined && binding.when.trim() !== '') {
      checkWhen(binding.when, joinPath(kp, 'when'), where, isTableKey, entity, attributes, attributeNames, c);
    }
    if (binding.shards !== undefined) checkShards(binding.shards, joinPath(kp, 'shards'), where, keyUses, entity, attributeNames, c);
  }

  checkIndexMembership(entity, kp0, membership, label, c);
}

/**
 * The width of each attribute's values as key text, worked out once per attribute. A generator decides
 * (its own, or the enum the design's conditions and its patterns' filters and set values give it):
 * `maxKeyTextBytes`, exact. Without one, a stated `averageSizeBytes` is the user's word and wins over
 * what the name suggests, as an estimate; else the name's width (`maxKeyTextBytes`, as the sample data
 * generates it), else `DEFAULT_RENDERED_BYTES` as an estimate.
 */
function valueWidths(entity: Entity, patterns: readonly AccessPattern[], entities: readonly Entity[]): (a: Attribute) => ValueWidth {
  let conditionValues: Map<string, ConditionValue[]> | undefined;
  const widths = new Map<Attribute, ValueWidth>();
  const estimate = (a: Attribute): ValueWidth => ({ bytes: a.averageSizeBytes ?? (isScalarForKey(a.type) ? DEFAULT_RENDERED_BYTES[a.type] : 0), isKnown: false });
  return (a) => {
    let width = widths.get(a);
    if (width) return width;
    conditionValues ??= conditionValuesOf({ accessPatterns: [...patterns] }, entity);
    const values = conditionValues.get(a.name);
    const isByName = effectiveGenerator(a, values) === undefined;
    const max = isByName && a.averageSizeBytes !== undefined ? undefined : maxKeyTextBytes(a, entity, values, entities);
    width = max !== undefined ? { bytes: max, isKnown: true } : estimate(a);
    widths.set(a, width);
    return width;
  };
}

function checkTemplate(
  t: KeyTemplate,
  keyType: KeyAttributeType,
  isSortKey: boolean,
  shards: Sharding | undefined,
  where: string,
  path: string,
  entity: Entity,
  attributes: Map<string, Attribute>,
  attributeNames: string[],
  widthOf: (a: Attribute) => ValueWidth,
  c: Collector,
): void {
  const source = quote(t.source);
  const entityName = shown(entity.name);
  let hasUnknown = false;
  for (const part of t.parts) {
    if (part.kind !== 'attribute') continue;
    const a = attributes.get(part.name);
    if (!a) {
      hasUnknown = true;
      c.add(
        'keyTemplate.unknownAttribute',
        path,
        `${where}: template ${source} names ${quote(part.name)}, but ${entityName} has no attribute ${quote(part.name)}; expected one of: ${listOf(attributeNames)}.`,
        quote(part.name),
        `one of: ${listOf(attributeNames)}`,
      );
    } else if (keyType === 'S' && a.type !== 'S' && a.type !== 'N' && a.type !== 'BOOL') {
      c.add(
        'keyTemplate.attributeType',
        path,
        `${where}: template ${source} names ${quote(a.name)}, ${typed(a.type)}; expected an S, N or BOOL attribute, the types a string key can hold as text.`,
        a.type,
        'S, N or BOOL',
      );
    } else if (keyType === 'S' && part.pad !== undefined && a.type !== 'N') {
      // (In an N or B key any padding is already a keyTemplate.keyType problem.)
      const placeholder = `{${shown(part.name)}:0${part.pad}}`;
      const expected = `padding only on an N attribute (a whole non-negative number), or {${shown(part.name)}} without padding`;
      c.add(
        'keyTemplate.paddingType',
        path,
        `${where}: template ${source} pads ${placeholder}, but ${quote(a.name)} is ${typed(a.type)} of ${entityName}; expected ${expected}.`,
        `${placeholder} on ${typed(a.type)}`,
        expected,
      );
    }
  }
  if (hasUnknown) return;

  if (keyType === 'N' || keyType === 'B') {
    const [only, ...rest] = t.parts;
    const isSinglePlaceholder = only?.kind === 'attribute' && rest.length === 0 && only.pad === undefined && attributes.get(only.name)?.type === keyType;
    const isNumberConstant = keyType === 'N' && only?.kind === 'literal' && rest.length === 0 && NUMBER_CONSTANT.test(only.text) && only.text.replace(/[-.]/g, '').replace(/^0+/, '').length <= 38;
    if (!isSinglePlaceholder && !isNumberConstant) {
      const expected =
        keyType === 'N'
          ? 'a single placeholder of an N attribute without padding, such as {score}, or a number such as 0'
          : 'a single placeholder of a B attribute, such as {hash}';
      c.add('keyTemplate.keyType', path, `${where}: the key attribute is ${keyType}, but its template is ${source}; expected ${expected}.`, source, expected);
    }
    if (keyType === 'N') return;
  }

  checkKeyLength(t, isSortKey, shards, where, path, attributes, widthOf, c);
}

/**
 * The longest value the template renders against DynamoDB's key size limits (docs/dynamodb-rules.md
 * §7: a partition key 1–2,048 bytes, a sort key 1–1,024, in UTF-8): its literal text, plus for each
 * placeholder its padded width or the widest value the value model gives it (estimated from the
 * average size where the model has no bound), plus a write-sharding suffix `.N`. A key attribute that
 * is a sort key anywhere gets the sort key limit.
 */
function checkKeyLength(
  t: KeyTemplate,
  isSortKey: boolean,
  shards: Sharding | undefined,
  where: string,
  path: string,
  attributes: Map<string, Attribute>,
  widthOf: (a: Attribute) => ValueWidth,
  c: Collector,
): void {
  const limit = isSortKey ? MAX_SORT_KEY_BYTES : MAX_PARTITION_KEY_BYTES;
  const { bytes, isEstimate, largest } = keyValueBound(t, shards, (name) => {
    const a = attributes.get(name);
    return a ? widthOf(a) : undefined;
  });
  if (bytes <= limit) return;
  const role = isSortKey ? 'sort' : 'partition';
  const size = `${isEstimate ? 'about' : 'up to'} ${formatProblemCount(bytes)} bytes`;
  const basis = isEstimate
    ? "the widest values the value model gives, and the attributes' average sizes where it gives none"
    : 'its literal text and the widest value of each placeholder';
  const part = largest.part === 'its literal text' ? largest.part : `{${shown(largest.part)}}`;
  c.add(
    'model.keyTooLong',
    path,
    `${where}: template ${quote(t.source)} renders ${size} (${basis}; the largest part is ${part}, ${formatProblemCount(largest.bytes)} bytes); expected at most ${formatProblemCount(limit)} bytes, DynamoDB's ${role} key limit (${KEY_LIMITS_PAGE}).`,
    size,
    `at most ${formatProblemCount(limit)} bytes`,
    { bytes, limit, isEstimate },
  );
}

function checkWhen(
  when: string,
  path: string,
  where: string,
  isTableKey: boolean,
  entity: Entity,
  attributes: Map<string, Attribute>,
  attributeNames: string[],
  c: Collector,
): void {
  if (isTableKey) {
    c.add(
      'condition.onTableKey',
      path,
      `${where}: a "when" condition on a table key would leave some items without their primary key; expected no condition here (only index keys can be sparse).`,
      quote(when),
      'no condition',
    );
    return;
  }
  checkCondition(when, path, where, entity, attributes, attributeNames, c);
}

/** A condition (a key's `when`, a pattern's `filter`) must parse and compare the entity's attributes with values of their types. */
export function checkCondition(
  source: string,
  path: string,
  where: string,
  entity: Entity,
  attributes: Map<string, Attribute>,
  attributeNames: string[],
  c: Collector,
): void {
  const parsed = parseCondition(source, path);
  if (!parsed.ok) {
    for (const p of parsed.errors) c.push({ ...p, message: `${where}: ${p.message}` });
    return;
  }
  const entityName = shown(entity.name);
  for (const [name, values] of conditionValuesByAttribute(parsed.value)) {
    const a = attributes.get(name);
    if (!a) {
      c.add(
        'condition.unknownAttribute',
        path,
        `${where}: condition ${quote(source)} names ${quote(name)}, but ${entityName} has no attribute ${quote(name)}; expected one of: ${listOf(attributeNames)}.`,
        quote(name),
        `one of: ${listOf(attributeNames)}`,
      );
      continue;
    }
    const expectedType = a.type === 'S' ? 'string' : a.type === 'N' ? 'number' : a.type === 'BOOL' ? 'boolean' : undefined;
    if (expectedType === undefined) continue;
    const wrong = values.find((v: ConditionValue) => typeof v !== expectedType);
    if (wrong !== undefined) {
      const wanted = a.type === 'S' ? 'a "quoted string"' : a.type === 'N' ? 'a number' : 'true or false';
      c.add(
        'condition.typeMismatch',
        path,
        `${where}: condition ${quote(source)} compares ${quote(name)}, ${typed(a.type)}, with ${describeValue(wrong)}, so it is never true; expected ${wanted}.`,
        describeValue(wrong),
        wanted,
      );
    }
  }
}

/**
 * Write sharding (docs/dynamodb-rules.md §5) appends `.1`…`.N` to a partition-key value: only partition keys can
 * carry it, the key must be a string, and a calculated suffix needs the attribute it is hashed from.
 */
function checkShards(
  shards: Sharding,
  path: string,
  where: string,
  keyUses: KeyUse[],
  entity: Entity,
  attributeNames: string[],
  c: Collector,
): void {
  const partitionUses = keyUses.filter((u) => u.role === 'partition');
  if (partitionUses.length === 0) {
    const owners = listOf(keyUses.map((u) => `the sort key of ${u.owner}`));
    c.add(
      'model.invalidSharding',
      path,
      `${where}: shards on ${owners}; expected shards only on a partition key (the table's or a GSI's), since a suffix on a sort key spreads nothing across partitions.`,
      'shards on a sort key',
      "shards on the table's or a GSI's partition key",
    );
    return;
  }
  const keyType = (partitionUses[0] as KeyUse).attribute.type;
  if (keyType !== 'S') {
    c.add(
      'model.invalidSharding',
      path,
      `${where}: shards on a ${keyType} partition key; expected an S key, since sharding appends ".1"…".N" to the key's text.`,
      `a ${keyType} key`,
      'an S key',
    );
  }
  const { count } = shards;
  if (!Number.isInteger(count) || count < MIN_SHARDS || count > MAX_SHARDS) {
    const expected = `a whole number from ${MIN_SHARDS} to ${MAX_SHARDS}`;
    c.add('model.invalidNumber', joinPath(path, 'count'), `${where}: shard count is ${describeValue(count)}; expected ${expected}.`, describeValue(count), expected);
  }
  if (shards.method !== 'calculated') return;
  const fromPath = joinPath(path, 'from');
  if (shards.from === undefined || shards.from.trim() === '') {
    c.add(
      'model.invalidSharding',
      fromPath,
      `${where}: calculated shards need "from", the attribute hashed into the suffix; expected one of: ${listOf(attributeNames)}.`,
      'no attribute',
      `one of: ${listOf(attributeNames)}`,
    );
  } else if (!attributeNames.includes(shards.from)) {
    c.add(
      'model.unknownAttribute',
      fromPath,
      `${where}: calculated shards hash ${quote(shards.from)}, but ${shown(entity.name)} has no attribute ${quote(shards.from)}; expected one of: ${listOf(attributeNames)}.`,
      quote(shards.from),
      `one of: ${listOf(attributeNames)}`,
    );
  }
}

/**
 * An item is in a GSI only when it has every key attribute of the index. A template for some of a
 * GSI's key attributes and not the others is almost always a mistake, unless the attributes it has are
 * keys of another index (or of the table) the entity is fully in. Reads the indexes of `membership`;
 * one problem per entity (at the first missing key), naming every GSI it is half in, so an entity
 * half in 20 GSIs is one problem, not 20 that each repeat the explanation.
 */
function checkIndexMembership(entity: Entity, kp0: string, membership: MembershipIndexes, label: string, c: Collector): void {
  const has = (name: string): boolean => Object.hasOwn(entity.keys, name);
  // An attribute the entity carries under the key's own name is the key (a natural key): not missing.
  const carried = new Set((entity.attributes ?? []).map((a) => a.name));
  const holds = (name: string): boolean => has(name) || carried.has(name);
  const explained = new Set<string>();
  for (const keys of membership.keySets) if (keys.every(holds)) for (const k of keys) explained.add(k);
  const halfIn: Array<{ name: string; keys: string[]; present: string[]; missing: string[] }> = [];
  for (const { name, keys } of membership.gsis) {
    const present = keys.filter(has);
    const missing = keys.filter((k) => !holds(k));
    if (keys.includes('') || present.length === 0 || missing.length === 0 || present.every((k) => explained.has(k))) continue;
    halfIn.push({ name, keys, present, missing });
  }
  const [first] = halfIn;
  if (!first) return;
  const why = "an item is in a GSI only when it has all of the index's key attributes";
  const allMissing = [...new Set(halfIn.flatMap((g) => g.missing))];
  const message =
    halfIn.length === 1
      ? `${label} has a template for ${listOf(first.present)} but none for ${listOf(first.missing)}, so its items never appear in GSI ${quote(first.name)} (${why}); expected templates for all of ${listOf(first.keys)}, or for none.`
      : `${label} has templates for some but not all key attributes of ${halfIn.length} GSIs, so its items never appear in them (${why}): ${listOf(halfIn.map((g) => `GSI ${quote(g.name)} has ${g.present.map(shown).join(', ')}, lacks ${g.missing.map(shown).join(', ')}`))}; expected templates for all of each GSI's key attributes, or for none.`;
  c.add('model.incompleteIndexKey', joinPath(kp0, first.missing[0] as string), message, 'no template', `a template for ${listOf(allMissing)}`);
}
