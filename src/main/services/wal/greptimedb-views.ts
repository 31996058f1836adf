/**
 * A GreptimeDB prefix's inspection in the contract's shapes, beside Cairn's: the same
 * inspect view (its register fields all "none", a `greptimedb` section with instances, the
 * reclaim boundary and damage), object rows and region rows with the reason no operation
 * applies. Pure translation; the engine decides everything.
 */
import {
  CHAIN_TAIL_OBJECTS,
  type InspectView,
  type WalObjectRow,
} from '../../../shared/contract/wal';
import type { GtInspectReport, GtObjectRow } from '../../engine/greptimedb/inspect';
import { emptyControlState } from '../../engine/wal/control-fields';
import type { ObjectLists } from './wal-reads';
import { registerViewOf, sequenceGaps } from './wal-presenters';
import { firstRows, newestRows, type RegionRows } from './view-pages';

/** The failure's object: a refusal and a mixed-layout prefix name theirs; else from the message. */
function failureKeyOf(
  failure: NonNullable<GtInspectReport['failure']>,
  report: GtInspectReport,
): string | null {
  const refusal = report.merged?.refusals[0];
  if (failure.code === 'OpenRefused' && refusal !== undefined) return refusal.key;
  return /\S*objects\/\d{20}\.wal/.exec(failure.message)?.[0] ?? null;
}

export const GREPTIMEDB_READ_ONLY_REASON =
  'GreptimeDB v1 prefix: its datanode owns it. Cairn reads it and never writes, obsoletes or deletes there; GreptimeDB keeps no watermark register, so no watermark hides an entry.';

function refOf(row: GtObjectRow): { seq: bigint; epoch: bigint; key: string; size: number } {
  return { seq: row.seq, epoch: row.epoch, key: row.key, size: row.size };
}

function rowsOf(rows: readonly GtObjectRow[], status: WalObjectRow['status']): WalObjectRow[] {
  return rows.map((row) => ({
    ...refOf(row),
    status,
    segments: row.segments,
    entries: row.entries,
  }));
}

export function gtInspectView(
  report: GtInspectReport,
): Omit<InspectView, 'readAtMs' | 'progress' | 'health' | 'coverage'> {
  return {
    prefix: report.prefix,
    format: report.format,
    greptimedb: {
      reclaimBoundary: report.reclaimBoundary,
      reclaimedLink: report.reclaimedLink,
      belowBoundary: newestRows(report.belowBoundary).map(refOf),
      belowBoundaryCount: report.belowBoundary.length,
      chainTail: report.chain.slice(-CHAIN_TAIL_OBJECTS).map(refOf),
      instances: newestRows(report.instances).map((instance) => ({ ...instance })),
      instanceCount: report.instances.length,
      damaged: firstRows(report.damaged).map((damaged) => ({ ...damaged })),
      damagedCount: report.damaged.length,
      layout: report.layout,
      merged:
        report.merged === null
          ? null
          : {
              nextSeq: report.merged.nextSeq,
              refusals: firstRows(report.merged.refusals).map((r) => ({ ...r })),
              runs: newestRows(report.merged.runs).map((run) => ({ ...run })),
              runCount: report.merged.runs.length,
              twoWriters: report.merged.twoWriters,
            },
    },
    register: registerViewOf(null, emptyControlState()),
    registerWrittenAtMs: null,
    registerAgeMs: null,
    registerFresh: false,
    listed: report.listed,
    tip: report.tip === null ? null : refOf(report.tip),
    nextSeq: report.merged?.nextSeq ?? null,
    chainObjects: report.chain.length,
    chainBytes: report.chain.reduce((sum, object) => sum + object.size, 0),
    chainGaps: sequenceGaps(report.chain.map((object) => object.seq)),
    orphans: newestRows(report.orphans).map(refOf),
    orphanCount: report.orphans.length,
    excluded: [],
    excludedCount: 0,
    missing: newestRows(report.missing),
    missingCount: report.missing.length,
    regionCount: report.regions.length,
    regions: firstRows(report.regions).map((region) => ({
      regionId: region.regionId,
      latestId: region.latestId,
      watermark: 0n,
      entries: region.entries,
      objects: region.objects,
      bytes: region.bytes,
      listedInTable: false,
    })),
    failure:
      report.failure === null
        ? null
        : {
            code: report.failure.code,
            message: report.failure.message,
            key: failureKeyOf(report.failure, report),
          },
    openInApp: false,
    durationMs: report.durationMs,
  };
}

export function gtObjectLists(report: GtInspectReport): ObjectLists {
  return {
    chain: rowsOf(report.chain, 'chain'),
    orphans: rowsOf(report.orphans, 'orphan'),
    excluded: [],
    belowBoundary: rowsOf(report.belowBoundary, 'below-boundary'),
  };
}

export function gtRegionRows(report: GtInspectReport): RegionRows {
  return {
    source: 'read-only',
    readOnlyReason: GREPTIMEDB_READ_ONLY_REASON,
    rows: report.regions.map((region) => ({
      regionId: region.regionId,
      entries: region.entries,
      firstId: region.firstId,
      latestId: region.latestId,
      durableId: region.latestId,
      handedOutId: null,
      watermark: 0n,
      objects: region.objects,
      bytes: region.bytes,
      holes: 0,
      listedInTable: false,
    })),
  };
}
