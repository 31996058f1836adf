/** Wires every domain's handlers into the router; a missing handler is a type error. */
import type { Services } from '../services/services';
import { appHandlers } from './handlers/app-handlers';
import { demoHandlers } from './handlers/demo-handlers';
import { auditHandlers } from './handlers/audit-handlers';
import { connectionHandlers } from './handlers/connection-handlers';
import { namespaceHandlers } from './handlers/namespace-handlers';
import { objectHandlers } from './handlers/object-handlers';
import { segmentHandlers } from './handlers/segment-handlers';
import { scrubHandlers } from './handlers/scrub-handlers';
import { walHandlers } from './handlers/wal-handlers';
import { walNavigationHandlers } from './handlers/wal-navigation-handlers';
import { walBulkObsoleteHandlers } from './handlers/wal-bulk-obsolete-handlers';
import { walWatermarkRequestHandlers } from './handlers/wal-watermark-request-handlers';
import { walPreflightHandlers } from './handlers/wal-preflight-handlers';
import { searchHandlers } from './handlers/search-handlers';
import { uiPlaceHandlers } from './handlers/ui-place-handlers';
import { ApiRouter, type Handlers } from './router';

export function createRouter(services: Services): ApiRouter {
  const handlers: Handlers = {
    ...appHandlers(services),
    ...connectionHandlers(services),
    ...objectHandlers(services),
    ...auditHandlers(services),
    ...segmentHandlers(services),
    ...namespaceHandlers(services),
    ...walHandlers(services),
    ...scrubHandlers(services),
    ...walNavigationHandlers(services),
    ...walBulkObsoleteHandlers(services),
    ...walWatermarkRequestHandlers(services),
    ...walPreflightHandlers(services),
    ...searchHandlers(services),
    ...demoHandlers(services),
    ...uiPlaceHandlers(services),
  };
  return new ApiRouter(handlers, services.connections, services.audit);
}
