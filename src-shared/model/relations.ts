/**
 * Relations between entities: which attribute references another entity (a `ref` generator, or by
 * default an attribute named after it: `projectId` → Project, `ownerId` → Owner or User), and which
 * attribute is inherited through a reference (Issue.organizationId is its project's organizationId).
 * The value model writes both into the generators, so every consumer reads one relation graph.
 *
 * More on its rules: docs/modules.md, "src-shared/model/relations.ts".
 */
import type { Attribute, Entity, Generator } from './schema.ts';
import { wordsOf } from './value-heuristics.ts';

/** Names that stand for a person: `ownerId` references Owner when there is one, else User. */
const PERSON_WORDS = new Set(['owner', 'author', 'creator', 'assignee', 'reporter', 'sender', 'member', 'watcher', 'buyer', 'seller', 'customer']);

const compact = (text: string): string => wordsOf(text).join('');

/**
 * The entities an attribute name may reference, likeliest first: the entity whose name it carries
 * (`issueId` → Issue, `orderItemId` → OrderItem), then for a person's word (`ownerId`) Owner, User,
 * Person, Customer, Account; never `selfId` (an entity's own id is no reference). Only names ending
 * in `Id` (`id`, `_id`) count.
 */
export function likelyReferencesOf(name: string, entities: readonly Pick<Entity, 'id' | 'name'>[], selfId?: string): Pick<Entity, 'id' | 'name'>[] {
  const words = wordsOf(name);
  if (words.length < 2 || words.at(-1) !== 'id') return [];
  const stem = words.slice(0, -1).join('');
  const others = entities.filter((e) => e.id !== selfId);
  const found: Pick<Entity, 'id' | 'name'>[] = [];
  const add = (e: Pick<Entity, 'id' | 'name'> | undefined): void => {
    if (e && !found.includes(e)) found.push(e);
  };
  add(others.find((e) => compact(e.name) === stem));
  const last = words.at(-2) ?? '';
  add(others.find((e) => compact(e.name) === last));
  if (PERSON_WORDS.has(stem) || PERSON_WORDS.has(last)) {
    for (const person of ['owner', 'user', 'person', 'customer', 'account', 'member']) add(others.find((e) => compact(e.name) === person));
  }
  return found;
}

/** The entity an attribute references by default: the first of `likelyReferencesOf`, for an S or N attribute. */
export function defaultReferenceOf(attribute: Pick<Attribute, 'name' | 'type'>, entities: readonly Pick<Entity, 'id' | 'name'>[], selfId?: string): Pick<Entity, 'id' | 'name'> | undefined {
  if (attribute.type !== 'S' && attribute.type !== 'N') return undefined;
  return likelyReferencesOf(attribute.name, entities, selfId)[0];
}

/** One attribute's place in the relation graph. */
export interface Relation {
  /** The entity whose items' ids the attribute holds. */
  entityId: string;
  /** Whether the design states it (a `ref` generator) or its name implies it. */
  isStated: boolean;
  /** For an inherited attribute: the reference it follows (`projectId`) and that reference's entity. */
  via?: { attribute: string; entityId: string; isStated: boolean };
}

/** Per entity id, per attribute name: its relation (references and inherited attributes only). */
export type RelationGraph = ReadonlyMap<string, ReadonlyMap<string, Relation>>;

const isKeyScalar = (a: Attribute): boolean => a.type === 'S' || a.type === 'N';

/** The entity an attribute references directly (not inherited): its `ref` generator's, else its name's. */
function directReference(entity: Entity, a: Attribute, entities: readonly Entity[]): { entityId: string; isStated: boolean } | undefined {
  const g = a.generator;
  if (g?.kind === 'ref') return g.entity !== undefined && entities.some((e) => e.id === g.entity) ? { entityId: g.entity, isStated: true } : undefined;
  if (g !== undefined || !isKeyScalar(a)) return undefined;
  const target = defaultReferenceOf(a, entities, entity.id);
  return target ? { entityId: target.id, isStated: false } : undefined;
}

/**
 * The relation graph of a table's entities (rules in docs/modules.md). An attribute is inherited
 * through a reference R of its entity when R's entity carries an attribute of the same name that is
 * itself a reference (or inherited): stated by `generator.via`, or inferred unless the generator says
 * `independent`. Cycles are cut: an attribute reached again on the way is taken as not inherited.
 */
