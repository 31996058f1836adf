/**
 * How the WAL views carry a big prefix: long lists (regions, objects, an object's segments)
 * travel a page at a time, inspection carries counts and only the newest rows of its lists,
 * and every view of a prefix says how far its open has come (objects indexed of those
 * listed). A prefix of 100,000 objects or an object of 300,000 regions then never builds or
 * sends a reply of hundreds of megabytes. Shapes only; the services decide what goes in.
 */
import { z } from 'zod';

/** Rows one page of a list carries at most. */
export const MAX_PAGE_ROWS = 1_000;

/** Rows of each list inspection carries (the newest objects, the first regions): counts say the rest. */
export const INSPECT_LIST_ROWS = 100;

/** `offset` and `limit` of a paged list; `limit` defaults to the largest page. */
export function pageFields(defaultLimit: number = MAX_PAGE_ROWS) {
  return {
    offset: z.int().min(0).max(1_000_000_000).default(0),
    limit: z.int().min(1).max(MAX_PAGE_ROWS).default(defaultLimit),
  };
}

/**
 * How far the open of a prefix has come. While `done` is false the views are provisional:
 * the tip and chain are the newest objects read so far (their links to objects not read yet
 * taken on trust), and counts cover the objects indexed so far.
 */
export const OpenProgress = z.object({
  /** Objects whose index is known: read from storage, or taken from the local index. */
  indexed: z.number(),
  /** Objects listed; null while the listing has not reached the end of the prefix. */
  total: z.number().nullable(),
  /** Of `indexed`, those the local index held (no read of the object). */
  fromIndex: z.number(),
  done: z.boolean(),
});
export type OpenProgress = z.infer<typeof OpenProgress>;

/** The progress of a prefix read whole (a writer's live catalog, a finished open). */
export function doneProgress(objects: number, fromIndex = 0): OpenProgress {
  return { indexed: objects, total: objects, fromIndex, done: true };
}
