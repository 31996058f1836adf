/**
 * A GreptimeDB prefix opened for reading: its recovered chain and region reads over it, with
 * the reader Cairn uses for its own objects (range reads of one segment, a few objects ahead,
 * a damaged segment fetched once more, then a hole or a failed read). GreptimeDB keeps no
 * register, so no watermark hides anything. Fails with the recovery's typed error when the
 * prefix cannot be replayed. Writes nothing, ever.
 */
import { linkedIo } from '../objectio/link';
import type { ObjectIo } from '../objectio/object-io';
import type { ObjectCatalog } from '../wal/catalog';
import type { GtScanMemo } from './scan';
import type { OnCorruptedSegment } from '../wal/config';
import type { WalEntry } from '../wal/entry';
import { NoCompleteChainError } from '../wal/errors';
import type { EntryId } from '../wal/ids';
import { createWalMetrics, type WalMetrics } from '../wal/metrics';
import { regionOfProvider, type Provider } from '../wal/provider';
import { readRegion, type ReaderContext, type ReadOptions, type SegmentCodec } from '../wal/reader';
import { decodeGtSegmentInto } from './decode';
import { normalizePrefix } from './prefix';
import { recoverGtPrefix, type GtRecovery } from './recover';

export const GREPTIMEDB_SEGMENTS: SegmentCodec = {
  decodeInto: decodeGtSegmentInto,
  checksum: 'crc32',
  checksHeader: false,
};

export interface GtReadOnlyLog {
  readonly prefix: string;
  readonly recovery: GtRecovery;
  readonly catalog: ObjectCatalog;
  readonly metrics: WalMetrics;
  read(provider: Provider, fromId: EntryId, options?: ReadOptions): AsyncIterable<WalEntry>;
}

/** The open and the reads after it share one link: `io`'s own, or a new one made for the log. */
export async function openGtReadOnly(
  storage: ObjectIo,
  rawPrefix: string,
  options: { readonly onCorruptedSegment?: OnCorruptedSegment; readonly memo?: GtScanMemo } = {},
): Promise<GtReadOnlyLog> {
  const io = linkedIo(storage);
  const recovery = await recoverGtPrefix(io, normalizePrefix(rawPrefix), { memo: options.memo });
  return gtReadOnlyLogOf(io, recovery, options);
}

/** Region reads over a recovery already made; its typed failure when it does not replay. */
export function gtReadOnlyLogOf(
  io: ObjectIo,
  recovery: GtRecovery,
  options: { readonly onCorruptedSegment?: OnCorruptedSegment } = {},
): GtReadOnlyLog {
  const { prefix, catalog } = recovery;
  // No catalog only ever comes with a failure; the typed fallback keeps the compiler honest.
  if (recovery.failure !== null || catalog === null)
    throw recovery.failure ?? new NoCompleteChainError(prefix);
  const metrics = createWalMetrics();
  const context: ReaderContext = {
    io,
    catalog,
    onCorruptedSegment: options.onCorruptedSegment ?? 'skip',
    metrics,
    headersChecked: new Set(),
    segments: GREPTIMEDB_SEGMENTS,
  };
  return {
    prefix,
    recovery,
    catalog,
    metrics,
    read: (provider, fromId, options) => {
      regionOfProvider(prefix, provider);
      return readRegion(context, provider, fromId, options);
    },
  };
}
