import { z } from 'zod';
import { ConnectionId, Empty } from './common';
import { procedure } from './procedure';
import { hasUnsafeText, UNSAFE_TEXT_RULE } from '../display-text';

const Name = z.string().trim().min(1, 'a name is required').max(80);
const Root = z
  .string()
  .max(512)
  .regex(
    /^(?!\/)(?!.*\/\/)(?!.*(^|\/)\.\.(\/|$))[A-Za-z0-9._\-/]*$/,
    'root must be a relative path without empty or ".." parts',
  );

export const LocalConnectionSpec = z
  .object({
    kind: z.literal('local'),
    name: Name,
    path: z.string().min(1, 'a directory path is required').max(4096),
  })
  .strict();

export const S3ConnectionSpec = z
  .object({
    kind: z.literal('s3'),
    name: Name,
    endpoint: z
      .url({ protocol: /^https?$/, error: 'endpoint must be an http(s) URL' })
      .max(2048)
      .optional(),
    bucket: z
      .string()
      .min(3)
      .max(63)
      .regex(
        /^[a-z0-9][a-z0-9.-]*[a-z0-9]$/,
        'bucket names are 3-63 lowercase letters, digits, dots and dashes',
      ),
    region: z.string().min(1).max(64).default('us-east-1'),
    forcePathStyle: z.boolean().default(false),
    profile: z.string().min(1).max(128).optional(),
    root: Root.default(''),
  })
  .strict();

export const ConnectionSpec = z.discriminatedUnion('kind', [LocalConnectionSpec, S3ConnectionSpec]);
export type ConnectionSpec = z.infer<typeof ConnectionSpec>;

/**
 * A connection as a user saves one: its name must be safe to show (`display-text.ts`). Saved
 * files are read with the lenient `ConnectionSpec`, so an older name never locks the app out.
 */
export const NewConnectionSpec = ConnectionSpec.superRefine((spec, context) => {
  if (hasUnsafeText(spec.name))
    context.addIssue({ code: 'custom', path: ['name'], message: `a name ${UNSAFE_TEXT_RULE}` });
});

const Saved = { id: ConnectionId, builtIn: z.boolean(), operator: z.boolean() };
export const Connection = z.discriminatedUnion('kind', [
  LocalConnectionSpec.extend(Saved),
  S3ConnectionSpec.extend(Saved),
]);
export type Connection = z.infer<typeof Connection>;

/** A burst of small requests through the connection's link: their latency and the rate reached. */
export const LinkMeasure = z.object({
  requests: z.number().int().nonnegative(),
  p50Ms: z.number().nonnegative(),
  p99Ms: z.number().nonnegative(),
  requestsPerSecond: z.number().nonnegative(),
});
export type LinkMeasure = z.infer<typeof LinkMeasure>;

export const ConnectionTest = z.object({
  reachable: z.boolean(),
  writable: z.boolean(),
  createIfAbsent: z.boolean(),
  detail: z.string(),
  /** Null when the store could not be reached. */
  link: LinkMeasure.nullable(),
});
export type ConnectionTest = z.infer<typeof ConnectionTest>;

/** The connection's link as its I/O controller last measured it (the console's header). */
export const LinkView = z.object({
  /** The link's round trip: its fastest answer so far, no queueing in it; null before any. */
  roundTripMs: z.number().nonnegative().nullable(),
  /** Latency of its recent answers (queueing and transfer included); null before any. */
  p50Ms: z.number().nonnegative().nullable(),
  p99Ms: z.number().nonnegative().nullable(),
  inFlight: z.number().int().nonnegative(),
  /** Requests waiting for a slot. */
  waiting: z.number().int().nonnegative(),
  /** Requests the controller lets run at once now. */
  limit: z.number().int().positive(),
  requestsPerSecond: z.number().nonnegative(),
  bytesPerSecond: z.number().nonnegative(),
});
export type LinkView = z.infer<typeof LinkView>;

export const connectionProcedures = {
  'connections.list': procedure('read', 'Saved connections', Empty, z.array(Connection)),
  'connections.add': procedure('config', 'Save a new connection', NewConnectionSpec, Connection),
  'connections.remove': procedure(
    'config',
    'Forget a saved connection (its data is untouched)',
    z.object({ id: ConnectionId }).strict(),
    z.object({ removed: z.literal(true) }),
  ),
  'connections.test': procedure(
    'read',
    'Reachability, permissions and the create-if-absent probe',
    z.object({ id: ConnectionId }).strict(),
    ConnectionTest,
  ),
  'connections.link': procedure(
    'read',
    "The connection's link as last measured: latency, requests in flight, rate",
    z.object({ id: ConnectionId }).strict(),
    LinkView,
  ),
  'connections.setOperator': procedure(
    'config',
    'Switch a connection between read-only and operator mode',
    z.object({ id: ConnectionId, operator: z.boolean() }).strict(),
    Connection,
  ),
};
