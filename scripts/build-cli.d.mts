/** Types for scripts/build-cli.mjs, so the tests that build a bundle of their own are type-checked. */
import type { Metafile } from 'esbuild';
import type { Fingerprint } from '../bin/cli-bundle.mjs';

/** Builds the CLI bundle into `outdir` (default out/cli) and writes its sources.json. */
export function buildCli(options?: { outdir?: string }): Promise<{ metafile: Metafile; sources: Record<string, Fingerprint | undefined> }>;
