/**
 * Where a replay of one region reads from: the writer this app holds on the prefix, or the
 * prefix's read model in its own format (a prefix that does not recover fails here with its
 * recovery's typed error). Also the region's latest id, which the replay's progress runs to,
 * and the feed of the damaged segments the read skips. A region the prefix does not know is
 * `RegionNotFound` before anything is read.
 */
import type { WalEntry } from '../../engine/wal/entry';
import type { SkippedSegment } from '../../engine/wal/reader';
import type { AnyReadOnlyLog } from '../../engine/wal-read/read-side';
import type { AppWriter } from './app-writer';
import { checkRegionExists, HoleFeed } from './replay-holes';

export interface ReplaySource {
  readonly source: AsyncIterable<WalEntry>;
  readonly latestId: bigint;
  /** The damaged segments the read skipped, in stream order. */
  readonly holes: HoleFeed;
}

export async function replaySourceOf(
  prefix: string,
  writer: AppWriter | undefined,
  readOnlyLog: () => Promise<AnyReadOnlyLog>,
  region: bigint,
  fromId: bigint,
  onSkipped: (skipped: SkippedSegment) => void = () => undefined,
): Promise<ReplaySource> {
  const holes = new HoleFeed(onSkipped);
  if (writer) {
    checkRegionExists(prefix, writer.catalog, region, (r) => writer.listsRegion(r));
    return {
      source: writer.read(region, fromId, holes.options),
      latestId: writer.catalog.latestEntryId(region),
      holes,
    };
  }
  const log = await readOnlyLog();
  checkRegionExists(prefix, log.catalog, region, (r) => log.listsRegion?.(r) ?? false);
  return {
    source: log.read({ prefix, regionId: region }, fromId, holes.options),
    latestId: log.catalog.latestEntryId(region),
    holes,
  };
}
