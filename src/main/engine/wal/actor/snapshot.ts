/**
 * What the writer's state looks like from outside (the console's writer panel, the API): a
 * plain snapshot built from the actor's state at one instant. Read-only: building it changes
 * nothing.
 */
import { CairnError } from '../../errors';
import type { ObjectStoreWalConfig } from '../config';
import type { ObjectLink } from '../format';
import type { Seq } from '../ids';
import { unpersistedBytes } from './admission';
import type { ReopenRecord } from './gap-reopen';
import type { WriteState } from './write-state';

export interface CreateInFlight {
  readonly seq: Seq;
  readonly attempt: number;
  readonly elapsedMs: number;
}

export interface WriterStateSnapshot {
  readonly prefix: string;
  readonly epoch: bigint;
  readonly writerId: string;
  readonly ackMode: ObjectStoreWalConfig['ackMode'];
  readonly ackFence: ObjectStoreWalConfig['ackFence'];
  readonly openBatch: {
    readonly seq: Seq;
    readonly entries: number;
    readonly bytes: number;
    readonly ageMs: number;
  } | null;
  /** Sealed batches not yet indexed (what backpressure counts). */
  readonly sealedWaiting: number;
  /** Indexed batches waiting for a fence round. */
  readonly awaitingFence: number;
  readonly createsInFlight: readonly CreateInFlight[];
  readonly orphanCreatesInFlight: number;
  readonly heldAppends: number;
  readonly indexedTip: ObjectLink | null;
  readonly nextSeq: Seq;
  /** B: the highest certified sequence; creates run only below B + 64. */
  readonly certified: Seq;
  readonly gapBlocked: boolean;
  /** Re-opening itself under a new epoch because its start gap was spent (gap-reopen.ts). */
  readonly reopening: ReopenRecord['reopening'];
  readonly reopens: ReopenRecord['reopens'];
  readonly lastReopen: ReopenRecord['lastReopen'];
  readonly fenceRound: { readonly covers: number; readonly elapsedMs: number } | null;
  readonly unpersistedBytes: number;
  readonly stopping: boolean;
  readonly stopped: boolean;
  readonly poisoned: { readonly code: string; readonly message: string } | null;
}

export function snapshotOf(state: WriteState): WriterStateSnapshot {
  const now = Date.now();
  const { pipeline, session, open, round, terminal } = state;
  const firstQueued = pipeline.firstQueued();
  return {
    prefix: session.prefix,
    epoch: session.epoch,
    writerId: session.writerId,
    ackMode: state.config.ackMode,
    ackFence: state.config.ackFence,
    openBatch:
      open === null
        ? null
        : { seq: open.seq, entries: open.entries, bytes: open.bytes, ageMs: now - open.openedAt },
    sealedWaiting: pipeline.unindexedCount(),
    awaitingFence: pipeline.count('indexed') + pipeline.count('fencing'),
    createsInFlight: pipeline
      .filter((b) => b.phase === 'creating')
      .map((b) => ({
        seq: b.seq,
        attempt: b.attempt,
        elapsedMs: now - (b.createStartedAt ?? now),
      })),
    orphanCreatesInFlight: state.orphanCreates,
    heldAppends: state.commands.count((c) => c.kind === 'append'),
    indexedTip: session.catalog.tip(),
    nextSeq: state.nextSeq,
    certified: state.certified,
    gapBlocked: firstQueued !== undefined && !state.withinGap(firstQueued.seq),
    ...state.gap.record(),
    fenceRound:
      round === null ? null : { covers: round.covers.length, elapsedMs: now - round.startedAt },
    unpersistedBytes: unpersistedBytes(state),
    stopping: state.stopping,
    stopped: state.stopped,
    poisoned:
      terminal === null
        ? null
        : {
            code: terminal instanceof CairnError ? terminal.code : terminal.name,
            message: terminal.message,
          },
  };
}
