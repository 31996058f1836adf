/**
 * What raising a region's obsolete watermark would hide, computed from a catalog: the entries
 * above the current watermark up to the new id, and the objects whose segment of the region
 * becomes wholly hidden. Pure; the engine decides and applies the change itself.
 */
import type { ObsoletePreview } from '../../../shared/contract/wal';
import type { ObjectCatalog } from '../../engine/wal/catalog';

export function previewObsolete(
  catalog: ObjectCatalog,
  region: bigint,
  id: bigint,
  latestId = catalog.latestEntryId(region),
): ObsoletePreview {
  const watermark = catalog.watermark(region);
  let hiddenEntries = 0;
  let hiddenObjects = 0;
  let hiddenBytes = 0;
  if (id > watermark) {
    for (const segment of catalog.objectsForRegion(region, watermark + 1n)) {
      if (segment.firstId > id) break;
      // A region's ids inside one object are consecutive positions, so a range counts them.
      const from = segment.firstId > watermark ? segment.firstId : watermark + 1n;
      const to = segment.lastId < id ? segment.lastId : id;
      if (to >= from) hiddenEntries += Number(to - from + 1n);
      if (segment.lastId <= id) {
        hiddenObjects += 1;
        hiddenBytes += segment.length;
      }
    }
  }
  return {
    region,
    id,
    watermark,
    latestId,
    hiddenEntries,
    hiddenObjects,
    hiddenBytes,
    noChange: id <= watermark,
    // What the collection after it would delete needs a listing: see obsolete-deletes.ts.
    deletes: null,
  };
}
