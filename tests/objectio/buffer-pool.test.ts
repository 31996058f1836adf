/** BufferPool: buffers reused by capacity (the WAL's object buffers, the S3 thread's bodies). */
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../src/main/engine/objectio/buffer-pool';

const KIB = 1024;

/** Bytes taken from `buffers`, then scribbled over as a used object would be, and given back. */
function used(buffers: BufferPool, size: number): Uint8Array {
  const bytes = buffers.takeToOverwrite(size);
  bytes.fill(0xee);
  buffers.give(bytes);
  return bytes;
}

describe('BufferPool', () => {
  it('answers exactly the size asked: fresh all zero, reused as its last user left it', () => {
    const buffers = new BufferPool(2, 1024 * KIB);
    const fresh = buffers.takeToOverwrite(1000);
    expect(fresh.length).toBe(1000);
    expect(fresh.every((byte) => byte === 0)).toBe(true);

    const given = used(buffers, 3000);
    const reused = buffers.takeToOverwrite(2000);
    expect(reused.buffer).toBe(given.buffer);
    expect(reused.length).toBe(2000);
    // Not zeroed again: the caller overwrites every byte.
    expect(reused.every((byte) => byte === 0xee)).toBe(true);
  });

  it('takes the smallest idle buffer that holds the size, and a new one when none does', () => {
    const buffers = new BufferPool(2, 1024 * KIB);
    const small = buffers.takeToOverwrite(64 * KIB);
    const large = buffers.takeToOverwrite(512 * KIB);
    buffers.give(large);
    buffers.give(small);

    expect(buffers.takeToOverwrite(10).buffer).toBe(small.buffer);
    const bigger = buffers.takeToOverwrite(600 * KIB);
    expect(bigger.buffer).not.toBe(large.buffer);
    expect(buffers.takeToOverwrite(300 * KIB).buffer).toBe(large.buffer);
  });

  it('hands a buffer given twice to one batch only', () => {
    const buffers = new BufferPool(4, 1024 * KIB);
    const bytes = buffers.takeToOverwrite(100);
    buffers.give(bytes);
    buffers.give(bytes);
    expect(buffers.takeToOverwrite(100).buffer).toBe(bytes.buffer);
    expect(buffers.takeToOverwrite(100).buffer).not.toBe(bytes.buffer);
  });

  it('keeps no buffer above its largest capacity', () => {
    const buffers = new BufferPool(2, 128 * KIB);
    const huge = buffers.takeToOverwrite(256 * KIB);
    buffers.give(huge);

    const next = buffers.takeToOverwrite(100);
    expect(next.buffer).not.toBe(huge.buffer);
    expect(next.length).toBe(100);
  });

  it('holds at most `keep` idle buffers, keeping the larger ones', () => {
    const buffers = new BufferPool(2, 1024 * KIB);
    const sizes = [64 * KIB, 128 * KIB, 256 * KIB];
    const taken = sizes.map((size) => buffers.takeToOverwrite(size));
    for (const bytes of taken) buffers.give(bytes);

    expect(buffers.takeToOverwrite(1).buffer).toBe(taken[1]!.buffer);
    expect(buffers.takeToOverwrite(1).buffer).toBe(taken[2]!.buffer);
    expect(buffers.takeToOverwrite(1).buffer).not.toBe(taken[0]!.buffer);
  });

  it('copies bytes into a reused buffer, or a new one, of exactly their length', () => {
    const buffers = new BufferPool(2, 1024 * KIB);
    const source = Buffer.from('a create body');
    const fresh = buffers.copyOf(source);
    expect(Buffer.from(fresh).toString()).toBe('a create body');
    expect(fresh.buffer).not.toBe(source.buffer);

    const given = used(buffers, 64 * KIB);
    const reused = buffers.copyOf(source);
    expect(reused.buffer).toBe(given.buffer);
    expect(reused.byteOffset).toBe(0);
    expect(Buffer.from(reused).toString()).toBe('a create body');
  });
});
