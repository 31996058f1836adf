/**
 * The provisional snapshot of a prefix whose first open is still running, made of what its
 * scan has read so far (`OpenInProgress`), newest first: the engine's provisional judgement
 * (links to objects not read yet taken on trust), then the same report a finished open gives,
 * with the progress that says it is provisional. Never reads storage.
 */
import { gtInspectReportOf } from '../../../engine/greptimedb/inspect';
import { gtRecoveryOf } from '../../../engine/greptimedb/recover';
import type { GtScanOutcome } from '../../../engine/greptimedb/scan';
import { provisionalInspection, type InspectionStart } from '../../../engine/wal/inspect';
import type { TailOutcome } from '../../../engine/wal/recovery';
import type { OpenInProgress } from './open-progress';
import { listingTimes, type PrefixSnapshot } from './prefix-model';

interface Base {
  readonly readAtMs: number;
  readonly wholeListings: number;
}

type Progress = OpenInProgress<TailOutcome | GtScanOutcome>;

export async function provisionalGt(
  prefix: string,
  progress: Progress,
  base: Base,
): Promise<PrefixSnapshot> {
  const startedAt = performance.now();
  const scan = progress.gtScan();
  const recovery = await gtRecoveryOf(prefix, scan, progress.pending);
  const report = await gtInspectReportOf(recovery, startedAt);
  return {
    ...base,
    format: 'greptimedb-v1',
    ...listingTimes(scan.listed, report.reclaimBoundary),
    recovery,
    report,
    progress: progress.progress(false),
  };
}

export async function provisionalCairn(
  start: InspectionStart,
  progress: Progress,
  base: Base,
): Promise<PrefixSnapshot> {
  const { listed } = progress.soFar();
  const scan = {
    from: start.control.boundary,
    listed,
    objects: progress.cairnObjects(),
    missing: [],
  };
  const inspected = await provisionalInspection(start, scan, progress.pending);
  return {
    ...base,
    format: 'cairn-v1',
    ...listingTimes(listed, start.control.boundary),
    inspected,
    registerWrittenAtMs: null,
    registerKey: null,
    progress: progress.progress(false),
  };
}
