/**
 * THE contract between the UI and its host. Each channel `area.verb` takes one JSON-safe input
 * object and returns one JSON-safe output object. Handlers live in `src-main/handlers`; both
 * transports (Electron IPC, loopback WebSocket) and the in-memory test transport serve them.
 *
 * Files are named by an opaque `FileRef` the host hands out: in browser mode a path relative to the
 * workspace folder, in Electron an absolute path the user picked in a native dialog or reopened from
 * the recent list. The host refuses any other reference.
 */
import type { Design } from '../model/schema.ts';
import type { SimulationResult } from '../partition/types.ts';
import type { SampleRow, SampleSummary } from '../sample/types.ts';
import type { Problem } from '../model/problems.ts';

export type FileErrorCode =
  | 'file.notFound'
  | 'file.notJson'
  | 'file.notUtf8'
  | 'file.notDesign'
  | 'file.unsupportedVersion'
  | 'file.invalidDesign'
  | 'file.outsideWorkspace'
  | 'file.badName'
  | 'file.exists'
  | 'file.changed'
  | 'file.io'
  | 'file.canceled'
  | 'task.canceled'
  | 'task.unknown'
  | 'task.failed';

export type FileRef = string;

export interface HostInfo {
  /** `electron`: native dialogs and menu. `browser`: the UI in a browser, files inside a workspace folder. */
  mode: 'electron' | 'browser';
  version: string;
  /** Browser mode: the folder files are confined to, for display. */
  workspaceDir?: string;
  platform: string;
}

export interface FileEntry {
  ref: FileRef;
  name: string;
  sizeBytes: number;
  modifiedAt: string;
}

/**
 * Which bytes of a file an editor holds: the modification time and a SHA-256 of the content. A save
 * that names the version it started from is refused with `file.changed` when the file differs.
 */
export interface FileVersion {
  mtimeMs: number;
  sha256: string;
}

export interface OpenedFile {
  ref: FileRef;
  name: string;
  design: Design;
  /** The version read: what `file.save`'s `expected` names. */
  version: FileVersion;
  /** Set when the file was written by an older format version and migrated on open. */
  migratedFrom?: number;
}

export interface SavedFile {
  ref: FileRef;
  name: string;
  savedAt: string;
  /** Where the previous version was kept, if there was one. */
  backupRef?: FileRef;
  /** The version written (design saves; exports have none). */
  version?: FileVersion;
}

export interface RecentFile {
  ref: FileRef;
  name: string;
  openedAt: string;
}

export interface ExampleInfo {
  id: string;
  name: string;
  description: string;
}

/** Commands the host sends to the window (application menu, OS file association). */
export type MenuCommand = 'new' | 'open' | 'save' | 'saveAs' | 'import' | 'export' | 'undo' | 'redo';

