/**
 * What changed between two versions of a WAL register, field by field, in the words the
 * console uses (`boundary 0 → 64`, `watermark 1:1 3:5 → 7:9`, `sealed epochs 2 (taken-over,
 * last seq 70)`): the Manifest's version history shows these instead of every field of every
 * version. A field that does not decode is said to have changed, never guessed at. Pure.
 */
import type { ManifestFields } from '../../engine/manifest/manifest-store';
import {
  CONTROL_FIELDS,
  decodeControlFields,
  emptyControlState,
} from '../../engine/wal/control-fields';
import type { ControlState, SealRecord } from '../../engine/wal/session';
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';

export interface RegisterChange {
  /** The register field that changed (`cairn.boundary`). */
  readonly field: string;
  readonly text: string;
}

function decoded(fields: ManifestFields): ControlState | null {
  try {
    return decodeControlFields(fields);
  } catch {
    return null;
  }
}

function tailText(tail: ControlState['tail']): string {
  return tail === null ? 'none' : `seq ${tail.seq} · epoch ${tail.epoch}`;
}

function idText(id: bigint | undefined): string {
  return id === undefined || id === 0n ? 'none' : formatEntryId(id);
}

function sealText(record: SealRecord): string {
  const epochs =
    record.firstEpoch === record.lastEpoch
      ? `${record.lastEpoch}`
      : `${record.firstEpoch}–${record.lastEpoch}`;
  const last = record.lastSeq === null ? 'none on the chain' : `last seq ${record.lastSeq}`;
  return `sealed epochs ${epochs} (${record.reason}, ${last})`;
}

function sealKey(record: SealRecord): string {
  return `${record.firstEpoch}-${record.lastEpoch}-${record.lastSeq ?? ''}-${record.reason}`;
}

/** Entries of two maps by key that differ, in key order: [key, before, after]. */
function changedEntries<K extends bigint, V>(
  before: ReadonlyMap<K, V>,
  after: ReadonlyMap<K, V>,
  same: (a: V, b: V) => boolean,
): Array<[K, V | undefined, V | undefined]> {
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return keys.flatMap((key): Array<[K, V | undefined, V | undefined]> => {
    const a = before.get(key);
    const b = after.get(key);
    return a !== undefined && b !== undefined && same(a, b) ? [] : [[key, a, b]];
  });
}

function controlChanges(before: ControlState, after: ControlState): RegisterChange[] {
  const changes: RegisterChange[] = [];
  const add = (field: string, text: string) => changes.push({ field, text });
  if (before.writerEpoch !== after.writerEpoch)
    add(CONTROL_FIELDS.writerEpoch, `writer epoch ${before.writerEpoch} → ${after.writerEpoch}`);
  if (before.writerId !== after.writerId)
    add(CONTROL_FIELDS.writerId, `writer id ${before.writerId || 'none'} → ${after.writerId}`);
  if (tailText(before.tail) !== tailText(after.tail))
    add(CONTROL_FIELDS.tail, `tail ${tailText(before.tail)} → ${tailText(after.tail)}`);
  if (before.boundary !== after.boundary)
    add(CONTROL_FIELDS.boundary, `boundary ${before.boundary} → ${after.boundary}`);
  for (const [region, was, now] of changedEntries(
    before.watermarks,
    after.watermarks,
    (a, b) => a === b,
  ))
    add(
      CONTROL_FIELDS.watermarks,
      `watermark ${formatRegionId(region)} ${idText(was)} → ${idText(now)}`,
    );
  const wasSealed = new Set(before.segments.map(sealKey));
  const nowSealed = new Set(after.segments.map(sealKey));
  for (const record of after.segments)
    if (!wasSealed.has(sealKey(record))) add(CONTROL_FIELDS.segments, `+ ${sealText(record)}`);
  for (const record of before.segments)
    if (!nowSealed.has(sealKey(record))) add(CONTROL_FIELDS.segments, `− ${sealText(record)}`);
  for (const [region, was, now] of changedEntries(before.regions, after.regions, () => true))
    add(
      CONTROL_FIELDS.regions,
      was === undefined
        ? `region ${formatRegionId(region)} listed`
        : now === undefined
          ? `region ${formatRegionId(region)} removed from the table`
          : `region ${formatRegionId(region)} changed`,
    );
  return changes;
}

/** Fields outside the control state (or any field when a version does not decode), by text. */
function rawChanges(
  before: ManifestFields,
  after: ManifestFields,
  known: boolean,
): RegisterChange[] {
  const owned: ReadonlySet<string> = new Set(known ? Object.values(CONTROL_FIELDS) : []);
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return names.flatMap((field): RegisterChange[] => {
    if (owned.has(field) || before[field] === after[field]) return [];
    const text =
      before[field] === undefined
        ? `${field} added`
        : after[field] === undefined
          ? `${field} removed`
          : `${field} changed`;
    return [{ field, text }];
  });
}

/**
 * The changes from `before` to `after`; with no `before` (the oldest version kept), what the
 * version holds, as changes from an empty register.
 */
export function registerChanges(
  before: ManifestFields | null,
  after: ManifestFields,
): RegisterChange[] {
  const was = before ?? {};
  const then = before === null ? emptyControlState() : decoded(was);
  const now = decoded(after);
  if (then === null || now === null) return rawChanges(was, after, false);
  return [...controlChanges(then, now), ...rawChanges(was, after, true)];
}
