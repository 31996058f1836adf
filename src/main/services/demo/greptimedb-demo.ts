/**
 * The GreptimeDB part of "Generate demo data": a prefix in GreptimeDB's own object format, as
 * its datanodes leave one - two instances (each opened with a start object), a late object of
 * the first landing after the second opened (an orphan), and a reclaimed range (objects below
 * the reclaim boundary already deleted), its entries metrics `WalEntry` rows. Cairn never
 * writes this format anywhere else: this module serves only the demo, into a store the demo
 * checked is empty (and the benchmark).
 */
import { crc32 } from '@node-rs/crc32';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { objectKey } from '../../engine/wal/keys';
import { makeRegionId, type RegionId } from '../../engine/wal/provider';
import { metricsPayloads } from './metrics-entries';

export interface GreptimeObjectSpec {
  readonly seq: bigint;
  readonly epoch: bigint;
  readonly prev: { readonly seq: bigint; readonly epoch: bigint } | null;
  readonly reclaimBoundary: bigint;
  /** Region -> payloads, regions ascending. */
  readonly regions: GreptimeRegions;
}

const NO_PREDECESSOR = (1n << 64n) - 1n;
const HEADER = 54;
const TRAILER = 32;
const FOOTER_ENTRY = 48;

/** Region -> payloads, regions ascending: one object's body. */
export type GreptimeRegions = ReadonlyArray<readonly [RegionId, readonly Uint8Array[]]>;

/**
 * Lays an object out after its `header` (either GTWALOBJ v1 layout's) field by field
 * (big-endian, CRC-32/IEEE), as GreptimeDB's v1 does: segments from the header's end, the
 * footer, the trailer. Entry ids are `seq << 20 | position`.
 */
export function layOutGreptimeObject(
  header: Uint8Array,
  seq: bigint,
  regions: GreptimeRegions,
): Uint8Array {
  const headerSize = header.length;
  const segmentSizes = regions.map(
    ([, payloads]) => 12 + payloads.reduce((sum, p) => sum + 12 + p.length, 0),
  );
  const footerOffset = headerSize + segmentSizes.reduce((a, b) => a + b, 0);
  const footerLength = 4 + FOOTER_ENTRY * regions.length;
  const bytes = new Uint8Array(footerOffset + footerLength + TRAILER);
  const view = new DataView(bytes.buffer);
  bytes.set(header, 0);
  view.setUint32(footerOffset, regions.length);
  let at = headerSize;
  regions.forEach(([region, payloads], index) => {
    const start = at;
    view.setBigUint64(at, region);
    view.setUint32(at + 8, payloads.length);
    at += 12;
    payloads.forEach((payload, position) => {
      view.setBigUint64(at, (seq << 20n) | BigInt(position + 1));
      view.setUint32(at + 8, payload.length);
      bytes.set(payload, at + 12);
      at += 12 + payload.length;
    });
    const entry = footerOffset + 4 + index * FOOTER_ENTRY;
    view.setBigUint64(entry, region);
    view.setBigUint64(entry + 8, (seq << 20n) | 1n);
    view.setBigUint64(entry + 16, (seq << 20n) | BigInt(payloads.length));
    view.setUint32(entry + 24, payloads.length);
    view.setBigUint64(entry + 28, BigInt(start));
    view.setBigUint64(entry + 36, BigInt(segmentSizes[index] ?? 0));
    view.setUint32(entry + 44, crc32(bytes.subarray(start, at)));
  });
  const trailer = footerOffset + footerLength;
  view.setBigUint64(trailer, BigInt(footerOffset));
  view.setBigUint64(trailer + 8, BigInt(footerLength));
  view.setUint32(trailer + 16, crc32(bytes.subarray(footerOffset, trailer)));
  bytes.set(new TextEncoder().encode('GTWALTRL'), trailer + 24);
  const beforeCrc = crc32(bytes.subarray(0, trailer + 20));
  view.setUint32(trailer + 20, crc32(bytes.subarray(trailer + 24), beforeCrc));
  return bytes;
}

/** The chained layout's 54-byte header. Also builds the benchmark's GreptimeDB prefix. */
export function encodeGreptimeObject(object: GreptimeObjectSpec): Uint8Array {
  const header = new Uint8Array(HEADER);
  const view = new DataView(header.buffer);
  header.set(new TextEncoder().encode('GTWALOBJ'), 0);
  view.setUint16(8, 1);
  view.setBigUint64(10, object.seq);
  view.setBigUint64(18, object.epoch);
  view.setBigUint64(26, object.prev?.seq ?? NO_PREDECESSOR);
  view.setBigUint64(34, object.prev?.epoch ?? 0n);
  view.setBigUint64(42, object.reclaimBoundary);
  view.setUint32(50, crc32(header.subarray(0, 50)));
  return layOutGreptimeObject(header, object.seq, object.regions);
}

const REGIONS = [makeRegionId(1024, 0), makeRegionId(1024, 1)];

/** Per region: entries written so far (the samples' clock) and the next sequence. */
type RegionClock = Map<RegionId, { sample: number; sequence: bigint }>;

function newClock(): RegionClock {
  // Sequences start high: the reclaimed objects below the boundary held the earlier rows.
  return new Map(REGIONS.map((region) => [region, { sample: 10, sequence: 1_000n }]));
}

/** `count` metrics entries of `region`, advancing its clock. */
function entriesOf(clock: RegionClock, region: RegionId, count: number): Uint8Array[] {
  const at = clock.get(region) ?? { sample: 0, sequence: 0n };
  const { payloads, nextSequence } = metricsPayloads(
    Number(region & 0xffff_ffffn),
    at.sample,
    count,
    at.sequence,
  );
  clock.set(region, { sample: at.sample + count, sequence: nextSequence });
  return payloads;
}

function dataObject(
  clock: RegionClock,
  seq: bigint,
  epoch: bigint,
  prev: bigint,
  reclaimBoundary: bigint,
): GreptimeObjectSpec {
  return {
    seq,
    epoch,
    prev: { seq: prev, epoch: prev === seq - 1n ? epoch : 1n },
    reclaimBoundary,
    regions: REGIONS.map(
      (region) => [region, entriesOf(clock, region, 3 + Number(seq % 3n))] as const,
    ),
  };
}

/**
 * Instance 1 (epoch 1) wrote seqs 0-5; instance 2 opened at seq 7 (epoch 8) above every object
 * then present, and flushed everything below seq 4, which GreptimeDB then deleted; instance 1's
 * create of seq 6 landed late, its rows (written again by instance 2) never replayed. The
 * payloads are metrics `WalEntry`s (metrics-entries.ts). Returns the entries on the chain.
 */
export async function writeGreptimeDemo(io: ObjectIo, prefix: string): Promise<number> {
  const clock = newClock();
  const objects: GreptimeObjectSpec[] = [];
  for (let seq = 4n; seq <= 5n; seq++) objects.push(dataObject(clock, seq, 1n, seq - 1n, 0n));
  const late = dataObject(new Map(clock), 6n, 1n, 5n, 0n);
  objects.push({
    seq: 7n,
    epoch: 8n,
    prev: { seq: 5n, epoch: 1n },
    reclaimBoundary: 4n,
    regions: [],
  });
  for (let seq = 8n; seq <= 12n; seq++) objects.push(dataObject(clock, seq, 8n, seq - 1n, 4n));
  for (const object of [...objects, late])
    await io.putIfAbsent(objectKey(prefix, object.seq), encodeGreptimeObject(object));
  return objects.reduce((sum, o) => sum + o.regions.reduce((n, [, p]) => n + p.length, 0), 0);
}
