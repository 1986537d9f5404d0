/**
 * Where the `keyplan` bundle lives and whether it is current. bin/keyplan.mjs asks at every start
 * (reads one small JSON file and stats the files it lists: no build tools are loaded);
 * scripts/build-cli.mjs writes the bundle and its list; bench/cli.ts reports which path it timed.
 *
 * A bundle is current when every file it was built from (the TypeScript sources, package.json,
 * the package.json of each package bundled into it) has the size and modification time it had at
 * the build. Any edit, a new checkout or a deleted file makes it stale, and the bin then runs the
 * sources instead: a bundle never runs code older than the checkout.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The repository root (the folder of package.json). */
export const ROOT = resolve(import.meta.dirname, '..');
/** Where `npm run build` writes the bundle. */
export const DEFAULT_BUNDLE_DIR = join(ROOT, 'out', 'cli');
/** The bundle's entry file, inside its folder. */
export const BUNDLE_ENTRY = 'keyplan.mjs';
/** The list of source files and their fingerprints, inside the bundle's folder; written last. */
export const MANIFEST_FILE = 'sources.json';

/** Size and modification time of `path` (relative to the root), or undefined when it does not exist. */
export function fingerprintOf(path) {
  const stats = statSync(join(ROOT, path), { throwIfNoEntry: false });
  return stats ? { size: stats.size, mtimeMs: stats.mtimeMs } : undefined;
}

/**
 * The file URL of the bundle's entry in `dir` when it was built from the files as they are now;
 * undefined when there is no bundle, its list is unreadable, or any listed file changed.
 */
export function currentBundle(dir = DEFAULT_BUNDLE_DIR) {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
    for (const [path, built] of Object.entries(manifest.sources)) {
      const now = fingerprintOf(path);
      if (now === undefined || now.size !== built.size || now.mtimeMs !== built.mtimeMs) return undefined;
    }
    return pathToFileURL(join(dir, manifest.entry)).href;
  } catch {
    return undefined;
  }
}
