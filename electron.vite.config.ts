import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        // index: the Electron main process; web: the same host served to a browser (no electron import);
        // task-worker: the worker thread simulations and sample generation run in (out/main/task-worker.js).
        input: {
          index: resolve(root, 'src-main/index.ts'),
          web: resolve(root, 'src-main/web.ts'),
          'task-worker': resolve(root, 'src-main/tasks/task-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rolldownOptions: {
        input: { index: resolve(root, 'src-main/preload.ts') },
        // A sandboxed preload cannot be an ES module: emit CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') })],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // electron-vite leaves the renderer unminified; Monaco alone is 5 MB that way.
      minify: true,
      rolldownOptions: { input: { index: resolve(root, 'src-renderer/index.html') } },
    },
  },
});
