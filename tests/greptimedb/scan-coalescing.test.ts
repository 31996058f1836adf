/**
 * The GreptimeDB scan's reads of an object larger than its suffix window: one whole read when
 * the object is only a little larger (the gap between header and tail is small), a header read
 * beside the tail read when it is much larger; every read in a slot of the scan's link, and the
 * recovered chain the same either way.
 */
import { describe, expect, it } from 'vitest';
import { linkIo } from '../../src/main/engine/objectio/link';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { scanGtPrefix } from '../../src/main/engine/greptimedb/scan';
import { recordingSlots } from '../objectio/link/recording-slots';
import { GtPrefixBuilder } from './gt-encoder';

const PREFIX = 'gt/region-wal';

/** One instance of one object holding `kib` KiB of payload. */
async function prefixOf(kib: number): Promise<MemoryObjectIo> {
  const builder = new GtPrefixBuilder(PREFIX);
  builder.openInstance();
  builder.append([[1n, Array.from({ length: kib }, () => 'x'.repeat(1024))]]);
  const io = new MemoryObjectIo();
  await builder.writeTo(io);
  return io;
}

async function readsOfScan(kib: number): Promise<{ reads: number[]; objects: number }> {
  const slots = recordingSlots();
  const scan = await scanGtPrefix(linkIo(await prefixOf(kib), slots), PREFIX, { slots });
  expect(scan.damaged).toEqual([]);
  const reads = slots.needs.filter((need) => need.kind === 'read').map((need) => need.bytes ?? 0);
  return { reads, objects: scan.objects.length };
}

describe('GreptimeDB scan reads', () => {
  it('read an object a little larger than the window whole, in one request', async () => {
    const { reads, objects } = await readsOfScan(100);
    expect(objects).toBe(2);
    // The start object fits the window (one suffix read); the 100 KiB one is read whole.
    expect(reads).toHaveLength(2);
    expect(Math.max(...reads)).toBeGreaterThan(100 * 1024);
  });

  it('read a header beside the tail of an object far larger than the window', async () => {
    const { reads, objects } = await readsOfScan(400);
    expect(objects).toBe(2);
    expect(reads.sort((a, b) => a - b)).toEqual([54, 64 * 1024, 64 * 1024]);
  });
});
