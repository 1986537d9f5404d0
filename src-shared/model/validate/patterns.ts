/**
 * Access patterns: unique names, rates and result sizes, the entity they read or write, known and range
 * attributes with an operator their type allows, `updates` on update patterns only, and filters.
 */
import { parseCondition } from '../condition.ts';
import { parseKeyTemplate, templateAttributes } from '../key-template.ts';
import { kindOf } from '../pattern-kinds.ts';
import { HOURS_PER_DAY, type AccessPattern, type Attribute, type Entity, type RangeOperator, type Table } from '../schema.ts';
import type { Collector } from './collector.ts';
import { checkCondition } from './keys.ts';
import { joinPath, listOf, ordinal, quote, shown, typed } from './wording.ts';

/** What the pattern checks read of an entity, built once per entity and table, not once per pattern. */
interface EntityFacts {
  entity: Entity;
  attributeNames: string[];
  attributes: Map<string, Attribute>;
  /** Attribute name → `PK = USER#{userId}`: the table key template it is part of. */
  tableKeyAttributes: Map<string, string> | undefined;
}

/** Checks a table's access patterns against its entities, adding every problem to `c`. */
export function validateAccessPatterns(table: Table, tp: string, c: Collector): void {
  const names = new Map<string, number>();
  const entities = new Map<string, EntityFacts>();
  // A repeated id (a model.duplicateId problem) names the last entity with it, as a Map built from the list would.
  for (const e of table.entities) {
    const attributes = new Map<string, Attribute>();
    for (const a of e.attributes) if (!attributes.has(a.name)) attributes.set(a.name, a);
    entities.set(e.id, { entity: e, attributeNames: e.attributes.map((a) => a.name), attributes, tableKeyAttributes: undefined });
  }
  const entityList = table.entities.map((e) => `${e.id} (${e.name})`);
  table.accessPatterns.forEach((pattern, k) => {
    const ap = joinPath(joinPath(tp, 'accessPatterns'), k);
    const label = `Access pattern ${quote(pattern.name)}`;
    if (pattern.name.trim() === '') {
      c.add('model.invalidName', joinPath(ap, 'name'), `The ${ordinal(k + 1)} access pattern of table ${quote(table.name)} has an empty name; expected a name such as "Get user profile".`, 'an empty name', 'a non-empty name');
    } else if (names.has(pattern.name)) {
      c.add(
        'model.duplicateName',
        joinPath(ap, 'name'),
        `Table ${quote(table.name)} has two access patterns named ${quote(pattern.name)} (the ${ordinal((names.get(pattern.name) ?? 0) + 1)} and the ${ordinal(k + 1)}); expected unique access-pattern names.`,
        quote(pattern.name),
        'a name no other access pattern of the table has',
      );
    } else names.set(pattern.name, k);
    c.number(pattern.ratePerSecond, joinPath(ap, 'ratePerSecond'), 0, `${label}: rate per second`, false);
    if (pattern.resultSize !== undefined) c.number(pattern.resultSize, joinPath(ap, 'resultSize'), 0, `${label}: result size`);
    checkTraffic(pattern, ap, label, c);

    // A pattern written before its entity is work in progress, not a fault: what needs an entity
    // (attribute names and types, key attributes) is checked once it has one; the rest is checked now.
    let facts: EntityFacts | undefined;
    if (pattern.entityId !== undefined) {
      facts = entities.get(pattern.entityId);
      if (!facts) {
        c.add(
          'model.unknownEntity',
          joinPath(ap, 'entityId'),
          `${label} refers to entity ${quote(pattern.entityId)}, which is not an entity of table ${quote(table.name)}; expected one of: ${listOf(entityList)}, or no entity yet.`,
          quote(pattern.entityId),
          `one of: ${listOf(entityList)}`,
        );
        return;
      }
    }
    const checkAttribute = (name: string, path: string, role: string): void => {
      if (!facts || facts.attributes.has(name)) return;
      c.add(
        'model.unknownAttribute',
        path,
        `${label}: ${role} ${quote(name)} is not an attribute of ${shown(facts.entity.name)}; expected one of: ${listOf(facts.attributeNames)}.`,
        quote(name),
        `one of: ${listOf(facts.attributeNames)}`,
      );
    };
    pattern.known.forEach((name, m) => checkAttribute(name, joinPath(joinPath(ap, 'known'), m), 'known attribute'));
    if (pattern.range) {
      checkAttribute(pattern.range.attribute, joinPath(joinPath(ap, 'range'), 'attribute'), 'range attribute');
      if (facts) checkRangeOperator(pattern.range, joinPath(ap, 'range'), label, facts, c);
    }
    if (pattern.updates !== undefined) checkUpdates(table, pattern.action, pattern.updates, joinPath(ap, 'updates'), label, facts, checkAttribute, c);
    if (pattern.sets !== undefined) {
      const setsPath = joinPath(ap, 'sets');
      for (const [name, value] of Object.entries(pattern.sets)) {
        const at = joinPath(setsPath, name);
        if (!kindOf(pattern.action).changesAttributes) {
          c.add('model.invalidUpdates', at, `${label}: only an update pattern sets values; a ${pattern.action} pattern does not.`, `sets on a ${pattern.action} pattern`, 'no "sets", or action "update"');
          continue;
        }
        checkAttribute(name, at, 'set attribute');
        if (!(pattern.updates ?? []).includes(name)) {
          c.add('model.invalidUpdates', at, `${label} sets ${quote(name)} but does not list it among the attributes it updates; expected ${quote(name)} in "updates".`, quote(name), `${quote(name)} in updates`);
        }
        const a = facts?.attributes.get(name);
        if (a?.type === 'N' && !Number.isFinite(Number(value))) {
          c.add('model.invalidNumber', at, `${label} sets ${quote(name)}, a number, to ${quote(value)}; expected a number.`, quote(value), 'a number');
        } else if (a?.type === 'BOOL' && value !== 'true' && value !== 'false') {
          c.add('model.invalidUpdates', at, `${label} sets ${quote(name)}, a boolean, to ${quote(value)}; expected true or false.`, quote(value), 'true or false');
        }
      }
    }
    if (Array.isArray(pattern.returns)) {
      if (!kindOf(pattern.action).returnsAttributes) {
        c.add(
          'model.returnsOnNonRead',
          joinPath(ap, 'returns'),
          `${label}: only get and query patterns return attributes; a ${pattern.action} pattern returns none.`,
          listOf(pattern.returns),
          'no "returns"',
        );
      } else {
        pattern.returns.forEach((name, m) => checkAttribute(name, joinPath(joinPath(ap, 'returns'), m), 'returned attribute'));
      }
    }
    if (pattern.filter !== undefined && pattern.filter.trim() !== '') {
      const filterPath = joinPath(ap, 'filter');
      if (facts) checkCondition(pattern.filter, filterPath, `${label}, filter`, facts.entity, facts.attributes, facts.attributeNames, c);
      else {
        // Without an entity only the syntax can be checked; attribute names and types wait for one.
        const parsed = parseCondition(pattern.filter, filterPath);
        if (!parsed.ok) for (const p of parsed.errors) c.push({ ...p, message: `${label}, filter: ${p.message}` });
      }
    }
  });
}

