/**
 * Everything one open design holds beyond its document: its sample data, its partition simulations,
 * its key-design proposals, its runs, and the Raw JSON screen's text. The workspace makes one session
 * when a design opens and disposes it when the design leaves the window (closed here, or closed or
 * taken by another window); each store is made on first use and lives until then, so results survive
 * moving between screens. `dispose` is the one place all of it ends: running tasks are canceled in
 * the host, progress listeners released, a waiting Raw JSON edit dropped with the editor's model.
 */
import type { ApiClient } from '../../src-shared/ipc/index.ts';
import { loadedMonaco } from '../lib/monaco-loader.ts';
import type { Edit, OpenDocument } from './document.svelte.ts';
import { RawJsonEditing } from './raw-json.svelte.ts';
import { RunStore } from './run.svelte.ts';
import { SampleData, sampleApiOf } from './sample.svelte.ts';
import { SimulationStore } from './simulation.svelte.ts';
import { SolverStore } from './solver.svelte.ts';

/** Applies an edit to the session's design as one undo step (the workspace's `edit`, bound to it). */
export type EditDocument = (edit: Edit, coalesceKey?: string) => void;

export class DocumentSession {
  readonly doc: OpenDocument;
  readonly #api: ApiClient;
  readonly #edit: EditDocument;
  #sample: SampleData | undefined;
  #simulation: SimulationStore | undefined;
  #solver: SolverStore | undefined;
  #run: RunStore | undefined;
  #rawJson: { state: RawJsonEditing; destroy: () => void } | undefined;
  #disposed = false;

  constructor(api: ApiClient, doc: OpenDocument, edit: EditDocument) {
    this.#api = api;
    this.doc = doc;
    this.#edit = edit;
  }

  get documentId(): string {
    return this.doc.id;
  }

  /** The design's sample data; `seed` is the first run's seed (the design's workload seed). */
  sample(seed: number): SampleData {
    this.#sample ??= this.#made(new SampleData(sampleApiOf(this.#api), seed));
    return this.#sample;
  }

  /** The design's partition simulations (the current run and the what-if). */
  get simulation(): SimulationStore {
    this.#simulation ??= this.#made(new SimulationStore(this.#api));
    return this.#simulation;
  }

  /** The design's key-design solver: its constraints and proposals ("Propose key design"). */
  get solver(): SolverStore {
    this.#solver ??= this.#made(new SolverStore(this.#api, this.doc.id));
    return this.#solver;
  }

  /** The Run screen's engine choice, the run on its way and the last report. */
  get run(): RunStore {
    this.#run ??= this.#made(new RunStore(this.#api));
    return this.#run;
  }

  /**
   * The Raw JSON screen's text and its sync with the design; a valid edit reaches the design as one
   * undo step of its own (coalesced under `json`).
   *
   * Its deriveds (`reading`, `markers`) are made under a root of their own: made inside the screen's
   * component they would belong to it, and once the screen closed they went inert and read stale
   * forever (the text came back "Not valid JSON" whatever was typed after re-entering).
   */
  get rawJson(): RawJsonEditing {
    if (!this.#rawJson) {
      let state: RawJsonEditing | undefined;
      const destroy = $effect.root(() => {
        state = new RawJsonEditing(this.doc, (design) => this.#edit(() => design, 'json'));
      });
      this.#rawJson = { state: state!, destroy };
      // Asked of an ended session: ends at once, and leaves the editor's models alone (the design may be open again).
      if (this.#disposed) this.#endRawJson();
    }
    return this.#rawJson.state;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  /** Cancels what runs for the design in the host, releases every listener, drops the Raw JSON text. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#sample?.dispose();
    this.#simulation?.dispose();
    this.#solver?.dispose();
    this.#run?.dispose();
    this.#disposeRawJson();
  }

  /** A store asked for after the session ended (a late call from a closing screen) ends at once: nothing leaks. */
  #made<T extends { dispose(): void }>(store: T): T {
    if (this.#disposed) store.dispose();
    return store;
  }

  #disposeRawJson(): void {
    if (!this.#rawJson) return;
    this.#endRawJson();
    loadedMonaco()?.disposeDesignModel(this.doc.id);
  }

  #endRawJson(): void {
    this.#rawJson?.state.dispose();
    this.#rawJson?.destroy();
  }
}
