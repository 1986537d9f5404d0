/**
 * The key-design solver: given a table's entities and access patterns, proposes the best complete
 * single-table key designs (docs/dynamodb-rules.md §13).
 *
 * Search. Each entity has a few candidate layouts (`layouts.ts`: its own partition, or the item
 * collection of each parent a pattern lists it under, ordered by each attribute a pattern ranges
 * over). A candidate is one layout per entity, completed with the indexes the planner suggests for
 * the reads the table's key leaves unserved (overloading an existing GSI where its shape fits),
 * sparse conditions and projections, then priced by the cost engine (`evaluate.ts`).
 * - The first candidate is every entity in its first layout: a complete design at once.
 * - Up to `EXHAUSTIVE_LIMIT` combinations, every one is priced, in an order the seed shuffles.
 * - Beyond, a local search: from the best so far, each entity's other layouts in a seeded order, the
 *   improvements kept, then seeded random restarts, until the time budget ends.
 * Candidates are ranked feasible first, then by monthly cost, then by fewer GSIs, then by their
 * signature (so ties break the same way every run).
 *
 * Finalists. The best `top` candidates are checked by the partition simulator over the design's
 * workload; a key over a partition's limit is sharded by the simulator's advice and checked again;
 * a key still over it is infeasible unless `allowThrottling`. Throttling with no key over a
 * partition's limit (capacity at the workload's peaks) is the same for every key design: reported
 * in the partition risk, not held against the proposal.
 *
 * Anytime: `createSolver` returns a solver to `step` (a few candidates each) while reading its
 * `progress()` and `result()` (the best so far) between steps; `solve` runs it to the end.
 * Deterministic for a design, options and seed (the clock only decides where a time-limited search
 * stops).
 */
import { costedTable } from '../costing/index.ts';
import type { Design, KeyBinding, Table } from '../model/schema.ts';
import { createRandom, simulate, type Random } from '../partition/index.ts';
import { planTable } from '../planner/index.ts';
import type { Plan } from '../planner/types.ts';
import { baseTable, evaluate, patternMonthly, price, type Candidate, type IndexKeying } from './evaluate.ts';
import { attributesOf, layoutsOf, type Layout } from './layouts.ts';
import { DEFAULT_HEADROOM, DEFAULT_MAX_GSIS, DEFAULT_TIME_BUDGET_MS, DEFAULT_TOP, type AppliedRule, type PartitionRisk, type PatternChoice, type Proposal, type SolveOptions, type SolveProgress, type SolveResult } from './types.ts';

/** Up to this many layout combinations, the search prices every one. */
export const EXHAUSTIVE_LIMIT = 2_048;
/** Rounds of sharding a finalist's throttled keys, at most. */
const MAX_SHARD_ROUNDS = 3;
/** The most shards the solver proposes for one key (its simulations grow with the keys). */
const MAX_SHARDS = 100;
/** The finalists' simulations stop once the time used passes this multiple of the budget. */
const FINALIST_BUDGET_SHARE = 1.2;
/** Random restarts of the local search, at most. */
const MAX_RESTARTS = 64;

/** A solver to step: the host steps it in a worker, reporting progress and stopping on cancel. */
export interface Solver {
  /** Prices a few more candidates (or runs the finalists); false when the search is over. */
  step(): boolean;
  progress(): SolveProgress;
  /** The best proposals so far (complete designs at every moment after the first step). */
  result(): SolveResult;
}

