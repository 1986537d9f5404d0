/**
 * Starting a task worker: the built `task-worker.js` as it is, or (in tests and `tsx` runs) the
 * TypeScript source through a small bootstrap that registers tsx's loader inside the worker first
 * (a worker does not inherit the parent's loader hooks, and `--import tsx` in a worker's execArgv
 * does not reach its own module graph on Node 20).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TaskWorkerData } from './protocol.ts';

/** The parts of a `Worker` the host uses (a fake in some tests). */
export interface WorkerLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<number>;
  unref(): void;
}

/** Starts a worker for one task, given the shared cancel flag. */
export type SpawnWorker = (data: TaskWorkerData) => WorkerLike;

/** The worker's TypeScript source, beside this file (for tests and source runs; the built app passes its own path). */
export const TASK_WORKER_SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'task-worker.ts');

/** A spawner for the worker at `entry`: a built `.js` file, or the `.ts` source run through tsx. */
export function taskWorkerSpawner(entry: string): SpawnWorker {
  if (!entry.endsWith('.ts')) return (data) => new Worker(entry, { workerData: data });
  const bootstrap = `import { register } from 'tsx/esm/api'; register(); await import(${JSON.stringify(pathToFileURL(entry).href)});`;
  return (data) => new Worker(bootstrap, { eval: true, workerData: data });
}
