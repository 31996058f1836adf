/**
 * One prefix's scrub: every WAL object under it read whole (or in bounded pieces) and run
 * through every check of its format - the same verification as `cairn wal verify` - with the
 * verdicts going to the damage ledger as they come. Bounded in memory and in requests: one
 * listing page of keys (and the next one, fetched ahead), and objects in flight up to a share of
 * the connection's link (`SCRUB_SHARE_OF_LINK` of its width), whose slots every read takes, so
 * the views sharing the connection keep the rest of it. Pauses and stops between objects
 * (`ScrubGate`). With a coverage book it records, page by page, how far it has read whole, so
 * a scrub stopped by a restart resumes after the last page it finished, and a scrub that reads
 * every object becomes the prefix's last complete pass. Reads only.
 */
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { fanOut, slotsOf, type IoSlots } from '../../../engine/objectio/link';
import { verifyGtObject } from '../../../engine/greptimedb/verify';
import { listObjectPages, type ListedObject } from '../../../engine/wal/recovery';
import { verifyObject, type ObjectVerdict } from '../../../engine/wal/verify';
import type { WalFormat } from '../../../engine/wal-read/format';
import type { DamageLedger } from './damage-ledger';
import type { CoverageBook, PartialPass } from './coverage-book';
import { DEFAULT_VERIFY_MAX_AGE_MS } from './coverage-view';
import type { ScrubGate } from './scrub-gate';

/**
 * The share of the link's width a background scrub keeps in flight (`cairn wal verify` takes
 * all of it): the views sharing the connection keep the rest, so their answers stay quick.
 */
export const SCRUB_SHARE_OF_LINK = 0.5;

/** `share` of what the link wants in flight, read again at each step as the link learns. */
function scrubShare(link: IoSlots, share: number): Pick<IoSlots, 'width'> {
  return {
    get width() {
      return Math.max(1, Math.floor(link.width * share));
    },
  };
}

/** Where a scrub records how far it read, so it resumes and counts as coverage. */
export interface ScrubCoverage {
  readonly book: CoverageBook;
  /** A pass under way older than this starts over (its first objects no longer count). */
  readonly maxAgeMs?: number;
}

/** The share of the link a scrub reads at: half for the console's, all of it for the CLI's. */
export interface ScrubPace {
  readonly shareOfLink?: number;
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
  coverage: ScrubCoverage | null = null,
  pace: ScrubPace = {},
): Promise<void> {
  const verify = verifierOf(target.format);
  const share = scrubShare(slotsOf(target.io), pace.shareOfLink ?? SCRUB_SHARE_OF_LINK);
  let pass: PartialPass | null =
    coverage?.book.begin(target.slot, coverage.maxAgeMs ?? DEFAULT_VERIFY_MAX_AGE_MS) ?? null;
  let page = { objects: 0, bytes: 0, damaged: 0, throughSeq: null as bigint | null };
  const one = async (object: ListedObject): Promise<void> => {
    await gate.ready();
    const verdict = await verify(target.io, object.key, { size: object.size });
    ledger.recordVerdict(target.slot, verdict, object.etag ?? null);
    if (verdict.gone === true) tally.gone += 1;
    else {
      tally.checked += 1;
      tally.bytes += verdict.size;
      page.objects += 1;
      page.bytes += verdict.size;
      if (page.throughSeq === null || object.seq > page.throughSeq) page.throughSeq = object.seq;
      if (!verdict.ok) {
        tally.damaged += 1;
        page.damaged += 1;
      }
    }
  };
  const after = pass === null || pass.afterKey === '' ? undefined : pass.afterKey;
  const pages = listObjectPages(target.io, target.prefix, 0n, after)[Symbol.asyncIterator]();
  let next = pages.next();
  try {
    for (;;) {
      const listed = await next;
      if (listed.done === true) break;
      await gate.ready();
      next = pages.next(); // the next page is listed while this one is verified
      tally.listed += listed.value.length;
      page = { objects: 0, bytes: 0, damaged: 0, throughSeq: null };
      await fanOut(listed.value, share, one);
      const last = listed.value.at(-1);
      if (pass !== null && coverage !== null && last !== undefined) {
        pass = passAfterPage(pass, page, last.key);
        coverage.book.progress(target.slot, pass);
      }
    }
    if (pass !== null && coverage !== null) coverage.book.complete(target.slot, pass);
  } finally {
    // A listing fetched ahead and never awaited must not fail unseen.
    void next.catch(() => undefined);
    await pages.return?.();
  }
}

/** The pass once a page is read whole: its counts added, resumed after its last key. */
function passAfterPage(
  pass: PartialPass,
  page: { objects: number; bytes: number; damaged: number; throughSeq: bigint | null },
  lastKey: string,
): PartialPass {
  const through =
    pass.throughSeq === null || (page.throughSeq !== null && page.throughSeq > pass.throughSeq)
      ? page.throughSeq
      : pass.throughSeq;
  return {
    startedAtMs: pass.startedAtMs,
    afterKey: lastKey,
    objects: pass.objects + page.objects,
    bytes: pass.bytes + page.bytes,
    damaged: pass.damaged + page.damaged,
    throughSeq: through,
  };
}
