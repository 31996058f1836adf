/**
 * The local object index (shared with the app, in the app data directory) as one CLI command
 * uses it on one prefix, whatever names the store: a saved connection or ad-hoc flags
 * (`--store`, `--bucket` with `--s3-endpoint`). The index is keyed by the store's identity
 * (`ObjectIo.endpoint`: a local directory's absolute path, `s3://bucket at endpoint`) and the
 * prefix, so the same store reached either way shares it and two stores never do.
 *
 * Each scan the command makes (an open before it takes the epoch, the writer's open after it,
 * a verify) gets a memo of its own that lists the prefix whole and recalls what was read of an
 * object still listed with the same key, size and ETag - by an earlier process, or by this
 * command's earlier scan - so a command that opens twice reads each object once, and the next
 * command reads none. Never trusted across formats; `--no-cache` uses and fills nothing.
 */
import { newGtScanMemo, type GtScanMemo } from '../../engine/greptimedb/scan';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { newTailScanMemo, type TailScanMemo } from '../../engine/wal/recovery';
import type { WalFormat } from '../../engine/wal-read/format';
import type { InspectScan } from '../../engine/wal-read/read-side';
import { defaultDataDir } from '../../services/app-paths';
import { ObjectIndexStore } from '../../services/object-index/index-store';
import type { LocalPrefixIndex } from '../../services/object-index/local-prefix-index';
import { prefixIndexOf } from '../../services/object-index/prefix-indexes';

export function indexStoreOfCli(env: NodeJS.ProcessEnv = process.env): ObjectIndexStore {
  return new ObjectIndexStore(defaultDataDir(env));
}

export class CommandIndex {
  /** The memo of the latest scan, kept in the index when the next one starts or at `done`. */
  private latest: TailScanMemo | GtScanMemo | null = null;

  private constructor(private readonly index: LocalPrefixIndex | null) {}

  /** The index of `prefix` on `io`'s store, loaded; one that recalls nothing when `use` is false. */
  static async open(
    io: ObjectIo,
    prefix: string,
    format: WalFormat,
    use: boolean,
    store: () => ObjectIndexStore = indexStoreOfCli,
  ): Promise<CommandIndex> {
    const index = use ? prefixIndexOf(store(), io, prefix, format) : null;
    await index?.ready();
    return new CommandIndex(index);
  }

  /** A memo for one scan of a Cairn prefix. */
  tailMemo(): TailScanMemo {
    const recall = this.index?.recaller('cairn-v1');
    return this.started(newTailScanMemo(recall === undefined ? {} : { recall }));
  }

  /** A memo for one scan of a GreptimeDB prefix. */
  gtMemo(): GtScanMemo {
    const recall = this.index?.recaller('greptimedb-v1');
    return this.started(newGtScanMemo(recall === undefined ? {} : { recall }));
  }

  /** A scan's options for a target of `format`, with a memo of its own. */
  scanOf(format: WalFormat): InspectScan {
    return format === 'greptimedb-v1'
      ? { greptimedb: { memo: this.gtMemo() } }
      : { cairn: { memo: this.tailMemo() } };
  }

  /** Keeps what the scans read (waits for the write): before the command exits. */
  async done(): Promise<void> {
    this.keepLatest();
    await this.index?.flush();
  }

  private started<M extends TailScanMemo | GtScanMemo>(memo: M): M {
    // What the scan before read is recalled by this one: the index holds it once kept.
    this.keepLatest();
    this.latest = memo;
    return memo;
  }

  private keepLatest(): void {
    if (this.latest !== null) this.index?.keep(this.latest);
  }
}
