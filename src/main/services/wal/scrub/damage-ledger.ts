/**
 * The damage ledger: every damaged object a scrub or a replay of this app found, per
 * connection and prefix, kept until the object changes. A finding is keyed by the object's key
 * and remembers the size and ETag of the object found damaged; it leaves when a later scrub
 * reads the object sound, or when the object is gone or no longer has that size and ETag (a
 * HEAD per finding, at most once per `RECHECK_AFTER_MS` and at most `MAX_RECHECKS_PER_LOOK`
 * per look, before a view shows it). A finding restored from the ledger file is shown only once
 * the object, read through its format's checks (the verifier the caller passes), is found
 * damaged again. Views merge the findings in through the damage presenters. It never decides
 * what is damaged: verify and the reader do.
 */
import { isStorageError } from '../../../engine/objectio/errors';
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { fanOut } from '../../../engine/objectio/link';
import type { SkippedSegment } from '../../../engine/wal/reader';
import type { ObjectVerdict } from '../../../engine/wal/verify';
import type { DamagedRange } from '../../../../shared/contract/wal-damage';
import { processLog } from '../../process-log';
import { slotParts } from '../wal-locate';

/** A finding is checked against the store (a HEAD) at most this often. */
export const RECHECK_AFTER_MS = 10_000;
/** Findings kept per prefix; a prefix damaged beyond it keeps the first found and a count. */
export const MAX_FINDINGS_PER_PREFIX = 10_000;
const RECHECK_CONCURRENCY = 4;
/** HEADs one look at a prefix sends at most (the findings checked longest ago first). */
export const MAX_RECHECKS_PER_LOOK = 64;

export interface DamageFinding {
  readonly key: string;
  readonly seq: bigint | null;
  /** The damaged object's size and ETag; null until known (a replay sees neither). */
  readonly size: number | null;
  readonly etag: string | null;
  readonly check: string;
  readonly detail: string;
  /** Regions whose segment failed; null when the object itself failed (every region in it). */
  readonly regions: readonly bigint[] | null;
  /** Entry ranges a read met (a replay's hole), beside what the catalog tells. */
  readonly ranges: readonly DamagedRange[];
  readonly source: 'scrub' | 'replay';
  readonly foundAtMs: number;
  /** When the store last confirmed this object is the one found damaged. */
  readonly checkedAtMs: number;
  /**
   * Whether this process saw the damage (its scrub or replay read the object, or its read of a
   * restored finding's object found it damaged again). A finding restored from the file is not
   * shown before: the file is only a claim.
   */
  readonly confirmed: boolean;
}

/**
 * Reads `key` through every check of its format (the prefix's verifier): how a restored
 * finding is confirmed by the object's bytes, not by its listing.
 */
export type ConfirmByRead = (key: string, size: number) => Promise<ObjectVerdict>;

interface PrefixFindings {
  readonly byKey: Map<string, DamageFinding>;
  /** Findings not kept because the prefix already had `MAX_FINDINGS_PER_PREFIX`. */
  dropped: number;
}

/**
 * The regions a damaged object costs: GreptimeDB's verdict names the segments a replay loses
 * (each a hole of its region alone); else the failing segment's region, else every region.
 */
function lossesOf(verdict: ObjectVerdict): Pick<DamageFinding, 'regions' | 'ranges'> {
  if (verdict.lost !== undefined)
    return {
      regions: verdict.lost.map((range) => range.regionId),
      ranges: verdict.lost.map(({ regionId, firstId, lastId }) => ({ regionId, firstId, lastId })),
    };
  return { regions: verdict.region === undefined ? null : [verdict.region], ranges: [] };
}

export class DamageLedger {
  private readonly prefixes = new Map<string, PrefixFindings>();

  constructor(
    private readonly now: () => number = Date.now,
    /** Told after every change (the ledger file saves then). */
    private readonly onChange: () => void = () => undefined,
  ) {}

  /** Every prefix's findings, for the ledger file. */
  stored(): Array<{ slot: string; findings: DamageFinding[] }> {
    return [...this.prefixes.keys()].map((slot) => ({ slot, findings: this.allFindings(slot) }));
  }

