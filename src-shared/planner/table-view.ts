/**
 * The planner's view of a table: its key targets (the table, each GSI, each LSI) and, per entity, the
 * parsed key templates, `when` conditions and shards, and which targets hold the entity's items.
 * Built once per table so that planning ~50 patterns parses each template once. Tolerates designs
 * that do not validate (the UI plans while the user types): a template that does not parse makes the
 * entity absent from that target, with the reason.
 */
import {
  parseCondition,
  formatCondition,
  type Condition,
  parseKeyTemplate,
  templateAttributes,
  type KeyTemplate,
  keyPartLabel,
  partitionKeysOf,
  sortKeysOf,
} from '../model/index.ts';
import type { Entity, KeyAttribute, Projection, Sharding, Table } from '../model/index.ts';
import { allowedValueCount, entityCountsOf, formatPercent, sanitizeCount, type EntityCounts } from './count-estimate.ts';
import { membershipShareOf, type MembershipFactor } from '../workload-stats/index.ts';
import type { Target } from './types.ts';

/** The table or one index, with its key attributes. */
export interface KeyTarget {
  target: Target;
  /** `Table`, or the index name. */
  label: string;
  kind: Target['kind'];
  /** The partition key's attributes: one, or a multi-attribute GSI key's 2–4 (docs/dynamodb-rules.md §11). */
  partitionKeys: KeyAttribute[];
  /** The sort key's attributes, in key order: none, one, or a multi-attribute GSI key's 2–4. */
  sortKeys: KeyAttribute[];
  /** `PK`, or `tournamentId + region` for a multi-attribute partition key. */
  partitionKeyLabel: string;
  /** `SK`, `round + bracket`; absent when there is no sort key. */
  sortKeyLabel?: string;
  /** Whether either key part has more than one attribute (the Query rules of docs/dynamodb-rules.md §11 apply). */
  isMultiAttribute: boolean;
  /** Undefined for the table (it holds every attribute). */
  projection?: Projection;
  /** Position in declaration order: the table, then GSIs, then LSIs. */
  order: number;
}

/** An entity's template for one key attribute. */
export interface BoundKey {
  /** The key attribute, e.g. `GSI1PK`. */
  name: string;
  source: string;
  template?: KeyTemplate;
  /** Why the template is unusable (it does not parse). */
  error?: string;
  when?: Condition;
  shards?: { count: number; method: Sharding['method']; from?: string };
}

/** Whether and how much of an entity a target holds. */
export interface Membership {
  isMember: boolean;
  /** Why not, when not a member. */
  reason?: string;
  /**
   * The partition key as one template: the entity's template for it, or for a multi-attribute key
   * the parts' templates in key order (DynamoDB hashes them together: one value per combination).
   */
  partitionKey?: BoundKey;
  /** The sort key as one template (a multi-attribute key's parts in key order). */
  sortKey?: BoundKey;
  /** Per attribute of the partition key, what the entity writes into it (one entry for a one-attribute key). */
  partitionParts: BoundKey[];
  /** Per attribute of the sort key, what the entity writes into it. */
  sortParts: BoundKey[];
  /** Share of the entity's items in the target (a `when` makes it < 1). */
  fraction: number;
  /** The `when` conditions, as written (deduplicated). */
  conditions: Condition[];
  /** Per attribute: how many values the `when` conditions allow (`status IN (A, B)` → 2). */
  allowedValues: Map<string, number>;
  /** The factors of `fraction` (workload-stats' membership share), in the order they multiply. */
  factors: MembershipFactor[];
  assumptions: string[];
}

/** One entity, prepared. */
export interface EntityView {
  entity: Entity;
  itemCount: number;
  attributeNames: Set<string>;
  keys: Map<string, BoundKey>;
  /** Membership per target, by `KeyTarget.order`. */
  membership: Membership[];
}

/** A table, prepared for planning. */
export interface TableView {
  table: Table;
  /** What `ref` generators point at. */
  refs: EntityCounts;
  targets: KeyTarget[];
  entities: EntityView[];
  byId: Map<string, EntityView>;
}

