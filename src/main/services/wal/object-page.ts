/**
 * One page of a prefix's objects for the Batches table, whichever reads it: the writer this
 * app holds (its catalog) or the prefix's read model (either format); filtered by
 * status, ascending by sequence, with the chain's sequence gaps counted over every page.
 */
import type { WalObjectRow } from '../../../shared/contract/wal';
import type { OpenProgress } from '../../../shared/contract/wal-pages';
import type { AppWriter } from './app-writer';
import { perSnapshot } from './view-pages';
import { sequenceGaps } from './wal-presenters';
import { chainRowsOf, unreadRowsOf, type ObjectLists } from './wal-reads';

/** `damaged`: the objects a scrub or a replay found damaged, whatever their status. */
export type ObjectStatusFilter = 'all' | 'damaged' | WalObjectRow['status'];

export interface ObjectPage {
  readonly total: number;
  readonly offset: number;
  readonly gaps: number;
  readonly newestSeq: bigint | null;
  readonly rows: WalObjectRow[];
  readonly progress: OpenProgress;
}

/** Where an object stands in the filtered list, for "go to sequence". */
export interface LocatedObject {
  readonly index: number;
  readonly total: number;
  readonly row: WalObjectRow;
}

const LIST_OF_STATUS = {
  chain: 'chain',
  orphan: 'orphans',
  excluded: 'excluded',
  'below-boundary': 'belowBoundary',
} as const satisfies Record<WalObjectRow['status'], keyof ObjectLists>;

/** The writer's own catalog: what it indexed, and the orphans its open found. */
export function writerObjectLists(writer: AppWriter): ObjectLists {
  return {
    chain: chainRowsOf(writer.catalog),
    orphans: unreadRowsOf(writer.orphansAtOpen, 'orphan'),
    excluded: [],
    belowBoundary: [],
  };
}

/** Every object by sequence and the chain's gaps, once per lists (a snapshot's are kept). */
const summaryOf = perSnapshot((lists: ObjectLists) => ({
  all: [...lists.chain, ...lists.orphans, ...lists.excluded, ...lists.belowBoundary].sort((a, b) =>
    a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0,
  ),
  gaps: sequenceGaps(lists.chain.map((row) => row.seq)),
}));

/** The rows a status filter keeps, ascending by sequence. */
function filteredRows(lists: ObjectLists, status: ObjectStatusFilter): readonly WalObjectRow[] {
  const all = summaryOf.of(lists, lists).all;
  return status === 'all'
    ? all
    : status === 'damaged'
      ? all.filter((row) => row.damage !== undefined)
      : lists[LIST_OF_STATUS[status]];
}

export function objectPageOf(
  lists: ObjectLists,
  status: ObjectStatusFilter,
  offset: number,
  limit: number,
  progress: OpenProgress,
): ObjectPage {
  const rows = filteredRows(lists, status);
  return {
    total: rows.length,
    offset,
    gaps: summaryOf.of(lists, lists).gaps,
    newestSeq: rows.at(-1)?.seq ?? null,
    rows: rows.slice(offset, offset + limit),
    progress,
  };
}

/** The object of sequence `seq` in the filtered list and its index there; null if not listed. */
export function locateObject(
  lists: ObjectLists,
  status: ObjectStatusFilter,
  seq: bigint,
): LocatedObject | null {
  const rows = filteredRows(lists, status);
  const index = rows.findIndex((row) => row.seq === seq);
  const row = rows[index];
  return row === undefined ? null : { index, total: rows.length, row };
}
