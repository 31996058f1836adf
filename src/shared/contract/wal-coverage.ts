/**
 * What a health answer covers: which of a prefix's objects were read whole and CRC-checked
 * (a scrub or `cairn wal fleet --verify`), when, and which are known only by their footers
 * (what recovery reads). A prefix whose objects were never all read whole, or not within the
 * verify age (24 h unless configured), is `unverified`, never plain healthy. Shapes only; the
 * services decide.
 */
import { z } from 'zod';

export const CoverageView = z.object({
  /**
   * `verified`: a complete verify within `maxAgeMs`; `stale`: the last complete one is older;
   * `never`: no complete verify (a partial one may be under way: `partial`).
   */
  state: z.enum(['verified', 'stale', 'never']),
  /** When the last complete verify of the prefix started (every object listed then was read). */
  verifiedAtMs: z.number().nullable(),
  /** Objects and bytes the last complete verify read whole, and how many it found damaged. */
  objects: z.number(),
  bytes: z.number(),
  damaged: z.number(),
  /** The highest sequence it read whole; objects above it are known only by their footers. */
  throughSeq: z.bigint().nullable(),
  /** Objects on the chain known only by their footers (written since, or never verified). */
  footerOnly: z.number().nullable(),
  /** A verify that stopped part-way (kept across restarts, resumed from where it stopped). */
  partial: z
    .object({ startedAtMs: z.number(), objects: z.number(), afterKey: z.string() })
    .nullable(),
  /** The age beyond which a verify no longer counts. */
  maxAgeMs: z.number(),
  /** In words: `verified 3 min ago: 12 objects read whole, 2 only by footer`. */
  text: z.string(),
});
export type CoverageView = z.infer<typeof CoverageView>;
