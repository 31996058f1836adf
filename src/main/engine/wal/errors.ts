/**
 * The closed catalogue of errors the object-store WAL raises (wal.md, "Error catalogue"),
 * plus the two its pure parts need to name bad input (`InvalidRegionId`, `UnencodableBatch`).
 * Each class carries the fields its spec entry names, as properties and as `details`, and a
 * message that names what is wrong. Storage errors are not here: they come from
 * `objectio/errors.ts` unchanged. This module decides nothing and imports nothing of the WAL
 * but the leaf region layout.
 */
import { CairnError } from '../errors';
import { formatRegionId, type RegionId } from './region-id';

export type WalErrorCode =
  | 'InvalidConfig'
  | 'WrongProvider'
  | 'InvalidEntryId'
  | 'InvalidRegionId'
  | 'EntryTooLarge'
  | 'WalObjectSequenceUnsettled'
  | 'Stopped'
  | 'Fenced'
  | 'Poisoned'
  | 'SequenceExhausted'
  | 'CorruptObject'
  | 'ConflictingObject'
  | 'NoCompleteChain'
  | 'TailMissing'
  | 'CorruptSegment'
  | 'LostBacklog'
  | 'SegmentDirectoryFull'
  | 'ObjectGone'
  | 'WriterReopened'
  | 'UnencodableBatch'
  | 'InvalidPrefix'
  | 'MixedFormat'
  | 'ReadOnlyFormat'
  | 'OpenRefused'
  | 'MixedLayouts'
  | 'PrefixNotFound';

/** The base of every WAL error: callers match on `code`. */
export abstract class WalError extends CairnError {
  abstract override readonly code: WalErrorCode;
}

export function isWalError<C extends WalErrorCode>(
  error: unknown,
  code?: C,
): error is WalError & { code: C } {
  return error instanceof WalError && (code === undefined || error.code === code);
}

/** A setting of `ObjectStoreWalConfig` breaks its rule; `rule` says which, in words. */
export class InvalidConfigError extends WalError {
  override readonly code = 'InvalidConfig' as const;
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super('InvalidConfig', `invalid WAL configuration: ${field} ${rule}`, { field, rule });
  }
}

/** A provider (or region) that does not belong to this store. */
export class WrongProviderError extends WalError {
  override readonly code = 'WrongProvider' as const;
  constructor(
    readonly expected: string,
    readonly got: string,
  ) {
    super('WrongProvider', `wrong provider: this store serves ${expected}, got ${got}`, {
      expected,
      got,
    });
  }
}

export class InvalidEntryIdError extends WalError {
  override readonly code = 'InvalidEntryId' as const;
  constructor(
    readonly id: bigint,
    readonly reason: string,
  ) {
    super('InvalidEntryId', `invalid entry id ${id}: ${reason}`, { id, reason });
  }
}

/** Text or numbers that do not make a `tableId:regionNumber` region id. */
export class InvalidRegionIdError extends WalError {
  override readonly code = 'InvalidRegionId' as const;
  constructor(
    readonly text: string,
    readonly reason: string,
  ) {
    super('InvalidRegionId', `invalid region id ${JSON.stringify(text)}: ${reason}`, {
      text,
      reason,
    });
  }
}

export class EntryTooLargeError extends WalError {
  override readonly code = 'EntryTooLarge' as const;
  constructor(
    readonly region: RegionId,
    readonly size: number,
    readonly limit: number,
  ) {
    super(
      'EntryTooLarge',
      `an entry of region ${formatRegionId(region)} has ${size} bytes, above the limit of ${limit}`,
      { region, size, limit },
    );
  }
}

/** Retryable: the open batch holds ids under the sequence an `obsolete` would have to move. */
export class WalObjectSequenceUnsettledError extends WalError {
  override readonly code = 'WalObjectSequenceUnsettled' as const;
  constructor(
    readonly region: RegionId,
    readonly id: bigint,
  ) {
    super(
      'WalObjectSequenceUnsettled',
      `cannot mark region ${formatRegionId(region)} obsolete through ${id} yet: the open batch holds ids under the sequence it would move; retry`,
      { region, id },
    );
  }
}

