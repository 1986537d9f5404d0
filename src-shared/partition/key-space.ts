/**
 * The partition-key values one entity gives one target (the table or a GSI), derived from the design
 * alone: its key template, the distinct values of each attribute in it (`distinctValuesOf`), enum
 * weights, a sparse `when` condition that keeps only some values, and write shards that multiply
 * every value by N suffixes (`<value>.<1..N>`, docs/dynamodb-rules.md §5).
 *
 * More on its rules: docs/modules.md, "src-shared/partition/key-space.ts".
 */
import {
  parseCondition,
  evaluateCondition,
  type ConditionClause,
  parseKeyTemplate,
  renderKeyTemplate,
  type KeyTemplate,
  bindingOf,
  gsiKeySourceOf,
  enumShares,
  rankShare,
  withEntityValueModel,
} from '../model/index.ts';
import type { Attribute, Entity, KeyBinding } from '../model/index.ts';
import { distinctValuesOf, tiedAttributes, type EntityCounts } from '../workload-stats/index.ts';
import { KEY_PART_SEPARATOR, type SampleValue, rankedValuesOf, type RankedValues } from '../sample/index.ts';
import { formatNumber } from '../numbers/index.ts';


/** At most this many values of one attribute are enumerated; more are treated as uniform. */
export const SMALL_DOMAIN_MAX = 64;
/** At most this many combinations of small values are enumerated. */
export const MAX_COMBOS = 4096;

interface Domain {
  attribute: string;
  /** Enumerated values (heaviest first) with their share of the items; absent for a large domain. */
  values?: { value: SampleValue; weight: number }[];
  /** Distinct values. */
  count: number;
  isTimeLike: boolean;
  source?: Attribute;
  /** The source attribute's values by rank, as the sample data draws them. */
  ranked?: RankedValues;
}

/** One combination of the small attributes' values and its share of the entity's items. */
interface Combo {
  values: Record<string, SampleValue>;
  weight: number;
}

export interface KeySpace {
  entityId: string;
  entityName: string;
  template: string;
  /** Items of the entity in this target (after a sparse index's share). */
  items: number;
  /** Combinations of the small attributes, heaviest first; weights sum to 1. */
  combos: Combo[];
  /** Keys per combination from the large attributes (1 when there are none). */
  membersPerCombo: number;
  /** Shards per logical key (1 when the key is not sharded). */
  shards: number;
  /** Logical keys (before sharding): combos × members. */
  logicalKeys: number;
  /** Whether a time-like attribute (a date or timestamp) is part of the key. */
  hasTimeAttribute: boolean;
  /** Assumptions behind the counts, in words. */
  assumptions: string[];
  /**
   * A member's share of its combination's items, when a large attribute's values are skewed (its
   * generator's hot value or Zipf spread, by rank as the sample data draws them); absent when every
   * member holds the same share, 1 ÷ `membersPerCombo`. Member 0 is the heaviest.
   */
  memberShare?: (member: number) => number;
  /** Internal: how to render a key. */
  render: (combo: number, member: number, shard: number, timeIndex?: number) => string;
  /** Internal: the large domains, in mixed-radix order. */
  large: Domain[];
  /** Internal: the small time-like attribute and its newest value, when there is one. */
  timeAttribute?: { name: string; newest: SampleValue };
}

const WORD_SPLIT = /[^A-Za-z0-9]+/;

/** Whether an attribute holds dates or timestamps: its generator says so, or (without one) its name. */
export function isTimeLike(attribute: Attribute | undefined, name: string): boolean {
  const kind = attribute?.generator?.kind;
  if (kind !== undefined) return kind === 'date' || kind === 'timestamp';
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(WORD_SPLIT)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
  const last = words.at(-1) ?? '';
  return ['date', 'day', 'time', 'timestamp', 'at', 'ts'].includes(last) || words.includes('timestamp');
}

/** Clauses of a `when` condition, or none when it is absent or does not parse. */
function whenClauses(binding: KeyBinding | undefined): ConditionClause[] {
  const when = binding?.when;
  if (when === undefined || when.trim() === '') return [];
  const parsed = parseCondition(when);
  return parsed.ok ? parsed.value.clauses : [];
}

