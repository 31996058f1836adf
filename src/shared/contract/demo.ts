/**
 * Made-up data: "Generate demo data" and the in-app load generator write entries nobody asked
 * for, so they are offered freely only where that harms nothing - the embedded store, or an
 * empty one (for the load generator: a prefix that holds no entries but those of the writer
 * this app opened) - and anywhere else only behind a typed confirmation naming the connection.
 * The offers say which; the main process enforces the same on every call.
 */
import { z } from 'zod';
import { Confirmation, ConnectionId } from './common';
import { procedure } from './procedure';
import { WalPrefix } from './wal';

export const MadeUpDataOffer = z.object({
  /** The connection's name: what a confirmation asks the user to type. */
  connection: z.string(),
  /** The embedded store (the app's own directory). */
  embedded: z.boolean(),
  /** Demo data: the store holds nothing. The load generator: the prefix holds no one else's entries. */
  empty: z.boolean(),
  /** What the user must type to go on (the connection's name); null when offered freely. */
  confirmPhrase: z.string().nullable(),
});
export type MadeUpDataOffer = z.infer<typeof MadeUpDataOffer>;

export const demoProcedures = {
  'demo.offer': procedure(
    'read',
    'Whether demo data is offered freely on a connection (embedded or empty store) or needs a confirmation naming it',
    z.object({ connectionId: ConnectionId }).strict(),
    MadeUpDataOffer,
  ),
  'demo.generate': procedure(
    // Allowed on a read-only connection: it writes only where nothing is (refused otherwise).
    'config',
    'Write demo data (WAL epochs and regions, namespaces, tiered segments) where nothing is yet; a store neither embedded nor empty needs confirm = the connection name',
    z.object({ connectionId: ConnectionId, confirm: Confirmation.optional() }).strict(),
    z.object({
      walPrefixes: z.array(z.string()),
      entries: z.number(),
      namespaces: z.number(),
      segments: z.number(),
    }),
  ),
  'wal.load.offer': procedure(
    'read',
    'Whether the load generator is offered freely on the writer this app holds (embedded store, or a prefix with no one else’s entries) or needs a confirmation naming the connection',
    z.object({ connectionId: ConnectionId, prefix: WalPrefix }).strict(),
    MadeUpDataOffer,
  ),
};
