/**
 * The share of a pattern's requests on its hottest key, as the simulator would send them without a
 * stated `hotKeyShare` (docs/traffic.md): from its `traffic` distribution, or following the items as
 * the attributes' spreads (Zipf, hot values, enum weights) place them. What the pattern editor shows
 * as the default of the field.
 */
import { costPatterns } from '../costing/index.ts';
import type { Design, Table } from '../model/index.ts';
import { buildSimulationModel } from './model.ts';

/** The hottest key of a pattern's requests and its share of them, 0–1. */
export interface HottestKeyShare {
  key: string;
  share: number;
}

/**
 * The key that takes the largest share of `patternId`'s requests on the table or GSI the request
 * goes to, with that share, the pattern's own `hotKeyShare` left out; undefined when the pattern is
 * not costed (no key design) or reaches no key (a Scan).
 */
export function impliedHottestKeyShare(design: Design, table: Table, patternId: string): HottestKeyShare | undefined {
  const index = table.accessPatterns.findIndex((p) => p.id === patternId);
  const pattern = table.accessPatterns[index];
  if (!pattern) return undefined;
  const { hotKeyShare: _stated, ...rest } = pattern;
  const without: Table = { ...table, accessPatterns: table.accessPatterns.map((p, i) => (i === index ? rest : p)) };
  const cost = costPatterns(without, design.pricing)[index];
  if (!cost || cost.needsKeyDesign !== undefined || cost.plan.operation === 'Scan') return undefined;
  const onTarget = cost.kind === 'write' || cost.plan.target.kind !== 'gsi' ? 'table' : cost.plan.target.name;
  const model = buildSimulationModel(design, without);
  const target = model.targets.find((t) => t.name === onTarget);
  const source = target?.sources.find((s) => s.patternIndex === index);
  if (!target || !source) return undefined;
  let best: HottestKeyShare | undefined;
  for (const k of source.keys) if (!best || k.share > best.share) best = { key: target.keys[k.key]?.key ?? '', share: k.share };
  return best;
}
