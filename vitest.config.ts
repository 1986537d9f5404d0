import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['src-shared/**/*.test.ts', 'src-main/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['tests/**/*.dom.test.ts'],
        },
      },
      {
        plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') })],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
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
          environment: 'happy-dom',
          include: ['tests/**/*.dom.test.ts'],
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
    ],
  },
});
