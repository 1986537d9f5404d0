/**
 * Where a `FileRef` may point. Browser mode confines refs to the workspace folder
 * (`workspace-locator.ts`); Electron accepts the absolute paths the user picked in a native dialog or
 * reopened from the recent list (`granted-locator.ts`). The file service works over either.
 */
import type { FileRef } from '../../src-shared/ipc/index.ts';

/** Design files end with this; a name without it gets it added. */
export const DESIGN_SUFFIX = '.keyplan.json';
/** The previous version of `x.keyplan.json` is kept as `x.keyplan.json.bak`. */
export const BACKUP_SUFFIX = '.bak';

export interface ResolvedFile {
  /** The canonical ref, as the UI should hold it. */
  ref: FileRef;
  /** Absolute path on disk. */
  path: string;
  /** How messages name the file. */
  label: string;
}

export interface FileLocator {
  /** Browser mode: the folder files are confined to. */
  readonly workspaceDir?: string;
  /** A file to read. Errors: `file.outsideWorkspace`, `file.badName`, `file.notFound`. */
  resolveForRead(ref: FileRef): Promise<ResolvedFile>;
  /** A file to write, which may not exist yet. Errors: as `resolveForRead`. */
  resolveForWrite(ref: FileRef): Promise<ResolvedFile>;
  /**
   * An exported file to write (any name but a design's or a backup's; no suffix added). Errors: as
   * `resolveForRead`.
   */
  resolveExportForWrite(ref: FileRef): Promise<ResolvedFile>;
  /** The design files the user can choose from (browser mode), sorted by ref. */
  listFiles(): Promise<ResolvedFile[]>;
  /** Whether `ref` names an existing, reachable file; never throws. */
  exists(ref: FileRef): Promise<boolean>;
}

/** `orders` → `orders.keyplan.json`; a name that already ends with the suffix is kept. */
export function withDesignSuffix(name: string): string {
  return name.endsWith(DESIGN_SUFFIX) ? name : `${name}${DESIGN_SUFFIX}`;
}
