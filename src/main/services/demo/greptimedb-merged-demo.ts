/**
 * The merged-layout part of "Generate demo data": a prefix as GreptimeDB's main branch leaves
 * one (34-byte header with a writer instance, no chain): 11 objects of 3 regions written by two
 * store opens (a restart: a new writer instance), a gap of two sequences the second open
 * consumed and never created, and one object whose segment of one region is damaged - so
 * replay shows a hole of that region only. Payloads are metrics `WalEntry`s. Serves the demo
 * (into places it checked are empty) and the benchmark; Cairn writes this layout nowhere else.
 */
import type { ObjectIo } from '../../engine/objectio/object-io';
import { objectKey } from '../../engine/wal/keys';
import { makeRegionId, type RegionId } from '../../engine/wal/provider';
import { layOutGreptimeObject, type GreptimeRegions } from './greptimedb-demo';
import { metricsPayloads } from './metrics-entries';

const HEADER = 34;

/** The merged layout's header: magic, version 1, the sequence, the 16-byte writer instance. */
export function mergedHeader(seq: bigint, writerInstance: Uint8Array): Uint8Array {
  const header = new Uint8Array(HEADER);
  const view = new DataView(header.buffer);
  header.set(new TextEncoder().encode('GTWALOBJ'), 0);
  view.setUint16(8, 1);
  view.setBigUint64(10, seq);
  header.set(writerInstance.subarray(0, 16), 18);
  return header;
}

export function encodeMergedObject(
  seq: bigint,
  writerInstance: Uint8Array,
  regions: GreptimeRegions,
): Uint8Array {
  return layOutGreptimeObject(mergedHeader(seq, writerInstance), seq, regions);
}

/** A writer instance id the demo can name (GreptimeDB draws a random one per open). */
export function demoWriterInstance(open: number): Uint8Array {
  return Uint8Array.from({ length: 16 }, (_, i) =>
    i === 0 ? 0xd0 + open : (i * 37 + open) & 0xff,
  );
}

const REGIONS: readonly RegionId[] = [0, 1, 2].map((n) => makeRegionId(1025, n));
/** The object whose segment of `DAMAGED_REGION` the demo damages. */
export const DAMAGED_SEQ = 9n;
export const DAMAGED_REGION = makeRegionId(1025, 1);

/** Flips the first payload byte of `region`'s segment: its CRC (and the object's) fails. */
function damageSegment(bytes: Uint8Array, region: RegionId): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const footer = Number(view.getBigUint64(bytes.length - 32));
  for (let i = 0; i < view.getUint32(footer); i++) {
    const at = footer + 4 + i * 48;
    if (view.getBigUint64(at) !== region) continue;
    const payloadAt = Number(view.getBigUint64(at + 28)) + 24;
    bytes[payloadAt] = (bytes[payloadAt] ?? 0) ^ 0xff;
  }
}

/**
 * Open 1 wrote sequences 0-4; open 2 (a restart) consumed 5-6 for batches that never landed
 * and wrote 7-12; the segment of region 1025:1 in object 9 is damaged. Returns the entries.
 */
export async function writeGreptimeMergedDemo(io: ObjectIo, prefix: string): Promise<number> {
  const samples = new Map(REGIONS.map((region) => [region, 0]));
  let entries = 0;
  const seqs = [0n, 1n, 2n, 3n, 4n, 7n, 8n, 9n, 10n, 11n, 12n];
  for (const seq of seqs) {
    const regions = REGIONS.filter((_, n) => (Number(seq) + n) % 4 !== 3).map((region) => {
      const at = samples.get(region) ?? 0;
      const count = 2 + Number(seq % 2n);
      samples.set(region, at + count);
      entries += count;
      const regionNumber = Number(region & 0xffff_ffffn);
      return [region, metricsPayloads(regionNumber, at, count, BigInt(at)).payloads] as const;
    });
    const bytes = encodeMergedObject(seq, demoWriterInstance(seq < 5n ? 1 : 2), regions);
    if (seq === DAMAGED_SEQ) damageSegment(bytes, DAMAGED_REGION);
    await io.putIfAbsent(objectKey(prefix, seq), bytes);
  }
  return entries;
}
