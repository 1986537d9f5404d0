/**
 * Where an entity's items live in the table: the candidate primary keys the solver tries for each
 * entity, from the single-table design rules (docs/dynamodb-rules.md §13.1 and §13.2):
 *
 * More on its rules: docs/modules.md, "src-shared/solver/layouts.ts".
 */
import { parseKeyTemplate, templateAttributes, isReadPattern, isWritePattern, kindOf } from '../model/index.ts';
import type { AccessPattern, Attribute, Entity, KeyBinding, Table } from '../model/index.ts';

export interface Layout {
  /** `own`, or `child` of the entity an attribute references. */
  kind: 'own' | 'child' | 'kept';
  /** The table key templates. */
  keys: { partition: string; sort: string };
  /** For `child`: the parent entity's id and the referencing attribute. */
  parent?: { entityId: string; attribute: string };
  /** For `child`: the attribute the sort key orders the children by, when a pattern asks for one. */
  sortBy?: string;
  /** The attributes that name one item (`identityOf`). */
  identity: string[];
  /** One line for the proposal: which rule, for which entity. */
  text: string;
}

/** `Order Item` → `ORDERITEM`: an entity's prefix in keys. */
export function prefixOf(entity: Entity): string {
  const text = entity.name.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return text === '' ? 'ITEM' : text;
}

const isKeyType = (a: Attribute): boolean => a.type === 'S' || a.type === 'N' || a.type === 'B';
const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * The attributes that name one item of the entity: its id attributes (generated ids or uuids); else
 * what a pattern that gets one item knows, or what a write knows (a write addresses one item by its
 * key); else one named `<entity>Id` or `id`; else every attribute referencing another entity (an
 * order line is its order and its product); else its first key-typed attribute.
 */
export function identityOf(entity: Entity, patterns: readonly AccessPattern[] = []): string[] {
  const keyTyped = entity.attributes.filter(isKeyType);
  const names = new Set(keyTyped.map((a) => a.name));
  const ids = keyTyped.filter((a) => a.generator?.kind === 'id' || a.generator?.kind === 'uuid').map((a) => a.name);
  if (ids.length > 0) return ids;
  const own = patterns.filter((p) => p.entityId === entity.id && p.known.length > 0 && p.known.every((k) => names.has(k)));
  const addressed = own.find((p) => isReadPattern(p) && kindOf(p.action).single) ?? own.find((p) => isWritePattern(p));
  if (addressed) return [...addressed.known];
  const named = keyTyped.find((a) => a.name === `${lowerFirst(entity.name.replace(/[^A-Za-z0-9]/g, ''))}Id` || a.name === 'id');
  if (named) return [named.name];
  const refs = keyTyped.filter((a) => a.generator?.kind === 'ref').map((a) => a.name);
  if (refs.length > 0) return refs;
  return keyTyped.slice(0, 1).map((a) => a.name);
}

const part = (names: readonly string[]): string => names.map((n) => `{${n}}`).join('#');

/** The read patterns of an entity. */
const readsOf = (table: Table, entity: Entity): AccessPattern[] =>
  table.accessPatterns.filter((p) => p.entityId === entity.id && isReadPattern(p));

/**
 * The layouts to try for `entity` (at least one). With `keep`, only the entity's own table key
 * templates, as they are.
 */
