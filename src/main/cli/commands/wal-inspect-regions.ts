/**
 * The regions table `cairn wal inspect` prints for either format: each region as
 * `table:region`, two of its ids as `seq:position` (what the console shows), then its entries,
 * objects and bytes.
 */
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';
import { table } from '../output';

interface RegionRow {
  readonly regionId: bigint;
  readonly entries: number;
  readonly objects: number;
  readonly bytes: number;
}

export function regionTable<R extends RegionRow>(
  idColumns: readonly [string, string],
  regions: readonly R[],
  ids: (region: R) => readonly [bigint, bigint],
): string[] {
  return table(
    ['REGION', ...idColumns, 'ENTRIES', 'OBJECTS', 'BYTES'],
    regions.map((region) => [
      formatRegionId(region.regionId),
      ...ids(region).map(formatEntryId),
      String(region.entries),
      String(region.objects),
      String(region.bytes),
    ]),
  );
}
