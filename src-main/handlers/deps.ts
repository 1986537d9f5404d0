/** What the handlers need from their host, injected so tests use real services and fake only dialogs. */
import type { FileRef } from '../../src-shared/ipc/index.ts';
import type { FileService } from '../files/file-service.ts';
import type { ExampleLibrary } from '../files/examples.ts';
import type { RecentStore } from '../files/recent-store.ts';
import type { RunService } from '../run/service.ts';
import type { TaskHost } from '../tasks/task-host.ts';

/** The native file dialogs (Electron); each returns the chosen absolute path, or undefined on cancel. */
export interface Dialogs {
  chooseFileToOpen(): Promise<string | undefined>;
  chooseFileToSave(suggestedName: string): Promise<string | undefined>;
  /** Where to save an exported file (any type; filtered by the suggestion's extension). */
  chooseExportFile(suggestedName: string): Promise<string | undefined>;
}

interface CommonDeps {
  version: string;
  platform: string;
  files: FileService;
  recent: RecentStore;
  examples: ExampleLibrary;
  /** Runs simulations and sample generation in worker threads. */
  tasks: TaskHost;
  /** Runs designs on a DynamoDB-compatible engine (`run.*`). */
  runs: RunService;
}

export interface BrowserDeps extends CommonDeps {
  mode: 'browser';
}

export interface ElectronDeps extends CommonDeps {
  mode: 'electron';
  dialogs: Dialogs;
  /** Allows a path the user picked in a dialog for later calls (`createGrantedLocator().grant`). */
  grant: (path: string) => FileRef;
}

export type HandlerDeps = BrowserDeps | ElectronDeps;