/** The table, its GSIs and its LSIs, in that order. An LSI's partition key is the table's. */
export function keyTargetsOf(table: Table): KeyTarget[] {
  const make = (target: Target, label: string, partitionKeys: KeyAttribute[], sortKeys: KeyAttribute[], order: number, projection?: Projection): KeyTarget => {
    const t: KeyTarget = {
      target,
      label,
      kind: target.kind,
      partitionKeys,
      sortKeys,
      partitionKeyLabel: keyPartLabel(partitionKeys),
      isMultiAttribute: partitionKeys.length > 1 || sortKeys.length > 1,
      order,
    };
    if (sortKeys.length > 0) t.sortKeyLabel = keyPartLabel(sortKeys);
    if (projection) t.projection = projection;
    return t;
  };
  const targets: KeyTarget[] = [make({ kind: 'table' }, 'Table', [table.partitionKey], table.sortKey ? [table.sortKey] : [], 0)];
  for (const g of table.globalSecondaryIndexes ?? []) {
    targets.push(make({ kind: 'gsi', name: g.name }, g.name, partitionKeysOf(g), sortKeysOf(g), targets.length, g.projection));
  }
  for (const l of table.localSecondaryIndexes ?? []) {
    targets.push(make({ kind: 'lsi', name: l.name }, l.name, [table.partitionKey], [l.sortKey], targets.length, l.projection));
  }
  return targets;
}

/** One template standing for several key attributes' templates, in key order (for a multi-attribute key part). */
function joinedKey(label: string, parts: BoundKey[]): BoundKey {
  if (parts.length === 1) return parts[0] as BoundKey;
  const templates = parts.map((p) => p.template);
  const joined: BoundKey = { name: label, source: parts.map((p) => p.source).join(' + ') };
  if (templates.every((t) => t !== undefined)) {
    joined.template = { source: joined.source, parts: templates.flatMap((t) => t?.parts ?? []) };
  }
  return joined;
}

function bindKey(name: string, binding: Entity['keys'][string]): BoundKey {
  const source = typeof binding?.template === 'string' ? binding.template : '';
  const bound: BoundKey = { name, source };
  const parsed = parseKeyTemplate(source);
  if (parsed.ok) bound.template = parsed.value;
  else bound.error = parsed.errors[0]?.message ?? `the template ${JSON.stringify(source)} does not parse`;
  if (typeof binding?.when === 'string' && binding.when.trim() !== '') {
    const when = parseCondition(binding.when);
    if (when.ok) bound.when = when.value;
    else bound.error ??= `its condition ${JSON.stringify(binding.when)} does not parse`;
  }
  const shards = binding?.shards;
  if (shards && Number.isFinite(shards.count) && shards.count >= 2) {
    const count = Math.min(1000, Math.floor(shards.count));
    bound.shards = shards.from ? { count, method: shards.method, from: shards.from } : { count, method: shards.method };
  }
  return bound;
}