export interface ApiMap {
  /** What kind of host this is. */
  'app.info': { input: Record<string, never>; output: HostInfo };
  /** Browser mode: the `*.keyplan.json` files in the workspace folder. Electron: an empty list. */
  'file.list': { input: Record<string, never>; output: { files: FileEntry[] } };
  /**
   * Opens a design file. Errors: `file.notFound`, `file.notUtf8` (details: byte offset, line, column), `file.notJson`, `file.notDesign`,
   * `file.unsupportedVersion`, `file.invalidDesign` (details: Problem[]), `file.outsideWorkspace`.
   */
  'file.open': { input: { ref: FileRef }; output: OpenedFile };
  /** Electron: the native open dialog, then `file.open`. Error `file.canceled` when the user cancels. */
  'file.openDialog': { input: Record<string, never>; output: OpenedFile };
  /**
   * Writes the design atomically over `ref`, keeping the previous version as `<name>.bak`. With
   * `expected` (the version the editor opened or last saved), the save is refused with `file.changed`
   * (details: `{ version }`, the version on disk, or `{ version: null }` when the file is gone) when
   * the file on disk is not that version: another window or program changed it.
   */
  'file.save': { input: { ref: FileRef; design: Design; expected?: FileVersion }; output: SavedFile };
  /** The version of `ref` on disk now, or null when it no longer exists: how editors notice outside changes. */
  'file.version': { input: { ref: FileRef }; output: { version: FileVersion | null } };
  /**
   * Saves under a new name. Browser mode: `name` inside the workspace (`.keyplan.json` added), error
   * `file.exists` unless `overwrite`. Electron: the native save dialog, `name` as its suggestion.
   */
  'file.saveAs': { input: { name: string; design: Design; overwrite?: boolean }; output: SavedFile };
  /**
   * Saves an exported text (a CloudFormation template, a NoSQL Workbench model, ...). Browser mode:
   * `name` as given inside the workspace folder (atomic write, no backup); `file.exists` unless
   * `overwrite`; `file.badName` for a design or backup name. Electron: the native save dialog, `name`
   * as its suggestion; `file.canceled` when the user cancels. Not added to the recent files.
   */
  'file.export': { input: { name: string; content: string; overwrite?: boolean }; output: SavedFile };
  'recent.list': { input: Record<string, never>; output: { files: RecentFile[] } };
  'examples.list': { input: Record<string, never>; output: { examples: ExampleInfo[] } };
  /** Loads a shipped example as a new, unsaved design. */
  'examples.open': { input: { id: string }; output: { design: Design } };
  /**
   * Generates seeded sample items for one table in a worker thread (progress: `task.progress` with
   * this `runId`, chosen by the caller). The items stay in the host; `sample.page` reads them.
   * A new generation for the same `documentId` cancels the one still running for it. Tasks wait in
   * a queue (`task.progress` state `queued`) while every worker of the host's pool is busy.
   * Errors: `task.canceled`, `task.failed`.
   */
  'sample.generate': { input: { runId: string; design: Design; tableId: string; seed?: number; documentId?: string }; output: SampleSummary };
  /**
   * A page of one view (`table` or an index name), grouped by partition key and sorted by sort key.
   * Offsets count lines: each item collection starts with a header line, then its items.
   */
  'sample.page': { input: { runId: string; view: string; offset: number; limit: number }; output: { total: number; rows: SampleRow[] } };
  /** The line of the first item collection whose partition key starts with `key` in a view (its header line), or null. */
  'sample.find': { input: { runId: string; view: string; key: string }; output: { offset: number | null } };
  /**
   * Runs the partition simulator on one table of `design` in a worker thread (progress:
   * `task.progress`). `start`: `cold` (default, a new table) or `warm` (the base load has run
   * before); `limits`: `independent` (default) or `linear` partition read/write limits; `headroom`
   * of the recommended shard counts (at least 1, default 1.25). A new simulation for the same
   * `documentId` cancels the one still running for it; queued as `sample.generate`. Errors: `ipc.badInput` (path
   * `start`, `limits` or `headroom`), `task.canceled`, `task.failed`.
   */
  'simulation.run': {
    input: {
      runId: string;
      design: Design;
      tableId: string;
      seed?: number;
      documentId?: string;
      start?: 'cold' | 'warm';
      limits?: 'independent' | 'linear';
      headroom?: number;
    };
    output: SimulationResult;
  };
  /** Cancels a running `sample.generate` or `simulation.run`; its call then fails with `task.canceled`. */
  'task.cancel': { input: { runId: string }; output: { canceled: boolean } };
}

export interface EventMap {
  'menu.command': { command: MenuCommand };
  /**
   * Progress of a long task (sample generation, simulation): `done` of `total` steps. `state` is
   * `queued` while the task waits for a free worker, `running` (or absent) once it runs.
   */
  'task.progress': { runId: string; done: number; total: number; label: string; state?: 'queued' | 'running' };
}

export type Channel = keyof ApiMap;
export type EventName = keyof EventMap;
export type Input<C extends Channel> = ApiMap[C]['input'];
export type Output<C extends Channel> = ApiMap[C]['output'];
export type EventPayload<E extends EventName> = EventMap[E];

/** Every channel, as a runtime list: the preload's allowlist and the registration check. */
export const channels = [
  'app.info',
  'file.list',
  'file.open',
  'file.openDialog',
  'file.save',
  'file.saveAs',
  'file.export',
  'file.version',
  'recent.list',
  'examples.list',
  'examples.open',
  'sample.generate',
  'sample.page',
  'sample.find',
  'simulation.run',
  'task.cancel',
] as const satisfies readonly Channel[];

export const events = ['menu.command', 'task.progress'] as const satisfies readonly EventName[];

// Compile-time check that the runtime lists name every channel and event, no more and no fewer.
type Missing<All, Listed> = Exclude<All, Listed>;
const everyChannelListed: Missing<Channel, (typeof channels)[number]> extends never ? true : never = true;
const everyEventListed: Missing<EventName, (typeof events)[number]> extends never ? true : never = true;
void everyChannelListed;
void everyEventListed;

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && (channels as readonly string[]).includes(name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && (events as readonly string[]).includes(name);
}

/** The host side: one handler per channel. The compiler flags a missing or extra one. */
export type ApiHandlers = { [C in Channel]: (input: Input<C>) => Promise<Output<C>> };

/** What the host can push to its window(s). */
export interface EventSink {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

export type { Problem };
