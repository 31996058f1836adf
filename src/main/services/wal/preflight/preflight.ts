/**
 * Preflight of a GreptimeDB prefix (GreptimeDB issue #9132: a region whose WAL holds an entry
 * mito cannot decode fails its open, and the datanode loops): the whole verdict GreptimeDB's
 * open would reach, region by region - recovery (a refusal stops every region), then each
 * region's read as GreptimeDB replays it (a damaged segment fetched once more, then a hole
 * with `skip`, the read's failure with `fail`: one read tells both, the first hole being where
 * `fail` stops), then each entry decoded as a `greptime.v1.WalEntry` (bulk entries included)
 * by the decoder Rows and `--rows` use; the first that does not decode stops the region's open
 * and is named `seq:position` of its object with the decoder's reason. Reads only, at the
 * link's width; regions one after another, `onProgress` told after each.
 */
import { decodeWalEntry } from '../../../../shared/greptime/decode/decode-entry';
import { linkedIo } from '../../../engine/objectio/link';
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { gtReadOnlyLogOf } from '../../../engine/greptimedb/read-only-log';
import { normalizePrefix } from '../../../engine/greptimedb/prefix';
import { recoverGtPrefix, type GtRecovery } from '../../../engine/greptimedb/recover';
import { isWalError } from '../../../engine/wal/errors';
import type { EntryId, Seq } from '../../../engine/wal/ids';
import { seqOf } from '../../../engine/wal/ids';
import { objectKey } from '../../../engine/wal/keys';
import type { RegionId } from '../../../engine/wal/region-id';
import type { SkippedSegment } from '../../../engine/wal/reader';

export interface PreflightHole {
  readonly key: string;
  readonly seq: Seq;
  readonly firstId: EntryId;
  readonly lastId: EntryId;
  readonly check: string;
}

export type RegionOpen =
  | { readonly kind: 'opens' }
  | { readonly kind: 'opens-with-holes' }
  /** The open fails at an entry mito cannot decode. */
  | {
      readonly kind: 'fails-at-entry';
      readonly entryId: EntryId;
      readonly key: string;
      readonly reason: string;
      readonly offset: number;
      readonly detail: string;
    }
  /** The open fails before any entry: the prefix's recovery, or a read that could not go on. */
  | { readonly kind: 'fails'; readonly code: string; readonly message: string };

export interface RegionPreflight {
  readonly regionId: RegionId;
  /** Entries read and decoded before the verdict. */
  readonly entries: number;
  /** With `on_corrupted_segment = skip` (GreptimeDB's default). */
  readonly open: RegionOpen;
  readonly holes: readonly PreflightHole[];
  /** With `on_corrupted_segment = fail`: the segment the read stops at (the first hole), or null. */
  readonly failsOnDamageAt: PreflightHole | null;
}

export interface PreflightReport {
  readonly prefix: string;
  readonly layout: GtRecovery['layout'];
  /** Why the prefix does not open at all (GreptimeDB's refusal, a chain failure); null: it opens. */
  readonly failure: { readonly code: string; readonly message: string } | null;
  readonly regions: readonly RegionPreflight[];
  /** Every region opens, with `skip`, without a hole. */
  readonly allOpen: boolean;
}

export interface PreflightProgress {
  readonly regionsDone: number;
  readonly regions: number;
  readonly entries: number;
}

/** Every region named in any footer the scan read, ascending. */
function regionsOf(recovery: GtRecovery): RegionId[] {
  const ids = new Set<RegionId>();
  for (const object of recovery.scan.objects)
    for (const segment of object.segments) ids.add(segment.regionId);
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function holeOf(skipped: SkippedSegment): PreflightHole {
  const { key, seq, firstId, lastId, check } = skipped;
  return { key, seq, firstId, lastId, check };
}

function failureOf(error: unknown): { code: string; message: string } {
  if (isWalError(error)) return { code: error.code, message: error.message };
  throw error;
}

async function preflightRegion(
  read: (
    regionId: RegionId,
    onSkipped: (s: SkippedSegment) => void,
  ) => AsyncIterable<{
    readonly id: EntryId;
    readonly data: Uint8Array;
  }>,
  prefix: string,
  regionId: RegionId,
  onEntry: () => void,
): Promise<RegionPreflight> {
  const holes: PreflightHole[] = [];
  let entries = 0;
  const verdict = (open: RegionOpen): RegionPreflight => ({
    regionId,
    entries,
    open,
    holes,
    failsOnDamageAt: holes[0] ?? null,
  });
  try {
    for await (const entry of read(regionId, (s) => holes.push(holeOf(s)))) {
      const decoded = decodeWalEntry(entry.data);
      if (!decoded.ok) {
        const { reason, offset, detail } = decoded.failure;
        const key = objectKey(prefix, seqOf(entry.id));
        return verdict({ kind: 'fails-at-entry', entryId: entry.id, key, reason, offset, detail });
      }
      entries += 1;
      onEntry();
    }
  } catch (error) {
    return verdict({ kind: 'fails', ...failureOf(error) });
  }
  return verdict(holes.length === 0 ? { kind: 'opens' } : { kind: 'opens-with-holes' });
}

export async function preflightPrefix(
  storage: ObjectIo,
  rawPrefix: string,
  onProgress: (progress: PreflightProgress) => void = () => undefined,
): Promise<PreflightReport> {
  const io = linkedIo(storage);
  const prefix = normalizePrefix(rawPrefix);
  const recovery = await recoverGtPrefix(io, prefix);
  const regionIds = regionsOf(recovery);
  if (recovery.failure !== null) {
    const failure = failureOf(recovery.failure);
    const regions = regionIds.map((regionId) => ({
      regionId,
      entries: 0,
      open: { kind: 'fails' as const, ...failure },
      holes: [],
      failsOnDamageAt: null,
    }));
    return { prefix, layout: recovery.layout, failure, regions, allOpen: false };
  }
  const log = gtReadOnlyLogOf(io, recovery, { onCorruptedSegment: 'skip' });
  const regions: RegionPreflight[] = [];
  let entries = 0;
  for (const regionId of regionIds) {
    const result = await preflightRegion(
      (region, onSkipped) => log.read({ prefix, regionId: region }, 0n, { onSkipped }),
      prefix,
      regionId,
      () => {
        entries += 1;
      },
    );
    regions.push(result);
    onProgress({ regionsDone: regions.length, regions: regionIds.length, entries });
  }
  const allOpen = regions.every((r) => r.open.kind === 'opens');
  return { prefix, layout: recovery.layout, failure: null, regions, allOpen };
}
