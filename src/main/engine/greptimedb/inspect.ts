/**
 * What `inspect` reports of a GreptimeDB prefix: the chain and orphans (with each object's
 * link), objects below the reclaim boundary, the instances that wrote the prefix, damaged and
 * vanished objects, and per-region counts of the chain; for a prefix in the merged layout, the
 * open's verdict (refusals, next sequence) and the writer runs instead of chain and instances. A prefix that would not replay is reported with its typed failure, never thrown
 * (storage errors still throw). Writes nothing.
 */
import type { ObjectIo } from '../objectio/object-io';
import { mapInSlices, Slicer } from '../slices';
import { CorruptObjectError, isWalError } from '../wal/errors';
import type { EntryId, Seq } from '../wal/ids';
import type { RegionId } from '../wal/region-id';
import { GT_FORMAT } from './layout';
import { normalizePrefix } from './prefix';
import { recoverGtPrefix, type GtInstance, type GtRecovery } from './recover';
import type { GtScannedObject, GtScanOutcome } from './scan';
import type { ScanOptions } from '../wal/recovery';
import type { GtPrefixLayout } from './merged/prefix-layout';
import type { GtWriterRun } from './merged/writer-runs';

export interface GtObjectRow {
  readonly seq: Seq;
  readonly epoch: bigint;
  readonly key: string;
  readonly size: number;
  /** The object this one extends; null for a chain's first object. */
  readonly prev: { readonly seq: Seq; readonly epoch: bigint } | null;
  readonly reclaimBoundary: Seq;
  readonly segments: number;
  readonly entries: number;
  /** The merged layout's writer instance (hex); null in the chained layout. */
  readonly writerInstance: string | null;
}

/** What only a merged-layout prefix has: GreptimeDB's open verdict and the writer runs. */
export interface GtMergedReport {
  readonly nextSeq: Seq | null;
  readonly refusals: ReadonlyArray<{
    readonly key: string;
    readonly rule: string;
    readonly detail: string;
    readonly message: string;
  }>;
  readonly runs: readonly GtWriterRun[];
  /** `two writers: …` when an instance wrote more than one run. */
  readonly twoWriters: string | null;
}

export interface GtRegionRow {
  readonly regionId: RegionId;
  readonly firstId: EntryId;
  readonly latestId: EntryId;
  readonly entries: number;
  readonly objects: number;
  readonly bytes: number;
}

export interface GtInspectReport {
  readonly format: typeof GT_FORMAT;
  readonly prefix: string;
  readonly listed: number;
  readonly tip: GtObjectRow | null;
  readonly reclaimBoundary: Seq;
  /** The chain's first object links below the boundary to an object already deleted (normal). */
  readonly reclaimedLink: boolean;
  readonly chain: readonly GtObjectRow[];
  readonly orphans: readonly GtObjectRow[];
  readonly belowBoundary: readonly GtObjectRow[];
  readonly instances: readonly GtInstance[];
  readonly damaged: ReadonlyArray<{
    readonly key: string;
    readonly seq: Seq;
    readonly size: number;
    readonly check: string;
    readonly detail: string;
  }>;
  /** Listed, then gone when read. */
  readonly missing: readonly string[];
  readonly layout: GtPrefixLayout;
  readonly merged: GtMergedReport | null;
  readonly regions: readonly GtRegionRow[];
  readonly failure: { readonly code: string; readonly message: string } | null;
  readonly durationMs: number;
}

export function gtObjectRow(object: GtScannedObject): GtObjectRow {
  return {
    seq: object.seq,
    epoch: object.epoch,
    key: object.key,
    size: object.size,
    prev: object.link,
    reclaimBoundary: object.reclaimBoundary,
    segments: object.segments.length,
    entries: object.segments.reduce((sum, segment) => sum + segment.entries, 0),
    writerInstance: object.writerInstance,
  };
}

function mergedReportOf(recovery: GtRecovery): GtMergedReport | null {
  const merged = recovery.merged;
  if (merged === null) return null;
  return {
    nextSeq: merged.nextSeq,
    refusals: merged.refusals.map(({ key, rule, detail, message }) => ({
      key,
      rule,
      detail,
      message,
    })),
    runs: merged.runs,
    twoWriters: merged.twoWriters,
  };
}

function failureOf(error: Error | null): GtInspectReport['failure'] {
  if (error === null) return null;
  if (isWalError(error)) return { code: error.code, message: error.message };
  throw error;
}

export async function inspectGtPrefix(
  io: ObjectIo,
  rawPrefix: string,
  options: ScanOptions<GtScanOutcome> = {},
): Promise<GtInspectReport> {
  const startedAt = performance.now();
  const recovery = await recoverGtPrefix(io, normalizePrefix(rawPrefix), options);
  return gtInspectReportOf(recovery, startedAt);
}

/**
 * The report of a recovery already made (`inspectGtPrefix`'s, or a read model's); its rows
 * are built in slices (a chain of 100,000 objects, an object of 300,000 regions).
 */
export async function gtInspectReportOf(
  recovery: GtRecovery,
  startedAt: number,
): Promise<GtInspectReport> {
  const { prefix, scan, selection } = recovery;
  const slicer = new Slicer();
  const chain = await mapInSlices(selection.chain, gtObjectRow, slicer);
  const regions = await mapInSlices(
    (await recovery.catalog?.regionsInSlices(slicer)) ?? [],
    (r) => ({
      regionId: r.regionId,
      firstId: r.firstId,
      latestId: r.latestId,
      entries: r.entries,
      objects: r.objects,
      bytes: r.bytes,
    }),
    slicer,
  );
  return {
    format: GT_FORMAT,
    prefix,
    listed: scan.listed.length,
    tip: selection.tip === null ? null : gtObjectRow(selection.tip),
    reclaimBoundary: selection.reclaimBoundary,
    reclaimedLink: selection.reclaimedLink,
    chain,
    orphans: selection.orphans.map(gtObjectRow),
    belowBoundary: selection.belowBoundary.map(gtObjectRow),
    instances: recovery.instances,
    damaged: scan.damaged.map((d) => ({
      key: d.key,
      seq: d.seq,
      size: d.size,
      check: d.error instanceof CorruptObjectError ? d.error.check : 'format',
      detail: d.error instanceof CorruptObjectError ? d.error.detail : d.error.message,
    })),
    missing: scan.missing.map((o) => o.key),
    layout: recovery.layout,
    merged: mergedReportOf(recovery),
    regions,
    failure: failureOf(recovery.failure),
    durationMs: performance.now() - startedAt,
  };
}