/**
 * A pattern's traffic (docs/traffic.md): the average at most the peak, an average or a profile (not
 * both: a stated average would contradict the profile's), 24 multipliers for a custom profile and
 * none for a named one (they come with its name).
 */
function checkTraffic(pattern: AccessPattern, ap: string, label: string, c: Collector): void {
  const average = pattern.averagePerSecond;
  if (average !== undefined) {
    const at = joinPath(ap, 'averagePerSecond');
    c.number(average, at, 0, `${label}: average requests per second`, false);
    if (Number.isFinite(average) && average > pattern.ratePerSecond) {
      c.add('model.traffic', at, `${label}: the average rate ${average}/s is above the peak ${pattern.ratePerSecond}/s; expected an average at most the peak.`, `${average}/s`, `at most ${pattern.ratePerSecond}/s`);
    }
    if (pattern.profile !== undefined) {
      c.add('model.traffic', joinPath(ap, 'profile'), `${label} states both an average rate and a daily profile; expected one of them (the profile gives the average).`, 'averagePerSecond and profile', 'averagePerSecond or profile');
    }
  }
  const profile = pattern.profile;
  if (profile?.kind === 'custom' && profile.hourly?.length !== HOURS_PER_DAY) {
    c.add('model.traffic', joinPath(joinPath(ap, 'profile'), 'hourly'), `${label}: a custom profile needs 24 hourly multipliers (0–1); found ${profile.hourly?.length ?? 'none'}.`, `${profile.hourly?.length ?? 0} multipliers`, '24 multipliers');
  } else if (profile !== undefined && profile.kind !== 'custom' && profile.hourly !== undefined) {
    c.add('model.traffic', joinPath(joinPath(ap, 'profile'), 'hourly'), `${label}: the "${profile.kind}" profile brings its own multipliers; expected no "hourly" (or kind "custom").`, '"hourly"', 'no "hourly"');
  }
}

