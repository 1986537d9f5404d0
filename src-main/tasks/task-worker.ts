/**
 * The task worker's entry (built to out/main/task-worker.js; run from source in tests): runs one
 * simulation, key-design solve or sample generation off the main thread, posts progress, stops between steps when the
 * shared cancel flag is set, and keeps a sample store to answer page and find requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { AppError, type ErrorData } from '../../src-shared/errors.ts';
import type { SampleStore } from '../../src-shared/sample/index.ts';
import type { HostMessage, TaskWorkerData, WorkerMessage } from './protocol.ts';
import { generateSampleTask, runSimulationTask, runSolverTask, TaskCanceled, type TaskContext } from './run-task.ts';

/** Progress is posted at most this often, in milliseconds (and always at the end). */
const PROGRESS_INTERVAL_MS = 100;

const port = parentPort;
if (!port) throw new Error('task-worker.ts runs as a worker thread only.');
const flag = new Int32Array((workerData as TaskWorkerData).cancelFlag);
const post = (message: WorkerMessage) => port.postMessage(message);
let store: SampleStore | undefined;

function errorData(error: unknown): ErrorData {
  if (error instanceof AppError) return error.toData();
  return { code: 'task.failed', message: `The task failed: ${error instanceof Error ? error.message : String(error)}` };
}

function context(): TaskContext {
  let lastPost = 0;
  return {
    isCanceled: () => Atomics.load(flag, 0) !== 0,
    progress(done, total, label) {
      const now = performance.now();
      if (done < total && now - lastPost < PROGRESS_INTERVAL_MS) return;
      lastPost = now;
      post({ type: 'progress', done, total, label });
    },
  };
}

function run(message: Extract<HostMessage, { type: 'start' }>): void {
  try {
    if (message.task.kind === 'simulation') {
      post({ type: 'done', value: runSimulationTask(message.task.input, context()) });
    } else if (message.task.kind === 'solver') {
      post({ type: 'done', value: runSolverTask(message.task.input, context()) });
    } else {
      store = generateSampleTask(message.task.input, message.runId, context());
      post({ type: 'done', value: store.summary() });
    }
  } catch (error) {
    if (error instanceof TaskCanceled) post({ type: 'canceled' });
    else post({ type: 'failed', error: errorData(error) });
  }
}

function answer(message: Extract<HostMessage, { type: 'page' | 'find' }>): void {
  try {
    if (!store) throw new AppError({ code: 'task.unknown', message: 'This run holds no sample items.' });
    const views = store.summary().views.map((v) => v.name);
    if (!views.includes(message.view)) {
      throw new AppError({ code: 'ipc.badInput', path: 'view', message: `No view "${message.view}" in this sample; expected one of ${views.join(', ')}.` });
    }
    const value = message.type === 'page' ? store.page(message.view, message.offset, message.limit) : { offset: store.find(message.view, message.key) };
    post({ type: 'reply', id: message.id, ok: true, value });
  } catch (error) {
    post({ type: 'reply', id: message.id, ok: false, error: errorData(error) });
  }
}

port.on('message', (message: HostMessage) => {
  if (message.type === 'start') run(message);
  else answer(message);
});
