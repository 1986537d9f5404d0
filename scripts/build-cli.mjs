#!/usr/bin/env node
/**
 * `npm run build` (after electron-vite): bundles the `keyplan` command line (src-main/cli.ts) into
 * out/cli/keyplan.mjs, plain JavaScript that starts without compiling ~150 TypeScript modules
 * through tsx. bin/keyplan.mjs runs it while it is current (bin/cli-bundle.mjs).
 *
 *   node scripts/build-cli.mjs [--outdir DIR]
 *
 * - Code that only `keyplan run` needs (src-main/run: the engine, the AWS SDK, dynalite) is loaded
 *   by a dynamic import. Code splitting keeps it so: it goes to a chunk of its own that loads when
 *   `run` does. Without splitting, esbuild would hoist the SDK's static imports into the entry file
 *   and every command would load it at start.
 * - npm packages stay external (node_modules is there at run time), except the ones in BUNDLED:
 *   TypeBox, which every command needs, is ~250 small files as an npm package; inside the bundle it
 *   costs no file lookups at start.
 * - sources.json, the list of the files the bundle was built from, is removed first and written
 *   last: a bin starting during a build finds no list and runs the sources.
 */
import { rmSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_ENTRY, DEFAULT_BUNDLE_DIR, MANIFEST_FILE, ROOT, fingerprintOf } from '../bin/cli-bundle.mjs';

/** npm packages bundled into the CLI rather than loaded from node_modules (see above). */
const BUNDLED = ['@sinclair/typebox'];

/** Every dependency of package.json but BUNDLED: loaded from node_modules when (and if) used. */
function externalPackages() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !BUNDLED.includes(name));
}

/** `node_modules/@scope/name/...` -> `node_modules/@scope/name/package.json`; undefined for a project file. */
function packageJsonOf(input) {
  const parts = input.split('/');
  if (parts[0] !== 'node_modules') return undefined;
  const length = parts[1]?.startsWith('@') ? 3 : 2;
  return [...parts.slice(0, length), 'package.json'].join('/');
}

/**
 * Builds the bundle into `outdir` (default out/cli) and writes its sources.json. Returns esbuild's
 * metafile (outputs and their imports, paths relative to the repository root) and the source list.
 */
export async function buildCli({ outdir = DEFAULT_BUNDLE_DIR } = {}) {
  // Only what this build writes: the folder may be one a caller named.
  for (const written of [MANIFEST_FILE, BUNDLE_ENTRY, 'chunks']) rmSync(join(outdir, written), { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { [BUNDLE_ENTRY.replace(/\.mjs$/, '')]: 'src-main/cli.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: externalPackages(),
    minify: true,
    metafile: true,
    logLevel: 'warning',
  });
  // Project files as themselves, bundled packages by their package.json (a new version changes it).
  const inputs = Object.keys(result.metafile.inputs).map((input) => packageJsonOf(input) ?? input);
  const sources = {};
  for (const path of [...new Set([...inputs, 'package.json'])].sort()) sources[path] = fingerprintOf(path);
  const manifest = join(outdir, MANIFEST_FILE);
  writeFileSync(`${manifest}.tmp`, `${JSON.stringify({ entry: BUNDLE_ENTRY, sources }, null, 1)}\n`);
  renameSync(`${manifest}.tmp`, manifest);
  return { metafile: result.metafile, sources };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const at = process.argv.indexOf('--outdir');
  const named = at === -1 ? DEFAULT_BUNDLE_DIR : process.argv[at + 1];
  if (!named) {
    console.error('build-cli: --outdir takes a folder.');
    process.exit(2);
  }
  const outdir = resolve(named);
  const { sources } = await buildCli({ outdir });
  console.log(`keyplan CLI bundled from ${Object.keys(sources).length} files into ${outdir}`);
}
