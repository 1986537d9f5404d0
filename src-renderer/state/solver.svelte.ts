/**
 * The "Propose key design" dialog's state: its constraints, and the host's key-design solver run on
 * the open design (in a worker, with progress and cancel, `solver.run`). Belongs to the open design
 * (`DocumentSession`): the proposals survive closing and reopening the dialog, and closing the
 * design cancels a run. Nothing here edits the design: a proposal is opened as a new document by the
 * workspace.
 */
import { hasErrorCode } from '../../src-shared/ipc/index.ts';
import { totalDesignCost, type DesignCost } from '../../src-shared/costing/index.ts';
import type { ApiClient } from '../../src-shared/ipc/index.ts';
import type { Design, Table } from '../../src-shared/model/index.ts';
import {
  inputCost,
  type InputCost,
  DEFAULT_HEADROOM,
  DEFAULT_MAX_GSIS,
  type SolveResult,
} from '../../src-shared/solver/index.ts';
import { newTaskId } from './task-ids.ts';

/** How proposals are priced: the table's own billing, on-demand, or provisioned capacity. */
export type SolverBilling = 'asIs' | 'onDemand' | 'provisioned';

/** The constraints the dialog offers. */
export interface SolverSettings {
  /** GSIs a proposal may use at most (0–20). */
  maxGsis: number;
  /** A pattern served by a Scan makes a proposal infeasible. */
  noScan: boolean;
  /** Only indexes are proposed; the entities' table key templates stay. */
  keepTableKey: boolean;
  /** Proposals costing more per month are infeasible; none when undefined. */
  monthlyBudgetUsd: number | undefined;
  billing: SolverBilling;
  /** Seed of the search order: the same design, constraints and seed give the same proposals. */
  seed: number;
  /** A key's peak times this must stay under one partition's limit (1.25 by default); over it, the key is sharded. */
  headroom: number;
}

export const DEFAULT_SOLVER_SETTINGS: SolverSettings = { maxGsis: DEFAULT_MAX_GSIS, noScan: false, keepTableKey: false, monthlyBudgetUsd: undefined, billing: 'asIs', seed: 1, headroom: DEFAULT_HEADROOM };

export interface SolverRun {
  status: 'idle' | 'running' | 'done' | 'canceled' | 'failed';
  progress?: { done: number; total: number; label: string };
  result?: SolveResult;
  /** What the result was asked with: the table, the constraints, the design's JSON (to tell when it changed since). */
  tableId?: string;
  settings?: SolverSettings;
  designJson?: string;
  error?: string;
}

/**
 * What the table needs before the solver can propose anything, in a sentence; undefined when it
 * has entities and access patterns.
 */
export function missingForSolver(table: Table): string | undefined {
  const entities = table.entities.length;
  const patterns = table.accessPatterns.length;
  if (entities === 0 && patterns === 0) {
    return `Table ${table.name} has no entities and no access patterns yet. The solver designs keys for the entities from what the patterns read and write: add the patterns here and their entities (with their attributes) on the Entities & keys screen, then propose.`;
  }
  if (entities === 0) {
    return `Table ${table.name} has no entities yet. The solver designs each entity's keys: create the entities the patterns read and write (in a pattern's editor, or on the Entities & keys screen), then propose.`;
  }
  if (patterns === 0) {
    return `Table ${table.name} has no access patterns yet. The solver chooses keys that serve the patterns, cheapest first: add what the application reads and writes ("Add pattern"), then propose.`;
  }
  return undefined;
}

/** Whether proposals under `billing` are priced on-demand: as the solver prices them (`src-shared/solver/evaluate.ts`). */
export function isPricedOnDemand(table: Table, billing: SolverBilling): boolean {
  if (billing === 'provisioned') return false;
  return billing === 'onDemand' || table.billing.mode === 'ON_DEMAND';
}

/** The current design's monthly cost of a table, priced as the proposals are, and the patterns it leaves out (`inputCost`). */
export type CurrentCost = InputCost;

