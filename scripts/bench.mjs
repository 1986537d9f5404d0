#!/usr/bin/env node
/**
 * `npm run bench`: registers tsx so the benchmarks run the TypeScript sources as they are (no
 * build), then runs bench/bench.ts. Its last line of output is the JSON summary.
 */
import { register } from 'tsx/esm/api';

register();
await import('../bench/bench.ts');