export function layoutsOf(table: Table, entity: Entity, keep: boolean): Layout[] {
  const pk = table.partitionKey.name;
  const sk = table.sortKey?.name;
  const kept = entity.keys[pk];
  if (keep && kept) {
    return [{ kind: 'kept', keys: { partition: kept.template, sort: (sk && entity.keys[sk]?.template) ?? '' }, identity: identityOf(entity, table.accessPatterns), text: `${entity.name} keeps its table key ${kept.template}.` }];
  }
  const prefix = prefixOf(entity);
  const identity = identityOf(entity, table.accessPatterns);
  const layouts: Layout[] = [];
  if (identity.length > 0) {
    layouts.push({
      kind: 'own',
      keys: { partition: `${prefix}#${part(identity)}`, sort: prefix },
      identity,
      text: `${entity.name} in its own partition: ${pk} = ${prefix}#${part(identity)}, ${sk ?? 'no sort key'} = ${prefix}.`,
    });
  }
  const byId = new Map(table.entities.map((e) => [e.id, e]));
  const reads = readsOf(table, entity);
  for (const attribute of entity.attributes) {
    const target = attribute.generator?.kind === 'ref' ? attribute.generator.entity : undefined;
    const parent = target === undefined ? undefined : byId.get(target);
    if (!parent || parent.id === entity.id || !isKeyType(attribute)) continue;
    // Only a collection some pattern reads: a Query that knows the parent.
    const listing = reads.filter((p) => p.known.includes(attribute.name));
    if (listing.length === 0) continue;
    const rest = identity.filter((n) => n !== attribute.name);
    const sortBys = [...new Set(listing.map((p) => p.range?.attribute).filter((a): a is string => a !== undefined && a !== attribute.name))];
    for (const sortBy of sortBys.length > 0 ? sortBys : [undefined]) {
      const tail = [...(sortBy ? [sortBy] : []), ...rest.filter((n) => n !== sortBy)];
      const sort = tail.length > 0 ? `${prefix}#${part(tail)}` : prefix;
      const partition = `${prefixOf(parent)}#{${attribute.name}}`;
      layouts.push({
        kind: 'child',
        keys: { partition, sort },
        parent: { entityId: parent.id, attribute: attribute.name },
        ...(sortBy ? { sortBy } : {}),
        identity,
        text: `${entity.name} in the item collection of its ${parent.name}: ${pk} = ${partition}, ${sk ?? 'no sort key'} = ${sort}${sortBy ? ` (ordered by ${sortBy})` : ''}.`,
      });
    }
  }
  // Item collections by part of the identity a listing pattern knows (a user's scores in every game:
  // PK = USERID#{userId}, SK = GAMESCORE#{gameTitle}), where no parent's collection already does it.
  const grouped = new Set(layouts.filter((l) => l.parent).map((l) => l.parent!.attribute));
  for (const p of reads) {
    const known = p.known.filter((k) => identity.includes(k));
    if (known.length === 0 || known.length !== p.known.length || known.length >= identity.length || (known.length === 1 && grouped.has(known[0]!))) continue;
    const partition = known.map((k) => `${k.toUpperCase()}#{${k}}`).join('#');
    if (layouts.some((l) => l.keys.partition === partition)) continue;
    const sortBy = p.range && !known.includes(p.range.attribute) ? p.range.attribute : undefined;
    const tail = [...(sortBy ? [sortBy] : []), ...identity.filter((n) => !known.includes(n) && n !== sortBy)];
    const sort = `${prefix}#${part(tail)}`;
    layouts.push({
      kind: 'child',
      keys: { partition, sort },
      ...(sortBy ? { sortBy } : {}),
      identity,
      text: `${entity.name} in item collections by ${known.join(' and ')}: ${pk} = ${partition}, ${sk ?? 'no sort key'} = ${sort}${sortBy ? ` (ordered by ${sortBy})` : ''}.`,
    });
  }
  if (layouts.length === 0) {
    // No attribute fit for a key: the entity keeps whatever it has (the validation says what is missing).
    layouts.push({ kind: 'kept', keys: { partition: kept?.template ?? `${prefix}`, sort: (sk && entity.keys[sk]?.template) ?? prefix }, identity, text: `${entity.name} has no attribute to key on.` });
  }
  if (!keep) return layouts;
  const typed = layouts.flatMap((l) => typedFor(table, entity, l));
  return typed.length > 0 ? typed : layouts;
}

/**
 * A kept table key of type N or B takes no text template: such a layout keys on the one attribute
 * its template names, typed like the key (`{orderId}`), or is left out.
 */
function typedFor(table: Table, entity: Entity, layout: Layout): Layout[] {
  const fit = (template: string, type: string): string | undefined => {
    if (type === 'S') return template;
    const names = attributesOf(template);
    const attribute = names.length === 1 ? entity.attributes.find((a) => a.name === names[0]) : undefined;
    return attribute?.type === type ? `{${attribute.name}}` : undefined;
  };
  const partition = fit(layout.keys.partition, table.partitionKey.type);
  const sort = table.sortKey ? fit(layout.keys.sort, table.sortKey.type) : layout.keys.sort;
  if (partition === undefined || sort === undefined) return [];
  return [{ ...layout, keys: { partition, sort } }];
}

/** The entity's key bindings for a layout on a table whose key attributes are `pk` and `sk`. */
export function bindingsOf(layout: Layout, pk: string, sk: string | undefined): Record<string, KeyBinding> {
  const keys: Record<string, KeyBinding> = { [pk]: { template: layout.keys.partition } };
  if (sk !== undefined) keys[sk] = { template: layout.keys.sort };
  return keys;
}

/** The attributes a key template names (none when it does not parse). */
export function attributesOf(template: string): string[] {
  const parsed = parseKeyTemplate(template);
  return parsed.ok ? templateAttributes(parsed.value) : [];
}
