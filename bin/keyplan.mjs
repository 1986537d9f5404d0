#!/usr/bin/env node
// The `keyplan` command: src-main/cli.ts's `main`, run one of two ways with the same output.
// - The bundle `npm run build` writes (out/cli/keyplan.mjs, scripts/build-cli.mjs): plain
//   JavaScript that starts at once. It runs only while current, built from the files exactly as
//   they are now (bin/cli-bundle.mjs), so an edit since the build never meets old code.
// - Otherwise the TypeScript sources through tsx: a checkout that has not built (`npx keyplan`
//   right after `npm ci`), a source changed since the build, or KEYPLAN_CLI_SOURCE=1.
// KEYPLAN_CLI_BUNDLE_DIR names another bundle folder (tests build one of their own).
// Which way ran is deliberately not printed: stdout and stderr are the command's alone.
import { currentBundle } from './cli-bundle.mjs';

async function loadSources() {
  const { register } = await import('tsx/esm/api');
  register();
  return import('../src-main/cli.ts');
}

const bundle = process.env.KEYPLAN_CLI_SOURCE === '1' ? undefined : currentBundle(process.env.KEYPLAN_CLI_BUNDLE_DIR || undefined);
const { main } = bundle ? await import(bundle) : await loadSources();
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });
