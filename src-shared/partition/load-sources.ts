/**
 * Where each pattern's load lands on one target: per pattern the read or write units per call the
 * cost engine charges this target, on the keys its traffic distribution picks (traffic-shares.ts)
 * and the background; a Scan on every partition in proportion to the data it holds.
 */
import type { PatternCost } from '../costing/index.ts';
import { busiestRatePerSecond, parseKeyTemplate, gsiKeySourceOf, kindOf, templateAttributes } from '../model/index.ts';
import type { AccessPattern, Distribution, Entity, Table } from '../model/index.ts';
import { isTimeLike, type KeySpace } from './key-space.ts';
import type { LoadSource, ModelKey, PatternModel } from './types.ts';
import type { Population } from './population.ts';
import type { TargetSpec } from './targets.ts';
import { mergeShares, trafficShares } from './traffic-shares.ts';

/** Whether the entity's sort key in this target starts with a date or timestamp: new items sort last. */
function hasTimeOrderedSortKey(entity: Entity, sortKey: string | undefined): boolean {
  if (sortKey === undefined) return false;
  const source = gsiKeySourceOf(entity, sortKey);
  if (!source) return false;
  const parsed = parseKeyTemplate(source.template);
  if (!parsed.ok) return false;
  const first = parsed.value.parts.find((p) => p.kind === 'attribute');
  return first?.kind === 'attribute' && isTimeLike(entity.attributes.find((a) => a.name === first.name), first.name);
}

/** The attributes the entity's partition key on this target is built from (none when it is not in it). */
function partitionKeyAttributes(entity: Entity, spec: TargetSpec): string[] {
  return spec.partitionKeys.flatMap((key) => {
    const source = gsiKeySourceOf(entity, key);
    const parsed = source ? parseKeyTemplate(source.template) : undefined;
    return parsed?.ok ? templateAttributes(parsed.value) : [];
  });
}

/**
 * How a pattern's requests spread over this target's keys (docs/traffic.md): its stated hottest-key
 * share (`hotKeyShare`, one hot key taking that share) or `traffic`, on the key the request goes to
 * (a read's table or index; a write's table item) and on any other key built only from the
 * attributes the request names. Elsewhere (the index entries a write moves, the table fetches after an
 * index read) undefined: the load follows the items, as their attributes' spreads say, so a hot
 * request key does not make every index key of the item hot.
 */
export function requestDistribution(pattern: AccessPattern, cost: PatternCost, spec: TargetSpec, entity: Entity): Distribution | undefined {
  const stated: Distribution | undefined = pattern.hotKeyShare !== undefined ? { kind: 'hotKey', share: pattern.hotKeyShare } : pattern.traffic;
  if (!stated) return undefined;
  const target = cost.plan.target;
  const isRequestTarget = cost.kind === 'write' || target.kind !== 'gsi' ? spec.kind === 'table' : spec.kind === 'gsi' && spec.name === target.name;
  if (isRequestTarget) return stated;
  const attributes = partitionKeyAttributes(entity, spec);
  return attributes.length > 0 && attributes.every((a) => pattern.known.includes(a)) ? stated : undefined;
}

/** The bytes a target stores: its explicit keys' and its background's. */
export function storedBytes(population: Population): number {
  return population.registry.keys.reduce((s, k) => s + k.bytes, 0) + population.background.bytes;
}

/**
 * The load sources of one target (`spec`), in pattern order. Keys a pattern's traffic picks that
 * were background are taken out of it, with their items and bytes; notes on a distribution go to
 * `assumptions`.
 */
export function loadSources(table: Table, spec: TargetSpec, population: Population, costs: readonly PatternCost[], patterns: readonly PatternModel[], assumptions: string[]): LoadSource[] {
  const { registry, background } = population;
  const sources: LoadSource[] = [];
  const scans: { patternIndex: number; kind: 'read' | 'write'; unitsPerCall: number }[] = [];
  const onTarget = (t: 'table' | { gsi: string }) => (spec.kind === 'table' ? t === 'table' : typeof t === 'object' && t.gsi === spec.name);
  // The patterns on one entity mostly share a distribution: each (key space, distribution) is
  // worked out once; again it would find every key already tracked and give the same shares.
  const sharesOf = new Map<KeySpace, Map<string, ReturnType<typeof trafficShares>>>();

  costs.forEach((cost, patternIndex) => {
    const pattern = table.accessPatterns[patternIndex] as AccessPattern;
    const rate = patterns[patternIndex]?.ratePerSecond ?? 0;
    if (rate <= 0) return;
    // The costs charge each target at the pattern's busiest minute (docs/traffic.md): per call, divide by that rate.
    const costedRate = busiestRatePerSecond(pattern);
    for (const c of cost.consumption.filter((x) => onTarget(x.target))) {
      const units = cost.kind === 'read' ? c.readUnitsPerSecond : c.writeUnitsPerSecond;
      if (!(units > 0)) continue;
      const unitsPerCall = units / costedRate;
      if (cost.plan.operation === 'Scan') {
        scans.push({ patternIndex, kind: cost.kind, unitsPerCall });
        continue;
      }
      const entity = table.entities.find((e) => e.id === pattern.entityId);
      // Reads on an LSI use the table's partition key, like the table's own reads.
      const space = entity ? population.spaces.get(entity.id) : undefined;
      if (!entity || !space) {
        // A write on an entity without a key here (should not be charged) or an unknown entity: spread it.
        sources.push({ patternIndex, kind: cost.kind, unitsPerCall, keys: [], background: 1, isMonotonic: false });
        continue;
      }
      const perItem = population.bytesPerItem.get(entity.id) ?? 0;
      const add = (text: string, itemShare: number): number => {
        const known = registry.indexOf(text);
        if (known !== undefined) {
          const k = registry.keys[known] as ModelKey;
          if (k.entityId === undefined) k.entityId = entity.id;
          return known;
        }
        // A key taken out of the background to be tracked by name carries its items with it.
        const items = space.items * itemShare;
        const moved = Math.min(items, background.items);
        background.items -= moved;
        background.bytes = Math.max(0, background.bytes - moved * perItem);
        background.keys = Math.max(0, background.keys - 1);
        return registry.add(text, moved, moved * perItem, entity.id);
      };
      const traffic = requestDistribution(pattern, cost, spec, entity);
      const distribution = JSON.stringify(traffic ?? null);
      let bySpace = sharesOf.get(space);
      if (!bySpace) sharesOf.set(space, (bySpace = new Map()));
      let shares = bySpace.get(distribution);
      if (!shares) bySpace.set(distribution, (shares = trafficShares(space, traffic, add)));
      if (shares.note && !assumptions.includes(shares.note)) assumptions.push(shares.note);
      const isMonotonic = pattern.traffic?.kind === 'today' || (kindOf(pattern.action).creates && hasTimeOrderedSortKey(entity, spec.sortKey));
      sources.push({ patternIndex, kind: cost.kind, unitsPerCall, keys: mergeShares(shares.keys), background: shares.background, isMonotonic });
    }
  });

  // A Scan reads every partition in proportion to the data it holds.
  const totalBytes = storedBytes(population);
  for (const scan of scans) {
    const keys = totalBytes > 0 ? registry.keys.map((k, key) => ({ key, share: k.bytes / totalBytes })).filter((k) => k.share > 0) : [];
    sources.push({ ...scan, keys, background: totalBytes > 0 ? background.bytes / totalBytes : 1, isMonotonic: false });
  }
  sources.sort((a, b) => a.patternIndex - b.patternIndex);
  return sources;
}
