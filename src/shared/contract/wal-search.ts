/**
 * Search as the API speaks it (search.md): a job over every region of a prefix, its filters as
 * people type them (the CLI's flags, the console's boxes and its link), its hits streamed to
 * the caller alone as `wal.search.chunk` events - rows of a GreptimeDB prefix, entries of a
 * Cairn one - with the damaged segments skipped, and its progress: objects, bytes, entries and
 * rows read of the plan's, hits per region. Reads only: its procedures are `read` ones.
 */
import { z } from 'zod';
import type { SearchHit } from '../search/search-hits';
import { procedure } from './procedure';
import { JobId, prefixFields } from './wal';
import type { ReplayHoleView } from './wal-damage';

/** The filters and scope of a search as typed (the CLI's flags by name). */
export const SearchText = z.object({
  /** `key=value`, `key!=value`, `key~regex`, `key<n`, `key>n` (GreptimeDB rows). */
  where: z.array(z.string().max(4096)).max(32).default([]),
  since: z.string().max(64).default(''),
  until: z.string().max(64).default(''),
  /** `all` or `R,R,...`. */
  regions: z.string().max(65_536).default('all'),
  /** `FROM..TO`, either end left out; '' for every id. */
  ids: z.string().max(128).default(''),
  /** Text a Cairn payload holds; '' for any. */
  text: z.string().max(4096).default(''),
  limit: z.int().min(1).max(100_000_000).optional(),
  order: z.enum(['ids', 'newest']).default('ids'),
});
export type SearchText = z.infer<typeof SearchText>;

export const SearchProgress = z.object({
  jobId: z.string(),
  state: z.enum(['running', 'paused', 'finished', 'cancelled', 'failed']),
  /** What the hits are: rows (GreptimeDB) or entries (Cairn). */
  kind: z.enum(['row', 'entry']),
  objectsRead: z.number(),
  objectsPlanned: z.number(),
  /** Objects and segments the plan skipped from the footers, never read. */
  objectsSkipped: z.number(),
  bytesRead: z.number(),
  bytesPlanned: z.number(),
  entries: z.number(),
  rows: z.number(),
  hits: z.number(),
  holes: z.number(),
  /** Bulk entries met (their Arrow rows searched), and those left out undecoded by time. */
  bulk: z.number(),
  bulkSkipped: z.number(),
  /** Payloads and bulk entries that gave no rows (not a `WalEntry`, an Arrow body refused). */
  damagedPayloads: z.number(),
  /** Hits per region, in region order (regions with none left out). */
  regions: z.array(z.object({ region: z.bigint(), hits: z.number() })),
  elapsedMs: z.number(),
  /** The search stopped at its limit. */
  limited: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  cancelReason: z.string().nullable(),
});
export type SearchProgress = z.infer<typeof SearchProgress>;

/** A payload, or a bulk entry in it, that gives no rows: named as replay names it. */
export interface DamagedPayloadView {
  readonly what: 'payload' | 'bulk entry';
  /** `region R entry I`. */
  readonly key: string;
  readonly reason: string;
}

/** Damaged payloads a search names to the page, at most (the progress counts them all). */
export const MAX_NAMED_DAMAGED_PAYLOADS = 100;

/** Hits per chunk event, at most (a chunk also leaves every 100 ms when it has any). */
export const MAX_SEARCH_CHUNK = 500;

const JobInput = z.object({ jobId: JobId }).strict();

export const walSearchProcedures = {
  'wal.search.start': procedure(
    'read',
    'Search every region of a prefix: hits stream as `wal.search.chunk` events to the caller (read-only; bounded, cancellable)',
    z.object({ ...prefixFields, ...SearchText.shape }).strict(),
    SearchProgress,
  ),
  'wal.search.pause': procedure('read', 'Pause a search job', JobInput, SearchProgress),
  'wal.search.resume': procedure('read', 'Resume a paused search job', JobInput, SearchProgress),
  'wal.search.cancel': procedure('read', 'Cancel a search job', JobInput, SearchProgress),
  'wal.search.progress': procedure('read', 'Where a search job is', JobInput, SearchProgress),
};

export type SearchEvent =
  | {
      readonly type: 'wal.search.chunk';
      readonly jobId: string;
      readonly hits: readonly SearchHit[];
      /** Damaged segments skipped after `hits`, in stream order. */
      readonly holes?: readonly ReplayHoleView[];
      /** Payloads met among `hits` that gave no rows (the first MAX_NAMED_DAMAGED_PAYLOADS). */
      readonly damaged?: readonly DamagedPayloadView[];
      readonly progress: SearchProgress;
    }
  | { readonly type: 'wal.search.done'; readonly jobId: string; readonly progress: SearchProgress };
