/**
 * One prefix's part of the local object index, as its read model (or a CLI command) uses it:
 * loaded once from its file, it recalls what an earlier process read of an object while the
 * listing shows the same key, size and ETag - an object deleted is simply not listed, one
 * rewritten shows another size or ETag and is read again - and keeps what this process read,
 * saved in the background one write at a time. A file that cannot be trusted recalls nothing
 * and is replaced by the next save. Only read outcomes are kept: damage is read again.
 */
import type { GtScanMemo, GtScanOutcome } from '../../engine/greptimedb/scan';
import type { ListedObject, TailOutcome, TailScanMemo } from '../../engine/wal/recovery';
import type { WalFormat } from '../../engine/wal-read/format';
import type { PrefixIndex } from '../wal/read-model/prefix-index';
import type { IndexedObject, IndexIdentity } from './index-file';
import type { ObjectIndexStore } from './index-store';

/** ETags longer than this are not kept (the file gives an ETag 16 bits of length). */
const MAX_ETAG_BYTES = 1024;

export class LocalPrefixIndex implements PrefixIndex {
  private byKey = new Map<string, IndexedObject>();
  private loading: Promise<void> | null = null;
  private keptChanges = -1;
  private saving: Promise<void> = Promise.resolve();
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
        this.byKey = new Map(objects.map((object) => [this.prefixKey(object.seq), object]));
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
    return (listed) => {
      const kept = this.byKey.get(listed.key);
      if (kept === undefined || kept.size !== listed.size || kept.etag !== listed.etag)
        return undefined;
      const object = {
        key: listed.key,
        seq: listed.seq,
        size: kept.size,
        epoch: kept.epoch,
        link: kept.link,
        segments: kept.segments,
      };
      return format === 'greptimedb-v1'
        ? { kind: 'read', object: { ...object, reclaimBoundary: kept.reclaimBoundary } }
        : { kind: 'read', object };
    };
  }

  keep(memo: TailScanMemo | GtScanMemo): void {
    if (memo.changes === this.keptChanges) return;
    this.keptChanges = memo.changes;
    const objects: IndexedObject[] = [];
    for (const read of memo.remembered()) {
      const outcome = read.value;
      if (outcome.kind !== 'read' || read.etag === undefined) continue;
      if (read.etag.length > MAX_ETAG_BYTES) continue;
      const object = outcome.object;
      objects.push({
        seq: object.seq,
        size: read.size,
        etag: read.etag,
        epoch: object.epoch,
        link: object.link,
        reclaimBoundary: 'reclaimBoundary' in object ? object.reclaimBoundary : 0n,
        segments: object.segments,
      });
    }
    this.saving = this.saving
      .then(() => this.store.save(this.identity, objects))
      .then(
        () => {
          this.lastError = null;
        },
        (error: unknown) => {
          this.lastError = error;
        },
      );
  }

  /** Resolves once every save asked for so far has ended (a CLI command before it exits). */
  flush(): Promise<void> {
    return this.saving;
  }
}
