/** The wire carries bytes exactly, views with an offset included (Node's native base64 path). */
import { describe, expect, it } from 'vitest';
import { decodeWire, encodeWire } from '../../src/shared/wire';

describe('bytes on the wire', () => {
  it.each([0, 1, 2, 3, 1000, 1024 * 1024 + 7])('round-trips %i bytes', (length) => {
    const backing = new Uint8Array(length + 5).map((_, i) => (i * 131 + 7) % 256);
    const view = backing.subarray(3, 3 + length);
    const back = decodeWire(encodeWire({ bytes: view })) as { bytes: Uint8Array };
    expect(back.bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(back.bytes).equals(Buffer.from(view))).toBe(true);
  });
});
