/**
 * Pure edits that tie an access pattern to its entity. Patterns come first: a pattern is written
 * with the attribute names the caller knows and needs back before any entity exists; then its entity
 * is picked or created from the pattern editor, and the names the pattern uses become attributes.
 */
import { conditionValuesByAttribute, parseCondition, type ConditionValue } from './condition.ts';
import { addEntity } from './edits.ts';
import { mapTable } from './edit-helpers.ts';
import type { AccessPattern, Attribute, Design, Entity } from './schema.ts';

/**
 * The attribute names a pattern uses, in order of first use without repeats: known, range, returned,
 * updated and set attributes, and those its filter tests.
 */
export function patternAttributeNames(pattern: AccessPattern): string[] {
  const names = new Set<string>();
  const add = (name: string): void => {
    if (name.trim() !== '') names.add(name);
  };
  pattern.known.forEach(add);
  if (pattern.range) add(pattern.range.attribute);
  if (Array.isArray(pattern.returns)) pattern.returns.forEach(add);
  pattern.updates?.forEach(add);
  Object.keys(pattern.sets ?? {}).forEach(add);
  for (const name of filterValues(pattern).keys()) add(name);
  return [...names];
}

function filterValues(pattern: AccessPattern): Map<string, ConditionValue[]> {
  if (pattern.filter === undefined || pattern.filter.trim() === '') return new Map();
  const parsed = parseCondition(pattern.filter);
  return parsed.ok ? conditionValuesByAttribute(parsed.value) : new Map();
}

/**
 * The type a new attribute gets from how the pattern uses it: N when the filter compares it only
 * with numbers (or the update sets a number), BOOL with only booleans, else S.
 */
function guessedType(pattern: AccessPattern, name: string, filter: Map<string, ConditionValue[]>): Attribute['type'] {
  const values: ConditionValue[] = [...(filter.get(name) ?? [])];
  const set = pattern.sets?.[name];
  if (set !== undefined) values.push(set.trim() !== '' && Number.isFinite(Number(set)) ? Number(set) : set === 'true' || set === 'false' ? set === 'true' : set);
  if (values.length > 0 && values.every((v) => typeof v === 'number')) return 'N';
  if (values.length > 0 && values.every((v) => typeof v === 'boolean')) return 'BOOL';
  return 'S';
}

/** The names `pattern` uses that `entity` has no attribute for. */
export function attributesMissingFrom(entity: Entity, pattern: AccessPattern): string[] {
  const have = new Set(entity.attributes.map((a) => a.name));
  return patternAttributeNames(pattern).filter((n) => !have.has(n));
}

function withAttributes(entity: Entity, pattern: AccessPattern): Entity {
  const missing = attributesMissingFrom(entity, pattern);
  if (missing.length === 0) return entity;
  const filter = filterValues(pattern);
  return { ...entity, attributes: [...entity.attributes, ...missing.map((name): Attribute => ({ name, type: guessedType(pattern, name, filter) }))] };
}

/**
 * Sets (or, with `undefined`, clears) the entity a pattern reads or writes. The names the pattern
 * uses are kept as written: those the entity lacks are reported by validation, and
 * `addPatternAttributesToEntity` adds them.
 */
export function setPatternEntity(design: Design, tableId: string, patternId: string, entityId: string | undefined): Design {
  return mapTable(design, tableId, (table) => ({
    ...table,
    accessPatterns: table.accessPatterns.map((p) => {
      if (p.id !== patternId) return p;
      const next: AccessPattern = { ...p };
      if (entityId === undefined) delete next.entityId;
      else next.entityId = entityId;
      return next;
    }),
  }));
}

/** Adds to the pattern's entity an attribute (type guessed from the filter and set values, else S) for each name the pattern uses that it lacks. */
export function addPatternAttributesToEntity(design: Design, tableId: string, patternId: string): Design {
  return mapTable(design, tableId, (table) => {
    const pattern = table.accessPatterns.find((p) => p.id === patternId);
    if (!pattern || pattern.entityId === undefined) return table;
    return { ...table, entities: table.entities.map((e) => (e.id === pattern.entityId ? withAttributes(e, pattern) : e)) };
  });
}

/**
 * Creates an entity named `name` for a pattern, as "Add entity" does (an id attribute and key
 * templates for the table's keys built from it), with an attribute for each name the pattern uses,
 * and makes it the pattern's entity. One edit, so one undo step.
 */
export function createEntityForPattern(design: Design, tableId: string, patternId: string, name: string): Design {
  const table = design.tables.find((t) => t.id === tableId);
  if (!table?.accessPatterns.some((p) => p.id === patternId)) return design;
  const withEntity = addEntity(design, tableId, name);
  const created = withEntity.tables.find((t) => t.id === tableId)?.entities.at(-1);
  if (!created) return design;
  return addPatternAttributesToEntity(setPatternEntity(withEntity, tableId, patternId, created.id), tableId, patternId);
}
