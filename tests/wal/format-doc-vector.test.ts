/**
 * The `CAIRNWAL` v1 test vector of docs/design/object-format.md: the hex block the document
 * publishes for other implementations must be exactly what the encoder produces for the batch
 * it describes, and must decode to the values it states. If the document or the encoder
 * drifts, this fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeObject, encodeObject } from '../../src/main/engine/wal/format';

const DOC = join(__dirname, '..', '..', 'docs', 'design', 'object-format.md');
const MARKER = '<!-- test-vector:cairnwal-v1 -->';
const KEY = 'doc/nodes/1/generations/0/objects/00000000000000000005.wal';

function vectorFromDoc(): Uint8Array {
  const text = readFileSync(DOC, 'utf8');
  const at = text.indexOf(MARKER);
  expect(at, `${MARKER} in ${DOC}`).toBeGreaterThanOrEqual(0);
  const block = /```hex\n([\s\S]*?)```/.exec(text.slice(at));
  if (block?.[1] === undefined) throw new Error('no hex block after the marker');
  return Uint8Array.from(Buffer.from(block[1].replace(/\s+/g, ''), 'hex'));
}

const A = (1n << 32n) | 1n;
const B = (1n << 32n) | 2n;
const id = (position: bigint): bigint => (5n << 20n) | position;
const text = (value: string): Uint8Array => new TextEncoder().encode(value);

describe('the CAIRNWAL v1 test vector of the design document', () => {
  const bytes = vectorFromDoc();

  it('is what the encoder writes for the batch the document describes', () => {
    const encoded = encodeObject({
      seq: 5n,
      epoch: 2n,
      link: { seq: 4n, epoch: 2n },
      segments: new Map([
        [B, [{ id: id(1n), bytes: text('xyz') }]],
        [
          A,
          [
            { id: id(1n), bytes: text('a') },
            { id: id(2n), bytes: text('bc') },
          ],
        ],
      ]),
    });
    expect(bytes.length).toBe(258);
    expect(Buffer.from(encoded.bytes).toString('hex')).toBe(Buffer.from(bytes).toString('hex'));
  });

  it('decodes to the values the document states', () => {
    const decoded = decodeObject(bytes, KEY);
    expect(decoded.header).toEqual({
      version: 1,
      flags: 0,
      seq: 5n,
      epoch: 2n,
      link: { seq: 4n, epoch: 2n },
    });
    expect(decoded.trailer).toMatchObject({
      footerOffset: 94,
      footerLength: 100,
      footerCrc: 0x560bbfa0,
    });
    expect(decoded.segments.map((s) => [s.index.regionId, s.index.offset, s.index.length])).toEqual(
      [
        [A, 52, 27],
        [B, 79, 15],
      ],
    );
    const entries = decoded.segments.flatMap((s) =>
      s.records.map((r) => [s.index.regionId, r.id, new TextDecoder().decode(r.bytes)]),
    );
    expect(entries).toEqual([
      [A, id(1n), 'a'],
      [A, id(2n), 'bc'],
      [B, id(1n), 'xyz'],
    ]);
  });
});
