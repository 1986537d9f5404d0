/**
 * Candidates as the solver's answers: per pattern the request that serves it, its monthly cost, and
 * why it beat the alternatives, from the cheapest way the search priced each request shape for
 * that pattern in any candidate (`RequestLedger`).
 */
import type { Plan } from '../planner/index.ts';
import { patternMonthly, type Candidate } from './evaluate.ts';
import type { AppliedRule, PartitionRisk, PatternChoice, Proposal } from './types.ts';
import { formatUsd } from '../numbers/index.ts';

/** One request shape priced for a pattern: its cheapest monthly cost, and the layouts it was priced in. */
interface Alternative {
  usd: number;
  text: string;
  layout: string;
}

/** Per pattern, the cheapest way each request shape was priced, for "why this beat the alternatives". */
export class RequestLedger {
  private readonly byPattern = new Map<string, Map<string, Alternative>>();

  /** Notes the requests of a priced candidate's patterns (served ones and Scans). */
  note(candidate: Candidate): void {
    const onDemand = candidate.table.billing.mode === 'ON_DEMAND';
    candidate.patternCosts.forEach((cost) => {
      if (!cost.plan.isServed && cost.plan.operation !== 'Scan') return;
      const text = requestText(cost.plan);
      const perPattern = this.byPattern.get(cost.patternId) ?? new Map<string, Alternative>();
      this.byPattern.set(cost.patternId, perPattern);
      const value = patternMonthly(cost, onDemand);
      const was = perPattern.get(text);
      if (!was || value < was.usd) perPattern.set(text, { usd: value, text, layout: candidate.layouts.map((l) => l.text).join(' ') });
    });
  }

  /** The requests priced for a pattern other than `text`, cheapest first. */
  othersThan(patternId: string, text: string): Alternative[] {
    return [...(this.byPattern.get(patternId)?.values() ?? [])].filter((a) => a.text !== text).sort((a, b) => a.usd - b.usd || (a.text < b.text ? -1 : 1));
  }
}

/** How a plan reads, in a few words: `Query on the table (PK = :pk …)`. */
function requestText(plan: Plan): string {
  const on = plan.target.kind === 'table' ? 'the table' : `${plan.target.kind.toUpperCase()} ${plan.target.name}`;
  return `${plan.badge} on ${on}${plan.keyCondition ? ` (${plan.keyCondition})` : ''}`;
}


/** Candidate `c` as the proposal ranked `rank` for table `tableId`, with its finalist check when it had one. */
export function proposalOf(c: Candidate, rank: number, tableId: string, ledger: RequestLedger, risk?: PartitionRisk, extraRules: AppliedRule[] = []): Proposal {
  const onDemand = c.table.billing.mode === 'ON_DEMAND';
  const patterns: PatternChoice[] = c.patternCosts.map((cost) => {
    const mine = requestText(cost.plan);
    const usdHere = patternMonthly(cost, onDemand);
    const others = ledger.othersThan(cost.patternId, mine);
    const best = others[0];
    const why = !cost.plan.isServed && cost.plan.operation !== 'Scan'
      ? 'Not served: no layout the search tried serves it.'
      : best === undefined
        ? `${mine}: the only request the search found for it (${formatUsd(usdHere)}/month).`
        : Math.round(best.usd * 100) === Math.round(usdHere * 100)
          ? `${mine} at ${formatUsd(usdHere)}/month; ${best.text} costs the same for this pattern, and the design as a whole decided (its other patterns, indexes and storage).`
          : best.usd < usdHere
            ? `${mine} at ${formatUsd(usdHere)}/month; ${best.text} would cost ${formatUsd(best.usd)}/month for this pattern, but the design as a whole costs more that way (more indexes or index writes elsewhere).`
            : `${mine} at ${formatUsd(usdHere)}/month, against ${best.text} at ${formatUsd(best.usd)}/month${others.length > 1 ? ` (and ${others.length - 1} other request${others.length > 2 ? 's' : ''} priced)` : ''}.`;
    const choice: PatternChoice = { patternId: cost.patternId, name: cost.name, badge: cost.plan.badge, target: cost.plan.target.kind === 'table' ? 'table' : cost.plan.target.name, monthlyUsd: usdHere, why };
    if (cost.plan.keyCondition) choice.keyCondition = cost.plan.keyCondition;
    return choice;
  });
  const out: Proposal = {
    rank,
    design: c.design,
    tableId,
    monthlyUsd: c.monthlyUsd,
    gsiCount: c.table.globalSecondaryIndexes.length,
    feasible: c.feasible,
    problems: [...c.problems],
    rules: [...c.rules, ...extraRules],
    patterns,
  };
  if (risk) out.partitionRisk = risk;
  return out;
}
