/**
 * Wiring of the handlers' services for each kind of host. No electron import here: the Electron
 * entry passes its dialogs and paths in, so this runs (and is tested) in plain Node.
 */
import { mkdir, realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ApiHandlers, EventSink } from '../src-shared/ipc/index.ts';
import { ensurePrivateFolder, resolveDataDir, workspaceDataDir } from './files/data-folder.ts';
import { createExampleLibrary } from './files/examples.ts';
import { createFileService } from './files/file-service.ts';
import { createGrantedLocator } from './files/granted-locator.ts';
import { createRecentStore } from './files/recent-store.ts';
import { removeLeftoverTempFiles, type CleanupFolder } from './files/temp-cleanup.ts';
import { createWorkspaceLocator, WORKSPACE_LIST_DEPTH } from './files/workspace-locator.ts';
import { createHandlers, type Dialogs } from './handlers/index.ts';
import { createRunService, type RunService } from './run/service.ts';
import { taskWorkerSpawner, TASK_WORKER_SOURCE } from './tasks/spawn.ts';
import { createTaskHost, type TaskHost } from './tasks/task-host.ts';

interface CommonOptions {
  version: string;
  /** The shipped `examples/` folder. */
  examplesDir: string;
  platform?: string;
  /** Where host problems are reported once (default: console.error). */
  log?: (message: string, error?: unknown) => void;
  /** Where host events go (`task.progress`): the transport, usually through an `EventRelay`. */
  events?: EventSink;
  /** The task worker: the built `task-worker.js` beside the entry; default the TypeScript source (tests). */
  taskWorker?: string;
  /** A task host made by the caller (tests that end its workers); default one over `taskWorker`. */
  tasks?: TaskHost;
  /** A run service made by the caller (tests); default one journaling in the data folder. */
  runs?: RunService;
}

export interface BrowserHostOptions extends CommonOptions {
  /** The folder design files are confined to; created if missing. */
  workspaceDir: string;
  /**
   * The user's data folder (files/data-folder.ts; default `KEYPLAN_DATA_DIR` or the platform's).
   * The workspace's recent list and run journal live in its `workspaces/<id>` subfolder, never in
   * the workspace, which is shared input (docs/browser-mode-security.md).
   */
  dataDir?: string;
}

/** Handlers for browser mode: files confined to the workspace folder, no dialogs. */
export async function createBrowserHandlers(options: BrowserHostOptions): Promise<ApiHandlers> {
  const workspaceDir = resolve(options.workspaceDir);
  await mkdir(workspaceDir, { recursive: true });
  const files = createFileService(createWorkspaceLocator(workspaceDir));
  const log = options.log ?? defaultLog;
  const root = resolveDataDir(options.dataDir);
  const dataDir = await ensurePrivateFolder(root, workspaceDataDir(root, await realpath(workspaceDir)));
  cleanUpInBackground(async () => [
    { path: workspaceDir, depth: WORKSPACE_LIST_DEPTH },
    { path: dataDir, depth: 0 },
  ], log);
  return createHandlers({
    mode: 'browser',
    version: options.version,
    platform: options.platform ?? process.platform,
    files,
    recent: createRecentStore({
      filePath: join(dataDir, 'recent.json'),
      exists: (ref) => files.exists(ref),
      onCorrupt: (error) => log('The recent files list was unreadable and starts empty again.', error),
    }),
    examples: createExampleLibrary(options.examplesDir, (id, error) => log(`Example "${id}" could not be loaded.`, error)),
    tasks: tasksFor(options, log),
    runs: runsFor(options, { journalDir: join(dataDir, 'run-journal'), keyPath: join(root, RUN_JOURNAL_KEY), scope: `workspace:${dataDir}` }, log),
  });
}

/** The secret signing every run journal of a data folder (run/journal.ts). */
const RUN_JOURNAL_KEY = 'run-journal.key';

function runsFor(options: CommonOptions, journal: { journalDir: string; keyPath: string; scope: string }, log: (message: string, error?: unknown) => void): RunService {
  if (options.runs) return options.runs;
  const events = options.events;
  return createRunService({ ...journal, ...(events ? { events } : {}), log });
}

function tasksFor(options: CommonOptions, log: (message: string, error?: unknown) => void): TaskHost {
  if (options.tasks) return options.tasks;
  const events = options.events;
  return createTaskHost({ emit: (event, payload) => events?.emit(event, payload), spawn: taskWorkerSpawner(options.taskWorker ?? TASK_WORKER_SOURCE), log });
}

export interface ElectronHostOptions extends CommonOptions {
  /** `app.getPath('userData')`. */
  userDataDir: string;
  dialogs: Dialogs;
}

/** Handlers for Electron: absolute paths, allowed once picked in a dialog or listed as recent. */
export function createElectronHandlers(options: ElectronHostOptions): ApiHandlers {
  const log = options.log ?? defaultLog;
  // The recent list and the locator need each other: recent entries count as granted paths.
  const recent = createRecentStore({
    filePath: join(options.userDataDir, 'recent.json'),
    exists: (ref) => locator.exists(ref),
    onCorrupt: (error) => log('The recent files list was unreadable and starts empty again.', error),
  });
  const locator = createGrantedLocator({ isRemembered: (path) => recent.has(path) });
  // Saves go to the recent files' folders (and, through a link, their targets' folders).
  cleanUpInBackground(async () => {
    const refs = (await recent.list()).map((file) => file.ref);
    const targets = await Promise.all(refs.map((ref) => realpath(ref).catch(() => ref)));
    return [options.userDataDir, ...[...refs, ...targets].map((path) => dirname(path))].map((path): CleanupFolder => ({ path, depth: 0 }));
  }, log);
  return createHandlers({
    mode: 'electron',
    version: options.version,
    platform: options.platform ?? process.platform,
    files: createFileService(locator),
    recent,
    examples: createExampleLibrary(options.examplesDir, (id, error) => log(`Example "${id}" could not be loaded.`, error)),
    dialogs: options.dialogs,
    grant: (path) => locator.grant(path),
    tasks: tasksFor(options, log),
    runs: runsFor(options, { journalDir: join(options.userDataDir, 'run-journal'), keyPath: join(options.userDataDir, RUN_JOURNAL_KEY), scope: 'app' }, log),
  });
}

/** Problems of one cleanup logged one by one; more are counted. */
const MAX_CLEANUP_PROBLEMS_LOGGED = 5;

/**
 * Removes the temp files of saves a crash interrupted (`removeLeftoverTempFiles`), without holding
 * up startup; what it removed or could not is logged, and nothing it meets is thrown.
 */
function cleanUpInBackground(folders: () => Promise<CleanupFolder[]>, log: (message: string, error?: unknown) => void): void {
  void (async () => {
    const { removed, problems } = await removeLeftoverTempFiles({ folders: await folders() });
    if (removed.length > 0) log(`Removed ${removed.length} temporary file(s) left by interrupted saves: ${removed.join(', ')}`);
    for (const { path, error } of problems.slice(0, MAX_CLEANUP_PROBLEMS_LOGGED)) log(`Could not clean up temporary files at "${path}".`, error);
    if (problems.length > MAX_CLEANUP_PROBLEMS_LOGGED) log(`…and ${problems.length - MAX_CLEANUP_PROBLEMS_LOGGED} more places that could not be cleaned up.`);
  })().catch((error: unknown) => log('Cleaning up temporary files left by interrupted saves failed.', error));
}

function defaultLog(message: string, error?: unknown): void {
  console.error(`[keyplan] ${message}`, ...(error === undefined ? [] : [error]));
}
