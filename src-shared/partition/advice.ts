/**
 * What to do about a hot key, from a finished run: which table or GSI and which key to look at
 * first (the ones that throttle most), a key redesign when the entity has a higher-cardinality
 * attribute that could join the key, and only then write sharding from the key's peak
 * (docs/dynamodb-rules.md §5). Pure: the UI and the CLI both call it.
 */
import { parseKeyTemplate, bindingOf, kindOf, partitionKeysOf } from '../model/index.ts';
import type { AccessPattern, Attribute, Entity, Table } from '../model/index.ts';
import { indexFraction } from '../capacity/index.ts';
import { entityCountsOf } from '../planner/index.ts';
import { isTimeLike, keySpaceOf } from './key-space.ts';
import { DEFAULT_PARTITION_LIMITS, partitionUtilization, SPLIT_UTILIZATION, type PartitionLimitModel } from './limits.ts';
import type { HotKey, SimulationResult, TargetResult } from './types.ts';
import { formatCount } from '../numbers/index.ts';

/** The target and key a what-if should start from. */
export interface WhatIfFocus {
  /** `table` or a GSI name. */
  targetName: string;
  /** The key that throttles most there (else the hottest key), when there is one. */
  key?: HotKey;
}

const throttledRequests = (t: TargetResult) => t.throttles.reduce((s, x) => s + x.requests, 0);

/**
 * The table or GSI whose requests throttle most (its own partitions' throttles; back-pressure a GSI
 * puts on the table counts for the GSI), then its worst throttled key; without throttling, the
 * target with the largest partition share and its hottest key.
 */
export function whatIfFocus(result: SimulationResult): WhatIfFocus | undefined {
  const own = (t: TargetResult) => throttledRequests(t) - (t.kind === 'table' ? t.throttles.filter((x) => x.reason.startsWith('Index')).reduce((s, x) => s + x.requests, 0) : 0);
  const ranked = [...result.targets].sort((a, b) => own(b) - own(a) || b.largestShare - a.largestShare);
  const target = ranked[0];
  if (!target) return undefined;
  const key = target.throttledKeys[0] ?? target.hottestKeys[0];
  return { targetName: target.name, ...(key ? { key } : {}) };
}

/** A higher-cardinality attribute that could join a hot partition key. */
export interface KeyRedesign {
  entityId: string;
  /** The key attribute (`PK`, `GSI1PK`) and its template now. */
  keyAttribute: string;
  template: string;
  /** Distinct values the key takes now, and with the attribute added. */
  distinctNow: number;
  attribute: string;
  distinctWith: number;
  /** The template with the attribute appended. */
  suggestedTemplate: string;
  /** Patterns that address this key today without knowing the attribute: they would need another key or index. */
  patternsWithout: string[];
  /** One sentence for the user. */
  explanation: string;
}

const SCALAR_TYPES = new Set(['S', 'N', 'B']);

/** An identifier by its name: `id`, `uuid`, or a name ending in `Id`, `ID`, `Uuid`, `_id`, `-id` (`eventId`, `order_id`; not `paid`). */
const isIdName = (name: string) => /^(id|uuid|guid)$/i.test(name) || /[a-z0-9](Id|ID|Uuid|UUID|Guid)$/.test(name) || /[_-](id|uuid|guid)$/i.test(name);

/**
 * Attributes that make sense in a key: a stated cardinality, an id, uuid, reference, enum or number
 * generator, or a name that says it is an identifier. Free text, payloads and dates or timestamps
 * (new items would crowd the newest value) are left out.
 */
function isKeyLike(a: Attribute): boolean {
  if (isTimeLike(a, a.name)) return false;
  if (a.cardinality !== undefined || isIdName(a.name)) return true;
  const kind = a.generator?.kind;
  // Without a generator, an identifier by its name (userid) is taken as one.
  if (kind === undefined) return /id$/i.test(a.name);
  return kind === 'id' || kind === 'uuid' || kind === 'ref' || kind === 'enum' || kind === 'number';
}

/**
 * Whether a key is under enough pressure for a redesign to be worth naming: some of its load
 * throttled, or its busiest second took over 80% of one partition's limit (the level at which
 * split for heat starts to act, docs/dynamodb-rules.md §10.3).
 */
export function isKeyUnderPressure(key: HotKey, limits: PartitionLimitModel = DEFAULT_PARTITION_LIMITS): boolean {
  return key.throttledFraction > 0 || partitionUtilization(key.peakReadUnitsPerSecond, key.peakWriteUnitsPerSecond, limits) > SPLIT_UTILIZATION;
}

/** Whether a pattern addresses items by this key (it knows every attribute of the template); puts carry every attribute. */
const addressesKey = (p: AccessPattern, attributes: string[]) => !kindOf(p.action).creates && attributes.every((a) => p.known.includes(a));

/** What `keyRedesignFor` weighs besides the design. */
export interface KeyRedesignOptions {
  /** The key from a run: without throttling and with a peak under 80% of a partition's limit, no redesign is named. */
  key?: HotKey;
  /** The run's partition limits, for that peak. */
  limits?: PartitionLimitModel;
}

