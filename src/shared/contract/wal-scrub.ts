/**
 * The scrub as the API speaks it: a background verify of one prefix or of every prefix of a
 * connection (the fleet), with progress, pause, resume and cancel, and the damage it and the
 * replays found, per prefix and per object. Reads only: a scrub never writes a store, so its
 * procedures are `read` ones.
 */
import { z } from 'zod';
import { ConnectionId, ObjectKey } from './common';
import { procedure } from './procedure';
import { JobId, WalPrefix } from './wal';
import { ObjectDamage } from './wal-damage';

export const ScrubJobView = z.object({
  jobId: z.string(),
  connectionId: z.string(),
  /** The prefix scrubbed, or null for the whole fleet (or the background scrub's queue). */
  prefix: z.string().nullable(),
  /**
   * The app's own scrub: prefixes the views read that were not verified within the verify age,
   * one after the other as they are read, resumed where a restart stopped them.
   */
  background: z.boolean(),
  state: z.enum(['running', 'paused', 'finished', 'cancelled', 'failed']),
  /** The prefix being read now (a fleet scrub walks them one after the other). */
  current: z.string().nullable(),
  prefixesDone: z.number(),
  /** Prefixes found so far (the fleet's walk may still be going). */
  prefixesFound: z.number(),
  /** The walk of the fleet is over: `prefixesFound` is the total. */
  walked: z.boolean(),
  /** Objects listed so far, verified, found damaged, and gone (collected meanwhile). */
  listed: z.number(),
  checked: z.number(),
  damaged: z.number(),
  gone: z.number(),
  bytes: z.number(),
  startedAtMs: z.number(),
  endedAtMs: z.number().nullable(),
  /** Prefixes whose scrub failed (storage unreachable...), with the error. */
  failures: z.array(
    z.object({ prefix: z.string(), error: z.object({ code: z.string(), message: z.string() }) }),
  ),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type ScrubJobView = z.infer<typeof ScrubJobView>;

const JobInput = z.object({ jobId: JobId }).strict();

export const walScrubProcedures = {
  'wal.scrub.start': procedure(
    'read',
    'Verify a prefix (or, without one, every prefix of the connection) in the background: every object read and every check run; findings show in every view',
    z.object({ connectionId: ConnectionId, prefix: WalPrefix.optional() }).strict(),
    ScrubJobView,
  ),
  'wal.scrub.jobs': procedure(
    'read',
    "The connection's scrub jobs, newest first (running, paused, and the last ones ended)",
    z.object({ connectionId: ConnectionId }).strict(),
    z.array(ScrubJobView),
  ),
  'wal.scrub.pause': procedure('read', 'Pause a scrub job', JobInput, ScrubJobView),
  'wal.scrub.resume': procedure('read', 'Resume a paused scrub job', JobInput, ScrubJobView),
  'wal.scrub.cancel': procedure('read', 'Cancel a scrub job', JobInput, ScrubJobView),
  'wal.damage': procedure(
    'read',
    'The damaged objects a scrub or a replay found in a prefix, with the regions and entry ranges each affects',
    z.object({ connectionId: ConnectionId, prefix: WalPrefix }).strict(),
    z.array(ObjectDamage),
  ),
  'wal.damage.object': procedure(
    'read',
    'What a scrub or a replay found wrong with one WAL object (null: nothing known)',
    z.object({ connectionId: ConnectionId, key: ObjectKey }).strict(),
    ObjectDamage.nullable(),
  ),
};
