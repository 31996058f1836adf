/**
 * One garbage-collection pass (control.md, Protocol point 5), whoever holds the epoch:
 *   1. judge the new boundary and CAS it through the holder's register - the CAS is what
 *      proves the pass still holds the epoch (a fenced holder fails here with `Fenced` and
 *      deletes nothing) and what drops the seal records below it;
 *   2. list the prefix and delete every object below the boundary, chain or orphan, in
 *      ascending order, in batches of up to 1,000 keys (one request each on S3).
 * A crash anywhere leaves only objects below a persisted boundary, which nothing needs and
 * the next pass deletes. The dry run judges the same way and lists what a pass would delete,
 * writing nothing. The maintenance flavour (a held epoch without recovery) lives here too; the
 * writer's flavour is `writer-collector.ts`. It never deletes before the boundary CAS passed.
 */
import type { ObjectIo } from '../../objectio/object-io';
import type { Seq } from '../ids';
import type { WalMetrics } from '../metrics';
import type { MaintenanceSession } from '../open';
import type { ControlState } from '../session';
import { deleteAscending, listObjectsBelow } from './deletes';
import { heldBackBy, type HeldBack } from './held-back';
import { judgeChain, type JudgedChain } from './judge';
import type { ScanOptions, TailOutcome } from '../recovery';
import { collectionBoundary, planDeletes, type CollectionPlan, type ListedWalObject } from './plan';

export interface GcReport {
  readonly prefix: string;
  /** True for a dry run: nothing was written or deleted. */
  readonly dryRun: boolean;
  /** The boundary in force before the pass. */
  readonly previousBoundary: Seq;
  /** The boundary the pass CASed (a dry run: would CAS). */
  readonly boundary: Seq;
  /** Objects deleted (a dry run: that would be), ascending by sequence. */
  readonly objects: readonly ListedWalObject[];
  /** Bytes those objects free. */
  readonly bytes: number;
  /** Objects below the boundary left in place because a delete failed (the next pass takes them). */
  readonly remaining: number;
  /** The first delete failure, null when every delete passed. */
  readonly failure: Error | null;
  /** Why the chain could not be judged (the boundary then did not move), null when it was. */
  readonly unjudged: JudgedChain['unjudged'];
  /** A dry run: what holds the boundary where it is (null for a pass, or an empty chain). */
  readonly heldBack?: HeldBack | null;
}

/** What a pass needs from whoever holds the epoch. */
export interface EpochHolderCollection {
  readonly io: ObjectIo;
  readonly prefix: string;
  readonly metrics?: WalMetrics;
  /**
   * Judges the boundary and CASes it (Fenced when the holder lost the epoch). Resolves with
   * the boundary before and the boundary in force after the CAS.
   */
  raiseBoundary(): Promise<{
    readonly previous: Seq;
    readonly boundary: Seq;
    readonly unjudged?: JudgedChain['unjudged'];
  }>;
}

/** A pass: CAS the boundary, then delete everything below it in ascending order. */
export async function runCollection(holder: EpochHolderCollection): Promise<GcReport> {
  const { previous, boundary, unjudged = null } = await holder.raiseBoundary();
  const below = await listObjectsBelow(holder.io, holder.prefix, boundary);
  const outcome = await deleteAscending(holder.io, below, {
    onDeleted: () => holder.metrics?.deletedObjects.inc(),
    onFailed: () => holder.metrics?.failedDeletes.inc(),
  });
  return {
    prefix: holder.prefix,
    dryRun: false,
    previousBoundary: previous,
    boundary,
    objects: outcome.deleted,
    bytes: outcome.bytes,
    remaining: outcome.remaining,
    failure: outcome.error,
    unjudged,
  };
}

/** A dry run: what a pass raising the boundary from `previous` to `boundary` would delete. */
export async function previewCollection(
  io: ObjectIo,
  prefix: string,
  previous: Seq,
  boundary: Seq,
  unjudged: JudgedChain['unjudged'] = null,
  heldBack: HeldBack | null = null,
): Promise<GcReport> {
  const plan: CollectionPlan = planDeletes(await listObjectsBelow(io, prefix, boundary), boundary);
  return {
    prefix,
    dryRun: true,
    previousBoundary: previous,
    boundary,
    objects: plan.deletes,
    bytes: plan.bytes,
    remaining: 0,
    failure: null,
    unjudged,
    heldBack,
  };
}

/** The boundary a judged chain calls for. */
export function boundaryOfJudged(judged: JudgedChain): Seq {
  return collectionBoundary(judged.chain, judged.control.watermarks, judged.control.boundary);
}

/** The boundary CAS: raise to `target`, never lower (a newer state may already be there). */
export function withBoundary(control: ControlState, target: Seq): ControlState {
  return target > control.boundary ? { ...control, boundary: target } : { ...control };
}

/** A pass by a maintenance session (`cairn wal gc` on a prefix that does not open). */
export function collectAsMaintenance(
  session: MaintenanceSession,
  metrics?: WalMetrics,
): Promise<GcReport> {
  const register = session.register;
  return runCollection({
    io: session.io,
    prefix: session.prefix,
    metrics,
    async raiseBoundary() {
      const control = await register.refresh(); // Fenced if another writer took the epoch.
      const judged = await judgeChain(session.io, session.prefix, control, () =>
        register.refresh(),
      );
      const target = boundaryOfJudged(judged);
      const written = await register.update((current) => withBoundary(current, target));
      return { previous: control.boundary, boundary: written.boundary, unjudged: judged.unjudged };
    },
  });
}

/** A dry run from nothing but a register read and a listing (a read-only connection may do it). */
export async function dryRunFromRegister(
  io: ObjectIo,
  prefix: string,
  control: ControlState,
  reread: () => Promise<ControlState>,
  options: ScanOptions<TailOutcome> = {},
): Promise<GcReport> {
  const judged = await judgeChain(io, prefix, control, reread, options);
  return previewCollection(
    io,
    prefix,
    judged.control.boundary,
    boundaryOfJudged(judged),
    judged.unjudged,
    heldBackBy(judged.chain, judged.control.watermarks),
  );
}