/**
 * A key redesign for `entityId`'s key on `targetName` (`table` or a GSI): the scalar attribute of
 * the entity, not yet in the key, that gives the most distinct values (at least twice the key's now),
 * preferring one that every pattern addressing the key already knows. Distinct values are counted in
 * that target: a sparse GSI holds only the items its `when` keeps, and only the key values they have.
 * Undefined when the entity has no such attribute, or when `options.key` is under no pressure.
 */
export function keyRedesignFor(table: Table, targetName: string, entityId: string, options: KeyRedesignOptions = {}): KeyRedesign | undefined {
  if (options.key && !isKeyUnderPressure(options.key, options.limits)) return undefined;
  const gsi = targetName === 'table' ? undefined : table.globalSecondaryIndexes.find((g) => g.name === targetName);
  // A multi-attribute partition key is redesigned by adding an attribute to its list, not by
  // rewriting a template: no template redesign is offered for it.
  if (gsi && partitionKeysOf(gsi).length !== 1) return undefined;
  const keyAttribute = targetName === 'table' ? table.partitionKey.name : gsi && partitionKeysOf(gsi)[0]?.name;
  const entity: Entity | undefined = table.entities.find((e) => e.id === entityId);
  if (!keyAttribute || !entity) return undefined;
  const binding = bindingOf(entity, keyAttribute);
  if (!binding) return undefined;
  const parsed = parseKeyTemplate(binding.template);
  if (!parsed.ok) return undefined;
  const inKey = parsed.value.parts.flatMap((p) => (p.kind === 'attribute' ? [p.name] : []));
  const refs = entityCountsOf(table);
  // The entity's items in this target (a sparse GSI holds some), and the key values they take there.
  const itemCount = Number.isFinite(entity.itemCount) && entity.itemCount > 0 ? entity.itemCount : 0;
  const items = targetName === 'table' ? itemCount : itemCount * indexFraction(table, entity, targetName).value;
  const distinctIn = (template: string) => keySpaceOf({ ...entity, keys: { ...entity.keys, [keyAttribute]: { ...binding, template } } }, keyAttribute, items, refs)?.logicalKeys ?? 0;
  const distinctNow = distinctIn(binding.template);
  if (!(distinctNow > 0)) return undefined;
  const addressing = table.accessPatterns.filter((p) => p.entityId === entity.id && addressesKey(p, inKey));
  const candidates = entity.attributes
    .filter((a) => SCALAR_TYPES.has(a.type) && !inKey.includes(a.name) && isKeyLike(a))
    .map((a) => {
      const distinctWith = distinctIn(`${binding.template}#{${a.name}}`);
      const patternsWithout = addressing.filter((p) => !p.known.includes(a.name)).map((p) => p.name);
      // An attribute unique per item leaves every item alone under its key: no item collections left.
      return { attribute: a.name, distinctWith, patternsWithout, isUnique: distinctWith >= Math.floor(Math.max(1, items)) };
    })
    .filter((c) => c.distinctWith >= 2 * distinctNow)
    .sort(
      (a, b) =>
        a.patternsWithout.length - b.patternsWithout.length ||
        Number(a.isUnique) - Number(b.isUnique) ||
        b.distinctWith - a.distinctWith ||
        (a.attribute < b.attribute ? -1 : 1),
    );
  const best = candidates[0];
  if (!best) return undefined;
  const suggestedTemplate = `${binding.template}#{${best.attribute}}`;
  const cost =
    best.patternsWithout.length === 0
      ? 'every pattern that reads this key already knows it, so no read fans out'
      : `${best.patternsWithout.map((n) => `"${n}"`).join(', ')} ${best.patternsWithout.length === 1 ? 'does' : 'do'} not know ${best.attribute} and would need another key or index`;
  return {
    entityId: entity.id,
    keyAttribute,
    template: binding.template,
    distinctNow,
    attribute: best.attribute,
    distinctWith: best.distinctWith,
    suggestedTemplate,
    patternsWithout: best.patternsWithout,
    explanation: `Before sharding, consider a higher-cardinality key: ${keyAttribute} = ${suggestedTemplate} takes about ${formatCount(best.distinctWith)} values instead of ${formatCount(distinctNow)}; ${cost}.`,
  };
}

/** A key is hot when it carries more than this many times the mean key load. */
export const HOT_KEY_FACTOR = 2;

/** The mean key's share of a target's load: 1 ÷ its keys with traffic (named and background); 0 with none. */
export function meanKeyShare(target: TargetResult): number {
  const keys = target.keysWithTraffic.named + target.keysWithTraffic.background;
  return keys > 0 ? 1 / keys : 0;
}

/**
 * The hottest keys that are hot: those of `target.hottestKeys` carrying more than `HOT_KEY_FACTOR`
 * × the mean key load, or throttled while carrying at least the mean (a key holding all of a
 * target's traffic is its mean, and can still be too much for one partition; a quiet key throttled
 * beside a hot one is listed with the throttled keys, not here), ranked as the report ranks them. Empty when no key is hot,
 * so a screen says so rather than listing the keys of an even spread as its hottest.
 */
export function hotKeysOf(target: TargetResult): HotKey[] {
  const mean = meanKeyShare(target);
  return target.hottestKeys.filter((k) => k.share > HOT_KEY_FACTOR * mean * (1 + 1e-9) || (k.throttledFraction > 0 && k.share >= mean * (1 - 1e-9)));
}
