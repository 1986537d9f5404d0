/**
 * What the Entities screen's "Indexes" block shows for one entity: per GSI, what the entity writes
 * into each key attribute (a template, or its own attribute of that name: a natural key), whether its
 * items are in the index, and when only some are, the share and why. The share is the planner's
 * (`viewTable` membership, from workload-stats); this only lays out its factors for the screen.
 */
import { gsiKeySourceOf, withValueModel } from '../../../src-shared/model/index.ts';
import type { MembershipFactor } from '../../../src-shared/workload-stats/index.ts';
import type { AttributeType, Entity, KeyAttribute, Table } from '../../../src-shared/model/index.ts';
import {
  viewTable,
  type KeyTarget,
  type Membership,
  type TableView,
} from '../../../src-shared/planner/index.ts';

/** One key attribute of the index and what the entity writes into it. */
export interface KeyPartSource {
  key: KeyAttribute;
  /** `natural`: the entity's own attribute of that name; `template`: a key template; `missing`: neither. */
  kind: 'natural' | 'template' | 'missing';
  /** The template (for `template`). */
  template?: string;
  /** The type of the entity's own attribute (for `natural`). */
  attributeType?: AttributeType;
}

/** One factor of the share of the entity's items in the index: an optional attribute or a `when` condition (workload-stats'). */
export type { MembershipFactor };

export interface IndexMembership {
  index: string;
  isMultiAttribute: boolean;
  partition: KeyPartSource[];
  sort: KeyPartSource[];
  isMember: boolean;
  /** Why the entity is not in the index (a template that does not parse), when no key part is simply missing. */
  reason?: string;
  /** Share of the entity's items in the index (the planner's), 0 when not a member. */
  fraction: number;
  itemCount: number;
  /** The factors behind a share below 1, in the order the planner applies them. */
  factors: MembershipFactor[];
}

/** The entity's place in each GSI of the table: those it has a template or an attribute for (`related`), and the others. */
export interface EntityIndexes {
  related: IndexMembership[];
  /** GSIs none of whose key attributes the entity writes: its items are never in them. */
  unrelated: string[];
}

function sourceOf(entity: Entity, key: KeyAttribute): KeyPartSource {
  const source = gsiKeySourceOf(entity, key.name);
  if (!source) return { key, kind: 'missing' };
  if (!source.isNatural) return { key, kind: 'template', template: source.template };
  const type = entity.attributes.find((a) => a.name === key.name)?.type;
  return type ? { key, kind: 'natural', attributeType: type } : { key, kind: 'natural' };
}

function membershipIn(view: TableView, entity: Entity, target: KeyTarget): IndexMembership | undefined {
  const ev = view.byId.get(entity.id);
  const m = ev?.membership[target.order];
  if (!ev || !m) return undefined;
  const partition = target.partitionKeys.map((k) => sourceOf(entity, k));
  const sort = target.sortKeys.map((k) => sourceOf(entity, k));
  if ([...partition, ...sort].every((p) => p.kind === 'missing')) return undefined;
  const isMissingPart = [...partition, ...sort].some((p) => p.kind === 'missing');
  const result: IndexMembership = {
    index: target.label,
    isMultiAttribute: target.isMultiAttribute,
    partition,
    sort,
    isMember: m.isMember,
    fraction: m.isMember ? m.fraction : 0,
    itemCount: ev.itemCount,
    factors: m.isMember && m.fraction < 1 ? m.factors : [],
  };
  if (!m.isMember && !isMissingPart && m.reason) result.reason = m.reason;
  return result;
}

/** Where an entity's items are among the table's GSIs (the planner's membership, laid out per key attribute). */
export function entityIndexesOf(table: Table, entityId: string): EntityIndexes {
  // The value model first, as the planner and Costs read the design: an enum a condition names is never taken as unique.
  const view = viewTable(withValueModel(table));
  const entity = view.byId.get(entityId)?.entity;
  const related: IndexMembership[] = [];
  const unrelated: string[] = [];
  if (!entity) return { related, unrelated };
  for (const target of view.targets) {
    if (target.kind !== 'gsi') continue;
    const found = membershipIn(view, entity, target);
    if (found) related.push(found);
    else unrelated.push(target.label);
  }
  return { related, unrelated };
}

/** `those that carry bracket`, `those where status = "OPEN"`, `those that carry bracket, where status = "OPEN"`: what the items in the index have in common. */
export function describeFactors(factors: readonly MembershipFactor[]): string {
  const and = (xs: string[]) => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);
  const carried = factors.filter((f) => f.kind === 'presence').map((f) => f.text);
  const where = factors.filter((f) => f.kind === 'condition').map((f) => f.text);
  const parts = [carried.length > 0 ? `that carry ${and(carried)}` : '', where.length > 0 ? `where ${and(where)}` : ''].filter(Boolean);
  return parts.length > 0 ? `those ${parts.join(', ')}` : '';
}
