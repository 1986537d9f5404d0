/**
 * The key attributes an entity can carry a template for: the table's keys and each index's keys,
 * grouped by attribute name (two indexes may share one attribute, such as an LSI sort key).
 */
import { partitionKeysOf, sortKeysOf } from './gsi-keys.ts';
import type { Entity, KeyAttribute, KeyBinding, Table } from './schema.ts';

export interface KeyUse {
  /** `table`, or the index name. */
  index: string;
  kind: 'table' | 'gsi' | 'lsi';
  role: 'partition' | 'sort';
  /** In a multi-attribute GSI key: the attribute's place in its part (0-based) and the part's length. */
  position?: { index: number; of: number };
}

export interface KeySlot {
  attribute: KeyAttribute;
  uses: KeyUse[];
  /** The table's own keys: every entity must carry them. */
  isRequired: boolean;
}

/** Every key slot of a table, the table's keys first, then GSIs and LSIs in their order. */
export function keySlotsOf(table: Table): KeySlot[] {
  const slots = new Map<string, KeySlot>();
  const add = (attribute: KeyAttribute, use: KeyUse) => {
    const slot = slots.get(attribute.name);
    if (slot) slot.uses.push(use);
    else slots.set(attribute.name, { attribute, uses: [use], isRequired: use.kind === 'table' });
  };
  add(table.partitionKey, { index: 'table', kind: 'table', role: 'partition' });
  if (table.sortKey) add(table.sortKey, { index: 'table', kind: 'table', role: 'sort' });
  for (const gsi of table.globalSecondaryIndexes) {
    for (const [role, part] of [['partition', partitionKeysOf(gsi)], ['sort', sortKeysOf(gsi)]] as const) {
      part.forEach((attribute, index) =>
        add(attribute, { index: gsi.name, kind: 'gsi', role, ...(part.length > 1 ? { position: { index, of: part.length } } : {}) }),
      );
    }
  }
  for (const lsi of table.localSecondaryIndexes) add(lsi.sortKey, { index: lsi.name, kind: 'lsi', role: 'sort' });
  for (const slot of slots.values()) slot.isRequired = slot.uses.some((u) => u.kind === 'table');
  return [...slots.values()];
}

/** "table partition key", "GSI1 partition key, LSI1 sort key" … */
export function describeKeyUses(uses: readonly KeyUse[]): string {
  return uses
    .map((u) => `${u.kind === 'table' ? 'table' : u.index} ${u.role} key${u.position ? ` (attribute ${u.position.index + 1} of ${u.position.of})` : ''}`)
    .join(', ');
}

/**
 * The entity's template for one key attribute, if it has one. Reads own properties only: a key
 * attribute named `__proto__` or `constructor` must not find Object.prototype's.
 */
export function bindingOf(entity: Entity, keyAttribute: string): KeyBinding | undefined {
  return Object.hasOwn(entity.keys, keyAttribute) ? entity.keys[keyAttribute] : undefined;
}

/**
 * What an entity writes into one GSI key attribute: its template for it, or, when it has none but
 * carries an attribute of that name, the attribute itself (`{region}`): a natural key, as
 * multi-attribute GSI keys use (no synthetic attribute to maintain). Undefined when the entity's
 * items never carry the attribute, so they are not in the index (sparse).
 */
export function gsiKeySourceOf(entity: Entity, keyAttribute: string): { template: string; binding?: KeyBinding; isNatural: boolean } | undefined {
  const binding = bindingOf(entity, keyAttribute);
  if (binding) return { template: binding.template, binding, isNatural: false };
  const carried = (Array.isArray(entity.attributes) ? entity.attributes : []).some((a) => a?.name === keyAttribute);
  return carried ? { template: `{${keyAttribute}}`, isNatural: true } : undefined;
}
