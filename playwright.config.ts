import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/support/chromium';

// The operation specs run again on S3 (a StoreUnderTest of kind 's3') when the lane is set.
const S3_SPECS = [
  'fleet.spec.ts',
  'live.spec.ts',
  'greptimedb.spec.ts',
  'wal.spec.ts',
  'wal-takeover.spec.ts',
  'namespaces.spec.ts',
  'segments.spec.ts',
  'links.spec.ts',
  'link.spec.ts',
  'bulk-obsolete.spec.ts',
];

export default defineConfig<{ storeKind: 'local' | 's3' }>({
  projects: [
    { name: 'local', use: { storeKind: 'local' } },
    ...(process.env.CAIRN_S3_ENDPOINT
      ? [{ name: 's3', testMatch: S3_SPECS, use: { storeKind: 's3' as const } }]
      : []),
  ],
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  outputDir: 'test-results/playwright',
  use: {
    viewport: { width: 1280, height: 800 },
    launchOptions: chromiumLaunchOptions,
  },
});
