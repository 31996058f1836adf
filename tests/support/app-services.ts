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

/** An app on a new data directory; its background scrub only when asked (it reads on its own). */
export async function makeTestApp(options: { backgroundScrub?: boolean } = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cairn-app-'));
  const services = await createServices({
    name: 'Cairn',
    version: '0.0.0-test',
    mode: 'browser',
    dataDir,
    backgroundScrub: options.backgroundScrub === true,
  });
  return {
    services,
    router: createRouter(services),
    dataDir,
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
}
