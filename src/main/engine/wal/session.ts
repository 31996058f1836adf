/**
 * The seam between opening a WAL prefix and running a writer on it: the typed view of the
 * register's control fields, the register as the epoch holder uses it, and what a writer
 * open hands to the actor. Types only; `control-fields.ts`, `register.ts` and `open.ts`
 * implement them, the actor and the store consume them.
 */
import type { PendingRequest, RequestLog } from './watermark-requests/request-types';
import type { ManifestVersion } from '../manifest/manifest-store';
import type { ObjectIo } from '../objectio/object-io';
import type { ObjectCatalog } from './catalog';
import type { ObjectStoreWalConfig } from './config';
import type { EntryId, Seq } from './ids';
import type { RegionId } from './region-id';

/** `cairn.tail`: the last indexed object, a hint written every 10 s and at stop. */
export interface TailHint {
  readonly seq: Seq;
  readonly epoch: bigint;
}

/** One record of the sealed directory `cairn.segments`: an ended epoch and its last object. */
export interface SealRecord {
  /** First epoch covered. Equal to `lastEpoch` except for a `merged` range record and a
   * `taken-over` range of epochs that left no object on the chosen chain (`lastSeq` null). */
  readonly firstEpoch: bigint;
  readonly lastEpoch: bigint;
  /** The epoch's last object on the chosen chain; null when it left none. Recovery excludes
   * every object of a sealed epoch above it. For a merged range: the highest of the range. */
  readonly lastSeq: Seq | null;
  readonly reason: 'stopped' | 'taken-over' | 'merged';
}

export interface RegionRecord {
  readonly createdAtMs: number;
}

/** The WAL's control fields, decoded. */
export interface ControlState {
  readonly writerEpoch: bigint;
  readonly writerId: string;
  readonly tail: TailHint | null;
  readonly segments: readonly SealRecord[];
  /** Collection boundary: nothing below this sequence is needed. 0 when never collected. */
  readonly boundary: Seq;
  /** Persisted obsolete watermarks; a deleted region keeps its last one. */
  readonly watermarks: ReadonlyMap<RegionId, EntryId>;
  /** The region table of `createNamespace`. */
  readonly regions: ReadonlyMap<RegionId, RegionRecord>;
}

/**
 * The register as the epoch holder sees it. One operation in flight at a time (calls are
 * serialized inside), so the holder always knows its own latest version; any other version
 * it meets means a newer writer took the epoch: `FencedError` naming that epoch and writer.
 */
export interface WalRegister {
  readonly prefix: string;
  /** The state and version this holder last wrote (or read at open). */
  current(): { readonly version: ManifestVersion; readonly control: ControlState };
  /** CAS from the holder's own latest version. Throws FencedError when another writer moved it,
   * SegmentDirectoryFull when the change would overflow the directory budget. */
  update(change: (control: ControlState) => ControlState): Promise<ControlState>;
  /** The durability fence: true iff the holder's latest version is still the register's newest.
   * Storage errors propagate (the caller retries until its round's deadline). */
  isCurrent(): Promise<boolean>;
  /** `update` with the watermark-request log, in one CAS (watermark-requests/). */
  updateWithRequests(
    change: (
      control: ControlState,
      log: RequestLog,
    ) => { readonly control: ControlState; readonly log: RequestLog },
  ): Promise<ControlState>;
  /** The requests waiting in the state the holder last wrote or adopted. */
  pendingRequests(): readonly PendingRequest[];
  /** Told whenever the holder adopts a requester's version that holds pending requests. */
  onRequests(listener: () => void): () => void;
}

export interface RecoveredObject {
  readonly seq: Seq;
  readonly epoch: bigint;
  readonly key: string;
  readonly size: number;
}

export interface RecoverySummary {
  /** Objects listed at or above the boundary (chain and orphans). */
  readonly listed: number;
  /** Indexed chain, in sequence order (the start object not included). */
  readonly chain: readonly RecoveredObject[];
  /** Listed objects not on the chain: not indexed, not read, counted for the next sequence. */
  readonly orphans: readonly RecoveredObject[];
  /** Objects excluded because their sealed epoch ended below them. */
  readonly excluded: readonly RecoveredObject[];
  readonly tip: RecoveredObject | null;
  readonly highestListedSeq: Seq | null;
  readonly durationMs: number;
}

/**
 * What a writer open hands to the actor: the epoch held, the recovered catalog, the start.
 * A writer that re-opens itself (a spent start gap) updates `epoch`, `writerId`,
 * `startObject`, `nextSeq` and `recovery` in place (actor/gap-reopen.ts), and its catalog
 * adopts the new recovery, so every holder of the session sees the new epoch at once; the
 * register object stays the same and holds the new epoch.
 */
export interface WriterSession {
  readonly io: ObjectIo;
  readonly prefix: string;
  readonly config: ObjectStoreWalConfig;
  readonly epoch: bigint;
  readonly writerId: string;
  readonly register: WalRegister;
  /** The recovered chain and the start object, indexed; the start object is the tip. */
  readonly catalog: ObjectCatalog;
  /** Durable before the open returns; the first batch links to it. It is also the first
   * certified sequence B of the start gap. */
  readonly startObject: { readonly seq: Seq; readonly epoch: bigint; readonly key: string };
  /** startObject.seq + 1. */
  readonly nextSeq: Seq;
  readonly recovery: RecoverySummary;
}
