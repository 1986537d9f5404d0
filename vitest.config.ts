import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

// A hang guard, not a speed target (speed is measured by `npm run bench`): tests that build a
// 2,000,000-item sample or run the host's workers need more than vitest's 5 s on a busy 2-core machine.
const testTimeout = 30_000;

/**
 * Keyplan's per-user data folder during tests (src-main/files/data-folder.ts): a host or a
 * `keyplan run` a test starts without its own `dataDir` never writes to the developer's.
 */
const env = { KEYPLAN_DATA_DIR: join(tmpdir(), `keyplan-vitest-data-${process.pid}`) };

/**
 * Test files that replace a module (`vi.mock`) for the whole file. Vitest hoists a mock into the
 * module graph of the process it runs in, so these files get a fresh process each (`node-isolated`);
 * every other Node test shares its worker's module cache (`isolate: false`), which skips reloading
 * the domain code for each of ~250 files: 358 s of CPU became 212 s. `tests/vitest-isolation.test.ts`
 * fails when a file that calls `vi.mock` is missing here.
 */
export const MOCKING_FILES = [
  'src-main/window.test.ts',
  'src-main/files/atomic-write.test.ts',
  'src-main/files/create-exclusive.test.ts',
];

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one on a 2-core machine, where tests that wait
    // on a child process, a socket or dynalite leave a core idle. At least two: 379 s became 300 s there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'node',
          testTimeout,
          environment: 'node',
          include: ['src-shared/**/*.test.ts', 'src-main/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['tests/**/*.dom.test.ts', ...MOCKING_FILES],
          isolate: false,
          env,
        },
      },
      {
        test: { name: 'node-isolated', testTimeout, environment: 'node', include: MOCKING_FILES, env },
      },
      {
        plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') })],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
          testTimeout,
          environment: 'happy-dom',
          include: ['src-renderer/**/*.test.ts'],
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        // The renderer's state classes against the real host handlers (in memory), IndexedDB faked.
        plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') })],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'integration',
          testTimeout,
          environment: 'happy-dom',
          include: ['tests/**/*.dom.test.ts'],
          env,
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
    ],
  },
});
