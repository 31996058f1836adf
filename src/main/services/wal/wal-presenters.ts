/**
 * The engine's WAL reports in the contract's shapes: the register, an inspection, the writer's
 * state and region rows. Pure translation; never decides anything the engine decides.
 */
import type {
  GcReport,
  InspectFailureView,
  InspectView,
  RegisterView,
  RegionRow,
  WalObjectRef,
  WriterStateView,
} from '../../../shared/contract/wal';
import type { ObjectCatalog, RegionSummary } from '../../engine/wal/catalog';
import type { GcReport as EngineGcReport } from '../../engine/wal/gc';
import { registerView, type InspectReport } from '../../engine/wal/inspect';
import { manifestVersion } from '../../engine/manifest/manifest-store';
import type { ControlState, RecoveredObject } from '../../engine/wal/session';
import type { WriterStateSnapshot } from '../../engine/wal/store';
import { LIVE_WRITER_WINDOW_MS } from './live-writer';
import { firstRows, newestRows } from './view-pages';

const byId = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

/** The engine's register view (inspect's), in the contract's plain arrays. */
export function registerViewOf(
  version: number | null,
  control: ControlState,
  otherFields: Record<string, string> = {},
): RegisterView {
  const view = registerView(
    version === null ? null : manifestVersion(version),
    control,
    otherFields,
  );
  return {
    ...view,
    sealed: view.sealed.map((record) => ({ ...record })),
    watermarks: [...view.watermarks],
    regions: [...view.regions],
  };
}

/** Breaks in an ascending sequence list: places where the next sequence is not the one after. */
export function sequenceGaps(seqs: readonly bigint[]): number {
  let gaps = 0;
  for (let i = 1; i < seqs.length; i++) if ((seqs[i] ?? 0n) !== (seqs[i - 1] ?? 0n) + 1n) gaps += 1;
  return gaps;
}

export function objectRefOf(object: RecoveredObject): WalObjectRef {
  return { seq: object.seq, epoch: object.epoch, key: object.key, size: object.size };
}

/** The key a recovery failure names (every such message names its object). */
function failureOf(report: InspectReport): InspectFailureView | null {
  if (report.failure === null) return null;
  const key = /\S*objects\/\d{20}\.wal/.exec(report.failure.message)?.[0] ?? null;
  return { code: report.failure.code, message: report.failure.message, key };
}

export function inspectViewOf(
  report: InspectReport,
  registerWrittenAtMs: number | null,
  openInApp: boolean,
  now = Date.now(),
): Omit<InspectView, 'readAtMs' | 'progress' | 'health' | 'coverage'> {
  const registerAgeMs =
    registerWrittenAtMs === null ? null : Math.max(0, now - registerWrittenAtMs);
  const register = report.register;
  return {
    prefix: report.prefix,
    format: 'cairn-v1',
    greptimedb: null,
    register: {
      ...register,
      sealed: register.sealed.map((record) => ({ ...record })),
      watermarks: register.watermarks.map((mark) => ({ ...mark })),
      regions: register.regions.map((region) => ({ ...region })),
      otherFields: { ...register.otherFields },
    },
    registerWrittenAtMs,
    registerAgeMs,
    registerFresh: registerAgeMs !== null && registerAgeMs < LIVE_WRITER_WINDOW_MS,
    listed: report.listed,
    tip: report.tip === null ? null : objectRefOf(report.tip),
    nextSeq: report.nextSeq,
    chainObjects: report.chain.length,
    chainBytes: report.chain.reduce((sum, object) => sum + object.size, 0),
    chainGaps: sequenceGaps(report.chain.map((object) => object.seq)),
    orphans: newestRows(report.orphans).map(objectRefOf),
    orphanCount: report.orphans.length,
    excluded: newestRows(report.excluded).map(objectRefOf),
    excludedCount: report.excluded.length,
    missing: newestRows(report.missing),
    missingCount: report.missing.length,
    regions: firstRows(report.regions).map((region) => ({ ...region })),
    regionCount: report.regions.length,
    failure: failureOf(report),
    openInApp,
    durationMs: report.durationMs,
  };
}

export function writerStateViewOf(state: WriterStateSnapshot): WriterStateView {
  return {
    ...state,
    openBatch: state.openBatch === null ? null : { ...state.openBatch },
    createsInFlight: state.createsInFlight.map((create) => ({ ...create })),
    indexedTip:
      state.indexedTip === null
        ? null
        : { seq: state.indexedTip.seq, epoch: state.indexedTip.epoch },
    fenceRound: state.fenceRound === null ? null : { ...state.fenceRound },
    lastReopen: state.lastReopen === null ? null : { ...state.lastReopen },
    poisoned: state.poisoned === null ? null : { ...state.poisoned },
  };
}

export interface RegionFacts {
  /** The writer's durable / handed-out id of a region, when a writer of this app holds the prefix. */
  readonly durableId?: (region: bigint) => bigint;
  readonly handedOutId?: (region: bigint) => bigint;
}

/** Every region of the catalog and of the register's tables, by region id. */
export function regionRowsOf(
  catalog: ObjectCatalog,
  control: ControlState,
  facts: RegionFacts = {},
): RegionRow[] {
  const summaries = new Map<bigint, RegionSummary>(
    catalog.regions().map((summary) => [summary.regionId, summary]),
  );
  const ids = new Set<bigint>([
    ...summaries.keys(),
    ...control.regions.keys(),
    ...control.watermarks.keys(),
  ]);
  return [...ids].sort(byId).map((regionId) => {
    const summary = summaries.get(regionId);
    const latestId = summary?.latestId ?? 0n;
    return {
      regionId,
      entries: summary?.entries ?? 0,
      firstId: summary?.firstId ?? 0n,
      latestId,
      durableId: facts.durableId?.(regionId) ?? latestId,
      handedOutId: facts.handedOutId?.(regionId) ?? null,
      watermark: summary?.watermark ?? control.watermarks.get(regionId) ?? 0n,
      objects: summary?.objects ?? 0,
      bytes: summary?.bytes ?? 0,
      holes: summary?.holes ?? 0,
      listedInTable: control.regions.has(regionId),
    };
  });
}

/**
 * A GC pass as the API shows it: the failure as its message, objects as plain rows, what
 * holds the boundary back (a preview); the register's holder is the caller's to add.
 */
export function presentGcReport(
  report: EngineGcReport,
  holder: GcReport['holder'] = null,
): GcReport {
  const heldBack = report.heldBack ?? null;
  return {
    prefix: report.prefix,
    dryRun: report.dryRun,
    previousBoundary: report.previousBoundary,
    boundary: report.boundary,
    objects: report.objects.map(({ key, seq, size }) => ({ key, seq, size })),
    bytes: report.bytes,
    remaining: report.remaining,
    failure: report.failure === null ? null : `${report.failure.name}: ${report.failure.message}`,
    unjudged: report.unjudged === null ? null : { ...report.unjudged },
    heldBack:
      heldBack === null
        ? null
        : {
            seq: heldBack.seq,
            tipOnly: heldBack.tipOnly,
            regions: heldBack.regions.map((region) => ({ ...region })),
          },
    holder,
  };
}
