/**
 * The partitions screen's state: runs the host's partition simulator (in a worker, with progress and
 * cancel) on the active design, and a what-if run on a sharded copy of it beside the current one.
 */
import { hasErrorCode } from '../../src-shared/ipc/index.ts';
import type { ApiClient } from '../../src-shared/ipc/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import type { SimulationResult } from '../../src-shared/partition/index.ts';
import { newTaskId } from './task-ids.ts';

/** The switches of a run: seed, how it starts, how partition limits combine. */
export interface SimulationSettings {
  seed?: number;
  /** `cold` (default): a new table; `warm`: the base load has run before. */
  start?: 'cold' | 'warm';
  /** `independent` (default) or `linear` partition read/write limits. */
  limits?: 'independent' | 'linear';
}

export interface SimulationRun {
  result?: SimulationResult;
  /** JSON of the design the result is for, to tell when the design changed since. */
  designJson?: string;
  running: boolean;
  progress: { done: number; total: number; label: string } | undefined;
  error?: string;
}

export class SimulationStore {
  current = $state<SimulationRun>({ running: false, progress: undefined });
  whatIf = $state<SimulationRun>({ running: false, progress: undefined });

  readonly #api: ApiClient;
  #runIds = new Map<'current' | 'whatIf', string>();
  readonly #unsubscribe: () => void;

  constructor(api: ApiClient) {
    this.#api = api;
    this.#unsubscribe = api.on('task.progress', (p) => {
      for (const [slot, runId] of this.#runIds) {
        if (runId === p.runId) this[slot] = { ...this[slot], progress: { done: p.done, total: p.total, label: p.label } };
      }
    });
  }

  /**
   * Runs the simulator for one table of `design` into `slot`; a second call cancels the first.
   * `documentId` names the open design: the host runs one simulation per design and slot at a time,
   * so a run started from another view of the same design replaces this one.
   */
  async run(slot: 'current' | 'whatIf', design: Design, tableId: string, settings: SimulationSettings = {}, documentId?: string): Promise<void> {
    await this.cancel(slot);
    const runId = newTaskId('sim');
    this.#runIds.set(slot, runId);
    const designJson = JSON.stringify(design);
    // A what-if compares against the current run: a new current run makes the old what-if moot, and
    // a new what-if replaces the old one rather than showing it while it runs.
    if (slot === 'current') this.clearWhatIf();
    this[slot] = { ...(slot === 'whatIf' ? {} : this[slot]), running: true, progress: { done: 0, total: 1, label: 'Starting' }, error: undefined } as SimulationRun;
    try {
      const { seed, start, limits } = settings;
      const result = await this.#api.call('simulation.run', {
        runId,
        design,
        tableId,
        ...(documentId !== undefined ? { documentId: `${documentId}/${slot}` } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(start !== undefined ? { start } : {}),
        ...(limits !== undefined ? { limits } : {}),
      });
      if (this.#runIds.get(slot) !== runId) return;
      this[slot] = { result, designJson, running: false, progress: undefined };
    } catch (error) {
      if (this.#runIds.get(slot) !== runId) return;
      const canceled = hasErrorCode(error, 'task.canceled');
      this[slot] = {
        ...this[slot],
        running: false,
        progress: undefined,
        ...(canceled ? {} : { error: error instanceof Error ? error.message : String(error) }),
      } as SimulationRun;
    } finally {
      if (this.#runIds.get(slot) === runId) this.#runIds.delete(slot);
    }
  }

  async cancel(slot: 'current' | 'whatIf'): Promise<void> {
    const runId = this.#runIds.get(slot);
    if (!runId) return;
    this.#runIds.delete(slot);
    this[slot] = { ...this[slot], running: false, progress: undefined };
    await this.#api.call('task.cancel', { runId }).catch(() => undefined);
  }

  /** Cancels both runs and stops listening for progress. */
  dispose(): void {
    void this.cancel('current');
    void this.cancel('whatIf');
    this.#unsubscribe();
  }

  clearWhatIf(): void {
    void this.cancel('whatIf');
    this.whatIf = { running: false, progress: undefined };
  }
}