export function relationsOf(entities: readonly Entity[]): RelationGraph {
  const graph = new Map<string, Map<string, Relation>>();
  const byId = new Map(entities.map((e) => [e.id, e]));
  const direct = new Map<string, Map<string, { entityId: string; isStated: boolean }>>();
  for (const e of entities) {
    const refs = new Map<string, { entityId: string; isStated: boolean }>();
    for (const a of e.attributes ?? []) {
      const r = directReference(e, a, entities);
      if (r) refs.set(a.name, r);
    }
    direct.set(e.id, refs);
  }
  const visiting = new Set<string>();
  const resolve = (entity: Entity, a: Attribute): Relation | undefined => {
    const id = `${entity.id}\u0000${a.name}`;
    const seen = graph.get(entity.id)?.get(a.name);
    if (seen) return seen;
    if (visiting.has(id)) return undefined;
    visiting.add(id);
    try {
      return inherited(entity, a) ?? direct.get(entity.id)?.get(a.name);
    } finally {
      visiting.delete(id);
    }
  };
  const inherited = (entity: Entity, a: Attribute): Relation | undefined => {
    const g: Generator | undefined = a.generator;
    if (g !== undefined && g.kind !== 'ref') return undefined;
    if (g?.independent === true) return undefined;
    const own = direct.get(entity.id) ?? new Map();
    const candidates = g?.via !== undefined ? [g.via] : [...own.keys()];
    for (const through of candidates) {
      if (through === a.name) continue;
      const ref = own.get(through);
      const parent = ref ? byId.get(ref.entityId) : undefined;
      const carried = parent?.attributes.find((x) => x.name === a.name);
      if (!ref || !parent || !carried || carried.type !== a.type) continue;
      const upstream = resolve(parent, carried);
      // Stated `via`: the parent's value whatever it is; inferred: only where the parent's is a reference too.
      if (!upstream && g?.via === undefined) continue;
      const entityId = upstream?.entityId ?? parent.id;
      if (g?.entity !== undefined && g.via === undefined && g.entity !== entityId) continue;
      return { entityId, isStated: g?.via !== undefined, via: { attribute: through, entityId: parent.id, isStated: ref.isStated } };
    }
    return undefined;
  };
  for (const e of entities) {
    const relations = new Map<string, Relation>();
    graph.set(e.id, relations);
    for (const a of e.attributes ?? []) {
      const r = resolve(e, a);
      if (r) relations.set(a.name, r);
    }
  }
  return graph;
}

/** The generator a relation stands for: a `ref` to its entity, `via` its reference when inherited; the attribute's own settings kept. */
export function generatorOfRelation(a: Attribute, r: Relation): Generator {
  const base: Generator = a.generator?.kind === 'ref' ? { ...a.generator } : { kind: 'ref' };
  base.entity = r.entityId;
  if (r.via) base.via = r.via.attribute;
  return base;
}

/** Whether an attribute is inherited through a reference, or would be without its opt-out. */
export interface Inheritance {
  /** The reference it follows (`projectId`). */
  via: string;
  /** That reference's entity (Project). */
  parentName: string;
  /** The entity whose ids it holds (Organization). */
  entityId: string;
  /** False when the design turns the inheritance off (`generator.independent`). */
  isOn: boolean;
}

/** The inheritance of `name` in entity `entityId`, for the Entities screen: shown, and turned off or on there. */
export function inheritanceOf(entities: readonly Entity[], entityId: string, name: string): Inheritance | undefined {
  const a = entities.find((e) => e.id === entityId)?.attributes.find((x) => x.name === name);
  if (!a) return undefined;
  const isOff = a.generator?.independent === true;
  // Asked with the opt-out lifted: what the inference would say.
  const lifted = isOff
    ? entities.map((e) => (e.id === entityId ? { ...e, attributes: e.attributes.map((x) => (x === a ? { ...x, generator: withInheritance(a.generator, undefined, true) } : x)) } : e))
    : entities;
  const r = relationsOf(lifted).get(entityId)?.get(name);
  if (!r?.via) return undefined;
  const parentName = entities.find((e) => e.id === r.via?.entityId)?.name ?? r.via.entityId;
  return { via: r.via.attribute, parentName, entityId: r.entityId, isOn: !isOff };
}

/**
 * The generator with the inheritance turned on (the opt-out removed, so the inference decides
 * again) or off (a reference to `entityId`, drawn on its own: `independent`, and no `via`).
 */
export function withInheritance(generator: Generator | undefined, entityId: string | undefined, isOn: boolean): Generator | undefined {
  if (isOn) {
    if (!generator) return undefined;
    const { independent: _off, ...rest } = generator;
    return rest;
  }
  const { via: _via, ...rest } = generator?.kind === 'ref' ? generator : { kind: 'ref' as const };
  return { ...rest, kind: 'ref', ...(entityId !== undefined ? { entity: entityId } : {}), independent: true };
}
