import { describe, expect, it } from 'vitest';
import { isValidVersion, versionKey, versionOfKey } from '../../src/main/engine/cas/version-key';

describe('version keys', () => {
  it('names a version with 20 digits under the cell folder', () => {
    expect(versionKey('root/wal/manifest', 1)).toBe('root/wal/manifest/00000000000000000001.json');
    expect(versionKey('c', 12345)).toBe('c/00000000000000012345.json');
  });

  it('reads the version back from its key', () => {
    expect(versionOfKey('c', versionKey('c', 42))).toBe(42);
  });

  it.each([
    ['c/.DS_Store'],
    ['c/123.json'],
    ['c/00000000000000000001.json.tmp'],
    ['c/tmp/00000000000000000001.json'],
    ['c/00000000000000000000.json'],
    ['cc/00000000000000000001.json'],
    ['other/00000000000000000001.json'],
    ['c/99999999999999999999.json'],
  ])('treats %s as foreign', (key) => {
    expect(versionOfKey('c', key)).toBeNull();
  });

  it('accepts only whole versions from 1', () => {
    expect(isValidVersion(1)).toBe(true);
    expect(isValidVersion(0)).toBe(false);
    expect(isValidVersion(1.5)).toBe(false);
    expect(isValidVersion(Number.MAX_SAFE_INTEGER + 1)).toBe(false);
  });
});
