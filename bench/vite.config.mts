/**
 * Builds the benchmarks into one bundle (`out/bench/index.js`), as `electron-vite build`
 * bundles the engine into Electron's main process: the figures then measure the engine's code
 * as the app runs it, not tsx's per-module wrappers (under tsx every read of an imported
 * binding is a getter call, and the engine's hot paths read many).
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const projectRoot = resolve(import.meta.dirname, '..');

export default defineConfig({
  root: projectRoot,
  logLevel: 'warn',
  build: {
    ssr: resolve(projectRoot, 'bench/index.ts'),
    outDir: resolve(projectRoot, 'out/bench'),
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    target: 'node20',
    rollupOptions: { output: { format: 'cjs', entryFileNames: 'index.js' } },
  },
});
