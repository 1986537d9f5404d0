#!/usr/bin/env node
// The `keyplan` command: runs the TypeScript CLI directly (no build step), so `npx keyplan` works
// right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src-main/cli.ts');
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });
