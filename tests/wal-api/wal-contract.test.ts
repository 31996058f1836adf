/**
 * The WAL contract's parsing of what users type (region ids, entry ids, prefixes), the
 * obsolete preview's arithmetic on a real catalog, and the Replay view's filters. Pure.
 */
import { describe, expect, it } from 'vitest';
import { formatWalRegion, parseWalRegion, walProcedures } from '../../src/shared/contract/wal';
import { ObjectCatalog } from '../../src/main/engine/wal/catalog';
import { previewObsolete } from '../../src/main/services/wal/obsolete-preview';
import { sequenceGaps } from '../../src/main/services/wal/wal-presenters';
import { targetOf, walRootOf } from '../../src/main/services/wal/wal-target';
import { matchesJsonPath, parseJsonPath } from '../../src/renderer/src/views/wal/replay-filter';

const R = (1n << 32n) | 1n;
const id = (seq: bigint, position: bigint) => (seq << 20n) | position;

describe('region and entry ids as typed', () => {
  it.each([
    ['1:1', R],
    [' 4294967297 ', R],
    ['0:0', 0n],
    ['4294967295:4294967295', (1n << 64n) - 1n],
  ])('reads %s', (text, expected) => {
    expect(parseWalRegion(text)).toBe(expected);
    expect(
      walProcedures['wal.obsoleteAll'].input.parse({
        connectionId: 'c',
        prefix: 'wal/nodes/0/generations/0',
        region: text,
      }).region,
    ).toBe(expected);
  });

  it.each(['1:4294967296', '18446744073709551616', '1:', 'x', '-1'])('refuses %s', (text) => {
    expect(parseWalRegion(text)).toBeNull();
  });

  it('shows regions as table:region and accepts ids as bigints or decimal text', () => {
    expect(formatWalRegion(R)).toBe('1:1');
    const input = { connectionId: 'c', prefix: 'wal/nodes/0/generations/0', region: R, id: '123' };
    expect(walProcedures['wal.obsolete'].input.parse(input).id).toBe(123n);
    expect(walProcedures['wal.obsolete'].input.safeParse({ ...input, id: 1n << 64n }).success).toBe(
      false,
    );
  });

  it("maps a prefix to its configuration under the connection's WAL root, canonically", () => {
    expect(walRootOf('')).toBe('wal');
    expect(walRootOf('team/a/')).toBe('team/a/wal');
    expect(targetOf('wal', 'wal/nodes/7/generations/2').config).toMatchObject({
      root: 'wal',
      nodeId: 7n,
      generation: 2,
    });
    expect(() => targetOf('wal', 'wal/nodes/07/generations/2')).toThrow(/not a WAL prefix/);
    expect(() => targetOf('wal', 'other/nodes/7/generations/2')).toThrow(/not a WAL prefix/);
  });
});

describe('obsolete preview', () => {
  const catalog = new ObjectCatalog('p');
  const segment = (seq: bigint, entries: number) => ({
    regionId: R,
    firstId: id(seq, 1n),
    lastId: id(seq, BigInt(entries)),
    entries,
    offset: 52,
    length: entries * 10,
    segmentCrc: 0,
  });
  catalog.index({ seq: 1n, epoch: 1n, link: null, size: 100, segments: [segment(1n, 3)] });
  catalog.index({
    seq: 2n,
    epoch: 1n,
    link: { seq: 1n, epoch: 1n },
    size: 100,
    segments: [segment(2n, 4)],
  });

  it('counts the entries and wholly hidden objects up to an id', () => {
    expect(previewObsolete(catalog, R, id(2n, 2n))).toMatchObject({
      hiddenEntries: 5,
      hiddenObjects: 1,
      hiddenBytes: 30,
      watermark: 0n,
      latestId: id(2n, 4n),
      noChange: false,
    });
    expect(previewObsolete(catalog, R, id(2n, 4n))).toMatchObject({
      hiddenEntries: 7,
      hiddenObjects: 2,
    });
  });

  it('counts only what lies above the current watermark', () => {
    catalog.raiseWatermark(R, id(1n, 2n));
    expect(previewObsolete(catalog, R, id(2n, 1n))).toMatchObject({
      hiddenEntries: 2,
      hiddenObjects: 1,
    });
    expect(previewObsolete(catalog, R, id(1n, 1n))).toMatchObject({
      hiddenEntries: 0,
      noChange: true,
    });
  });

  it("counts breaks in a chain's sequence", () => {
    expect(sequenceGaps([1n, 2n, 3n])).toBe(0);
    expect(sequenceGaps([1n, 3n, 4n, 70n])).toBe(2);
  });
});

describe('replay JSON-path filter', () => {
  const doc = JSON.stringify({ a: { b: 5, c: 'x' }, list: [{ n: 1 }] });
  it.each([
    ['$.a.b == 5', true],
    ['$.a.b == "5"', true],
    ['$.a.b != 5', false],
    ['$.a.c == x', true],
    ['$.list[0].n == 1', true],
    ['$.a.missing', false],
    ['$.a', true],
  ])('%s -> %s', (text, expected) => {
    const filter = parseJsonPath(text);
    if (filter instanceof Error) throw filter;
    expect(matchesJsonPath(filter, doc)).toBe(expected);
  });

  it('names a malformed path and never matches a payload that is not JSON', () => {
    expect(parseJsonPath('a.b == 1')).toBeInstanceOf(Error);
    expect(parseJsonPath('$.a..b')).toBeInstanceOf(Error);
    const filter = parseJsonPath('$.a');
    expect(!(filter instanceof Error) && matchesJsonPath(filter, 'not json')).toBe(false);
  });
});
