/**
 * What GreptimeDB's recovery of a merged-layout prefix reaches, in one value: the open's
 * verdict (refusals, next sequence, each region's latest id) and the writer runs, with the
 * instances that wrote more than one run. Pure: over a scan already made.
 */
import type { GtOpenRefusedError } from '../open-errors';
import type { EntryId, Seq } from '../../wal/ids';
import type { RegionId } from '../../wal/region-id';
import type { GtScan } from '../scan';
import { judgeMergedOpen } from './open-verdict';
import {
  interleavedWriters,
  interleavingText,
  writerRunsOf,
  type GtInterleavedWriter,
  type GtWriterRun,
} from './writer-runs';

export interface GtMergedLog {
  /** Every rule GreptimeDB's open would stop at, by sequence; the first decides. */
  readonly refusals: readonly GtOpenRefusedError[];
  readonly nextSeq: Seq | null;
  readonly latestIds: ReadonlyMap<RegionId, EntryId>;
  readonly runs: readonly GtWriterRun[];
  readonly interleaved: readonly GtInterleavedWriter[];
  /** `two writers: …` when an instance wrote more than one run; null otherwise. */
  readonly twoWriters: string | null;
}

export function mergedLogOf(prefix: string, scan: GtScan): GtMergedLog {
  const verdict = judgeMergedOpen(prefix, scan.objects, scan.damaged);
  const runs = writerRunsOf(scan.objects);
  const interleaved = interleavedWriters(runs);
  return {
    ...verdict,
    runs,
    interleaved,
    twoWriters: interleaved.length === 0 ? null : interleavingText(interleaved, runs),
  };
}
