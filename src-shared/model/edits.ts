/**
 * Pure edits: each takes a design and returns a new one, leaving the input untouched. The UI keeps
 * a stack of these snapshots for undo and redo, so an edit never mutates.
 */
import {
  FORMAT_VERSION,
  type AccessPattern,
  type Attribute,
  type AutoScaling,
  type AutoScalingRange,
  type Design,
  type Entity,
  type GlobalSecondaryIndex,
  type KeyAttribute,
  type KeyBinding,
  type LocalSecondaryIndex,
  type Table,
} from './schema.ts';
import { mapEntity, mapTable, newId, structuredCloneJson } from './edit-helpers.ts';
import { bindingOf } from './key-slots.ts';
import { gsiKeyAttributes, keyPartAttributes } from './gsi-keys.ts';

export { newId } from './edit-helpers.ts';
export * from './pattern-edits.ts';

/** A new table with a string partition key `PK` and sort key `SK`, billed on demand. */
export function createTable(name: string): Table {
  return {
    id: newId('tbl'),
    name,
    partitionKey: { name: 'PK', type: 'S' },
    sortKey: { name: 'SK', type: 'S' },
    billing: { mode: 'ON_DEMAND' },
    tableClass: 'STANDARD',
    globalSecondaryIndexes: [],
    localSecondaryIndexes: [],
    entities: [],
    accessPatterns: [],
  };
}

/** A new design holding one empty table. */
export function createDesign(name: string, tableName = 'AppTable'): Design {
  return { formatVersion: FORMAT_VERSION, id: newId('dsn'), name, tables: [createTable(tableName)] };
}

/** A copy of `design` with a new id, for "duplicate as alternative". */
export function duplicateDesign(design: Design, name: string): Design {
  return { ...structuredCloneJson(design), id: newId('dsn'), name };
}

export function renameDesign(design: Design, name: string): Design {
  return { ...design, name };
}

export function addTable(design: Design, name: string): Design {
  return { ...design, tables: [...design.tables, createTable(name)] };
}

export function removeTable(design: Design, tableId: string): Design {
  if (design.tables.length <= 1) return design;
  return { ...design, tables: design.tables.filter((t) => t.id !== tableId) };
}

/** Every key attribute name of a table: its own keys, each GSI's and each LSI's sort key. */
export function keyAttributesOf(table: Table): KeyAttribute[] {
  const all: KeyAttribute[] = [table.partitionKey];
  if (table.sortKey) all.push(table.sortKey);
  for (const g of table.globalSecondaryIndexes) all.push(...gsiKeyAttributes(g));
  for (const l of table.localSecondaryIndexes) all.push(l.sortKey);
  const seen = new Set<string>();
  return all.filter((k) => (seen.has(k.name) ? false : (seen.add(k.name), true)));
}

/**
 * After a key attribute was renamed from `from` to `to`, carry each entity's template along, unless
 * `from` is still a key attribute somewhere else in the table (then both keep their template).
 */
function carryKeyTemplates(table: Table, from: string, to: string): Table {
  if (from === to) return table;
  const stillUsed = keyAttributesOf(table).some((k) => k.name === from);
  return {
    ...table,
    entities: table.entities.map((e) => {
      const binding = bindingOf(e, from);
      if (!binding || bindingOf(e, to)) return e;
      const keys = { ...e.keys, [to]: binding };
      if (!stillUsed) delete keys[from];
      return { ...e, keys };
    }),
  };
}

type TablePatch = Partial<Omit<Table, 'id' | 'globalSecondaryIndexes' | 'localSecondaryIndexes' | 'entities' | 'accessPatterns'>>;

/**
 * Changes table settings. Renaming a key attribute carries the entities' templates along.
 * `sortKey: undefined` in the patch removes the sort key.
 */
