import { describe, expect, it } from 'vitest';
import { goToTarget, startAfterFor } from '../../src/renderer/src/views/browser/go-to-target';

const PREFIX = 'wal/nodes/0/generations/1';
const OBJECTS = `${PREFIX}/objects/`;
const KEY_1500 = `${OBJECTS}00000000000000001500.wal`;

describe("the bucket browser's Go to", () => {
  it('leads a sequence or an entry id to its WAL object, in the folder shown or the selected prefix', () => {
    expect(goToTarget('1500', OBJECTS, null)).toEqual({
      folder: OBJECTS,
      objectKey: KEY_1500,
      anchor: KEY_1500,
    });
    expect(goToTarget(' 1500:17 ', '', PREFIX)).toEqual({
      folder: OBJECTS,
      objectKey: KEY_1500,
      anchor: KEY_1500,
    });
  });

  it('leads a key to its folder, a folder to itself and a name into the folder shown', () => {
    expect(goToTarget('logs/a.txt', '', null)).toEqual({
      folder: 'logs/',
      objectKey: 'logs/a.txt',
      anchor: 'logs/a.txt',
    });
    expect(goToTarget('logs/', OBJECTS, PREFIX)).toEqual({
      folder: 'logs/',
      objectKey: null,
      anchor: null,
    });
    expect(goToTarget('notes.txt', 'logs/', null)).toEqual({
      folder: 'logs/',
      objectKey: 'logs/notes.txt',
      anchor: 'logs/notes.txt',
    });
  });

  it('says why it cannot go: nothing typed, a sequence with no WAL prefix, a sequence too large', () => {
    expect(goToTarget('  ', '', null)).toBeInstanceOf(Error);
    expect((goToTarget('1500', 'logs/', null) as Error).message).toMatch(/no WAL prefix/);
    expect((goToTarget(String(2n ** 44n), OBJECTS, null) as Error).message).toMatch(/above 2\^44/);
  });

  it('opens a listing just below a key, so the key itself is listed', () => {
    for (const key of [KEY_1500, 'a', 'logs/b.txt', 'x/😀']) {
      const after = startAfterFor(key);
      expect(after === undefined || after < key).toBe(true);
    }
    expect(startAfterFor('logs/b.txt')).toBe('logs/b.txs');
    expect(startAfterFor('')).toBeUndefined();
    expect(startAfterFor('x/😀')).toBe('x/');
  });
});
