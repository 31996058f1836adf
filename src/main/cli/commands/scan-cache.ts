/**
 * How `cairn wal inspect` uses the local object index (`command-index.ts`): objects read
 * before, by any of the app, browser mode or the CLI, are recalled while the listing shows
 * them unchanged, and what this command read is kept for the next. `--no-cache` reads every
 * object and keeps nothing (a cold read).
 */
import type { GtScanOutcome } from '../../engine/greptimedb/scan';
import type { ObjectIo } from '../../engine/objectio/object-io';
import type { TailOutcome } from '../../engine/wal/recovery';
import type { InspectScan } from '../../engine/wal-read/read-side';
import type { ReadTarget } from '../../engine/wal-read/target';
import { ScanProgressLine } from '../scan-progress';
import { CommandIndex } from './command-index';

export { indexStoreOfCli } from './command-index';

export interface CachedScan {
  readonly scan: InspectScan;
  /** Keeps what the scan read in the index (waits for the write) and ends the progress line. */
  done(): Promise<void>;
}

export async function cachedScan(
  io: ObjectIo,
  target: ReadTarget,
  useCache: boolean,
): Promise<CachedScan> {
  const index = await CommandIndex.open(io, target.prefix, target.format, useCache);
  const finish = async (watch: ScanProgressLine<unknown> | undefined): Promise<void> => {
    watch?.end();
    await index.done();
  };
  if (target.format === 'greptimedb-v1') {
    const watch = ScanProgressLine.forTerminal<GtScanOutcome>();
    return { scan: { greptimedb: { memo: index.gtMemo(), watch } }, done: () => finish(watch) };
  }
  const watch = ScanProgressLine.forTerminal<TailOutcome>();
  return { scan: { cairn: { memo: index.tailMemo(), watch } }, done: () => finish(watch) };
}