export function updateTable(design: Design, tableId: string, patch: TablePatch): Design {
  return mapTable(design, tableId, (table) => {
    let next: Table = { ...table, ...patch };
    for (const key of Object.keys(patch) as (keyof TablePatch)[]) {
      if (patch[key] === undefined) delete next[key];
    }
    if (patch.partitionKey) next = carryKeyTemplates(next, table.partitionKey.name, patch.partitionKey.name);
    if (patch.sortKey && table.sortKey) next = carryKeyTemplates(next, table.sortKey.name, patch.sortKey.name);
    return next;
  });
}

/** The first n for which neither an index `<prefix><n>` nor a key attribute `<prefix><n>…` exists. */
function nextIndexNumber(table: Table, prefix: 'GSI' | 'LSI'): number {
  const used = new Set([...table.globalSecondaryIndexes, ...table.localSecondaryIndexes].map((i) => i.name));
  const keyNames = new Set(keyAttributesOf(table).map((k) => k.name));
  let n = 1;
  while (used.has(`${prefix}${n}`) || keyNames.has(`${prefix}${n}PK`) || keyNames.has(`${prefix}${n}SK`)) n++;
  return n;
}

/**
 * Adds a GSI named `GSI<n>` with keys `GSI<n>PK`/`GSI<n>SK` projecting ALL; on a provisioned table
 * it starts with the table's capacity and auto scaling.
 */
export function addGsi(design: Design, tableId: string): Design {
  return mapTable(design, tableId, (table) => {
    const n = nextIndexNumber(table, 'GSI');
    const gsi: GlobalSecondaryIndex = {
      id: newId('gsi'),
      name: `GSI${n}`,
      partitionKey: { name: `GSI${n}PK`, type: 'S' },
      sortKey: { name: `GSI${n}SK`, type: 'S' },
      projection: { type: 'ALL' },
    };
    if (table.billing.mode === 'PROVISIONED') {
      gsi.provisioned = {
        readCapacityUnits: table.billing.readCapacityUnits,
        writeCapacityUnits: table.billing.writeCapacityUnits,
        ...(table.billing.autoScaling ? { autoScaling: structuredCloneJson(table.billing.autoScaling) } : {}),
      };
    }
    return { ...table, globalSecondaryIndexes: [...table.globalSecondaryIndexes, gsi] };
  });
}

type GsiPatch = Partial<Omit<GlobalSecondaryIndex, 'id'>>;

export function updateGsi(design: Design, tableId: string, gsiId: string, patch: GsiPatch): Design {
  return mapTable(design, tableId, (table) => {
    const old = table.globalSecondaryIndexes.find((g) => g.id === gsiId);
    if (!old) return table;
    const gsi: GlobalSecondaryIndex = { ...old, ...patch };
    for (const key of Object.keys(patch) as (keyof GsiPatch)[]) {
      if (patch[key] === undefined) delete gsi[key];
    }
    let next: Table = {
      ...table,
      globalSecondaryIndexes: table.globalSecondaryIndexes.map((g) => (g.id === gsiId ? gsi : g)),
    };
    // A renamed key attribute keeps the entities' templates: attribute by attribute, in key order
    // (adding or removing attributes of a multi-attribute key renames nothing).
    for (const part of ['partitionKey', 'sortKey'] as const) {
      if (patch[part] === undefined) continue;
      const before = keyPartAttributes(old[part]);
      const after = keyPartAttributes(patch[part]);
      if (before.length !== after.length) continue;
      // A rename is a name that left the part and another that took its place; a reorder renames nothing.
      const beforeNames = new Set(before.map((b) => b.name));
      const afterNames = new Set(after.map((a) => a.name));
      before.forEach((b, i) => {
        const a = after[i];
        if (a && a.name !== b.name && !afterNames.has(b.name) && !beforeNames.has(a.name)) next = carryKeyTemplates(next, b.name, a.name);
      });
    }
    return next;
  });
}

export function removeGsi(design: Design, tableId: string, gsiId: string): Design {
  return mapTable(design, tableId, (table) => ({
    ...table,
    globalSecondaryIndexes: table.globalSecondaryIndexes.filter((g) => g.id !== gsiId),
  }));
}