function membershipOf(entity: Entity, keys: Map<string, BoundKey>, t: KeyTarget, refs: EntityCounts): Membership {
  const none = (reason: string): Membership => ({ isMember: false, reason, fraction: 0, conditions: [], allowedValues: new Map(), factors: [], assumptions: [], partitionParts: [], sortParts: [] });
  const needed = [...t.partitionKeys, ...t.sortKeys];
  const bound: BoundKey[] = [];
  const carried = new Set((entity.attributes ?? []).map((a) => a.name));
  for (const key of needed) {
    // A GSI key attribute the entity carries under its own name is the key itself (a natural key).
    const b = keys.get(key.name) ?? (t.kind === 'gsi' && carried.has(key.name) ? bindKey(key.name, { template: `{${key.name}}` }) : undefined);
    if (!b) {
      return none(
        t.kind === 'table'
          ? `${entity.name} has no template for the table's key ${key.name}`
          : t.isMultiAttribute
            ? `${entity.name} has neither a template nor an attribute for ${key.name}, so its items are not in ${t.label} (an item is in an index only when it carries every key attribute)`
            : `${entity.name} has no template for ${key.name}, so its items are not in ${t.label} (sparse)`,
      );
    }
    if (b.error !== undefined || !b.template) return none(`${entity.name}'s template for ${key.name} is unusable: ${b.error ?? 'it does not parse'}`);
    bound.push(b);
  }
  const conditions: Condition[] = [];
  const seen = new Set<string>();
  for (const b of bound) {
    if (!b.when) continue;
    const text = formatCondition(b.when.clauses);
    if (seen.has(text)) continue;
    seen.add(text);
    conditions.push(b.when);
  }
  const allowedValues = new Map<string, number>();
  for (const c of conditions) {
    for (const name of new Set(c.clauses.map((x) => x.attribute))) {
      const allowed = allowedValueCount(c, name);
      if (allowed !== undefined) allowedValues.set(name, Math.min(allowed, allowedValues.get(name) ?? Infinity));
    }
  }
  // The one membership share (workload-stats): the optional key attributes' presence, then the
  // conditions among the items that carry them.
  const keyAttributes = [...new Set(bound.flatMap((b) => (b.template ? templateAttributes(b.template) : [])))];
  const share = membershipShareOf(entity, conditions, keyAttributes, refs);
  const fraction = share.fraction;
  const assumptions = share.factors.map((f) =>
    f.kind === 'condition'
      ? `${t.label} holds only the ${entity.name} items where ${f.text}: ${formatPercent(f.fraction)} of them (${f.basis})`
      : `${t.label} holds only the ${entity.name} items that carry ${f.text}: ${formatPercent(f.fraction)} of them (${f.basis})`,
  );
  const partitionParts = bound.slice(0, t.partitionKeys.length);
  const sortParts = bound.slice(t.partitionKeys.length);
  const m: Membership = { isMember: true, partitionKey: joinedKey(t.partitionKeyLabel, partitionParts), fraction, conditions, allowedValues, factors: share.factors, assumptions, partitionParts, sortParts };
  if (sortParts.length > 0) m.sortKey = joinedKey(t.sortKeyLabel ?? '', sortParts);
  return m;
}

/** Prepares a table for planning. Never throws on a design that does not validate. */
export function viewTable(table: Table): TableView {
  const targets = keyTargetsOf(table);
  const refs = entityCountsOf(table);
  const entities = (table.entities ?? []).map((entity): EntityView => {
    const keys = new Map<string, BoundKey>();
    for (const [name, binding] of Object.entries(entity.keys ?? {})) keys.set(name, bindKey(name, binding));
    return {
      entity,
      itemCount: sanitizeCount(entity.itemCount),
      attributeNames: new Set((entity.attributes ?? []).map((a) => a.name)),
      keys,
      membership: targets.map((t) => membershipOf(entity, keys, t, refs)),
    };
  });
  return { table, refs, targets, entities, byId: new Map(entities.map((e) => [e.entity.id, e])) };
}

/** The attributes a bound key's template is built from (none when it does not parse). */
export function boundAttributes(b: BoundKey | undefined): string[] {
  return b?.template ? templateAttributes(b.template) : [];
}

/**
 * What an index entry of this entity holds (docs/dynamodb-rules.md §1.4, §3.3): every attribute when
 * the index projects ALL (or for the table itself); else the key attributes of the table and of the
 * index, the entity attributes their templates are built from (a caller reads `orderId` out of
 * `ORDER#{orderId}`), and for INCLUDE the listed attributes. `stored` is what the entry holds as
 * attributes: the key attributes and the INCLUDE list. A FilterExpression sees only those, so a
 * value inside a key's text (`STATUS#{status}`) cannot be filtered on.
 */
export function projectedAttributesOf(t: KeyTarget, ev: EntityView, view: TableView): { all: boolean; names: Set<string>; stored: Set<string> } {
  if (!t.projection || t.projection.type === 'ALL') return { all: true, names: new Set(), stored: new Set() };
  const names = new Set<string>();
  const stored = new Set<string>();
  const table = view.targets[0];
  for (const key of [...(table?.partitionKeys ?? []), ...(table?.sortKeys ?? []), ...t.partitionKeys, ...t.sortKeys]) {
    names.add(key.name);
    stored.add(key.name);
    for (const a of boundAttributes(ev.keys.get(key.name))) names.add(a);
  }
  if (t.projection.type === 'INCLUDE') {
    for (const a of t.projection.nonKeyAttributes ?? []) {
      names.add(a);
      stored.add(a);
    }
  }
  return { all: false, names, stored };
}
