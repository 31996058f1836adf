/**
 * Storage on a link: every read, head, listing page and delete in one slot naming its kind and
 * the bytes its range names, creates straight through; wrapping twice for one link is one
 * wrapper; the store under it is what a writer gets; reads coalesce where ranges are close.
 */
import { describe, expect, it } from 'vitest';
import { coveringReads } from '../../../src/main/engine/objectio/coalesce';
import { directIo, linkedIo, linkIo, slotsOf } from '../../../src/main/engine/objectio/link';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { readRange, readTail } from '../../../src/main/engine/objectio/object-io';
import { recordingSlots } from './recording-slots';

describe('linked storage', () => {
  it('sends each request in one slot, with its kind and the bytes its range names', async () => {
    const store = new MemoryObjectIo();
    const slots = recordingSlots();
    const io = linkIo(store, slots);
    await io.putIfAbsent('k/a', new Uint8Array(100));
    expect(slots.needs).toEqual([]);
    await io.get('k/a', { start: 10, end: 19 });
    await io.get('k/a', { suffix: 30 });
    await io.get('k/a');
    await readTail(io, 'k/a', 64, 100);
    await readRange(io, 'k/a', 0, 50);
    await io.head('k/a');
    await io.listPage('k/');
    await io.deleteMany!(['k/a']);
    await io.delete('k/a');
    await expect(io.get('k/a')).rejects.toMatchObject({ code: 'NotFound' });
    expect(slots.needs).toEqual([
      { kind: 'read', bytes: 10 },
      { kind: 'read', bytes: 30 },
      { kind: 'read', bytes: 0 },
      { kind: 'read', bytes: 64 },
      { kind: 'read', bytes: 50 },
      { kind: 'head' },
      { kind: 'list' },
      { kind: 'delete' },
      { kind: 'delete' },
      { kind: 'read', bytes: 0 },
    ]);
    expect(slots.released).toBe(slots.needs.length);
  });

  it('wraps once per link, hands its slots on, and gives a writer the store under it', () => {
    const store = new MemoryObjectIo();
    const slots = recordingSlots();
    const io = linkIo(store, slots);
    expect(linkIo(io, slots)).toBe(io);
    expect(linkedIo(io)).toBe(io);
    expect(slotsOf(io)).toBe(slots);
    expect(directIo(io)).toBe(store);
    expect(directIo(store)).toBe(store);
    const own = linkedIo(store);
    expect(directIo(own)).toBe(store);
    expect(slotsOf(own)).not.toBe(slots);
  });
});

describe('covering reads', () => {
  it('merges neighbours whose gap is at most the limit, in order, dropping empty spans', () => {
    expect(
      coveringReads(
        [
          { start: 500, end: 600 },
          { start: 0, end: 54 },
          { start: 100, end: 200 },
          { start: 700, end: 700 },
          { start: 650, end: 900 },
        ],
        60,
      ),
    ).toEqual([
      { start: 0, end: 200 },
      { start: 500, end: 900 },
    ]);
    expect(
      coveringReads([
        { start: 0, end: 54 },
        { start: 54 + 256 * 1024, end: 300_000 },
      ]),
    ).toHaveLength(1);
    expect(
      coveringReads([
        { start: 0, end: 54 },
        { start: 55 + 256 * 1024, end: 300_000 },
      ]),
    ).toHaveLength(2);
  });
});
