/**
 * Replay's first read of an object checks its header: one request covering the header and the
 * region's segment when the gap between them is small, two when it is large; and every read of
 * a replay runs in a slot of the log's link. The entries are the same either way.
 */
import { describe, expect, it } from 'vitest';
import { linkIo } from '../../src/main/engine/objectio/link';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { openReadOnly } from '../../src/main/engine/wal/read-only-log';
import { recordingSlots } from '../objectio/link/recording-slots';
import { CONFIG, PREFIX, REGION_A, REGION_B, putObject } from './recovery/prefix-builder';

/** Two objects whose region B segment follows `entriesOfA` 1 KiB entries of region A. */
async function prefixWithGap(entriesOfA: number): Promise<MemoryObjectIo> {
  const store = new MemoryObjectIo();
  const regions = [
    [REGION_A, entriesOfA],
    [REGION_B, 2],
  ] as const;
  await putObject(store, { seq: 0n, epoch: 1n, link: null, regions, entryBytes: 1024 });
  await putObject(store, { seq: 1n, epoch: 1n, link: [0n, 1n], regions, entryBytes: 1024 });
  return store;
}

async function replayReads(entriesOfA: number): Promise<{ reads: number; entries: number }> {
  const slots = recordingSlots();
  const log = await openReadOnly(linkIo(await prefixWithGap(entriesOfA), slots), CONFIG);
  slots.needs.length = 0;
  let entries = 0;
  for await (const entry of log.read({ prefix: PREFIX, regionId: REGION_B }, 0n)) {
    expect(entry.data).toHaveLength(1024);
    entries += 1;
  }
  return { reads: slots.needs.filter((need) => need.kind === 'read').length, entries };
}

describe('replay reads of a segment and its header', () => {
  it('are one request per object when the gap is small', async () => {
    expect(await replayReads(4)).toEqual({ reads: 2, entries: 4 });
  });

  it('are two requests per object when the gap is over 256 KiB', async () => {
    expect(await replayReads(300)).toEqual({ reads: 4, entries: 4 });
  });
});
