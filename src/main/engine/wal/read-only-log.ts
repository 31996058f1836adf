/**
 * A prefix opened for reading only: the same recovery as a writer's open with no epoch CAS
 * and no write of any kind, then region reads over the recovered catalog. What `cairn wal
 * replay` and the console's replay use on a prefix another process may be writing. It sees
 * the log as of its recovery; a later writer's objects are not followed. The open and the
 * reads after it share one link: `io`'s own (a connection's), or a new one made for the log.
 */
import { linkedIo } from '../objectio/link';
import type { ObjectIo } from '../objectio/object-io';
import type { ObjectCatalog } from './catalog';
import {
  validateWalConfig,
  type ObjectStoreWalConfig,
  type ObjectStoreWalConfigInput,
} from './config';
import { emptyControlState } from './control-fields';
import type { WalEntry } from './entry';
import type { EntryId } from './ids';
import { walPrefix } from './keys';
import { createWalMetrics, type WalMetrics } from './metrics';
import { regionOfProvider, type Provider, type RegionId } from './provider';
import { readRegion, readRegionBatches, type ReaderContext, type ReadOptions } from './reader';
import {
  recoverFromScan,
  scanPrefix,
  type Recovery,
  type ScanOptions,
  type TailOutcome,
} from './recovery';
import { readControl, registerStoreOf } from './register';
import type { ControlState, RecoverySummary } from './session';

export interface ReadOnlyLog {
  readonly prefix: string;
  readonly catalog: ObjectCatalog;
  readonly control: ControlState;
  readonly summary: RecoverySummary;
  readonly metrics: WalMetrics;
  /** The region's entries with id >= fromId, in order, ids at or below the watermark hidden. */
  read(provider: Provider, fromId: EntryId, options?: ReadOptions): AsyncIterable<WalEntry>;
  /** Whether the register's region table lists the region (it may hold no entry yet). */
  listsRegion(region: RegionId): boolean;
  /** The same entries, one batch per segment (replay: one async step per segment). */
  readBatches(
    provider: Provider,
    fromId: EntryId,
    options?: ReadOptions,
  ): AsyncIterable<readonly WalEntry[]>;
}

/** What every read-only look at a prefix starts from: no epoch, no write, the register's reader. */
export interface ReadOnlyTarget {
  readonly config: ObjectStoreWalConfig;
  readonly prefix: string;
  readonly store: ReturnType<typeof registerStoreOf>;
  readonly startedAt: number;
  /** The register's control fields now (empty for a prefix no writer ever opened). */
  readonly reread: () => Promise<ControlState>;
}

export function readOnlyTarget(
  io: ObjectIo,
  configInput: ObjectStoreWalConfigInput,
): ReadOnlyTarget {
  const config = validateWalConfig(configInput);
  const prefix = walPrefix(config.root, config.nodeId, config.generation);
  const store = registerStoreOf(io, prefix);
  const reread = async (): Promise<ControlState> =>
    (await readControl(store))?.control ?? emptyControlState();
  return { config, prefix, store, startedAt: performance.now(), reread };
}

/** With `options.memo`, what was read of an object before (same key, size, ETag) is not read again. */
export async function openReadOnly(
  storage: ObjectIo,
  configInput: ObjectStoreWalConfigInput,
  options: Pick<ScanOptions<TailOutcome>, 'memo'> = {},
): Promise<ReadOnlyLog> {
  const io = linkedIo(storage);
  const target = readOnlyTarget(io, configInput);
  const { prefix, startedAt, reread } = target;
  // The register before the listing, as a writer's open: what it names was durable by then.
  const control = await reread();
  const scan = await scanPrefix(io, prefix, control.boundary, { memo: options.memo });
  return readOnlyLogOf(
    io,
    target,
    await recoverFromScan({ prefix, control, scan, reread, startedAt }),
  );
}

/** Region reads over a recovery already made (`openReadOnly`'s, or a read model's). */
export function readOnlyLogOf(
  io: ObjectIo,
  target: ReadOnlyTarget,
  recovery: Recovery,
): ReadOnlyLog {
  const { config, prefix, reread } = target;
  const metrics = createWalMetrics();
  const context: ReaderContext = {
    io,
    catalog: recovery.catalog,
    onCorruptedSegment: config.onCorruptedSegment,
    metrics,
    headersChecked: new Set(),
    refreshWatermarks: async () => {
      for (const [region, watermark] of (await reread()).watermarks)
        recovery.catalog.raiseWatermark(region, watermark);
    },
  };
  return {
    prefix,
    catalog: recovery.catalog,
    control: recovery.control,
    summary: recovery.summary,
    metrics,
    read: (provider, fromId, options) => {
      regionOfProvider(prefix, provider);
      return readRegion(context, provider, fromId, options);
    },
    listsRegion: (region) => recovery.control.regions.has(region),
    readBatches: (provider, fromId, options) => {
      regionOfProvider(prefix, provider);
      return readRegionBatches(context, provider, fromId, options);
    },
  };
}
