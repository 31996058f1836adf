/**
 * Made-up data: demo data and the load generator, each offered freely or only behind a
 * confirmation naming the connection (`MadeUpDataGuard`), checked before the service writes.
 */
import { generateDemoData } from '../../services/demo/demo-data';
import { MadeUpDataGuard } from '../../services/demo/made-up-data-guard';
import type { Services } from '../../services/services';
import type { Handlers } from '../router';

export function demoHandlers(
  services: Services,
): Pick<Handlers, 'demo.offer' | 'demo.generate' | 'wal.load.offer' | 'wal.load.start'> {
  const guard = new MadeUpDataGuard(services.connections, services.wal);
  return {
    'demo.offer': ({ connectionId }) => guard.demoOffer(connectionId),
    'demo.generate': async ({ connectionId, confirm }) => {
      guard.check(await guard.demoOffer(connectionId), 'demo.generate', confirm);
      return generateDemoData(services, connectionId);
    },
    'wal.load.offer': ({ connectionId, prefix }) => guard.loadOffer(connectionId, prefix),
    'wal.load.start': async ({ connectionId, prefix, confirm, ...spec }) => {
      guard.check(await guard.loadOffer(connectionId, prefix), 'wal.load.start', confirm);
      return services.wal.startLoad(connectionId, prefix, spec);
    },
  };
}
