import type { Services } from '../../services/services';
import type { Handlers } from '../router';

export function appHandlers(services: Services): Pick<Handlers, 'app.info'> {
  return {
    'app.info': async () => ({
      name: services.identity.name,
      version: services.identity.version,
      dataDir: services.identity.dataDir,
      mode: services.identity.mode,
      platform: process.platform,
      nodeVersion: process.versions.node,
    }),
  };
}
