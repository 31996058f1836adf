/** The bucket browser's rows, made from the listing's pages. */
import type { OutputOf } from '../../../../shared/contract';

export type ListingPage = OutputOf<'objects.list'>;

export type Row =
  | { kind: 'folder'; key: string }
  | { kind: 'object'; key: string; size: number; etag: string; lastModified?: Date };

/** Keys (objects and folders) the pages hold. */
export function keysIn(listing: { pages: readonly ListingPage[] } | undefined): number {
  let keys = 0;
  for (const page of listing?.pages ?? []) keys += page.objects.length + page.commonPrefixes.length;
  return keys;
}

/**
 * A page's rows (its folders, then its objects) are made once per page: when a page arrives, or
 * a refetch leaves a page as it was, every other page keeps its row objects, so the memoized
 * rows on screen do not render again.
 */
const pageRows = new WeakMap<ListingPage, readonly Row[]>();

export function rowsOf(pages: readonly ListingPage[]): readonly Row[] {
  const all: Row[] = [];
  for (const page of pages) {
    let rows = pageRows.get(page);
    if (rows === undefined) {
      rows = [
        ...page.commonPrefixes.map((key): Row => ({ kind: 'folder', key })),
        ...page.objects.map((object): Row => ({ kind: 'object', ...object })),
      ];
      pageRows.set(page, rows);
    }
    for (const row of rows) all.push(row);
  }
  return all;
}
