/**
 * The host's runs: one `runDesign` per run id, with its cancel, its progress as `task.progress`
 * events, and the run journal of tables created and not yet removed. Every service made here is
 * known to `closeAllRuns`, which the app calls before it quits so that no run leaves a table behind
 * (a run canceled removes its tables before its promise settles).
 */
import { AppError } from '../../src-shared/errors.ts';
import type { EventSink } from '../../src-shared/ipc/index.ts';
import { runTableName } from '../../src-shared/run/index.ts';
import type { EngineChoice, RunReport } from '../../src-shared/run/index.ts';
import { cleanupLeftovers, createRunJournal, leftoverTables, type LeftoverTable } from './journal.ts';

export interface StartRun {
  runId: string;
  design: import('../../src-shared/model/index.ts').Design;
  tableId: string;
  engine: EngineChoice;
  itemsPerEntity?: number;
  repeat?: number;
  seed?: number;
  confirmAccount?: string;
}

export interface RunService {
  identify(engine: EngineChoice): Promise<{ label: string; endpoint?: string; region?: string; account?: string; arn?: string }>;
  /** Errors: `task.failed` when a run of that id is already going, and those of `runDesign`. */
  start(input: StartRun): Promise<RunReport>;
  /** Cancels a run of this service; false when there is none of that id. */
  cancel(runId: string): boolean;
  leftovers(): Promise<LeftoverTable[]>;
  cleanup(names?: string[]): ReturnType<typeof cleanupLeftovers>;
  /** Cancels every run and waits until each has removed its tables. */
  close(): Promise<void>;
}

export interface RunServiceOptions {
  /** The run journal's folder (`<data folder>/…/run-journal`; see journal.ts). */
  journalDir: string;
  /** The secret that signs the journal's records; default `run-journal.key` beside the folder. */
  keyPath?: string;
  /** What the journal belongs to (a workspace's real path, `cli`, `app`); see `RunJournalOptions`. */
  scope?: string;
  events?: EventSink;
  log?: (message: string, error?: unknown) => void;
}

const services = new Set<RunService>();

/** Cancels every run of every service and waits for their cleanup (app quit, server stop). */
export async function closeAllRuns(): Promise<void> {
  await Promise.all([...services].map((s) => s.close()));
}

/** Whether any run is going (the app asks before quitting). */
export function hasActiveRuns(): boolean {
  return [...services].some((s) => (s as RunService & { active(): number }).active() > 0);
}

export function createRunService(options: RunServiceOptions): RunService & { active(): number } {
  const journal = createRunJournal(options.journalDir, {
    ...(options.keyPath === undefined ? {} : { keyPath: options.keyPath }),
    ...(options.scope === undefined ? {} : { scope: options.scope }),
    onCorrupt: (problem) => options.log?.(`A run journal record was ignored (${problem.path}): ${problem.message}.`),
  });
  const running = new Map<string, { controller: AbortController; done: Promise<unknown>; table: string }>();
  const startedAt = new Date().toISOString();
  // Loaded on first use: the engine and the AWS SDK stay out of the host's start-up.
  const runner = () => import('./runner.ts');

  const service: RunService & { active(): number } = {
    active: () => running.size,

    async identify(engine) {
      return (await runner()).identifyEngine(engine);
    },

    async start(input) {
      if (running.has(input.runId)) {
        throw new AppError({ code: 'task.failed', message: `A run named "${input.runId}" is already going; wait for it or cancel it first.` });
      }
      const controller = new AbortController();
      const emit = (p: { done: number; total: number; label: string }): void => {
        options.events?.emit('task.progress', { runId: input.runId, done: p.done, total: p.total, label: p.label, state: 'running' });
      };
      const { runDesign } = await runner();
      const done = runDesign({
        design: input.design,
        tableId: input.tableId,
        engine: input.engine,
        runId: input.runId,
        signal: controller.signal,
        onProgress: emit,
        journal,
        ...(input.itemsPerEntity === undefined ? {} : { itemsPerEntity: input.itemsPerEntity }),
        ...(input.repeat === undefined ? {} : { repeat: input.repeat }),
        ...(input.seed === undefined ? {} : { seed: input.seed }),
        ...(input.confirmAccount === undefined ? {} : { confirmAccount: input.confirmAccount }),
      });
      const table = runTableName(input.runId, input.design.tables.find((t) => t.id === input.tableId)?.name ?? '');
      running.set(input.runId, { controller, done: done.catch(() => undefined), table });
      emit({ done: 0, total: 1, label: 'Starting the engine' });
      try {
        return await done;
      } finally {
        running.delete(input.runId);
      }
    },

    cancel(runId) {
      const run = running.get(runId);
      if (!run) return false;
      run.controller.abort();
      return true;
    },

    // Not leftovers: the tables of runs going now, and embedded-engine tables of an earlier process
    // (they lived in its memory and went with it; their records are dropped here).
    async leftovers() {
      const going = new Set([...running.values()].map((r) => r.table));
      const listed = await journal.list();
      const gone = listed.filter((t) => t.engine.kind === 'embedded' && t.createdAt < startedAt && !going.has(t.name));
      for (const t of gone) await journal.remove(t.token);
      return leftoverTables(listed.filter((t) => !going.has(t.name) && !gone.includes(t)));
    },

    // A table a run is using now is never removed from under it.
    async cleanup(names) {
      const going = new Set([...running.values()].map((r) => r.table));
      const wanted = names ?? (await service.leftovers()).map((t) => t.name);
      const result = await cleanupLeftovers(journal, wanted.filter((n) => !going.has(n)));
      for (const name of new Set(wanted.filter((n) => going.has(n)))) result.failed.push({ name, message: `Table "${name}" belongs to a run going now; it removes its table when it ends.` });
      return result;
    },

    async close() {
      const all = [...running.values()];
      for (const run of all) run.controller.abort();
      await Promise.all(all.map((run) => run.done));
    },
  };
  services.add(service);
  return service;
}