const monotonicNow = (): number => (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

/**
 * Ranks candidates: feasible first, then cheaper (to the cent), fewer GSIs, fewer reads per second
 * through an index, then by signature.
 */
function compare(a: Candidate, b: Candidate): number {
  if (a.feasible !== b.feasible) return a.feasible ? -1 : 1;
  const cents = Math.round(a.monthlyUsd * 100) - Math.round(b.monthlyUsd * 100);
  if (cents !== 0) return cents;
  const g = a.table.globalSecondaryIndexes.length - b.table.globalSecondaryIndexes.length;
  if (g !== 0) return g;
  if (a.indexReadRate !== b.indexReadRate) return a.indexReadRate - b.indexReadRate;
  return a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0;
}

/**
 * What a finalist's throttling is when no key's own peak is over a partition's limit: the
 * workload's peaks against capacity (provisioned units sized to the rates, partitions that many
 * light keys share until split for heat divides them, an on-demand maximum or quota), which every
 * key design meets alike. Said before the simulator's summary.
 */
function capacityThrottling(reasons: ReadonlySet<string>): string {
  const has = (suffix: string) => [...reasons].some((r) => r.endsWith(suffix));
  const causes: string[] = [];
  if (has('ProvisionedThroughputExceeded')) causes.push('provisioned capacity sized to the patterns\' rates is below the workload\'s peaks (provision for the peak, let auto scaling follow it, or run on-demand)');
  if (has('KeyRangeThroughputExceeded')) causes.push('partitions that many light keys share run over their limits at the workload\'s peaks until split for heat divides them (pre-warm the table with warm throughput for the peak)');
  if (has('MaxOnDemandThroughputExceeded') || has('AccountLimitExceeded')) causes.push('the on-demand maximum or the account\'s table quota is below the peaks (raise it)');
  const what = causes.length > 0 ? causes.join('; ') : 'the workload\'s peaks exceed the capacity';
  return `No key of this design is over a partition's limit on its own, so every key design would throttle alike: ${what}.`;
}

/** Fisher–Yates with the seeded generator. */
function shuffle<T>(items: T[], random: Random): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** How a plan reads, in a few words: `Query on the table (PK = :pk …)`. */
function requestText(plan: Plan): string {
  const on = plan.target.kind === 'table' ? 'the table' : `${plan.target.kind.toUpperCase()} ${plan.target.name}`;
  return `${plan.badge} on ${on}${plan.keyCondition ? ` (${plan.keyCondition})` : ''}`;
}

const usd = (n: number): string => `$${n < 10 ? n.toFixed(2) : Math.round(n).toLocaleString('en-US')}`;

export function createSolver(design: Design, tableId: string, options: SolveOptions = {}): Solver {
  const table = design.tables.find((t) => t.id === tableId);
  if (!table) throw new Error(`Design "${design.name}" has no table with id "${tableId}".`);
  const now = options.now ?? monotonicNow;
  const started = now();
  const budget = options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS;
  const top = Math.max(1, options.top ?? DEFAULT_TOP);
  const settings: SolveOptions = { ...options, maxGsis: Math.min(20, Math.max(0, options.maxGsis ?? DEFAULT_MAX_GSIS)) };
  const random = createRandom(options.seed ?? 1);
  const base = baseTable(table, settings);
  const choices: Layout[][] = base.entities.map((e) => layoutsOf(table, e, settings.keepTableKey === true));
  const keyings: IndexKeying[] = ['synthetic', 'natural'];
  // A combination: one layout index per entity, then the keying of new GSIs.
  const radix = [...choices.map((c) => c.length), keyings.length];
  const total = radix.reduce((n, c) => n * c, 1);
  // Unserved reads get indexes busiest first; equal rates in the table's order.
  const byRate = base.accessPatterns.map((p, i) => ({ i, rate: Number.isFinite(p.ratePerSecond) ? p.ratePerSecond : 0 })).sort((a, b) => b.rate - a.rate || a.i - b.i).map((x) => x.i);

  const seen = new Map<string, Candidate>();
  const ranked: Candidate[] = [];
  let evaluated = 0;
  let firstDesignMs = -1;
  let phase: SolveProgress['phase'] = 'layouts';
  let stoppedEarly = false;
  let finalists: Proposal[] | undefined;
  // Per pattern, the cheapest way each request shape was priced, for "why this beat the alternatives".
  const alternatives = new Map<string, Map<string, { usd: number; text: string; layout: string }>>();

  const comboKey = (combo: readonly number[]): string => combo.join(',');
  const layoutsFor = (combo: readonly number[]): Layout[] => choices.map((c, e) => c[combo[e]!]!);
  const keyingOf = (combo: readonly number[]): IndexKeying => keyings[combo[choices.length]!]!;

  function record(candidate: Candidate): void {
    const onDemand = candidate.table.billing.mode === 'ON_DEMAND';
    candidate.patternCosts.forEach((cost) => {
      if (!cost.plan.isServed && cost.plan.operation !== 'Scan') return;
      const text = requestText(cost.plan);
      const perPattern = alternatives.get(cost.patternId) ?? new Map();
      alternatives.set(cost.patternId, perPattern);
      const value = patternMonthly(cost, onDemand);
      const was = perPattern.get(text);
      if (!was || value < was.usd) perPattern.set(text, { usd: value, text, layout: candidate.layouts.map((l) => l.text).join(' ') });
    });
    if (ranked.some((r) => r.signature === candidate.signature)) return;
    ranked.push(candidate);
    ranked.sort(compare);
    if (ranked.length > top * 4) ranked.length = top * 4;
  }

  function price_(combo: readonly number[]): Candidate {
    const key = comboKey(combo);
    const known = seen.get(key);
    if (known) return known;
    const candidate = evaluate(design, base, layoutsFor(combo), settings, byRate, keyingOf(combo));
    seen.set(key, candidate);
    evaluated += 1;
    if (firstDesignMs < 0) firstDesignMs = now() - started;
    record(candidate);
    return candidate;
  }

  // The order combinations are priced in.
  const queue: number[][] = [];
  const first = radix.map(() => 0);
  queue.push(first);
  const exhaustive = total <= EXHAUSTIVE_LIMIT;
  if (exhaustive) {
    const all: number[][] = [];
    const combo = radix.map(() => 0);
    for (let n = 0; n < total; n += 1) {
      if (n > 0) all.push([...combo]);
      for (let e = 0; e < combo.length; e += 1) {
        combo[e]! += 1;
        if (combo[e]! < radix[e]!) break;
        combo[e] = 0;
      }
    }
    queue.push(...shuffle(all, random));
  }
  let restarts = 0;
  let sweepFrom: number[] | undefined;

  /** The local search's next combinations: every one-entity change of the best so far, then a random restart. */
  function refill(): boolean {
    if (restarts >= MAX_RESTARTS) return false;
    const best = ranked[0];
    const from = best ? [...choices.map((c, e) => c.indexOf(best.layouts[e]!)), keyings.indexOf(best.keying)] : first;
    const isSame = sweepFrom !== undefined && comboKey(sweepFrom) === comboKey(from);
    if (!isSame) {
      sweepFrom = from;
      const moves: number[][] = [];
      for (const e of shuffle(radix.map((_, i) => i), random)) {
        for (let c = 0; c < radix[e]!; c += 1) if (c !== from[e]) moves.push(from.map((x, i) => (i === e ? c : x)));
      }
      const fresh = moves.filter((m) => !seen.has(comboKey(m)));
      if (fresh.length > 0) {
        queue.push(...fresh);
        return true;
      }
    }
    restarts += 1;
    queue.push(radix.map((n) => Math.floor(random() * n)));
    sweepFrom = undefined;
    return true;
  }

  function proposalsOf(candidates: readonly Candidate[]): Proposal[] {
    return candidates.map((c, i) => proposal(c, i + 1));
  }

  function proposal(c: Candidate, rank: number, risk?: PartitionRisk, extraRules: AppliedRule[] = []): Proposal {
    const onDemand = c.table.billing.mode === 'ON_DEMAND';
    const patterns: PatternChoice[] = c.patternCosts.map((cost) => {
      const mine = requestText(cost.plan);
      const usdHere = patternMonthly(cost, onDemand);
      const others = [...(alternatives.get(cost.patternId)?.values() ?? [])].filter((a) => a.text !== mine).sort((a, b) => a.usd - b.usd || (a.text < b.text ? -1 : 1));
      const best = others[0];
      const why = !cost.plan.isServed && cost.plan.operation !== 'Scan'
        ? 'Not served: no layout the search tried serves it.'
        : best === undefined
          ? `${mine}: the only request the search found for it (${usd(usdHere)}/month).`
          : Math.round(best.usd * 100) === Math.round(usdHere * 100)
            ? `${mine} at ${usd(usdHere)}/month; ${best.text} costs the same for this pattern, and the design as a whole decided (its other patterns, indexes and storage).`
            : best.usd < usdHere
              ? `${mine} at ${usd(usdHere)}/month; ${best.text} would cost ${usd(best.usd)}/month for this pattern, but the design as a whole costs more that way (more indexes or index writes elsewhere).`
              : `${mine} at ${usd(usdHere)}/month, against ${best.text} at ${usd(best.usd)}/month${others.length > 1 ? ` (and ${others.length - 1} other request${others.length > 2 ? 's' : ''} priced)` : ''}.`;
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

  /**
   * Simulates a finalist; shards the partition key of an entity whose key throttles by the
   * simulator's advice and simulates again, doubling the shards while it still throttles (shards can
   * share a partition until it splits), at most `MAX_SHARD_ROUNDS` times.
   */
  function checkFinalist(c: Candidate): { candidate: Candidate; risk: PartitionRisk; rules: AppliedRule[]; keyBound: boolean } {
    const run = (d: Design) => {
      const result = simulate(d, tableId, { headroom: settings.headroom ?? DEFAULT_HEADROOM, start: 'warm' });
      const targets = result.targets;
      // A throttled key whose peak with the headroom is over a partition's limit is sharded; only one
      // whose own peak is over it (no headroom) is the key design's doing and makes a proposal infeasible.
      const throttled = targets.flatMap((t) => t.throttledKeys.filter((k) => k.shards.recommended > 1).map((k) => ({ target: t, key: k })));
      const keyBound = throttled.some((t) => t.key.shards.minimum > 1);
      const throttles = targets.some((t) => t.throttledKeys.length > 0 || t.throttledTimeShare > 0);
      const summary = targets.map((t) => t.summary.slice(2, 4).join(' ')).join(' ');
      const reasons = new Set(targets.flatMap((t) => t.throttles.map((x) => x.reason)));
      return { throttled, keyBound, risk: { throttles, summary: throttles && !keyBound ? `${capacityThrottling(reasons)} ${summary}` : summary } };
    };
    let current = c;
    let outcome = run(c.design);
    const counts = new Map<string, number>();
    for (let round = 0; round < MAX_SHARD_ROUNDS; round += 1) {
      // Sharding spreads the items of a busy partition key; one hot item (an entity in its own
      // partition, one item per key) cannot be spread that way.
      const shardable = outcome.throttled.filter((t) => {
        if (t.target.kind !== 'table' || t.key.entityId === undefined) return false;
        const index = current.table.entities.findIndex((e) => e.id === t.key.entityId);
        return c.layouts[index]?.kind === 'child';
      });
      if (shardable.length === 0 || now() - started >= budget * FINALIST_BUDGET_SHARE) break;
      const pk = current.table.partitionKey.name;
      const entities = current.table.entities.map((e, index) => {
        const hot = shardable.filter((t) => t.key.entityId === e.id);
        const binding = e.keys[pk];
        if (hot.length === 0 || !binding) return e;
        const recommended = Math.max(2, ...hot.map((t) => t.key.shards.recommended));
        const count = Math.min(MAX_SHARDS, Math.max(recommended, 2 * (counts.get(e.id) ?? 0)));
        counts.set(e.id, count);
        // Reads that know a whole item go to one shard when the suffix is computed from its identity
        // (the part the partition key does not hold).
        const layout = c.layouts[index];
        const inPartition = new Set(attributesOf(layout?.keys.partition ?? ''));
        const from = layout?.identity.find((a) => !inPartition.has(a));
        const shards: NonNullable<KeyBinding['shards']> = from ? { count, method: 'calculated', from } : { count, method: 'random' };
        return { ...e, keys: { ...e.keys, [pk]: { template: binding.template, ...(binding.when ? { when: binding.when } : {}), shards } } };
      });
      const sharded: Table = { ...current.table, entities };
      current = { ...current, ...price(design, sharded, settings), table: sharded, signature: `${c.signature};sharded` };
      outcome = run(current.design);
    }
    const rules: AppliedRule[] = [...counts].map(([entityId, count]) => {
      const e = current.table.entities.find((x) => x.id === entityId)!;
      const binding = e.keys[current.table.partitionKey.name]!;
      const how = binding.shards?.method === 'calculated' ? `calculated from ${binding.shards.from}` : 'random';
      return { rule: 'write-sharding', text: `${e.name}'s partition key ${binding.template} is split over ${count} shards (${how}): its busiest key's peak, times the headroom, is over one partition's limit.` };
    });
    return { candidate: current, risk: outcome.risk, rules, keyBound: outcome.keyBound };
  }

  // The finalists are checked one per step, so that a cancel between steps stops the simulations too.
  let finalistQueue: Candidate[] | undefined;
  const checked: { c: Candidate; risk: PartitionRisk; rules: AppliedRule[] }[] = [];

  /** Checks the next finalist; false once every one is checked (and the proposals are ranked). */
  function nextFinalist(): boolean {
    finalistQueue ??= [...ranked];
    while (checked.length < top && finalistQueue.length > 0) {
      const c = finalistQueue.shift()!;
      if (c.feasible && now() - started >= budget * FINALIST_BUDGET_SHARE) {
        checked.push({ c, risk: { throttles: false, summary: 'Not simulated: the time budget ran out before this finalist was checked.' }, rules: [] });
        continue;
      }
      if (!c.feasible) {
        checked.push({ c, risk: { throttles: false, summary: `Not simulated: ${c.problems[0] ?? 'the proposal is not feasible.'}` }, rules: [] });
        continue;
      }
      const result = checkFinalist(c);
      // Throttling no key design avoids (capacity at the workload's peaks) is reported, not held against the proposal.
      const throttles = result.risk.throttles && result.keyBound && settings.allowThrottling !== true;
      const candidate = throttles ? { ...result.candidate, feasible: false, problems: [...result.candidate.problems, `The simulated workload throttles: ${result.risk.summary}${result.rules.length === 0 ? ' Sharding cannot spread a single hot item: cache its reads (DAX) or spread its writes over several items.' : ''}`] } : result.candidate;
      checked.push({ c: candidate, risk: result.risk, rules: result.rules });
      return true;
    }
    checked.sort((a, b) => compare(a.c, b.c));
    finalists = checked.map((o, i) => proposal(o.c, i + 1, o.risk, o.rules));
    phase = 'done';
    return false;
  }

  const solver: Solver = {
    step() {
      if (phase === 'done') return false;
      if (phase === 'finalists') return nextFinalist();
      for (let n = 0; n < 4; n += 1) {
        if (evaluated > 0 && now() - started >= budget) {
          stoppedEarly = queue.length > 0 || (!exhaustive && restarts < MAX_RESTARTS);
          phase = 'finalists';
          return true;
        }
        if (queue.length === 0 && (exhaustive || !refill())) {
          phase = 'finalists';
          return true;
        }
        price_(queue.shift()!);
      }
      return true;
    },
    progress() {
      const best = ranked.find((c) => c.feasible);
      return { evaluated, total: exhaustive ? total : Math.max(evaluated + queue.length, evaluated), exhaustive, ...(best ? { bestMonthlyUsd: best.monthlyUsd } : {}), phase };
    },
    result() {
      return {
        tableId,
        proposals: finalists ?? proposalsOf(ranked.slice(0, top)),
        evaluated,
        elapsedMs: now() - started,
        firstDesignMs: Math.max(0, firstDesignMs),
        stoppedEarly,
      };
    },
  };
  return solver;
}

/** Runs the solver to the end. */
export function solve(design: Design, tableId: string, options: SolveOptions = {}): SolveResult {
  const solver = createSolver(design, tableId, options);
  while (solver.step());
  return solver.result();
}

/** The plans of a proposal's table, for callers that show requests (the CLI). */
export const plansOf = (table: Table): Plan[] => planTable(costedTable(table));
