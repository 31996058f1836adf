/**
 * The console's read-only views of a prefix, made from its read model's snapshot: inspection,
 * object lists, region rows and the log a replay or an obsolete preview reads. A Cairn prefix
 * whose recovery fails still shows what inspection could tell (regions from the register, the
 * listed objects unread); its replay fails with the recovery's typed error. Rows are built
 * once per snapshot and paged from there. Pure translation.
 */
import type { InspectView } from '../../../../shared/contract/wal';
import { doneProgress, type OpenProgress } from '../../../../shared/contract/wal-pages';
import { gtReadOnlyLogOf } from '../../../engine/greptimedb/read-only-log';
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { openReadOnly, readOnlyLogOf } from '../../../engine/wal/read-only-log';
import type { AnyReadOnlyLog } from '../../../engine/wal-read/read-side';
import { gtInspectView, gtObjectLists, gtRegionRows } from '../greptimedb-views';
import { inspectViewOf, regionRowsOf } from '../wal-presenters';
import { chainRowsOf, unreadRowsOf, type ObjectLists } from '../wal-reads';
import { perSnapshot, type RegionRows } from '../view-pages';
import type { PrefixSnapshot } from './prefix-model';

/**
 * What a snapshot's rows are made of: kept by a refresh that found nothing changed (which
 * makes a new snapshot with a new read time around the same data), so rows built for it serve
 * every later page.
 */
function dataOf(snapshot: PrefixSnapshot): object {
  return snapshot.format === 'greptimedb-v1' ? snapshot.report : snapshot.inspected;
}

/** How far the snapshot's open had come. */
export function progressOfSnapshot(snapshot: PrefixSnapshot): OpenProgress {
  if (snapshot.progress !== undefined) return snapshot.progress;
  const listed =
    snapshot.format === 'greptimedb-v1' ? snapshot.report.listed : snapshot.inspected.report.listed;
  return doneProgress(listed);
}

export function inspectViewOfSnapshot(snapshot: PrefixSnapshot, openInApp: boolean): InspectView {
  const view =
    snapshot.format === 'greptimedb-v1'
      ? gtInspectView(snapshot.report)
      : inspectViewOf(snapshot.inspected.report, snapshot.registerWrittenAtMs, openInApp);
  return {
    ...view,
    readAtMs: snapshot.readAtMs,
    progress: progressOfSnapshot(snapshot),
    health: null,
    coverage: null,
  };
}

const objectLists = perSnapshot((snapshot: PrefixSnapshot): ObjectLists => {
  if (snapshot.format === 'greptimedb-v1') return gtObjectLists(snapshot.report);
  const { report, recovery } = snapshot.inspected;
  if (recovery !== null)
    return {
      chain: chainRowsOf(recovery.catalog),
      orphans: unreadRowsOf(recovery.summary.orphans, 'orphan'),
      excluded: unreadRowsOf(recovery.summary.excluded, 'excluded'),
      belowBoundary: [],
    };
  return {
    chain: unreadRowsOf(report.chain, 'chain'),
    orphans: unreadRowsOf(report.orphans, 'orphan'),
    excluded: unreadRowsOf(report.excluded, 'excluded'),
    belowBoundary: [],
  };
});

const regionRows = perSnapshot((snapshot: PrefixSnapshot): RegionRows => {
  if (snapshot.format === 'greptimedb-v1') return gtRegionRows(snapshot.report);
  const { report, recovery } = snapshot.inspected;
  if (recovery !== null)
    return {
      source: 'read-only',
      readOnlyReason: null,
      rows: regionRowsOf(recovery.catalog, recovery.control),
    };
  const rows = report.regions.map((region) => ({
    ...region,
    firstId: 0n,
    durableId: region.latestId,
    handedOutId: null,
    holes: 0,
  }));
  return { source: 'inspect', readOnlyReason: null, rows };
});

export function objectListsOfSnapshot(snapshot: PrefixSnapshot): ObjectLists {
  return objectLists.of(dataOf(snapshot), snapshot);
}

export function regionRowsOfSnapshot(snapshot: PrefixSnapshot): RegionRows {
  return regionRows.of(dataOf(snapshot), snapshot);
}

/**
 * Region reads over the snapshot's recovery; a prefix that does not recover is opened once
 * more the plain way, which fails with the recovery's typed error.
 */
export async function readOnlyLogOfSnapshot(
  io: ObjectIo,
  snapshot: PrefixSnapshot,
): Promise<AnyReadOnlyLog> {
  if (snapshot.format === 'greptimedb-v1')
    return { format: 'greptimedb-v1', ...gtReadOnlyLogOf(io, snapshot.recovery) };
  const { recovery, target } = snapshot.inspected;
  if (recovery !== null) return { format: 'cairn-v1', ...readOnlyLogOf(io, target, recovery) };
  return { format: 'cairn-v1', ...(await openReadOnly(io, target.config)) };
}
