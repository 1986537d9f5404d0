/**
 * The data screen's state: one generated sample per open design, kept for the session. The host
 * generates the items (in a worker) and keeps them; this class asks it for the summary, then for
 * pages of the current view as the list scrolls, and never generates or holds the items itself.
 */
import { hasErrorCode } from '../../src-shared/ipc/index.ts';
import type { ApiClient } from '../../src-shared/ipc/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import type { SampleRow, SampleSummary } from '../../src-shared/sample/index.ts';
import { newTaskId } from './task-ids.ts';

/** Rows fetched per request. */
export const PAGE_ROWS = 200;
/** Pages kept; the farthest from the visible rows go first. */
const MAX_CACHED_PAGES = 60;

export interface SampleProgress {
  runId: string;
  done: number;
  total: number;
  label: string;
}

/** The host calls the data screen makes (the `sample.*` and `task.*` channels). */
export interface SampleApi {
  generate(input: { runId: string; design: Design; tableId: string; seed?: number; documentId?: string }): Promise<SampleSummary>;
  page(input: { runId: string; view: string; offset: number; limit: number }): Promise<{ total: number; rows: SampleRow[] }>;
  find(input: { runId: string; view: string; key: string }): Promise<{ offset: number | null }>;
  cancel(input: { runId: string }): Promise<{ canceled: boolean }>;
  onProgress(listener: (progress: SampleProgress) => void): () => void;
}

/** The sample calls over the typed client. */
export function sampleApiOf(client: ApiClient): SampleApi {
  return {
    generate: (input) => client.call('sample.generate', input),
    page: (input) => client.call('sample.page', input),
    find: (input) => client.call('sample.find', input),
    cancel: (input) => client.call('task.cancel', input),
    onProgress: (listener) => client.on('task.progress', listener),
  };
}

export type SampleStatus = 'idle' | 'generating' | 'ready' | 'failed';

export class SampleData {
  status = $state<SampleStatus>('idle');
  progress = $state<{ done: number; total: number; label: string } | undefined>();
  summary = $state.raw<SampleSummary | undefined>();
  /** What went wrong, or that the run was canceled. */
  message = $state<string | undefined>();
  /** The seed of the next run. */
  seed = $state(1);
  /** The view the list shows: `table` or an index name. */
  view = $state('table');
  /** Lines of the current view (collection headers + items). */
  total = $state(0);
  /** When the shown sample was generated, and from which table. */
  generatedAt = $state<Date | undefined>();
  tableId = $state<string | undefined>();
  /** A line the list should bring into view (after a find); the list clears it when done. */
  scrollTarget = $state<number | undefined>();
  /** The outcome of the last find, when it found nothing. */
  findMessage = $state<string | undefined>();
  /** Whether a page is on its way. */
  loading = $state(false);

  readonly #api: SampleApi;
  /** The run being generated, if any. */
  #runId: string | undefined;
  /** The run whose rows are shown. */
  #shownRun: string | undefined;
  #designJson = $state<string | undefined>();
  #pages = new Map<number, SampleRow[]>();
  #pending = new Set<number>();
  /** Bumped when pages arrive, so that `rowAt` readers update. */
  #version = $state(0);
  #generation = 0;

  readonly #unsubscribe: () => void;

