/**
 * Watermark requests as the API speaks them (docs/design/watermark-requests.md): ask the
 * writer that holds a prefix - a production writer in another process - to raise a region's
 * watermark at its next register write, without taking its epoch; and the register's requests
 * with how long each waited. Shapes and input limits only; the service submits and reads.
 */
import { z } from 'zod';
import { Confirmation, ConnectionId } from './common';
import { procedure } from './procedure';
import { ObsoletePreview, WalEntryId, WalPrefix, WalRegionId } from './wal';

const prefixFields = { connectionId: ConnectionId, prefix: WalPrefix };

export const WatermarkRequestRow = z.object({
  id: z.string(),
  region: z.bigint(),
  /** The id asked for: entries with ids at or below it are hidden once applied. */
  watermark: z.bigint(),
  requestedAtMs: z.number(),
  requestedBy: z.string(),
  state: z.enum(['pending', 'applied', 'rejected']),
  /** Pending: how long it has waited so far; settled: how long it waited. */
  waitedMs: z.number(),
  /** The epoch whose writer settled it, when. */
  settledEpoch: z.bigint().nullable(),
  settledAtMs: z.number().nullable(),
  /** Applied: the region's watermark after it (the request's, or a higher one in force). */
  effective: z.bigint().nullable(),
  /** Rejected: why, in the writer's words. */
  reason: z.string().nullable(),
});
export type WatermarkRequestRow = z.infer<typeof WatermarkRequestRow>;

export const WatermarkRequestsView = z.object({
  prefix: z.string(),
  /** The epoch holding the register now, and whether its writer reads requests. */
  writerEpoch: z.bigint(),
  holderReads: z.boolean(),
  /** Whether the holder wrote the register within the live-writer window. */
  holderLive: z.boolean(),
  holderWrittenAgoMs: z.number().nullable(),
  /** Newest first. */
  requests: z.array(WatermarkRequestRow),
});
export type WatermarkRequestsView = z.infer<typeof WatermarkRequestsView>;

export const WatermarkRequestResult = z.object({
  request: WatermarkRequestRow,
  /** The epoch that held the register when the request was written. */
  writerEpoch: z.bigint(),
  /** What the request hides once applied, judged on the prefix as this app reads it. */
  preview: ObsoletePreview,
});
export type WatermarkRequestResult = z.infer<typeof WatermarkRequestResult>;

export const walWatermarkRequestProcedures = {
  'wal.obsolete.request': procedure(
    'operate',
    "Ask the writer holding the prefix to raise a region's watermark to an id at its next register write, without taking its epoch (it is not fenced); confirm = the region",
    z
      .object({
        ...prefixFields,
        region: WalRegionId,
        id: WalEntryId,
        confirm: Confirmation.optional(),
      })
      .strict(),
    WatermarkRequestResult,
  ),
  'wal.obsolete.requests': procedure(
    'read',
    "The register's watermark requests (pending first to settle, newest first) and how long each waited",
    z.object(prefixFields).strict(),
    WatermarkRequestsView,
  ),
};
