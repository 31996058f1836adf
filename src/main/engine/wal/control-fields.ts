/**
 * The WAL's control fields in the register (control.md, "The control fields"): decoding the
 * register's string map into a `ControlState` and encoding it back. Structured values are JSON
 * with bigints as decimal strings, written in one fixed order so one state always gives the
 * same strings. Fields this module does not know are carried over untouched on every update,
 * so a newer version's fields survive an older writer. A malformed field is a
 * `MalformedControlField` naming the field; nothing is guessed. It decides nothing about the
 * protocol (who may write what) and never touches storage.
 */
import { CairnError } from '../errors';
import type { ManifestFields } from '../manifest/manifest-store';
import { SEQ_LIMIT, type EntryId, type Seq } from './ids';
import type { RegionId } from './region-id';
import type { ControlState, RegionRecord, SealRecord, TailHint } from './session';

export const CONTROL_FIELDS = {
  writerEpoch: 'cairn.writer_epoch',
  writerId: 'cairn.writer_id',
  tail: 'cairn.tail',
  segments: 'cairn.segments',
  boundary: 'cairn.boundary',
  watermarks: 'cairn.watermarks',
  regions: 'cairn.regions',
} as const;

export type ControlFieldName = (typeof CONTROL_FIELDS)[keyof typeof CONTROL_FIELDS];

const KNOWN_FIELDS: ReadonlySet<string> = new Set(Object.values(CONTROL_FIELDS));

/** A register field that cannot be what its name says. Terminal: the register needs an operator. */
export class MalformedControlFieldError extends CairnError {
  override readonly code = 'MalformedControlField' as const;
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super('MalformedControlField', `malformed WAL register field ${field}: ${reason}`, {
      field,
      reason,
    });
  }
}

const U64_LIMIT = 1n << 64n;
const CANONICAL_DECIMAL = /^(0|[1-9]\d{0,19})$/;
const SEAL_REASONS: ReadonlySet<string> = new Set(['stopped', 'taken-over', 'merged']);

/** The state of a register that does not exist yet (what `inspect` shows for an empty prefix). */
export function emptyControlState(): ControlState {
  return {
    writerEpoch: 0n,
    writerId: '',
    tail: null,
    segments: [],
    boundary: 0n,
    watermarks: new Map(),
    regions: new Map(),
  };
}

// --- decoding -------------------------------------------------------------------------------

function malformed(field: string, reason: string): never {
  throw new MalformedControlFieldError(field, reason);
}

/** A canonical decimal u64 string of `field` (also the request fields' rule). */
export function u64Of(field: string, value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !CANONICAL_DECIMAL.test(value))
    malformed(field, `${what} must be a decimal string, got ${JSON.stringify(value)}`);
  const parsed = BigInt(value);
  if (parsed >= U64_LIMIT) malformed(field, `${what} ${value} is above the u64 range`);
  return parsed;
}

function seqOf(field: string, value: unknown, what: string): Seq {
  const seq = u64Of(field, value, what);
  if (seq >= SEQ_LIMIT) malformed(field, `${what} ${seq} is not a sequence (below 2^44)`);
  return seq;
}