  constructor(api: SampleApi, seed = 1) {
    this.#api = api;
    this.seed = seed;
    this.#unsubscribe = api.onProgress((p) => {
      if (p.runId === this.#runId) this.progress = { done: p.done, total: p.total, label: p.label };
    });
  }

  /** Cancels a running generation and stops listening for progress (the design was closed). */
  dispose(): void {
    void this.cancel();
    if (this.status === 'generating') {
      this.status = this.summary ? 'ready' : 'idle';
      this.progress = undefined;
      this.message = 'Generation canceled: the design was closed.';
    }
    this.#runId = undefined; // a late answer for the canceled run changes nothing
    this.#unsubscribe();
  }

  /** Whether `design` differs from the design the shown sample was generated from. */
  isStale(design: Design): boolean {
    return this.#designJson !== undefined && JSON.stringify(design) !== this.#designJson;
  }

  /**
   * Generates a new sample of `tableId` in the host; the previous one stays shown until it is ready.
   * `documentId` names the open design: the host runs one generation per design at a time.
   */
  async generate(design: Design, tableId: string, documentId?: string): Promise<void> {
    if (this.status === 'generating') return;
    const runId = newTaskId('sample');
    this.#runId = runId;
    this.status = 'generating';
    this.progress = { done: 0, total: 0, label: 'Starting' };
    this.message = undefined;
    const json = JSON.stringify(design);
    try {
      const summary = await this.#api.generate({ runId, design, tableId, seed: this.seed, ...(documentId === undefined ? {} : { documentId }) });
      if (this.#runId !== runId) return;
      this.summary = summary;
      this.#shownRun = runId;
      this.#runId = undefined;
      this.#designJson = json;
      this.tableId = tableId;
      this.generatedAt = new Date();
      this.status = 'ready';
      this.#reset(summary.views.some((v) => v.name === this.view) ? this.view : 'table');
    } catch (error) {
      if (this.#runId !== runId) return;
      this.#runId = undefined;
      const canceled = hasErrorCode(error, 'task.canceled');
      this.status = this.summary ? 'ready' : canceled ? 'idle' : 'failed';
      this.message = canceled ? 'Generation canceled; nothing changed.' : `Could not generate sample data: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      if (this.status !== 'generating') this.progress = undefined;
    }
  }

  /** Asks the host to stop the running generation. */
  async cancel(): Promise<void> {
    const runId = this.#runId;
    if (this.status !== 'generating' || runId === undefined) return;
    try {
      await this.#api.cancel({ runId });
    } catch (error) {
      this.message = `Could not cancel: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** Sets the seed of the next run (a whole number; the field checks it). */
  setSeed(seed: number): void {
    this.seed = seed;
  }

  /** The list has brought `scrollTarget` into view. */
  clearScrollTarget(): void {
    this.scrollTarget = undefined;
  }

  /** Shows another view (the table or an index). */
  selectView(view: string): void {
    if (view === this.view) return;
    this.#reset(view);
  }

  /** The row at `line` of the current view, when its page has arrived. */
  rowAt(line: number): SampleRow | undefined {
    void this.#version;
    return this.#pages.get(Math.floor(line / PAGE_ROWS))?.[line % PAGE_ROWS];
  }

  /** Fetches the pages holding lines `first` … `last` that are not here yet. */
  ensureRange(first: number, last: number): void {
    const runId = this.#shownRun;
    if (!runId || this.total === 0) return;
    const from = Math.max(0, Math.floor(first / PAGE_ROWS));
    const to = Math.min(Math.floor((this.total - 1) / PAGE_ROWS), Math.floor(Math.max(first, last) / PAGE_ROWS));
    for (let page = from; page <= to; page += 1) {
      if (this.#pages.has(page) || this.#pending.has(page)) continue;
      void this.#fetch(runId, page, (from + to) / 2);
    }
  }

  /** Jumps to the first item collection whose partition key starts with `key`. */
  async find(key: string): Promise<void> {
    const runId = this.#shownRun;
    this.findMessage = undefined;
    if (!runId || key.trim() === '') return;
    const view = this.view;
    try {
      const { offset } = await this.#api.find({ runId, view, key: key.trim() });
      if (runId !== this.#shownRun || view !== this.view) return;
      if (offset === null) this.findMessage = `No partition key in ${view === 'table' ? 'the table' : view} starts with “${key.trim()}”.`;
      else this.scrollTarget = offset;
    } catch (error) {
      this.findMessage = `Could not search: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  #reset(view: string): void {
    this.view = view;
    this.#generation += 1;
    this.#pages = new Map();
    this.#pending = new Set();
    this.#version += 1;
    this.findMessage = undefined;
    this.scrollTarget = 0;
    const info = this.summary?.views.find((v) => v.name === view);
    this.total = info ? info.itemCount + info.collections : 0;
  }

  async #fetch(runId: string, page: number, around: number): Promise<void> {
    const generation = this.#generation;
    this.#pending.add(page);
    this.loading = true;
    try {
      const result = await this.#api.page({ runId, view: this.view, offset: page * PAGE_ROWS, limit: PAGE_ROWS });
      if (generation !== this.#generation) return;
      this.#pages.set(page, result.rows);
      this.total = result.total;
      this.#evict(around);
      this.#version += 1;
    } catch (error) {
      if (generation === this.#generation) this.message = `Could not read sample rows: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      if (generation === this.#generation) {
        this.#pending.delete(page);
        this.loading = this.#pending.size > 0;
      }
    }
  }

  #evict(around: number): void {
    if (this.#pages.size <= MAX_CACHED_PAGES) return;
    const far = [...this.#pages.keys()].sort((a, b) => Math.abs(b - around) - Math.abs(a - around));
    for (const page of far.slice(0, this.#pages.size - MAX_CACHED_PAGES)) this.#pages.delete(page);
  }
}

