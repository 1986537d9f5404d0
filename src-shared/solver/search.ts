/**
 * The search over layouts. A combination is one candidate layout per entity (`layouts.ts`) and the
 * keying of new GSIs; each is priced once (`evaluate.ts`) and the best kept, ranked.
 * - The first combination is every entity in its first layout: a complete design at once.
 * - Up to `EXHAUSTIVE_LIMIT` combinations, every one is priced, in an order the seed shuffles.
 * - Beyond, a local search: from the best so far, each entity's other layouts in a seeded order, the
 *   improvements kept, then seeded random restarts, as long as the caller keeps asking.
 */
import type { Table } from '../model/index.ts';
import type { Random } from '../partition/index.ts';
import type { SolveContext } from './context.ts';
import { baseTable, evaluate, type Candidate, type IndexKeying } from './evaluate.ts';
import { layoutsOf, type Layout } from './layouts.ts';
import type { RequestLedger } from './proposals.ts';

/** Up to this many layout combinations, the search prices every one. */
export const EXHAUSTIVE_LIMIT = 2_048;
/** Random restarts of the local search, at most. */
const MAX_RESTARTS = 64;
/** The keyings a combination may give new GSIs, in the order its last digit counts them. */
const KEYINGS: readonly IndexKeying[] = ['synthetic', 'natural'];

/**
 * Ranks candidates: feasible first, then cheaper (to the cent), fewer GSIs, fewer reads per second
 * through an index, then by signature (so ties break the same way every run).
 */
export function compareCandidates(a: Candidate, b: Candidate): number {
  if (a.feasible !== b.feasible) return a.feasible ? -1 : 1;
  const cents = Math.round(a.monthlyUsd * 100) - Math.round(b.monthlyUsd * 100);
  if (cents !== 0) return cents;
  const g = a.table.globalSecondaryIndexes.length - b.table.globalSecondaryIndexes.length;
  if (g !== 0) return g;
  if (a.indexReadRate !== b.indexReadRate) return a.indexReadRate - b.indexReadRate;
  return a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0;
}

/** Fisher–Yates with the seeded generator. */
function shuffle<T>(items: T[], random: Random): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** The combinations of one solve, priced one at a time (`next`), the best `top × 4` kept in `ranked`. */
export class LayoutSearch {
  /** The best candidates so far, best first. */
  readonly ranked: Candidate[] = [];
  /** Candidates priced so far. */
  evaluated = 0;
  /** When the first candidate was priced, in milliseconds from the start (-1 before). */
  firstDesignMs = -1;
  /** Every combination there is. */
  readonly total: number;
  /** Whether every combination is priced (else the local search). */
  readonly exhaustive: boolean;

  /** The table the candidates start from (`baseTable`). */
  private readonly base: Table;
  private readonly choices: Layout[][];
  /** Per combination digit (each entity's layouts, then the keyings), how many values it takes. */
  private readonly radix: number[];
  /** Unserved reads get indexes busiest first; equal rates in the table's order. */
  private readonly byRate: number[];
  private readonly seen = new Map<string, Candidate>();
  /** The combinations to price next, in order. */
  private readonly queue: number[][] = [];
  private readonly first: number[];
  private restarts = 0;
  /** The combination the last sweep of one-entity changes started from. */
  private sweepFrom: number[] | undefined;

  constructor(
    private readonly context: SolveContext,
    private readonly ledger: RequestLedger,
  ) {
    const { table, settings, random } = context;
    this.base = baseTable(table, settings);
    this.choices = this.base.entities.map((e) => layoutsOf(table, e, settings.keepTableKey === true));
    this.radix = [...this.choices.map((c) => c.length), KEYINGS.length];
    this.total = this.radix.reduce((n, c) => n * c, 1);
    this.byRate = this.base.accessPatterns
      .map((p, i) => ({ i, rate: Number.isFinite(p.ratePerSecond) ? p.ratePerSecond : 0 }))
      .sort((a, b) => b.rate - a.rate || a.i - b.i)
      .map((x) => x.i);
    this.first = this.radix.map(() => 0);
    this.queue.push(this.first);
    this.exhaustive = this.total <= EXHAUSTIVE_LIMIT;
    if (this.exhaustive) {
      const all: number[][] = [];
      const combo = this.radix.map(() => 0);
      for (let n = 0; n < this.total; n += 1) {
        if (n > 0) all.push([...combo]);
        for (let e = 0; e < combo.length; e += 1) {
          combo[e]! += 1;
          if (combo[e]! < this.radix[e]!) break;
          combo[e] = 0;
        }
      }
      this.queue.push(...shuffle(all, random));
    }
  }

  /** Combinations queued and not yet priced. */
  get queued(): number {
    return this.queue.length;
  }

  /** Whether there is more to price: combinations queued, or restarts the local search has left. */
  get hasMore(): boolean {
    return this.queue.length > 0 || (!this.exhaustive && this.restarts < MAX_RESTARTS);
  }

  /** Prices the next combination; false when there is none left. */
  next(): boolean {
    if (this.queue.length === 0 && (this.exhaustive || !this.refill())) return false;
    this.price(this.queue.shift()!);
    return true;
  }

  private price(combo: readonly number[]): Candidate {
    const key = combo.join(',');
    const known = this.seen.get(key);
    if (known) return known;
    const { design, settings, now, started } = this.context;
    const candidate = evaluate(design, this.base, this.choices.map((c, e) => c[combo[e]!]!), settings, this.byRate, KEYINGS[combo[this.choices.length]!]!);
    this.seen.set(key, candidate);
    this.evaluated += 1;
    if (this.firstDesignMs < 0) this.firstDesignMs = now() - started;
    this.record(candidate);
    return candidate;
  }

  private record(candidate: Candidate): void {
    this.ledger.note(candidate);
    const ranked = this.ranked;
    if (ranked.some((r) => r.signature === candidate.signature)) return;
    ranked.push(candidate);
    ranked.sort(compareCandidates);
    if (ranked.length > this.context.top * 4) ranked.length = this.context.top * 4;
  }

  /** The local search's next combinations: every one-entity change of the best so far, then a random restart. */
  private refill(): boolean {
    if (this.restarts >= MAX_RESTARTS) return false;
    const { random } = this.context;
    const radix = this.radix;
    const best = this.ranked[0];
    const from = best ? [...this.choices.map((c, e) => c.indexOf(best.layouts[e]!)), KEYINGS.indexOf(best.keying)] : this.first;
    const isSame = this.sweepFrom !== undefined && this.sweepFrom.join(',') === from.join(',');
    if (!isSame) {
      this.sweepFrom = from;
      const moves: number[][] = [];
      for (const e of shuffle(radix.map((_, i) => i), random)) {
        for (let c = 0; c < radix[e]!; c += 1) if (c !== from[e]) moves.push(from.map((x, i) => (i === e ? c : x)));
      }
      const fresh = moves.filter((m) => !this.seen.has(m.join(',')));
      if (fresh.length > 0) {
        this.queue.push(...fresh);
        return true;
      }
    }
    this.restarts += 1;
    this.queue.push(radix.map((n) => Math.floor(random() * n)));
    this.sweepFrom = undefined;
    return true;
  }
}
