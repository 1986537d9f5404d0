/**
 * THE contract between the UI and its host. Each channel `area.verb` takes one JSON-safe input
 * object and returns one JSON-safe output object. Handlers live in `src-main/handlers`; both
 * transports (Electron IPC, loopback WebSocket) and the in-memory test transport serve them.
 *
 * More on its rules: docs/modules.md, "src-shared/ipc/contract.ts".
 */
import type { Static } from '@sinclair/typebox';
import type { Problem } from '../model/index.ts';
import type * as schemas from './contract-schemas.ts';

/** Codes of the `file.*` channels: reading, writing and picking design files. */
export type FileErrorCode =
  | 'file.notFound'
  | 'file.notJson'
  | 'file.notUtf8'
  | 'file.tooLarge'
  | 'file.notDesign'
  | 'file.unsupportedVersion'
  | 'file.invalidDesign'
  | 'file.outsideWorkspace'
  | 'file.badName'
  | 'file.exists'
  | 'file.changed'
  | 'file.readOnly'
  | 'file.io'
  | 'file.canceled';

/** Codes of the host's background tasks (`sample.*`, `simulation.run`, `solver.run`, `run.start`, `task.cancel`). */
export type TaskErrorCode = 'task.canceled' | 'task.unknown' | 'task.failed';

/** A file as the host names it; see the module comment. */
export type FileRef = Static<typeof schemas.FileRef>;
/** What kind of host this is (`app.info`). */
export type HostInfo = Static<typeof schemas.HostInfo>;
/** A design file in the browser-mode workspace (`file.list`). */
export type FileEntry = Static<typeof schemas.FileEntry>;
/**
 * Which bytes of a file an editor holds: the modification time and a SHA-256 of the content. A save
 * that names the version it started from is refused with `file.changed` when the file differs.
 */
export type FileVersion = Static<typeof schemas.FileVersion>;
/** A design file read (`file.open`, `file.openDialog`). */
export type OpenedFile = Static<typeof schemas.OpenedFile>;
/** A file written (`file.save`, `file.saveAs`, `file.export`). */
export type SavedFile = Static<typeof schemas.SavedFile>;
/** Something that went wrong beside a call that succeeded (`warnings` of `OpenedFile`, `SavedFile`). */
export type HostWarning = Static<typeof schemas.HostWarning>;
/** The kinds of `HostWarning`; see `WARNING_CODES` in `contract-schemas.ts`. */
export type WarningCode = HostWarning['code'];
/** A file of the recent list. */
export type RecentFile = Static<typeof schemas.RecentFile>;
/** A shipped example design. */
export type ExampleInfo = Static<typeof schemas.ExampleInfo>;
/** Commands the host sends to the window (application menu, OS file association). */
export type MenuCommand = Static<typeof schemas.MenuCommand>;

type Contract = typeof schemas.contract;
type EventContract = typeof schemas.eventContract;

/** Each channel's input and output types, derived from the schemas; see `contract` for each channel's documentation. */
export type ApiMap = { [C in keyof Contract]: { input: Static<Contract[C]['input']>; output: Static<Contract[C]['output']> } };
/** Each event's payload type, derived from the schemas. */
export type EventMap = { [E in keyof EventContract]: Static<EventContract[E]> };

export type Channel = keyof ApiMap;
export type EventName = keyof EventMap;
export type Input<C extends Channel> = ApiMap[C]['input'];
export type Output<C extends Channel> = ApiMap[C]['output'];
export type EventPayload<E extends EventName> = EventMap[E];

/**
 * Every channel, as a runtime list: the preload's allowlist and the registration check. Written out
 * rather than read from the schemas, so the preload's bundle holds these strings and nothing else.
 */
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
  'solver.run',
  'run.identify',
  'run.start',
  'run.leftovers',
  'run.cleanup',
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
