/**
 * `wal.preflight`: what GreptimeDB's open of a GreptimeDB prefix would do, region by region
 * (recovery, each region's read with `skip` and `fail`, each entry decoded as a `WalEntry`),
 * each region with its line as `cairn wal preflight` prints it. Reads only.
 */
import { z } from 'zod';
import { ConnectionId } from './common';
import { procedure } from './procedure';
import { WalPrefix } from './wal';

const Hole = z.object({
  key: z.string(),
  seq: z.bigint(),
  firstId: z.bigint(),
  lastId: z.bigint(),
  check: z.string(),
});

export const PreflightView = z.object({
  prefix: z.string(),
  layout: z.enum(['chained', 'merged', 'mixed', 'empty']),
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Every region opens with `skip` and no hole. */
  allOpen: z.boolean(),
  regions: z.array(
    z.object({
      regionId: z.bigint(),
      entries: z.number(),
      verdict: z.enum(['opens', 'opens-with-holes', 'fails-at-entry', 'fails']),
      holes: z.array(Hole),
      failsOnDamageAt: Hole.nullable(),
      /** The region's line, as the CLI prints it. */
      line: z.string(),
    }),
  ),
});
export type PreflightView = z.infer<typeof PreflightView>;

export const walPreflightProcedures = {
  'wal.preflight': procedure(
    'read',
    "GreptimeDB's open of a GreptimeDB prefix, region by region: opens, opens with holes, or the entry that stops it",
    z.object({ connectionId: ConnectionId, prefix: WalPrefix }).strict(),
    PreflightView,
  ),
};
