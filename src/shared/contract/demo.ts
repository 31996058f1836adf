import { z } from 'zod';
import { ConnectionId } from './common';
import { procedure } from './procedure';

export const demoProcedures = {
  'demo.generate': procedure(
    // Allowed on a read-only connection: it writes only into an empty store (refused otherwise).
    'config',
    'Fill an empty store with demo data: WAL epochs and regions, namespaces, tiered segments',
    z.object({ connectionId: ConnectionId }).strict(),
    z.object({
      walPrefixes: z.array(z.string()),
      entries: z.number(),
      namespaces: z.number(),
      segments: z.number(),
    }),
  ),
};
