/**
 * The read model of one prefix nobody in this app writes: recovered once, then refreshed by
 * scanning only what changed (the engine's `ScanMemo`: the keys after the highest known, a
 * one-key check for collected objects, new objects' indexes), and served to every view from
 * the last snapshot while it is younger than the caller's `maxAgeMs`. A refresh that finds the
 * same register and the same objects (three listings, no read) keeps the snapshot it has, read
 * again now. Callers that ask at once share one refresh. A refresh that fails leaves the last
 * snapshot in place and throws.
 *
 * The first open of a big prefix is progressive: a caller that may see a provisional snapshot
 * gets one as soon as the newest objects are read (`OpenInProgress`), and each later call a
 * fuller one, until the open ends. With a local index (`PrefixIndex`), objects read by an
 * earlier process are recalled rather than read, and what this one read is kept for the next.
 */
import type { OpenProgress } from '../../../../shared/contract/wal-pages';
import { gtInspectReportOf, type GtInspectReport } from '../../../engine/greptimedb/inspect';
import { recoverGtPrefix, type GtRecovery } from '../../../engine/greptimedb/recover';
import {
  newGtScanMemo,
  type GtScanMemo,
  type GtScanOutcome,
} from '../../../engine/greptimedb/scan';
import {
  inspectWithRecovery,
  type InspectedPrefix,
  type InspectionStart,
} from '../../../engine/wal/inspect';
import {
  newTailScanMemo,
  type ListedObject,
  type TailOutcome,
  type TailScanMemo,
} from '../../../engine/wal/recovery';
import { newestRegisterVersion } from '../live-writer';
import type { CairnLocated, Located } from '../wal-locate';
import { OpenInProgress } from './open-progress';
import type { PrefixIndex } from './prefix-index';
import { provisionalCairn, provisionalGt } from './provisional-snapshot';

type GtLocated = Extract<Located, { format: 'greptimedb-v1' }>;

interface SnapshotBase {
  /** `Date.now()` when the refresh that made it started: the data is at least this fresh. */
  readonly readAtMs: number;
  /** The newest modification time the listing reported, when the store tells. */
  readonly newestObjectAtMs: number | null;
  /** The modification time of the lowest object at or above the floor, when the store tells. */
  readonly floorObjectAtMs: number | null;
  /** Objects listed at or above the floor: what collection (or reclaim) has not deleted. */
  readonly objectsAboveFloor: number;
  /** Whole listings so far (1 after the first open; a refresh of an unchanged prefix adds none). */
  readonly wholeListings: number;
  /** How the open went (absent: read whole, nothing from a local index). */
  readonly progress?: OpenProgress;
}

export type PrefixSnapshot =
  | (SnapshotBase & {
      readonly format: 'cairn-v1';
      readonly inspected: InspectedPrefix;
      readonly registerWrittenAtMs: number | null;
      /** The register's newest version key when it was read: a new one means it changed. */
      readonly registerKey: string | null;
    })
  | (SnapshotBase & {
      readonly format: 'greptimedb-v1';
      readonly recovery: GtRecovery;
      readonly report: GtInspectReport;
    });

/** The prefix and what its scans remember, in its format. */
type Source =
  | { readonly format: 'cairn-v1'; readonly at: CairnLocated; readonly memo: TailScanMemo }
  | { readonly format: 'greptimedb-v1'; readonly at: GtLocated; readonly memo: GtScanMemo };

/** Rough bytes of a snapshot beside its memo: the catalog and the report's rows. */
const BYTES_PER_OBJECT = 600;

/** What a listing tells of a prefix's age: its newest object, and how far above the floor it runs. */
export function listingTimes(
  listed: readonly ListedObject[],
  floor: bigint,
): Pick<SnapshotBase, 'newestObjectAtMs' | 'floorObjectAtMs' | 'objectsAboveFloor'> {
  let newest: number | null = null;
  let lowest: ListedObject | null = null;
  let objectsAboveFloor = 0;
  for (const object of listed) {
    const at = object.lastModifiedMs;
    if (at !== undefined && (newest === null || at > newest)) newest = at;
    if (object.seq < floor) continue;
    objectsAboveFloor += 1;
    if (lowest === null || object.seq < lowest.seq) lowest = object;
  }
  return {
    newestObjectAtMs: newest,
    floorObjectAtMs: lowest?.lastModifiedMs ?? null,
    objectsAboveFloor,
  };
}

export class PrefixModel {
  private snapshot: PrefixSnapshot | null = null;
  private weight = 0;
  private refreshing: Promise<PrefixSnapshot> | null = null;
  /** The first open while it runs: what a provisional snapshot is made of. */
  private opening: {
    readonly progress: OpenInProgress<TailOutcome | GtScanOutcome>;
    readonly readAtMs: number;
    /** What a Cairn open read of the register before its scan. */
    cairn: InspectionStart | null;
  } | null = null;
  private readonly source: Source;

  constructor(
    at: Located,
    private readonly index: PrefixIndex | null = null,
  ) {
    this.source =
      at.format === 'greptimedb-v1'
        ? {
            format: at.format,
            at,
            memo: newGtScanMemo(index === null ? {} : { recall: index.recaller(at.format) }),
          }
        : {
            format: at.format,
            at,
            memo: newTailScanMemo(index === null ? {} : { recall: index.recaller(at.format) }),
          };
  }

