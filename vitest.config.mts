import { defineConfig } from 'vitest/config';

// Test files that replace a module with `vi.mock` run in their own module graph; every other
// file shares its worker's graph (`isolate: false`), which skips re-importing the engine for
// each of ~180 files: on this 2-core box that import work was a third of the suite's CPU time.
const OWN_MODULE_GRAPH = [
  'tests/shell/security.test.ts',
  'tests/namespaces-api/namespace-api.test.ts',
];

const shared = {
  environment: 'node',
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks',
} as const;

// Most of the suite waits (child processes, radosgw, timers): on a 2-core box vitest's default
// of cores - 1 ran one file at a time with the CPU two-thirds idle.
const WORKERS = Number(process.env.CAIRN_TEST_WORKERS ?? 4);

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    projects: [
      {
        test: {
          ...shared,
          name: 'shared-graph',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/e2e/**', 'node_modules/**', ...OWN_MODULE_GRAPH],
          isolate: false,
        },
      },
      {
        test: { ...shared, name: 'own-graph', include: OWN_MODULE_GRAPH, isolate: true },
      },
    ],
  },
});
