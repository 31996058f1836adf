import { describe, expect, it } from 'vitest';
import {
  keysIn,
  rowsOf,
  type ListingPage,
} from '../../src/renderer/src/views/browser/browser-rows';

function page(keys: readonly string[], folders: readonly string[] = []): ListingPage {
  return {
    objects: keys.map((key) => ({ key, size: 1, etag: `e-${key}` })),
    commonPrefixes: [...folders],
  };
}

describe("the bucket browser's rows", () => {
  it('lists each page its folders first, then its objects, in page order', () => {
    const rows = rowsOf([page(['a/1', 'a/2'], ['a/x/']), page(['a/3'])]);
    expect(rows.map((row) => `${row.kind}:${row.key}`)).toEqual([
      'folder:a/x/',
      'object:a/1',
      'object:a/2',
      'object:a/3',
    ]);
    expect(keysIn({ pages: [page(['a/1', 'a/2'], ['a/x/']), page(['a/3'])] })).toBe(4);
    expect(keysIn(undefined)).toBe(0);
  });

  it('keeps the row objects of the pages already loaded when a page arrives', () => {
    const first = page(['a/1', 'a/2']);
    const before = rowsOf([first]);
    const after = rowsOf([first, page(['a/3'])]);
    expect(after).toHaveLength(3);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
    // A page read again (a refetch that found it changed) makes new rows.
    expect(rowsOf([page(['a/1', 'a/2'])])[0]).not.toBe(before[0]);
  });
});
