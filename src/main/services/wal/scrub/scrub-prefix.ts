/**
 * One prefix's scrub: every WAL object under it read whole (or in bounded pieces) and run
 * through every check of its format - the same verification as `cairn wal verify` - with the
 * verdicts going to the damage ledger as they come. Bounded in memory and in requests: one
 * listing page of keys (and the next one, fetched ahead) and `concurrency` objects in flight,
 * each through `withSlot` when the connection's I/O controller hands out slots. Pauses and
 * stops between objects (`ScrubGate`). Reads only.
 */
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { mapBounded } from '../../../engine/bounded';
import { verifyGtObject } from '../../../engine/greptimedb/verify';
import { listObjectPages, type ListedObject } from '../../../engine/wal/recovery';
import { verifyObject, type ObjectVerdict } from '../../../engine/wal/verify';
import type { WalFormat } from '../../../engine/wal-read/format';
import type { DamageLedger } from './damage-ledger';
import type { ScrubGate } from './scrub-gate';

/**
 * Objects a background scrub reads at once by default: half of `cairn wal verify`'s, so the
 * views sharing the connection keep their answers quick.
 */
export const SCRUB_CONCURRENCY = 2;

/** How a scrub may use the connection: objects in flight, and the slot each one takes. */
export interface ScrubLimits {
  readonly concurrency: number;
  /** Runs one object's verification inside a slot of the connection's I/O budget. */
  readonly withSlot?: <T>(task: () => Promise<T>) => Promise<T>;
}

export const DEFAULT_SCRUB_LIMITS: ScrubLimits = { concurrency: SCRUB_CONCURRENCY };

export interface ScrubbedPrefix {
  readonly io: ObjectIo;
  readonly prefix: string;
  readonly format: WalFormat;
  /** The ledger's slot of the prefix (connection and prefix). */
  readonly slot: string;
}

/** What a scrub has done so far, counted as it goes. */
export interface ScrubTally {
  listed: number;
  checked: number;
  damaged: number;
  gone: number;
  bytes: number;
}

export function emptyTally(): ScrubTally {
  return { listed: 0, checked: 0, damaged: 0, gone: 0, bytes: 0 };
}

function verifierOf(
  format: WalFormat,
): (io: ObjectIo, key: string, options: { size: number }) => Promise<ObjectVerdict> {
  return format === 'greptimedb-v1' ? verifyGtObject : verifyObject;
}

/**
 * Verifies every object of the prefix, counting into `tally` and telling the ledger each
 * verdict. Throws `ScrubCancelled` when the gate is cancelled, and a storage error that is
 * not a vanished object (the objects judged so far stay in the ledger).
 */
export async function scrubPrefix(
  target: ScrubbedPrefix,
  ledger: DamageLedger,
  gate: ScrubGate,
  tally: ScrubTally,
  limits: ScrubLimits = DEFAULT_SCRUB_LIMITS,
): Promise<void> {
  const verify = verifierOf(target.format);
  const run = limits.withSlot ?? (<T>(task: () => Promise<T>) => task());
  const one = async (object: ListedObject): Promise<void> => {
    await gate.ready();
    const verdict = await run(() => verify(target.io, object.key, { size: object.size }));
    ledger.recordVerdict(target.slot, verdict, object.etag ?? null);
    if (verdict.gone === true) tally.gone += 1;
    else {
      tally.checked += 1;
      tally.bytes += verdict.size;
      if (!verdict.ok) tally.damaged += 1;
    }
  };
  const pages = listObjectPages(target.io, target.prefix)[Symbol.asyncIterator]();
  let next = pages.next();
  try {
    for (;;) {
      const page = await next;
      if (page.done === true) return;
      await gate.ready();
      next = pages.next(); // the next page is listed while this one is verified
      tally.listed += page.value.length;
      await mapBounded(page.value, limits.concurrency, one);
    }
  } finally {
    // A listing fetched ahead and never awaited must not fail unseen.
    void next.catch(() => undefined);
    await pages.return?.();
  }
}
