/**
 * Damage as the API shows it, in every view that can meet it: an object a scrub (a background
 * verify) or a replay found damaged, the regions and entry ranges a replay loses to it, a hole
 * a replay skipped, and a prefix's health - its State and the reason for each problem. Shapes
 * only; the services decide what is damaged and what a prefix's state is.
 */
import { z } from 'zod';

/** Entries of one region that a damaged segment holds: a replay skips them. */
export const DamagedRange = z.object({
  regionId: z.bigint(),
  firstId: z.bigint(),
  lastId: z.bigint(),
});
export type DamagedRange = z.infer<typeof DamagedRange>;

/** One damaged object, as the scrub or a replay found it; kept until the object changes. */
export const ObjectDamage = z.object({
  key: z.string(),
  seq: z.bigint().nullable(),
  /** Size and ETag of the object found damaged (null when only a replay saw it so far). */
  size: z.number().nullable(),
  etag: z.string().nullable(),
  /** The first check that failed (`segment-crc`, `trailer-crc`, ...), and what it said. */
  check: z.string(),
  detail: z.string(),
  /** Who found it: a scrub read the whole object; a replay skipped a segment of it. */
  source: z.enum(['scrub', 'replay']),
  foundAtMs: z.number(),
  /** The object is on the replayed chain: `ranges` are lost to every replay. */
  onChain: z.boolean(),
  /** The regions and entry ranges it affects (empty when they are not known: off the chain). */
  ranges: z.array(DamagedRange),
});
export type ObjectDamage = z.infer<typeof ObjectDamage>;

/** What a Batches object row says of its damage. */
export const RowDamage = z.object({ check: z.string(), detail: z.string(), source: z.string() });
export type RowDamage = z.infer<typeof RowDamage>;

/** A damaged segment a replay skipped: the entries from `firstId` to `lastId` are missing. */
export const ReplayHoleView = z.object({
  key: z.string(),
  seq: z.bigint(),
  regionId: z.bigint(),
  firstId: z.bigint(),
  lastId: z.bigint(),
  check: z.string(),
  detail: z.string(),
});
export type ReplayHoleView = z.infer<typeof ReplayHoleView>;

export const HealthReasonKind = z.enum([
  'open-refused',
  'error',
  'open-failure',
  'damaged',
  'orphans',
  'two-writers',
  'stale',
]);
export type HealthReasonKind = z.infer<typeof HealthReasonKind>;

/**
 * A prefix's State: `healthy` only when no reason is listed and its objects were all read whole
 * within the verify age; `unverified` when no reason is listed but they were not (what it
 * covers is in `CoverageView`); each problem is one reason with its words (`damaged: 1
 * object, region 1028:0 ids 1500:17-1500:20`).
 */
export const PrefixHealthView = z.object({
  state: z.enum(['reading', 'healthy', 'unverified', 'unhealthy']),
  reasons: z.array(z.object({ kind: HealthReasonKind, text: z.string() })),
  /**
   * What the State column shows: `healthy`, `reading`, `unverified: ...` (why), or the reasons
   * joined by `; `.
   */
  text: z.string(),
});
export type PrefixHealthView = z.infer<typeof PrefixHealthView>;
