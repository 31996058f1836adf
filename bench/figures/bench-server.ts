/**
 * The app's services behind browser mode on a free port, as `cairn serve` starts them, for
 * figures that go through the web transport.
 */
import { createRouter } from '../../src/main/api/create-router';
import { createServices } from '../../src/main/services/services';
import { startWebServer } from '../../src/main/web/web-server';

export interface BenchServer {
  readonly server: Awaited<ReturnType<typeof startWebServer>>;
  readonly services: Awaited<ReturnType<typeof createServices>>;
}

export async function startBenchServer(dataDir: string, rendererDir: string): Promise<BenchServer> {
  const services = await createServices({
    name: 'Cairn',
    version: 'bench',
    mode: 'browser',
    dataDir,
  });
  const server = await startWebServer({
    router: createRouter(services),
    events: services.events,
    rendererDir,
    port: 0,
  });
  return { server, services };
}
