/**
 * Whether a GreptimeDB datanode would open a prefix in the merged layout, judged by its own
 * recovery rules (greptimedb.md, "The merged layout", Recovery; checked against GreptimeDB's
 * `object_store_wal/format.rs` and `catalog.rs`): every listed object belongs to the log, so
 * any structurally damaged object, a header sequence that is not its key's, a footer naming a
 * region twice, a region whose id ranges do not strictly increase along the sequence (the
 * later object named) or a next sequence past 2^44 - 1 refuses the open. Gaps are fine. Also
 * derives what the open would resume from: the next sequence and each region's latest id.
 * Pure: judges what the scan read, never reads storage, never throws.
 */
import { CorruptObjectError } from '../../wal/errors';
import { GtOpenRefusedError, type GtOpenRule } from '../open-errors';
import { positionOf, SEQ_LIMIT, seqOf, type EntryId, type Seq } from '../../wal/ids';
import { formatRegionId, type RegionId } from '../../wal/region-id';
import { GT_REGION_TWICE } from '../decode';
import type { GtDamagedObject, GtScannedObject } from '../scan';

export interface GtOpenVerdict {
  /** Every rule broken, by object sequence; the first is the one the open stops at. */
  readonly refusals: readonly GtOpenRefusedError[];
  /** The sequence the next object would take; null when none is left (a refusal says so). */
  readonly nextSeq: Seq | null;
  /** Each region's latest id: its largest footer max. */
  readonly latestIds: ReadonlyMap<RegionId, EntryId>;
}

/** The rule a damaged object breaks: the structural checks, named as GreptimeDB words them. */
function ruleOfDamage(damaged: GtDamagedObject): { rule: GtOpenRule; detail: string } {
  const error = damaged.error;
  if (!(error instanceof CorruptObjectError)) return { rule: 'structure', detail: error.message };
  if (error.check === 'seq-mismatch') return { rule: 'header-seq', detail: error.detail };
  if (error.check === 'segments-order' && error.detail.startsWith(GT_REGION_TWICE))
    return { rule: 'region-twice', detail: error.detail };
  const detail = error.detail === '' ? error.check : `${error.check}: ${error.detail}`;
  return { rule: 'structure', detail };
}

/** A footer of no segment: GreptimeDB never writes one in this layout, and refuses it. */
function emptyObjectRefusal(prefix: string, object: GtScannedObject): GtOpenRefusedError | null {
  return object.segments.length > 0
    ? null
    : new GtOpenRefusedError(prefix, object.key, 'structure', 'the footer holds no segment');
}

/** `seq:position`, the notation Cairn shows entry ids in. */
function formatEntryId(id: EntryId): string {
  return `${seqOf(id)}:${positionOf(id)}`;
}

interface RegionEnd {
  readonly key: string;
  readonly maxId: EntryId;
}

/** Each region's ranges strictly increasing along the sequence; the later object is named. */
function rangeRefusals(
  prefix: string,
  objects: readonly GtScannedObject[],
  latestIds: Map<RegionId, EntryId>,
): GtOpenRefusedError[] {
  const ends = new Map<RegionId, RegionEnd>();
  const refusals: GtOpenRefusedError[] = [];
  for (const object of objects) {
    for (const segment of object.segments) {
      const before = ends.get(segment.regionId);
      if (before !== undefined && segment.firstId <= before.maxId)
        refusals.push(
          new GtOpenRefusedError(
            prefix,
            object.key,
            'ranges',
            `region ${formatRegionId(segment.regionId)} starts at ${formatEntryId(segment.firstId)}, but ${before.key} ends at ${formatEntryId(before.maxId)}`,
          ),
        );
      if (before === undefined || segment.lastId > before.maxId)
        ends.set(segment.regionId, { key: object.key, maxId: segment.lastId });
      const latest = latestIds.get(segment.regionId);
      if (latest === undefined || segment.lastId > latest)
        latestIds.set(segment.regionId, segment.lastId);
    }
  }
  return refusals;
}

/** max(last sequence + 1, max over regions of (latest id >> 20) + 1), as GreptimeDB resumes. */
function nextSequence(
  objects: readonly GtScannedObject[],
  latestIds: ReadonlyMap<RegionId, EntryId>,
): Seq {
  const last = objects[objects.length - 1];
  let next = last === undefined ? 0n : last.seq + 1n;
  for (const id of latestIds.values()) if (seqOf(id) + 1n > next) next = seqOf(id) + 1n;
  return next;
}

/**
 * The verdict over a merged-layout prefix: `objects` ascending by sequence, `damaged` the
 * objects that failed a structural check.
 */
export function judgeMergedOpen(
  prefix: string,
  objects: readonly GtScannedObject[],
  damaged: readonly GtDamagedObject[],
): GtOpenVerdict {
  const latestIds = new Map<RegionId, EntryId>();
  const bySeq: Array<{ seq: Seq; refusal: GtOpenRefusedError }> = [];
  for (const d of damaged) {
    const { rule, detail } = ruleOfDamage(d);
    bySeq.push({ seq: d.seq, refusal: new GtOpenRefusedError(prefix, d.key, rule, detail) });
  }
  for (const object of objects) {
    const refusal = emptyObjectRefusal(prefix, object);
    if (refusal !== null) bySeq.push({ seq: object.seq, refusal });
  }
  const seqOfKey = new Map(objects.map((o) => [o.key, o.seq]));
  for (const refusal of rangeRefusals(prefix, objects, latestIds))
    bySeq.push({ seq: seqOfKey.get(refusal.key) ?? 0n, refusal });
  bySeq.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  const refusals = bySeq.map((r) => r.refusal);
  const next = nextSequence(objects, latestIds);
  if (next < SEQ_LIMIT) return { refusals, nextSeq: next, latestIds };
  const last = objects[objects.length - 1];
  const exhausted = new GtOpenRefusedError(
    prefix,
    last?.key ?? prefix,
    'sequence-exhausted',
    `the next sequence would be ${next}; sequences stay below 2^44`,
  );
  return { refusals: [...refusals, exhausted], nextSeq: null, latestIds };
}
