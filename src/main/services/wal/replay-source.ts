/**
 * Where a replay of one region reads from: the writer this app holds on the prefix, or the
 * prefix's read model in its own format (a prefix that does not recover fails here with its
 * recovery's typed error). Also the region's latest id, which the replay's progress runs to.
 */
import type { WalEntry } from '../../engine/wal/entry';
import type { AnyReadOnlyLog } from '../../engine/wal-read/read-side';
import type { AppWriter } from './app-writer';

export async function replaySourceOf(
  prefix: string,
  writer: AppWriter | undefined,
  readOnlyLog: () => Promise<AnyReadOnlyLog>,
  region: bigint,
  fromId: bigint,
): Promise<{ source: AsyncIterable<WalEntry>; latestId: bigint }> {
  if (writer)
    return { source: writer.read(region, fromId), latestId: writer.catalog.latestEntryId(region) };
  const log = await readOnlyLog();
  return {
    source: log.read({ prefix, regionId: region }, fromId),
    latestId: log.catalog.latestEntryId(region),
  };
}