  get located(): Located {
    return this.source.at;
  }

  /**
   * The last snapshot if younger than `maxAgeMs`, else a fresh one (shared by concurrent
   * callers). With `provisional`, while the first open runs, a provisional snapshot once the
   * newest objects are read.
   */
  async read(maxAgeMs: number, now = Date.now(), provisional = false): Promise<PrefixSnapshot> {
    if (this.snapshot !== null && now - this.snapshot.readAtMs < maxAgeMs) return this.snapshot;
    if (this.refreshing === null) {
      const refreshing = this.refresh().finally(() => {
        this.refreshing = null;
        this.opening = null;
      });
      // Callers shown a provisional snapshot may all be gone when it fails: never unhandled.
      refreshing.catch(() => undefined);
      this.refreshing = refreshing;
    }
    const opening = this.opening;
    if (!provisional || opening === null) return this.refreshing;
    const whole = await Promise.race([this.refreshing, opening.progress.firstViewReady()]);
    return whole ?? this.provisional(opening);
  }

  /** Rough bytes held (memo and snapshot) as of the last refresh, for the cache's budget. */
  bytes(): number {
    return this.weight;
  }

  private provisional(opening: NonNullable<PrefixModel['opening']>): Promise<PrefixSnapshot> {
    const { progress, readAtMs, cairn } = opening;
    const base = { readAtMs, wholeListings: this.source.memo.wholeListings };
    if (this.source.format === 'greptimedb-v1') {
      const prefix = this.source.at.prefix;
      return progress.provisional(() => provisionalGt(prefix, progress, base));
    }
    // Not before the register was read (no view is shown before the newest objects are).
    if (cairn === null) return this.refreshing ?? this.read(0);
    return progress.provisional(() => provisionalCairn(cairn, progress, base));
  }

  private async refresh(): Promise<PrefixSnapshot> {
    const readAtMs = Date.now();
    if (this.snapshot === null)
      this.opening = { progress: new OpenInProgress(), readAtMs, cairn: null };
    const watch = this.opening?.progress;
    await this.index?.ready();
    const snapshot = await this.scan(readAtMs, watch);
    const listed = this.source.memo.listedNow().length;
    const fromIndex = watch?.progress(true).fromIndex ?? 0;
    this.snapshot =
      snapshot.progress?.done === true
        ? snapshot
        : { ...snapshot, progress: { indexed: listed, total: listed, fromIndex, done: true } };
    // Weighed once here: the cache adds every model's weight after each read of any of them.
    const objects =
      snapshot.format === 'cairn-v1' ? snapshot.inspected.report.listed : snapshot.report.listed;
    this.weight = this.source.memo.bytes() + objects * BYTES_PER_OBJECT;
    this.index?.keep(this.source.memo);
    return this.snapshot;
  }

  private async scan(
    readAtMs: number,
    watch: OpenInProgress<TailOutcome | GtScanOutcome> | undefined,
  ): Promise<PrefixSnapshot> {
    const source = this.source;
    const { io, prefix } = source.at;
    const last = this.snapshot;
    if (source.format === 'greptimedb-v1') {
      const memo = source.memo;
      if (last?.format === 'greptimedb-v1' && (await memo.unchanged(io, prefix, 0n)))
        return { ...last, readAtMs };
      const startedAt = performance.now();
      const recovery = await recoverGtPrefix(io, prefix, { memo, watch });
      const report = await gtInspectReportOf(recovery, startedAt);
      return {
        format: 'greptimedb-v1',
        readAtMs,
        ...listingTimes(recovery.scan.listed, report.reclaimBoundary),
        wholeListings: memo.wholeListings,
        recovery,
        report,
      };
    }
    const memo = source.memo;
    const opening = this.opening;
    if (last === null) {
      // The first read: nothing to compare, so the register's age and the scan at once.
      const [register, inspected] = await Promise.all([
        newestRegisterVersion(io, prefix),
        inspectWithRecovery(io, source.at.config, {
          memo,
          watch,
          started: (start) => {
            if (opening !== null) opening.cairn = start;
          },
        }),
      ]);
      return this.cairnSnapshot(readAtMs, register, inspected);
    }
    const register = await newestRegisterVersion(io, prefix);
    const registerKey = register?.key ?? null;
    // The same register (so the same boundary) and the same objects: the same snapshot.
    if (
      last?.format === 'cairn-v1' &&
      last.registerKey === registerKey &&
      (await memo.unchanged(io, prefix, last.inspected.report.register.boundary))
    )
      return { ...last, readAtMs };
    const inspected = await inspectWithRecovery(io, source.at.config, { memo });
    return this.cairnSnapshot(readAtMs, register, inspected);
  }

  private cairnSnapshot(
    readAtMs: number,
    register: Awaited<ReturnType<typeof newestRegisterVersion>>,
    inspected: InspectedPrefix,
  ): PrefixSnapshot {
    const memo = this.source.memo;
    return {
      format: 'cairn-v1',
      readAtMs,
      ...listingTimes(memo.listedNow(), inspected.report.register.boundary),
      wholeListings: memo.wholeListings,
      inspected,
      registerWrittenAtMs: register?.at?.getTime() ?? null,
      registerKey: register?.key ?? null,
    };
  }
}