  /**
   * Findings a file kept from an earlier run; an object this run already has a finding for
   * keeps this run's. They are confirmed with the store before a view shows them.
   */
  restore(
    prefixes: ReadonlyArray<{ slot: string; findings: readonly DamageFinding[] }>,
    /** Whether a connection still exists: the slots of removed ones are pruned. */
    connectionExists: (connectionId: string) => boolean = () => true,
  ): void {
    let restored = 0;
    let pruned = 0;
    for (const { slot, findings } of prefixes) {
      const parts = slotPartsOrNull(slot);
      if (parts === null || !connectionExists(parts.connectionId)) {
        pruned += findings.length;
        continue;
      }
      for (const finding of findings)
        if (!finding.key.startsWith(`${parts.prefix}/`)) pruned += 1;
        else if (this.prefixes.get(slot)?.byKey.has(finding.key) !== true) {
          this.put(slot, finding);
          restored += 1;
        }
    }
    if (pruned > 0)
      processLog.warn(
        { pruned },
        'damage ledger: findings of removed connections, or keys outside their prefix, dropped at load',
      );
    if (restored > 0 || pruned > 0) this.onChange();
  }

  /** A scrub's verdict on one object: a damaged one is kept (replacing what was known), a sound or gone one forgotten. */
  recordVerdict(slot: string, verdict: ObjectVerdict, etag: string | null): void {
    if (verdict.ok || verdict.gone === true) {
      if (this.prefixes.get(slot)?.byKey.delete(verdict.key) === true) this.onChange();
      return;
    }
    const at = this.now();
    this.put(slot, {
      key: verdict.key,
      seq: verdict.seq,
      size: verdict.size,
      etag,
      check: verdict.check ?? 'unknown',
      detail: verdict.detail ?? '',
      ...lossesOf(verdict),
      source: 'scrub',
      foundAtMs: at,
      checkedAtMs: at,
      confirmed: true,
    });
    this.onChange();
  }

  /** A segment a replay skipped: added to the object's finding (or the first of it). */
  recordSkipped(slot: string, skipped: SkippedSegment): void {
    const known = this.prefixes.get(slot)?.byKey.get(skipped.key);
    const range = { regionId: skipped.regionId, firstId: skipped.firstId, lastId: skipped.lastId };
    if (known !== undefined) {
      const ranges = known.ranges.some((r) => r.regionId === range.regionId)
        ? known.ranges
        : [...known.ranges, range];
      const regions =
        known.regions === null || known.regions.includes(range.regionId)
          ? known.regions
          : [...known.regions, range.regionId];
      this.put(slot, { ...known, ranges, regions });
      this.onChange();
      return;
    }
    const at = this.now();
    this.put(slot, {
      key: skipped.key,
      seq: skipped.seq,
      size: null,
      etag: null,
      check: skipped.check,
      detail: skipped.detail,
      regions: [skipped.regionId],
      ranges: [range],
      source: 'replay',
      foundAtMs: at,
      // Never checked: the first look at it records the object's size and ETag.
      checkedAtMs: 0,
      confirmed: true,
    });
    this.onChange();
  }

  /** The prefix's findings by key, as last confirmed (see `current`): what views show. */
  findings(slot: string): DamageFinding[] {
    return this.allFindings(slot).filter((finding) => finding.confirmed);
  }

