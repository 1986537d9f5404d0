/**
 * The share of an entity's items a key target (the table, a GSI, an LSI) holds: the items that carry
 * every optional attribute its key templates are built from, times the share for which its `when`
 * conditions hold among those. The one computation behind the planner's membership, the cost
 * engine's index fraction and the Entities screen's index text.
 */
import { formatCondition, type Condition } from '../model/index.ts';
import type { Entity } from '../model/index.ts';
import { presenceOf, shareOf, type EntityCounts } from './counts.ts';

/** One factor of a membership share: an optional key attribute, or one attribute's `when` clauses. */
export interface MembershipFactor {
  kind: 'presence' | 'condition';
  /** The optional attribute (`bracket`), or the clauses as condition source (`status = "OPEN"`). */
  text: string;
  /** Its share, 0–1: of all items (presence), or of those that carry the key's attributes (condition). */
  fraction: number;
  /** Why: `its presence`, the value model's basis (`the generator's weights`). */
  basis: string;
}

/** A target's share of an entity's items, and its factors in the order they multiply. */
export interface MembershipShare {
  fraction: number;
  factors: MembershipFactor[];
}

/**
 * The share of `entity`'s items a target holds (`entity` with its value model: `withValueModel`):
 * Π presence of the optional attributes in `keyAttributes` (an item without one has no key there,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-indexes-general-sparse-indexes.html)
 * × Π over `conditions` of their share among those items (`shareOf`; an attribute the key does not
 * need counts its items without it as the condition decides). A clause repeated is counted once.
 */
export function membershipShareOf(entity: Entity, conditions: readonly Condition[], keyAttributes: readonly string[], refs?: EntityCounts): MembershipShare {
  const factors: MembershipFactor[] = [];
  const carried = new Set(keyAttributes);
  // Every condition must hold: their clauses ANDed, a clause repeated in two of them counted once.
  const seen = new Set<string>();
  const clauses = conditions.flatMap((c) => c.clauses).filter((c) => {
    const text = formatCondition([c]);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
  let fraction = 1;
  if (clauses.length > 0) {
    for (const part of shareOf(entity, { source: formatCondition(clauses), clauses }, refs, carried).parts) {
      fraction *= part.fraction;
      factors.push({ kind: 'condition', text: part.text, fraction: part.fraction, basis: part.basis });
    }
  }
  for (const name of carried) {
    const p = presenceOf(entity.attributes.find((a) => a.name === name));
    if (p >= 1) continue;
    fraction *= p;
    factors.push({ kind: 'presence', text: name, fraction: p, basis: 'its presence in the value model' });
  }
  return { fraction, factors };
}
