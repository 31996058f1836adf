/**
 * What a replay says about the damaged segments it skips: the region must exist before a
 * replay starts (`RegionNotFound`, not an empty success), and every segment the read skips is
 * collected in stream order (for the job's hole rows) and told to the damage ledger. Pure
 * bookkeeping around the engine's read; it decides nothing about damage.
 */
import type { ReplayHoleView } from '../../../shared/contract/wal-damage';
import type { ObjectCatalog } from '../../engine/wal/catalog';
import type { ReadOptions, SkippedSegment } from '../../engine/wal/reader';
import { formatRegionId } from '../../engine/wal/region-id';
import { RegionNotFoundError } from './errors';

/**
 * Refuses a region the prefix does not know: no entry or watermark in the catalog, and not in
 * the register's region table (`listed`, when the format keeps one).
 */
export function checkRegionExists(
  prefix: string,
  catalog: ObjectCatalog,
  region: bigint,
  listed: (region: bigint) => boolean = () => false,
): void {
  if (catalog.region(region) === undefined && !listed(region))
    throw new RegionNotFoundError(prefix, formatRegionId(region));
}

export function holeViewOf(skipped: SkippedSegment): ReplayHoleView {
  return {
    key: skipped.key,
    seq: skipped.seq,
    regionId: skipped.regionId,
    firstId: skipped.firstId,
    lastId: skipped.lastId,
    check: skipped.check,
    detail: skipped.detail,
  };
}

/** The holes one read met, taken in the order met; each also goes to `record` at once. */
export class HoleFeed {
  private pending: ReplayHoleView[] = [];

  constructor(private readonly record: (skipped: SkippedSegment) => void = () => undefined) {}

  /** The read's options: skip damaged segments, and tell this feed about each. */
  readonly options: ReadOptions = {
    onCorruptedSegment: 'skip',
    onSkipped: (skipped) => {
      this.pending.push(holeViewOf(skipped));
      this.record(skipped);
    },
  };

  /** The holes met since the last call. */
  take(): ReplayHoleView[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}