function enumDomain(attribute: Attribute, clauses: ConditionClause[]): Domain['values'] {
  const g = attribute.generator;
  if (g?.kind === 'enum' && Array.isArray(g.values) && g.values.length > 0) {
    // As the sample data draws them: the value model's shares (distribution, else weights, else even).
    const weights = enumShares(attribute)?.shares ?? g.values.map(() => 1);
    const typed = (v: string): SampleValue => (attribute.type === 'N' ? Number(v) : attribute.type === 'BOOL' ? v === 'true' : v);
    const merged = new Map<string, { value: SampleValue; weight: number }>();
    g.values.forEach((v, i) => {
      const value = typed(v);
      const key = `${typeof value}:${String(value)}`;
      const entry = merged.get(key);
      if (entry) entry.weight += weights[i] ?? 0;
      else merged.set(key, { value, weight: weights[i] ?? 0 });
    });
    return keepAllowed([...merged.values()], attribute.name, clauses);
  }
  if (g?.kind === 'constant') return [{ value: g.value ?? '', weight: 1 }];
  if (attribute.type === 'BOOL') return keepAllowed([{ value: true, weight: 1 }, { value: false, weight: 1 }], attribute.name, clauses);
  return undefined;
}

/** The values a `when` condition lets through, renormalized; the input when none pass (the index is then empty anyway). */
function keepAllowed(values: { value: SampleValue; weight: number }[], name: string, clauses: ConditionClause[]): { value: SampleValue; weight: number }[] {
  const own = clauses.filter((c) => c.attribute === name);
  const kept = own.length === 0 ? values : values.filter((v) => evaluateCondition({ source: '', clauses: own }, { [name]: v.value }));
  const list = kept.length > 0 ? kept : values;
  const total = list.reduce((s, v) => s + v.weight, 0);
  const normalized = list.map((v) => ({ value: v.value, weight: total > 0 ? v.weight / total : 1 / list.length }));
  return normalized.sort((a, b) => b.weight - a.weight);
}

/** The values an `=` / `IN` clause of the condition allows for `name`, when it restricts it so. */
function valuesFromCondition(name: string, clauses: ConditionClause[]): SampleValue[] | undefined {
  let allowed: SampleValue[] | undefined;
  for (const c of clauses) {
    if (c.attribute !== name) continue;
    const values = c.kind === 'compare' && c.operator === '=' ? [c.value] : c.kind === 'in' ? c.values : undefined;
    if (!values) continue;
    allowed = allowed === undefined ? [...values] : allowed.filter((v) => values.includes(v));
  }
  return allowed;
}

function domainOf(entity: Entity, name: string, clauses: ConditionClause[], refs: EntityCounts, assumptions: string[]): Domain {
  const attribute = entity.attributes.find((a) => a.name === name);
  const isTime = isTimeLike(attribute, name);
  const fromCondition = valuesFromCondition(name, clauses);
  const enumerated = attribute ? enumDomain(attribute, clauses) : undefined;
  const ranked = attribute ? rankedValuesOf(entity, attribute) : undefined;
  const source = attribute ? { source: attribute, ...(ranked ? { ranked } : {}) } : {};
  if (enumerated) return { attribute: name, values: enumerated, count: enumerated.length, isTimeLike: isTime, ...source };
  if (fromCondition && fromCondition.length > 0) {
    const unique = [...new Set(fromCondition)];
    assumptions.push(`${entity.name}.${name}: only ${unique.map(String).join(', ')} carry the key (its "when" condition), taken as equally common.`);
    return { attribute: name, values: unique.map((value) => ({ value, weight: 1 / unique.length })), count: unique.length, isTimeLike: isTime };
  }
  const distinct = distinctValuesOf(entity, name, refs);
  assumptions.push(distinct.assumption);
  const count = Math.max(1, Math.round(distinct.count));
  if (count <= SMALL_DOMAIN_MAX && attribute && ranked) {
    const seen = new Map<string, SampleValue>();
    for (let i = 0; i < count; i += 1) {
      const v = ranked.at(i);
      seen.set(`${typeof v}:${String(v)}`, v);
    }
    const values = [...seen.values()];
    if (values.length === count) {
      // Value i is the sample data's rank i: its share follows the attribute's distribution.
      const d = attribute.generator?.distribution;
      return { attribute: name, values: values.map((value, r) => ({ value, weight: rankShare(d, count, r) })), count, isTimeLike: isTime, ...source };
    }
  }
  return { attribute: name, count, isTimeLike: isTime, ...source };
}

/**
 * The newest value of a small time-like domain: rank 0 when the values came from the sample data's
 * ranks (rank 0 is the newest day), else the greatest value.
 */
function newestOf(d: Domain): SampleValue {
  const values = (d.values ?? []).map((v) => v.value);
  const first = d.ranked?.at(0);
  if (first !== undefined && values.some((v) => v === first)) return first;
  return values.reduce((a, b) => (String(b) > String(a) ? b : a));
}

