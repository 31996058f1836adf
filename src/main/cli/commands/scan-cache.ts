/**
 * How a CLI command that recovers a prefix uses the local object index (shared with the app,
 * in the app data directory): objects read before, by any of the app, browser mode or the
 * CLI, are recalled while the listing shows them unchanged, and what this command read is
 * kept for the next. `--no-cache` reads every object and keeps nothing (a cold read).
 */
import { newGtScanMemo, type GtScanOutcome } from '../../engine/greptimedb/scan';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { newTailScanMemo, type TailOutcome } from '../../engine/wal/recovery';
import type { InspectScan } from '../../engine/wal-read/read-side';
import type { ReadTarget } from '../../engine/wal-read/target';
import { defaultDataDir } from '../../services/app-paths';
import { ObjectIndexStore } from '../../services/object-index/index-store';
import { prefixIndexOf } from '../../services/object-index/prefix-indexes';
import { ScanProgressLine } from '../scan-progress';

export interface CachedScan {
  readonly scan: InspectScan;
  /** Keeps what the scan read in the index (waits for the write) and ends the progress line. */
  done(): Promise<void>;
}

export function indexStoreOfCli(env: NodeJS.ProcessEnv = process.env): ObjectIndexStore {
  return new ObjectIndexStore(defaultDataDir(env));
}

export async function cachedScan(
  io: ObjectIo,
  target: ReadTarget,
  useCache: boolean,
): Promise<CachedScan> {
  const format = target.format;
  const index = useCache ? prefixIndexOf(indexStoreOfCli(), io, target.prefix, format) : null;
  await index?.ready();
  const finish = async (
    memo: Parameters<NonNullable<typeof index>['keep']>[0],
    watch: ScanProgressLine<unknown> | undefined,
  ): Promise<void> => {
    watch?.end();
    index?.keep(memo);
    await index?.flush();
  };
  if (format === 'greptimedb-v1') {
    const memo = newGtScanMemo(index === null ? {} : { recall: index.recaller(format) });
    const watch = ScanProgressLine.forTerminal<GtScanOutcome>();
    return { scan: { greptimedb: { memo, watch } }, done: () => finish(memo, watch) };
  }
  const memo = newTailScanMemo(index === null ? {} : { recall: index.recaller(format) });
  const watch = ScanProgressLine.forTerminal<TailOutcome>();
  return { scan: { cairn: { memo, watch } }, done: () => finish(memo, watch) };
}
