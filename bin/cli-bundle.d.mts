/** Types for bin/cli-bundle.mjs, so the bench and the tests that import it are type-checked. */

/** The repository root (the folder of package.json). */
export const ROOT: string;
/** Where `npm run build` writes the bundle. */
export const DEFAULT_BUNDLE_DIR: string;
/** The bundle's entry file, inside its folder. */
export const BUNDLE_ENTRY: string;
/** The list of source files and their fingerprints, inside the bundle's folder. */
export const MANIFEST_FILE: string;

/** What a bundle remembers of each file it was built from. */
export interface Fingerprint {
  size: number;
  mtimeMs: number;
}

/** Size and modification time of `path` (relative to the root), or undefined when it does not exist. */
export function fingerprintOf(path: string): Fingerprint | undefined;

/** The file URL of the bundle's entry in `dir` when it was built from the files as they are now. */
export function currentBundle(dir?: string): string | undefined;