/** Σ 1/k^s for k = 1..n: exact up to 100,000 terms, then the integral of the tail (a large key space may hold a trillion values). */
function harmonic(n: number, s: number): number {
  const exact = Math.min(n, 100_000);
  let sum = 0;
  for (let k = 1; k <= exact; k += 1) sum += 1 / k ** s;
  if (n > exact) sum += s === 1 ? Math.log(n / exact) : (n ** (1 - s) - exact ** (1 - s)) / (1 - s);
  return sum;
}

/**
 * Each member's share of its combination's items, from the large attributes' own spreads (the
 * generator's distribution: value of rank r takes rankShare(r), docs/traffic.md), in the mixed-radix
 * order `renderKey` names members in; undefined when every large attribute is even. A hot value or a
 * Zipf spread so reaches the keys it names whatever the key space's size.
 */
function memberShareOf(large: readonly Domain[], members: number): ((member: number) => number) | undefined {
  const spreads = large.map((d) => {
    const size = Math.max(1, Math.min(d.count, members));
    const dist = d.source?.generator?.distribution;
    if (!dist || dist.kind === 'uniform' || size === 1) return { size, share: (_: number) => 1 / size, isEven: true };
    if (dist.kind === 'zipf') {
      const h = harmonic(size, dist.exponent);
      return { size, share: (r: number) => (r + 1) ** -dist.exponent / h, isEven: false };
    }
    return { size, share: (r: number) => rankShare(dist, size, r), isEven: false };
  });
  if (spreads.every((d) => d.isEven)) return undefined;
  return (member: number) => {
    let rest = member;
    let share = 1;
    for (const d of spreads) {
      share *= d.share(rest % d.size);
      rest = Math.floor(rest / d.size);
    }
    return share;
  };
}

/** The value of a large domain's `index`-th key: the attribute's value of that rank, or a placeholder when the design lacks the attribute. */
function largeValue(d: Domain, index: number): SampleValue {
  return d.ranked ? d.ranked.at(index) : `${d.attribute}-${index + 1}`;
}

/** Between the attributes of a multi-attribute partition key in a rendered key (shown in hot-key lists); the sample data's. */
export { KEY_PART_SEPARATOR };

/**
 * What an entity writes into a partition key of one or more attributes, as one binding: its template
 * (or, for an attribute it carries under the key's name, `{name}`); a multi-attribute key's parts
 * joined by ` + ` with their `when` conditions ANDed. DynamoDB hashes a multi-attribute partition
 * key's attributes together (docs/dynamodb-rules.md §11), so the joined text stands for the hashed
 * value. Undefined when the entity lacks one of the attributes (its items are not in the target).
 */
function partitionBindingOf(entity: Entity, keyAttributes: readonly string[]): KeyBinding | undefined {
  const sources = keyAttributes.map((name) => gsiKeySourceOf(entity, name));
  if (sources.length === 0 || sources.some((s) => s === undefined)) return undefined;
  if (sources.length === 1) return sources[0]?.binding ?? { template: sources[0]?.template ?? '' };
  const whens = sources.flatMap((s) => (s?.binding?.when && s.binding.when.trim() !== '' ? [s.binding.when] : []));
  return { template: sources.map((s) => s?.template ?? '').join(KEY_PART_SEPARATOR), ...(whens.length > 0 ? { when: whens.join(' AND ') } : {}) };
}

/**
 * The key space of one entity for one key attribute (a partition key of the table or a GSI), or
 * undefined when the entity has no (parseable) template for it. `items` is how many of the entity's
 * items the target holds.
 */
