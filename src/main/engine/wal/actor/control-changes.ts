/**
 * The register changes the writer makes, as pure functions of the control state: the tail
 * hint, the epoch's seal record (through the sealed directory's own rules), a raised
 * watermark, the region table. Never performs the CAS.
 */
import type { EntryId, Seq } from '../ids';
import type { RegionId } from '../region-id';
import { DEFAULT_MAX_DIRECTORY_BYTES } from '../../manifest/manifest-store';
import { addSealRecord } from '../sealed-directory';
import type { ControlState, RegionRecord, SealRecord, TailHint } from '../session';

export function withTail(control: ControlState, tail: TailHint): ControlState {
  return { ...control, tail };
}

/** This epoch's seal (`reason: stopped`), worst-case room reserved (`SegmentDirectoryFull`). */
export function withStoppedSeal(
  control: ControlState,
  epoch: bigint,
  lastSeq: Seq | null,
  budget: number = DEFAULT_MAX_DIRECTORY_BYTES,
): ControlState {
  const record: SealRecord = { firstEpoch: epoch, lastEpoch: epoch, lastSeq, reason: 'stopped' };
  const others = control.segments.filter((r) => !(r.firstEpoch === epoch && r.lastEpoch === epoch));
  const segments = addSealRecord(others, record, { boundary: control.boundary, budget });
  return { ...control, segments };
}

/** Raises a region's persisted watermark (never lowers it). */
export function withWatermark(control: ControlState, region: RegionId, id: EntryId): ControlState {
  const current = control.watermarks.get(region) ?? 0n;
  if (id <= current) return control;
  const watermarks = new Map(control.watermarks);
  watermarks.set(region, id);
  return { ...control, watermarks };
}

export function withRegion(
  control: ControlState,
  region: RegionId,
  record: RegionRecord,
): ControlState {
  if (control.regions.has(region)) return control;
  const regions = new Map(control.regions);
  regions.set(region, record);
  return { ...control, regions };
}

export function withoutRegion(control: ControlState, region: RegionId): ControlState {
  if (!control.regions.has(region)) return control;
  const regions = new Map(control.regions);
  regions.delete(region);
  return { ...control, regions };
}
