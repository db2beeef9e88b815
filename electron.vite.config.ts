/**
 * Builds the three parts of the desktop app into out/: main (Node, ESM), preload (CommonJS,
 * because a sandboxed preload cannot be an ES module) and the renderer (React, served by the
 * window or by the browser host, and the floor view at renderer/floor/, docs/architecture.md
 * "Renderer").
 */
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'electron/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      emptyOutDir: true,
      // Two pages from one renderer: the planner's app, and the floor view every server serves at /floor/.
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'renderer/index.html'),
          floor: resolve(import.meta.dirname, 'renderer/floor/index.html'),
        },
      },
    },
  },
});