/**
 * The current design's monthly cost of `table` as the solver prices a proposal: under the
 * proposals' billing, provisioned at the capacity its own load needs (what it configures is kept
 * beside it), the table's requests or capacity plus its storage. The ratio then measures the key
 * design, not a change of capacity any design could make.
 */
export function currentCostOf(design: Design, costs: DesignCost, table: Table, billing: SolverBilling): CurrentCost | undefined {
  if (!isPricedOnDemand(table, billing)) return inputCost(design, table, { billing });
  // On-demand, the costs the screen already has are the answer (no capacity to size).
  const tableCost = costs.tables.find((t) => t.tableId === table.id);
  if (!tableCost) return undefined;
  return { monthlyUsd: totalDesignCost(costs.pricing, [tableCost]).onDemandMonthly.value, onDemand: true, leftOut: tableCost.needingKeyDesign.length };
}

/** A proposal's cost over the current design's: undefined when the current one leaves patterns out or costs nothing. */
export function costRatio(proposalUsd: number, current: CurrentCost | undefined): number | undefined {
  if (!current || current.leftOut > 0 || current.monthlyUsd <= 0) return undefined;
  return proposalUsd / current.monthlyUsd;
}

export class SolverStore {
  /** The constraints, kept while the design is open. */
  settings = $state<SolverSettings>({ ...DEFAULT_SOLVER_SETTINGS });
  run = $state.raw<SolverRun>({ status: 'idle' });

  readonly #api: ApiClient;
  readonly #documentId: string | undefined;
  #runId: string | undefined;
  readonly #unsubscribe: () => void;

  constructor(api: ApiClient, documentId?: string) {
    this.#api = api;
    this.#documentId = documentId;
    this.#unsubscribe = api.on('task.progress', (p) => {
      if (p.runId !== this.#runId || this.run.status !== 'running') return;
      this.run = { ...this.run, progress: { done: p.done, total: p.total, label: p.label } };
    });
  }

  get isRunning(): boolean {
    return this.run.status === 'running';
  }

  /** Runs the solver on `tableId` of `design` with the current constraints; a run on its way is canceled first. */
  async propose(design: Design, tableId: string): Promise<void> {
    await this.cancel();
    const runId = newTaskId('solve');
    this.#runId = runId;
    const settings = { ...this.settings };
    const designJson = JSON.stringify(design);
    this.run = { status: 'running', progress: { done: 0, total: 1, label: 'Starting' }, tableId, settings, designJson };
    try {
      const { maxGsis, noScan, keepTableKey, monthlyBudgetUsd, billing, seed, headroom } = settings;
      const result = await this.#api.call('solver.run', {
        runId,
        design,
        tableId,
        seed,
        maxGsis,
        noScan,
        keepTableKey,
        billing,
        headroom,
        ...(monthlyBudgetUsd === undefined ? {} : { monthlyBudgetUsd }),
        ...(this.#documentId === undefined ? {} : { documentId: `${this.#documentId}/solver` }),
      });
      if (this.#runId !== runId) return;
      this.run = { status: 'done', result, tableId, settings, designJson };
    } catch (error) {
      if (this.#runId !== runId) return;
      const canceled = hasErrorCode(error, 'task.canceled');
      this.run = canceled ? { status: 'canceled' } : { status: 'failed', error: error instanceof Error ? error.message : String(error) };
    } finally {
      if (this.#runId === runId) this.#runId = undefined;
    }
  }

  /** Stops the run on its way, if any: its proposals never arrive, and the design is as it was. */
  async cancel(): Promise<void> {
    const runId = this.#runId;
    if (!runId) return;
    this.#runId = undefined;
    this.run = { status: 'canceled' };
    await this.#api.call('task.cancel', { runId }).catch(() => undefined);
  }

  /** Cancels a run and stops listening for progress (the design is closing). */
  dispose(): void {
    void this.cancel();
    this.#unsubscribe();
  }
}
