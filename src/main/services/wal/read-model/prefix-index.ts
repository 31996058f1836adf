/**
 * What a read model asks of the local index of its prefix (services/object-index): the
 * outcomes an earlier process read, recalled by key, size and ETag, and a place to keep what
 * this one read. The model never waits on the index: recalls are answered from memory, and
 * keeping is written in the background.
 */
import type { GtScanMemo, GtScanOutcome } from '../../../engine/greptimedb/scan';
import type { ListedObject, TailOutcome, TailScanMemo } from '../../../engine/wal/recovery';
import type { WalFormat } from '../../../engine/wal-read/format';

export interface PrefixIndex {
  /** Resolves once what an earlier process kept is loaded (none when it cannot be trusted). */
  ready(): Promise<void>;
  /** Recalls the outcome of a listed object, in the prefix's format. */
  recaller(format: 'cairn-v1'): (object: ListedObject) => TailOutcome | undefined;
  recaller(format: 'greptimedb-v1'): (object: ListedObject) => GtScanOutcome | undefined;
  recaller(format: WalFormat): (object: ListedObject) => TailOutcome | GtScanOutcome | undefined;
  /** Keeps what the memo remembers now (written in the background). */
  keep(memo: TailScanMemo | GtScanMemo): void;
}
