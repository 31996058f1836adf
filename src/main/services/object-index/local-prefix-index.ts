/**
 * One prefix's part of the local object index, as its read model (or a CLI command) uses it:
 * loaded once from its file, it recalls what an earlier process read of an object while the
 * listing shows the same key, size and ETag - an object deleted is simply not listed, one
 * rewritten shows another size or ETag and is read again - and keeps what this process read,
 * saved in the background one write at a time; what it keeps is recalled by the next scan of
 * the same process as well. A file that cannot be trusted recalls nothing
 * and is replaced by the next save. Only read outcomes are kept: damage is read again.
 */
import type { GtScanMemo, GtScanOutcome, GtScannedObject } from '../../engine/greptimedb/scan';
import type { ListedObject, TailOutcome, TailScanMemo } from '../../engine/wal/recovery';
import type { WalFormat } from '../../engine/wal-read/format';
import type { PrefixIndex } from '../wal/read-model/prefix-index';
import type { IndexedObject, IndexIdentity } from './index-file';
import type { ObjectIndexStore } from './index-store';

/** ETags longer than this are not kept (the file gives an ETag 16 bits of length). */
const MAX_ETAG_BYTES = 1024;

/** A kept object, and the outcome a recall hands out (made once, when the file is loaded). */
interface Kept {
  readonly size: number;
  readonly etag: string;
  readonly outcome: TailOutcome | GtScanOutcome;
}

/** A kept GreptimeDB object as its scan read it; its layout follows from the writer instance. */
function gtObjectOf(
  object: Omit<GtScannedObject, 'reclaimBoundary' | 'layout' | 'writerInstance' | 'lastModifiedMs'>,
  kept: IndexedObject,
): GtScannedObject {
  return {
    ...object,
    reclaimBoundary: kept.reclaimBoundary,
    layout: kept.writerInstance === null ? 'chain-header' : 'writer-instance-header',
    writerInstance: kept.writerInstance,
    lastModifiedMs: null,
  };
}

export class LocalPrefixIndex implements PrefixIndex {
  private byKey = new Map<string, Kept>();
  private loading: Promise<void> | null = null;
  /** The memo's changes and size when last kept (or loaded): unchanged, nothing to write. */
  private keptChanges = 0;
  private keptRemembered = 0;
  /** What the next save writes, while one is in flight. */
  private pending: IndexedObject[] | null = null;
  private inFlight: Promise<void> | null = null;
  /** The last save's failure (a full disk, a read-only data directory); reads go on. */
  lastError: unknown = null;

  constructor(
    private readonly store: ObjectIndexStore,
    private readonly identity: IndexIdentity,
    private readonly prefixKey: (seq: bigint) => string,
  ) {}

  ready(): Promise<void> {
    this.loading ??= this.store.load(this.identity).then(
      (objects) => {
        const greptime = this.identity.format === 'greptimedb-v1';
        for (const kept of objects) {
          const key = this.prefixKey(kept.seq);
          const object = {
            key,
            seq: kept.seq,
            size: kept.size,
            epoch: kept.epoch,
            link: kept.link,
            segments: kept.segments,
          };
          const outcome: TailOutcome | GtScanOutcome = greptime
            ? { kind: 'read', object: gtObjectOf(object, kept) }
            : { kind: 'read', object };
          this.byKey.set(key, { size: kept.size, etag: kept.etag, outcome });
        }
        this.keptRemembered = this.byKey.size;
      },
      (error: unknown) => {
        this.lastError = error;
      },
    );
    return this.loading;
  }

  /** Objects the loaded file held. */
  get loaded(): number {
    return this.byKey.size;
  }

  recaller(format: 'cairn-v1'): (object: ListedObject) => TailOutcome | undefined;
  recaller(format: 'greptimedb-v1'): (object: ListedObject) => GtScanOutcome | undefined;
  recaller(format: WalFormat): (object: ListedObject) => TailOutcome | GtScanOutcome | undefined;
  recaller(format: WalFormat): (object: ListedObject) => TailOutcome | GtScanOutcome | undefined {
    if (format !== this.identity.format) return () => undefined;
    return (listed) => {
      const kept = this.byKey.get(listed.key);
      if (kept === undefined || kept.size !== listed.size || kept.etag !== listed.etag)
        return undefined;
      // A GreptimeDB object's date is the listing's, never kept: writer runs are dated by it.
      const outcome = kept.outcome;
      return outcome.kind === 'read' && 'lastModifiedMs' in outcome.object
        ? {
            kind: 'read',
            object: { ...outcome.object, lastModifiedMs: listed.lastModifiedMs ?? null },
          }
        : outcome;
    };
  }

  keep(memo: TailScanMemo | GtScanMemo): void {
    // Nothing read or forgotten since the file was loaded, and no object left out of it.
    if (memo.changes === this.keptChanges && memo.rememberedCount === this.keptRemembered) return;
    this.keptChanges = memo.changes;
    this.keptRemembered = memo.rememberedCount;
    const objects: IndexedObject[] = [];
    for (const read of memo.remembered()) {
      const outcome = read.value;
      if (outcome.kind !== 'read' || read.etag === undefined) continue;
      if (read.etag.length > MAX_ETAG_BYTES) continue;
      const object = outcome.object;
      // Recalled by this process's next scan too (a CLI command that opens twice reads once).
      this.byKey.set(read.key, { size: read.size, etag: read.etag, outcome });
      objects.push({
        seq: object.seq,
        size: read.size,
        etag: read.etag,
        epoch: object.epoch,
        link: object.link,
        reclaimBoundary: 'reclaimBoundary' in object ? object.reclaimBoundary : 0n,
        writerInstance: 'writerInstance' in object ? object.writerInstance : null,
        segments: object.segments,
      });
    }
    this.pending = objects;
    this.pump();
  }

  /** Resolves once every save asked for so far has ended (a CLI command before it exits). */
  async flush(): Promise<void> {
    while (this.inFlight !== null) await this.inFlight;
  }

  /** Starts the pending save unless one is in flight (one write at a time, the latest wins). */
  private pump(): void {
    const objects = this.pending;
    if (this.inFlight !== null || objects === null) return;
    this.pending = null;
    this.inFlight = this.store
      .save(this.identity, objects)
      .then(
        () => {
          this.lastError = null;
        },
        (error: unknown) => {
          this.lastError = error;
        },
      )
      .finally(() => {
        this.inFlight = null;
        this.pump();
      });
  }
}
