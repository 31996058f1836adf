/** A real service stack on a throwaway data directory, for API and transport tests. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRouter } from '../../src/main/api/create-router';
import type { ApiRouter } from '../../src/main/api/router';
import { createServices, type Services } from '../../src/main/services/services';

export interface TestApp {
  readonly services: Services;
  readonly router: ApiRouter;
  readonly dataDir: string;
  dispose(): Promise<void>;
}

export async function makeTestApp(): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cairn-app-'));
  const services = await createServices({
    name: 'Cairn',
    version: '0.0.0-test',
    mode: 'browser',
    dataDir,
  });
  return {
    services,
    router: createRouter(services),
    dataDir,
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
}