/** Adds an LSI named `LSI<n>` with sort key `LSI<n>SK` projecting ALL. */
export function addLsi(design: Design, tableId: string): Design {
  return mapTable(design, tableId, (table) => {
    const n = nextIndexNumber(table, 'LSI');
    const lsi: LocalSecondaryIndex = {
      id: newId('lsi'),
      name: `LSI${n}`,
      sortKey: { name: `LSI${n}SK`, type: 'S' },
      projection: { type: 'ALL' },
    };
    return { ...table, localSecondaryIndexes: [...table.localSecondaryIndexes, lsi] };
  });
}

type LsiPatch = Partial<Omit<LocalSecondaryIndex, 'id'>>;

export function updateLsi(design: Design, tableId: string, lsiId: string, patch: LsiPatch): Design {
  return mapTable(design, tableId, (table) => {
    const old = table.localSecondaryIndexes.find((l) => l.id === lsiId);
    if (!old) return table;
    const lsi: LocalSecondaryIndex = { ...old, ...patch };
    let next: Table = {
      ...table,
      localSecondaryIndexes: table.localSecondaryIndexes.map((l) => (l.id === lsiId ? lsi : l)),
    };
    if (patch.sortKey) next = carryKeyTemplates(next, old.sortKey.name, patch.sortKey.name);
    return next;
  });
}

export function removeLsi(design: Design, tableId: string, lsiId: string): Design {
  return mapTable(design, tableId, (table) => ({
    ...table,
    localSecondaryIndexes: table.localSecondaryIndexes.filter((l) => l.id !== lsiId),
  }));
}

/** Adds an entity with an id attribute and a partition-key template built from it. */
export function addEntity(design: Design, tableId: string, name: string): Design {
  return mapTable(design, tableId, (table) => {
    const idAttr = `${name.charAt(0).toLowerCase()}${name.slice(1)}Id`.replace(/[^A-Za-z0-9_]/g, '') || 'id';
    const label = name.toUpperCase().replace(/[^A-Z0-9_]/g, '') || 'ITEM';
    // A number partition key can only hold a number: the id itself, not a prefixed string.
    const isNumberKey = table.partitionKey.type === 'N';
    const keys: Record<string, KeyBinding> = {
      [table.partitionKey.name]: { template: isNumberKey ? `{${idAttr}}` : `${label}#{${idAttr}}` },
    };
    if (table.sortKey) keys[table.sortKey.name] = { template: table.sortKey.type === 'N' ? '0' : label };
    const entity: Entity = {
      id: newId('ent'),
      name,
      itemCount: 1000,
      attributes: [isNumberKey ? { name: idAttr, type: 'N', averageSizeBytes: 5 } : { name: idAttr, type: 'S', averageSizeBytes: 16 }],
      keys,
    };
    return { ...table, entities: [...table.entities, entity] };
  });
}

export function updateEntity(
  design: Design,
  tableId: string,
  entityId: string,
  patch: Partial<Pick<Entity, 'name' | 'itemCount'>>,
): Design {
  return mapEntity(design, tableId, entityId, (e) => ({ ...e, ...patch }));
}

/**
 * Removes an entity. Its access patterns stay, with no entity: they are the application's
 * requirements, written before any entity and kept after one goes (they need a key design again).
 */
export function removeEntity(design: Design, tableId: string, entityId: string): Design {
  return mapTable(design, tableId, (table) => ({
    ...table,
    entities: table.entities.filter((e) => e.id !== entityId),
    accessPatterns: table.accessPatterns.map((p) => {
      if (p.entityId !== entityId) return p;
      const { entityId: _removed, ...rest } = p;
      return rest;
    }),
  }));
}