export class StoppedError extends WalError {
  override readonly code = 'Stopped' as const;
  constructor(readonly prefix: string) {
    super('Stopped', `the WAL store of ${prefix} is stopped`, { prefix });
  }
}

/** Another writer holds a newer epoch (or wrote where only this one may). */
export class FencedError extends WalError {
  override readonly code = 'Fenced' as const;
  constructor(
    readonly epoch: bigint,
    readonly writerId: string,
  ) {
    super('Fenced', `fenced: writer ${writerId} holds epoch ${epoch}`, { epoch, writerId });
  }
}

/** The store met a terminal error; every operation but `stop` fails with it verbatim. */
export class PoisonedError extends WalError {
  override readonly code = 'Poisoned' as const;
  readonly causeCode: string;
  constructor(readonly terminal: Error) {
    const causeCode = terminal instanceof CairnError ? terminal.code : terminal.name;
    super(
      'Poisoned',
      `the WAL store is poisoned: ${terminal.message}`,
      { causeCode, causeMessage: terminal.message },
      { cause: terminal },
    );
    this.causeCode = causeCode;
  }
}

export class SequenceExhaustedError extends WalError {
  override readonly code = 'SequenceExhausted' as const;
  constructor(readonly seq: bigint) {
    super(
      'SequenceExhausted',
      `no WAL object sequence is left after ${seq} (sequences stay below 2^44)`,
      { seq },
    );
  }
}

/** The structural checks of an object, by stable name (wal.md, "Object format" and recovery). */
export type CorruptObjectCheck =
  | 'object-key'
  | 'object-size'
  | 'trailer-magic'
  | 'trailer-crc'
  | 'trailer-link'
  | 'seq-mismatch'
  | 'footer-bounds'
  | 'footer-length'
  | 'footer-crc'
  | 'footer-count'
  | 'segments-order'
  | 'segments-tile'
  | 'segment-ids'
  | 'header-magic'
  | 'header-crc'
  | 'header-version'
  | 'header-flags'
  | 'header-link'
  | 'header-trailer-mismatch'
  | 'header-reclaim'
  | 'object-crc';

export class CorruptObjectError extends WalError {
  override readonly code = 'CorruptObject' as const;
  constructor(
    readonly key: string,
    readonly check: CorruptObjectCheck,
    readonly detail = '',
  ) {
    super(
      'CorruptObject',
      `corrupt WAL object ${key}: ${check} check failed${detail === '' ? '' : ` (${detail})`}`,
      {
        key,
        check,
        detail,
      },
    );
  }
}

/** An object the catalog refused where the chain needs it: two writers' objects disagree. */
export class ConflictingObjectError extends WalError {
  override readonly code = 'ConflictingObject' as const;
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super('ConflictingObject', `conflicting WAL object ${key}: ${reason}`, { key, reason });
  }
}

export class NoCompleteChainError extends WalError {
  override readonly code = 'NoCompleteChain' as const;
  constructor(readonly prefix: string) {
    super(
      'NoCompleteChain',
      `no complete chain of WAL objects under ${prefix}: objects are present but every chain has a missing link`,
      {
        prefix,
      },
    );
  }
}

export class TailMissingError extends WalError {
  override readonly code = 'TailMissing' as const;
  constructor(readonly key: string) {
    super('TailMissing', `the recorded WAL tail ${key} is not on the selected chain`, { key });
  }
}

export type CorruptSegmentCheck =
  'segment-length' | 'segment-crc' | 'segment-framing' | 'segment-header';

/** One region's segment of an object failed its checks (a hole under `onCorruptedSegment: skip`). */
export class CorruptSegmentError extends WalError {
  override readonly code = 'CorruptSegment' as const;
  constructor(
    readonly key: string,
    readonly region: RegionId,
    readonly check: CorruptSegmentCheck,
    readonly detail = '',
  ) {
    super(
      'CorruptSegment',
      `corrupt segment of region ${formatRegionId(region)} in WAL object ${key}: ${check} check failed${detail === '' ? '' : ` (${detail})`}`,
      { key, region, check, detail },
    );
  }
}

