/**
 * What a read implies about a sparse target's `when` conditions: whether the pattern only asks for
 * items the target holds (then the target is complete for it), and which filter clauses only repeat
 * the target's own condition (every entry holds them, so none is sent).
 */
import { evaluateCondition, type Condition, type ConditionClause, type ConditionValue } from '../model/index.ts';
import { valuesAllowedBy } from './count-estimate.ts';
import type { ReadRequest } from './read-request.ts';

/** Whether an item whose `clause.attribute` is `value` meets the clause. */
function holdsFor(clause: ConditionClause, value: ConditionValue): boolean {
  return evaluateCondition({ source: '', clauses: [clause] }, { [clause.attribute]: value });
}

/** Whether every item meeting `conditions` meets the clause: the clause only repeats the target's `when`. */
export function isClauseImpliedBy(clause: ConditionClause, conditions: readonly Condition[]): boolean {
  return conditions.some((c) =>
    c.clauses.some((w) => {
      if (w.attribute !== clause.attribute) return false;
      const allowed = valuesAllowedBy(w);
      return allowed !== undefined && allowed.every((v) => holdsFor(clause, v));
    }),
  );
}

/** Whether the pattern only asks for items a sparse target holds: its filter (or known) implies every `when`. */
export function isConditionImplied(conditions: readonly Condition[], request: ReadRequest): boolean {
  const filterClauses = request.filter?.clauses ?? [];
  return conditions.every((c) =>
    c.clauses.every((clause) => {
      if (clause.kind === 'exists' && request.known.has(clause.attribute)) return true;
      return filterClauses.some((f) => {
        if (f.attribute !== clause.attribute) return false;
        const allowed = valuesAllowedBy(f);
        if (allowed) return allowed.every((v) => holdsFor(clause, v));
        return clause.kind === 'exists' && f.kind === 'compare' && f.operator !== '<>';
      });
    }),
  );
}