/** Adds an attribute named `attribute<n>` (type S) to an entity. */
export function addAttribute(design: Design, tableId: string, entityId: string, name?: string): Design {
  return mapEntity(design, tableId, entityId, (e) => {
    let attrName = name;
    if (!attrName) {
      let n = e.attributes.length + 1;
      while (e.attributes.some((a) => a.name === `attribute${n}`)) n++;
      attrName = `attribute${n}`;
    }
    return { ...e, attributes: [...e.attributes, { name: attrName, type: 'S' }] };
  });
}

function renamePlaceholder(template: string, from: string, to: string): string {
  return template.replace(/(?<!\{)\{([^{}:]*)(:[^{}]*)?\}/g, (whole, name: string, pad: string | undefined) =>
    name === from ? `{${to}${pad ?? ''}}` : whole,
  );
}

function renameInCondition(condition: string, from: string, to: string): string {
  return condition.replace(new RegExp(`(?<![\\w"])${escapeRegExp(from)}(?![\\w"])`, 'g'), to);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Changes an attribute at `index`. A new name is taken as typed; references to the attribute follow
 * only through `renameAttributeReferences`, once the user has finished typing, so intermediate
 * names (empty, or another attribute's name) never capture other attributes' placeholders.
 */
export function updateAttribute(
  design: Design,
  tableId: string,
  entityId: string,
  index: number,
  patch: Partial<Attribute>,
): Design {
  return mapEntity(design, tableId, entityId, (entity) => {
    const old = entity.attributes[index];
    if (!old) return entity;
    const attribute: Attribute = { ...old, ...patch };
    for (const key of Object.keys(patch) as (keyof Attribute)[]) {
      if (patch[key] === undefined) delete attribute[key];
    }
    return { ...entity, attributes: entity.attributes.map((a, i) => (i === index ? attribute : a)) };
  });
}

/**
 * After an attribute of an entity was renamed from `from` to `to`, renames its placeholders in the
 * entity's key templates, conditions and shard sources, and in that entity's access patterns.
 * Does nothing when either name is empty or when the rename would be ambiguous: another attribute
 * is still called `from`, or more than one is now called `to`.
 */
export function renameAttributeReferences(design: Design, tableId: string, entityId: string, from: string, to: string): Design {
  if (from === to || from.trim() === '' || to.trim() === '') return design;
  return mapTable(design, tableId, (table) => {
    const entity = table.entities.find((e) => e.id === entityId);
    if (!entity) return table;
    const named = (name: string) => entity.attributes.filter((a) => a.name === name).length;
    if (named(from) > 0 || named(to) !== 1) return table;
    const keys: Record<string, KeyBinding> = {};
    for (const [attr, binding] of Object.entries(entity.keys)) {
      const next: KeyBinding = { ...binding, template: renamePlaceholder(binding.template, from, to) };
      if (binding.when !== undefined) next.when = renameInCondition(binding.when, from, to);
      if (binding.shards?.from === from) next.shards = { ...binding.shards, from: to };
      keys[attr] = next;
    }
    return {
      ...table,
      entities: table.entities.map((e) => (e.id === entityId ? { ...e, keys } : e)),
      accessPatterns: table.accessPatterns.map((p) => (p.entityId === entityId ? renamePatternAttribute(p, from, to) : p)),
    };
  });
}

function renamePatternAttribute(p: AccessPattern, from: string, to: string): AccessPattern {
  const rename = (k: string) => (k === from ? to : k);
  const next: AccessPattern = { ...p, known: p.known.map(rename) };
  if (p.range && p.range.attribute === from) next.range = { ...p.range, attribute: to };
  if (p.updates) next.updates = p.updates.map(rename);
  if (p.filter !== undefined) next.filter = renameInCondition(p.filter, from, to);
  if (Array.isArray(p.returns)) next.returns = p.returns.map(rename);
  if (p.sets) next.sets = Object.fromEntries(Object.entries(p.sets).map(([k, v]) => [rename(k), v]));
  return next;
}

export function removeAttribute(design: Design, tableId: string, entityId: string, index: number): Design {
  return mapEntity(design, tableId, entityId, (e) => ({ ...e, attributes: e.attributes.filter((_, i) => i !== index) }));
}

/**
 * Sets the template of one key attribute for an entity; `undefined` removes it, so the entity is
 * no longer in the indexes keyed by that attribute (sparse).
 */
export function setKeyBinding(
  design: Design,
  tableId: string,
  entityId: string,
  keyAttribute: string,
  binding: KeyBinding | undefined,
): Design {
  return mapEntity(design, tableId, entityId, (e) => {
    const keys = { ...e.keys };
    if (binding) keys[keyAttribute] = binding;
    else delete keys[keyAttribute];
    return { ...e, keys };
  });
}

/**
 * Switches billing. Going provisioned gives every GSI the table's capacity (AWS advises GSI write
 * capacity at least the table's); going on-demand drops the GSIs' provisioned capacity.
 */
export function setBilling(design: Design, tableId: string, billing: Table['billing']): Design {
  return mapTable(design, tableId, (table) => ({
    ...table,
    billing,
    globalSecondaryIndexes: table.globalSecondaryIndexes.map((g) => {
      if (billing.mode === 'ON_DEMAND') {
        const { provisioned: _dropped, ...rest } = g;
        return rest;
      }
      return g.provisioned
        ? g
        : { ...g, provisioned: { readCapacityUnits: billing.readCapacityUnits, writeCapacityUnits: billing.writeCapacityUnits } };
    }),
  }));
}

/** Sets the prices the costs use; `undefined` goes back to the defaults. */
export function setPricing(design: Design, pricing: Design['pricing']): Design {
  const next: Design = { ...design };
  if (pricing) next.pricing = pricing;
  else delete next.pricing;
  return next;
}

/** Which capacity an auto scaling edit is for: the table's (`gsiId` absent) or one GSI's. */
export interface CapacityOwner {
  tableId: string;
  gsiId?: string;
}

/**
 * A starting auto scaling range for a direction now provisioned with `units`: the console's defaults
 * (minimum 1, target 70 %) with a maximum of at least 10 and twice the current capacity, so today's
 * capacity stays in range.
 */
export function defaultAutoScalingRange(units: number): AutoScalingRange {
  return { minCapacity: 1, maxCapacity: Math.max(10, 2 * Math.max(1, Math.round(units))), targetUtilizationPercent: 70 };
}

/** `autoScaling` with one direction set or cleared; undefined once neither direction scales. */
function withDirection(autoScaling: AutoScaling | undefined, direction: 'read' | 'write', range: AutoScalingRange | undefined): AutoScaling | undefined {
  const next: AutoScaling = { ...autoScaling };
  if (range) next[direction] = { ...range };
  else delete next[direction];
  return next.read || next.write ? next : undefined;
}

/**
 * Turns auto scaling of one direction (reads or writes) of a provisioned table or GSI on with `range`,
 * changes its range, or turns it off (`range` undefined). The fixed capacity stays: it is the initial
 * capacity while auto scaling is on, and the capacity again once it is off. No change for an on-demand
 * table or a GSI without provisioned throughput.
 */
export function setAutoScaling(design: Design, owner: CapacityOwner, direction: 'read' | 'write', range: AutoScalingRange | undefined): Design {
  return mapTable(design, owner.tableId, (table) => {
    if (table.billing.mode !== 'PROVISIONED') return table;
    if (owner.gsiId === undefined) {
      const { autoScaling: _old, ...billing } = table.billing;
      const autoScaling = withDirection(table.billing.autoScaling, direction, range);
      return { ...table, billing: autoScaling ? { ...billing, autoScaling } : billing };
    }
    return {
      ...table,
      globalSecondaryIndexes: table.globalSecondaryIndexes.map((g) => {
        if (g.id !== owner.gsiId || !g.provisioned) return g;
        const { autoScaling: _old, ...provisioned } = g.provisioned;
        const autoScaling = withDirection(g.provisioned.autoScaling, direction, range);
        return { ...g, provisioned: autoScaling ? { ...provisioned, autoScaling } : provisioned };
      }),
    };
  });
}
