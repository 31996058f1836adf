/**
 * Bulk obsolete as the API speaks it: several regions of one prefix (or all of them), each
 * obsoleted up to its own point - its latest id, an entry id, or a time (the newest id written
 * at or before it) - with one preview of everything it hides and of what the collection after
 * it deletes, applied under one typed confirmation and audited one entry per region. Shapes
 * and input limits only; the service resolves the points and applies them.
 */
import { z } from 'zod';
import { Confirmation, ConnectionId } from './common';
import { procedure } from './procedure';
import { formatWalRegion, ObsoletePreview, WalEntryId, WalPrefix, WalRegionId } from './wal';
import { nounFor } from '../plural';

/** Where a region is obsoleted up to. */
export const ObsoletePoint = z.discriminatedUnion('kind', [
  /** Its latest durable id: the region wholly hidden. */
  z.object({ kind: z.literal('latest') }).strict(),
  /** An entry id, at most the latest durable id. */
  z.object({ kind: z.literal('id'), id: WalEntryId }).strict(),
  /**
   * A time (ms since the epoch, UTC): the region's newest id in the objects written at or
   * before it - the longest run of the chain, from its start, whose objects were all last
   * modified by then (so no entry written later is hidden).
   */
  z.object({ kind: z.literal('time'), atMs: z.int().min(0).max(8_640_000_000_000_000) }).strict(),
]);
export type ObsoletePoint = z.infer<typeof ObsoletePoint>;
/** A point as a caller sends it (an entry id may be `seq:position` text). */
export type ObsoletePointInput = z.input<typeof ObsoletePoint>;

const Target = z.object({ region: WalRegionId, upTo: ObsoletePoint.optional() }).strict();

/** The regions: `all` of the prefix, or a list with no region twice. */
const BulkRegions = z.union([
  z.literal('all'),
  z
    .array(Target)
    .min(1)
    .max(10_000)
    .superRefine((targets, ctx) => {
      const seen = new Set<bigint>();
      targets.forEach((target, at) => {
        if (seen.has(target.region))
          ctx.addIssue({
            code: 'custom',
            path: [at, 'region'],
            message: `region ${formatWalRegion(target.region)} is named twice`,
          });
        seen.add(target.region);
      });
    }),
]);

const bulkFields = {
  connectionId: ConnectionId,
  prefix: WalPrefix,
  regions: BulkRegions,
  /** The point of every region that names none. */
  upTo: ObsoletePoint.default({ kind: 'latest' }),
};

export const BulkObsoleteRegion = ObsoletePreview.omit({ deletes: true }).extend({
  upTo: ObsoletePoint,
  /** For a time: the newest object the point maps to (null when no object was written by then). */
  mappedTo: z.object({ seq: z.bigint(), modifiedAtMs: z.number() }).nullable(),
});
export type BulkObsoleteRegion = z.infer<typeof BulkObsoleteRegion>;

export const BulkObsoleteView = z.object({
  prefix: z.string(),
  regions: z.array(BulkObsoleteRegion),
  /** Entries hidden over every region. */
  hiddenEntries: z.number(),
  /** What the garbage collection after the whole bulk deletes (null: nothing). */
  deletes: ObsoletePreview.shape.deletes,
});
export type BulkObsoleteView = z.infer<typeof BulkObsoleteView>;

/** What a user types to confirm a bulk obsolete: `obsolete 8 regions`, `obsolete all regions`. */
export function bulkObsoletePhrase(regions: 'all' | readonly unknown[]): string {
  if (regions === 'all') return 'obsolete all regions';
  return `obsolete ${regions.length} ${nounFor(regions.length, 'region')}`; // typed: no digit grouping
}

export const walBulkObsoleteProcedures = {
  'wal.obsolete.bulk.preview': procedure(
    'read',
    'What obsoleting several regions (or all) up to a point each would hide, and what the collection after it deletes',
    z.object(bulkFields).strict(),
    BulkObsoleteView,
  ),
  'wal.obsolete.bulk': procedure(
    'operate',
    'Obsolete several regions (or all) up to a point each, on the writer opened in the app: one confirmation, one audit entry per region',
    z.object({ ...bulkFields, confirm: Confirmation.optional() }).strict(),
    BulkObsoleteView,
  ),
};
