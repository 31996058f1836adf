import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_SEQ } from '../../src/main/engine/wal/ids';
import {
  manifestCell,
  objectKey,
  objectsFolder,
  objectsStartAfter,
  seqOfAnyObjectKey,
  seqOfObjectKey,
  seqOfObjectName,
  walPrefix,
} from '../../src/main/engine/wal/keys';

const PREFIX = walPrefix('team/wal', 42n, 3);

describe('WAL key layout', () => {
  it('places a log at <root>/nodes/<nodeId>/generations/<generation>', () => {
    expect(PREFIX).toBe('team/wal/nodes/42/generations/3');
    expect(objectsFolder(PREFIX)).toBe('team/wal/nodes/42/generations/3/objects/');
    expect(manifestCell(PREFIX)).toBe('team/wal/nodes/42/generations/3/manifest');
  });

  it('names objects with 20-digit sequences, so key order is sequence order', () => {
    expect(objectKey(PREFIX, 0n)).toBe(`${PREFIX}/objects/00000000000000000000.wal`);
    expect(objectKey(PREFIX, 1234n)).toBe(`${PREFIX}/objects/00000000000000001234.wal`);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: MAX_SEQ }),
        fc.bigInt({ min: 0n, max: MAX_SEQ }),
        (a, b) => {
          const [ka, kb] = [objectKey(PREFIX, a), objectKey(PREFIX, b)];
          expect(ka < kb).toBe(a < b);
          expect(seqOfObjectKey(PREFIX, ka)).toBe(a);
          expect(seqOfAnyObjectKey(ka)).toBe(a);
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each([
    ['a temp file', `${PREFIX}/objects/00000000000000000001.wal.tmp`],
    ['.DS_Store', `${PREFIX}/objects/.DS_Store`],
    ['a short name', `${PREFIX}/objects/1.wal`],
    ['another extension', `${PREFIX}/objects/00000000000000000001.json`],
    ['a sub-folder', `${PREFIX}/objects/x/00000000000000000001.wal`],
    ['another prefix', 'other/nodes/42/generations/3/objects/00000000000000000001.wal'],
    ['a sequence at 2^44', `${PREFIX}/objects/${(2n ** 44n).toString().padStart(20, '0')}.wal`],
    ['the manifest', `${PREFIX}/manifest/00000000000000000001.json`],
  ])('ignores %s', (_name, key) => {
    expect(seqOfObjectKey(PREFIX, key)).toBeNull();
  });

  it('reads a bare object name and any prefix', () => {
    expect(seqOfObjectName('00000000000000000009.wal')).toBe(9n);
    expect(seqOfAnyObjectKey('objects/00000000000000000009.wal')).toBe(9n);
    expect(seqOfAnyObjectKey('x/y/objects/00000000000000000009.wal')).toBe(9n);
    expect(seqOfAnyObjectKey('x/notobjects/00000000000000000009.wal')).toBeNull();
  });

  it('lists from a boundary with startAfter just below its key', () => {
    expect(objectsStartAfter(PREFIX, 0n)).toBeUndefined();
    const after = objectsStartAfter(PREFIX, 5n);
    expect(after).toBe(objectKey(PREFIX, 4n));
    expect(objectKey(PREFIX, 5n) > (after ?? '')).toBe(true);
    expect(objectKey(PREFIX, 4n) > (after ?? '')).toBe(false);
  });
});