function jsonOf(field: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return malformed(field, 'is not JSON');
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectOf(field: string, value: unknown, what: string): Record<string, unknown> {
  if (!isPlainObject(value)) malformed(field, `${what} must be a JSON object`);
  return value;
}

function decodeTail(field: string, text: string): TailHint | null {
  const value = jsonOf(field, text);
  if (value === null) return null;
  const tail = objectOf(field, value, 'the tail');
  return { seq: seqOf(field, tail.seq, 'seq'), epoch: u64Of(field, tail.epoch, 'epoch') };
}

function decodeSealRecord(field: string, value: unknown, at: number): SealRecord {
  const record = objectOf(field, value, `record ${at}`);
  const firstEpoch = u64Of(field, record.firstEpoch, `record ${at} firstEpoch`);
  const lastEpoch = u64Of(field, record.lastEpoch, `record ${at} lastEpoch`);
  if (firstEpoch > lastEpoch)
    malformed(field, `record ${at} runs from epoch ${firstEpoch} down to ${lastEpoch}`);
  const lastSeq =
    record.lastSeq === null ? null : seqOf(field, record.lastSeq, `record ${at} lastSeq`);
  const reason = record.reason;
  if (typeof reason !== 'string' || !SEAL_REASONS.has(reason))
    malformed(field, `record ${at} has reason ${JSON.stringify(reason)}`);
  return { firstEpoch, lastEpoch, lastSeq, reason: reason as SealRecord['reason'] };
}

/** The sealed directory from its JSON text (`cairn.segments`). */
export function decodeSealedDirectory(text: string): SealRecord[] {
  const field = CONTROL_FIELDS.segments;
  const value = jsonOf(field, text);
  if (!Array.isArray(value)) malformed(field, 'must be a JSON array');
  return value.map((record: unknown, at) => decodeSealRecord(field, record, at));
}

function decodeWatermarks(field: string, text: string): Map<RegionId, EntryId> {
  const value = objectOf(field, jsonOf(field, text), 'the watermarks');
  const watermarks = new Map<RegionId, EntryId>();
  for (const [region, id] of Object.entries(value)) {
    watermarks.set(u64Of(field, region, 'a region id'), u64Of(field, id, `watermark of ${region}`));
  }
  return watermarks;
}

function decodeRegions(field: string, text: string): Map<RegionId, RegionRecord> {
  const value = objectOf(field, jsonOf(field, text), 'the region table');
  const regions = new Map<RegionId, RegionRecord>();
  for (const [region, record] of Object.entries(value)) {
    const createdAtMs = objectOf(field, record, `region ${region}`).createdAtMs;
    if (typeof createdAtMs !== 'number' || !Number.isSafeInteger(createdAtMs) || createdAtMs < 0)
      malformed(field, `region ${region} has createdAtMs ${JSON.stringify(createdAtMs)}`);
    regions.set(u64Of(field, region, 'a region id'), { createdAtMs });
  }
  return regions;
}

/** An optional field: its decoded value, or `fallback` when the register does not carry it. */
function optional<T>(
  fields: ManifestFields,
  field: ControlFieldName,
  decode: (field: string, text: string) => T,
  fallback: T,
): T {
  const text = fields[field];
  return text === undefined ? fallback : decode(field, text);
}

/**
 * The control state a register holds. `cairn.writer_epoch` is required (every register is
 * created by a writer open); the others default to "none" when absent.
 */
export function decodeControlFields(fields: ManifestFields): ControlState {
  const epochText = fields[CONTROL_FIELDS.writerEpoch];
  if (epochText === undefined) malformed(CONTROL_FIELDS.writerEpoch, 'is missing');
  const writerId = fields[CONTROL_FIELDS.writerId] ?? '';
  return {
    writerEpoch: u64Of(CONTROL_FIELDS.writerEpoch, epochText, 'the epoch'),
    writerId,
    tail: optional(fields, CONTROL_FIELDS.tail, decodeTail, null),
    segments: optional(fields, CONTROL_FIELDS.segments, (_, t) => decodeSealedDirectory(t), []),
    boundary: optional(
      fields,
      CONTROL_FIELDS.boundary,
      (field, text) => seqOf(field, text, 'the boundary'),
      0n,
    ),
    watermarks: optional(fields, CONTROL_FIELDS.watermarks, decodeWatermarks, new Map()),
    regions: optional(fields, CONTROL_FIELDS.regions, decodeRegions, new Map()),
  };
}

/** The fields of a register this module does not own, to carry over on an update. */
export function unknownControlFields(fields: ManifestFields): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !KNOWN_FIELDS.has(name)));
}

// --- encoding -------------------------------------------------------------------------------

function byRegion<T>(entries: Iterable<readonly [RegionId, T]>): Array<readonly [RegionId, T]> {
  return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The sealed directory as JSON, records in the order given (the directory keeps them sorted). */
export function encodeSealedDirectory(records: readonly SealRecord[]): string {
  return JSON.stringify(
    records.map((record) => ({
      firstEpoch: record.firstEpoch.toString(),
      lastEpoch: record.lastEpoch.toString(),
      lastSeq: record.lastSeq === null ? null : record.lastSeq.toString(),
      reason: record.reason,
    })),
  );
}

function encodeTail(tail: TailHint | null): string {
  return JSON.stringify(
    tail === null ? null : { seq: tail.seq.toString(), epoch: tail.epoch.toString() },
  );
}

/** Objects keyed by decimal region ids, inserted ascending, so the text is deterministic. */
function encodeByRegion<T>(map: ReadonlyMap<RegionId, T>, value: (v: T) => unknown): string {
  const entries = byRegion(map.entries()).map(([region, v]) => [region.toString(), value(v)]);
  return JSON.stringify(Object.fromEntries(entries));
}

/**
 * The register fields for `control`, plus every field of `previous` this module does not own
 * (unknown fields are preserved on update).
 */
export function encodeControlFields(
  control: ControlState,
  previous: ManifestFields = {},
): Record<string, string> {
  return {
    ...unknownControlFields(previous),
    [CONTROL_FIELDS.writerEpoch]: control.writerEpoch.toString(),
    [CONTROL_FIELDS.writerId]: control.writerId,
    [CONTROL_FIELDS.tail]: encodeTail(control.tail),
    [CONTROL_FIELDS.segments]: encodeSealedDirectory(control.segments),
    [CONTROL_FIELDS.boundary]: control.boundary.toString(),
    [CONTROL_FIELDS.watermarks]: encodeByRegion(control.watermarks, (id) => id.toString()),
    [CONTROL_FIELDS.regions]: encodeByRegion(control.regions, (record) => ({
      createdAtMs: record.createdAtMs,
    })),
  };
}