/** An `enqueued` backlog that will never be durable: `count` entries in `batches` batches. */
export class LostBacklogError extends WalError {
  override readonly code = 'LostBacklog' as const;
  constructor(
    readonly count: number,
    readonly batches: number,
  ) {
    super(
      'LostBacklog',
      `lost the unpersisted WAL backlog: ${count} entries in ${batches} batches`,
      { count, batches },
    );
  }
}

export class SegmentDirectoryFullError extends WalError {
  override readonly code = 'SegmentDirectoryFull' as const;
  constructor(
    readonly bytes: number,
    readonly budget: number,
  ) {
    super(
      'SegmentDirectoryFull',
      `the sealed-epoch directory would take ${bytes} bytes, above its budget of ${budget}`,
      {
        bytes,
        budget,
      },
    );
  }
}

/** Collected by garbage collection while a read waited for it. */
export class ObjectGoneError extends WalError {
  override readonly code = 'ObjectGone' as const;
  constructor(readonly key: string) {
    super('ObjectGone', `WAL object ${key} was collected while a read waited for it`, { key });
  }
}

/**
 * Retryable: the append was admitted but never made durable because its writer re-opened
 * itself under a new epoch (its start gap was spent: every sequence below B + 64 consumed and
 * none certifiable). Its outcome is unknown, as any failed append's; a retry gets new ids.
 */
export class WriterReopenedError extends WalError {
  override readonly code = 'WriterReopened' as const;
  constructor(
    readonly prefix: string,
    readonly epoch: bigint,
    readonly reason: string,
  ) {
    super(
      'WriterReopened',
      `the writer of ${prefix} re-opens itself above epoch ${epoch} (${reason}); the append was not made durable: retry it`,
      { prefix, epoch, reason },
    );
  }
}

/** A batch the object format cannot hold; an encoding error poisons the writer (wal.md). */
export class UnencodableBatchError extends WalError {
  override readonly code = 'UnencodableBatch' as const;
  constructor(
    readonly seq: bigint,
    readonly reason: string,
  ) {
    super('UnencodableBatch', `cannot encode WAL object ${seq}: ${reason}`, { seq, reason });
  }
}

/** A raw prefix (`--prefix`, a GreptimeDB prefix) that is empty, absolute or has a `.`, `..`
 * or empty component: `rule` says which. */
export class InvalidPrefixError extends WalError {
  override readonly code = 'InvalidPrefix' as const;
  constructor(
    readonly prefix: string,
    readonly rule: string,
  ) {
    super('InvalidPrefix', `invalid WAL prefix ${JSON.stringify(prefix)}: ${rule}`, {
      prefix,
      rule,
    });
  }
}

/** Objects of two formats (Cairn's and GreptimeDB's) under one prefix: `key` is one of the
 * format the prefix's first object does not have. */
export class MixedFormatError extends WalError {
  override readonly code = 'MixedFormat' as const;
  constructor(
    readonly prefix: string,
    readonly key: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(
      'MixedFormat',
      `WAL prefix ${prefix} mixes formats: ${key} is ${found}, the prefix is ${expected}`,
      { prefix, key, expected, found },
    );
  }
}

/** A write (append, obsolete, GC, take over) aimed at a prefix of a format Cairn only reads. */
export class ReadOnlyFormatError extends WalError {
  override readonly code = 'ReadOnlyFormat' as const;
  constructor(
    readonly prefix: string,
    readonly format: string,
  ) {
    super(
      'ReadOnlyFormat',
      `WAL prefix ${prefix} is in ${format} format, which Cairn reads but never writes`,
      { prefix, format },
    );
  }
}

/**
 * A prefix that holds no WAL object (a typo, or a prefix nothing has written yet): a read of it
 * answers this, never a healthy empty report.
 */
export class PrefixNotFoundError extends WalError {
  override readonly code = 'PrefixNotFound' as const;
  constructor(
    readonly prefix: string,
    readonly endpoint: string,
  ) {
    super('PrefixNotFound', `no WAL object under ${prefix}/objects/ at ${endpoint}`, {
      prefix,
      endpoint,
    });
  }
}
