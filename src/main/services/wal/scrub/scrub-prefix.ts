/**
 * One prefix's scrub: every WAL object under it read whole (or in bounded pieces) and run
 * through every check of its format - the same verification as `cairn wal verify` - with the
 * verdicts going to the damage ledger as they come. Bounded in memory and in requests: one
 * listing page of keys (and the next one, fetched ahead), and objects in flight up to a share of
 * the connection's link (`SCRUB_SHARE_OF_LINK` of its width), whose slots every read takes, so
 * the views sharing the connection keep the rest of it. Pauses and stops between objects
 * (`ScrubGate`). Reads only.
 */
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { fanOut, slotsOf, type IoSlots } from '../../../engine/objectio/link';
import { verifyGtObject } from '../../../engine/greptimedb/verify';
import { listObjectPages, type ListedObject } from '../../../engine/wal/recovery';
import { verifyObject, type ObjectVerdict } from '../../../engine/wal/verify';
import type { WalFormat } from '../../../engine/wal-read/format';
import type { DamageLedger } from './damage-ledger';
import type { ScrubGate } from './scrub-gate';

/**
 * The share of the link's width a background scrub keeps in flight (`cairn wal verify` takes
 * all of it): the views sharing the connection keep the rest, so their answers stay quick.
 */
export const SCRUB_SHARE_OF_LINK = 0.5;

/** Half of what the link wants in flight, read again at each step as the link learns. */
function scrubShare(link: IoSlots): Pick<IoSlots, 'width'> {
  return {
    get width() {
      return Math.max(1, Math.floor(link.width * SCRUB_SHARE_OF_LINK));
    },
  };
}

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

/** The verification `cairn wal verify` runs on one object of a prefix of `format`. */
export function verifierOf(
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
): Promise<void> {
  const verify = verifierOf(target.format);
  const share = scrubShare(slotsOf(target.io));
  const one = async (object: ListedObject): Promise<void> => {
    await gate.ready();
    const verdict = await verify(target.io, object.key, { size: object.size });
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
      await fanOut(page.value, share, one);
    }
  } finally {
    // A listing fetched ahead and never awaited must not fail unseen.
    void next.catch(() => undefined);
    await pages.return?.();
  }
}
