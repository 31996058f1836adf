/**
 * Where a replay of one region reads from: the writer this app holds on the prefix, or a
 * read-only open of it in its own format (a prefix that does not open fails here with its
 * recovery's typed error). Also the region's latest id, which the replay's progress runs to.
 */
import { openGtReadOnly } from '../../engine/greptimedb/read-only-log';
import type { WalEntry } from '../../engine/wal/entry';
import { openReadOnly } from '../../engine/wal/read-only-log';
import type { AppWriter } from './app-writer';
import type { Located } from './wal-locate';

export async function replaySourceOf(
  at: Located,
  writer: AppWriter | undefined,
  region: bigint,
  fromId: bigint,
): Promise<{ source: AsyncIterable<WalEntry>; latestId: bigint }> {
  if (writer)
    return { source: writer.read(region, fromId), latestId: writer.catalog.latestEntryId(region) };
  const log =
    at.format === 'greptimedb-v1'
      ? await openGtReadOnly(at.io, at.prefix)
      : await openReadOnly(at.io, at.config);
  return {
    source: log.read({ prefix: at.prefix, regionId: region }, fromId),
    latestId: log.catalog.latestEntryId(region),
  };
}
