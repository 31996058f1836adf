import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: ['zod'] },
      // `cli`: the `cairn` command bundled as the app bundles the engine; `npm start`'s browser
      // mode runs it, so the engine's host there runs the same code as Electron's main process.
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/main.ts'),
        },
      },
    },
  },
  preload: {
    // A sandboxed preload can require nothing but electron: bundle everything into it.
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        external: ['electron'],
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
