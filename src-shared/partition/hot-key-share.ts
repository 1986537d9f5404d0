/**
 * The share of a pattern's requests on its hottest key, as the simulator would send them without a
 * stated `hotKeyShare` (docs/traffic.md): from its `traffic` distribution, or following the items as
 * the attributes' spreads (Zipf, hot values, enum weights) place them. What the pattern editor shows
 * as the default of the field.
 */
import { costPatterns, type PatternCost } from '../costing/index.ts';
import { withValueModel, type AccessPattern, type Design, type Table } from '../model/index.ts';
import { entityCountsOf } from '../planner/index.ts';
import { requestDistribution } from './load-sources.ts';
import { populate } from './population.ts';
import { targetSpecs } from './targets.ts';
import { trafficShares } from './traffic-shares.ts';

/** The hottest key of a pattern's requests and its share of them, 0–1. */
export interface HottestKeyShare {
  key: string;
  share: number;
}

/**
 * The key that takes the largest share of `patternId`'s requests on the table or GSI the request
 * goes to, with that share, the pattern's own `hotKeyShare` left out; undefined when the pattern is
 * not costed (no key design) or reaches no key (a Scan). `cost` is the pattern's cost when the
 * caller has it (the costs screen's), else it is costed here. Only that table or GSI's keys are
 * placed, the way the simulator places them (`populate`, `trafficShares`).
 */
export function impliedHottestKeyShare(design: Design, designTable: Table, patternId: string, cost?: PatternCost): HottestKeyShare | undefined {
  const index = designTable.accessPatterns.findIndex((p) => p.id === patternId);
  const stated = designTable.accessPatterns[index];
  if (!stated) return undefined;
  const { hotKeyShare: _left, ...pattern }: AccessPattern = stated;
  const costed = cost ?? costPatterns(designTable, design.pricing)[index];
  if (!costed || costed.needsKeyDesign !== undefined || costed.plan.operation === 'Scan') return undefined;
  const table = withValueModel(designTable);
  const entity = table.entities.find((e) => e.id === pattern.entityId);
  const onTarget = costed.kind === 'write' || costed.plan.target.kind !== 'gsi' ? 'table' : costed.plan.target.name;
  const spec = targetSpecs(table, []).find((s) => s.name === onTarget);
  if (!entity || !spec) return undefined;
  const population = populate(table, spec, entityCountsOf(table), undefined, []);
  const space = population.spaces.get(entity.id);
  if (!space) return undefined;
  // A key named twice (a write shard, a repeated rank) adds up, as the simulator's registry does.
  const keys: string[] = [];
  const indexOf = new Map<string, number>();
  const shares = trafficShares(space, requestDistribution(pattern, costed, spec, entity), (text) => {
    let i = indexOf.get(text);
    if (i === undefined) indexOf.set(text, (i = keys.push(text) - 1));
    return i;
  });
  const summed = new Map<number, number>();
  for (const k of shares.keys) summed.set(k.key, (summed.get(k.key) ?? 0) + k.share);
  let best: HottestKeyShare | undefined;
  for (const [k, share] of summed) if (!best || share > best.share) best = { key: keys[k] ?? '', share };
  return best;
}