  /** Every finding kept, confirmed or restored and not yet confirmed (what the file keeps). */
  allFindings(slot: string): DamageFinding[] {
    const known = this.prefixes.get(slot);
    if (known === undefined) return [];
    return [...known.byKey.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  /** Findings not kept because the prefix had too many. */
  dropped(slot: string): number {
    return this.prefixes.get(slot)?.dropped ?? 0;
  }

  /**
   * The prefix's findings after confirming each with the store (at most once per
   * `RECHECK_AFTER_MS`): an object gone, or with another size or ETag, is forgotten; a finding
   * restored from the file is read through its format's checks (`confirmByRead`) and shown only
   * if the read finds it damaged; a finding whose key the store refuses (a Backend error: not a
   * key of this store, a path through a link) is dropped with a log line. A passing failure
   * (Unavailable) leaves a finding as it was, never failing the look.
   */
  async current(
    slot: string,
    io: ObjectIo,
    confirmByRead?: ConfirmByRead,
  ): Promise<DamageFinding[]> {
    const known = this.prefixes.get(slot);
    if (known === undefined || known.byKey.size === 0) return [];
    const now = this.now();
    const due = [...known.byKey.values()]
      .filter((f) => now - f.checkedAtMs >= RECHECK_AFTER_MS)
      .sort((a, b) => a.checkedAtMs - b.checkedAtMs)
      .slice(0, MAX_RECHECKS_PER_LOOK);
    // Only a finding forgotten, or a size or ETag learnt, is saved: `checkedAtMs` is not kept.
    let changed = false;
    await fanOut(due, { width: RECHECK_CONCURRENCY }, async (finding) => {
      let judged: DamageFinding | null;
      try {
        judged = await this.judged(finding, io, confirmByRead);
      } catch (error) {
        if (!isStorageError(error, 'Backend')) return; // Passing: asked again next look.
        processLog.warn(
          { slot, key: finding.key, error: (error as Error).message },
          'damage ledger: a finding whose key the store refuses is dropped',
        );
        judged = null;
      }
      // A finding replaced meanwhile (a newer verdict) is not this check's to judge.
      if (known.byKey.get(finding.key) !== finding) return;
      if (judged === null) {
        known.byKey.delete(finding.key);
        changed = true;
        return;
      }
      if (
        judged.size !== finding.size ||
        judged.etag !== finding.etag ||
        judged.confirmed !== finding.confirmed
      )
        changed = true;
      known.byKey.set(finding.key, { ...judged, checkedAtMs: this.now() });
    });
    if (changed) this.onChange();
    return this.findings(slot);
  }

  /** The finding as the store now has its object, or null when it is to be forgotten. */
  private async judged(
    finding: DamageFinding,
    io: ObjectIo,
    confirmByRead: ConfirmByRead | undefined,
  ): Promise<DamageFinding | null> {
    const seen = await headOrNull(io, finding.key);
    const same =
      seen !== null &&
      (finding.size === null || finding.size === seen.size) &&
      (finding.etag === null || finding.etag === seen.etag);
    if (!same) return null;
    const updated = { ...finding, size: seen.size, etag: seen.etag };
    if (finding.confirmed) return updated;
    // A restored claim: the object's bytes decide. Without a reader it stays unshown.
    if (confirmByRead === undefined) return updated;
    const verdict = await confirmByRead(finding.key, seen.size);
    if (verdict.ok || verdict.gone === true) return null;
    return { ...updated, confirmed: true };
  }

  /** Forgets every finding of a removed connection. */
  forgetConnection(connectionId: string): void {
    let forgot = false;
    for (const slot of [...this.prefixes.keys()])
      if (slotParts(slot).connectionId === connectionId) {
        this.prefixes.delete(slot);
        forgot = true;
      }
    if (forgot) this.onChange();
  }

  private put(slot: string, finding: DamageFinding): void {
    let known = this.prefixes.get(slot);
    if (known === undefined) {
      known = { byKey: new Map(), dropped: 0 };
      this.prefixes.set(slot, known);
    }
    if (!known.byKey.has(finding.key) && known.byKey.size >= MAX_FINDINGS_PER_PREFIX) {
      known.dropped += 1;
      return;
    }
    known.byKey.set(finding.key, finding);
  }
}

async function headOrNull(
  io: ObjectIo,
  key: string,
): Promise<{ size: number; etag: string } | null> {
  try {
    const meta = await io.head(key);
    return { size: meta.size, etag: meta.etag };
  } catch (error) {
    if (isStorageError(error, 'NotFound')) return null;
    throw error;
  }
}

/** The slot's connection and prefix, or null for a slot this app never made. */
function slotPartsOrNull(slot: string): { connectionId: string; prefix: string } | null {
  if (!slot.includes('\n')) return null;
  const parts = slotParts(slot);
  return parts.connectionId === '' || parts.prefix === '' ? null : parts;
}
