/**
 * What one open design holds beyond its document: its sample data, its partition simulations and
 * its key-design proposals. Created on first use and kept while the design is open, so results
 * survive moving between screens; closing the design disposes it, which cancels its running tasks
 * in the host and releases every progress listener.
 */
import type { ApiClient } from '../../src-shared/ipc/client.ts';
import { SampleData, sampleApiOf } from './sample.svelte.ts';
import { SimulationStore } from './simulation.svelte.ts';
import { SolverStore } from './solver.svelte.ts';

export class DocumentSession {
  readonly documentId: string;
  readonly #api: ApiClient;
  #sample: SampleData | undefined;
  #simulation: SimulationStore | undefined;
  #solver: SolverStore | undefined;
  #disposed = false;

  constructor(api: ApiClient, documentId: string) {
    this.#api = api;
    this.documentId = documentId;
  }

  /** The design's sample data; `seed` is the first run's seed (the design's workload seed). */
  sample(seed: number): SampleData {
    this.#sample ??= new SampleData(sampleApiOf(this.#api), seed);
    return this.#sample;
  }

  /** The design's partition simulations (the current run and the what-if). */
  get simulation(): SimulationStore {
    this.#simulation ??= new SimulationStore(this.#api);
    return this.#simulation;
  }

  /** The design's key-design solver: its constraints and proposals ("Propose key design"). */
  get solver(): SolverStore {
    this.#solver ??= new SolverStore(this.#api, this.documentId);
    return this.#solver;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  /** Cancels what runs for the design and releases its listeners. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#sample?.dispose();
    this.#simulation?.dispose();
    this.#solver?.dispose();
  }
}
