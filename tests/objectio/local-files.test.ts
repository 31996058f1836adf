/**
 * The local store's read buffers: allocated unzeroed, so whatever a read leaves unfilled must
 * be zeroed before the buffer is handed out (a tail's extra byte, a short read).
 */
import { describe, expect, it } from 'vitest';
import { readBuffer, zeroUnread } from '../../src/main/engine/objectio/local-files';

describe('read buffers', () => {
  it('are exactly as long as the read, each over a buffer of its own', () => {
    const bytes = readBuffer(70_000);
    expect([bytes.length, bytes.byteOffset, bytes.buffer.byteLength]).toEqual([70_000, 0, 70_000]);
  });

  it('zero what a read left unfilled, and nothing of what it filled', () => {
    const bytes = new Uint8Array(8).fill(0xaa);
    zeroUnread(bytes, 3);
    expect([...bytes]).toEqual([0xaa, 0xaa, 0xaa, 0, 0, 0, 0, 0]);
    const full = new Uint8Array(4).fill(0xbb);
    zeroUnread(full, 4);
    expect([...full]).toEqual([0xbb, 0xbb, 0xbb, 0xbb]);
    const empty = new Uint8Array(3).fill(0xcc);
    zeroUnread(empty, 0);
    expect([...empty]).toEqual([0, 0, 0]);
  });
});