export function keySpaceOf(designEntity: Entity, keyAttribute: string | readonly string[], items: number, refs: EntityCounts): KeySpace | undefined {
  const entity = withEntityValueModel(designEntity);
  const binding = partitionBindingOf(entity, typeof keyAttribute === 'string' ? [keyAttribute] : keyAttribute);
  if (!binding) return undefined;
  const parsed = parseKeyTemplate(binding.template);
  if (!parsed.ok) return undefined;
  const template: KeyTemplate = parsed.value;
  const clauses = whenClauses(binding);
  const assumptions: string[] = [];
  const names = [...new Set(template.parts.filter((p) => p.kind === 'attribute').map((p) => p.name))];
  // An attribute inherited through a reference that is in the key too adds no keys (workload-stats).
  const tied = tiedAttributes(entity, names);
  const domains = names.filter((n) => !tied.has(n)).map((n) => domainOf(entity, n, clauses, refs, assumptions));
  const tiedDomains = [...tied].map(([name, via]) => {
    assumptions.push(`${entity.name}.${name} follows from ${via} (inherited through the reference): it adds no keys.`);
    return { via, domain: domainOf(entity, name, clauses, refs, []) };
  });

  // Enumerate the small domains' combinations, moving the biggest to "large" while there are too many.
  let small = domains.filter((d) => d.values !== undefined);
  const large = domains.filter((d) => d.values === undefined);
  const product = (list: Domain[]) => list.reduce((p, d) => p * d.count, 1);
  while (small.length > 0 && product(small) > MAX_COMBOS) {
    const biggest = small.reduce((a, b) => (b.count > a.count ? b : a));
    small = small.filter((d) => d !== biggest);
    large.push({ attribute: biggest.attribute, count: biggest.count, isTimeLike: biggest.isTimeLike, ...(biggest.source ? { source: biggest.source } : {}), ...(biggest.ranked ? { ranked: biggest.ranked } : {}) });
  }
  let combos: Combo[] = [{ values: {}, weight: 1 }];
  for (const d of small) {
    const next: Combo[] = [];
    for (const c of combos) for (const v of d.values ?? []) next.push({ values: { ...c.values, [d.attribute]: v.value }, weight: c.weight * v.weight });
    combos = next;
  }
  combos.sort((a, b) => b.weight - a.weight);

  const itemCap = Math.max(1, Math.floor(items));
  let members = product(large);
  if (combos.length * members > itemCap && members > 1) {
    members = Math.max(1, Math.floor(itemCap / combos.length));
    assumptions.push(`${entity.name}: ${binding.template} takes at most ${formatNumber(itemCap, 3)} values, one per item.`);
  }
  const shards = binding.shards?.count ?? 1;
  const memberShare = memberShareOf(large, members);
  const timeSmall = small.find((d) => d.isTimeLike);
  const hasTimeAttribute = domains.some((d) => d.isTimeLike);

  // Every pattern on the entity asks for the same top keys: each is rendered once (by its number
  // among the combinations, members and shards; a pinned time index is rare and goes by text).
  const rendered = new Map<number | string, string>();
  const render = (combo: number, member: number, shard: number, timeIndex?: number): string => {
    const id = timeIndex === undefined ? (combo * members + member) * shards + shard : `${combo} ${member} ${shard} ${timeIndex}`;
    let key = rendered.get(id);
    if (key === undefined) {
      key = renderKey(combo, member, shard, timeIndex);
      rendered.set(id, key);
    }
    return key;
  };
  const renderKey = (combo: number, member: number, shard: number, timeIndex?: number): string => {
    const values: Record<string, SampleValue> = { ...(combos[combo]?.values ?? {}) };
    // The rank each attribute's value has, so that an inherited attribute follows its reference's.
    const ranks = new Map<string, number>();
    for (const d of small) ranks.set(d.attribute, Math.max(0, (d.values ?? []).findIndex((v) => v.value === values[d.attribute])));
    let rest = member;
    for (const d of large) {
      if (d.isTimeLike && timeIndex !== undefined) {
        values[d.attribute] = largeValue(d, timeIndex);
        ranks.set(d.attribute, timeIndex);
        continue;
      }
      const size = Math.max(1, Math.min(d.count, members));
      values[d.attribute] = largeValue(d, rest % size);
      ranks.set(d.attribute, rest % size);
      rest = Math.floor(rest / size);
    }
    for (const { via, domain } of tiedDomains) {
      const r = ranks.get(via) ?? 0;
      const listed = domain.values;
      values[domain.attribute] = listed && listed.length > 0 ? (listed[r % listed.length]?.value ?? '') : largeValue(domain, r % Math.max(1, domain.count));
    }
    const text = renderKeyTemplate(template, values);
    const key = text.ok ? text.value : `${binding.template}#${combo}.${member}`;
    return shards > 1 ? `${key}.${shard + 1}` : key;
  };

  return {
    entityId: entity.id,
    entityName: entity.name,
    template: binding.template,
    items: Math.max(0, items),
    combos,
    membersPerCombo: members,
    shards,
    logicalKeys: combos.length * members,
    hasTimeAttribute,
    assumptions,
    ...(memberShare ? { memberShare } : {}),
    render,
    large,
    ...(timeSmall?.values?.[0] ? { timeAttribute: { name: timeSmall.attribute, newest: newestOf(timeSmall) } } : {}),
  };
}
