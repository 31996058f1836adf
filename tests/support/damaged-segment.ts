/**
 * A Cairn prefix with one damaged segment, on any store: a few objects written by the real
 * writer (two regions in each), then one byte flipped in the middle of one region's segment of
 * a middle object. The object is replaced whole (delete, then create), as an S3 store allows;
 * the footer and trailer stay sound, so recovery opens the prefix and only a read of that
 * segment, or a scrub, finds the damage.
 */
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { walPrefix } from '../../src/main/engine/wal/keys';
import { openReadOnly } from '../../src/main/engine/wal/read-only-log';
import { ObjectStoreLogStore } from '../../src/main/engine/wal/store';

export const DAMAGE_CONFIG = { root: 'wal', nodeId: 0n, generation: 0, flushIntervalMs: 10 };
export const DAMAGE_PREFIX = walPrefix('wal', 0n, 0);
/** Regions `1:1` and `1:2`. */
export const DAMAGED_REGION = (1n << 32n) | 1n;
export const OTHER_REGION = (1n << 32n) | 2n;

export interface DamagedSegment {
  readonly key: string;
  readonly seq: bigint;
  readonly firstId: bigint;
  readonly lastId: bigint;
  /** Entries of the damaged region in the whole prefix, and in the damaged segment. */
  readonly regionEntries: number;
  readonly lostEntries: number;
}

/** Writes `objects` objects of `perObject` entries in each region, then damages one segment. */
export async function writeDamagedPrefix(
  io: ObjectIo,
  objects = 5,
  perObject = 4,
): Promise<DamagedSegment> {
  const store = await ObjectStoreLogStore.open(io, DAMAGE_CONFIG, {
    probe: false,
    gcAfterObsolete: false,
  });
  const text = new TextEncoder();
  for (let object = 0; object < objects; object++) {
    const entries = [DAMAGED_REGION, OTHER_REGION].flatMap((region) =>
      Array.from({ length: perObject }, (_, i) =>
        store.entry(text.encode(`r${region}-o${object}-e${i}`), 0n, region, {
          prefix: store.prefix,
          regionId: region,
        }),
      ),
    );
    await store.appendBatch(entries); // durable: one object per batch
  }
  await store.stop();
  const log = await openReadOnly(io, DAMAGE_CONFIG);
  const segments = log.catalog.objectsForRegion(DAMAGED_REGION, 1n);
  const target = segments[Math.floor(segments.length / 2)];
  if (target === undefined) throw new Error('no segment to damage');
  await flipSegmentByte(io, target);
  return {
    key: target.key,
    seq: target.seq,
    firstId: target.firstId,
    lastId: target.lastId,
    regionEntries: segments.reduce((sum, segment) => sum + segment.entries, 0),
    lostEntries: target.entries,
  };
}

/**
 * Flips one byte in the middle of a segment and replaces its object whole (delete, then
 * create), as an S3 store allows: footer and trailer stay sound, the segment's CRC fails.
 */
export async function flipSegmentByte(
  io: ObjectIo,
  segment: { readonly key: string; readonly offset: number; readonly length: number },
): Promise<void> {
  const bytes = new Uint8Array((await io.get(segment.key)).bytes);
  const at = segment.offset + Math.floor(segment.length / 2);
  bytes[at] = (bytes[at] ?? 0) ^ 0xff;
  await io.delete(segment.key);
  await io.putIfAbsent(segment.key, bytes);
}
