/**
 * The finalists' check: the best candidates of the search simulated by the partition simulator
 * over the design's workload, one per call (so a cancel between calls stops the simulations too).
 * A key over a partition's limit is sharded by the simulator's advice and checked again; a key
 * still over it makes the proposal infeasible unless `allowThrottling`. Throttling with no key over
 * a partition's limit (capacity at the workload's peaks) is the same for every key design: reported
 * in the partition risk, not held against the proposal.
 */
import type { Design, KeyBinding, Table } from '../model/index.ts';
import { simulate } from '../partition/index.ts';
import type { SolveContext } from './context.ts';
import { price, type Candidate } from './evaluate.ts';
import { attributesOf } from './layouts.ts';
import { compareCandidates } from './search.ts';
import { DEFAULT_HEADROOM, type AppliedRule, type PartitionRisk } from './types.ts';

/** Rounds of sharding a finalist's throttled keys, at most. */
const MAX_SHARD_ROUNDS = 3;
/** The most shards the solver proposes for one key (its simulations grow with the keys). */
const MAX_SHARDS = 100;
/** The finalists' simulations stop once the time used passes this multiple of the budget. */
const FINALIST_BUDGET_SHARE = 1.2;

/** A finalist after its check: the candidate (sharded, or made infeasible by its throttling), its risk and the rules the check applied. */
export interface CheckedFinalist {
  c: Candidate;
  risk: PartitionRisk;
  rules: AppliedRule[];
}

/** The check of the finalists, the first `top` of `candidates` (best first), one per `next`. */
export class FinalistCheck {
  /** The finalists checked so far; ranked once `next` has returned false. */
  readonly checked: CheckedFinalist[] = [];
  private readonly queue: Candidate[];

  constructor(
    private readonly context: SolveContext,
    candidates: readonly Candidate[],
  ) {
    this.queue = [...candidates];
  }

  /** Checks the next finalist; false once every one is checked (and `checked` is ranked). */
  next(): boolean {
    const { now, started, budget, settings } = this.context;
    while (this.checked.length < this.context.top && this.queue.length > 0) {
      const c = this.queue.shift()!;
      if (c.feasible && now() - started >= budget * FINALIST_BUDGET_SHARE) {
        this.checked.push({ c, risk: { throttles: false, summary: 'Not simulated: the time budget ran out before this finalist was checked.' }, rules: [] });
        continue;
      }
      if (!c.feasible) {
        this.checked.push({ c, risk: { throttles: false, summary: `Not simulated: ${c.problems[0] ?? 'the proposal is not feasible.'}` }, rules: [] });
        continue;
      }
      const result = checkFinalist(this.context, c);
      // Throttling no key design avoids (capacity at the workload's peaks) is reported, not held against the proposal.
      const throttles = result.risk.throttles && result.keyBound && settings.allowThrottling !== true;
      const candidate = throttles
        ? {
            ...result.candidate,
            feasible: false,
            problems: [...result.candidate.problems, `The simulated workload throttles: ${result.risk.summary}${result.rules.length === 0 ? ' Sharding cannot spread a single hot item: cache its reads (DAX) or spread its writes over several items.' : ''}`],
          }
        : result.candidate;
      this.checked.push({ c: candidate, risk: result.risk, rules: result.rules });
      return true;
    }
    this.checked.sort((a, b) => compareCandidates(a.c, b.c));
    return false;
  }
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

/**
 * Simulates a finalist; shards the partition key of an entity whose key throttles by the
 * simulator's advice and simulates again, doubling the shards while it still throttles (shards can
 * share a partition until it splits), at most `MAX_SHARD_ROUNDS` times.
 */
function checkFinalist(context: SolveContext, c: Candidate): { candidate: Candidate; risk: PartitionRisk; rules: AppliedRule[]; keyBound: boolean } {
  const { design, tableId, settings, now, started, budget } = context;
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