/** The attribute types each range operator can compare: DynamoDB's key-condition rules (begins_with on S or B; order on S, N, B). */
const RANGE_OPERAND_TYPES: Readonly<Record<RangeOperator, readonly Attribute['type'][]>> = {
  '=': ['S', 'N', 'B', 'BOOL'],
  '<': ['S', 'N', 'B'],
  '<=': ['S', 'N', 'B'],
  '>': ['S', 'N', 'B'],
  '>=': ['S', 'N', 'B'],
  between: ['S', 'N', 'B'],
  begins_with: ['S', 'B'],
};

function checkRangeOperator(range: NonNullable<AccessPattern['range']>, path: string, label: string, { entity, attributes }: EntityFacts, c: Collector): void {
  const a = attributes.get(range.attribute);
  const allowed = RANGE_OPERAND_TYPES[range.operator];
  if (!a || allowed === undefined || allowed.includes(a.type)) return;
  const expected = `${range.operator} on ${allowed.join(', ')} attributes${range.operator === 'begins_with' ? ' (a prefix of text or bytes)' : ''}`;
  c.add(
    'model.rangeOperator',
    joinPath(path, 'operator'),
    `${label}: range ${range.operator} on ${quote(a.name)}, ${typed(a.type)} of ${shown(entity.name)}; expected ${expected}.`,
    `${range.operator} on ${typed(a.type)}`,
    expected,
  );
}

/**
 * `updates` lists what an update pattern changes: attributes of the entity, and never one its table
 * key templates are built from (UpdateItem cannot change the primary key; that is a delete and a put).
 */
function checkUpdates(
  table: Table,
  action: AccessPattern['action'],
  updates: string[],
  path: string,
  label: string,
  facts: EntityFacts | undefined,
  checkAttribute: (name: string, path: string, role: string) => void,
  c: Collector,
): void {
  if (!kindOf(action).changesAttributes) {
    c.add(
      'model.invalidUpdates',
      path,
      `${label} is a ${action} pattern with "updates"; expected "updates" only on update patterns (it says which attributes an update changes).`,
      `updates on a ${action} pattern`,
      'no "updates", or action "update"',
    );
    return;
  }
  // Without an entity there are no key templates yet for an update to collide with.
  const entity = facts?.entity;
  const tableKeyAttributes = facts && entity ? (facts.tableKeyAttributes ??= tableKeyAttributesOf(table, entity)) : undefined;
  updates.forEach((name, m) => {
    const ap = joinPath(path, m);
    checkAttribute(name, ap, 'updated attribute');
    const key = tableKeyAttributes?.get(name);
    if (key !== undefined && entity) {
      c.add(
        'model.invalidUpdates',
        ap,
        `${label} updates ${quote(name)}, which ${shown(entity.name)}'s table key ${key} is built from; UpdateItem cannot change an item's primary key, expected a delete and a put pattern instead.`,
        quote(name),
        "an attribute outside the table's key templates",
      );
    }
  });
}

/** The attributes an entity's table key templates are built from, each with `PK = USER#{userId}` (clipped) for messages. */
function tableKeyAttributesOf(table: Table, entity: Entity): Map<string, string> {
  const found = new Map<string, string>();
  for (const key of [table.partitionKey, table.sortKey]) {
    // Own properties only: a key attribute may be named like an Object.prototype member (`__proto__`).
    const binding = key && Object.hasOwn(entity.keys, key.name) ? entity.keys[key.name] : undefined;
    const parsed = binding && key ? parseKeyTemplate(binding.template) : undefined;
    if (!parsed?.ok || !key || !binding) continue;
    for (const name of templateAttributes(parsed.value)) found.set(name, `${shown(key.name)} = ${shown(binding.template)}`);
  }
  return found;
}
